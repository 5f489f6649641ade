SET DateStyle = 'ISO, MDY'; SET TimeZone = 'UTC'; SET IntervalStyle = 'postgres';
-- issue 13's writes and keys on a table of a schema other than public
CREATE SCHEMA nsf;
CREATE TABLE nsf.t (id serial PRIMARY KEY, v int CHECK (v > 0), w text UNIQUE);
CREATE INDEX ON nsf.t (v);
\d nsf.t
SELECT relname, relkind FROM pg_class WHERE relnamespace = 'nsf'::regnamespace ORDER BY 1;
SELECT conname, contype FROM pg_constraint WHERE connamespace = 'nsf'::regnamespace ORDER BY 1;
SELECT schemaname, tablename, indexname FROM pg_indexes WHERE schemaname = 'nsf' ORDER BY 3;
SELECT sequence_schema, sequence_name FROM information_schema.sequences WHERE sequence_schema = 'nsf';
INSERT INTO nsf.t (v, w) VALUES (1, 'a'), (2, 'b'), (3, 'c');
INSERT INTO nsf.t (v, w) VALUES (0, 'z');
INSERT INTO nsf.t (id, v, w) VALUES (1, 5, 'd');
INSERT INTO nsf.t (v, w) VALUES (5, 'a');
SELECT * FROM nsf.t ORDER BY id;
SELECT last_value, is_called FROM nsf.t_id_seq;
SELECT nextval('nsf.t_id_seq');
SELECT currval('nsf.t_id_seq');
UPDATE nsf.t SET v = v + 10 WHERE id = 2 RETURNING *;
UPDATE nsf.t SET v = -1 WHERE id = 3;
DELETE FROM nsf.t WHERE id = 1 RETURNING id, w;
INSERT INTO nsf.t (id, v, w) VALUES (2, 7, 'bb') ON CONFLICT (id) DO NOTHING RETURNING *;
INSERT INTO nsf.t (id, v, w) VALUES (3, 8, 'cc') ON CONFLICT (id) DO NOTHING;
INSERT INTO nsf.t (id, v, w) VALUES (9, 9, 'bb') ON CONFLICT ON CONSTRAINT t_w_key DO NOTHING;
SELECT * FROM nsf.t ORDER BY id;
CREATE TABLE nsf.src (id int, v int);
INSERT INTO nsf.src VALUES (2, 20), (3, 30), (40, 4);
MERGE INTO nsf.t t USING nsf.src s ON t.id = s.id
  WHEN MATCHED AND s.v > 25 THEN DELETE
  WHEN MATCHED THEN UPDATE SET v = s.v
  WHEN NOT MATCHED THEN INSERT (id, v, w) VALUES (s.id, s.v, 'm');
SELECT * FROM nsf.t ORDER BY id;
ALTER TABLE nsf.t ADD COLUMN x int DEFAULT 7;
ALTER TABLE nsf.t RENAME COLUMN x TO y;
SELECT * FROM nsf.t ORDER BY id;
\d nsf.t
-- the same names in public are other relations
CREATE TABLE t (id serial PRIMARY KEY, v int);
CREATE INDEX ON t (v);
SELECT c.relname, n.nspname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
  WHERE c.relname LIKE 't\_%' OR c.relname = 't' ORDER BY 2, 1;
SET search_path = nsf, public;
INSERT INTO t (v, w) VALUES (11, 'sp');
SELECT id, v, w FROM t ORDER BY id;
RESET search_path;
DROP TABLE t;
DROP SCHEMA nsf;
DROP SCHEMA nsf CASCADE;
SELECT count(*) FROM pg_class WHERE relname LIKE 't\_%';
