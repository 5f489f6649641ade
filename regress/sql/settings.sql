SET DateStyle = 'ISO, MDY'; SET TimeZone = 'UTC'; SET IntervalStyle = 'postgres';
-- Settings: SET / SET LOCAL / SET ... TO DEFAULT / RESET / RESET ALL /
-- SHOW / current_setting / set_config / pg_settings, with PostgreSQL's
-- reset values (the session's startup values) and transactional undo.
-- The command tags: SET ... TO DEFAULT is SET, RESET is RESET.
\set QUIET off
SET datestyle TO DEFAULT;
RESET datestyle;
SET TIME ZONE DEFAULT;
RESET ALL;
\set QUIET on
-- RESET goes back to the values the session started with (the startup
-- packet's parameters and options), not to the built-in defaults. Those of
-- this connection come from the runner's environment, so a connection of
-- its own sets them with options.
\c 'dbname=regression options=''-c extra_float_digits=0 -c intervalstyle=iso_8601 -c statement_timeout=90s -c st.custom=abc'''
SHOW extra_float_digits;
SHOW intervalstyle;
SHOW statement_timeout;
SHOW st.custom;
SET extra_float_digits = 3;
SET intervalstyle = postgres_verbose;
SET statement_timeout = '1min';
SET st.custom = 'def';
SELECT current_setting('extra_float_digits'), current_setting('intervalstyle'),
       current_setting('statement_timeout'), current_setting('st.custom');
SELECT name, setting, unit, reset_val, boot_val, source FROM pg_settings
 WHERE name IN ('extra_float_digits', 'IntervalStyle', 'statement_timeout')
 ORDER BY name;
SET intervalstyle TO DEFAULT;
SHOW intervalstyle;
RESET extra_float_digits;
SHOW extra_float_digits;
RESET ALL;
SHOW intervalstyle;
SHOW statement_timeout;
SHOW st.custom;
SELECT name, setting, reset_val, source FROM pg_settings
 WHERE name IN ('extra_float_digits', 'IntervalStyle', 'statement_timeout')
 ORDER BY name;
BEGIN;
SET intervalstyle = 'postgres';
SAVEPOINT a;
RESET intervalstyle;
SHOW intervalstyle;
ROLLBACK TO a;
SHOW intervalstyle;
ROLLBACK;
SHOW intervalstyle;
\c 'dbname=regression'
SET DateStyle = 'ISO, MDY'; SET TimeZone = 'UTC'; SET IntervalStyle = 'postgres';
-- Transactions: ROLLBACK undoes SET and RESET, COMMIT keeps SET and
-- undoes SET LOCAL, savepoints nest.
SET extra_float_digits = 2;
BEGIN;
SET extra_float_digits = 0;
RESET datestyle;
SET LOCAL timezone = 'Europe/Paris';
SHOW extra_float_digits;
SHOW timezone;
ROLLBACK;
SHOW extra_float_digits;
SHOW timezone;
BEGIN;
SET timezone = 'Asia/Tokyo';
SET LOCAL timezone = 'Europe/Paris';
SHOW timezone;
COMMIT;
SHOW timezone;
BEGIN;
SET LOCAL timezone = 'Europe/Paris';
SET timezone = 'America/New_York';
COMMIT;
SHOW timezone;
BEGIN;
SET datestyle = 'German';
SAVEPOINT a;
SET datestyle = 'SQL';
SHOW datestyle;
ROLLBACK TO a;
SHOW datestyle;
SAVEPOINT b;
SET LOCAL datestyle = 'Postgres';
RELEASE b;
SHOW datestyle;
COMMIT;
SHOW datestyle;
-- A failed transaction block undoes its SETs at ROLLBACK.
BEGIN;
SET extra_float_digits = -3;
SELECT 1/0;
ROLLBACK;
SHOW extra_float_digits;
-- SET LOCAL outside a block warns and lasts only for its statement.
SET LOCAL extra_float_digits = 0;
SHOW extra_float_digits;
RESET ALL;
SET DateStyle = 'ISO, MDY'; SET TimeZone = 'UTC'; SET IntervalStyle = 'postgres';
-- set_config and current_setting run when the query runs.
SELECT set_config('datestyle', 'SQL', false), current_setting('datestyle');
SHOW datestyle;
BEGIN;
SELECT set_config('timezone', 'Europe/Paris', true);
SHOW timezone;
COMMIT;
SHOW timezone;
SELECT set_config('extra_float_digits', NULL, false);
SELECT set_config('st.x', 'y', false), current_setting('st.x');
SELECT current_setting('st.nosuch', true) IS NULL AS missing;
SELECT current_setting('st.nosuch');
SELECT current_setting('nosuch');
SELECT set_config('nosuch', 'x', false);
SELECT set_config(NULL, 'x', false);
RESET datestyle;
-- Canonical forms and validation.
SET datestyle = 'german';
SHOW datestyle;
SET datestyle = 'ymd';
SHOW datestyle;
SET datestyle = iso, dmy;
SHOW datestyle;
SET datestyle = 'iso, sql';
SET datestyle = 'foo';
SET DATESTYLE = 'iso, mdy';
SET intervalstyle = 'ISO_8601';
SHOW intervalstyle;
SET INTERVALSTYLE = 'x';
SET timezone = 'europe/paris';
SHOW timezone;
SET timezone = 5;
SHOW timezone;
SET timezone = -3.5;
SHOW timezone;
SET TIME ZONE INTERVAL '+02:30' HOUR TO MINUTE;
SHOW timezone;
SET TIME ZONE INTERVAL '-08:00';
SHOW timezone;
SET TIME ZONE INTERVAL '1 day';
SET timezone = 'Nowhere/Foo';
SET TIME ZONE 'UTC';
SET extra_float_digits = 10;
SET extra_float_digits = 'abc';
SET extra_float_digits = 2.6;
SHOW extra_float_digits;
SET statement_timeout = '1.5s';
SHOW statement_timeout;
SET statement_timeout = 60000;
SHOW statement_timeout;
SET statement_timeout = '100us';
SHOW statement_timeout;
SET statement_timeout = -1;
SET statement_timeout = '10 xx';
RESET statement_timeout;
SET work_mem = '64MB';
SHOW work_mem;
SET work_mem = 100000;
SHOW work_mem;
SET work_mem = 10;
SET search_path = 'a', b, "C";
SHOW search_path;
SET search_path TO DEFAULT;
SHOW search_path;
SET application_name = 'x', 'y';
SET client_min_messages = 'WARNING';
SHOW client_min_messages;
SET client_min_messages = 'info';
SHOW client_min_messages;
SET client_min_messages = 'fatal';
RESET client_min_messages;
SET transaction_read_only = 'maybe';
SET default_transaction_isolation = 'SERIALIZABLE';
SHOW default_transaction_isolation;
SHOW transaction_isolation;
BEGIN;
SHOW transaction_isolation;
COMMIT;
RESET default_transaction_isolation;
SET server_version = '1';
RESET server_version;
SET integer_datetimes = off;
SET session_authorization = 'postgres';
SHOW session_authorization;
SHOW nosuch;
SET nosuch = 1;
RESET nosuch;
SET "st..x" = 1;
SHOW integer_datetimes;
SHOW server_encoding;
SHOW max_identifier_length;
SELECT name, setting, unit, context, vartype, min_val, max_val, enumvals, boot_val
  FROM pg_settings
 WHERE name IN ('DateStyle', 'IntervalStyle', 'extra_float_digits', 'statement_timeout', 'work_mem',
                'integer_datetimes', 'default_transaction_isolation', 'search_path')
 ORDER BY name;
-- Transaction modes: SET TRANSACTION with several modes, BEGIN's modes,
-- session characteristics, and read-only transactions refusing writes
-- (rows of a temporary table may still be written).
BEGIN;
SET TRANSACTION ISOLATION LEVEL SERIALIZABLE, READ ONLY;
SHOW transaction_isolation;
SHOW transaction_read_only;
COMMIT;
SHOW transaction_read_only;
BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY;
BEGIN READ WRITE;
SHOW transaction_read_only;
BEGIN READ ONLY;
SHOW transaction_isolation;
SHOW transaction_read_only;
COMMIT;
SET TRANSACTION READ ONLY;
SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY, ISOLATION LEVEL REPEATABLE READ;
SHOW default_transaction_read_only;
SHOW default_transaction_isolation;
SHOW transaction_read_only;
CREATE TABLE st_ro(a int);
RESET ALL;
SET DateStyle = 'ISO, MDY'; SET TimeZone = 'UTC'; SET IntervalStyle = 'postgres';
CREATE TABLE st_ro(a int);
CREATE TEMP TABLE st_rotemp(a int);
BEGIN READ ONLY;
INSERT INTO st_ro VALUES (1);
ROLLBACK;
BEGIN READ ONLY;
INSERT INTO st_rotemp VALUES (1);
COPY st_rotemp FROM stdin;
2
\.
TRUNCATE st_rotemp;
ROLLBACK;
BEGIN READ ONLY;
COPY st_ro FROM stdin;
ROLLBACK;
BEGIN READ ONLY;
CREATE TABLE st_ro2(a int);
ROLLBACK;
BEGIN READ ONLY;
DROP TABLE st_ro;
ROLLBACK;
BEGIN READ ONLY;
CREATE VIEW st_rov AS SELECT 1;
ROLLBACK;
BEGIN READ ONLY;
CREATE TABLE st_ro3 AS SELECT 1 AS a;
ROLLBACK;
BEGIN;
SET TRANSACTION READ WRITE;
INSERT INTO st_ro VALUES (2);
COMMIT;
SELECT * FROM st_ro;
SELECT * FROM st_rotemp;
DROP TABLE st_ro;
DROP TABLE st_rotemp;

-- Planner settings are accepted and shown; joind's answers never depend on them.
SET enable_hashagg = off;
SHOW enable_hashagg;
SET enable_nestloop TO false;
SELECT name, setting, category, short_desc FROM pg_settings WHERE name IN ('enable_hashagg', 'enable_nestloop', 'jit') ORDER BY name;
RESET enable_hashagg;
SHOW enable_hashagg;
SET join_collapse_limit = 0;
SET enable_sort TO 'maybe';
RESET ALL;
SHOW enable_nestloop;
