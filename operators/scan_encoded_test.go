package operators

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// A scan of segments read back from encoded files (dictionary, run-length
// and frame-of-reference columns, decoded lazily by storage) yields the
// rows written, with deleted rows left out, whatever the partitioning and
// batch size: slices, zero-copy runs and copies of live rows alike.
// encodedTable writes t(k int8, g int4, s text, r int4) of 20000 rows,
// reopens the data directory (so its segment is read from an encoded file)
// and deletes a few rows of the first slices and most of a later range; it
// returns the table, the row text of each live k, and the columns.
func encodedTable(t *testing.T) (storage.Table, map[int64]string, []plan.Column) {
	ctx := context.Background()
	dir := t.TempDir()
	defs := []storage.ColumnDef{{Name: "k", Type: types.Int8Type}, {Name: "g", Type: types.Int4Type},
		{Name: "s", Type: types.TextType}, {Name: "r", Type: types.Int4Type}}
	cs := cols(types.Int8Type, types.Int4Type, types.TextType, types.Int4Type)
	modes := []string{"AIR", "MAIL", "SHIP"}
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
		rows = append(rows, []types.Value{types.IntValue(i), types.IntValue(i * 7 % 1000), types.TextValue(modes[i%3]), types.IntValue(i / 500)})
	}
	if err := db.Append(ctx, tb, mkRecord(cs, rows)); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if db, err = storage.Open(dir, storage.Options{NoCompaction: true}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	tb, _ = db.Lookup("t")
	_, ids := scanKeys(t, tb, 1, 4096)
	live := map[int64]string{}
	var del []storage.RowID
	for k := int64(0); k < n; k++ {
		if k%997 == 5 || (k >= 12000 && k < 15000 && k%5 != 0) {
			del = append(del, ids[k])
			continue
		}
		live[k] = fmt.Sprintf("%d|%d|%s|%d", k, k*7%1000, modes[k%3], k/500)
	}
	txn := db.Begin()
	ttb, _ := txn.Lookup("t")
	if err := txn.Delete(ctx, ttb, del); err != nil {
		t.Fatal(err)
	}
	if err := txn.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	tb, _ = db.Lookup("t")
	return tb, live, cs
}

// scanText is the rows of a scan of encodedTable's four columns, sorted.
func scanText(t *testing.T, op Operator) []string {
	t.Helper()
	recs, err := Collect(context.Background(), op)
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
	return got
}

func TestScanEncodedSegments(t *testing.T) {
	tb, live, cs := encodedTable(t)
	var want []string
	for _, r := range live {
		want = append(want, r)
	}
	sort.Strings(want)
	for _, c := range []struct{ parts, size int }{{1, 4096}, {2, 1000}, {3, 333}} {
		got := scanText(t, NewScanBatch(tb, []int{0, 1, 2, 3}, cs, c.parts, c.size))
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("%d partitions, batches of %d: %d rows, want %d", c.parts, c.size, len(got), len(want))
		}
	}
}

// A scan given skip predicates on a dictionary-encoded text column keeps
// exactly the live rows that satisfy them (each distinct value compared
// once); a predicate on another column leaves the rows to the Filter.
func TestScanDictionaryFilter(t *testing.T) {
	tb, live, cs := encodedTable(t)
	call := func(op string, c plan.Column, v types.Value, constLeft bool) plan.Expr {
		ref, k := plan.Expr(&plan.ColRef{ID: c.ID, T: c.Type, Name: c.Name}), plan.Expr(&plan.Const{Val: v, T: c.Type})
		if constLeft {
			ref, k = k, ref
		}
		fn, err := types.ResolveOperator(op, c.Type, c.Type)
		if err != nil {
			t.Fatal(err)
		}
		return &plan.Call{Func: fn, Args: []plan.Expr{ref, k}}
	}
	for _, c := range []struct {
		skip []plan.Expr
		keep func(mode string, g int64) bool
	}{
		{[]plan.Expr{call("=", cs[2], types.TextValue("MAIL"), false)}, func(m string, _ int64) bool { return m == "MAIL" }},
		{[]plan.Expr{call(">=", cs[2], types.TextValue("MAIL"), false)}, func(m string, _ int64) bool { return m >= "MAIL" }},
		{[]plan.Expr{call("<", cs[2], types.TextValue("MAIL"), true)}, func(m string, _ int64) bool { return m > "MAIL" }},
		{[]plan.Expr{call("=", cs[2], types.TextValue("TRUCK"), false)}, func(string, int64) bool { return false }},
		// Only the text test is applied by the scan; g's is the Filter's.
		{[]plan.Expr{call("<>", cs[2], types.TextValue("AIR"), false), call("<", cs[1], types.IntValue(100), false),
			call("<=", cs[2], types.TextValue("SHIP"), false)}, func(m string, _ int64) bool { return m <= "SHIP" }},
	} {
		var want []string
		for _, r := range live {
			var k, g, rr int64
			var m string
			fmt.Sscanf(strings.ReplaceAll(r, "|", " "), "%d %d %s %d", &k, &g, &m, &rr)
			if c.keep(m, g) {
				want = append(want, r)
			}
		}
		sort.Strings(want)
		for _, p := range []struct{ parts, size int }{{1, 4096}, {2, 777}} {
			got := scanText(t, NewScanSkip(tb, []int{0, 1, 2, 3}, cs, p.parts, p.size, c.skip))
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("skip %v, %d partitions of %d: %d rows, want %d", c.skip, p.parts, p.size, len(got), len(want))
			}
		}
	}
}
