-- psql's describe commands over user tables and views; the same output is
-- expected from joind and PostgreSQL 15 (see psqlmeta_test.go).
CREATE TABLE t (a int NOT NULL, b text NOT NULL DEFAULT 'x', c numeric(10,2), d varchar(20),
  e timestamp, f date, g float8, h bool, i interval, j char(3), k int8, l int2, m real, n timestamptz);
CREATE TABLE u (x int);
CREATE TABLE "Mixed Case" ("Col A" int, b text);
CREATE TABLE dd (a int DEFAULT -1, b int DEFAULT 5, c numeric DEFAULT 1.5, d numeric(10,2) DEFAULT '2.5',
  e varchar(10) DEFAULT 'v', f char(2) DEFAULT 'c', g date DEFAULT '2020-01-01', h timestamp DEFAULT now(),
  i float8 DEFAULT 1.5, j bool DEFAULT true, k int8 DEFAULT 7, l text DEFAULT 'it''s', m int2 DEFAULT 3,
  n interval DEFAULT '1 day', o float4 DEFAULT -2.5, p numeric DEFAULT 3);
CREATE VIEW v AS SELECT a, b, c FROM t WHERE a > 0;
\dt
\d
\dv
\d t
\d u
\d "Mixed Case"
\d dd
\d v
\dt u*
\d nosuch
\dn
\df
\dT
SELECT table_name, table_type FROM information_schema.tables
 WHERE table_schema = 'public' ORDER BY 1;
SELECT table_name, column_name, ordinal_position, column_default, is_nullable, data_type,
  character_maximum_length, numeric_precision, numeric_precision_radix, numeric_scale, datetime_precision, udt_name
 FROM information_schema.columns WHERE table_schema = 'public' ORDER BY 1, 3;
SELECT schema_name FROM information_schema.schemata ORDER BY 1;
SELECT nspname FROM pg_catalog.pg_namespace WHERE nspname !~ '^pg_temp' ORDER BY 1;
SELECT c.relname, c.relkind, c.relnatts, a.attname, a.attnum, a.attnotnull, a.atthasdef,
  pg_catalog.format_type(a.atttypid, a.atttypmod)
 FROM pg_catalog.pg_class c JOIN pg_catalog.pg_attribute a ON a.attrelid = c.oid
 WHERE c.relnamespace = 'public'::regnamespace AND a.attnum > 0 ORDER BY 1, 5;
SELECT a.attname FROM pg_attribute a WHERE a.attrelid = 'public.u'::regclass AND a.attnum > 0;
SELECT 'u'::regclass::text, 'pg_catalog.pg_class'::regclass::text, 'int4'::regtype::text;
SELECT typname, typlen, typtype, typcategory FROM pg_type
 WHERE oid IN (16, 20, 21, 23, 25, 700, 701, 1042, 1043, 1082, 1114, 1184, 1186, 1700) ORDER BY oid;
SELECT tablename, tableowner FROM pg_tables WHERE schemaname = 'public' ORDER BY 1;
SELECT has_table_privilege('t', 'SELECT'), has_schema_privilege('public', 'USAGE'),
  quote_ident('t'), quote_ident('Mixed Case'), pg_catalog.pg_get_userbyid(10) = current_user;
SELECT count(*) FROM pg_catalog.pg_database WHERE datname = current_database();
CREATE SCHEMA ns_meta;
CREATE TABLE ns_meta.st (a int NOT NULL, b text DEFAULT 'q');
CREATE TABLE ns_meta.u (y int);
CREATE VIEW ns_meta.sv AS SELECT a FROM ns_meta.st;
\dn
\dt ns_meta.*
\dv ns_meta.*
\d ns_meta.st
\d ns_meta.sv
\dt
SET search_path = ns_meta, public;
\dt
\d
\d u
RESET search_path;
SELECT 'ns_meta.st'::regclass::text, 'ns_meta'::regnamespace::text;
