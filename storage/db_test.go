package storage

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/types"
)

var allTypes = []ColumnDef{
	{Name: "b", Type: types.BoolType}, {Name: "i2", Type: types.Int2Type}, {Name: "i4", Type: types.Int4Type, NotNull: true},
	{Name: "i8", Type: types.Int8Type}, {Name: "f4", Type: types.Float4Type}, {Name: "f8", Type: types.Float8Type},
	{Name: "n", Type: types.NumericOf(10, 2)}, {Name: "t", Type: types.TextType, Default: "'x'"}, {Name: "v", Type: types.VarcharOf(5)},
	{Name: "c", Type: types.CharOf(3)}, {Name: "d", Type: types.DateType}, {Name: "ts", Type: types.TimestampType},
	{Name: "iv", Type: types.IntervalType},
}

// rowsBatch builds a batch of cols from rows of Values (nil row value = NULL).
func rowsBatch(cols []ColumnDef, rows [][]types.Value) arrow.Record {
	bs := make([]array.Builder, len(cols))
	for c, d := range cols {
		bs[c] = array.NewBuilder(memory.DefaultAllocator, d.Type.ArrowType())
	}
	for _, r := range rows {
		for c, d := range cols {
			types.AppendValue(bs[c], d.Type, r[c])
		}
	}
	arrs := make([]arrow.Array, len(cols))
	for c := range bs {
		arrs[c] = bs[c].NewArray()
	}
	return array.NewRecord(arrowSchema(cols), arrs, int64(len(rows)))
}

func num(s string) types.Value {
	v, err := types.ParseTextFormat(s, types.NumericType, nil, time.Time{})
	if err != nil {
		panic(err)
	}
	return v
}

func allTypesRows() [][]types.Value {
	return [][]types.Value{
		{types.BoolValue(true), types.IntValue(-2), types.IntValue(4), types.IntValue(math.MaxInt64), types.FloatValue(1.5),
			types.FloatValue(math.NaN()), num("12.34"), types.TextValue("héllo"), types.TextValue("abc"), types.TextValue("x  "),
			types.IntValue(-1), types.IntValue(1234567890), {Iv: types.IntervalValue{Months: 1, Days: 2, Micros: 3}}},
		{types.NullValue, types.NullValue, types.IntValue(-4), types.NullValue, types.NullValue, types.FloatValue(-0.5),
			num("-1"), types.NullValue, types.TextValue(""), types.NullValue, types.NullValue, types.NullValue, types.NullValue},
	}
}

// openNoWAL opens dir without the write-ahead log: every commit writes its
// segments, delta files and manifest, for tests of those formats.
func openNoWAL(t testing.TB, dir string) *DB {
	t.Helper()
	db, err := Open(dir, Options{NoCompaction: true, NoWAL: true})
	if err != nil {
		t.Fatal(err)
	}
	return db
}

func open(t testing.TB, dir string) *DB {
	t.Helper()
	db, err := Open(dir, Options{NoCompaction: true})
	if err != nil {
		t.Fatal(err)
	}
	return db
}

func sumRows(recs []arrow.Record) int64 {
	var n int64
	for _, r := range recs {
		n += r.NumRows()
	}
	return n
}

func TestReopenKeepsTablesRowsAndStats(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db := open(t, dir)
	tb, err := db.Create(ctx, "all", allTypes)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Append(ctx, tb, rowsBatch(allTypes, allTypesRows())); err != nil {
		t.Fatal(err)
	}
	db.Close()

	db = open(t, dir)
	defer db.Close()
	tb, ok := db.Lookup("all")
	if !ok {
		t.Fatal("table lost")
	}
	for i, c := range tb.Columns() {
		want := allTypes[i]
		want.Attnum = int16(i + 1) // the catalog numbers columns
		if c != want {
			t.Fatalf("column %d: %+v, want %+v", i, c, want)
		}
	}
	snap := tb.Snapshot()
	if sumRows(snap) != 2 {
		t.Fatalf("rows %d", sumRows(snap))
	}
	want := allTypesRows()
	for c, d := range allTypes {
		for r := range want {
			got := types.GetValue(snap[0].Column(c), d.Type, r)
			if got.Null != want[r][c].Null || (!got.Null && types.Compare(got, want[r][c], d.Type) != 0) {
				t.Fatalf("row %d column %s: %v, want %v", r, d.Name, got, want[r][c])
			}
		}
	}
	st := tb.Stats()
	if st.Rows != 2 || st.Distinct[2] != 2 || st.Nulls[0] != 1 || st.Distinct[0] != 1 {
		t.Fatalf("stats %+v", st)
	}
	segs := tb.(Segmented).Segments()
	if len(segs) != 1 {
		t.Fatalf("%d segments", len(segs))
	}
	i4 := segs[0].Columns[2]
	if !i4.HasMinMax || i4.Min.I != -4 || i4.Max.I != 4 {
		t.Fatalf("int4 bounds %+v", i4)
	}
	f8 := segs[0].Columns[5]
	if !f8.HasMinMax || f8.Min.F != -0.5 || !math.IsNaN(f8.Max.F) {
		t.Fatalf("float8 bounds (NaN is the greatest) %+v", f8)
	}
	// numeric(10,2) holds every value at scale 2
	if n := segs[0].Columns[6]; n.Min.Num.String() != "-1.00" || n.Max.Num.String() != "12.34" {
		t.Fatalf("numeric bounds %v %v", n.Min.Num, n.Max.Num)
	}
	if tx := segs[0].Columns[8]; tx.Min.S != "" || tx.Max.S != "abc" {
		t.Fatalf("varchar bounds %+v", tx)
	}
	if all := segs[0].Columns[11]; all.Nulls != 1 || !all.HasMinMax {
		t.Fatalf("timestamp stats %+v", all)
	}
}

