package regress

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/joind/joind/regress/joindtest"
	"github.com/joind/joind/regress/oracle"
)

// The privilege matrix: the same setup on joind and on PostgreSQL 15 (as
// the bootstrap superuser "postgres"), then the same statements run by
// each of several roles, each connected as itself; every statement's
// outcome (its rows, or its SQLSTATE and message) must be the same on both.
// Each statement runs in a transaction that is rolled back, so what one
// role changes the next does not see.

// rolesSetup makes the roles (r17_ prefix: roles are cluster-wide on
// the oracle), a schema, tables, a view and grants.
var rolesSetup = []string{
	"CREATE ROLE r17_owner LOGIN",
	"CREATE ROLE r17_reader LOGIN",
	"CREATE ROLE r17_writer LOGIN",
	"CREATE ROLE r17_none LOGIN",
	"CREATE ROLE r17_grp NOLOGIN",
	"CREATE ROLE r17_files LOGIN",
	"CREATE ROLE r17_nologin",
	"GRANT r17_grp TO r17_writer",
	"GRANT pg_read_server_files TO r17_files",
	"CREATE SCHEMA r17s",
	"GRANT USAGE ON SCHEMA r17s TO PUBLIC",
	"GRANT CREATE ON SCHEMA r17s TO r17_owner",
	"CREATE TABLE r17s.t (a int, b text)",
	"INSERT INTO r17s.t VALUES (1, 'one'), (2, 'two')",
	"CREATE TABLE r17s.u (k int)",
	"INSERT INTO r17s.u VALUES (7)",
	"CREATE VIEW r17s.v AS SELECT a FROM r17s.t",
	"GRANT SELECT ON r17s.t TO r17_reader",
	"GRANT SELECT ON r17s.v TO r17_none",
	"GRANT INSERT, UPDATE ON TABLE r17s.t TO r17_grp",
	"GRANT DELETE ON r17s.t TO r17_writer WITH GRANT OPTION",
	"GRANT SELECT, TRUNCATE ON ALL TABLES IN SCHEMA r17s TO r17_owner",
	"REVOKE TRUNCATE ON r17s.u FROM r17_owner",
	"CREATE SCHEMA r17p",
	"CREATE TABLE r17p.h (z int)",
	"GRANT SELECT ON r17p.h TO PUBLIC",
	"GRANT USAGE ON SCHEMA r17p TO r17_reader",
	// Column privileges.
	"CREATE TABLE r17s.c (a int, b text, c int)",
	"INSERT INTO r17s.c VALUES (1, 'x', 10), (2, 'y', 20)",
	"GRANT SELECT (a) ON r17s.c TO r17_reader",
	"GRANT SELECT (a, c), INSERT (a), UPDATE (b), REFERENCES (c) ON r17s.c TO r17_writer",
	"GRANT SELECT (b) ON r17s.c TO r17_grp WITH GRANT OPTION",
	"GRANT SELECT ON r17s.c TO r17_owner",
	"REVOKE SELECT (c) ON r17s.c FROM r17_owner",
	"CREATE TABLE r17s.ms (a int, b text)",
	"INSERT INTO r17s.ms VALUES (1, 'm1'), (3, 'm3')",
	"GRANT SELECT ON r17s.ms TO r17_writer, r17_reader",
	// Sequences, functions and view columns. (The functions are public's:
	// joind does not resolve a schema-qualified call of a user function yet.)
	"CREATE SEQUENCE r17s.sq",
	"GRANT USAGE ON SEQUENCE r17s.sq TO r17_reader",
	"GRANT SELECT ON SEQUENCE r17s.sq TO r17_writer",
	"GRANT UPDATE ON r17s.sq TO r17_grp",
	"CREATE TABLE r17s.sr (id serial, v int)",
	"GRANT INSERT ON r17s.sr TO r17_reader, r17_writer",
	"CREATE FUNCTION r17_f(x int) RETURNS int LANGUAGE sql AS 'SELECT x + 1'",
	"CREATE FUNCTION r17_g(x int) RETURNS int LANGUAGE sql AS 'SELECT x * 2'",
	"REVOKE EXECUTE ON FUNCTION r17_g(int) FROM PUBLIC",
	"GRANT EXECUTE ON FUNCTION r17_g(int) TO r17_grp",
	"CREATE VIEW r17s.vf AS SELECT r17_g(a) AS ga, a FROM r17s.t",
	"GRANT SELECT ON r17s.vf TO PUBLIC",
	"CREATE VIEW r17s.vc AS SELECT a, b FROM r17s.t",
	"GRANT SELECT (a) ON r17s.vc TO r17_reader",
	"GRANT SELECT (b), UPDATE (b) ON r17s.vc TO r17_writer",
}

