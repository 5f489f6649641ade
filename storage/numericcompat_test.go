package storage

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/joind/joind/types"
)

// testdata/numeric-format1 is a data directory written by joind at commit
// a6c0f37 (manifest format 1: numeric columns as text), table nums(id int,
// a numeric(15,2), b numeric, c numeric(30,5), d numeric(5,0), e
// numeric(50,10)) with NaN, ±Infinity, NULLs and wide values;
// numeric-format1.expected is the same rows as PostgreSQL 15 prints them
// (psql -At). This joind must read it, append to it, and still read both
// kinds of segments after a reopen.
func TestOpensFormat1NumericText(t *testing.T) {
	dir := copyTestdata(t, "numeric-format1")
	want, err := os.ReadFile(filepath.Join("testdata", "numeric-format1.expected"))
	if err != nil {
		t.Fatal(err)
	}
	wantLines := strings.Split(strings.TrimSpace(string(want)), "\n")

	db := open(t, dir)
	tb, ok := db.Lookup("nums")
	if !ok {
		t.Fatal("table nums missing")
	}
	cols := tb.Columns()
	if got := tableText(t, tb.Snapshot(), cols); strings.Join(got, "\n") != strings.Join(wantLines, "\n") {
		t.Fatalf("format-1 rows:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(wantLines, "\n"))
	}
	// Statistics of the old segments still decode (numeric bounds are text).
	segs := tb.(Segmented).Segments()
	if len(segs) == 0 || !segs[0].Columns[1].HasMinMax || types.NumericString(segs[0].Columns[1].Min.Num) != "-9999999999999.99" {
		t.Fatalf("numeric(15,2) bounds of the first segment: %+v", segs[0].Columns[1])
	}
	// Append a row in the new forms, reopen: both kinds of segments read.
	row := []types.Value{types.IntValue(41)}
	for _, s := range []string{"-0.25", "12.5", "1.00001", "3", "2.5"} {
		v, err := types.ParseText(s, types.NumericType)
		if err != nil {
			t.Fatal(err)
		}
		row = append(row, v)
	}
	for i := 1; i < len(row); i++ {
		v, err := types.CastValue(&types.EvalContext{}, row[i], types.NumericType, cols[i].Type, false)
		if err != nil {
			t.Fatal(err)
		}
		row[i] = v
	}
	if err := db.Append(context.Background(), tb, rowsBatch(cols, [][]types.Value{row})); err != nil {
		t.Fatal(err)
	}
	db.Close()
	data, err := os.ReadFile(filepath.Join(dir, manifestName))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(data), fmt.Sprintf("%s %d ", manifestMagic, manifestFormat)) || !strings.Contains(string(data), `"numeric_text":true`) {
		t.Fatalf("rewritten manifest is not format %d with numeric_text segments: %.200s", manifestFormat, data)
	}
	db = open(t, dir)
	defer db.Close()
	tb, _ = db.Lookup("nums")
	got := tableText(t, tb.Snapshot(), cols)
	wantLines = append(wantLines, "41|-0.25|12.5|1.00001|3|2.5000000000")
	if strings.Join(got, "\n") != strings.Join(wantLines, "\n") {
		t.Fatalf("after append and reopen:\n%s", strings.Join(got, "\n"))
	}
	for _, r := range tb.Snapshot() {
		for c := 1; c < len(cols); c++ {
			if !arrow.TypeEqual(r.Column(c).DataType(), cols[c].Type.ArrowType()) {
				t.Fatalf("column %s read as %s, want %s", cols[c].Name, r.Column(c).DataType(), cols[c].Type.ArrowType())
			}
		}
	}
}

// tableText is the rows as psql -At prints them, ordered by the first
// column (an int).
func tableText(t *testing.T, recs []arrow.Record, cols []ColumnDef) []string {
	t.Helper()
	type line struct {
		id int64
		s  string
	}
	var ls []line
	for _, r := range recs {
		for i := 0; i < int(r.NumRows()); i++ {
			var f []string
			for c, d := range cols {
				v := types.GetValue(r.Column(c), d.Type, i)
				if v.Null {
					f = append(f, "NULL")
					continue
				}
				f = append(f, string(types.FormatText(nil, v, d.Type, nil)))
			}
			ls = append(ls, line{types.GetValue(r.Column(0), cols[0].Type, i).I, strings.Join(f, "|")})
		}
	}
	sort.Slice(ls, func(a, b int) bool { return ls[a].id < ls[b].id })
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = l.s
	}
	return out
}
