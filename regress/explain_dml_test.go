package regress

import (
	"context"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
)

// TestExplainDMLOverWire: EXPLAIN DELETE plans the statement and changes
// nothing; EXPLAIN ANALYZE DELETE deletes, as PostgreSQL's does, and inside
// a transaction block the deletion rolls back with it. The plan's top node
// is PostgreSQL's "Delete on table".
func TestExplainDMLOverWire(t *testing.T) {
	ep := startTarget(t, regressDB)
	c := connect(t, ep)
	mustExec(t, c, "DROP TABLE IF EXISTS ed_t")
	mustExec(t, c, "CREATE TABLE ed_t (a int, b text)")
	mustExec(t, c, "INSERT INTO ed_t SELECT g, 'r' || g FROM generate_series(1, 10) g")
	t.Cleanup(func() { c.Exec(context.Background(), "DROP TABLE IF EXISTS ed_t") })

	count := func() int64 {
		t.Helper()
		var n int64
		if err := c.QueryRow(ctxT(t), "SELECT count(*) FROM ed_t").Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	// PostgreSQL's and joind's node lines differ after the title.
	explain := func(q string) []string {
		t.Helper()
		rows, err := c.Query(ctxT(t), q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		lines, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		if len(lines) < 2 || !strings.HasPrefix(lines[0], "Delete on ed_t") || !strings.HasPrefix(strings.TrimSpace(lines[1]), "->  ") {
			t.Fatalf("%s: plan %q, want a top node \"Delete on ed_t\" over the scan", q, lines)
		}
		return lines
	}

	explain("EXPLAIN (COSTS OFF) DELETE FROM ed_t WHERE a <= 3")
	if n := count(); n != 10 {
		t.Fatalf("after EXPLAIN DELETE: %d rows, want 10 (nothing deleted)", n)
	}
	// The top node's actual rows are those RETURNING returned.
	if top := explain("EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) DELETE FROM ed_t WHERE a <= 3 RETURNING a")[0]; !strings.Contains(top, "actual rows=3 ") {
		t.Fatalf("EXPLAIN ANALYZE DELETE ... RETURNING: top node %q, want actual rows=3", top)
	}
	if n := count(); n != 7 {
		t.Fatalf("after EXPLAIN ANALYZE DELETE: %d rows, want 7", n)
	}
	mustExec(t, c, "BEGIN")
	explain("EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) DELETE FROM ed_t")
	if n := count(); n != 0 {
		t.Fatalf("inside the block after EXPLAIN ANALYZE DELETE: %d rows, want 0", n)
	}
	mustExec(t, c, "ROLLBACK")
	if n := count(); n != 7 {
		t.Fatalf("after ROLLBACK: %d rows, want 7", n)
	}
}
