SET DateStyle = 'ISO, MDY'; SET TimeZone = 'UTC'; SET IntervalStyle = 'postgres';
-- COMMENT ON TABLE / VIEW / COLUMN: pg_description, obj_description, col_description, psql's \d+ and \dt+
CREATE TABLE co_t (id int NOT NULL, label text DEFAULT 'x', amount numeric(8,2));
CREATE VIEW co_v AS SELECT id, label FROM co_t;
COMMENT ON TABLE co_t IS 'Orders we keep';
COMMENT ON COLUMN co_t.id IS 'the key';
COMMENT ON COLUMN co_t.amount IS 'in euros, two decimals';
COMMENT ON VIEW co_v IS 'labels only';
COMMENT ON COLUMN co_v.label IS 'a view column';
SELECT obj_description('co_t'::regclass, 'pg_class') AS t, obj_description('co_t'::regclass) AS t1,
  obj_description('co_v'::regclass, 'pg_class') AS v, obj_description('co_t'::regclass, 'pg_namespace') AS other;
SELECT col_description('co_t'::regclass, 1) AS c1, col_description('co_t'::regclass, 2) AS c2,
  col_description('co_t'::regclass, 3) AS c3, col_description('co_v'::regclass, 2) AS v2;
SELECT c.relname, d.objsubid, d.description FROM pg_description d JOIN pg_class c ON c.oid = d.objoid
 WHERE c.relname LIKE 'co\_%' AND d.classoid = 'pg_class'::regclass ORDER BY 1, 2;
-- the Description columns of psql's \d+ and \dt+ (their other columns are PostgreSQL's storage)
SELECT a.attname, pg_catalog.col_description(a.attrelid, a.attnum) FROM pg_catalog.pg_attribute a
 WHERE a.attrelid = 'co_t'::regclass AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum;
SELECT c.relname, pg_catalog.obj_description(c.oid, 'pg_class') FROM pg_catalog.pg_class c
 WHERE c.relname LIKE 'co\_%' ORDER BY 1;
-- replaced, removed
COMMENT ON TABLE co_t IS 'Orders';
COMMENT ON COLUMN co_t.id IS NULL;
COMMENT ON COLUMN co_t.amount IS '';
SELECT obj_description('co_t'::regclass, 'pg_class'), col_description('co_t'::regclass, 1), col_description('co_t'::regclass, 3);
-- comments follow renames and survive ALTERs; a dropped column's goes
ALTER TABLE co_t RENAME COLUMN label TO name;
COMMENT ON COLUMN co_t.name IS 'renamed';
ALTER TABLE co_t RENAME TO co_t2;
ALTER TABLE co_t2 ADD COLUMN extra int;
COMMENT ON COLUMN co_t2.extra IS 'to be dropped';
ALTER TABLE co_t2 DROP COLUMN extra;
ALTER TABLE co_t2 ALTER COLUMN amount TYPE numeric(10,2);
SELECT obj_description('co_t2'::regclass, 'pg_class'), col_description('co_t2'::regclass, 2) AS name;
SELECT d.objsubid, d.description FROM pg_description d WHERE d.objoid = 'co_t2'::regclass ORDER BY 1;
-- CREATE OR REPLACE VIEW keeps the view's comment
CREATE OR REPLACE VIEW co_v AS SELECT id, name AS label, amount FROM co_t2;
SELECT obj_description('co_v'::regclass, 'pg_class');
-- in a transaction, rolled back
BEGIN;
COMMENT ON TABLE co_t2 IS 'temporary thought';
SELECT obj_description('co_t2'::regclass, 'pg_class');
ROLLBACK;
SELECT obj_description('co_t2'::regclass, 'pg_class');
-- errors
COMMENT ON TABLE co_v IS 'x';
COMMENT ON VIEW co_t2 IS 'x';
COMMENT ON COLUMN co_t2.nope IS 'x';
COMMENT ON TABLE co_nope IS 'x';
COMMENT ON COLUMN co_nope.a IS 'x';
COMMENT ON COLUMN id IS 'x';
DROP VIEW co_v;
DROP TABLE co_t2;