// rolesCleanup undoes rolesSetup (also run first, for a failed earlier run).
var rolesCleanup = []string{
	"DROP VIEW IF EXISTS r17s.vf",
	"DROP VIEW IF EXISTS r17s.vc",
	"DROP FUNCTION IF EXISTS r17_f(int)",
	"DROP FUNCTION IF EXISTS r17_g(int)",
	"DROP FUNCTION IF EXISTS r17_h(int)",
	"DROP SEQUENCE IF EXISTS r17s.sq",
	"DROP SEQUENCE IF EXISTS r17s.sq2",
	"DROP TABLE IF EXISTS r17s.sr",
	"DROP TABLE IF EXISTS r17p.h",
	"DROP VIEW IF EXISTS r17s.ov",
	"DROP SCHEMA IF EXISTS r17p",
	"DROP VIEW IF EXISTS r17s.v",
	"DROP TABLE IF EXISTS r17s.t",
	"DROP TABLE IF EXISTS r17s.u",
	"DROP TABLE IF EXISTS r17s.o",
	"DROP TABLE IF EXISTS r17s.c",
	"DROP TABLE IF EXISTS r17s.ms",
	"DROP SCHEMA IF EXISTS r17s",
	"DROP ROLE IF EXISTS r17_owner",
	"DROP ROLE IF EXISTS r17_reader",
	"DROP ROLE IF EXISTS r17_writer",
	"DROP ROLE IF EXISTS r17_none",
	"DROP ROLE IF EXISTS r17_grp",
	"DROP ROLE IF EXISTS r17_files",
	"DROP ROLE IF EXISTS r17_nologin",
	"DROP ROLE IF EXISTS r17_new",
}

