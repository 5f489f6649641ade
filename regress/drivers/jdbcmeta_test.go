package drivers

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/joind/joind/regress/joindtest"
	"github.com/joind/joind/regress/oracle"
)

// TestPgJDBCMetaData runs testdata/JdbcMetaCheck.java (pgjdbc's
// DatabaseMetaData methods and ResultSetMetaData of a table, a view, a
// LEFT JOIN, expressions and an aggregate) on PostgreSQL 15 and on joind in
// the same run and compares every method's answer column by column. The
// test log lists each method with its row counts and difference count.
// A difference must be listed in testdata/jdbcmeta.gaps (method, column
// or "rows", count, and why); the test fails on any other difference and
// on a listed one that is gone or changed, so the list stays true.
func TestPgJDBCMetaData(t *testing.T) {
	javac := need(t, "javac (default-jdk-headless)", "javac")
	java := need(t, "java", "java")
	jar := need(t, "pgjdbc (libpostgresql-jdbc-java)", "/usr/share/java/postgresql.jar")
	classes := t.TempDir()
	run(t, nil, "", javac, "-d", classes, "-cp", jar, filepath.Join("testdata", "JdbcMetaCheck.java"))
	const db = "drv_jdbcmeta"
	pg := oracle.Start(t)
	pg.CreateDatabase(t, db)
	j := joindtest.StartJoind(t)
	cp := classes + string(os.PathListSeparator) + jar
	url := func(port int) string { return "jdbc:postgresql://127.0.0.1:" + itoa(port) + "/" + db }
	want := parseMeta(t, run(t, nil, "", java, "-cp", cp, "JdbcMetaCheck", url(pg.Port())))
	got := parseMeta(t, run(t, nil, "", java, "-cp", cp, "JdbcMetaCheck", url(j.Port())))
	if len(want) < 60 || want[0].method != "getTables(public, jm%)" || len(want[0].rows) != 11 {
		t.Fatalf("PostgreSQL's answers are not the expected replay (%d methods)", len(want))
	}
	gaps := readGaps(t, filepath.Join("testdata", "jdbcmeta.gaps"))
	if len(got) != len(want) {
		t.Fatalf("joind answered %d calls, PostgreSQL %d", len(got), len(want))
	}
	seen := map[string]bool{}
	var log strings.Builder
	fmt.Fprintf(&log, "%-45s %8s %8s %6s\n", "method", "pg rows", "joind", "diffs")
	for i, w := range want {
		g := got[i]
		if g.method != w.method {
			t.Fatalf("call %d: joind ran %q, PostgreSQL %q", i, g.method, w.method)
		}
		diffs := compareMeta(w, g)
		n := 0
		for _, d := range diffs {
			n += d.count
		}
		fmt.Fprintf(&log, "%-45s %8d %8d %6d\n", w.method, len(w.rows), len(g.rows), n)
		for _, d := range diffs {
			key := w.method + "\t" + d.column
			seen[key] = true
			switch gap, ok := gaps[key]; {
			case !ok:
				t.Errorf("%s: %s differs (%d) and is not a known gap:\n%s", w.method, d.column, d.count, d.example)
			case gap.count != d.count:
				t.Errorf("%s: %s differs %d times, jdbcmeta.gaps says %d (%s):\n%s", w.method, d.column, d.count, gap.count, gap.why, d.example)
			}
		}
	}
	for key, gap := range gaps {
		if !seen[key] {
			t.Errorf("%s (%s) now answers as PostgreSQL does: drop it from testdata/jdbcmeta.gaps and docs/clients/jdbc.md", strings.ReplaceAll(key, "\t", " "), gap.why)
		}
	}
	t.Logf("pgjdbc metadata replay, joind vs PostgreSQL 15:\n%s", log.String())
}

// metaCall is one call's answer: its columns and rows, or its error.
type metaCall struct {
	method string
	err    string // SQLSTATE, if the call failed
	errMsg string
	cols   []string
	rows   [][]string
}

