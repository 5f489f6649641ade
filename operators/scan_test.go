package operators

import (
	"context"
	"fmt"
	"math/rand"
	"sort"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// scanKeys runs a RowID scan of column 0 (int8) of tb and returns the keys
// and, by key, the RowIDs.
func scanKeys(t *testing.T, tb storage.Table, parts, size int) ([]int64, map[int64]storage.RowID) {
	t.Helper()
	cs := cols(types.Int8Type)
	x := &plan.Scan{Table: tb, Ordinals: []int{0}, Cols: cs, RowID: plan.Column{ID: 99, Name: "ctid", Type: types.Int8Type}}
	op, err := NewPlanScan(x, parts, size)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(op.Columns()); n != 2 {
		t.Fatalf("%d columns, want 2", n)
	}
	recs, err := Collect(context.Background(), op)
	if err != nil {
		t.Fatal(err)
	}
	var keys []int64
	ids := map[int64]storage.RowID{}
	for _, r := range recs {
		k := r.Column(0).(*array.Int64).Int64Values()
		id := r.Column(1).(*array.Int64).Int64Values()
		for i := range k {
			if _, dup := ids[k[i]]; dup {
				t.Fatalf("key %d scanned twice", k[i])
			}
			keys = append(keys, k[i])
			ids[k[i]] = storage.RowID(id[i])
		}
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i] < keys[j] })
	return keys, ids
}

