SET DateStyle = 'ISO, MDY'; SET TimeZone = 'UTC'; SET IntervalStyle = 'postgres';
-- ANALYZE and VACUUM: joind keeps its statistics current at every commit,
-- so these check their names and options and change nothing.
CREATE TABLE an_t (a int, b text);
CREATE VIEW an_v AS SELECT * FROM an_t;
INSERT INTO an_t VALUES (1, 'x'), (2, NULL), (NULL, 'y');
ANALYZE;
ANALYZE an_t;
ANALYZE an_t (a);
ANALYZE an_t (b, a), an_t;
ANALYZE public.an_t;
ANALYZE (skip_locked) an_t;
ANALYZE (skip_locked false, verbose off) an_t;
VACUUM;
VACUUM an_t;
VACUUM ANALYZE an_t;
VACUUM (ANALYZE) an_t (b);
VACUUM FULL an_t;
VACUUM (freeze, analyze off) an_t;
-- views are skipped with a warning
ANALYZE an_v;
ANALYZE an_v, an_t (a);
VACUUM an_v;
-- errors, worded as PostgreSQL words them
ANALYZE an_nosuch;
ANALYZE public.an_nosuch;
ANALYZE an_nosuchschema.an_t;
ANALYZE an_t, an_nosuch;
ANALYZE an_t (nosuch);
ANALYZE an_t (a, a);
ANALYZE an_v, an_t (nosuch);
ANALYZE (bogus) an_t;
VACUUM (bogus) an_t;
ANALYZE (skip_locked maybe) an_t;
VACUUM an_t (a);
-- ANALYZE runs in a transaction block, VACUUM does not
BEGIN;
ANALYZE an_t;
COMMIT;
BEGIN;
VACUUM an_t;
ROLLBACK;
BEGIN READ ONLY;
ANALYZE an_t;
ROLLBACK;
SELECT 1 \; VACUUM an_t;
-- temporary tables
CREATE TEMP TABLE an_tt (x int);
ANALYZE an_tt;
ANALYZE pg_temp.an_tt (x);
-- rows after ANALYZE are the same rows
SELECT a, b FROM an_t ORDER BY a;
DROP VIEW an_v;
DROP TABLE an_t;
DROP TABLE an_tt;
