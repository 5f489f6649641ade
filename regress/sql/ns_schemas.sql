SET DateStyle = 'ISO, MDY'; SET TimeZone = 'UTC'; SET IntervalStyle = 'postgres';
-- CREATE SCHEMA and its errors
CREATE SCHEMA ns_a;
CREATE SCHEMA ns_a;
CREATE SCHEMA IF NOT EXISTS ns_a;
CREATE SCHEMA pg_ns;
CREATE SCHEMA public;
CREATE SCHEMA information_schema;
CREATE SCHEMA ns_b AUTHORIZATION postgres;
CREATE SCHEMA ns_c AUTHORIZATION ns_nosuchrole;
CREATE SCHEMA AUTHORIZATION CURRENT_USER;
SELECT nspname, nspowner::regrole::text FROM pg_namespace WHERE nspname LIKE 'ns_%' OR nspname = 'postgres' ORDER BY 1;
SELECT schema_name, schema_owner FROM information_schema.schemata WHERE schema_name LIKE 'ns_%' ORDER BY 1;
DROP SCHEMA postgres;
-- qualified names in every statement
CREATE TABLE ns_a.ns_t (a int, b text);
CREATE TABLE ns_t (a int);
INSERT INTO ns_a.ns_t VALUES (1, 'one'), (2, 'two');
INSERT INTO public.ns_t VALUES (10);
INSERT INTO ns_a.ns_t (a) SELECT a + 100 FROM public.ns_t;
SELECT * FROM ns_a.ns_t ORDER BY a;
SELECT * FROM ns_t ORDER BY a;
SELECT x.a, y.a AS pa FROM ns_a.ns_t x JOIN public.ns_t y ON y.a * 10 + 10 = x.a + 100 - x.a + x.a ORDER BY 1;
SELECT ns_t.a FROM ns_a.ns_t ORDER BY 1;
SELECT ns_a.ns_t.b FROM ns_a.ns_t ORDER BY 1;
CREATE TABLE ns_a.ns_ctas AS SELECT a * 2 AS d FROM ns_a.ns_t;
SELECT * FROM ns_a.ns_ctas ORDER BY d;
CREATE TABLE ns_a.ns_ctas AS SELECT 1;
CREATE TABLE IF NOT EXISTS ns_a.ns_ctas (z int);
COPY ns_a.ns_t TO STDOUT;
COPY ns_a.ns_t (b) TO STDOUT;
TRUNCATE ns_a.ns_ctas;
SELECT count(*) FROM ns_a.ns_ctas;
CREATE VIEW ns_a.ns_v AS SELECT a, b FROM ns_a.ns_t WHERE a < 100;
SELECT * FROM ns_a.ns_v ORDER BY a;
CREATE VIEW ns_pv AS SELECT v.a, t.a AS ta FROM ns_a.ns_v v, ns_t t;
SELECT * FROM ns_pv ORDER BY 1;
SELECT table_schema, table_name, table_type FROM information_schema.tables WHERE table_name LIKE 'ns_%' ORDER BY 1, 2;
SELECT schemaname, tablename FROM pg_tables WHERE tablename LIKE 'ns_%' ORDER BY 1, 2;
SELECT c.relname, n.nspname, c.relkind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.relname LIKE 'ns_%' ORDER BY 1, 2;
SELECT table_schema, table_name, column_name FROM information_schema.columns WHERE table_name = 'ns_t' ORDER BY 1, 2, 3;
COPY ns_a.ns_t (a, b) FROM STDIN;
3	three
\.
SELECT count(*) FROM ns_a.ns_t;
SELECT a INTO ns_a.ns_into FROM ns_a.ns_t WHERE a < 3;
SELECT * FROM ns_a.ns_into ORDER BY a;
CREATE TEMP TABLE ns_a.ns_tmp (a int);
CREATE TABLE pg_catalog.ns_x (a int);
INSERT INTO ns_a.ns_t (nosuch) VALUES (1);
-- missing schemas and relations
SELECT * FROM ns_nosuch.ns_t;
SELECT * FROM ns_a.ns_nosuch;
CREATE TABLE ns_nosuch.ns_t (a int);
INSERT INTO ns_nosuch.ns_t VALUES (1);
CREATE VIEW ns_nosuch.v AS SELECT 1;
DROP TABLE ns_nosuch.ns_t;
DROP TABLE IF EXISTS ns_nosuch.ns_t;
DROP TABLE IF EXISTS ns_a.ns_nosuch;
DROP VIEW IF EXISTS ns_nosuch.v;
DROP TABLE ns_a.ns_v;
DROP VIEW ns_a.ns_t;
-- three-part names
SELECT count(*) FROM regression.ns_a.ns_t;
SELECT count(*) FROM otherdb.ns_a.ns_t;
CREATE TABLE otherdb.ns_a.ns_x (a int);
SELECT * FROM a.b.c.d;
-- dependencies
DROP TABLE ns_a.ns_t;
DROP SCHEMA ns_a;
DROP SCHEMA ns_a, ns_b;
DROP SCHEMA ns_nosuch;
DROP SCHEMA IF EXISTS ns_nosuch, ns_b;
DROP SCHEMA pg_catalog;
-- schema elements
CREATE SCHEMA ns_e CREATE TABLE ns_et (a int) CREATE VIEW ns_ev AS SELECT a FROM ns_et;
INSERT INTO ns_e.ns_et VALUES (5);
SELECT * FROM ns_e.ns_ev;
CREATE SCHEMA ns_f CREATE TABLE ns_e.ns_ft (a int);
CREATE SCHEMA IF NOT EXISTS ns_f CREATE TABLE ns_ft (a int);
SELECT nspname FROM pg_namespace WHERE nspname = 'ns_f';
-- ALTER SCHEMA
CREATE SCHEMA ns_r;
CREATE TABLE ns_r.ns_rt (a int);
INSERT INTO ns_r.ns_rt VALUES (7);
CREATE VIEW ns_r.ns_rv AS SELECT a FROM ns_r.ns_rt;
CREATE VIEW ns_rpv AS SELECT a + 1 AS b FROM ns_r.ns_rv;
ALTER SCHEMA ns_r RENAME TO ns_r2;
SELECT * FROM ns_r2.ns_rt;
SELECT * FROM ns_r2.ns_rv;
SELECT * FROM ns_rpv;
SELECT schemaname, viewname FROM pg_views WHERE viewname LIKE 'ns_r%' ORDER BY 1, 2;
SELECT * FROM ns_r.ns_rt;
ALTER SCHEMA ns_r RENAME TO ns_r3;
ALTER SCHEMA ns_r2 RENAME TO ns_e;
ALTER SCHEMA ns_r2 RENAME TO pg_r;
ALTER SCHEMA ns_r2 OWNER TO postgres;
ALTER SCHEMA ns_r2 OWNER TO ns_nosuchrole;
ALTER SCHEMA ns_nosuch OWNER TO postgres;
-- transactions
BEGIN;
CREATE SCHEMA ns_tx;
CREATE TABLE ns_tx.ns_t (a int);
ROLLBACK;
SELECT count(*) FROM pg_namespace WHERE nspname = 'ns_tx';
CREATE TABLE ns_tx.ns_t (a int);
BEGIN;
DROP SCHEMA ns_r2 CASCADE;
ROLLBACK;
SELECT * FROM ns_r2.ns_rt;
-- CASCADE
DROP SCHEMA ns_a CASCADE;
SELECT * FROM ns_pv;
DROP SCHEMA ns_b, ns_e, ns_r2 CASCADE;
SELECT nspname FROM pg_namespace WHERE nspname LIKE 'ns_%' ORDER BY 1;
DROP TABLE ns_t;
