SET DateStyle = 'ISO, MDY'; SET TimeZone = 'UTC'; SET IntervalStyle = 'postgres';
-- pg_sleep and friends: void results, and statement_timeout ends them.
SELECT pg_sleep(0.01), pg_sleep(-1), pg_sleep(0);
SELECT pg_sleep_for('5 milliseconds'), pg_sleep_until(now() - interval '1 day');
SELECT pg_sleep(0.001)::text = '' AS empty, pg_sleep(NULL) IS NULL AS strict;
SELECT count(*) FROM (SELECT pg_sleep(0.001) FROM generate_series(1, 3)) s;
SET statement_timeout = '100ms';
SELECT pg_sleep(10);
SELECT pg_sleep_for('10 seconds');
RESET statement_timeout;
SELECT 'still here' AS ok;
