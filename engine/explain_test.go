package engine

import (
	"context"
	"flag"
	"github.com/joind/joind/operators/hashtable"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/wire"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/")

// captureWriter is a wire.ResultWriter that keeps rows as text.
type captureWriter struct {
	cols    []wire.ColumnDesc
	rows    [][]string
	notices []string
}

func (w *captureWriter) Describe(cols []wire.ColumnDesc) error { w.cols = cols; return nil }
func (w *captureWriter) Notice(n *pgerr.Error) error {
	w.notices = append(w.notices, n.Message)
	return nil
}
func (w *captureWriter) Row(vals [][]byte) error {
	row := make([]string, len(vals))
	for i, v := range vals {
		if v == nil {
			row[i] = "NULL"
		} else {
			row[i] = string(v)
		}
	}
	w.rows = append(w.rows, row)
	return nil
}

// testSession opens a session on a fresh engine with the given partitions.
func testSession(t testing.TB, partitions int) *session {
	t.Helper()
	e, err := New(Options{Partitions: partitions})
	if err != nil {
		t.Fatal(err)
	}
	s, err := e.NewSession(context.Background(), map[string]string{"user": "test"})
	if err != nil {
		t.Fatal(err)
	}
	return s.(*session)
}

// run executes every statement of sql and returns the last one's output.
func run(t testing.TB, s *session, sql string) *captureWriter {
	t.Helper()
	sts, err := s.Parse(sql)
	if err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	var w *captureWriter
	for _, st := range sts {
		w = &captureWriter{}
		if _, err := s.Execute(context.Background(), st, w); err != nil {
			t.Fatalf("%s: %v", st.SQL(), err)
		}
	}
	return w
}