func parseMeta(t *testing.T, out string) []*metaCall {
	t.Helper()
	var calls []*metaCall
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		f := strings.Split(sc.Text(), "\t")
		if f[0] == "CALL" {
			calls = append(calls, &metaCall{method: f[1]})
			continue
		}
		if len(calls) == 0 {
			t.Fatalf("JdbcMetaCheck printed %q before any call:\n%s", sc.Text(), out)
		}
		c := calls[len(calls)-1]
		switch f[0] {
		case "COLS":
			c.cols = f[1:]
		case "ROW":
			c.rows = append(c.rows, f[1:])
		case "ERR":
			c.err, c.errMsg = f[1], strings.Join(f[2:], " ")
		default:
			t.Fatalf("JdbcMetaCheck printed %q:\n%s", sc.Text(), out)
		}
	}
	return calls
}

// metaDiff is one kind of difference of a call: a column's values,
// "rows" (rows one side has and the other lacks), "columns" or "error".
type metaDiff struct {
	column  string
	count   int
	example string
}

// compareMeta compares joind's answer g with PostgreSQL's w. Equal row
// counts compare cell by cell, row by row; otherwise the rows compare as
// multisets and each row only one side has counts once under "rows".
func compareMeta(w, g *metaCall) []metaDiff {
	switch {
	case w.err != "" || g.err != "":
		if w.err == g.err {
			return nil
		}
		return []metaDiff{{column: "error " + g.err, count: 1,
			example: fmt.Sprintf(" joind:      %s %s\n PostgreSQL: %s %s", g.err, g.errMsg, w.err, w.errMsg)}}
	case strings.Join(w.cols, ",") != strings.Join(g.cols, ","):
		return []metaDiff{{column: "columns", count: 1,
			example: fmt.Sprintf(" joind:      %v\n PostgreSQL: %v", g.cols, w.cols)}}
	}
	if len(w.rows) != len(g.rows) {
		count := map[string]int{}
		for _, r := range w.rows {
			count[strings.Join(r, "|")]++
		}
		for _, r := range g.rows {
			count[strings.Join(r, "|")]--
		}
		var only []string
		n := 0
		for r, k := range count {
			if k != 0 {
				if k < 0 {
					only = append(only, "joind only: "+r)
					k = -k
				} else {
					only = append(only, "PostgreSQL only: "+r)
				}
				n += k
			}
		}
		sort.Strings(only)
		if len(only) > 6 {
			only = append(only[:6], "...")
		}
		return []metaDiff{{column: "rows", count: n, example: " " + strings.Join(only, "\n ")}}
	}
	var out []metaDiff
	at := map[string]int{}
	for i, wr := range w.rows {
		for k, wv := range wr {
			if k < len(g.rows[i]) && g.rows[i][k] == wv {
				continue
			}
			col := w.cols[k]
			gv := "(missing)"
			if k < len(g.rows[i]) {
				gv = g.rows[i][k]
			}
			if x, ok := at[col]; ok {
				out[x].count++
				continue
			}
			at[col] = len(out)
			out = append(out, metaDiff{column: col, count: 1,
				example: fmt.Sprintf(" row %d: joind %q, PostgreSQL %q", i+1, gv, wv)})
		}
	}
	return out
}

type metaGap struct {
	count int
	why   string
}

// readGaps reads testdata/jdbcmeta.gaps: "method<TAB>column<TAB>count<TAB>why"
// lines; # starts a comment line.
func readGaps(t *testing.T, path string) map[string]metaGap {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]metaGap{}
	for i, line := range strings.Split(string(b), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		var n int
		if len(f) != 4 {
			t.Fatalf("%s:%d: want method, column, count and why separated by tabs: %q", path, i+1, line)
		}
		if _, err := fmt.Sscan(f[2], &n); err != nil {
			t.Fatalf("%s:%d: count %q: %v", path, i+1, f[2], err)
		}
		out[f[0]+"\t"+f[1]] = metaGap{count: n, why: f[3]}
	}
	return out
}
