SET DateStyle = 'ISO, MDY'; SET TimeZone = 'UTC'; SET IntervalStyle = 'postgres';
-- ALTER TABLE: columns added (metadata-only and rewritten), dropped, defaults, NOT NULL
CREATE TABLE ac_t (id int, a text);
INSERT INTO ac_t VALUES (1, 'one'), (2, NULL), (3, 'three');
-- a constant DEFAULT: existing rows read it, computed once
ALTER TABLE ac_t ADD COLUMN b int DEFAULT 7;
SELECT * FROM ac_t ORDER BY id;
INSERT INTO ac_t (id) VALUES (4);
SELECT * FROM ac_t ORDER BY id;
-- a stable DEFAULT is computed once too
ALTER TABLE ac_t ADD COLUMN c date DEFAULT '2024-02-29'::date + 1;
SELECT id, c FROM ac_t ORDER BY id;
-- no DEFAULT: NULL
ALTER TABLE ac_t ADD d numeric(6,2);
SELECT id, d FROM ac_t ORDER BY id;
-- a volatile DEFAULT is evaluated per existing row
ALTER TABLE ac_t ADD COLUMN r float8 DEFAULT random();
SELECT count(DISTINCT r) AS distinct_r, bool_and(r >= 0 AND r < 1) AS in_range FROM ac_t;
ALTER TABLE ac_t ADD COLUMN ct timestamptz DEFAULT clock_timestamp();
SELECT count(*) FROM ac_t WHERE ct IS NOT NULL;
-- errors
ALTER TABLE ac_t ADD COLUMN a int;
ALTER TABLE ac_t ADD COLUMN IF NOT EXISTS a int;
ALTER TABLE ac_t ADD COLUMN e int NOT NULL;
ALTER TABLE ac_t ADD COLUMN e int NOT NULL DEFAULT 0;
SELECT id, e FROM ac_t ORDER BY id;
ALTER TABLE ac_nope ADD COLUMN x int;
ALTER TABLE IF EXISTS ac_nope ADD COLUMN x int;
ALTER TABLE ac_t ADD COLUMN ctid int;
-- DROP COLUMN
ALTER TABLE ac_t DROP COLUMN r, DROP COLUMN ct;
SELECT * FROM ac_t ORDER BY id;
ALTER TABLE ac_t DROP COLUMN nope;
ALTER TABLE ac_t DROP COLUMN IF EXISTS nope;
ALTER TABLE ac_t DROP d;
INSERT INTO ac_t VALUES (5, 'five', 50, '2000-01-01', 5);
SELECT * FROM ac_t ORDER BY id;
-- a column of the same name again is a new column
ALTER TABLE ac_t ADD COLUMN d text DEFAULT 'new';
SELECT id, d FROM ac_t ORDER BY id;
-- SET / DROP DEFAULT
ALTER TABLE ac_t ALTER COLUMN a SET DEFAULT 'dflt';
INSERT INTO ac_t (id) VALUES (6);
ALTER TABLE ac_t ALTER a DROP DEFAULT;
INSERT INTO ac_t (id) VALUES (7);
SELECT id, a, b FROM ac_t WHERE id >= 6 ORDER BY id;
ALTER TABLE ac_t ALTER COLUMN b SET DEFAULT 'x';
ALTER TABLE ac_t ALTER COLUMN nope SET DEFAULT 1;
-- SET / DROP NOT NULL
ALTER TABLE ac_t ALTER COLUMN a SET NOT NULL;
ALTER TABLE ac_t ALTER COLUMN id SET NOT NULL;
INSERT INTO ac_t (id) VALUES (NULL);
ALTER TABLE ac_t ALTER COLUMN id DROP NOT NULL;
INSERT INTO ac_t (id, a) VALUES (NULL, 'null id');
SELECT id, a FROM ac_t WHERE id IS NULL;
ALTER TABLE ac_t ALTER COLUMN nope SET NOT NULL;
-- several subcommands apply together, or not at all
ALTER TABLE ac_t ADD COLUMN f int DEFAULT 1, ALTER COLUMN f SET NOT NULL, ALTER COLUMN f SET DEFAULT 2;
INSERT INTO ac_t (id) VALUES (8);
SELECT id, f FROM ac_t WHERE id >= 7 ORDER BY id;
ALTER TABLE ac_t ADD COLUMN g int, DROP COLUMN nope;
SELECT count(*) FROM information_schema.columns WHERE table_name = 'ac_t' AND column_name = 'g';
-- in a transaction, rolled back
BEGIN;
ALTER TABLE ac_t ADD COLUMN h int DEFAULT 9;
INSERT INTO ac_t (id) VALUES (9);
SELECT id, h FROM ac_t WHERE id >= 8 ORDER BY id;
ROLLBACK;
SELECT * FROM ac_t ORDER BY id NULLS FIRST;
-- in a transaction with rows inserted before the change, committed
BEGIN;
INSERT INTO ac_t (id, a) VALUES (10, 'ten');
ALTER TABLE ac_t ADD COLUMN h int DEFAULT 9;
ALTER TABLE ac_t DROP COLUMN b;
INSERT INTO ac_t (id, h) VALUES (11, 11);
COMMIT;
SELECT * FROM ac_t ORDER BY id NULLS FIRST;
-- the catalog
SELECT attname, attnum > 0 AS user_col, atttypid::regtype, attnotnull FROM pg_attribute
 WHERE attrelid = 'ac_t'::regclass AND attnum > 0 AND NOT attisdropped ORDER BY attnum;
SELECT column_name, data_type, column_default, is_nullable FROM information_schema.columns
 WHERE table_name = 'ac_t' AND column_name <> 'c' ORDER BY ordinal_position;
-- a temporary table
CREATE TEMP TABLE ac_tmp (x int);
INSERT INTO ac_tmp VALUES (1);
ALTER TABLE ac_tmp ADD COLUMN y text DEFAULT 'y', ALTER x SET NOT NULL;
SELECT * FROM ac_tmp;
ALTER TABLE ac_tmp DROP COLUMN x;
SELECT * FROM ac_tmp;
ALTER TABLE ac_t OWNER TO postgres;
ALTER TABLE ac_t OWNER TO ac_nobody;
DROP TABLE ac_tmp;
DROP TABLE ac_t;
