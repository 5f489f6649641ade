//go:build unix

package engine

import (
	"fmt"
	"strings"
	"testing"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/wire"
)

// copyIn runs a COPY FROM STDIN with data as the client's rows.
func copyIn(s wire.Session, q, data string) (string, error) {
	return execAll(s, q, &copyFeed{in: strings.NewReader(data)})
}

// lines is "1\n2\n...n\n" (from first on), the one-column input.
func lines(first, n int) string {
	var b strings.Builder
	for i := first; i < first+n; i++ {
		fmt.Fprintf(&b, "%d\n", i)
	}
	return b.String()
}

// padLines is lines with a second field of 120 bytes, so that 20,000 rows
// span two 2 MiB chunks.
func padLines(first, n int) string {
	pad := strings.Repeat("x", 120)
	var b strings.Builder
	for i := first; i < first+n; i++ {
		fmt.Fprintf(&b, "%d\t%s\n", i, pad)
	}
	return b.String()
}

// wantCopyError checks err's SQLSTATE, message and CONTEXT line.
func wantCopyError(t *testing.T, err error, code, msg, where string) {
	t.Helper()
	pe := pgerr.As(err)
	if err == nil || pe.Code != code || pe.Message != msg || pe.Where != where {
		t.Errorf("error %v (%s, where %q), want %s %q where %q", err, pe.Code, pe.Where, code, msg, where)
	}
}

// Every format gets volatile defaults per row, now() from the transaction
// and constant defaults as INSERT computes them. The text rows are more
// than one 2 MiB chunk, so the parallel loader's workers each evaluate
// their batches.
func TestCopyDefaultsPerFormat(t *testing.T) {
	s, _ := copyEnv(t)
	mustExec(t, s, "CREATE TABLE src (a int)")
	if _, err := copyIn(s, "COPY src FROM STDIN", lines(1, 2000)); err != nil {
		t.Fatal(err)
	}
	bin := &copyFeed{}
	if _, err := execAll(s, "COPY src TO STDOUT (FORMAT binary)", bin); err != nil {
		t.Fatal(err)
	}
	mustExec(t, s, "COPY src TO 'src.parquet' (FORMAT parquet)")
	const table = `CREATE TABLE t (a int, p text, ts timestamptz DEFAULT now(), r float8 DEFAULT random(),
		c timestamptz DEFAULT clock_timestamp(), k numeric(6,2) DEFAULT '1.005'::text::numeric * 2, v varchar(2) DEFAULT 'x' || 'y')`
	for _, tc := range []struct {
		name string
		run  func() (string, error)
		rows int
	}{
		{"text", func() (string, error) { return copyIn(s, "COPY t (a, p) FROM STDIN", padLines(1, 20_000)) }, 20_000},
		{"csv", func() (string, error) { return copyIn(s, "COPY t (a) FROM STDIN (FORMAT csv)", lines(1, 5000)) }, 5000},
		{"binary", func() (string, error) {
			return execAll(s, "COPY t (a) FROM STDIN (FORMAT binary)", &copyFeed{in: strings.NewReader(bin.out.String())})
		}, 2000},
		{"parquet", func() (string, error) {
			return execAll(s, "COPY t (a) FROM 'src.parquet' (FORMAT parquet)", &copyFeed{})
		}, 2000},
	} {
		mustExec(t, s, table)
		mustExec(t, s, "BEGIN")
		tag, err := tc.run()
		if want := fmt.Sprintf("COPY %d", tc.rows); err != nil || tag != want {
			t.Fatalf("%s: %q %v, want %s", tc.name, tag, err, want)
		}
		got := queryRows(t, s, `SELECT count(*), count(DISTINCT r) > count(*) * 0.99, bool_and(ts = now()),
			bool_and(c >= ts), count(DISTINCT k), min(k), count(DISTINCT v), min(v), count(DISTINCT a) FROM t`)
		if want := fmt.Sprintf("(%d,t,t,t,1,2.01,1,xy,%d)", tc.rows, tc.rows); got != want {
			t.Errorf("%s: %s, want %s", tc.name, got, want)
		}
		mustExec(t, s, "COMMIT")
		mustExec(t, s, "DROP TABLE t")
	}
}

// A default with side effects sees the rows in input order, one at a time,
// across batches (BatchSize 1000) and chunks; the row on which it fails
// names its line.
func TestCopyDefaultsOrdered(t *testing.T) {
	s, _ := copyEnv(t)
	mustExec(t, s, `CREATE TABLE t (a int, p text, n int DEFAULT set_config('cd.n',
		(coalesce(nullif(current_setting('cd.n', true), ''), '0')::int + 1)::text, false)::int)`)
	if tag, err := copyIn(s, "COPY t (a, p) FROM STDIN", padLines(1, 20_000)); err != nil || tag != "COPY 20000" {
		t.Fatalf("%q %v", tag, err)
	}
	if got := queryRows(t, s, "SELECT count(*), count(*) FILTER (WHERE n = a), max(n) FROM t"); got != "(20000,20000,20000)" {
		t.Errorf("counter: %s", got)
	}
	mustExec(t, s, "SET cd.n = '0'")
	mustExec(t, s, `CREATE TABLE u (a int, b int DEFAULT 10 / (2500 - set_config('cd.n',
		(current_setting('cd.n')::int + 1)::text, false)::int))`)
	_, err := copyIn(s, "COPY u (a) FROM STDIN (FORMAT csv, HEADER)", "a\n"+lines(1, 4000))
	wantCopyError(t, err, "22012", "division by zero", `COPY u, line 2501: "2500"`)
	_, err = copyIn(s, "COPY u (a) FROM STDIN (FORMAT binary)", "")
	wantCopyError(t, err, "22P04", "COPY file signature not recognized", "")
}

