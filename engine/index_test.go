package engine

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/joind/joind/operators/hashtable"
)

// TestIndexExplainGolden pins the plans of indexed predicates: which
// shapes read through an index (equality on a prefix, then a range;
// constants and parameters) and which stay sequential scans (unselective
// ranges, a cast column, no usable leading column).
// Regenerate with `go test ./engine -run IndexExplainGolden -update`.
func TestIndexExplainGolden(t *testing.T) {
	s := testSession(t, 2)
	run(t, s, `CREATE TABLE ix AS SELECT g AS a, g % 100 AS b, 'x' || g AS c FROM generate_series(1, 20000) g;
		CREATE INDEX ON ix (a);
		CREATE UNIQUE INDEX ix_c ON ix (c);
		CREATE INDEX ON ix (b, a);
		CREATE TABLE plain AS SELECT g AS a FROM generate_series(1, 100) g`)
	queries := []string{
		`SELECT * FROM ix WHERE a = 5`,
		`SELECT * FROM ix WHERE 5 = a`,
		`SELECT c FROM ix WHERE a > 19990`,
		`SELECT c FROM ix WHERE a BETWEEN 10 AND 20 AND c <> 'x11'`,
		`SELECT a FROM ix WHERE c = 'x77'`,
		`SELECT a FROM ix WHERE b = 3 AND a < 500`,
		`SELECT count(*) FROM ix WHERE a > 100`,
		`SELECT a FROM ix WHERE a::numeric = 5.5`,
		`SELECT a FROM ix WHERE b = 3`,
		`SELECT a FROM ix WHERE a = 5 OR a = 6`,
		`SELECT ix.c FROM plain JOIN ix ON ix.a = plain.a WHERE ix.a = 7`,
		`SELECT a FROM plain WHERE a = 5`,
	}
	var out strings.Builder
	for _, q := range queries {
		out.WriteString("-- " + q + "\n")
		for _, row := range run(t, s, "EXPLAIN "+q).rows {
			out.WriteString(row[0] + "\n")
		}
		out.WriteString("\n")
	}
	// The hash-table kernel depends on the CPU and build tags.
	got := strings.ReplaceAll(out.String(), "/"+hashtable.KernelName()+")", "/<kernel>)")
	golden := filepath.Join("testdata", "explain_index.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("EXPLAIN differs from %s (go test ./engine -run IndexExplainGolden -update):\n%s", golden, got)
	}
}

