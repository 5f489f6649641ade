SET DateStyle = 'ISO, MDY'; SET TimeZone = 'UTC'; SET IntervalStyle = 'postgres';
-- ALTER TABLE ... RENAME: tables, columns, views; views over them keep working
CREATE TABLE ar_t (id int, a text, b int);
INSERT INTO ar_t VALUES (1, 'x', 10), (2, 'y', 20);
CREATE VIEW ar_v AS SELECT id, a AS label, b * 2 AS b2 FROM ar_t WHERE b > 5;
CREATE VIEW ar_star AS SELECT * FROM ar_t;
CREATE VIEW ar_q AS SELECT ar_t.id, t2.a FROM ar_t JOIN ar_t t2 USING (id);
CREATE VIEW ar_vv AS SELECT label FROM ar_v;
ALTER TABLE ar_t RENAME COLUMN a TO aa;
SELECT * FROM ar_t ORDER BY id;
SELECT * FROM ar_v ORDER BY id;
SELECT * FROM ar_star ORDER BY id;
SELECT * FROM ar_q ORDER BY id;
ALTER TABLE ar_t RENAME b TO bb;
SELECT * FROM ar_v ORDER BY id;
ALTER TABLE ar_t RENAME TO ar_t2;
SELECT * FROM ar_t;
SELECT * FROM ar_t2 ORDER BY id;
SELECT * FROM ar_v ORDER BY id;
SELECT * FROM ar_star ORDER BY id;
SELECT * FROM ar_q ORDER BY id;
SELECT * FROM ar_vv ORDER BY label;
-- a view renamed: views over it keep working
ALTER VIEW ar_v RENAME TO ar_v2;
SELECT * FROM ar_vv ORDER BY label;
SELECT * FROM ar_v2 ORDER BY id;
ALTER TABLE ar_vv RENAME TO ar_vv2;
SELECT * FROM ar_vv2 ORDER BY label;
-- ADD COLUMN does not change a view's columns
ALTER TABLE ar_t2 ADD COLUMN c int DEFAULT 3;
SELECT * FROM ar_star ORDER BY id;
SELECT * FROM ar_t2 ORDER BY id;
-- errors
ALTER TABLE ar_t2 RENAME COLUMN nope TO x;
ALTER TABLE ar_t2 RENAME COLUMN aa TO bb;
ALTER TABLE ar_t2 RENAME TO ar_star;
ALTER TABLE ar_nope RENAME TO ar_x;
ALTER TABLE IF EXISTS ar_nope RENAME TO ar_x;
ALTER TABLE IF EXISTS ar_nope RENAME COLUMN a TO b;
-- renames in a transaction: rolled back, then committed
BEGIN;
ALTER TABLE ar_t2 RENAME TO ar_t3;
ALTER TABLE ar_t3 RENAME COLUMN aa TO a3;
SELECT a3 FROM ar_t3 ORDER BY a3;
ROLLBACK;
SELECT aa FROM ar_t2 ORDER BY aa;
SELECT * FROM ar_t3;
BEGIN;
CREATE TABLE ar_swap (z int);
INSERT INTO ar_swap VALUES (99);
ALTER TABLE ar_swap RENAME TO ar_tmpname;
ALTER TABLE ar_t2 RENAME TO ar_swap;
ALTER TABLE ar_tmpname RENAME TO ar_t2;
COMMIT;
SELECT * FROM ar_t2;
SELECT * FROM ar_swap ORDER BY id;
SELECT * FROM ar_v2 ORDER BY id;
-- a temporary table
CREATE TEMP TABLE ar_tmp (p int);
INSERT INTO ar_tmp VALUES (5);
ALTER TABLE ar_tmp RENAME p TO q;
ALTER TABLE ar_tmp RENAME TO ar_tmp2;
SELECT q FROM ar_tmp2;
DROP TABLE ar_tmp2;
-- pg_class and pg_attribute follow
SELECT relname FROM pg_class WHERE relname LIKE 'ar\_%' ORDER BY relname;
SELECT attname FROM pg_attribute WHERE attrelid = 'ar_swap'::regclass AND attnum > 0 ORDER BY attnum;
DROP TABLE ar_t2;
DROP TABLE ar_swap CASCADE;
