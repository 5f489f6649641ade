package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestMedian(t *testing.T) {
	for _, c := range []struct {
		in   []float64
		want float64
	}{
		{[]float64{5}, 5},
		{[]float64{3, 1, 2}, 2},
		{[]float64{4, 1, 3, 2}, 2.5},
	} {
		if got := median(c.in); got != c.want {
			t.Errorf("median(%v) = %v, want %v", c.in, got, c.want)
		}
	}
}

func TestCanonicalSortsRows(t *testing.T) {
	got := canonical([][]string{{"b", "2"}, {"a", "NULL"}})
	if strings.Join(got, ",") != "a|NULL,b|2" {
		t.Fatalf("canonical = %v", got)
	}
}

func TestFinishFlagsDisagreementAndRatios(t *testing.T) {
	w := workloadResult{
		Name:     "q",
		Expected: []string{"10"},
		Peers: []peerResult{
			{Peer: "joind", Answer: []string{"11"}, RunsMS: []float64{30}, MedianMS: 30},
			{Peer: "postgres", Answer: []string{"10"}, RunsMS: []float64{60}, MedianMS: 60},
			{Peer: "duckdb", Answer: []string{"10"}, RunsMS: []float64{10}, MedianMS: 10},
		},
	}
	w.finish()
	// joind vs expected, and vs PostgreSQL (the reference; DuckDB agrees with it).
	if len(w.Mismatch) != 2 || !strings.Contains(w.Mismatch[1], "postgres and joind disagree") {
		t.Fatalf("mismatches = %q", w.Mismatch)
	}
	if w.Ratios["joind/duckdb"] != 3 || w.Ratios["joind/postgres"] != 0.5 {
		t.Fatalf("ratios = %v", w.Ratios)
	}
	var buf bytes.Buffer
	r := &report{Workloads: []workloadResult{w}, Mismatches: 1, Runs: 1}
	r.writeText(&buf)
	out := buf.String()
	for _, s := range []string{"joind/duckdb = 3.00x", "joind/postgres = 0.50x", "!!! ANSWER MISMATCH", "DISAGREEING"} {
		if !strings.Contains(out, s) {
			t.Errorf("report lacks %q:\n%s", s, out)
		}
	}
}

func TestFmtRatio(t *testing.T) {
	if got := fmtRatio(0.0016); got != "0.0016" {
		t.Errorf("fmtRatio(0.0016) = %s", got)
	}
	if got := fmtRatio(2.5); got != "2.50" {
		t.Errorf("fmtRatio(2.5) = %s", got)
	}
}

func TestFinishIgnoresErrorsButNoRatio(t *testing.T) {
	w := workloadResult{
		Expected: []string{"10"},
		Peers: []peerResult{
			{Peer: "joind", Error: "ERROR: not supported"},
			{Peer: "duckdb", Answer: []string{"10"}, RunsMS: []float64{10}, MedianMS: 10},
		},
	}
	w.finish()
	if len(w.Mismatch) != 0 || len(w.Ratios) != 0 {
		t.Fatalf("mismatch %q ratios %v", w.Mismatch, w.Ratios)
	}
}
