SET DateStyle = 'ISO, MDY'; SET TimeZone = 'UTC'; SET IntervalStyle = 'postgres';
-- Deletes, deletion vectors and VACUUM: results before and after the
-- deleted rows are folded away are the same.
CREATE TABLE vdv_t (a int, b text);
INSERT INTO vdv_t SELECT g, 'r' || g FROM generate_series(1, 20000) g;
INSERT INTO vdv_t VALUES (20001, 'x');
INSERT INTO vdv_t VALUES (20002, 'y');
INSERT INTO vdv_t VALUES (20003, NULL);
DELETE FROM vdv_t WHERE a % 3 = 0;
SELECT count(*), sum(a), min(a), max(a), count(b) FROM vdv_t;
VACUUM vdv_t;
SELECT count(*), sum(a), min(a), max(a), count(b) FROM vdv_t;
DELETE FROM vdv_t WHERE a > 19990;
UPDATE vdv_t SET b = 'u' WHERE a % 7 = 1;
SELECT count(*), sum(a), count(*) FILTER (WHERE b = 'u') FROM vdv_t;
VACUUM FULL vdv_t;
SELECT count(*), sum(a), count(*) FILTER (WHERE b = 'u') FROM vdv_t;
-- filters whose segment statistics still include deleted rows
SELECT a, b FROM vdv_t WHERE a BETWEEN 100 AND 110 ORDER BY a;
SELECT a, b FROM vdv_t WHERE a > 19980 ORDER BY a;
SELECT count(*) FROM vdv_t WHERE b IS NULL;
VACUUM (ANALYZE) vdv_t;
ANALYZE vdv_t;
SELECT count(*), sum(a) FROM vdv_t;
-- VACUUM is refused in a transaction block; the block's delete rolls back
BEGIN;
DELETE FROM vdv_t WHERE a < 10;
VACUUM vdv_t;
ROLLBACK;
SELECT count(*) FROM vdv_t WHERE a < 10;
-- a savepoint rolled back restores the deleted rows
BEGIN;
DELETE FROM vdv_t WHERE a < 100;
SAVEPOINT s1;
INSERT INTO vdv_t VALUES (2, 'two');
DELETE FROM vdv_t WHERE a < 200;
SELECT count(*) FROM vdv_t WHERE a < 300;
ROLLBACK TO s1;
SELECT count(*) FROM vdv_t WHERE a < 300;
COMMIT;
SELECT count(*) FROM vdv_t WHERE a < 300;
-- every row deleted, then vacuumed: an empty table that still takes rows
DELETE FROM vdv_t;
VACUUM vdv_t;
SELECT count(*) FROM vdv_t;
INSERT INTO vdv_t VALUES (1, 'again');
SELECT * FROM vdv_t;
-- temporary tables
CREATE TEMP TABLE vdv_tmp AS SELECT g AS a FROM generate_series(1, 100) g;
DELETE FROM vdv_tmp WHERE a > 10;
VACUUM vdv_tmp;
VACUUM;
SELECT count(*), sum(a) FROM vdv_tmp;
DROP TABLE vdv_t;
DROP TABLE vdv_tmp;
