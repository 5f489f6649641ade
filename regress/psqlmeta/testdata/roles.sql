-- Roles and privileges as psql shows them (\du, \dp) and the role catalogs.
-- Roles are cluster-wide on PostgreSQL: every name has the r17m prefix,
-- and the script drops what it made at its end.
CREATE ROLE r17m_a LOGIN CREATEDB;
CREATE ROLE r17m_b NOLOGIN NOINHERIT;
CREATE ROLE r17m_c SUPERUSER CREATEROLE LOGIN;
CREATE ROLE "r17m Q";
GRANT r17m_b TO r17m_a;
GRANT r17m_a TO r17m_c WITH ADMIN OPTION;
CREATE SCHEMA r17ms;
CREATE TABLE r17ms.t (a int);
CREATE TABLE r17ms.u (a int);
CREATE VIEW r17ms.v AS SELECT 1 AS x;
GRANT SELECT, INSERT ON r17ms.t TO r17m_a;
GRANT ALL ON r17ms.t TO "r17m Q";
GRANT SELECT ON r17ms.v TO PUBLIC;
GRANT UPDATE ON r17ms.u TO r17m_b WITH GRANT OPTION;
REVOKE ALL ON r17ms.u FROM postgres;
CREATE SEQUENCE r17ms.s;
GRANT USAGE ON SEQUENCE r17ms.s TO r17m_a;
GRANT SELECT, UPDATE ON r17ms.s TO r17m_b WITH GRANT OPTION;
CREATE FUNCTION r17m_f(int) RETURNS int LANGUAGE sql AS 'SELECT $1';
REVOKE EXECUTE ON FUNCTION r17m_f(int) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION r17m_f(int) TO r17m_a;
ALTER DEFAULT PRIVILEGES GRANT USAGE ON SEQUENCES TO r17m_a;
ALTER DEFAULT PRIVILEGES REVOKE EXECUTE ON FUNCTIONS FROM PUBLIC;
\du r17m*
\dp r17ms.*
\ddp
\df+ r17m_f
\dg r17m_a
\z r17ms.t
SELECT rolname, rolsuper, rolinherit, rolcreaterole, rolcreatedb, rolcanlogin, rolconnlimit, rolpassword, rolvaliduntil FROM pg_roles WHERE rolname LIKE 'r17m%' ORDER BY 1;
SELECT usename, usecreatedb, usesuper FROM pg_user WHERE usename LIKE 'r17m%' ORDER BY 1;
SELECT has_table_privilege('r17m_a', 'r17ms.t', 'INSERT, SELECT'), has_table_privilege('r17m_b', 'r17ms.t', 'SELECT'), has_table_privilege('r17m_a', 'r17ms.u', 'UPDATE'), has_table_privilege('r17m_b', 'r17ms.u', 'UPDATE WITH GRANT OPTION');
SELECT has_table_privilege('r17m_a', 'r17ms.t', 'UPDATE, SELECT'), has_table_privilege('r17m_a', 'r17ms.t', 'INSERT WITH GRANT OPTION'), has_table_privilege('r17m_b', 'r17ms.u', 'update with grant option'), has_table_privilege('r17m_c', 'r17ms.u', 'DELETE WITH GRANT OPTION'), has_table_privilege('r17m_a', 'pg_class', 'SELECT'), has_table_privilege('r17m_a', 'pg_class', 'INSERT');
SELECT has_schema_privilege('r17m_a', 'r17ms', 'USAGE'), has_schema_privilege('r17m_a', 'public', 'CREATE'), has_schema_privilege('r17m_a', 'public', 'USAGE');
SELECT nspname, nspacl FROM pg_namespace WHERE nspname IN ('r17ms', 'public') ORDER BY 1;
ALTER DEFAULT PRIVILEGES REVOKE USAGE ON SEQUENCES FROM r17m_a; ALTER DEFAULT PRIVILEGES GRANT EXECUTE ON FUNCTIONS TO PUBLIC;
DROP FUNCTION IF EXISTS r17m_f(int); DROP SEQUENCE IF EXISTS r17ms.s;
DROP VIEW IF EXISTS r17ms.v; DROP TABLE IF EXISTS r17ms.t; DROP TABLE IF EXISTS r17ms.u; DROP SCHEMA IF EXISTS r17ms;
DROP ROLE IF EXISTS r17m_a; DROP ROLE IF EXISTS r17m_b; DROP ROLE IF EXISTS r17m_c; DROP ROLE IF EXISTS "r17m Q";