func TestTxnVisibilityAndConflicts(t *testing.T) {
	ctx := context.Background()
	db := open(t, t.TempDir())
	defer db.Close()
	cols := []ColumnDef{{Name: "k", Type: types.Int8Type}}
	if _, err := db.Create(ctx, "t", cols); err != nil {
		t.Fatal(err)
	}
	a, b := db.Begin(), db.Begin()
	ta, _ := a.Lookup("t")
	if err := a.Append(ctx, ta, intBatch(1, 2)); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Create(ctx, "new", cols); err != nil {
		t.Fatal(err)
	}
	tb, _ := b.Lookup("t")
	if n := sumRows(tb.Snapshot()); n != 0 {
		t.Fatalf("b sees %d uncommitted rows", n)
	}
	if _, ok := b.Lookup("new"); ok {
		t.Fatal("b sees an uncommitted table")
	}
	if n := sumRows(ta.Snapshot()); n != 2 || ta.Stats().Rows != 2 {
		t.Fatalf("a sees %d of its own rows", n)
	}
	if err := b.Drop(ctx, "t"); err != nil {
		t.Fatal(err)
	}
	if err := b.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	// a appended to a table b dropped: a's commit must fail whole.
	if err := a.Commit(ctx); pgerr.Code(err) != codeSerialization {
		t.Fatalf("want 40001, got %v", err)
	}
	if _, ok := db.Lookup("new"); ok {
		t.Fatal("a failed commit left a table behind")
	}
	// A table created, filled, dropped and recreated in one transaction.
	c := db.Begin()
	x, _ := c.Create(ctx, "x", cols)
	c.Append(ctx, x, intBatch(1))
	c.Drop(ctx, "x")
	x, _ = c.Create(ctx, "x", cols)
	c.Append(ctx, x, intBatch(5, 6, 7))
	c.Savepoint("s")
	c.Truncate(ctx, []Table{x})
	if n := sumRows(x.Snapshot()); n != 0 {
		t.Fatalf("after truncate %d", n)
	}
	if err := c.RollbackTo("s"); err != nil {
		t.Fatal(err)
	}
	if err := c.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	x, _ = db.Lookup("x")
	if n := sumRows(x.Snapshot()); n != 3 {
		t.Fatalf("x has %d rows, want 3", n)
	}
	// A snapshot taken by a statement does not move under later commits.
	r := db.Begin()
	rx, _ := r.Lookup("x")
	db.Append(ctx, x, intBatch(8))
	if n := sumRows(rx.Snapshot()); n != 3 {
		t.Fatalf("statement snapshot moved: %d rows", n)
	}
	r.NewStatement()
	if n := sumRows(rx.Snapshot()); n != 4 {
		t.Fatalf("next statement: %d rows, want 4", n)
	}
}