// Errors of defaults come in PostgreSQL's order: a planner error before
// any data, a row's bad field before its defaults, an earlier row's
// default before a later row's bad field, NOT NULL last; a default used by
// no row never fails.
func TestCopyDefaultErrors(t *testing.T) {
	s, _ := copyEnv(t)
	mustExec(t, s, "CREATE TABLE k (a int, b int DEFAULT 1/0)")
	feed := &copyFeed{in: strings.NewReader("1\n")}
	_, err := execAll(s, "COPY k (a) FROM STDIN", feed)
	wantCopyError(t, err, "22012", "division by zero", "")
	if tag, err := copyIn(s, "COPY k (a, b) FROM STDIN", "1\t2\n"); err != nil || tag != "COPY 1" {
		t.Errorf("every column listed: %q %v", tag, err)
	}

	mustExec(t, s, "CREATE TABLE e (a int, b int DEFAULT 10 / (random() * 0)::int)")
	if tag, err := copyIn(s, "COPY e (a) FROM STDIN", ""); err != nil || tag != "COPY 0" {
		t.Errorf("no rows: %q %v", tag, err)
	}
	_, err = copyIn(s, "COPY e (a) FROM STDIN", "x\n1\n")
	wantCopyError(t, err, "22P02", `invalid input syntax for type integer: "x"`, `COPY e, line 1, column a: "x"`)
	_, err = copyIn(s, "COPY e (a) FROM STDIN", "1\nx\n")
	wantCopyError(t, err, "22012", "division by zero", `COPY e, line 1: "1"`)
	_, err = copyIn(s, "COPY e (a) FROM STDIN (FORMAT csv)", lines(7, 3))
	wantCopyError(t, err, "22012", "division by zero", `COPY e, line 1: "7"`)

	mustExec(t, s, "CREATE TABLE g (a int, b text DEFAULT current_setting('cd.no_such'))")
	_, err = copyIn(s, "COPY g (a) FROM STDIN", "x\n")
	wantCopyError(t, err, "22P02", `invalid input syntax for type integer: "x"`, `COPY g, line 1, column a: "x"`)
	_, err = copyIn(s, "COPY g (a) FROM STDIN", "5\n")
	wantCopyError(t, err, "42704", `unrecognized configuration parameter "cd.no_such"`, `COPY g, line 1: "5"`)

	mustExec(t, s, "CREATE TABLE n (a int, b int NOT NULL DEFAULT NULL)")
	mustExec(t, s, "CREATE TABLE m (a int, b int NOT NULL DEFAULT CASE WHEN random() < 2 THEN NULL ELSE 1 END)")
	for _, tc := range []struct{ q, data, where string }{
		{"COPY n (a) FROM STDIN", "1\n", `COPY n, line 1: "1"`},
		{"COPY n (a) FROM STDIN (FORMAT csv, HEADER)", "a\n1\n", `COPY n, line 2: "1"`},
		{"COPY m (a) FROM STDIN", "1\n", `COPY m, line 1: "1"`},
		{"COPY m (a) FROM STDIN (FORMAT csv)", "1\n", `COPY m, line 1: "1"`},
	} {
		_, err := copyIn(s, tc.q, tc.data)
		wantCopyError(t, err, "23502", fmt.Sprintf(`null value in column "b" of relation "%s" violates not-null constraint`, tc.q[5:6]), tc.where)
		if d := pgerr.As(err).Detail; d != "Failing row contains (1, null)." {
			t.Errorf("%s: detail %q", tc.q, d)
		}
	}
	// Binary rows have no text to quote.
	mustExec(t, s, "CREATE TABLE src (a int)")
	mustExec(t, s, "INSERT INTO src VALUES (1)")
	bin := &copyFeed{}
	if _, err := execAll(s, "COPY src TO STDOUT (FORMAT binary)", bin); err != nil {
		t.Fatal(err)
	}
	for _, tbl := range []string{"n", "m"} {
		_, err = execAll(s, "COPY "+tbl+" (a) FROM STDIN (FORMAT binary)", &copyFeed{in: strings.NewReader(bin.out.String())})
		wantCopyError(t, err, "23502", `null value in column "b" of relation "`+tbl+`" violates not-null constraint`, "COPY "+tbl+", line 1")
	}
	if got := queryRows(t, s, "SELECT (SELECT count(*) FROM e) + (SELECT count(*) FROM g) + (SELECT count(*) FROM n) + (SELECT count(*) FROM m)"); got != "(0)" {
		t.Errorf("failed COPYs loaded rows: %s", got)
	}
}

// With many rows in a batch, a bad field late in the batch is reported
// after the earlier rows got their volatile defaults (they load fine), on
// its own line.
func TestCopyDefaultsBadFieldAfterBatch(t *testing.T) {
	s, _ := copyEnv(t)
	mustExec(t, s, "CREATE TABLE t (a int, r float8 DEFAULT random())")
	_, err := copyIn(s, "COPY t (a) FROM STDIN", lines(1, 1500)+"oops\n")
	wantCopyError(t, err, "22P02", `invalid input syntax for type integer: "oops"`, `COPY t, line 1501, column a: "oops"`)
	if tag, err := copyIn(s, "COPY t (a) FROM STDIN", lines(1, 1500)); err != nil || tag != "COPY 1500" {
		t.Fatalf("%q %v", tag, err)
	}
	if got := queryRows(t, s, "SELECT count(*), count(DISTINCT r) > 1400 FROM t"); got != "(1500,t)" {
		t.Errorf("%s", got)
	}
}