// rolesMatrix are the statements every role runs.
var rolesMatrix = []string{
	"SELECT current_user, session_user",
	"SELECT a, b FROM r17s.t ORDER BY a",
	"SELECT count(*) FROM r17s.t",
	"SELECT * FROM r17s.v ORDER BY a",
	"SELECT k FROM r17s.u",
	"SELECT t.a FROM r17s.t JOIN r17s.u ON true ORDER BY 1",
	"INSERT INTO r17s.t VALUES (3, 'three')",
	"INSERT INTO r17s.t VALUES (3, 'three') RETURNING a",
	"UPDATE r17s.t SET b = 'x'",
	"UPDATE r17s.t SET b = 'x' WHERE a = 1",
	"UPDATE r17s.t SET a = a + 1",
	"DELETE FROM r17s.t",
	"DELETE FROM r17s.t WHERE a = 1",
	"TRUNCATE r17s.t",
	"TRUNCATE r17s.u",
	"DROP TABLE r17s.t",
	"CREATE TABLE r17s.o (x int)",
	"CREATE TABLE public.r17_p (x int)",
	"SELECT has_table_privilege('r17s.t', 'SELECT'), has_table_privilege('r17s.t', 'INSERT'), has_table_privilege('r17s.t', 'DELETE')",
	"SELECT has_table_privilege('r17_reader', 'r17s.t', 'select'), has_schema_privilege('r17s', 'CREATE'), has_schema_privilege('r17s', 'USAGE')",
	"CREATE ROLE r17_new",
	"DROP ROLE r17_none",
	"GRANT SELECT ON r17s.t TO r17_none",
	"GRANT DELETE ON r17s.t TO r17_none",
	"GRANT DELETE, SELECT ON r17s.t TO r17_none",
	"GRANT ALL ON r17s.t TO r17_none",
	"REVOKE DELETE ON r17s.t FROM r17_none",
	"GRANT DELETE ON r17s.t TO r17_none ;; SELECT relacl::text FROM pg_class WHERE relname = 't' AND relnamespace = 'r17s'::regnamespace",
	"GRANT DELETE ON r17s.t TO r17_none WITH GRANT OPTION ;; REVOKE DELETE ON r17s.t FROM r17_none ;; SELECT relacl::text FROM pg_class WHERE relname = 't' AND relnamespace = 'r17s'::regnamespace",
	"GRANT SELECT ON r17s.t TO r17_none ;; SET ROLE r17_none ;; SELECT count(*) FROM r17s.t",
	"REVOKE SELECT ON r17s.t FROM r17_reader ;; SELECT has_table_privilege('r17_reader', 'r17s.t', 'SELECT')",
	"GRANT r17_grp TO r17_none",
	"SET ROLE r17_grp",
	"SET ROLE r17_reader",
	"ALTER ROLE r17_reader CREATEDB",
	"SELECT relname, relacl::text FROM pg_class WHERE relname IN ('t', 'u', 'v') AND relnamespace = 'r17s'::regnamespace ORDER BY 1",
	"SELECT z FROM r17p.h",
	"SET search_path = r17p, public",
	"SELECT nspname, nspacl::text FROM pg_namespace WHERE nspname LIKE 'r17%' ORDER BY 1",
	"CREATE SCHEMA r17q",
	"DROP SCHEMA r17p",
	"ALTER TABLE r17s.t ADD COLUMN c int",
	"ALTER TABLE r17s.t RENAME TO t2",
	"CREATE INDEX ON r17s.t (a)",
	"DROP VIEW r17s.v",
	"CREATE VIEW r17s.ov AS SELECT 1 AS one",
	"ALTER TABLE r17s.t OWNER TO r17_reader",
	"SELECT tablename, tableowner FROM pg_tables WHERE schemaname = 'r17s' ORDER BY 1",
	"SELECT viewname, viewowner FROM pg_views WHERE schemaname = 'r17s' ORDER BY 1",
	"SELECT rolname, rolsuper, rolinherit, rolcreaterole, rolcreatedb, rolcanlogin FROM pg_roles WHERE rolname LIKE 'r17%' ORDER BY 1",
	// Column privileges: checks per column, the catalogs and functions.
	"SELECT a FROM r17s.c ORDER BY a",
	"SELECT a, b FROM r17s.c ORDER BY a",
	"SELECT * FROM r17s.c",
	"SELECT count(*) FROM r17s.c",
	"SELECT c FROM r17s.c WHERE a = 1",
	"SELECT x.a FROM r17s.c x JOIN r17s.ms y USING (a)",
	"SELECT 1 FROM r17s.c NATURAL JOIN r17s.ms",
	"SELECT c FROM r17s.c",
	"INSERT INTO r17s.c (a) VALUES (5)",
	"INSERT INTO r17s.c VALUES (5)",
	"INSERT INTO r17s.c VALUES (5, 'z')",
	"INSERT INTO r17s.c (a) VALUES (5) RETURNING a",
	"INSERT INTO r17s.c (a) VALUES (5) RETURNING b",
	"INSERT INTO r17s.c DEFAULT VALUES",
	"UPDATE r17s.c SET b = 'q'",
	"UPDATE r17s.c SET b = 'q' WHERE a = 1",
	"UPDATE r17s.c SET b = b || 'q'",
	"UPDATE r17s.c SET c = 1",
	"DELETE FROM r17s.c WHERE a = 1",
	"SELECT has_column_privilege('r17s.c', 'a', 'SELECT'), has_column_privilege('r17s.c', 'b', 'SELECT'), has_column_privilege('r17s.c', 'c', 'UPDATE'), has_column_privilege('r17s.c', 'b', 'UPDATE')",
	"SELECT has_column_privilege('r17_writer', 'r17s.c', 'c', 'REFERENCES'), has_column_privilege('r17_grp', 'r17s.c', 'b', 'SELECT WITH GRANT OPTION'), has_any_column_privilege('r17s.c', 'SELECT'), has_any_column_privilege('r17s.c', 'INSERT')",
	"SELECT attname, attacl::text FROM pg_attribute WHERE attrelid = 'r17s.c'::regclass AND attnum > 0 ORDER BY attnum",
	"GRANT SELECT (b) ON r17s.c TO r17_none ;; SELECT attname, attacl::text FROM pg_attribute WHERE attrelid = 'r17s.c'::regclass AND attnum = 2",
	"REVOKE SELECT ON r17s.c FROM r17_writer ;; SELECT attname, attacl::text FROM pg_attribute WHERE attrelid = 'r17s.c'::regclass AND attnum > 0 ORDER BY attnum",
	"SELECT grantor, grantee, table_schema, table_name, column_name, privilege_type, is_grantable FROM information_schema.column_privileges WHERE table_schema = 'r17s' ORDER BY 2, 4, 5, 6, 1",
	"GRANT SELECT (nosuch) ON r17s.c TO r17_none",
	"GRANT DELETE (a) ON r17s.c TO r17_none",
	"DROP ROLE r17_grp",
	// MERGE asks each action's privileges.
	"MERGE INTO r17s.c t USING r17s.ms s ON t.a = s.a WHEN MATCHED THEN UPDATE SET b = s.b",
	"MERGE INTO r17s.c t USING r17s.ms s ON t.a = s.a WHEN MATCHED THEN UPDATE SET b = t.b",
	"MERGE INTO r17s.c t USING r17s.ms s ON t.a = s.a WHEN NOT MATCHED THEN INSERT (a) VALUES (s.a)",
	"MERGE INTO r17s.c t USING r17s.ms s ON t.a = s.a WHEN NOT MATCHED THEN INSERT VALUES (s.a, s.b)",
	"MERGE INTO r17s.c t USING r17s.ms s ON t.a = s.a WHEN MATCHED THEN DELETE",
	"MERGE INTO r17s.t t USING r17s.ms s ON t.a = s.a WHEN MATCHED THEN UPDATE SET b = s.b WHEN NOT MATCHED THEN INSERT VALUES (s.a, s.b)",
	"MERGE INTO r17s.t t USING r17s.ms s ON t.a = s.a WHEN MATCHED THEN DELETE",
	// DROP OWNED and REASSIGN OWNED.
	"REASSIGN OWNED BY r17_owner TO r17_reader ;; SELECT relname, pg_get_userbyid(relowner) FROM pg_class WHERE relnamespace = 'r17s'::regnamespace ORDER BY 1",
	"REASSIGN OWNED BY r17_owner TO r17_owner",
	"REASSIGN OWNED BY postgres TO r17_reader",
	"REASSIGN OWNED BY r17_nobody TO r17_reader",
	// (PostgreSQL revokes in pg_shdepend's heap order: roles granted one
	// object only, so the warnings' order is not in question.)
	"DROP OWNED BY r17_none ;; SELECT relname, relacl::text FROM pg_class WHERE relname = 'v' AND relnamespace = 'r17s'::regnamespace",
	"DROP OWNED BY r17_writer ;; SELECT relname, relacl::text FROM pg_class WHERE relname IN ('t', 'c') AND relnamespace = 'r17s'::regnamespace ORDER BY 1",
	"DROP OWNED BY r17_writer ;; SELECT attname, attacl::text FROM pg_attribute WHERE attrelid = 'r17s.c'::regclass AND attnum > 0 ORDER BY attnum",
	"DROP OWNED BY r17_grp, r17_reader ;; SELECT has_table_privilege('r17_reader', 'r17s.t', 'SELECT'), has_column_privilege('r17_grp', 'r17s.c', 'b', 'SELECT')",
	"DROP OWNED BY postgres",
	"CREATE SCHEMA r17d AUTHORIZATION r17_none ;; CREATE TABLE r17d.x (a int) ;; DROP OWNED BY r17_none ;; SELECT nspname FROM pg_namespace WHERE nspname = 'r17d'",
	"CREATE SCHEMA r17d AUTHORIZATION r17_none ;; CREATE TABLE r17d.x (a int) ;; DROP OWNED BY r17_none CASCADE ;; SELECT nspname FROM pg_namespace WHERE nspname = 'r17d'",
	// ALTER DEFAULT PRIVILEGES, applied to what is created later.
	"ALTER DEFAULT PRIVILEGES GRANT SELECT ON TABLES TO r17_reader ;; SELECT pg_get_userbyid(defaclrole), defaclnamespace::regnamespace::text, defaclobjtype::text, defaclacl::text FROM pg_default_acl",
	"ALTER DEFAULT PRIVILEGES IN SCHEMA r17s GRANT INSERT ON TABLES TO r17_none WITH GRANT OPTION ;; ALTER DEFAULT PRIVILEGES GRANT SELECT ON TABLES TO PUBLIC ;; CREATE TABLE r17s.dp (x int) ;; SELECT relacl::text FROM pg_class WHERE relname = 'dp'",
	"ALTER DEFAULT PRIVILEGES REVOKE DELETE ON TABLES FROM CURRENT_USER ;; CREATE VIEW r17s.ov AS SELECT 1 AS one ;; SELECT relacl::text FROM pg_class WHERE relname = 'ov' ;; SELECT defaclacl::text FROM pg_default_acl",
	"ALTER DEFAULT PRIVILEGES FOR ROLE r17_owner GRANT SELECT ON TABLES TO PUBLIC ;; SELECT defaclacl::text FROM pg_default_acl",
	"ALTER DEFAULT PRIVILEGES FOR ROLE r17_grp, r17_none IN SCHEMA r17s, r17p GRANT UPDATE ON TABLES TO r17_reader ;; SELECT pg_get_userbyid(defaclrole), defaclnamespace::regnamespace::text, defaclacl::text FROM pg_default_acl ORDER BY 1, 2",
	"ALTER DEFAULT PRIVILEGES GRANT USAGE ON SCHEMAS TO r17_reader ;; CREATE SCHEMA r17e ;; SELECT nspacl::text FROM pg_namespace WHERE nspname = 'r17e'",
	"ALTER DEFAULT PRIVILEGES GRANT USAGE ON SCHEMAS TO r17_reader ;; ALTER DEFAULT PRIVILEGES REVOKE USAGE ON SCHEMAS FROM r17_reader ;; SELECT count(*) FROM pg_default_acl",
	"ALTER DEFAULT PRIVILEGES IN SCHEMA r17s GRANT USAGE ON SCHEMAS TO r17_reader",
	"ALTER DEFAULT PRIVILEGES IN SCHEMA r17nosuch GRANT SELECT ON TABLES TO r17_reader",
	"ALTER DEFAULT PRIVILEGES GRANT USAGE ON TABLES TO r17_reader",
	"ALTER DEFAULT PRIVILEGES FOR ROLE r17_reader GRANT SELECT ON TABLES TO r17_grp ;; DROP ROLE r17_grp",
	// SET SESSION AUTHORIZATION: a superuser who connected, or oneself.
	"SET SESSION AUTHORIZATION r17_reader ;; SELECT current_user, session_user",
	"SET SESSION AUTHORIZATION r17_reader ;; SELECT a FROM r17s.c ORDER BY a",
	"SET SESSION AUTHORIZATION r17_reader ;; SELECT b FROM r17s.c",
	"SET SESSION AUTHORIZATION r17_writer ;; SET ROLE r17_grp ;; SELECT current_user, session_user",
	"SET SESSION AUTHORIZATION r17_writer ;; RESET SESSION AUTHORIZATION ;; SELECT current_user, session_user",
	"SET SESSION AUTHORIZATION DEFAULT ;; SELECT current_user, session_user",
	"SET ROLE r17_grp ;; SET SESSION AUTHORIZATION r17_writer ;; SELECT current_user, session_user",
	"SET SESSION AUTHORIZATION r17_nobody",
	"SELECT r.rolname, m.rolname, a.admin_option FROM pg_auth_members a JOIN pg_roles r ON r.oid = a.roleid JOIN pg_roles m ON m.oid = a.member WHERE m.rolname LIKE 'r17%' ORDER BY 1, 2",
	// Sequences: the functions' and SELECT's privileges, GRANT, the catalogs.
	"SELECT nextval('r17s.sq')",
	"SELECT nextval('r17s.sq') ;; SELECT currval('r17s.sq')",
	"SELECT setval('r17s.sq', 10)",
	"SELECT last_value FROM r17s.sq",
	"SELECT nextval('r17s.sq') ;; SELECT lastval()",
	"INSERT INTO r17s.sr (v) VALUES (1)",
	"INSERT INTO r17s.sr (id, v) VALUES (100, 1)",
	"SELECT has_sequence_privilege('r17s.sq', 'USAGE'), has_sequence_privilege('r17s.sq', 'SELECT'), has_sequence_privilege('r17s.sq', 'UPDATE')",
	"SELECT has_sequence_privilege('r17_grp', 'r17s.sq', 'update'), has_sequence_privilege('r17_reader', 'r17s.sq', 'usage with grant option')",
	"SELECT has_sequence_privilege('r17s.t', 'USAGE')",
	"SELECT has_sequence_privilege('r17s.sq', 'INSERT')",
	"GRANT USAGE ON SEQUENCE r17s.sq TO r17_none ;; SELECT relacl::text FROM pg_class WHERE relname = 'sq'",
	"GRANT INSERT, SELECT ON r17s.sq TO r17_none ;; SELECT relacl::text FROM pg_class WHERE relname = 'sq'",
	"GRANT ALL ON r17s.sq TO r17_none ;; SELECT relacl::text FROM pg_class WHERE relname = 'sq'",
	"GRANT INSERT ON SEQUENCE r17s.sq TO r17_none",
	"GRANT USAGE ON SEQUENCE r17s.t TO r17_none",
	"GRANT USAGE ON r17s.t TO r17_none",
	"REVOKE ALL ON ALL SEQUENCES IN SCHEMA r17s FROM r17_reader ;; SELECT relname, relacl::text FROM pg_class WHERE relkind = 'S' AND relnamespace = 'r17s'::regnamespace ORDER BY 1",
	"SELECT relname, pg_get_userbyid(relowner) FROM pg_class WHERE relkind = 'S' AND relnamespace = 'r17s'::regnamespace ORDER BY 1",
	"CREATE SEQUENCE r17s.sq2 ;; SELECT pg_get_userbyid(relowner), relacl::text FROM pg_class WHERE relname = 'sq2'",
	"ALTER SEQUENCE r17s.sq RESTART",
	"ALTER SEQUENCE r17s.sq RENAME TO sq3",
	"DROP SEQUENCE r17s.sq",
	"CREATE SEQUENCE r17s.sq2 ;; ALTER SEQUENCE r17s.sq2 INCREMENT BY 2 ;; DROP SEQUENCE r17s.sq2 ;; SELECT count(*) FROM pg_class WHERE relname = 'sq2'",
	// Functions: EXECUTE, PUBLIC's default, through a view, the catalogs.
	"SELECT r17_f(1)",
	"SELECT r17_g(1)",
	"SELECT * FROM r17_g(2)",
	"SELECT ga FROM r17s.vf ORDER BY a",
	"SELECT has_function_privilege('r17_f(int)', 'EXECUTE'), has_function_privilege('r17_g(integer)', 'execute'), has_function_privilege('r17_grp', 'r17_g(int)', 'EXECUTE')",
	"SELECT has_function_privilege('r17_g(text)', 'EXECUTE')",
	"SELECT has_function_privilege('r17_g(int)', 'USAGE')",
	"SELECT proname, proacl::text FROM pg_proc WHERE proname LIKE 'r17%' ORDER BY 1",
	"GRANT EXECUTE ON FUNCTION r17_g(int) TO r17_none ;; SELECT proacl::text FROM pg_proc WHERE proname = 'r17_g'",
	"GRANT EXECUTE ON FUNCTION r17_g TO r17_none ;; SET ROLE r17_none ;; SELECT r17_g(3)",
	"GRANT ALL ON FUNCTION r17_f(int) TO r17_none ;; SELECT proacl::text FROM pg_proc WHERE proname = 'r17_f'",
	"REVOKE EXECUTE ON ALL FUNCTIONS IN SCHEMA r17s FROM PUBLIC ;; SELECT proname, proacl::text FROM pg_proc WHERE proname LIKE 'r17%' ORDER BY 1",
	"GRANT EXECUTE ON ROUTINE r17_f(int) TO r17_reader ;; SELECT proacl::text FROM pg_proc WHERE proname = 'r17_f'",
	"GRANT EXECUTE ON PROCEDURE r17_f(int) TO r17_reader",
	"GRANT EXECUTE ON FUNCTION r17_f(text) TO r17_reader",
	"GRANT SELECT ON FUNCTION r17_f(int) TO r17_reader",
	"GRANT EXECUTE ON FUNCTION r17_f(int) TO r17_nobody",
	"DROP FUNCTION r17_f(int)",
	"CREATE FUNCTION r17_h(x int) RETURNS int LANGUAGE sql AS 'SELECT x' ;; SELECT pg_get_userbyid(proowner), proacl::text FROM pg_proc WHERE proname = 'r17_h'",
	// Column privileges of a view.
	"SELECT a FROM r17s.vc ORDER BY a",
	"SELECT b FROM r17s.vc ORDER BY b",
	"SELECT * FROM r17s.vc",
	"SELECT count(*) FROM r17s.vc",
	"SELECT attname, attacl::text FROM pg_attribute WHERE attrelid = 'r17s.vc'::regclass ORDER BY attnum",
	"SELECT has_column_privilege('r17s.vc', 'a', 'SELECT'), has_column_privilege('r17s.vc', 'b', 'UPDATE')",
	// Default privileges of sequences and functions.
	"ALTER DEFAULT PRIVILEGES GRANT USAGE ON SEQUENCES TO r17_reader ;; CREATE SEQUENCE r17s.sq2 ;; SELECT relacl::text FROM pg_class WHERE relname = 'sq2'",
	"ALTER DEFAULT PRIVILEGES IN SCHEMA r17s GRANT SELECT ON SEQUENCES TO r17_none WITH GRANT OPTION ;; CREATE SEQUENCE r17s.sq2 ;; SELECT relacl::text FROM pg_class WHERE relname = 'sq2'",
	"ALTER DEFAULT PRIVILEGES REVOKE EXECUTE ON FUNCTIONS FROM PUBLIC ;; SELECT defaclobjtype::text, defaclacl::text FROM pg_default_acl",
	"ALTER DEFAULT PRIVILEGES REVOKE EXECUTE ON FUNCTIONS FROM PUBLIC ;; CREATE FUNCTION r17_h(x int) RETURNS int LANGUAGE sql AS 'SELECT x' ;; SELECT proacl::text FROM pg_proc WHERE proname = 'r17_h'",
	"ALTER DEFAULT PRIVILEGES GRANT EXECUTE ON ROUTINES TO r17_reader ;; SELECT defaclobjtype::text, defaclacl::text FROM pg_default_acl",
	"ALTER DEFAULT PRIVILEGES GRANT INSERT ON SEQUENCES TO r17_reader",
	"ALTER DEFAULT PRIVILEGES GRANT USAGE ON FUNCTIONS TO r17_reader",
	"ALTER DEFAULT PRIVILEGES FOR ROLE r17_reader GRANT EXECUTE ON FUNCTIONS TO r17_grp ;; DROP ROLE r17_grp",
}

