package regress

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/joind/joind/regress/joindtest"
	"github.com/joind/joind/regress/oracle"
)

// TestMemoryLimitStopsOnlyTheQuery: a join whose build side exceeds the
// per-query memory limit spills (a grace hash join) and answers, an
// uncorrelated NOT IN too; a null-aware mark join (NOT IN under OR), which
// cannot spill, fails with 53200, and the same connection and others keep
// working.
func TestMemoryLimitStopsOnlyTheQuery(t *testing.T) {
	j := joindtest.StartJoind(t, "--memory-limit", "1MiB", "--partitions", "2")
	ep := endpoint{name: "joind", dsn: j.DSN()}
	c := connect(t, ep)
	other := connect(t, ep)
	mustExec(t, c, "CREATE TABLE big AS SELECT g::bigint AS k FROM generate_series(1, 300000) g")
	mustExec(t, c, "CREATE TABLE small AS SELECT g::bigint AS k FROM generate_series(1, 10) g")
	var n int64
	if err := c.QueryRow(ctxT(t), "SELECT count(*) FROM big a JOIN big b ON a.k = b.k").Scan(&n); err != nil || n != 300000 {
		t.Fatalf("join over the memory limit (spilled): n=%d err=%v", n, err)
	}
	if err := c.QueryRow(ctxT(t), "SELECT count(*) FROM small WHERE k NOT IN (SELECT k FROM big)").Scan(&n); err != nil || n != 0 {
		t.Fatalf("NOT IN over the memory limit (spilled): n=%d err=%v", n, err)
	}
	for i := 0; i < 3; i++ {
		_, err := c.Exec(ctxT(t), "SELECT count(*) FROM big WHERE k NOT IN (SELECT k FROM small) OR k = 0")
		var pe *pgconn.PgError
		if !errors.As(err, &pe) || pe.Code != "53200" {
			t.Fatalf("null-aware join over the memory limit: want SQLSTATE 53200, got %v", err)
		}
		if !strings.HasPrefix(pe.Detail, "Failed on request of size ") || !strings.Contains(pe.Hint, "of 1048576 bytes") {
			t.Errorf("53200: detail %q should be PostgreSQL's, the hint %q should name the limit", pe.Detail, pe.Hint)
		}
	}
	if err := c.QueryRow(ctxT(t), "SELECT count(*) FROM big JOIN small ON big.k = small.k").Scan(&n); err != nil || n != 10 {
		t.Fatalf("a join within the limit on the same connection: n=%d err=%v", n, err)
	}
	if err := other.QueryRow(ctxT(t), "SELECT count(*) FROM big").Scan(&n); err != nil || n != 300000 {
		t.Fatalf("another connection after the failure: n=%d err=%v", n, err)
	}
}

// TestExplainAnalyzeReportsActuals: EXPLAIN ANALYZE runs the query and adds
// actual rows and time to each operator, and shows the join's index.
func TestExplainAnalyzeReportsActuals(t *testing.T) {
	j := joindtest.StartJoind(t)
	c := connect(t, endpoint{name: "joind", dsn: j.DSN()})
	mustExec(t, c, "CREATE TABLE ea AS SELECT g::bigint AS k FROM generate_series(1, 1000) g")
	rows, err := c.Query(ctxT(t), "EXPLAIN ANALYZE SELECT count(*) FROM ea a JOIN ea b ON a.k = b.k WHERE a.k > 500")
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for rows.Next() {
		var l string
		if err := rows.Scan(&l); err != nil {
			t.Fatal(err)
		}
		lines = append(lines, l)
	}
	if rows.Err() != nil {
		t.Fatal(rows.Err())
	}
	plan := strings.Join(lines, "\n")
	for _, want := range []string{"Hash Join Inner", "actual rows=500 ", "actual rows=1000 ", "index=", "Build Side:"} {
		if !strings.Contains(plan, want) {
			t.Errorf("EXPLAIN ANALYZE output lacks %q:\n%s", want, plan)
		}
	}
}

