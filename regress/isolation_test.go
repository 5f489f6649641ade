package regress

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// TestIsolationLevels interleaves two connections through READ COMMITTED,
// REPEATABLE READ and SERIALIZABLE transactions, step by step, on joind
// and on PostgreSQL 15, and compares what every step answered (rows, or
// SQLSTATE, message, detail and hint), over the simple and the extended
// query protocol.
func TestIsolationLevels(t *testing.T) {
	type step struct {
		conn byte // 'A' or 'B'
		sql  string
	}
	steps := []step{
		{'A', "DROP VIEW IF EXISTS iso_v"},
		{'A', "DROP TABLE IF EXISTS iso_t, iso_x, iso_y, iso_d, iso_new"},
		{'A', "CREATE TABLE iso_t (a int)"},
		{'A', "CREATE TABLE iso_x (a int)"},
		{'A', "CREATE TABLE iso_y (a int)"},
		{'A', "INSERT INTO iso_t VALUES (1)"},
		// READ COMMITTED: each statement sees the latest commit.
		{'A', "BEGIN"},
		{'A', "SHOW transaction_isolation"},
		{'A', "SELECT count(*) FROM iso_t"},
		{'B', "INSERT INTO iso_t VALUES (2)"},
		{'A', "SELECT count(*) FROM iso_t"},
		{'A', "COMMIT"},
		// REPEATABLE READ: the snapshot of the first query, not of BEGIN.
		{'A', "BEGIN ISOLATION LEVEL REPEATABLE READ"},
		{'A', "SHOW transaction_isolation"},
		{'B', "INSERT INTO iso_t VALUES (3)"},
		{'A', "SELECT count(*), current_setting('transaction_isolation') FROM iso_t"},
		{'B', "INSERT INTO iso_t VALUES (4)"},
		{'A', "SELECT count(*) FROM iso_t"},
		{'A', "INSERT INTO iso_t VALUES (5)"},
		{'A', "SELECT count(*), max(a) FROM iso_t"},
		{'A', "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ"},
		{'A', "SET TRANSACTION ISOLATION LEVEL READ COMMITTED"},
		{'A', "ROLLBACK"},
		// Names resolve in the latest catalog, rows come from the snapshot.
		{'A', "CREATE TABLE iso_d (a int)"},
		{'A', "BEGIN ISOLATION LEVEL REPEATABLE READ"},
		{'A', "SELECT count(*) FROM iso_t"},
		{'B', "CREATE TABLE iso_new (a int)"},
		{'B', "INSERT INTO iso_new VALUES (1)"},
		{'A', "SELECT count(*) FROM iso_new"},
		{'A', "INSERT INTO iso_new VALUES (2)"},
		{'A', "SELECT a FROM iso_new"},
		{'B', "CREATE VIEW iso_v AS SELECT count(*) AS n FROM iso_t"},
		{'A', "SELECT n FROM iso_v"},
		{'B', "DROP TABLE iso_d"},
		{'A', "SELECT count(*) FROM iso_d"},
		{'A', "ROLLBACK"},
		{'A', "SELECT a FROM iso_new"},
		{'A', "DROP VIEW iso_v"},
		{'A', "DROP TABLE iso_new"},
		{'A', "SELECT count(*), max(a) FROM iso_t"},
		{'A', "BEGIN"},
		{'A', "SAVEPOINT s"},
		{'A', "SET TRANSACTION ISOLATION LEVEL SERIALIZABLE"},
		{'A', "ROLLBACK"},
		// SET TRANSACTION before the first query; default_transaction_isolation.
		{'A', "BEGIN"},
		{'A', "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ"},
		{'A', "SHOW transaction_isolation"},
		{'A', "SELECT count(*) FROM iso_t"},
		{'B', "INSERT INTO iso_t VALUES (6)"},
		{'A', "SELECT count(*) FROM iso_t"},
		{'A', "COMMIT"},
		{'A', "SET default_transaction_isolation = 'repeatable read'"},
		{'A', "SHOW transaction_isolation"},
		{'A', "BEGIN"},
		{'A', "SELECT count(*), current_setting('transaction_isolation') FROM iso_t"},
		{'B', "INSERT INTO iso_t VALUES (7)"},
		{'A', "SELECT count(*) FROM iso_t"},
		{'A', "COMMIT"},
		{'A', "SELECT count(*) FROM iso_t"},
		{'A', "RESET default_transaction_isolation"},
		{'A', "SHOW transaction_isolation"},
		// SERIALIZABLE: disjoint reads and writes both commit.
		{'A', "BEGIN ISOLATION LEVEL SERIALIZABLE"},
		{'B', "BEGIN ISOLATION LEVEL SERIALIZABLE"},
		{'A', "SELECT count(*) FROM iso_x"},
		{'B', "SELECT count(*) FROM iso_y"},
		{'A', "INSERT INTO iso_x VALUES (1)"},
		{'B', "INSERT INTO iso_y VALUES (1)"},
		{'A', "COMMIT"},
		{'B', "COMMIT"},
		// SERIALIZABLE write skew: each reads what the other writes.
		{'A', "BEGIN ISOLATION LEVEL SERIALIZABLE"},
		{'B', "BEGIN ISOLATION LEVEL SERIALIZABLE"},
		{'A', "SELECT count(*) FROM iso_x"},
		{'B', "SELECT count(*) FROM iso_y"},
		{'A', "INSERT INTO iso_y VALUES (2)"},
		{'B', "INSERT INTO iso_x VALUES (2)"},
		{'A', "COMMIT"},
		{'B', "COMMIT"},
		{'A', "SELECT (SELECT count(*) FROM iso_x), (SELECT count(*) FROM iso_y)"},
		{'A', "DROP TABLE iso_t, iso_x, iso_y"},
	}
	run := func(ep endpoint, mode pgx.QueryExecMode) []string {
		a, b := connectMode(t, ep, mode), connectMode(t, ep, mode)
		var out []string
		for _, s := range steps {
			c := a
			if s.conn == 'B' {
				c = b
			}
			out = append(out, fmt.Sprintf("%c: %s\n   %s", s.conn, s.sql, outcome(ctxT(t), c, s.sql)))
		}
		return out
	}
	jd, pg := startTarget(t, regressDB), startOracle(t, regressDB)
	for _, mode := range []pgx.QueryExecMode{pgx.QueryExecModeSimpleProtocol, pgx.QueryExecModeExec} {
		got, want := run(jd, mode), run(pg, mode)
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("%v step %d:\n joind    %s\n postgres %s", mode, i+1, got[i], want[i])
			}
		}
		if t.Failed() || testing.Verbose() {
			t.Logf("PostgreSQL's transcript (%v):\n%s", mode, strings.Join(want, "\n"))
		}
	}
}