// outcome runs q in a transaction rolled back afterwards and describes
// what it gave: its rows, or its error's SQLSTATE and message.
// Statements joined by " ;; " run in order in the one transaction, the
// outcome being the last one's and the errors of the others; the notices
// and warnings the statements raise are part of it.
func roleOutcome(ctx context.Context, c *pgx.Conn, q string) string {
	if _, err := c.Exec(ctx, "BEGIN"); err != nil {
		return "BEGIN: " + err.Error()
	}
	defer c.Exec(ctx, "ROLLBACK")
	notices := noticesOf[c.PgConn()]
	if notices == nil {
		notices = &[]string{}
	}
	*notices = nil
	out := roleRows(ctx, c, q)
	if len(*notices) > 0 {
		out += " NOTICES: " + strings.Join(*notices, "; ")
	}
	return out
}

// noticesOf collects each connection's notices (rolesConnect).
var noticesOf = map[*pgconn.PgConn]*[]string{}

func roleRows(ctx context.Context, c *pgx.Conn, q string) string {
	parts := strings.Split(q, " ;; ")
	var pre []string
	for _, p := range parts[:len(parts)-1] {
		if _, err := c.Exec(ctx, p); err != nil {
			pre = append(pre, roleErr(err))
			if _, err := c.Exec(ctx, "ROLLBACK"); err == nil {
				c.Exec(ctx, "BEGIN")
			}
		}
	}
	q = parts[len(parts)-1]
	if len(pre) > 0 {
		return strings.Join(pre, "; ")
	}
	rows, err := c.Query(ctx, q)
	if err != nil {
		return roleErr(err)
	}
	var out []string
	for rows.Next() {
		vals, err := rows.Values()
		if err != nil {
			return roleErr(err)
		}
		var cells []string
		for _, v := range vals {
			cells = append(cells, fmt.Sprint(v))
		}
		out = append(out, strings.Join(cells, " "))
	}
	if err := rows.Err(); err != nil {
		return roleErr(err)
	}
	tag := rows.CommandTag().String()
	return tag + " " + strings.Join(out, " | ")
}

