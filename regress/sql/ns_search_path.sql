SET DateStyle = 'ISO, MDY'; SET TimeZone = 'UTC'; SET IntervalStyle = 'postgres';
SHOW search_path;
SELECT current_schema(), current_schemas(false), current_schemas(true);
CREATE SCHEMA ns_sp1;
CREATE SCHEMA ns_sp2;
CREATE TABLE ns_sp_t (a int);
INSERT INTO ns_sp_t VALUES (0);
-- creation goes to the first existing schema of the path
SET search_path = ns_nosuch, ns_sp1, ns_sp2, public;
SELECT current_schema(), current_schemas(false), current_schemas(true);
CREATE TABLE ns_sp_t (a int);
INSERT INTO ns_sp_t VALUES (1);
CREATE TABLE ns_sp_u (b int);
SELECT * FROM ns_sp_t;
SELECT * FROM public.ns_sp_t;
SELECT c.relname, c.relnamespace::regnamespace::text AS nsp, pg_table_is_visible(c.oid) AS visible
  FROM pg_class c WHERE c.relname LIKE 'ns_sp_%' ORDER BY 1, 2;
SELECT 'ns_sp_t'::regclass = 'ns_sp1.ns_sp_t'::regclass AS same, 'public.ns_sp_t'::regclass = 'ns_sp_t'::regclass AS other;
SET search_path = ns_sp2, ns_sp1;
SELECT * FROM ns_sp_t;
SELECT * FROM ns_sp_u;
CREATE TABLE ns_sp_t (a int);
INSERT INTO ns_sp_t VALUES (2);
SELECT * FROM ns_sp_t;
SELECT * FROM ns_sp1.ns_sp_t;
-- a view keeps the relations it was created over
CREATE VIEW ns_sp_v AS SELECT a FROM ns_sp_t;
SET search_path = ns_sp1, ns_sp2;
SELECT * FROM ns_sp_t;
SELECT * FROM ns_sp_v;
SELECT * FROM ns_sp2.ns_sp_v;
-- DROP resolves on the path, its messages qualify what the path does not show
DROP TABLE ns_sp_t;
SELECT * FROM ns_sp_t;
RESET search_path;
DROP TABLE ns_sp2.ns_sp_t;
SET search_path = ns_sp2;
DROP TABLE ns_sp_t;
-- an empty path: nothing to create in, pg_catalog still searched
SET search_path = '';
SELECT current_schema(), current_schemas(false), current_schemas(true);
CREATE TABLE ns_sp_x (a int);
CREATE VIEW ns_sp_x AS SELECT 1;
CREATE TABLE ns_sp_x AS SELECT 1;
SELECT count(*) > 0 AS has_rows FROM pg_class WHERE relname = 'pg_class';
SELECT * FROM ns_sp_t;
-- pg_catalog first
SET search_path = pg_catalog;
CREATE TABLE ns_sp_x (a int);
SELECT current_schemas(false);
-- a view over a public table named like a catalog keeps reading it
SET search_path = public, pg_catalog;
CREATE TABLE pg_am (ns_col int);
INSERT INTO pg_am VALUES (42);
CREATE VIEW ns_sp_amv AS SELECT * FROM pg_am;
RESET search_path;
SELECT * FROM ns_sp_amv;
SELECT count(*) > 0 AS catalog FROM pg_am;
DROP VIEW ns_sp_amv;
DROP TABLE public.pg_am;
-- "$user"
SET search_path = "$user", ns_sp1;
SELECT current_schemas(false);
CREATE SCHEMA postgres;
SELECT current_schemas(false);
CREATE TABLE ns_sp_own (a int);
SELECT relnamespace::regnamespace::text FROM pg_class WHERE relname = 'ns_sp_own';
DROP SCHEMA postgres CASCADE;
-- temporary tables come first unless the path places pg_temp
RESET search_path;
CREATE TEMP TABLE ns_sp_t (a int);
INSERT INTO ns_sp_t VALUES (99);
SELECT * FROM ns_sp_t;
-- the temporary schema's number is the backend's slot: it varies between clusters
SELECT array_to_string(current_schemas(true), ',') LIKE 'pg\_temp\_%,pg\_catalog,public' AS temp_first, array_length(current_schemas(true), 1) AS n;
SET search_path = public, pg_temp;
SELECT * FROM ns_sp_t;
SELECT * FROM pg_temp.ns_sp_t;
SET search_path = pg_temp, public;
CREATE TABLE ns_sp_tmp2 (a int);
SELECT relpersistence FROM pg_class WHERE relname = 'ns_sp_tmp2';
RESET search_path;
DROP TABLE ns_sp_t;
SELECT * FROM ns_sp_t;
SELECT set_config('search_path', 'ns_sp1, public', false);
SELECT current_schema();
SHOW search_path;
RESET search_path;
SET search_path TO ns_sp1, "Ns_Mixed";
SHOW search_path;
RESET search_path;
DROP SCHEMA ns_sp1, ns_sp2 CASCADE;
DROP TABLE ns_sp_t;
