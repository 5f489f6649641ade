package external

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/joind/joind/types"
)

// writeTestParquet writes rows 0..n-1 in row groups of groupRows: i int32
// (= row), ms timestamp in milliseconds (row seconds after the epoch), s
// string (NULL every 7th row), x float64.
func writeTestParquet(t *testing.T, n, groupRows int) string {
	t.Helper()
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "i", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "ms", Type: &arrow.TimestampType{Unit: arrow.Millisecond}, Nullable: true},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "x", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	}, nil)
	path := filepath.Join(t.TempDir(), "t.parquet")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w, err := pqarrow.NewFileWriter(schema, f, parquet.NewWriterProperties(parquet.WithMaxRowGroupLength(int64(groupRows))), pqarrow.DefaultWriterProps())
	if err != nil {
		t.Fatal(err)
	}
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	for r := 0; r < n; r++ {
		b.Field(0).(*array.Int32Builder).Append(int32(r))
		b.Field(1).(*array.TimestampBuilder).Append(arrow.Timestamp(int64(r) * 1000))
		if r%7 == 0 {
			b.Field(2).AppendNull()
		} else {
			b.Field(2).(*array.StringBuilder).Append("v" + strings.Repeat("x", r%3))
		}
		b.Field(3).(*array.Float64Builder).Append(float64(r) / 2)
	}
	rec := b.NewRecord()
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestParquetTableColumnsUnitsAndReads(t *testing.T) {
	path := writeTestParquet(t, 1000, 300)
	tbl, err := OpenParquet(path, []string{path})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range tbl.Columns() {
		got = append(got, c.Name+" "+c.Type.SQLName())
	}
	if want := "i integer,ms timestamp without time zone,s text,x double precision"; strings.Join(got, ",") != want {
		t.Fatalf("columns %q, want %q", strings.Join(got, ","), want)
	}
	units := tbl.Units()
	if len(units) != 4 || units[3].Rows != 100 || tbl.Stats().Rows != 1000 {
		t.Fatalf("units %d (last %d rows), rows %d; want 4 (100), 1000", len(units), units[len(units)-1].Rows, tbl.Stats().Rows)
	}
	// Row group 1 holds rows 300..599: i's bounds, ms's in microseconds,
	// s's NULL count (rows divisible by 7), and no bounds for floats.
	u := units[1]
	if cs := u.Columns[0]; !cs.HasMinMax || cs.Min.I != 300 || cs.Max.I != 599 || cs.Nulls != 0 {
		t.Errorf("i stats %+v", cs)
	}
	if cs := u.Columns[1]; !cs.HasMinMax || cs.Min.I != 300_000_000 || cs.Max.I != 599_000_000 {
		t.Errorf("ms stats %+v", cs)
	}
	nulls := 0
	for r := 300; r < 600; r++ {
		if r%7 == 0 {
			nulls++
		}
	}
	if cs := u.Columns[2]; cs.Nulls != int64(nulls) || cs.HasMinMax {
		t.Errorf("s stats %+v, want %d NULLs and no bounds", cs, nulls)
	}
	if cs := u.Columns[3]; cs.HasMinMax {
		t.Errorf("float stats kept bounds: %+v", cs)
	}
	// Reading two columns of unit 2, in the asked order.
	recs, err := tbl.ReadUnit(context.Background(), 2, []int{2, 1})
	if err != nil {
		t.Fatal(err)
	}
	var n int64
	for _, rec := range recs {
		if rec.NumCols() != 2 {
			t.Fatalf("%d columns read, want 2", rec.NumCols())
		}
		for k := 0; k < int(rec.NumRows()); k++ {
			row := 600 + int(n) + k
			sv := types.GetValue(rec.Column(0), types.TextType, k)
			if (row%7 == 0) != sv.Null || (!sv.Null && sv.S != "v"+strings.Repeat("x", row%3)) {
				t.Fatalf("row %d: s = %+v", row, sv)
			}
			if tv := types.GetValue(rec.Column(1), types.TimestampType, k); tv.I != int64(row)*1_000_000 {
				t.Fatalf("row %d: ms = %d µs", row, tv.I)
			}
		}
		n += rec.NumRows()
	}
	if n != 300 {
		t.Fatalf("unit 2 read %d rows, want 300", n)
	}
	// No columns: only the row count.
	recs, err = tbl.ReadUnit(context.Background(), 3, nil)
	if err != nil || len(recs) != 1 || recs[0].NumRows() != 100 || recs[0].NumCols() != 0 {
		t.Fatalf("count-only read: %v %v", recs, err)
	}
}