func roleErr(err error) string {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		s := pe.Code + " " + pe.Message
		if pe.Hint != "" {
			s += " HINT: " + pe.Hint
		}
		return s
	}
	return "error: " + err.Error()
}

// fileErr stands for any failure to open a server-side file: past the
// privilege check, which file a COPY may open is copy_dirs' business
// (joind's rule, not PostgreSQL's file permissions).
func fileErr(s string) string {
	if strings.Contains(s, "could not open file") {
		return "could not open file"
	}
	return s
}

// rolesConnect connects to dsn as user (simple protocol, as psql).
func rolesConnect(t *testing.T, dsn, user string) (c *pgx.Conn, err error) {
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		t.Fatal(err)
	}
	cfg.User = user
	cfg.DefaultQueryExecMode = pgx.QueryExecModeSimpleProtocol
	notices := &[]string{}
	cfg.OnNotice = func(_ *pgconn.PgConn, n *pgconn.Notice) {
		*notices = append(*notices, n.Severity+" "+n.Code+" "+n.Message)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err = pgx.ConnectConfig(ctx, cfg)
	if c != nil {
		noticesOf[c.PgConn()] = notices
	}
	return c, err
}

func runAll(t *testing.T, c *pgx.Conn, qs []string, ignoreErrors bool) {
	t.Helper()
	for _, q := range qs {
		if _, err := c.Exec(ctxT(t), q); err != nil && !ignoreErrors {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

func TestRolesPrivilegeMatrix(t *testing.T) {
	pg := oracle.Start(t)
	files := t.TempDir()
	j := joindtest.StartJoind(t, "--copy-dirs", files)
	missing := filepath.Join(files, "none", "r17.csv")
	servers := []struct{ name, dsn string }{{"postgres", pg.DSN()}, {"joind", j.DSNFor("postgres")}}
	supers := map[string]*pgx.Conn{}
	for _, s := range servers {
		c, err := rolesConnect(t, s.dsn, "postgres")
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		defer c.Close(context.Background())
		runAll(t, c, rolesCleanup, true)
		runAll(t, c, rolesSetup, false)
		supers[s.name] = c
	}
	// The owner makes a table of its own: DROP and GRANT as its owner.
	for _, s := range servers {
		c, err := rolesConnect(t, s.dsn, "r17_owner")
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		runAll(t, c, []string{"CREATE TABLE r17s.o (x int)", "GRANT SELECT ON r17s.o TO r17_reader"}, false)
		c.Close(context.Background())
	}
	defer func() {
		for _, c := range supers {
			runAll(t, c, rolesCleanup, true)
		}
	}()
	matrix := append(append([]string(nil), rolesMatrix...),
		"COPY r17s.t FROM '"+missing+"'", "COPY r17s.t TO '"+missing+"'",
		"SELECT x FROM r17s.o", "DROP TABLE r17s.o", "INSERT INTO r17s.o VALUES (1)",
		"ALTER TABLE r17s.o OWNER TO r17_reader", "ALTER TABLE r17s.o OWNER TO r17_owner", "ALTER TABLE r17s.o ADD COLUMN y int",
		"SELECT relname, relacl::text FROM pg_class WHERE relname = 'o' AND relnamespace = 'r17s'::regnamespace")
	agree := 0
	for _, role := range []string{"postgres", "r17_owner", "r17_reader", "r17_writer", "r17_none", "r17_files"} {
		conns := map[string]*pgx.Conn{}
		for _, s := range servers {
			c, err := rolesConnect(t, s.dsn, role)
			if err != nil {
				t.Fatalf("%s as %s: %v", s.name, role, err)
			}
			defer c.Close(context.Background())
			conns[s.name] = c
		}
		for _, q := range matrix {
			want := fileErr(roleOutcome(ctxT(t), conns["postgres"], q))
			got := fileErr(roleOutcome(ctxT(t), conns["joind"], q))
			if got != want {
				t.Errorf("as %s: %s\n joind:    %s\n postgres: %s", role, q, got, want)
			} else {
				agree++
			}
		}
	}
	// A NOLOGIN role and a role that does not exist are refused at login.
	for _, user := range []string{"r17_nologin", "r17_nobody"} {
		var msgs []string
		for _, s := range servers {
			_, err := rolesConnect(t, s.dsn, user)
			msgs = append(msgs, roleErr(err))
		}
		if msgs[0] != msgs[1] || !strings.HasPrefix(msgs[0], "28000") {
			t.Errorf("login as %s:\n postgres: %s\n joind:    %s", user, msgs[0], msgs[1])
		}
	}
	t.Logf("%d statement outcomes agree", agree)
}

// TestRolesSurviveRestart: roles, passwords, memberships, owners and
// grants are in the data directory; after a restart a role logs in with
// its password (SCRAM, the --users default) and has what it was granted.
func TestRolesSurviveRestart(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	args := []string{"--users", "boot:bootpw,postgres:pgpw", "--hba", "host all postgres samehost trust; host all all samehost scram-sha-256"}
	j := joindtest.StartJoindWithDataDir(t, dir, args...)
	dsn := func(j *joindtest.Joind, user, pw string) string {
		return fmt.Sprintf("host=%s port=%d user=%s password=%s dbname=regression sslmode=disable", j.Host(), j.Port(), user, pw)
	}
	conn := func(d string) (*pgx.Conn, error) {
		cfg, err := pgx.ParseConfig(d)
		if err != nil {
			t.Fatal(err)
		}
		cfg.DefaultQueryExecMode = pgx.QueryExecModeSimpleProtocol
		return pgx.ConnectConfig(ctxT(t), cfg)
	}
	c, err := conn(dsn(j, "boot", "bootpw"))
	if err != nil {
		t.Fatal(err)
	}
	runAll(t, c, []string{
		"CREATE ROLE rs_app LOGIN PASSWORD 'apppw'",
		"CREATE ROLE rs_grp",
		"GRANT rs_grp TO rs_app",
		"CREATE TABLE rs_t (a int)",
		"INSERT INTO rs_t VALUES (1)",
		"GRANT SELECT ON rs_t TO rs_grp",
		"CREATE SCHEMA rs_s",
		"GRANT USAGE, CREATE ON SCHEMA rs_s TO rs_app",
		"CREATE TABLE rs_c (a int, b int)",
		"INSERT INTO rs_c VALUES (1, 2)",
		"GRANT SELECT (a), UPDATE (b) ON rs_c TO rs_app",
		"ALTER DEFAULT PRIVILEGES FOR ROLE rs_app IN SCHEMA rs_s GRANT SELECT ON TABLES TO rs_grp",
	}, false)
	c.Close(context.Background())
	a, err := conn(dsn(j, "rs_app", "apppw"))
	if err != nil {
		t.Fatal(err)
	}
	runAll(t, a, []string{"CREATE TABLE rs_s.mine (x int)"}, false)
	a.Close(context.Background())
	j.Stop()

	j2 := joindtest.StartJoindWithDataDir(t, dir, args...)
	defer j2.Stop()
	if _, err := conn(dsn(j2, "rs_app", "wrong")); err == nil || !strings.Contains(err.Error(), "password authentication failed") {
		t.Fatalf("wrong password: %v", err)
	}
	a, err = conn(dsn(j2, "rs_app", "apppw"))
	if err != nil {
		t.Fatalf("rs_app after restart: %v", err)
	}
	defer a.Close(context.Background())
	checks := []struct{ q, want string }{
		{"SELECT a FROM rs_t", "SELECT 1 1"},
		{"INSERT INTO rs_t VALUES (2)", "42501 permission denied for table rs_t"},
		{"SELECT current_user", "SELECT 1 rs_app"},
		{"SELECT oid = 10, rolname, rolcanlogin, rolsuper FROM pg_roles WHERE rolname LIKE 'rs_%' OR rolname IN ('boot', 'postgres') ORDER BY 2",
			"SELECT 4 true boot true true | false postgres true true | false rs_app true false | false rs_grp false false"},
		{"SELECT relacl::text FROM pg_class WHERE relname = 'rs_t'", "SELECT 1 {boot=arwdDxt/boot,rs_grp=r/boot}"},
		{"SELECT pg_get_userbyid(relowner) FROM pg_class WHERE relname = 'mine'", "SELECT 1 rs_app"},
		{"DROP TABLE rs_t", "42501 must be owner of table rs_t"},
		{"SELECT a FROM rs_c", "SELECT 1 1"},
		{"SELECT pg_get_userbyid(defaclrole), defaclacl::text FROM pg_default_acl", "SELECT 1 rs_app {rs_grp=r/rs_app}"},
		{"CREATE TABLE rs_s.later (x int) ;; SELECT relacl::text FROM pg_class WHERE relname = 'later'", "SELECT 1 {rs_app=arwdDxt/rs_app,rs_grp=r/rs_app}"},
		{"SELECT b FROM rs_c", "42501 permission denied for table rs_c"},
		{"SELECT attname, attacl::text FROM pg_attribute WHERE attrelid = 'rs_c'::regclass AND attnum > 0 ORDER BY 1",
			"SELECT 2 a {rs_app=r/boot} | b {rs_app=w/boot}"},
		{"SELECT * FROM read_parquet('/tmp/x.parquet')", "42501 permission denied for function read_parquet HINT: Reading server-side files takes a superuser or a member of pg_read_server_files."},
	}
	for _, ch := range checks {
		if got := roleOutcome(ctxT(t), a, ch.q); got != ch.want {
			t.Errorf("%s:\n got  %s\n want %s", ch.q, got, ch.want)
		}
	}
	if _, err := conn(dsn(j2, "rs_grp", "")); err == nil {
		t.Errorf("NOLOGIN role rs_grp logged in")
	}
}

// TestRolesPreparedAfterRevoke: a prepared statement (extended protocol,
// its plan cached) is checked at every execution, so a REVOKE between two
// executions refuses the second, as PostgreSQL does.
func TestRolesPreparedAfterRevoke(t *testing.T) {
	j := joindtest.StartJoind(t)
	su, err := rolesConnect(t, j.DSN(), "postgres")
	if err != nil {
		t.Fatal(err)
	}
	defer su.Close(context.Background())
	runAll(t, su, []string{"CREATE ROLE pr_r LOGIN", "CREATE TABLE pr_t (a int)", "INSERT INTO pr_t VALUES (1)",
		"GRANT SELECT ON pr_t TO pr_r"}, false)
	cfg, err := pgx.ParseConfig(j.DSN())
	if err != nil {
		t.Fatal(err)
	}
	cfg.User = "pr_r"
	cfg.DefaultQueryExecMode = pgx.QueryExecModeCacheStatement
	c, err := pgx.ConnectConfig(ctxT(t), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(context.Background())
	read := func() error {
		var n int
		return c.QueryRow(ctxT(t), "SELECT count(*) FROM pr_t WHERE a > $1", 0).Scan(&n)
	}
	for i := 0; i < 3; i++ {
		if err := read(); err != nil {
			t.Fatalf("execution %d: %v", i, err)
		}
	}
	runAll(t, su, []string{"REVOKE SELECT ON pr_t FROM pr_r"}, false)
	if err := read(); roleErr(err) != "42501 permission denied for table pr_t" {
		t.Fatalf("after REVOKE: %v", err)
	}
	runAll(t, su, []string{"GRANT SELECT ON pr_t TO pr_r"}, false)
	if err := read(); err != nil {
		t.Fatalf("after GRANT: %v", err)
	}
}