// A scan never yields a deleted row, whatever the batch size and
// partitioning, and its RowIDs delete exactly the rows they were read with.
func TestScanRowIDsAndDeletes(t *testing.T) {
	ctx := context.Background()
	db, err := storage.Open("", storage.Options{NoCompaction: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	tb, err := db.Create(ctx, "t", []storage.ColumnDef{{Name: "k", Type: types.Int8Type}})
	if err != nil {
		t.Fatal(err)
	}
	cs := cols(types.Int8Type)
	live := map[int64]bool{}
	next := int64(0)
	for s := 0; s < 5; s++ {
		var rows [][]types.Value
		for i := 0; i < 3000; i++ {
			rows = append(rows, []types.Value{types.IntValue(next)})
			live[next] = true
			next++
		}
		if err := db.Append(ctx, tb, mkRecord(cs, rows)); err != nil {
			t.Fatal(err)
		}
	}
	rng := rand.New(rand.NewSource(1))
	for round := 0; round < 4; round++ {
		txn := db.Begin()
		ttb, _ := txn.Lookup("t")
		// The transaction's own rows are scanned with RowIDs too.
		var rows [][]types.Value
		for i := 0; i < 100; i++ {
			rows = append(rows, []types.Value{types.IntValue(next)})
			live[next] = true
			next++
		}
		if err := txn.Append(ctx, ttb, mkRecord(cs, rows)); err != nil {
			t.Fatal(err)
		}
		_, ids := scanKeys(t, ttb, 1+round%3, 700+round*1000)
		var del []storage.RowID
		for k, id := range ids {
			if rng.Intn(3) == 0 {
				del = append(del, id)
				delete(live, k)
			}
		}
		if err := txn.Delete(ctx, ttb, del); err != nil {
			t.Fatal(err)
		}
		if err := txn.Commit(ctx); err != nil {
			t.Fatal(err)
		}
		tb, _ = db.Lookup("t")
		keys, _ := scanKeys(t, tb, 2, 1024)
		var want []int64
		for k := range live {
			want = append(want, k)
		}
		sort.Slice(want, func(i, j int) bool { return want[i] < want[j] })
		if fmt.Sprint(keys) != fmt.Sprint(want) {
			t.Fatalf("round %d: scan gives %d keys, want %d", round, len(keys), len(want))
		}
		if n := tb.Stats().Rows; n != int64(len(want)) {
			t.Fatalf("round %d: Stats().Rows = %d, want %d", round, n, len(want))
		}
	}
}

// A few scattered deletes per slice are passed on as zero-copy runs; the
// rows and RowIDs are those of the live rows, whatever the split.
func TestScanSparseDeletesAsRuns(t *testing.T) {
	ctx := context.Background()
	db, err := storage.Open("", storage.Options{NoCompaction: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	tb, _ := db.Create(ctx, "t", []storage.ColumnDef{{Name: "k", Type: types.Int8Type}})
	cs := cols(types.Int8Type)
	var rows [][]types.Value
	for i := 0; i < 10000; i++ {
		rows = append(rows, []types.Value{types.IntValue(int64(i))})
	}
	if err := db.Append(ctx, tb, mkRecord(cs, rows)); err != nil {
		t.Fatal(err)
	}
	tb, _ = db.Lookup("t")
	_, ids := scanKeys(t, tb, 1, 4096)
	gone := map[int64]bool{0: true, 5: true, 6: true, 2000: true, 4095: true, 4096: true, 8000: true, 8002: true, 8004: true, 8006: true, 9999: true}
	var del []storage.RowID
	for k := range gone {
		del = append(del, ids[k])
	}
	if err := db.Delete(ctx, tb, del); err != nil {
		t.Fatal(err)
	}
	tb, _ = db.Lookup("t")
	for _, parts := range []int{1, 2} {
		keys, got := scanKeys(t, tb, parts, 4096)
		if len(keys) != 10000-len(gone) {
			t.Fatalf("%d partitions: %d rows, want %d", parts, len(keys), 10000-len(gone))
		}
		for _, k := range keys {
			if gone[k] || got[k] != ids[k] {
				t.Fatalf("%d partitions: key %d (deleted %v) RowID %d, want %d", parts, k, gone[k], got[k], ids[k])
			}
		}
	}
}

// A RowID scan of a table without row identifiers is refused, not empty.
func TestScanRowIDNeedsSegmentedTable(t *testing.T) {
	x := &plan.Scan{Table: &memTable{name: "m", defs: []storage.ColumnDef{{Name: "k", Type: types.Int8Type}}}, Ordinals: []int{0}, Cols: cols(types.Int8Type),
		RowID: plan.Column{ID: 9, Name: "ctid", Type: types.Int8Type}}
	_, err := NewPlanScan(x, 1, 0)
	wantCode(t, err, "0A000")
}

// BenchmarkScanDeletes scans a 4M-row int8 table without deleted rows,
// with every 10th row deleted (live rows copied) and with every 1000th
// (zero-copy runs): the live-row filter costs nothing on slices without
// deletes (a nil vector, or a chunk-free range).
func BenchmarkScanDeletes(b *testing.B) {
	ctx := context.Background()
	const rows, batch = 4 << 20, 1 << 20
	db, err := storage.Open("", storage.Options{NoCompaction: true})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	cs := cols(types.Int8Type)
	for _, name := range []string{"plain", "deleted", "sparse"} {
		tb, _ := db.Create(ctx, name, []storage.ColumnDef{{Name: "k", Type: types.Int8Type}})
		for s := 0; s < rows; s += batch {
			ib := array.NewInt64Builder(mem)
			for k := s; k < s+batch; k++ {
				ib.Append(int64(k))
			}
			db.Append(ctx, tb, array.NewRecord(schemaOf(cs), []arrow.Array{ib.NewArray()}, batch))
		}
	}
	tb, _ := db.Lookup("deleted")
	var ids []storage.RowID
	for _, seg := range tb.(storage.Segmented).Segments() {
		for off := int64(0); off < seg.Rows; off += 10 {
			ids = append(ids, storage.MakeRowID(seg.ID, off))
		}
	}
	if err := db.Delete(ctx, tb, ids); err != nil {
		b.Fatal(err)
	}
	tb, _ = db.Lookup("sparse")
	var sparse []storage.RowID
	for _, seg := range tb.(storage.Segmented).Segments() {
		for off := int64(0); off < seg.Rows; off += 1000 {
			sparse = append(sparse, storage.MakeRowID(seg.ID, off))
		}
	}
	if err := db.Delete(ctx, tb, sparse); err != nil {
		b.Fatal(err)
	}
	gone := map[string]int64{"deleted": int64(len(ids)), "sparse": int64(len(sparse))}
	for _, name := range []string{"plain", "deleted", "sparse"} {
		b.Run(name, func(b *testing.B) {
			tb, _ := db.Lookup(name)
			b.SetBytes(rows * 8)
			for i := 0; i < b.N; i++ {
				op, _ := NewPlanScan(&plan.Scan{Table: tb, Ordinals: []int{0}, Cols: cs}, 1, 0)
				st, _ := op.Open(ctx, 0)
				var n int64
				for {
					r, err := st.Next()
					if err != nil {
						break
					}
					n += r.NumRows()
				}
				if want := int64(rows) - gone[name]; n != want {
					b.Fatalf("%d rows, want %d", n, want)
				}
			}
		})
	}
}
