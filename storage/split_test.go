package storage

import (
	"context"
	"os"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/joind/joind/types"
)

// A large commit is cut into segments of at most maxRows rows (one
// manifest write), each with its own bounds, and reads back in order.
func TestLargeCommitSplitsIntoSegments(t *testing.T) {
	dir := t.TempDir()
	db := open(t, dir)
	ctx := context.Background()
	cols := []ColumnDef{{Name: "id", Type: types.Int8Type}, {Name: "s", Type: types.TextType}}
	if _, err := db.Create(ctx, "big", cols); err != nil {
		t.Fatal(err)
	}
	const n = 2*maxRows + 12345
	const chunk = 300_000 // batches straddle segment boundaries
	txn := db.Begin()
	tt, _ := txn.Lookup("big")
	for lo := int64(0); lo < n; lo += chunk {
		hi := min(lo+chunk, n)
		ib := array.NewInt64Builder(memory.DefaultAllocator)
		sb := array.NewStringBuilder(memory.DefaultAllocator)
		for i := lo; i < hi; i++ {
			ib.Append(i)
			if i%7 == 0 {
				sb.AppendNull()
			} else {
				sb.Append(string(rune('a' + i%26)))
			}
		}
		rec := array.NewRecord(arrowSchema(cols), []arrow.Array{ib.NewArray(), sb.NewArray()}, hi-lo)
		if err := txn.Append(ctx, tt, rec); err != nil {
			t.Fatal(err)
		}
	}
	if err := txn.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	check := func(db *DB) {
		t.Helper()
		tx := db.Begin()
		defer tx.Rollback()
		tbl, _ := tx.Lookup("big")
		segs := tbl.(Segmented).Segments()
		if len(segs) != 3 {
			t.Fatalf("got %d segments, want 3", len(segs))
		}
		next := int64(0)
		for k, seg := range segs {
			if seg.Rows > maxRows {
				t.Fatalf("segment %d has %d rows", k, seg.Rows)
			}
			st := seg.Columns[0]
			if !st.HasMinMax || st.Min.I != next || st.Max.I != next+seg.Rows-1 {
				t.Fatalf("segment %d bounds %v..%v, want %d..%d", k, st.Min, st.Max, next, next+seg.Rows-1)
			}
			for _, r := range seg.Records {
				ids := r.Column(0).(*array.Int64)
				ss := r.Column(1).(*array.String)
				for i := 0; i < ids.Len(); i++ {
					if ids.Value(i) != next {
						t.Fatalf("row %d: id %d", next, ids.Value(i))
					}
					if (next%7 == 0) != ss.IsNull(i) || (!ss.IsNull(i) && ss.Value(i) != string(rune('a'+next%26))) {
						t.Fatalf("row %d: s wrong", next)
					}
					next++
				}
			}
		}
		if next != n {
			t.Fatalf("read %d rows, want %d", next, n)
		}
	}
	check(db)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	files, _ := os.ReadDir(dir)
	segFiles := 0
	for _, f := range files {
		if len(f.Name()) > 4 && f.Name()[:4] == "seg-" {
			segFiles++
		}
	}
	if segFiles != 3 {
		t.Fatalf("%d segment files, want 3", segFiles)
	}
	db2 := open(t, dir)
	defer db2.Close()
	check(db2) // read back from the files (sliced batches were written whole)
}

func TestPickRunNeverExceedsMaxRows(t *testing.T) {
	var segs []*segment
	for i := 0; i < 40; i++ {
		segs = append(segs, &segment{rows: smallRows - 1})
	}
	run := pickRun(segs)
	var rows int64
	for _, s := range run {
		rows += s.rows
	}
	if len(run) < minRun || rows > maxRows {
		t.Fatalf("run of %d segments, %d rows", len(run), rows)
	}
}