// TestExplainGolden pins the plans of the query shapes joind must plan as
// joins: join ordering and sides, every null-aware mode with its value and
// scope keys, and the exchanges and partition count of every node (the
// session has 2 partitions whatever the machine's cores). Regenerate with `go test ./engine -run ExplainGolden -update`.
func TestExplainGolden(t *testing.T) {
	s := testSession(t, 2)
	run(t, s, `CREATE TABLE probe AS SELECT g::bigint AS k FROM generate_series(0, 9999) g;
		CREATE TABLE build AS SELECT (g * 10)::bigint AS k, g % 100 AS g FROM generate_series(0, 999) g;
		CREATE TABLE dim AS SELECT g, 'n' || g AS name FROM generate_series(0, 99) g;
		CREATE TABLE t1 (x int, z int NOT NULL);
		CREATE TABLE t2 (y int, z int);
		CREATE TABLE nn (y int NOT NULL);
		INSERT INTO t1 SELECT g, g % 10 FROM generate_series(1, 100) g;
		INSERT INTO t2 SELECT 3 * g, g % 10 FROM generate_series(1, 200) g;
		INSERT INTO nn VALUES (1), (2)`)
	queries := []string{
		`SELECT count(*) FROM probe JOIN build ON probe.k = build.k`,
		`SELECT dim.name, count(*) FROM probe JOIN build ON probe.k = build.k JOIN dim ON build.g = dim.g GROUP BY dim.name ORDER BY 2 DESC, 1 LIMIT 3`,
		`SELECT z, x % 3, count(*), GROUPING(z, x % 3) FROM t1 GROUP BY ROLLUP (z, x % 3)`,
		`SELECT z, count(*) FROM t1 GROUP BY CUBE (z)`,
		`SELECT count(*) FROM probe WHERE k NOT IN (SELECT k FROM build)`,
		`SELECT count(*) FROM probe WHERE NOT EXISTS (SELECT 1 FROM build WHERE build.k = probe.k)`,
		`SELECT count(*) FROM t1 WHERE x NOT IN (SELECT y FROM t2 WHERE t2.z = t1.z)`,
		`SELECT count(*) FROM t1 WHERE x NOT IN (SELECT y FROM t2 WHERE t2.z > t1.z)`,
		`SELECT x, x NOT IN (SELECT y FROM t2) FROM t1`,
		`SELECT x FROM t1 WHERE x NOT IN (SELECT y FROM t2) OR z = 1`,
		`SELECT x FROM t1 WHERE (x, z) NOT IN (SELECT y, z FROM t2)`,
		`SELECT x FROM t1 WHERE 5 NOT IN (SELECT y FROM t2)`,
		`SELECT z FROM t1 WHERE z NOT IN (SELECT y FROM nn)`,
		`SELECT x FROM t1 WHERE x IN (SELECT y FROM t2 WHERE t2.z = t1.z)`,
		`SELECT a.x FROM t1 a LEFT JOIN t2 b ON a.x = b.y WHERE b.y IS NULL`,
		// Exchanges: Gather below LIMIT and DISTINCT, UNION as Distinct over
		// a Gather of UNION ALL, an Apply's per-row side gathered.
		`SELECT DISTINCT z FROM t1`,
		`SELECT x FROM t1 UNION SELECT y FROM t2`,
		`SELECT x FROM t1 UNION ALL SELECT y FROM t2 LIMIT 5`,
		`SELECT x FROM t1 INTERSECT SELECT y FROM t2`,
		`SELECT t1.x, s.y FROM t1, LATERAL (SELECT y FROM t2 WHERE t2.y > t1.x LIMIT 1) s`,
		`SELECT count(*) FROM t1 JOIN t2 ON t1.x < t2.y`,
		// Set-returning functions: a SELECT list's in ProjectSets (nested
		// calls one above the other), FROM's in a Function Scan.
		`SELECT x, generate_series(1, z), generate_series(1, generate_series(1, 2)) FROM t1`,
		`SELECT * FROM ROWS FROM (generate_series(1, 3), generate_series(1, 2)) WITH ORDINALITY AS r`,
		`SELECT * FROM generate_series(1, 3) g`,
		// WindowAgg: PARTITION BY repartitions its input on the keys; one
		// without sorts all partitions into one; windows of one PARTITION
		// BY / ORDER BY share a node.
		`SELECT x, rank() OVER (PARTITION BY z ORDER BY x), sum(x) OVER (PARTITION BY z ORDER BY x ROWS 2 PRECEDING) FROM t1`,
		`SELECT x, row_number() OVER (ORDER BY x), count(*) OVER (PARTITION BY z) FROM t1 ORDER BY 1`,
		// Windows whose orderings nest share the lower one's sort.
		`SELECT rank() OVER (PARTITION BY z ORDER BY x), row_number() OVER (PARTITION BY z ORDER BY x, z), count(*) OVER (PARTITION BY z) FROM t1`,
		// WITH RECURSIVE: both terms gathered below the Recursive Union,
		// the working table read in the recursive term; read twice, a CTE Scan.
		`WITH RECURSIVE r(n) AS (SELECT x FROM t1 WHERE x < 3 UNION SELECT y FROM r JOIN t2 ON t2.z = r.n) SELECT count(*) FROM r`,
		`WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 5) SELECT * FROM r a, r b`,
		// Data-modifying statements: the target's node over the plan of
		// the query producing the rows (EXPLAIN alone changes nothing).
		`UPDATE t1 SET x = x + 1 WHERE z = 1`,
		`DELETE FROM t2 u USING t1 WHERE u.y = t1.x RETURNING u.y`,
		`INSERT INTO t1 SELECT y, z FROM t2 WHERE z IS NOT NULL`,
		`INSERT INTO nn VALUES (3) ON CONFLICT DO NOTHING`,
		`MERGE INTO t1 USING t2 ON t1.x = t2.y WHEN MATCHED THEN DELETE WHEN NOT MATCHED AND t2.z IS NOT NULL THEN INSERT VALUES (t2.y, t2.z)`,
	}
	var out strings.Builder
	explain := func(q string) {
		out.WriteString("-- " + q + "\n")
		for _, row := range run(t, s, "EXPLAIN "+q).rows {
			out.WriteString(row[0] + "\n")
		}
		out.WriteString("\n")
	}
	for _, q := range queries {
		explain(q)
	}
	// A Partitioned join reads both inputs through a Repartition on its keys.
	run(t, s, "SET joind.join_mode = partitioned")
	out.WriteString("-- SET joind.join_mode = partitioned\n")
	explain(`SELECT count(*) FROM probe JOIN build ON probe.k = build.k`)
	explain(`SELECT probe.k FROM probe LEFT JOIN build ON probe.k = build.k WHERE build.g IS NULL ORDER BY 1 LIMIT 2`)
	run(t, s, "RESET joind.join_mode")
	// The hash-table kernel depends on the CPU and build tags (avx2,
	// portable); the golden file names it as <kernel> so it holds on every machine.
	got := strings.ReplaceAll(out.String(), "/"+hashtable.KernelName()+")", "/<kernel>)")
	golden := filepath.Join("testdata", "explain.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if string(want) != got {
		t.Errorf("EXPLAIN output differs from %s (rerun with -update if intended):\n%s", golden, got)
	}
}

// TestSubqueryExpressionsAcrossPartitions runs a subquery the optimizer
// keeps as an expression (a non-aggregate correlated scalar subquery) from
// several partitions at once: the shared subquery plan cache must be safe
// under -race, and the answers right.
func TestSubqueryExpressionsAcrossPartitions(t *testing.T) {
	s := testSession(t, 4)
	run(t, s, `CREATE TABLE o AS SELECT g % 100 + 1 AS id FROM generate_series(1, 20000) g;
		CREATE TABLE i AS SELECT g AS id, g * 2 AS v FROM generate_series(1, 100) g`)
	w := run(t, s, `SELECT count(*), sum((SELECT v FROM i WHERE i.id = o.id)) FROM o`)
	if got := w.rows[0]; got[0] != "20000" || got[1] != "2020000" {
		t.Fatalf("got %v, want [20000 2020000]", got)
	}
}

// TestNowIsTransactionStart: inside a BEGIN block every statement's now()
// is the block's start, as in PostgreSQL.
func TestNowIsTransactionStart(t *testing.T) {
	s := testSession(t, 1)
	run(t, s, "BEGIN")
	first := run(t, s, "SELECT now()::text").rows[0][0]
	time.Sleep(2 * time.Millisecond)
	second := run(t, s, "SELECT now()::text").rows[0][0]
	run(t, s, "COMMIT")
	if first != second {
		t.Fatalf("now() changed inside a transaction block: %s then %s", first, second)
	}
	time.Sleep(2 * time.Millisecond)
	if after := run(t, s, "SELECT now()::text").rows[0][0]; after == first {
		t.Fatalf("now() after COMMIT still %s", after)
	}
}
