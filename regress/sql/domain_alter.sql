SET DateStyle = 'ISO, MDY'; SET TimeZone = 'UTC'; SET IntervalStyle = 'postgres';
-- ALTER DOMAIN against stored values, domains over domains, COPY FROM into domain columns
CREATE DOMAIN da_int AS int;
CREATE TABLE da_t (id int, a da_int);
INSERT INTO da_t VALUES (1, 5), (2, NULL), (3, 20);
ALTER DOMAIN da_int SET NOT NULL;
UPDATE da_t SET a = 7 WHERE a IS NULL;
ALTER DOMAIN da_int SET NOT NULL;
ALTER DOMAIN da_int SET NOT NULL;
INSERT INTO da_t VALUES (4, NULL);
ALTER DOMAIN da_int DROP NOT NULL;
INSERT INTO da_t VALUES (4, NULL);
DELETE FROM da_t WHERE id = 4;
ALTER DOMAIN da_int ADD CONSTRAINT small CHECK (VALUE < 10);
ALTER DOMAIN da_int ADD CONSTRAINT small CHECK (VALUE < 10) NOT VALID;
ALTER DOMAIN da_int ADD CONSTRAINT small CHECK (VALUE < 100);
ALTER DOMAIN da_int ADD CHECK (VALUE > 0);
INSERT INTO da_t VALUES (5, 12);
INSERT INTO da_t VALUES (5, 0);
INSERT INTO da_t VALUES (5, 200);
SELECT 9::da_int, (-1)::da_int;
SELECT conname, convalidated, contype FROM pg_constraint WHERE contypid = 'da_int'::regtype ORDER BY conname;
ALTER DOMAIN da_int VALIDATE CONSTRAINT small;
UPDATE da_t SET a = 8 WHERE a = 20;
ALTER DOMAIN da_int VALIDATE CONSTRAINT small;
ALTER DOMAIN da_int VALIDATE CONSTRAINT nope;
SELECT conname, convalidated FROM pg_constraint WHERE contypid = 'da_int'::regtype ORDER BY conname;
ALTER DOMAIN da_int RENAME CONSTRAINT small TO tiny;
ALTER DOMAIN da_int RENAME CONSTRAINT small TO tiny;
ALTER DOMAIN da_int RENAME CONSTRAINT tiny TO da_int_check;
ALTER DOMAIN da_int DROP CONSTRAINT nope;
ALTER DOMAIN da_int DROP CONSTRAINT IF EXISTS nope;
ALTER DOMAIN da_int DROP CONSTRAINT tiny;
INSERT INTO da_t VALUES (6, 50);
SELECT 0::da_int;
ALTER DOMAIN int4 SET NOT NULL;
ALTER DOMAIN da_missing SET NOT NULL;
-- DEFAULT
CREATE TABLE da_d (id int, a da_int);
INSERT INTO da_d (id) VALUES (1);
ALTER DOMAIN da_int SET DEFAULT 3;
INSERT INTO da_d (id) VALUES (2);
ALTER DOMAIN da_int DROP DEFAULT;
INSERT INTO da_d (id) VALUES (3);
SELECT * FROM da_d ORDER BY id;
-- domains over domains: the inner checks first, the outer domain named
CREATE DOMAIN da_v4 AS varchar(4);
CREATE DOMAIN da_x AS da_v4 CHECK (substring(VALUE, 1, 1) = 'x');
CREATE DOMAIN da_x1 AS da_x NOT NULL CHECK (substring(VALUE, 2, 1) = '1');
SELECT 'x123'::da_x1, 'x12345'::da_x1, pg_typeof('x123'::da_x1);
SELECT 'y123'::da_x1;
SELECT 'xz23'::da_x1;
SELECT NULL::da_x1;
CREATE TABLE da_n (v da_x1);
INSERT INTO da_n VALUES ('x1');
INSERT INTO da_n VALUES ('x12345');
INSERT INTO da_n VALUES ('y1');
ALTER DOMAIN da_x ADD CONSTRAINT two CHECK (length(VALUE) = 2);
ALTER DOMAIN da_x ADD CONSTRAINT short CHECK (length(VALUE) < 4);
INSERT INTO da_n VALUES ('x123');
DROP DOMAIN da_x;
-- COPY FROM checks the domains of the columns
COPY da_n FROM stdin;
x2
\.
COPY da_n FROM stdin;
\N
\.
COPY da_n FROM stdin;
x19
\.
SELECT * FROM da_n ORDER BY v;
-- the common type of a domain and its base is the base
SELECT pg_typeof(coalesce(4::da_int, 7)), pg_typeof(coalesce(4::da_int, 7::da_int));
SELECT pg_typeof(x) FROM (SELECT 1::da_int AS x UNION ALL SELECT 2) s ORDER BY 1;
-- ADD COLUMN of a constrained domain computes it for the stored rows
CREATE DOMAIN da_nn AS text NOT NULL;
CREATE DOMAIN da_notfoo AS text CHECK (VALUE <> 'foo') DEFAULT 'foo';
CREATE TABLE da_e (a int);
ALTER TABLE da_e ADD COLUMN b da_nn;
INSERT INTO da_e VALUES (1);
ALTER TABLE da_e ADD COLUMN b da_nn;
ALTER TABLE da_e ADD COLUMN c da_notfoo;
ALTER DOMAIN da_notfoo SET DEFAULT 'bar';
ALTER TABLE da_e ADD COLUMN c da_notfoo;
SELECT * FROM da_e ORDER BY a;
-- renaming
ALTER DOMAIN da_notfoo RENAME TO da_notfoo2;
ALTER TYPE da_notfoo2 RENAME TO da_notfoo3;
SELECT typname FROM pg_type WHERE typname LIKE 'da_notfoo%' ORDER BY 1;
-- an ALTER DOMAIN rolled back leaves the domain as it was
BEGIN;
ALTER DOMAIN da_int ADD CONSTRAINT gone CHECK (VALUE > 100) NOT VALID;
SELECT 5::da_int;
ROLLBACK;
SELECT 5::da_int;
DROP TABLE da_t, da_d, da_n, da_e;
DROP DOMAIN da_x1;
DROP DOMAIN da_v4 CASCADE;
DROP DOMAIN da_int, da_nn, da_notfoo3;
