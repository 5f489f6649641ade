SET DateStyle = 'ISO, MDY'; SET TimeZone = 'UTC'; SET IntervalStyle = 'postgres';
-- Temporary tables live in the session's pg_temp schema, which comes first
-- in the search path: a temporary table hides a permanent one of the same
-- name, pg_temp.x and public.x name each, DROP drops the temporary one
-- first, and the session's end drops them all.
CREATE TABLE tmp_t(a int);
INSERT INTO tmp_t VALUES (1);
CREATE TEMP TABLE tmp_t(b text);
INSERT INTO tmp_t VALUES ('temp');
SELECT * FROM tmp_t;
SELECT * FROM public.tmp_t;
SELECT * FROM pg_temp.tmp_t;
INSERT INTO public.tmp_t VALUES (2);
INSERT INTO pg_temp.tmp_t VALUES ('temp 2');
SELECT * FROM public.tmp_t ORDER BY a;
SELECT * FROM tmp_t ORDER BY b;
CREATE TEMP TABLE tmp_t(c int);
CREATE TABLE tmp_t(c int);
CREATE TEMP TABLE IF NOT EXISTS tmp_t(c int);
CREATE TABLE pg_temp.tmp_u(x int);
SELECT * FROM tmp_u;
SELECT * FROM public.tmp_u;
CREATE TEMP TABLE public.tmp_v(x int);
SELECT count(*) FROM tmp_t t JOIN public.tmp_t p ON p.a = length(t.b) - 3;
-- The catalogs list the temporary table in the session's temporary
-- schema (its number depends on the server, so only its prefix is shown);
-- the permanent one it hides is not visible.
SELECT n.nspname LIKE 'pg_temp_%' AS temp_schema, c.relname, c.relpersistence, pg_table_is_visible(c.oid)
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
 WHERE c.relname LIKE 'tmp_%' ORDER BY 1, 2;
SELECT table_schema LIKE 'pg_temp_%' AS temp_schema, table_name, table_type, is_insertable_into
  FROM information_schema.tables WHERE table_name LIKE 'tmp_%' ORDER BY 1, 2;
SELECT 'tmp_t'::regclass::oid = 'pg_temp.tmp_t'::regclass::oid AS temp_first,
       'public.tmp_t'::regclass::oid = 'tmp_t'::regclass::oid AS same;
SELECT a.attname, a.attnotnull FROM pg_attribute a WHERE a.attrelid = 'pg_temp.tmp_u'::regclass AND a.attnum > 0 ORDER BY a.attnum;
TRUNCATE tmp_t;
SELECT count(*) FROM tmp_t;
SELECT count(*) FROM public.tmp_t;
COPY tmp_t FROM stdin;
copied
\.
SELECT * FROM tmp_t;
DROP TABLE tmp_t;
SELECT * FROM tmp_t ORDER BY a;
DROP TABLE pg_temp.tmp_t;
DROP TABLE IF EXISTS pg_temp.tmp_t;
-- A temporary table hides a permanent view of its name.
CREATE VIEW tmp_view AS SELECT 'view' AS v;
CREATE TEMP TABLE tmp_view(v text);
INSERT INTO tmp_view VALUES ('table');
SELECT * FROM tmp_view;
SELECT * FROM public.tmp_view;
DROP TABLE tmp_view;
SELECT * FROM tmp_view;
DROP VIEW tmp_view;
-- A view keeps reading the permanent table it was created over.
CREATE VIEW tmp_pv AS SELECT a FROM tmp_t;
CREATE TEMP TABLE tmp_t(a int);
INSERT INTO tmp_t VALUES (100);
SELECT * FROM tmp_pv ORDER BY a;
DROP TABLE tmp_t;
DROP VIEW tmp_pv;
-- Temporary tables are transactional.
BEGIN;
CREATE TEMP TABLE tmp_r(a int);
ROLLBACK;
SELECT * FROM tmp_r;
CREATE TEMP TABLE tmp_r(a int);
BEGIN;
INSERT INTO tmp_r VALUES (1);
SAVEPOINT s1;
INSERT INTO tmp_r VALUES (2);
ROLLBACK TO s1;
INSERT INTO tmp_r VALUES (3);
COMMIT;
SELECT * FROM tmp_r ORDER BY a;
BEGIN;
INSERT INTO tmp_r VALUES (4);
SELECT 1/0;
ROLLBACK;
SELECT * FROM tmp_r ORDER BY a;
-- ON COMMIT PRESERVE ROWS (the default), DELETE ROWS, DROP.
BEGIN;
CREATE TEMP TABLE tmp_d(a int) ON COMMIT DROP;
INSERT INTO tmp_d VALUES (1);
SELECT * FROM tmp_d;
COMMIT;
SELECT * FROM tmp_d;
CREATE TEMP TABLE tmp_d(a int) ON COMMIT DROP;
SELECT * FROM tmp_d;
CREATE TEMP TABLE tmp_e(a int) ON COMMIT DELETE ROWS;
INSERT INTO tmp_e VALUES (1);
SELECT count(*) FROM tmp_e;
BEGIN;
INSERT INTO tmp_e VALUES (2);
SELECT count(*) FROM tmp_e;
COMMIT;
SELECT count(*) FROM tmp_e;
CREATE TEMP TABLE tmp_p(a int) ON COMMIT PRESERVE ROWS;
INSERT INTO tmp_p VALUES (1);
SELECT count(*) FROM tmp_p;
CREATE TABLE tmp_x(a int) ON COMMIT DROP;
CREATE TEMP TABLE tmp_ctas AS SELECT 1 AS a, 'x'::text AS b;
SELECT * FROM tmp_ctas;
SELECT * FROM pg_temp.tmp_ctas;
CREATE TEMPORARY TABLE tmp_f(a int);
CREATE LOCAL TEMP TABLE tmp_g(a int);
INSERT INTO tmp_f VALUES (1);
-- DISCARD TEMP drops them.
DISCARD TEMP;
SELECT * FROM tmp_f;
CREATE TEMP TABLE tmp_h(a int);
INSERT INTO tmp_h VALUES (7);
-- A new session has none of them.
\c
SET DateStyle = 'ISO, MDY'; SET TimeZone = 'UTC'; SET IntervalStyle = 'postgres';
SELECT * FROM tmp_h;
SELECT * FROM tmp_t ORDER BY a;
DROP TABLE tmp_t;
DROP TABLE tmp_u;