func TestParquetTableRefusesAChangedFile(t *testing.T) {
	path := writeTestParquet(t, 10, 10)
	tbl, err := OpenParquet(path, []string{path})
	if err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(path, later, later); err != nil {
		t.Fatal(err)
	}
	if _, err := tbl.ReadUnit(context.Background(), 0, []int{0}); err == nil || !strings.Contains(err.Error(), "changed") {
		t.Fatalf("read of a changed file: %v", err)
	}
}

func TestOpenParquetErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.parquet")
	if err := os.WriteFile(bad, []byte("not parquet at all"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenParquet(bad, []string{bad}); err == nil || !strings.Contains(err.Error(), "is not a Parquet file") {
		t.Errorf("garbage file: %v", err)
	}
	if _, err := OpenParquet("m", []string{filepath.Join(dir, "missing.parquet")}); err == nil || !strings.Contains(err.Error(), "No such file") {
		t.Errorf("missing file: %v", err)
	}
}

func TestParquetTableOfSeveralFiles(t *testing.T) {
	a, b := writeTestParquet(t, 500, 200), writeTestParquet(t, 300, 200)
	tbl, err := OpenParquet("two", []string{a, b})
	if err != nil {
		t.Fatal(err)
	}
	// 3 row groups of a, then 2 of b; unit 3 is b's first row group.
	if len(tbl.Units()) != 5 || tbl.Stats().Rows != 800 {
		t.Fatalf("%d units, %d rows; want 5, 800", len(tbl.Units()), tbl.Stats().Rows)
	}
	if u := tbl.Units()[3]; u.Columns[0].Min.I != 0 || u.Columns[0].Max.I != 199 {
		t.Errorf("unit 3 (b's first) bounds %+v", u.Columns[0])
	}
	recs, err := tbl.ReadUnit(context.Background(), 4, []int{0})
	if err != nil {
		t.Fatal(err)
	}
	if v := types.GetValue(recs[0].Column(0), types.Int4Type, 0); v.I != 200 || recs[0].NumRows() != 100 {
		t.Fatalf("unit 4 starts at i=%d with %d rows, want b's row 200 and 100 rows", v.I, recs[0].NumRows())
	}
	// A file with other columns is refused, naming both.
	other := filepath.Join(t.TempDir(), "o.parquet")
	{
		schema := arrow.NewSchema([]arrow.Field{{Name: "i", Type: arrow.PrimitiveTypes.Int64, Nullable: true}}, nil)
		f, _ := os.Create(other)
		w, err := pqarrow.NewFileWriter(schema, f, parquet.NewWriterProperties(), pqarrow.DefaultWriterProps())
		if err != nil {
			t.Fatal(err)
		}
		bld := array.NewRecordBuilder(memory.DefaultAllocator, schema)
		bld.Field(0).(*array.Int64Builder).Append(1)
		if err := w.Write(bld.NewRecord()); err != nil {
			t.Fatal(err)
		}
		w.Close()
	}
	if _, err := OpenParquet("mixed", []string{a, other}); err == nil || !strings.Contains(err.Error(), "does not have the columns") {
		t.Fatalf("mixed files: %v", err)
	}
}

func TestResolvePattern(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"b.parquet", "a.parquet", "c.csv"} {
		os.WriteFile(filepath.Join(dir, n), nil, 0o644)
	}
	got, err := ResolvePattern([]string{dir}, "*.parquet")
	if err != nil || len(got) != 2 || filepath.Base(got[0]) != "a.parquet" || filepath.Base(got[1]) != "b.parquet" {
		t.Fatalf("*.parquet: %v %v", got, err)
	}
	if _, err := ResolvePattern([]string{dir}, "*.orc"); err == nil || !strings.Contains(err.Error(), "no file matches") {
		t.Errorf("no match: %v", err)
	}
	if _, err := ResolvePattern([]string{dir}, "/etc/*"); err == nil || !strings.Contains(err.Error(), "outside") {
		t.Errorf("outside copy_dirs: %v", err)
	}
}