// TestHashKernelSetting: --hash-kernel portable forces the pure-Go Swiss
// table kernel, and EXPLAIN shows which kernel a join's table uses.
func TestHashKernelSetting(t *testing.T) {
	for _, kernel := range []string{"portable", "auto"} {
		j := joindtest.StartJoind(t, "--hash-kernel", kernel)
		c := connect(t, endpoint{name: "joind", dsn: j.DSN()})
		// Keys spread far apart, so the join uses the Swiss table rather
		// than a dense array index.
		mustExec(t, c, "CREATE TABLE hk AS SELECT (g * 1000003)::bigint AS k FROM generate_series(1, 2000) g")
		var plan []string
		rows, err := c.Query(ctxT(t), "EXPLAIN ANALYZE SELECT count(*) FROM hk a JOIN hk b ON a.k = b.k")
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var l string
			rows.Scan(&l)
			plan = append(plan, l)
		}
		text := strings.Join(plan, "\n")
		if kernel == "portable" && !strings.Contains(text, "swiss-int64/portable") {
			t.Errorf("--hash-kernel portable: EXPLAIN should show the portable Swiss kernel:\n%s", text)
		}
		if kernel == "auto" && !strings.Contains(text, "swiss-int64/") {
			t.Errorf("--hash-kernel auto: EXPLAIN should show a Swiss kernel:\n%s", text)
		}
		if !strings.Contains(j.Log(), "kernel=") {
			t.Errorf("the start-up log should name the kernel:\n%s", j.Log())
		}
	}
}

// TestMultiStatementQueryIsOneTransaction: the statements of one simple
// Query message share an implicit transaction, exactly as in PostgreSQL: a
// failure undoes the earlier ones, COMMIT/ROLLBACK inside the string end it
// early, BEGIN turns it into an explicit block. Run on joind and on the
// PostgreSQL oracle; the table contents after each step must agree.
func TestMultiStatementQueryIsOneTransaction(t *testing.T) {
	pg := oracle.Start(t)
	pg.CreateDatabase(t, "multistmt")
	j := joindtest.StartJoind(t)
	steps := []string{
		"insert into m values (1); select 1/0",
		"insert into m values (2); commit; select 1/0",
		"insert into m values (3); begin; insert into m values (4); select 1/0",
		"begin; insert into m values (5); commit; insert into m values (6); select 1/0",
		"insert into m values (7); rollback; insert into m values (8)",
		"insert into m values (9); insert into m values (10)",
		"create table m2 (a int); insert into m2 values (1); select 1/0",
	}
	contents := func(ep endpoint) []string {
		var out []string
		for _, step := range steps {
			c := connect(t, ep) // a fresh session per step, as psql -c
			_, err := c.Exec(ctxT(t), step)
			c.Close(ctxT(t)) // an open block ends with the session
			c = connect(t, ep)
			var rows []string
			r, qerr := c.Query(ctxT(t), "select a from m order by a")
			if qerr != nil {
				t.Fatalf("%s: %v", ep.name, qerr)
			}
			for r.Next() {
				var a int32
				if err := r.Scan(&a); err != nil {
					t.Fatal(err)
				}
				rows = append(rows, fmt.Sprint(a))
			}
			r.Close()
			_, m2err := c.Exec(ctxT(t), "select 1 from m2")
			out = append(out, fmt.Sprintf("%s => err=%v rows=%v m2=%v", step, err != nil, rows, m2err == nil))
		}
		return out
	}
	pgc := connect(t, endpoint{name: "postgres", dsn: pg.DSNFor("multistmt")})
	mustExec(t, pgc, "create table m (a int)")
	jc := connect(t, endpoint{name: "joind", dsn: j.DSN()})
	mustExec(t, jc, "create table m (a int)")
	want := contents(endpoint{name: "postgres", dsn: pg.DSNFor("multistmt")})
	got := contents(endpoint{name: "joind", dsn: j.DSN()})
	for i := range want {
		if want[i] != got[i] {
			t.Errorf("step %d:\n postgres: %s\n joind:    %s", i, want[i], got[i])
		}
	}
}
