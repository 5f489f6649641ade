package main

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Iceberg between joind and DuckDB: a table joind creates and appends to
// (CREATE FOREIGN TABLE ... SERVER <iceberg> OPTIONS (location 'new
// dir'), INSERT) leaves Parquet data files that DuckDB reads with joind's
// answers over the table. It builds and starts joind from JOIND_SRC
// (default: this repository).
func TestIcebergDataFilesWithDuckDB(t *testing.T) {
	p := startDuckPair(t)
	tmp, j, d, exec, query := p.tmp, p.j, p.d, p.exec, p.query
	loc := filepath.Join(tmp, "ice")
	exec(j, "CREATE EXTENSION iceberg")
	exec(j, "CREATE SERVER lake FOREIGN DATA WRAPPER iceberg")
	exec(j, "CREATE FOREIGN TABLE ice (id bigint, k text, d date, amt numeric(10,2), ok boolean, ts timestamp) SERVER lake OPTIONS (location '"+loc+"')")
	exec(j, "INSERT INTO ice SELECT g, 'k' || (g % 17), date '2020-01-01' + (g % 400), (g % 1000) / 4.0, g % 3 = 0, timestamp '2020-01-01' + g * interval '1 minute' FROM generate_series(1, 30000) g")
	exec(j, "INSERT INTO ice (id, k) SELECT g, NULL FROM generate_series(30001, 30500) g")
	exec(j, "INSERT INTO ice VALUES (-1, 'last', date '1999-12-31', -0.25, NULL, timestamp '1999-12-31 23:59:59.5')")
	files, err := filepath.Glob(filepath.Join(loc, "data", "*.parquet"))
	if err != nil || len(files) < 3 {
		t.Fatalf("joind's data files: %v %v", files, err)
	}
	duck := "read_parquet('" + filepath.Join(loc, "data", "*.parquet") + "')"
	for _, q := range []string{
		"SELECT count(*), count(k), sum(id), min(k), max(k), min(d), max(d), sum(amt), count(*) FILTER (WHERE ok) FROM {T}",
		"SELECT k, count(*), sum(id), sum(amt) FROM {T} WHERE d >= DATE '2020-06-01' GROUP BY k ORDER BY k",
		"SELECT id, k, d, amt, ok, ts FROM {T} WHERE id < 3 OR id = 30000 ORDER BY id",
		"SELECT count(*) FROM {T} WHERE k IS NULL",
	} {
		ice := query(j, strings.ReplaceAll(q, "{T}", "ice"))
		if g := query(d, strings.ReplaceAll(q, "{T}", duck)); !slices.Equal(g, ice) {
			t.Errorf("%s:\njoind  %q\nDuckDB %q", q, ice, g)
		}
	}
}
