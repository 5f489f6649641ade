SET DateStyle = 'ISO, MDY'; SET TimeZone = 'UTC'; SET IntervalStyle = 'postgres';
-- issue 13's writes and keys on a table of a schema other than public
CREATE SCHEMA nsf;
CREATE TABLE nsf.nsf_t (id serial PRIMARY KEY, v int CHECK (v > 0), w text UNIQUE);
CREATE INDEX ON nsf.nsf_t (v);
\d nsf.nsf_t
SELECT relname, relkind FROM pg_class WHERE relnamespace = 'nsf'::regnamespace ORDER BY 1;
SELECT conname, contype FROM pg_constraint WHERE connamespace = 'nsf'::regnamespace ORDER BY 1;
SELECT schemaname, tablename, indexname FROM pg_indexes WHERE schemaname = 'nsf' ORDER BY 3;
SELECT sequence_schema, sequence_name FROM information_schema.sequences WHERE sequence_schema = 'nsf';
INSERT INTO nsf.nsf_t (v, w) VALUES (1, 'a'), (2, 'b'), (3, 'c');
INSERT INTO nsf.nsf_t (v, w) VALUES (0, 'z');
INSERT INTO nsf.nsf_t (id, v, w) VALUES (1, 5, 'd');
INSERT INTO nsf.nsf_t (v, w) VALUES (5, 'a');
SELECT * FROM nsf.nsf_t ORDER BY id;
SELECT last_value, is_called FROM nsf.t_id_seq;
SELECT nextval('nsf.t_id_seq');
SELECT currval('nsf.t_id_seq');
UPDATE nsf.nsf_t SET v = v + 10 WHERE id = 2 RETURNING *;
UPDATE nsf.nsf_t SET v = -1 WHERE id = 3;
DELETE FROM nsf.nsf_t WHERE id = 1 RETURNING id, w;
INSERT INTO nsf.nsf_t (id, v, w) VALUES (2, 7, 'bb') ON CONFLICT (id) DO NOTHING RETURNING *;
INSERT INTO nsf.nsf_t (id, v, w) VALUES (3, 8, 'cc') ON CONFLICT (id) DO NOTHING;
INSERT INTO nsf.nsf_t (id, v, w) VALUES (9, 9, 'bb') ON CONFLICT ON CONSTRAINT nsf_t_w_key DO NOTHING;
SELECT * FROM nsf.nsf_t ORDER BY id;
CREATE TABLE nsf.src (id int, v int);
INSERT INTO nsf.src VALUES (2, 20), (3, 30), (40, 4);
MERGE INTO nsf.nsf_t t USING nsf.src s ON t.id = s.id
  WHEN MATCHED AND s.v > 25 THEN DELETE
  WHEN MATCHED THEN UPDATE SET v = s.v
  WHEN NOT MATCHED THEN INSERT (id, v, w) VALUES (s.id, s.v, 'm');
SELECT * FROM nsf.nsf_t ORDER BY id;
ALTER TABLE nsf.nsf_t ADD COLUMN x int DEFAULT 7;
ALTER TABLE nsf.nsf_t RENAME COLUMN x TO y;
SELECT * FROM nsf.nsf_t ORDER BY id;
\d nsf.nsf_t
-- the same names in public are other relations
CREATE TABLE nsf_t (id serial PRIMARY KEY, v int);
CREATE INDEX ON nsf_t (v);
SELECT c.relname, n.nspname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
  WHERE c.relname LIKE 'nsf\_t%' ORDER BY 2, 1;
SET search_path = nsf, public;
INSERT INTO nsf_t (v, w) VALUES (11, 'sp');
SELECT id, v, w FROM nsf_t ORDER BY id;
RESET search_path;
DROP TABLE nsf_t;
DROP SCHEMA nsf;
DROP SCHEMA nsf CASCADE;
SELECT count(*) FROM pg_class WHERE relname LIKE 'nsf\_t%';
-- the other relation kinds of a schema, renames and comments
CREATE SCHEMA nsf2;
CREATE TABLE nsf2.r (id int PRIMARY KEY, v int);
CREATE INDEX r_v ON nsf2.r (v);
CREATE SEQUENCE nsf2.sq START 10;
CREATE VIEW nsf2.rv AS SELECT id, v FROM nsf2.r;
CREATE VIEW nsf2.sv AS SELECT last_value FROM nsf2.sq;
INSERT INTO nsf2.r VALUES (1, 1), (2, 2);
SELECT nextval('nsf2.sq'), * FROM nsf2.sv;
ALTER INDEX nsf2.r_v RENAME TO r_v2;
ALTER TABLE nsf2.r RENAME TO r2;
ALTER TABLE nsf2.r2 RENAME COLUMN v TO w;
ALTER VIEW nsf2.rv RENAME TO rv2;
COMMENT ON TABLE nsf2.r2 IS 'in nsf2';
COMMENT ON COLUMN nsf2.r2.w IS 'the w';
SELECT * FROM nsf2.rv2 ORDER BY id;
SELECT obj_description('nsf2.r2'::regclass, 'pg_class'), col_description('nsf2.r2'::regclass, 2);
SELECT relname FROM pg_class WHERE relnamespace = 'nsf2'::regnamespace ORDER BY 1;
INSERT INTO nsf2.r2 VALUES (1, 5);
DROP INDEX nsf2.r2_pkey;
DROP INDEX nsf2.r_v2;
DROP INDEX IF EXISTS nsf2.r_v2;
DROP SEQUENCE nsf2.sq;
DROP SCHEMA nsf2;
DROP SCHEMA nsf2 CASCADE;
-- foreign keys between tables of a schema
CREATE SCHEMA nsf3;
CREATE TABLE nsf3.p (id int PRIMARY KEY, x text);
CREATE TABLE nsf3.c (id int, pid int REFERENCES nsf3.p);
INSERT INTO nsf3.p VALUES (1, 'a'), (2, 'b'), (3, 'c');
INSERT INTO nsf3.c VALUES (1, 1), (2, 2);
INSERT INTO nsf3.c VALUES (3, 4);
DELETE FROM nsf3.p WHERE id = 1;
DELETE FROM nsf3.p WHERE id = 3 RETURNING x;
UPDATE nsf3.p SET id = 5 WHERE id = 2;
UPDATE nsf3.p SET x = 'bb' WHERE id = 2 RETURNING *;
SELECT * FROM nsf3.p ORDER BY id;
DROP TABLE nsf3.p;
DROP TABLE nsf3.p CASCADE;
DELETE FROM nsf3.c WHERE pid = 1 RETURNING *;
DROP SCHEMA nsf3 CASCADE;