// TestIndexDifferential holds index scans to sequential scans: random
// tables (int, bigint, text, date and numeric columns with NULLs and
// duplicates, over several committed segments and a transaction's pending
// rows) with indexes, and a copy without; random predicates of the shapes
// an index serves must give the same rows on both. It fails if too few of
// the queries were planned as index scans to mean anything.
func TestIndexDifferential(t *testing.T) {
	rng := rand.New(rand.NewSource(13))
	s := testSession(t, 2)
	const rows = 3000
	run(t, s, `CREATE TABLE dx (i int, j bigint, s text, d date, n numeric)`)
	val := func(col string) string {
		if rng.Intn(12) == 0 {
			return "NULL"
		}
		switch col {
		case "i":
			return fmt.Sprint(rng.Intn(rows) - 10)
		case "j":
			return fmt.Sprint(rng.Int63n(200) - 100)
		case "s":
			return fmt.Sprintf("'s%d'", rng.Intn(400))
		case "d":
			return fmt.Sprintf("date '2024-01-01' + %d", rng.Intn(1000))
		}
		return fmt.Sprintf("%d.%02d", rng.Intn(300), rng.Intn(4)*25)
	}
	insert := func(n int) string {
		var vals []string
		for k := 0; k < n; k++ {
			vals = append(vals, fmt.Sprintf("(%s, %s, %s, %s, %s)", val("i"), val("j"), val("s"), val("d"), val("n")))
		}
		return "INSERT INTO dx VALUES " + strings.Join(vals, ", ")
	}
	for k := 0; k < 4; k++ {
		run(t, s, insert(rows/5))
	}
	run(t, s, `CREATE INDEX ON dx (i); CREATE INDEX ON dx (j); CREATE INDEX ON dx (s, i);
		CREATE INDEX ON dx USING hash (d); CREATE INDEX ON dx (n, j)`)
	run(t, s, "BEGIN")
	run(t, s, insert(rows/5))
	run(t, s, "CREATE TABLE dx_plain AS SELECT * FROM dx")

	// num and lit give a column's values as a number and as SQL, so that
	// ranges can be narrow (selective enough for an index) around values
	// the table holds.
	num := func(col string) int {
		switch col {
		case "i":
			return rng.Intn(rows) - 10
		case "j":
			return rng.Intn(200) - 100
		case "s":
			return rng.Intn(400)
		case "d":
			return rng.Intn(1000)
		}
		return rng.Intn(1200)
	}
	lit := func(col string, v int) string {
		switch col {
		case "s":
			return fmt.Sprintf("'s%d'", v)
		case "d":
			return fmt.Sprintf("date '2024-01-01' + %d", v)
		case "n":
			return fmt.Sprintf("%d.%02d", v/4, v%4*25)
		}
		return fmt.Sprint(v)
	}
	cols := []string{"i", "j", "s", "d", "n"}
	ops := []string{"<", "<=", ">", ">="}
	pred := func() string {
		var parts []string
		for k := 0; k == 0 || k == 1 && rng.Intn(3) == 0; k++ {
			c := cols[rng.Intn(len(cols))]
			v := num(c)
			switch rng.Intn(4) {
			case 0:
				parts = append(parts, fmt.Sprintf("%s = %s", c, lit(c, v)))
			case 1: // a narrow range, both ends given
				w := 1 + rng.Intn(40)
				parts = append(parts, fmt.Sprintf("%s %s %s AND %s %s %s", c, ops[2+rng.Intn(2)], lit(c, v), c, ops[rng.Intn(2)], lit(c, v+w)))
			case 2:
				parts = append(parts, fmt.Sprintf("%s BETWEEN %s AND %s", c, lit(c, v), lit(c, v+rng.Intn(20))))
			default: // one end, often near the top of the values
				if rng.Intn(2) == 0 {
					v = map[string]int{"i": rows - 10, "j": 99, "s": 399, "d": 999, "n": 1199}[c] - rng.Intn(5)
				}
				parts = append(parts, fmt.Sprintf("%s %s %s", c, ops[rng.Intn(len(ops))], lit(c, v)))
			}
		}
		return strings.Join(parts, " AND ")
	}
	rowsOf := func(q string) []string {
		var out []string
		for _, r := range run(t, s, q).rows {
			out = append(out, strings.Join(r, "|"))
		}
		sort.Strings(out)
		return out
	}
	indexed, nonEmpty := 0, 0
	const queries = 300
	for k := 0; k < queries; k++ {
		// The first third in the transaction, over its pending rows too
		// (whose bounds the estimates lack: equalities only use the
		// indexes then), the rest after it commits.
		if k == queries/3 {
			run(t, s, "COMMIT")
		}
		p := pred()
		q := "SELECT * FROM dx WHERE " + p
		for _, l := range run(t, s, "EXPLAIN "+q).rows {
			if strings.Contains(l[0], "Index Scan") {
				indexed++
				break
			}
		}
		got, want := rowsOf(q), rowsOf("SELECT * FROM dx_plain WHERE "+p)
		if len(want) > 0 {
			nonEmpty++
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Fatalf("WHERE %s: %d rows through the indexes, %d by a scan", p, len(got), len(want))
		}
	}
	if indexed < queries/4 || nonEmpty < queries/2 {
		t.Fatalf("only %d of %d queries used an index, %d had rows", indexed, queries, nonEmpty)
	}
	t.Logf("%d of %d queries used an index, %d had rows", indexed, queries, nonEmpty)
}

// BenchmarkPointLookup is a primary-key style point lookup on a 1M-row
// table, through a unique index and by a (parallel, segment-skipping) scan.
func BenchmarkPointLookup(b *testing.B) {
	s := testSession(b, 2)
	run(b, s, `CREATE TABLE pl AS SELECT g AS aid, g % 1000 AS bid, 0 AS abalance FROM generate_series(1, 1000000) g;
		CREATE TABLE pl_plain AS SELECT * FROM pl;
		CREATE UNIQUE INDEX ON pl (aid)`)
	for _, tbl := range []string{"pl", "pl_plain"} {
		name := map[string]string{"pl": "index", "pl_plain": "scan"}[tbl]
		b.Run(name, func(b *testing.B) {
			rng := rand.New(rand.NewSource(1))
			run(b, s, fmt.Sprintf("SELECT abalance FROM %s WHERE aid = 1", tbl)) // warm: the index is built here
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				w := run(b, s, fmt.Sprintf("SELECT abalance FROM %s WHERE aid = %d", tbl, 1+rng.Intn(1000000)))
				if len(w.rows) != 1 {
					b.Fatalf("%d rows", len(w.rows))
				}
			}
		})
	}
}
