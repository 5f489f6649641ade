package storage

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/joind/joind/types"
)

var cacheCols = []ColumnDef{{Name: "a", Type: types.Int8Type}, {Name: "t", Type: types.TextType}}

// fillSegments appends n batches (one segment file each: no log) of rows
// rows to a new table name; a = 0.., t = "row <a>".
func fillSegments(t *testing.T, db *DB, name string, n, rows int) Table {
	t.Helper()
	ctx := context.Background()
	tb, err := db.Create(ctx, name, cacheCols)
	if err != nil {
		t.Fatal(err)
	}
	for s := 0; s < n; s++ {
		vals := make([][]types.Value, rows)
		for r := range vals {
			a := int64(s*rows + r)
			vals[r] = []types.Value{types.IntValue(a), types.TextValue(fmt.Sprintf("row %d with some padding text", a))}
		}
		if err := db.Append(ctx, tb, rowsBatch(cacheCols, vals)); err != nil {
			t.Fatal(err)
		}
	}
	return tb
}

// sumA is the sum of column a and the rows whose t does not match a.
func sumA(recs []arrow.Record) (sum int64, bad int) {
	for _, r := range recs {
		a, txt := r.Column(0).(*array.Int64), r.Column(1).(*array.String)
		for i := 0; i < a.Len(); i++ {
			sum += a.Value(i)
			if txt.Value(i) != fmt.Sprintf("row %d with some padding text", a.Value(i)) {
				bad++
			}
		}
	}
	return sum, bad
}

func loadedSegments(db *DB, name string) (loaded, total int) {
	v := db.cs.load()
	for _, ts := range v.byID {
		if ts.name != name {
			continue
		}
		for _, s := range ts.segs {
			total++
			if _, ok := s.cached(); ok {
				loaded++
			}
		}
	}
	return loaded, total
}

// TestSegmentCacheBoundsLoadedSegments: scanning a table larger than the
// cache keeps at most the budget (plus the segment in use) loaded, drops
// the least recently used, and reads them back from their files with the
// same rows.
func TestSegmentCacheBoundsLoadedSegments(t *testing.T) {
	dir := t.TempDir()
	const segs, rows = 12, 20000
	db, err := Open(dir, Options{NoCompaction: true, NoWAL: true, CacheBytes: 2 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	fillSegments(t, db, "big", segs, rows)
	db.Close()
	db, err = Open(dir, Options{NoCompaction: true, NoWAL: true, CacheBytes: 2 << 20})
	if err != nil {
		t.Fatal(err)
	}
	wantSum := int64(segs*rows) * int64(segs*rows-1) / 2
	for pass := 0; pass < 3; pass++ {
		tb, _ := db.Lookup("big")
		for _, seg := range tb.(Segmented).Segments() {
			sum, bad := sumA(seg.Records)
			if bad != 0 || sum == 0 && len(seg.Records) > 0 && seg.Records[0].NumRows() > 1 {
				t.Fatalf("pass %d: a segment read back wrong (%d bad rows)", pass, bad)
			}
		}
		sum, bad := sumA(tb.Snapshot())
		if sum != wantSum || bad != 0 {
			t.Fatalf("pass %d: sum %d (want %d), %d bad rows", pass, sum, wantSum, bad)
		}
		loaded, total := loadedSegments(db, "big")
		db.cache.mu.Lock()
		held := db.cache.bytes
		db.cache.mu.Unlock()
		if total != segs || loaded == total || loaded == 0 {
			t.Fatalf("pass %d: %d of %d segments loaded: the cache did not bound them", pass, loaded, total)
		}
		if held > db.cache.budget+held/int64(loaded) {
			t.Fatalf("pass %d: cache holds %d bytes, budget %d", pass, held, db.cache.budget)
		}
	}
	if db.cache.evictions.Load() == 0 {
		t.Fatal("no segment was dropped")
	}
}

// TestRetiredSegmentStaysForOlderReaders: a dropped table's loaded
// segments lose their files at once, so the cache must keep them for a
// transaction still reading the older version, however much else is read;
// one the cache had dropped keeps its file for retireGrace.
func TestRetiredSegmentStaysForOlderReaders(t *testing.T) {
	dir := t.TempDir()
	db, err := Open(dir, Options{NoCompaction: true, NoWAL: true, CacheBytes: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	fillSegments(t, db, "old", 2, 20000)
	fillSegments(t, db, "other", 8, 20000)
	reader := db.Begin()
	tb, ok := reader.Lookup("old")
	if !ok {
		t.Fatal("no table old")
	}
	want, _ := sumA(tb.Snapshot()) // loads its segments
	if err := db.Drop(context.Background(), "old"); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "seg-*.arrow"))
	for pass := 0; pass < 2; pass++ {
		other, _ := db.Lookup("other")
		sumA(other.Snapshot()) // pressure on the cache
	}
	got, bad := sumA(tb.Snapshot())
	if err := reader.Err(); err != nil {
		t.Fatalf("the older reader lost the dropped table's segments: %v", err)
	}
	if got != want || bad != 0 {
		t.Fatalf("older reader sum %d, want %d (%d bad)", got, want, bad)
	}
	// old's loaded segment lost its file at the drop; one the cache had
	// dropped waits out retireGrace.
	if len(files) != 9 {
		t.Fatalf("%d segment files after the drop, want other's 8 and one of old's", len(files))
	}
	reader.Rollback()
}
