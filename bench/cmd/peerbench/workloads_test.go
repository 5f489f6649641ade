package main

import (
	"context"
	"slices"
	"testing"
)

// The figures performance.md recorded for the full-size tables.
func TestExpectedFullScale(t *testing.T) {
	sz := sizesFor(1)
	if sz != (sizes{Probe: 10_000_000, Build: 1_000_000, T: 100_000, S: 10_000, Load: 10_000_000,
		GBuild: 2_000_000, GProbe: 10_000_000, Win: 10_000_000, GS: fullGS, Fn: fullFn}) {
		t.Fatalf("sizesFor(1) = %+v", sz)
	}
	want := map[string][]string{
		"join_count":       {"1000000"},
		"join_group_top3":  {"dim0|10000", "dim10|10000", "dim1|10000"}, // canonical (byte) order of the lines,
		"not_in":           {"9000000"},
		"not_exists":       {"9000000"},
		"corr_not_in_100k": {"99833"},
		"load_server_copy": {"10000000|4995000000"},
		"scan_full":        {"10000000|4995000000"},
		"scan_filter":      {"1000000|499500000"},
		// Half of gprobe matches: 5M rows, each gbuild row 2 or 3 times
		// (the first 1M gbuild rows, p cycling 0..999, three times).
		"keys_join_bigint": {"5000000|2497500000"},
		"keys_left_join":   {"10000000|5000000|2497500000"},
		"window_rank_1k":   {"10000000|49514950000"},
		"window_rank_1m":   {"10000000|55000000"},
	}
	for _, w := range workloads {
		exp, ok := want[w.Name]
		if !ok {
			continue
		}
		if got := w.Expected(sz); !slices.Equal(got, exp) {
			t.Errorf("%s: expected() = %v, want %v", w.Name, got, exp)
		}
	}
}

// correlatedNotIn against a literal evaluation of a tiny case:
// a = {(0,0),(1,1),(2,0),(3,1)}, b = {(0,0),(3,1),(6,0),(9,1)} with 2 scopes
// and nullZ = 7 outside them: x=0 matches scope 0, x=3 matches scope 1,
// 1 and 2 do not match -> 2.
func TestCorrelatedNotInSmall(t *testing.T) {
	if got := correlatedNotIn(4, 2); got != 2 {
		t.Fatalf("correlatedNotIn(4, 2) = %d, want 2", got)
	}
	// With 8 scopes each x has its own scope holding y = 3x (scope 7 also
	// the NULL): x=0 matches, x=1..6 do not, x=7 is NULL -> 6.
	if got := correlatedNotIn(8, 8); got != 6 {
		t.Fatalf("correlatedNotIn(8, 8) = %d, want 6", got)
	}
}

func TestScaledNeverEmpty(t *testing.T) {
	sz := sizesFor(1e-9)
	if sz.Probe != 1 || sz.Build != 1 || sz.T != 1 || sz.S != 1 {
		t.Fatalf("sizesFor(1e-9) = %+v, want all 1", sz)
	}
}

func TestSelectWorkloads(t *testing.T) {
	ws, err := selectWorkloads(" not_in,join_count ")
	if err != nil || len(ws) != 2 || ws[0].Name != "not_in" || ws[1].Name != "join_count" {
		t.Fatalf("selectWorkloads = %v, %v", ws, err)
	}
	if _, err := selectWorkloads("nope"); err == nil {
		t.Fatal("unknown workload accepted")
	}
	var names []string
	for _, tb := range neededTables(sizesFor(1), ws) {
		names = append(names, tb.Name)
	}
	if !slices.Equal(names, []string{"probe", "build"}) {
		t.Fatalf("neededTables = %v", names)
	}
}

// Every workload's answer from DuckDB on the generated tables must equal the
// answer computed in Go: this checks the table SQL and expected.go together.
func TestDuckDBMatchesExpected(t *testing.T) {
	ctx := context.Background()
	d, err := openDuck(ctx, 2)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	for _, scale := range []float64{0.001, 0.0123} {
		sz := sizesFor(scale)
		for _, tb := range tables(sz) {
			_ = d.Exec(ctx, "DROP TABLE IF EXISTS "+tb.Name)
			for _, s := range tb.seriesSQL() {
				if err := d.Exec(ctx, s); err != nil {
					t.Fatalf("%s: %v", s, err)
				}
			}
		}
		// The load group: server-side COPY of the CSV, then the scans.
		file, err := writeLoadCSV(t.TempDir(), sz.Load)
		if err != nil {
			t.Fatal(err)
		}
		b := &bench{o: &options{}, sz: sz, loadFile: file}
		for _, w := range workloads {
			if w.OnlyPeers != nil && !slices.Contains(w.OnlyPeers, "duckdb") || w.Expected == nil {
				continue // TPC-H has no Go-computed answer (see tpch_test.go)
			}
			if w.Name == "scan_filter" {
				w.SQL = scanFilterSQL(sz.Load)
			}
			var got []string
			if w.Run != nil {
				got, err = w.Run(ctx, b, d, func(f func() error) error { return f() })
			} else {
				got, err = d.Query(ctx, w.sqlFor("duckdb"))
			}
			if err != nil {
				t.Fatalf("%s: %v", w.Name, err)
			}
			if exp := w.Expected(sz); !slices.Equal(got, exp) {
				t.Errorf("scale %g %s: duckdb %v, expected %v", scale, w.Name, got, exp)
			}
		}
	}
}

func TestForEachValuesBatches(t *testing.T) {
	tb := tables(sizes{Probe: 1, Build: 1, T: 5, S: 1})[4] // t2: 5 rows + (NULL, 7)
	var got []string
	if err := tb.forEachValues(4, func(s string) error { got = append(got, s); return nil }); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"CREATE TABLE t2 (y bigint, z int)",
		"INSERT INTO t2 VALUES (0, 0), (3, 1), (6, 2), (9, 3)",
		"INSERT INTO t2 VALUES (12, 4), (NULL, 7)",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("forEachValues:\n%q\nwant\n%q", got, want)
	}
}

// The VALUES spelling of every table must hold exactly the rows of its
// generate_series spelling (the fallback for a peer without generate_series).
func TestValuesMatchSeries(t *testing.T) {
	ctx := context.Background()
	d, err := openDuck(ctx, 2)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	for _, tb := range tables(sizesFor(0.0037)) {
		for _, s := range tb.seriesSQL() {
			if err := d.Exec(ctx, s); err != nil {
				t.Fatalf("%s: %v", s, err)
			}
		}
		series, err := d.Query(ctx, "SELECT * FROM "+tb.Name)
		if err != nil {
			t.Fatal(err)
		}
		if err := d.Exec(ctx, "DROP TABLE "+tb.Name); err != nil {
			t.Fatal(err)
		}
		if err := tb.forEachValues(997, func(s string) error { return d.Exec(ctx, s) }); err != nil {
			t.Fatal(err)
		}
		values, err := d.Query(ctx, "SELECT * FROM "+tb.Name)
		if err != nil {
			t.Fatal(err)
		}
		if int64(len(series)) < tb.N || !slices.Equal(series, values) {
			t.Errorf("%s: series %d rows, values %d rows, equal=%v", tb.Name, len(series), len(values), slices.Equal(series, values))
		}
	}
}
