package main

import (
	"bytes"
	"context"
	"math/big"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/duckdb/duckdb-go/v2"
)

func TestSplitSQL(t *testing.T) {
	script := `-- Q15-like: a view, a query, a drop
create view v (a) as select 1; -- trailing comment; with a semicolon
select a, 'x;--y' from v
where a = 1;

drop view v;
`
	got := splitSQL(script)
	want := []string{"create view v (a) as select 1", "select a, 'x;--y' from v\nwhere a = 1", "drop view v"}
	if !slices.Equal(got, want) {
		t.Fatalf("splitSQL = %q, want %q", got, want)
	}
	var rows []bool
	for _, s := range got {
		rows = append(rows, returnsRows(s))
	}
	if !slices.Equal(rows, []bool{false, true, false}) {
		t.Fatalf("returnsRows = %v", rows)
	}
}

func TestTolerantDiff(t *testing.T) {
	pg := []string{"A|F|37734107.00|25.5220058532573370|0.05000000000000000000|1478493", "N|O|1.00|2.0000000000000000|0.0400|7"}
	duck := []string{"A|F|37734107.00|25.522005853257337|0.05|1478493", "N|O|1.00|2|0.04|7"}
	if d := tolerantDiff(pg, duck); d != "" {
		t.Fatalf("equal answers differ: %s", d)
	}
	// char(n) padding is PostgreSQL's spelling, not a difference.
	if d := tolerantDiff([]string{"Supplier#1   |x"}, []string{"Supplier#1|x"}); d != "" {
		t.Fatalf("padding: %s", d)
	}
	for _, c := range [][2][]string{
		{{"1|25.5220058"}, {"1|25.5220059"}}, // 4e-9 relative: beyond 1e-9
		{{"1|a"}, {"1|b"}},
		{{"1|a"}, {"1|a", "2|b"}},
		{{"1|a"}, {"1|a|x"}},
		{{"nan|1"}, {"NaN|1"}}, // text, not numbers
	} {
		if d := tolerantDiff(c[0], c[1]); d == "" {
			t.Errorf("tolerantDiff(%q, %q) found no difference", c[0], c[1])
		}
	}
	// Rows sort by value, so a different spelling does not reorder them.
	if d := tolerantDiff([]string{"10.0|b", "9.50|a"}, []string{"10|b", "9.5|a"}); d != "" {
		t.Fatalf("ordering: %s", d)
	}
}

func TestDecimalText(t *testing.T) {
	for _, c := range []struct {
		v     int64
		scale uint8
		want  string
	}{{1250, 2, "12.50"}, {-5, 2, "-0.05"}, {0, 2, "0.00"}, {7, 0, "7"}, {123, 4, "0.0123"}} {
		if got := decimalText(duckdb.Decimal{Width: 18, Scale: c.scale, Value: big.NewInt(c.v)}); got != c.want {
			t.Errorf("decimalText(%d, scale %d) = %q, want %q", c.v, c.scale, got, c.want)
		}
	}
}

// Exact comparison between joind and PostgreSQL, tolerant only with DuckDB.
func TestFinishTolerantOnlyForDuckDB(t *testing.T) {
	w := workloadResult{Name: "tpch_q01", Group: "tpch", Tolerant: true, TimeoutMS: 120000,
		Peers: []peerResult{
			{Peer: "joind", Answer: []string{"A|0.05"}, RunsMS: []float64{30}, MedianMS: 30},
			{Peer: "postgres", Answer: []string{"A|0.0500"}, RunsMS: []float64{60}, MedianMS: 60},
			{Peer: "duckdb", Answer: []string{"A|0.05"}, RunsMS: []float64{10}, MedianMS: 10},
		}}
	w.finish()
	if len(w.Mismatch) != 1 || !strings.Contains(w.Mismatch[0], "postgres and joind disagree") || w.JoindEqualsPG != "NO" {
		t.Fatalf("mismatch = %q, joind = PG %q", w.Mismatch, w.JoindEqualsPG)
	}
	w.Peers[0].Answer = []string{"A|0.0500"}
	w.finish()
	if len(w.Mismatch) != 0 || w.JoindEqualsPG != "yes" {
		t.Fatalf("mismatch = %q, joind = PG %q", w.Mismatch, w.JoindEqualsPG)
	}
}

func TestTPCHTable(t *testing.T) {
	r := &report{Runs: 3, TPCH: &tpchInfo{SF: 1, Dir: "/d", Queries: "/q", TimeoutMS: 120000}}
	for _, c := range []struct {
		name              string
		pg, duck, joind   float64
		joindOut, joindTO bool
	}{{"tpch_q01", 100, 50, 200, false, false}, {"tpch_q02", 10, 5, 0, false, true}} {
		w := workloadResult{Name: c.name, Group: "tpch", Tolerant: true, TimeoutMS: 120000, Peers: []peerResult{
			{Peer: "joind", Answer: []string{"1"}, RunsMS: []float64{c.joind}, MedianMS: c.joind},
			{Peer: "postgres", Answer: []string{"1"}, RunsMS: []float64{c.pg}, MedianMS: c.pg},
			{Peer: "duckdb", Answer: []string{"1.0"}, RunsMS: []float64{c.duck}, MedianMS: c.duck},
		}}
		if c.joindTO {
			w.Peers[0] = peerResult{Peer: "joind", Error: "timeout after 2m0s", TimedOut: true}
		}
		w.finish()
		r.Workloads = append(r.Workloads, w)
	}
	var buf bytes.Buffer
	r.writeTPCHTable(&buf)
	out := buf.String()
	for _, want := range []string{"q01", "2.00x", "4.00x", ">120 s", ">120200", "total of the 1 all three ran"} {
		if !strings.Contains(out, want) {
			t.Errorf("TPC-H table lacks %q:\n%s", want, out)
		}
	}
}

// readTPCH on the repository's query files, when the module has them: every
// file has exactly one statement returning rows.
func TestReadTPCHQueries(t *testing.T) {
	src := filepath.Join("..", "..", "..")
	if v := os.Getenv("JOIND_SRC"); v != "" {
		src = v
	}
	o := &options{tpchQueryDir: filepath.Join(src, "tpch", "queries"), tpchSchema: filepath.Join(src, "tpch", "schema.sql")}
	if _, err := os.Stat(o.tpchSchema); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("no TPC-H files in %s: %v", src, err)
		}
		t.Skipf("no TPC-H files in %s yet: %v", src, err)
	}
	st, err := readTPCH(o, "/nowhere")
	if err != nil {
		t.Fatal(err)
	}
	if len(st.queries) != tpchQueries || len(st.schema) != len(tpchTables) {
		t.Fatalf("%d queries, %d schema statements", len(st.queries), len(st.schema))
	}
	// The schema runs on DuckDB as it does on PostgreSQL and joind.
	d, err := openDuck(context.Background(), 1)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	for _, s := range st.schema {
		if err := d.Exec(context.Background(), s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
}
