SET DateStyle = 'ISO, MDY'; SET TimeZone = 'UTC'; SET IntervalStyle = 'postgres';
-- CHECK constraints: column and table forms, names, NULL passes, row order.
CREATE TABLE kc_t (a int CHECK (a > 0), b int, c text CHECK (c <> ''), CHECK (b > a), CONSTRAINT kc_named CHECK (a < 100 OR b IS NULL));
INSERT INTO kc_t VALUES (1, 2, 'x');
INSERT INTO kc_t VALUES (0, 2, 'x');
INSERT INTO kc_t VALUES (5, 2, 'x');
INSERT INTO kc_t VALUES (5, 6, '');
INSERT INTO kc_t VALUES (200, 300, 'x');
INSERT INTO kc_t VALUES (null, null, null);
INSERT INTO kc_t VALUES (1, 2, 'ok'), (2, 3, 'ok'), (3, 1, 'bad'), (0, 9, 'bad');
INSERT INTO kc_t (b) VALUES (1);
SELECT * FROM kc_t ORDER BY a NULLS LAST, b;
SELECT conname, contype, conkey, pg_get_constraintdef(oid), pg_get_constraintdef(oid, true) FROM pg_constraint WHERE conrelid = 'kc_t'::regclass ORDER BY conname;
\d kc_t
-- NOT NULL still reports first; CHECK before unique key on a row.
CREATE TABLE kc_u (id int PRIMARY KEY, v int NOT NULL CHECK (v > 0));
INSERT INTO kc_u VALUES (1, 1);
INSERT INTO kc_u VALUES (2, null);
INSERT INTO kc_u VALUES (1, 0);
INSERT INTO kc_u VALUES (1, 5), (3, 0);
INSERT INTO kc_u VALUES (3, 0), (1, 5);
-- Errors of the expression itself.
CREATE TABLE kc_bad (a int CHECK (a));
CREATE TABLE kc_bad (a int CHECK (b > 0));
CREATE TABLE kc_bad (a int CHECK (a > 0) DEFERRABLE);
CREATE TABLE kc_d (a int, d date CHECK (d > '2020-01-01'), CHECK (a / 1 > 0));
INSERT INTO kc_d VALUES (1, '2021-05-05');
INSERT INTO kc_d VALUES (1, '2019-05-05');
SELECT * FROM kc_d ORDER BY a;
-- ALTER TABLE ADD CHECK validates the rows.
CREATE TABLE kc_a (a int);
INSERT INTO kc_a VALUES (1), (-1), (null);
ALTER TABLE kc_a ADD CHECK (a > 0);
ALTER TABLE kc_a ADD CONSTRAINT kc_a_pos CHECK (a > -5);
INSERT INTO kc_a VALUES (-7);
ALTER TABLE kc_a DROP CONSTRAINT kc_a_pos;
INSERT INTO kc_a VALUES (-7);
SELECT * FROM kc_a ORDER BY a;
-- RENAME COLUMN follows into the expression.
ALTER TABLE kc_t RENAME COLUMN a TO a2;
INSERT INTO kc_t VALUES (0, 5, 'x');
SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = 'kc_t'::regclass ORDER BY conname;
DROP TABLE kc_t, kc_u, kc_d, kc_a;
