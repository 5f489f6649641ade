package operators

import (
	"context"
	"fmt"
	"sort"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// A scan of segments read back from encoded files (dictionary, run-length
// and frame-of-reference columns, decoded lazily by storage) yields the
// rows written, with deleted rows left out, whatever the partitioning and
// batch size: slices, zero-copy runs and copies of live rows alike.
func TestScanEncodedSegments(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	defs := []storage.ColumnDef{{Name: "k", Type: types.Int8Type}, {Name: "g", Type: types.Int4Type},
		{Name: "s", Type: types.TextType}, {Name: "r", Type: types.Int4Type}}
	cs := cols(types.Int8Type, types.Int4Type, types.TextType, types.Int4Type)
	row := func(i int64) string {
		return fmt.Sprintf("%d|%d|%s|%d", i, i*7%1000, []string{"AIR", "MAIL", "SHIP"}[i%3], i/500)
	}
	db, err := storage.Open(dir, storage.Options{NoCompaction: true})
	if err != nil {
		t.Fatal(err)
	}
	tb, err := db.Create(ctx, "t", defs)
	if err != nil {
		t.Fatal(err)
	}
	const n = 20000
	var rows [][]types.Value
	for i := int64(0); i < n; i++ {
		rows = append(rows, []types.Value{types.IntValue(i), types.IntValue(i * 7 % 1000), types.TextValue([]string{"AIR", "MAIL", "SHIP"}[i%3]), types.IntValue(i / 500)})
	}
	if err := db.Append(ctx, tb, mkRecord(cs, rows)); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if db, err = storage.Open(dir, storage.Options{NoCompaction: true}); err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	// Delete a few rows of the first slices and most of a later range.
	tb, _ = db.Lookup("t")
	_, ids := scanKeys(t, tb, 1, 4096)
	live := map[int64]bool{}
	var del []storage.RowID
	for k := int64(0); k < n; k++ {
		if k%997 == 5 || (k >= 12000 && k < 15000 && k%5 != 0) {
			del = append(del, ids[k])
			continue
		}
		live[k] = true
	}
	txn := db.Begin()
	ttb, _ := txn.Lookup("t")
	if err := txn.Delete(ctx, ttb, del); err != nil {
		t.Fatal(err)
	}
	if err := txn.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	var want []string
	for k := range live {
		want = append(want, row(k))
	}
	sort.Strings(want)
	tb, _ = db.Lookup("t")
	for _, c := range []struct{ parts, size int }{{1, 4096}, {2, 1000}, {3, 333}} {
		recs, err := Collect(ctx, NewScanBatch(tb, []int{0, 1, 2, 3}, cs, c.parts, c.size))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range recs {
			k, g, s, rr := r.Column(0).(*array.Int64), r.Column(1).(*array.Int32), r.Column(2).(*array.String), r.Column(3).(*array.Int32)
			for i := 0; i < int(r.NumRows()); i++ {
				got = append(got, fmt.Sprintf("%d|%d|%s|%d", k.Value(i), g.Value(i), s.Value(i), rr.Value(i)))
			}
		}
		sort.Strings(got)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("%d partitions, batches of %d: %d rows, want %d", c.parts, c.size, len(got), len(want))
		}
	}
}
