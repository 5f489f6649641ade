package storage

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/joind/joind/types"
)

// testdata/segments-zstd is a data directory written by joind at commit
// f16d739, before lightweight encodings (zstd-compressed plain Arrow
// columns): segments-zstd.sql run against it, then a clean shutdown.
// segments-zstd.expected is SELECT * FROM enc ORDER BY id as PostgreSQL 15
// prints it after the same SQL (psql -At -P null=NULL). This joind must
// read those segments, and write the same rows again encoded.
func TestOpensZstdSegmentsOfBeforeEncodings(t *testing.T) {
	dir := copyTestdata(t, "segments-zstd")
	want, err := os.ReadFile(filepath.Join("testdata", "segments-zstd.expected"))
	if err != nil {
		t.Fatal(err)
	}
	wantText := strings.TrimSpace(string(want))

	db := open(t, dir)
	tb, ok := db.Lookup("enc")
	if !ok {
		t.Fatal("table enc missing")
	}
	cols := tb.Columns()
	if got := strings.Join(tableText(t, tb.Snapshot(), cols), "\n"); got != wantText {
		t.Fatalf("old segments read as\n%.2000s\nwant\n%.2000s", got, wantText)
	}
	// The same rows written now are encoded; reread after a reopen, both
	// tables give PostgreSQL's rows.
	ctx := context.Background()
	copyTb, err := db.Create(ctx, "enc2", cols)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range tb.Snapshot() {
		if err := db.Append(ctx, copyTb, r); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	db = open(t, dir)
	defer db.Close()
	for _, name := range []string{"enc", "enc2"} {
		tb, _ := db.Lookup(name)
		if got := strings.Join(tableText(t, tb.Snapshot(), cols), "\n"); got != wantText {
			t.Fatalf("%s after reopen:\n%.2000s", name, got)
		}
	}
	encs := fileEncodings(t, dir, db, "enc2")
	// One segment per Append: the 3000 generated rows, then the two of
	// NULLs and extremes.
	if len(encs) != 2 || encs[0]["flag"] != encDictName || encs[0]["d"] != encFORName || encs[0]["note"] != "" {
		t.Fatalf("enc2's segment encodings %v, want flag a dictionary, d frame of reference, note plain", encs)
	}
}

// copyTestdata copies testdata/name (a data directory) to a temporary
// directory, which a test may then open and change.
func copyTestdata(t *testing.T, name string) string {
	t.Helper()
	dir := t.TempDir()
	src := filepath.Join("testdata", name)
	ents, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// fileEncodings reads the schemas of table name's segment files: column
// name → encoding ("" plain).
func fileEncodings(t *testing.T, dir string, db *DB, name string) []map[string]string {
	t.Helper()
	cs := db.cur.Load().tables[name]
	var out []map[string]string
	for _, s := range cs.segs {
		f, err := os.Open(filepath.Join(dir, segmentFile(s.id)))
		if err != nil {
			t.Fatal(err)
		}
		r, err := ipc.NewFileReader(f)
		if err != nil {
			t.Fatal(err)
		}
		m := map[string]string{}
		for _, fd := range r.Schema().Fields() {
			m[fd.Name], _ = fd.Metadata.GetValue(encKey)
		}
		r.Close()
		f.Close()
		out = append(out, m)
	}
	return out
}

// TestEncodingsRoundTrip writes columns that favour each encoding, with
// NULLs, extremes and batches that are slices of larger ones, and reads
// them back after a reopen: every value and NULL as written, the
// encodings as chosen.
func TestEncodingsRoundTrip(t *testing.T) {
	m152 := types.Type{ID: types.Numeric, Typmod: types.NumericTypmod(15, 2)}
	tsz := types.Type{ID: types.TimestampTZ, Typmod: -1}
	cols := []ColumnDef{
		{Name: "id", Type: types.Int8Type, NotNull: true}, // 0..n-1: for, uint16
		{Name: "run", Type: types.Int4Type},               // i/100, NULL runs: rle
		{Name: "small", Type: types.Int2Type},             // i%50 - 20, some NULL: for, uint8
		{Name: "d", Type: types.DateType},                 // for
		{Name: "ts", Type: tsz},                           // µs over a day: for, uint32
		{Name: "m", Type: m152},                           // scaled int64: for
		{Name: "flag", Type: types.TextType},              // 3 values, '' and NULL: dictionary
		{Name: "uniq", Type: types.TextType},              // all distinct: plain
		{Name: "wide", Type: types.Int8Type},              // ±2^63 extremes: plain
		{Name: "nulls", Type: types.Int8Type},             // all NULL: rle (one run)
		{Name: "big", Type: types.Int8Type},               // 33-bit range: for, packed in uint64 slots
		{Name: "qty", Type: m152},                         // whole numbers: for, step 100
	}
	const n = 5000
	rows := make([][]types.Value, n)
	for i := range rows {
		v := func(x int64) types.Value { return types.IntValue(x) }
		run := v(int64(i / 100))
		if (i/100)%7 == 3 {
			run = types.NullValue
		}
		small := v(int64(i%50 - 20))
		if i%13 == 0 {
			small = types.NullValue
		}
		num, err := types.ParseText(fmt.Sprintf("%d.%02d", i*37%100000-50000, i%100), types.NumericType)
		if err != nil {
			t.Fatal(err)
		}
		if num, err = types.CastValue(&types.EvalContext{}, num, types.NumericType, m152, false); err != nil {
			t.Fatal(err)
		}
		qty, err := types.ParseText(fmt.Sprintf("%d", i%50+1), types.NumericType)
		if err != nil {
			t.Fatal(err)
		}
		if qty, err = types.CastValue(&types.EvalContext{}, qty, types.NumericType, m152, false); err != nil {
			t.Fatal(err)
		}
		flag := types.TextValue([]string{"A", "N", "", "R"}[i%4])
		if i%11 == 0 {
			flag = types.NullValue
		}
		wide := v(int64(i) * 1_000_003)
		switch i {
		case 17:
			wide = v(-1 << 63)
		case 18:
			wide = v(1<<63 - 1)
		}
		rows[i] = []types.Value{v(int64(i)), run, small, v(int64(8000 + i%2500)), v(1_700_000_000_000_000 + int64(i)*700_001), num,
			flag, types.TextValue(fmt.Sprintf("row %d é", i)), wide, types.NullValue, v(-int64(i) * 1_700_003), qty}
	}
	whole := rowsBatch(cols, rows)
	want := tableText(t, []arrow.Record{whole}, cols)

	dir := t.TempDir()
	db := open(t, dir)
	ctx := context.Background()
	tb, err := db.Create(ctx, "t", cols)
	if err != nil {
		t.Fatal(err)
	}
	// Slices of one batch (arrays at an offset), in one transaction: one
	// segment of several batches, sharing one dictionary.
	txn := db.Begin()
	ttb, _ := txn.Lookup("t")
	for lo := int64(0); lo < n; lo += 1700 {
		hi := min(lo+1700, n)
		if err := txn.Append(ctx, ttb, whole.NewSlice(lo, hi)); err != nil {
			t.Fatal(err)
		}
	}
	if err := txn.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	_ = tb
	db.Close()
	db = open(t, dir)
	defer db.Close()
	tb, _ = db.Lookup("t")
	recs := tb.Snapshot()
	if got := tableText(t, recs, cols); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("read back:\n%.1500s\nwant\n%.1500s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, r := range recs {
		for c := range cols {
			if !arrow.TypeEqual(r.Column(c).DataType(), cols[c].Type.ArrowType()) {
				t.Fatalf("column %s read as %s", cols[c].Name, r.Column(c).DataType())
			}
			if err := array.ValidateFull(r.Column(c)); err != nil {
				t.Fatalf("column %s: %v", cols[c].Name, err)
			}
		}
	}
	encs := fileEncodings(t, dir, db, "t")
	wantEnc := map[string]string{"id": encFORName, "run": encRLEName, "small": encFORName, "d": encFORName, "ts": encFORName,
		"m": encFORName, "flag": encDictName, "uniq": "", "wide": "", "nulls": encRLEName, "big": encFORName, "qty": encFORName}
	if len(encs) != 1 || fmt.Sprint(encs[0]) != fmt.Sprint(wantEnc) {
		t.Fatalf("encodings %v, want %v", encs, wantEnc)
	}
}

// reopened writes rows as table t of a new data directory opened with opts,
// closes it (the clean shutdown writes the segment file) and opens it again.
func reopened(t *testing.T, opts Options, cols []ColumnDef, rows [][]types.Value) (*DB, Table, string) {
	t.Helper()
	dir := t.TempDir()
	opts.NoCompaction = true
	db, err := Open(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	tb, _ := db.Create(ctx, "t", cols)
	if err := db.Append(ctx, tb, rowsBatch(cols, rows)); err != nil {
		t.Fatal(err)
	}
	db.Close()
	db = open(t, dir)
	t.Cleanup(func() { db.Close() })
	tb, _ = db.Lookup("t")
	return db, tb, dir
}

// TestNoCompressionWritesPlain: Options.NoCompression writes the plain
// columns, as before encodings (benchmarks compare the two).
func TestNoCompressionWritesPlain(t *testing.T) {
	cols := []ColumnDef{{Name: "k", Type: types.Int8Type}, {Name: "s", Type: types.TextType}}
	var rows [][]types.Value
	for i := 0; i < 1000; i++ {
		rows = append(rows, []types.Value{types.IntValue(int64(i % 10)), types.TextValue("x")})
	}
	db, tb, dir := reopened(t, Options{NoCompression: true}, cols, rows)
	if encs := fileEncodings(t, dir, db, "t"); len(encs) != 1 || encs[0]["k"] != "" || encs[0]["s"] != "" {
		t.Fatalf("encodings %v, want plain", encs)
	}
	if got, want := strings.Join(tableText(t, tb.Snapshot(), cols), "\n"), strings.Join(tableText(t, []arrow.Record{rowsBatch(cols, rows)}, cols), "\n"); got != want {
		t.Fatalf("rows differ:\n%.300s\nwant\n%.300s", got, want)
	}
}

// TestLazyDecoding: a reopened segment's encoded columns are decoded when
// first read, each once, and concurrent readers share the one decoding.
func TestLazyDecoding(t *testing.T) {
	cols := []ColumnDef{{Name: "k", Type: types.Int8Type}, {Name: "s", Type: types.TextType}, {Name: "v", Type: types.Int4Type}}
	var rows [][]types.Value
	for i := 0; i < 3000; i++ {
		rows = append(rows, []types.Value{types.IntValue(int64(i * 7 % 1000)), types.TextValue([]string{"x", "y"}[i%2]), types.IntValue(int64(i % 300))})
	}
	_, tb, _ := reopened(t, Options{}, cols, rows)
	recs := tb.Snapshot()
	if len(recs) != 1 {
		t.Fatalf("%d batches", len(recs))
	}
	lr, ok := recs[0].(*lazyRecord)
	if !ok {
		t.Fatalf("batch is %T, want a lazyRecord", recs[0])
	}
	for i := range lr.cols {
		if lr.cols[i].enc == nil {
			t.Fatalf("column %s decoded before use", cols[i].Name)
		}
	}
	got := make(chan arrow.Array, 4)
	for g := 0; g < cap(got); g++ {
		go func() { got <- lr.Column(1) }()
	}
	first := <-got
	for g := 1; g < cap(got); g++ {
		if a := <-got; a != first {
			t.Fatal("concurrent readers decoded the column twice")
		}
	}
	if lr.cols[1].enc != nil || lr.cols[0].enc == nil || lr.cols[2].enc == nil {
		t.Fatal("reading column s decoded another column, or kept its encoded form")
	}
	if got, want := strings.Join(tableText(t, recs, cols), "\n"), strings.Join(tableText(t, []arrow.Record{rowsBatch(cols, rows)}, cols), "\n"); got != want {
		t.Fatalf("rows differ:\n%.500s\nwant\n%.500s", got, want)
	}
}
