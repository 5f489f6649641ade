package crash

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/joind/joind/regress/joindtest"
)

func run(t *testing.T, c *pgx.Conn, sqls ...string) {
	t.Helper()
	for _, q := range sqls {
		if _, err := c.Exec(context.Background(), q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

func count(t *testing.T, c *pgx.Conn, table string) int64 {
	t.Helper()
	var n int64
	if err := c.QueryRow(context.Background(), "SELECT count(*) FROM "+table).Scan(&n); err != nil {
		t.Fatalf("count %s: %v", table, err)
	}
	return n
}

func sqlstate(err error) string {
	if pe, ok := err.(*pgconn.PgError); ok {
		return pe.Code
	}
	return ""
}

func TestTxnSeesOwnWritesRollbackDiscards(t *testing.T) {
	j := joindtest.StartJoind(t)
	c := mustConnect(t, j)
	run(t, c, "CREATE TABLE t (a int)", "INSERT INTO t VALUES (1)", "BEGIN", "INSERT INTO t VALUES (2), (3)")
	if n := count(t, c, "t"); n != 3 {
		t.Fatalf("inside the block: %d rows, want 3 (own writes)", n)
	}
	run(t, c, "TRUNCATE t")
	if n := count(t, c, "t"); n != 0 {
		t.Fatalf("after TRUNCATE in the block: %d rows, want 0", n)
	}
	run(t, c, "ROLLBACK")
	if n := count(t, c, "t"); n != 1 {
		t.Fatalf("after ROLLBACK: %d rows, want 1", n)
	}
	// An error fails the block; COMMIT then rolls back.
	run(t, c, "BEGIN", "INSERT INTO t VALUES (4)")
	if _, err := c.Exec(context.Background(), "SELECT 1/0"); sqlstate(err) != "22012" {
		t.Fatalf("want 22012, got %v", err)
	}
	if _, err := c.Exec(context.Background(), "SELECT 1"); sqlstate(err) != "25P02" {
		t.Fatalf("want 25P02 in a failed block, got %v", err)
	}
	tag, err := c.Exec(context.Background(), "COMMIT")
	if err != nil || tag.String() != "ROLLBACK" {
		t.Fatalf("COMMIT of a failed block: tag %q err %v, want ROLLBACK", tag, err)
	}
	if n := count(t, c, "t"); n != 1 {
		t.Fatalf("after a failed block: %d rows, want 1", n)
	}
	// Savepoints.
	run(t, c, "BEGIN", "INSERT INTO t VALUES (5)", "SAVEPOINT sp", "INSERT INTO t VALUES (6)", "DROP TABLE t")
	if _, err := c.Exec(context.Background(), "SELECT * FROM t"); sqlstate(err) != "42P01" {
		t.Fatalf("a table dropped in the block: want 42P01, got %v", err)
	}
	run(t, c, "ROLLBACK TO SAVEPOINT sp")
	if n := count(t, c, "t"); n != 2 {
		t.Fatalf("after ROLLBACK TO: %d rows, want 2", n)
	}
	if _, err := c.Exec(context.Background(), "RELEASE SAVEPOINT nosuch"); sqlstate(err) != "3B001" {
		t.Fatalf("RELEASE of an unknown savepoint: want 3B001, got %v", err)
	}
	run(t, c, "ROLLBACK TO sp", "COMMIT")
	if n := count(t, c, "t"); n != 2 {
		t.Fatalf("after COMMIT: %d rows, want 2", n)
	}
}

func TestTxnIsolationBetweenSessions(t *testing.T) {
	j := joindtest.StartJoind(t)
	a, b := mustConnect(t, j), mustConnect(t, j)
	run(t, a, "CREATE TABLE t (a int)", "INSERT INTO t VALUES (1)")
	run(t, a, "BEGIN", "INSERT INTO t VALUES (2)", "CREATE TABLE n (x text)", "INSERT INTO n VALUES ('new')", "DROP TABLE t")
	if n := count(t, b, "t"); n != 1 {
		t.Fatalf("other session sees %d rows of t before COMMIT, want 1", n)
	}
	if _, err := b.Exec(context.Background(), "SELECT * FROM n"); sqlstate(err) != "42P01" {
		t.Fatalf("other session sees an uncommitted table: %v", err)
	}
	run(t, b, "INSERT INTO t VALUES (10)")
	run(t, a, "ROLLBACK", "BEGIN", "INSERT INTO t VALUES (3)", "CREATE TABLE n (x text)", "INSERT INTO n VALUES ('new')")
	if n := count(t, a, "t"); n != 3 {
		t.Fatalf("block sees %d rows (own + committed by others), want 3", n)
	}
	run(t, a, "COMMIT")
	if n := count(t, b, "t"); n != 3 {
		t.Fatalf("after COMMIT other session sees %d rows, want 3", n)
	}
	if n := count(t, b, "n"); n != 1 {
		t.Fatalf("after COMMIT other session sees %d rows of n, want 1", n)
	}
	// Two blocks creating the same table: the second COMMIT fails.
	run(t, a, "BEGIN", "CREATE TABLE dup (x int)")
	run(t, b, "BEGIN", "CREATE TABLE dup (x int)", "COMMIT")
	if _, err := a.Exec(context.Background(), "COMMIT"); sqlstate(err) != "42P07" {
		t.Fatalf("conflicting CREATE: want 42P07 at COMMIT, got %v", err)
	}
	if _, err := a.Exec(context.Background(), "SELECT 1"); err != nil {
		t.Fatalf("after a failed COMMIT the session must be idle: %v", err)
	}
}

func TestCommitDurableAcrossRestart(t *testing.T) {
	dir := t.TempDir()
	j := joindtest.StartJoindWithDataDir(t, dir)
	a, b := mustConnect(t, j), mustConnect(t, j)
	run(t, a, "BEGIN", "CREATE TABLE d (a int, b text)", "INSERT INTO d SELECT g, 'v' || g FROM generate_series(1, 500) g",
		"INSERT INTO d VALUES (501, NULL)", "COMMIT")
	run(t, b, "CREATE TABLE gone (a int)", "BEGIN", "INSERT INTO d VALUES (-1, 'uncommitted')", "DROP TABLE gone")
	kill(t, j) // b's block is open: it must vanish
	j = joindtest.StartJoindWithDataDir(t, dir)
	c := mustConnect(t, j)
	var n, sum int64
	if err := c.QueryRow(context.Background(), "SELECT count(*), sum(a) FROM d").Scan(&n, &sum); err != nil {
		t.Fatal(err)
	}
	if n != 501 || sum != 501*502/2 {
		t.Fatalf("after restart: %d rows sum %d, want 501 rows sum %d", n, sum, 501*502/2)
	}
	if m := count(t, c, "gone"); m != 0 {
		t.Fatalf("gone: %d rows", m)
	}
	// A clean shutdown keeps everything too, and the log says what it opened.
	run(t, c, "TRUNCATE d", "INSERT INTO d VALUES (7, 'seven')")
	c.Close(context.Background())
	j.Stop()
	j = joindtest.StartJoindWithDataDir(t, dir)
	c = mustConnect(t, j)
	var s string
	if err := c.QueryRow(context.Background(), "SELECT b FROM d").Scan(&s); err != nil || s != "seven" {
		t.Fatalf("after TRUNCATE+INSERT and restart: %q %v", s, err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(j.Log(), "opened data directory") && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if !strings.Contains(j.Log(), "tables=2") {
		t.Fatalf("start-up log does not report the two tables:\n%s", j.Log())
	}
}