// connectMode is connect with the given query protocol.
func connectMode(t *testing.T, ep endpoint, mode pgx.QueryExecMode) *pgx.Conn {
	t.Helper()
	cfg, err := pgx.ParseConfig(ep.dsn)
	if err != nil {
		t.Fatal(err)
	}
	cfg.DefaultQueryExecMode = mode
	c, err := pgx.ConnectConfig(ctxT(t), cfg)
	if err != nil {
		t.Fatalf("connect to %s: %v", ep.name, err)
	}
	t.Cleanup(func() { c.Close(context.Background()) })
	return c
}

// outcome runs one statement and describes its rows or its error.
func outcome(ctx context.Context, c *pgx.Conn, sql string) string {
	rows, err := c.Query(ctx, sql)
	if err != nil {
		return describeErr(err)
	}
	var out []string
	for rows.Next() {
		vals, err := rows.Values()
		if err != nil {
			return describeErr(err)
		}
		out = append(out, fmt.Sprint(vals...))
	}
	if err := rows.Err(); err != nil {
		return describeErr(err)
	}
	return fmt.Sprintf("%s %v", rows.CommandTag(), out)
}

func describeErr(err error) string {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return fmt.Sprintf("ERROR %s: %s (detail %q, hint %q)", pe.Code, pe.Message, pe.Detail, pe.Hint)
	}
	return "ERROR " + err.Error()
}
