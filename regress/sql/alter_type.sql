SET DateStyle = 'ISO, MDY'; SET TimeZone = 'UTC'; SET IntervalStyle = 'postgres';
-- ALTER COLUMN ... TYPE: every row rewritten, with or without USING
CREATE TABLE aty_t (id int, a text, n int, d text DEFAULT '2020-01-01');
INSERT INTO aty_t VALUES (1, '10', 100, '2024-01-02'), (2, '-3', NULL, '1999-12-31'), (3, NULL, 7, NULL);
ALTER TABLE aty_t ALTER COLUMN a TYPE int;
ALTER TABLE aty_t ALTER COLUMN a TYPE int USING a::int;
SELECT id, a, a + 1 AS a1 FROM aty_t ORDER BY id;
ALTER TABLE aty_t ALTER n TYPE bigint;
ALTER TABLE aty_t ALTER n SET DATA TYPE numeric(10,2);
SELECT id, n FROM aty_t ORDER BY id;
ALTER TABLE aty_t ALTER n TYPE text;
SELECT id, n, length(n) AS len FROM aty_t ORDER BY id;
ALTER TABLE aty_t ALTER d TYPE date;
ALTER TABLE aty_t ALTER d TYPE date USING d::date;
SELECT id, d, d + 1 AS next FROM aty_t ORDER BY id;
INSERT INTO aty_t (id) VALUES (4);
SELECT id, d FROM aty_t WHERE id = 4;
-- USING over other columns
ALTER TABLE aty_t ALTER a TYPE text USING coalesce(a::text, 'none') || '/' || id;
SELECT id, a FROM aty_t ORDER BY id;
ALTER TABLE aty_t ALTER a TYPE int USING a;
ALTER TABLE aty_t ALTER a TYPE int USING length(a) * 2;
SELECT id, a FROM aty_t ORDER BY id;
-- narrowing: values that do not fit fail the statement
ALTER TABLE aty_t ALTER n TYPE varchar(2);
ALTER TABLE aty_t ALTER n TYPE varchar(3);
SELECT id, n FROM aty_t ORDER BY id;
ALTER TABLE aty_t ALTER a TYPE smallint USING a * 10000;
ALTER TABLE aty_t ALTER a TYPE smallint;
SELECT id, a FROM aty_t ORDER BY id;
-- a default that cannot follow
ALTER TABLE aty_t ALTER COLUMN a SET DEFAULT 5;
ALTER TABLE aty_t ALTER a TYPE boolean USING a > 10;
ALTER TABLE aty_t ALTER a DROP DEFAULT;
ALTER TABLE aty_t ALTER a TYPE boolean USING a > 10;
SELECT id, a FROM aty_t ORDER BY id;
-- NOT NULL stays and is checked
ALTER TABLE aty_t ALTER id SET NOT NULL;
ALTER TABLE aty_t ALTER id TYPE int USING nullif(id, 2);
ALTER TABLE aty_t ALTER id TYPE bigint USING id * 2;
SELECT id, a FROM aty_t ORDER BY id;
-- errors
ALTER TABLE aty_t ALTER nope TYPE int;
ALTER TABLE aty_t ALTER a TYPE nosuchtype;
ALTER TABLE aty_t ALTER a TYPE int USING nope;
-- a column a view reads cannot change type; another can
CREATE VIEW aty_v AS SELECT id, n FROM aty_t;
ALTER TABLE aty_t ALTER n TYPE text;
ALTER TABLE aty_t ALTER d TYPE timestamp;
SELECT id, d FROM aty_t ORDER BY id;
SELECT * FROM aty_v ORDER BY id;
DROP VIEW aty_v;
-- with other subcommands, in a transaction, rolled back
BEGIN;
ALTER TABLE aty_t ADD COLUMN z int DEFAULT 1, ALTER z TYPE text USING z || '!', ALTER n TYPE text;
SELECT id, n, z FROM aty_t ORDER BY id;
ROLLBACK;
SELECT * FROM aty_t ORDER BY id;
SELECT column_name, data_type, character_maximum_length FROM information_schema.columns
 WHERE table_name = 'aty_t' ORDER BY ordinal_position;
DROP TABLE aty_t;
