package regress

import (
	"strings"
	"testing"

	"github.com/joind/joind/regress/joindtest"
	"github.com/joind/joind/regress/oracle"
)

// functionCases are SQL-language functions: definitions (and their
// errors), calls inlined and not, STRICT, DEFAULTs, overloads, OUT and
// TABLE results, set-returning functions in FROM with LATERAL, DROP.
// Each statement's rows or error must be PostgreSQL's.
var functionCases = []string{
	"CREATE TABLE fn_t (a int, b text)",
	"INSERT INTO fn_t VALUES (1, 'one'), (2, 'two'), (3, NULL)",
	"CREATE FUNCTION fn_add(a int, b int) RETURNS int LANGUAGE sql IMMUTABLE AS 'SELECT a + b'",
	"CREATE FUNCTION fn_add(a text, b text) RETURNS text LANGUAGE sql AS $$SELECT a || b$$",
	"CREATE FUNCTION fn_strict(int) RETURNS int LANGUAGE sql STRICT AS 'SELECT coalesce($1, -1)'",
	"CREATE FUNCTION fn_lazy(int) RETURNS int LANGUAGE sql AS 'SELECT coalesce($1, -1)'",
	"CREATE FUNCTION fn_def(a int, b int DEFAULT 10) RETURNS int LANGUAGE sql RETURN a * b",
	"CREATE FUNCTION fn_count(x int) RETURNS bigint LANGUAGE sql STABLE AS 'SELECT count(*) FROM fn_t WHERE a >= x'",
	"CREATE FUNCTION fn_first() RETURNS text LANGUAGE sql AS 'SELECT b FROM fn_t ORDER BY a DESC'",
	"CREATE FUNCTION fn_rows(lim int) RETURNS SETOF fn_t LANGUAGE sql AS 'SELECT * FROM fn_t WHERE a <= lim ORDER BY a'",
	"CREATE FUNCTION fn_tab(n int) RETURNS TABLE(i int, sq int) LANGUAGE sql AS 'SELECT g, g * g FROM generate_series(1, n) g'",
	"CREATE FUNCTION fn_out(INOUT x int, OUT y text) LANGUAGE sql AS $$SELECT x + 1, 'y' || x$$",
	"CREATE FUNCTION fn_atomic(a int) RETURNS int LANGUAGE sql BEGIN ATOMIC SELECT a * 2; END",
	"CREATE FUNCTION fn_bad() RETURNS int LANGUAGE sql AS $$SELECT 'x'::text$$",
	"CREATE FUNCTION fn_bad() RETURNS int LANGUAGE sql AS 'SELECT 1, 2'",
	"CREATE FUNCTION fn_bad() RETURNS int LANGUAGE sql AS 'SELECT $1'",
	"CREATE FUNCTION fn_bad() RETURNS int LANGUAGE sql AS 'SELECT 1 FROM fn_nosuch'",
	"CREATE FUNCTION fn_bad() RETURNS int LANGUAGE nosuchlang AS 'x'",
	"CREATE FUNCTION fn_add(a int, b int) RETURNS int LANGUAGE sql AS 'SELECT 0'",
	"CREATE OR REPLACE FUNCTION fn_add(a int, b int) RETURNS text LANGUAGE sql AS 'SELECT 0'",
	"SELECT fn_add(1, 2), fn_add('a', 'b'), fn_add(a, a) FROM fn_t ORDER BY a",
	"SELECT fn_strict(NULL), fn_lazy(NULL), fn_strict(a) FROM fn_t ORDER BY a",
	"SELECT fn_def(3), fn_def(3, 4)",
	"SELECT a, fn_count(a) FROM fn_t ORDER BY a",
	"SELECT fn_first()",
	"SELECT * FROM fn_rows(2)",
	"SELECT * FROM fn_tab(3) AS t(x, y)",
	"SELECT t.a, s.* FROM fn_t t, fn_tab(t.a) s ORDER BY 1, 2",
	"SELECT fn_out(4)",
	"SELECT * FROM fn_out(4)",
	"SELECT fn_atomic(21)",
	"SELECT fn_nosuch(1)",
	"CREATE OR REPLACE FUNCTION fn_lazy(int) RETURNS int LANGUAGE sql AS 'SELECT $1 * 100'",
	"SELECT fn_lazy(2)",
	"DROP FUNCTION fn_add",
	"DROP FUNCTION fn_add(text, text)",
	"SELECT fn_add(1, 2)",
	"DROP FUNCTION IF EXISTS fn_nosuch(int)",
	"DROP FUNCTION fn_nosuch",
	"SELECT proname, pronargs, pronargdefaults, proretset, provolatile, proisstrict, proargmodes, proargnames, prosrc FROM pg_proc WHERE proname LIKE 'fn\\_%' ORDER BY proname, pronargs",
	"SELECT proname, pg_get_function_arguments(oid), pg_get_function_result(oid) FROM pg_proc WHERE proname LIKE 'fn\\_%' ORDER BY 1, 2",
}

// TestE2EFunctions plays functionCases on joind and PostgreSQL, then
// restarts joind: the functions it kept still answer as before.
func TestE2EFunctions(t *testing.T) {
	pg := oracle.Start(t)
	pg.CreateDatabase(t, "functions")
	pgc := connect(t, endpoint{name: "postgres", dsn: pg.DSNFor("functions")})
	j := joindtest.StartJoind(t)
	jc := connect(t, endpoint{name: "joind", dsn: j.DSN()})
	for _, q := range functionCases {
		want := rawResult(ctxT(t), pgc, q)
		if got := rawResult(ctxT(t), jc, q); got != want {
			t.Errorf("%s\n joind:\n%s\n postgres:\n%s", q, got, want)
		}
	}
	after := []string{"SELECT fn_def(2), fn_lazy(3), fn_strict(NULL)", "SELECT * FROM fn_tab(2)", "SELECT fn_out(1)",
		functionCases[len(functionCases)-2]}
	var before []string
	for _, q := range after {
		before = append(before, rawResult(ctxT(t), jc, q))
	}
	jc.Close(ctxT(t))
	dir := j.DataDir()
	j.Stop()
	j = joindtest.StartJoindWithDataDir(t, dir)
	jc = connect(t, endpoint{name: "joind", dsn: j.DSN()})
	for i, q := range after {
		if got := rawResult(ctxT(t), jc, q); got != before[i] || strings.HasPrefix(got, "ERROR") {
			t.Errorf("after the restart %s:\n%s\nbefore:\n%s", q, got, before[i])
		}
	}
}