func TestConcurrentCommitsAreGroupedAndExact(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	cols := []ColumnDef{{Name: "k", Type: types.Int8Type}}
	tb, _ := db.Create(ctx, "t", cols)
	var wg sync.WaitGroup
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				if err := db.Append(ctx, tb, intBatch(int64(w*1000+i))); err != nil {
					t.Error(err)
				}
			}
		}(w)
	}
	wg.Wait()
	// Compaction catches up and deletes what it replaced while running.
	var files []string
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if files, _ = filepath.Glob(filepath.Join(dir, "seg-*")); len(files) < 2*minRun {
			break
		}
	}
	t.Logf("400 single-row commits from 8 writers: %d segment files on disk", len(files))
	if len(files) >= 2*minRun {
		t.Fatalf("%d segment files: small commits are not grouped/compacted", len(files))
	}
	db.Close()
	db, err = Open(dir, Options{NoCompaction: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	tb, _ = db.Lookup("t")
	seen := map[int64]bool{}
	for _, r := range tb.Snapshot() {
		col := r.Column(0).(*array.Int64)
		for i := 0; i < col.Len(); i++ {
			if seen[col.Value(i)] {
				t.Fatalf("duplicate %d", col.Value(i))
			}
			seen[col.Value(i)] = true
		}
	}
	if len(seen) != 400 {
		t.Fatalf("%d rows, want 400", len(seen))
	}
}

func TestCompactionKeepsOrder(t *testing.T) {
	ctx := context.Background()
	db, err := Open("", Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	tb, _ := db.Create(ctx, "t", []ColumnDef{{Name: "k", Type: types.Int8Type}})
	for i := 0; i < 100; i++ {
		db.Append(ctx, tb, intBatch(int64(i)))
	}
	// Tiered merging (pickRun) leaves fewer than minRun segments per size
	// tier: 100 one-row commits end in at most a few tiers of them.
	const want = 2 * minRun
	deadline := time.Now().Add(10 * time.Second)
	for len(tb.(Segmented).Segments()) >= want && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	segs := tb.(Segmented).Segments()
	if len(segs) >= want {
		t.Fatalf("%d segments after compaction", len(segs))
	}
	var got []int64
	for _, r := range tb.Snapshot() {
		got = append(got, r.Column(0).(*array.Int64).Int64Values()...)
	}
	for i, v := range got {
		if v != int64(i) {
			t.Fatalf("row %d is %d: compaction reordered rows", i, v)
		}
	}
	if len(got) != 100 || segs[0].Columns[0].Min.I != 0 {
		t.Fatalf("%d rows, stats %+v", len(got), segs[0].Columns[0])
	}
}

func TestDistinctEstimate(t *testing.T) {
	ctx := context.Background()
	db, _ := Open("", Options{NoCompaction: true})
	defer db.Close()
	tb, _ := db.Create(ctx, "t", []ColumnDef{{Name: "k", Type: types.Int8Type}})
	for part := 0; part < 4; part++ {
		vals := make([]int64, 50000)
		for i := range vals {
			vals[i] = int64((part*50000 + i) % 30000) // 30000 distinct overall
		}
		db.Append(ctx, tb, intBatch(vals...))
	}
	d := tb.Stats().Distinct[0]
	if d < 20000 || d > 40000 {
		t.Fatalf("distinct estimate %d, want about 30000", d)
	}
}

func TestOpenRefusesDamage(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db := open(t, dir)
	tb, _ := db.Create(ctx, "t", []ColumnDef{{Name: "k", Type: types.Int8Type}})
	db.Append(ctx, tb, intBatch(1, 2, 3))
	db.Close()
	segs, _ := filepath.Glob(filepath.Join(dir, "seg-*"))

	// An orphan of an interrupted commit is removed; the data stays.
	orphan := filepath.Join(dir, segmentFile(1<<40))
	os.WriteFile(orphan, []byte("partial"), 0o644)
	db = open(t, dir)
	if _, err := os.Stat(orphan); !os.IsNotExist(err) {
		t.Fatal("orphan segment kept")
	}
	if _, err := Open(dir, Options{}); err == nil || !strings.Contains(err.Error(), "in use") {
		t.Fatalf("a second Open of a locked directory: %v", err)
	}
	db.Close()

	os.Rename(segs[0], segs[0]+".x")
	if _, err := Open(dir, Options{}); err == nil || !strings.Contains(err.Error(), segs[0]) {
		t.Fatalf("missing segment: %v", err)
	}
	os.Rename(segs[0]+".x", segs[0])

	m := filepath.Join(dir, manifestName)
	b, _ := os.ReadFile(m)
	os.WriteFile(m, b[:len(b)-5], 0o644)
	if _, err := Open(dir, Options{}); err == nil || !strings.Contains(err.Error(), m) {
		t.Fatalf("truncated manifest: %v", err)
	}
	os.Remove(m)
	if _, err := Open(dir, Options{}); err == nil || !strings.Contains(err.Error(), "no MANIFEST") {
		t.Fatalf("missing manifest with segments present: %v", err)
	}
}
