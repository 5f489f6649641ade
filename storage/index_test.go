package storage

import (
	"context"
	"fmt"
	"math/rand"
	"sort"
	"strconv"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/types"
)

var ixCols = []ColumnDef{{Name: "a", Type: types.Int4Type}, {Name: "s", Type: types.TextType}}

func ixRows(keys ...int64) arrow.Record {
	var rows [][]types.Value
	for _, k := range keys {
		r := []types.Value{types.IntValue(k), types.TextValue(string(rune('a' + k%26)))}
		if k < 0 {
			r = []types.Value{types.NullValue, types.NullValue}
		}
		rows = append(rows, r)
	}
	return rowsBatch(ixCols, rows)
}

func commitOK(t *testing.T, tx *Txn) {
	t.Helper()
	if err := tx.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
}

func wantCode(t *testing.T, err error, code string) {
	t.Helper()
	if pgerr.Code(err) != code {
		t.Fatalf("got %v (%s), want SQLSTATE %s", err, pgerr.Code(err), code)
	}
}

// lookedUp is the sorted key column of an index lookup's rows.
func lookedUp(t *testing.T, tb Table, d IndexDef, kr KeyRange) []int64 {
	t.Helper()
	ms, err := tb.(Indexed).IndexLookup(d, kr)
	if err != nil {
		t.Fatal(err)
	}
	var out []int64
	for _, m := range ms {
		for _, r := range m.Rows {
			out = append(out, types.GetValue(m.Record.Column(0), types.Int4Type, r).I)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

func TestIndexLookupAndPersistence(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db := open(t, dir)
	tx := db.Begin()
	tb, _ := tx.Create(ctx, "t", ixCols)
	if err := tx.Append(ctx, tb, ixRows(5, 1, 3, -1)); err != nil {
		t.Fatal(err)
	}
	commitOK(t, tx)
	tx = db.Begin()
	tb, _ = tx.Lookup("t")
	if err := tx.Append(ctx, tb, ixRows(3, 7, 2)); err != nil {
		t.Fatal(err)
	}
	d, err := tx.CreateIndex(ctx, tb, IndexDef{Name: "t_a_idx", Cols: []string{"a"}})
	if err != nil {
		t.Fatal(err)
	}
	// Pending rows and committed ones alike.
	if got := lookedUp(t, tb, d, EqualRange([]types.Value{types.IntValue(3)})); len(got) != 2 {
		t.Fatalf("a = 3: %v", got)
	}
	commitOK(t, tx)
	db.Close()

	db = open(t, dir)
	defer db.Close()
	tx = db.Begin()
	tb, _ = tx.Lookup("t")
	ds := IndexesOf(tb)
	if len(ds) != 1 || ds[0].Name != "t_a_idx" || ds[0].Method != MethodBtree {
		t.Fatalf("indexes after reopen: %+v", ds)
	}
	kr := KeyRange{Lo: []types.Value{types.IntValue(2)}, LoInclusive: true, Hi: []types.Value{types.IntValue(5)}}
	if got := lookedUp(t, tb, ds[0], kr); !equalInts(got, []int64{2, 3, 3}) {
		t.Fatalf("2 <= a < 5: %v", got)
	}
	if got := lookedUp(t, tb, ds[0], KeyRange{Lo: []types.Value{types.IntValue(5)}}); !equalInts(got, []int64{7}) {
		t.Fatalf("a > 5: %v", got)
	}
	if _, _, ok := tx.LookupIndex("t_a_idx"); !ok {
		t.Fatal("LookupIndex")
	}
	wantCode(t, tx.DropIndex(ctx, "nope"), pgerr.UndefinedObject)
	if _, err := tx.Create(ctx, "t_a_idx", ixCols); pgerr.Code(err) != pgerr.DuplicateTable {
		t.Fatalf("a table named like an index: %v", err)
	}
	if err := tx.RenameIndex(ctx, "t_a_idx", "t_x"); err != nil {
		t.Fatal(err)
	}
	if err := tx.DropIndex(ctx, "t_x"); err != nil {
		t.Fatal(err)
	}
	commitOK(t, tx)
	if ds := IndexesOf(mustLookup(t, db.Begin(), "t")); len(ds) != 0 {
		t.Fatalf("after drop: %+v", ds)
	}
}

func mustLookup(t *testing.T, tx *Txn, name string) Table {
	t.Helper()
	tb, ok := tx.Lookup(name)
	if !ok {
		t.Fatalf("no table %s", name)
	}
	return tb
}

func equalInts(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestUniqueIndex(t *testing.T) {
	ctx := context.Background()
	db := open(t, "")
	defer db.Close()
	tx := db.Begin()
	tb, _ := tx.Create(ctx, "u", ixCols)
	tx.Append(ctx, tb, ixRows(1, 2, 2, -1, -1))
	commitOK(t, tx)

	tx = db.Begin()
	tb = mustLookup(t, tx, "u")
	_, err := tx.CreateIndex(ctx, tb, IndexDef{Name: "u_a_key", Cols: []string{"a"}, Unique: true})
	wantCode(t, err, "23505")
	if e := err.(*pgerr.Error); e.Message != `could not create unique index "u_a_key"` || e.Detail != "Key (a)=(2) is duplicated." {
		t.Fatalf("%q / %q", e.Message, e.Detail)
	}
	tx.Rollback()

	tx = db.Begin()
	tb = mustLookup(t, tx, "u")
	if err := tx.Truncate(ctx, []Table{tb}); err != nil {
		t.Fatal(err)
	}
	tx.Append(ctx, tb, ixRows(1, 2, -1, -1))
	if _, err := tx.CreateIndex(ctx, tb, IndexDef{Name: "u_a_key", Cols: []string{"a"}, Unique: true}); err != nil {
		t.Fatal(err)
	}
	err = tx.Append(ctx, tb, ixRows(3, 2))
	wantCode(t, err, "23505")
	if e := err.(*pgerr.Error); e.Message != `duplicate key value violates unique constraint "u_a_key"` || e.Detail != "Key (a)=(2) already exists." {
		t.Fatalf("%q / %q", e.Message, e.Detail)
	}
	wantCode(t, tx.Append(ctx, tb, ixRows(4, 4)), "23505")
	if err := tx.Append(ctx, tb, ixRows(3, -1)); err != nil {
		t.Fatal(err)
	}
	commitOK(t, tx)

	// Two transactions adding the same key: the later commit fails.
	t1, t2 := db.Begin(), db.Begin()
	if err := t1.Append(ctx, mustLookup(t, t1, "u"), ixRows(10)); err != nil {
		t.Fatal(err)
	}
	if err := t2.Append(ctx, mustLookup(t, t2, "u"), ixRows(10)); err != nil {
		t.Fatal(err)
	}
	commitOK(t, t1)
	wantCode(t, t2.Commit(ctx), "23505")

	// A unique index created while another transaction adds a duplicate.
	t1, t2 = db.Begin(), db.Begin()
	tb1 := mustLookup(t, t1, "u")
	if _, err := t1.CreateIndex(ctx, tb1, IndexDef{Name: "u_s_key", Cols: []string{"s"}, Unique: true}); err != nil {
		t.Fatal(err)
	}
	if err := t2.Append(ctx, mustLookup(t, t2, "u"), ixRows(27)); err != nil { // s = 'b', as for a = 1
		t.Fatal(err)
	}
	commitOK(t, t2)
	wantCode(t, t1.Commit(ctx), "23505")

	// Two transactions creating indexes of one name.
	t1, t2 = db.Begin(), db.Begin()
	if _, err := t1.CreateIndex(ctx, mustLookup(t, t1, "u"), IndexDef{Name: "same", Cols: []string{"a"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := t2.CreateIndex(ctx, mustLookup(t, t2, "u"), IndexDef{Name: "same", Cols: []string{"s"}}); err != nil {
		t.Fatal(err)
	}
	commitOK(t, t1)
	if err := t2.Commit(ctx); err == nil {
		t.Fatal("second index of the same name committed")
	}
}

// TestIndexMatchesScan holds lookups to a scan of the same rows: random
// keys (NULLs and duplicates among them) over several segments and
// pending batches, random ranges, int and text keys.
func TestIndexMatchesScan(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewSource(1))
	cols := []ColumnDef{{Name: "i", Type: types.Int8Type}, {Name: "s", Type: types.TextType}}
	db := open(t, "")
	defer db.Close()
	tx := db.Begin()
	tb, _ := tx.Create(ctx, "r", cols)
	commitOK(t, tx)
	mk := func(n int) arrow.Record {
		var rows [][]types.Value
		for i := 0; i < n; i++ {
			r := []types.Value{types.IntValue(int64(rng.Intn(50))), types.TextValue(string(rune('a' + rng.Intn(20))))}
			if rng.Intn(10) == 0 {
				r[rng.Intn(2)] = types.NullValue
			}
			rows = append(rows, r)
		}
		return rowsBatch(cols, rows)
	}
	for seg := 0; seg < 4; seg++ {
		tx = db.Begin()
		tx.Append(ctx, mustLookup(t, tx, "r"), mk(200))
		commitOK(t, tx)
	}
	tx = db.Begin()
	tb = mustLookup(t, tx, "r")
	for i := 0; i < 5; i++ {
		tx.Append(ctx, tb, mk(1+rng.Intn(100)))
	}
	all := tb.Snapshot()
	for _, key := range [][]string{{"i"}, {"s"}, {"s", "i"}} {
		d := IndexDef{Name: "x", Cols: key}
		ords, _ := ColumnOrdinals(cols, key)
		typs := keyTypes(cols, ords)
		val := func(c int) types.Value {
			if typs[c].ID == types.Int8 {
				return types.IntValue(int64(rng.Intn(55)) - 2)
			}
			return types.TextValue(string(rune('a' + rng.Intn(22))))
		}
		for trial := 0; trial < 200; trial++ {
			var kr KeyRange
			if rng.Intn(3) > 0 {
				kr.Lo = []types.Value{val(0)}
				if len(ords) > 1 && rng.Intn(2) == 0 {
					kr.Lo = append(kr.Lo, val(1))
				}
				kr.LoInclusive = rng.Intn(2) == 0
			}
			if rng.Intn(3) > 0 {
				kr.Hi = []types.Value{val(0)}
				kr.HiInclusive = rng.Intn(2) == 0
			}
			if rng.Intn(4) == 0 && kr.Lo != nil {
				kr = EqualRange(kr.Lo)
			}
			want := 0
			for _, r := range all {
				for i := 0; i < int(r.NumRows()); i++ {
					// The index holds every row whose first key column is
					// not NULL, later NULLs ordered last.
					k := make([]types.Value, len(ords))
					for c, o := range ords {
						k[c] = types.GetValue(r.Column(o), typs[c], i)
					}
					if k[0].Null {
						continue
					}
					if kr.Lo != nil {
						if c := compareKeys(k, kr.Lo, typs); c < 0 || c == 0 && !kr.LoInclusive {
							continue
						}
					}
					if kr.Hi != nil {
						if c := compareKeys(k, kr.Hi, typs); c > 0 || c == 0 && !kr.HiInclusive {
							continue
						}
					}
					want++
				}
			}
			ms, err := tb.(Indexed).IndexLookup(d, kr)
			if err != nil {
				t.Fatal(err)
			}
			got := 0
			for _, m := range ms {
				got += len(m.Rows)
			}
			if got != want {
				t.Fatalf("key %v range %+v: index found %d rows, scan %d", key, kr, got, want)
			}
		}
	}
}

// BenchmarkIndexBuild measures building the sorted run of one key column:
// the work a lookup does the first time it meets a segment (and all a
// restart costs: runs are not persisted). Sizes are one table's rows.
func BenchmarkIndexBuild(b *testing.B) {
	for _, n := range []int{1_000_000, 10_000_000} {
		for _, typ := range []types.Type{types.Int8Type, types.TextType} {
			if typ.ID == types.Text && n > 1_000_000 {
				continue // text: see the 1M figure; 10M takes minutes of setup alone
			}
			cols := []ColumnDef{{Name: "k", Type: typ}}
			rng := rand.New(rand.NewSource(1))
			var recs []arrow.Record
			for done := 0; done < n; {
				m := min(n-done, 1<<20)
				rows := make([][]types.Value, m)
				for i := range rows {
					k := rng.Int63()
					if typ.ID == types.Text {
						rows[i] = []types.Value{types.TextValue(strconv.FormatInt(k, 36))}
					} else {
						rows[i] = []types.Value{types.IntValue(k)}
					}
				}
				recs = append(recs, rowsBatch(cols, rows))
				done += m
			}
			b.Run(fmt.Sprintf("%s/%dM", typ.PgTypeName(), n/1_000_000), func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					buildRun(recs, []int{0}, keyTypes(cols, []int{0}))
				}
			})
		}
	}
}

// TestIndexNamesAfterDrop: a transaction dropping a table may give its
// indexes' names to the indexes of a new table of the same name.
func TestIndexNamesAfterDrop(t *testing.T) {
	ctx := context.Background()
	db := open(t, "")
	defer db.Close()
	tx := db.Begin()
	tb, _ := tx.Create(ctx, "t", ixCols)
	if _, err := tx.CreateIndex(ctx, tb, IndexDef{Name: "t_a_idx", Cols: []string{"a"}}); err != nil {
		t.Fatal(err)
	}
	commitOK(t, tx)
	tx = db.Begin()
	if err := tx.Drop(ctx, "t"); err != nil {
		t.Fatal(err)
	}
	tb, err := tx.Create(ctx, "t", ixCols)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.CreateIndex(ctx, tb, IndexDef{Name: "t_a_idx", Cols: []string{"s"}}); err != nil {
		t.Fatal(err)
	}
	commitOK(t, tx)
	if ds := IndexesOf(mustLookup(t, db.Begin(), "t")); len(ds) != 1 || ds[0].Cols[0] != "s" {
		t.Fatalf("indexes: %+v", ds)
	}
}

// TestIndexDeletes: lookups and uniqueness see live rows only — rows
// deleted by a commit, by the transaction itself (committed and pending
// rows alike) — and a deleted row's key may be added again, in the same
// transaction or a later one.
func TestIndexDeletes(t *testing.T) {
	ctx := context.Background()
	db := open(t, "")
	defer db.Close()
	tx := db.Begin()
	tb, _ := tx.Create(ctx, "d", ixCols)
	tx.Append(ctx, tb, ixRows(1, 2, 3, 4, 5))
	d, err := tx.CreateIndex(ctx, tb, IndexDef{Name: "d_a_key", Cols: []string{"a"}, Unique: true})
	if err != nil {
		t.Fatal(err)
	}
	commitOK(t, tx)
	ids := func(tb Table, k int64) []RowID {
		ms, err := tb.(Indexed).IndexLookup(d, EqualRange([]types.Value{types.IntValue(k)}))
		if err != nil {
			t.Fatal(err)
		}
		var out []RowID
		for _, m := range ms {
			out = append(out, m.IDs...)
		}
		return out
	}
	// A committed delete.
	tx = db.Begin()
	tb = mustLookup(t, tx, "d")
	if err := tx.Delete(ctx, tb, ids(tb, 2)); err != nil {
		t.Fatal(err)
	}
	commitOK(t, tx)
	tx = db.Begin()
	tb = mustLookup(t, tx, "d")
	if got := ids(tb, 2); len(got) != 0 {
		t.Fatalf("a deleted row found: %v", got)
	}
	// UPDATE's shape: delete the row of key 3 and add key 3 again.
	if err := tx.Delete(ctx, tb, ids(tb, 3)); err != nil {
		t.Fatal(err)
	}
	if err := tx.Append(ctx, tb, ixRows(3, 2)); err != nil {
		t.Fatalf("re-adding deleted keys: %v", err)
	}
	// A pending row deleted in its transaction frees its key too.
	if err := tx.Delete(ctx, tb, ids(tb, 2)); err != nil {
		t.Fatal(err)
	}
	if got := ids(tb, 2); len(got) != 0 {
		t.Fatalf("a deleted pending row found: %v", got)
	}
	if err := tx.Append(ctx, tb, ixRows(2)); err != nil {
		t.Fatalf("re-adding a deleted pending key: %v", err)
	}
	wantCode(t, tx.Append(ctx, tb, ixRows(4)), "23505")
	commitOK(t, tx)
	tx = db.Begin()
	tb = mustLookup(t, tx, "d")
	for k := int64(1); k <= 5; k++ {
		if n := len(ids(tb, k)); n != 1 {
			t.Fatalf("key %d: %d rows", k, n)
		}
	}
	// A concurrent commit's delete does not let two rows of a key in.
	t1, t2 := db.Begin(), db.Begin()
	tb1, tb2 := mustLookup(t, t1, "d"), mustLookup(t, t2, "d")
	if err := t1.Delete(ctx, tb1, ids(tb1, 5)); err != nil {
		t.Fatal(err)
	}
	if err := t1.Append(ctx, tb1, ixRows(5)); err != nil {
		t.Fatal(err)
	}
	wantCode(t, t2.Append(ctx, tb2, ixRows(5)), "23505") // t2's snapshot has key 5
	if err := t2.Append(ctx, tb2, ixRows(6)); err != nil {
		t.Fatal(err)
	}
	commitOK(t, t1)
	commitOK(t, t2)
	tx = db.Begin()
	if n := len(ids(mustLookup(t, tx, "d"), 5)); n != 1 {
		t.Fatalf("key 5 after the concurrent commits: %d rows", n)
	}
}

func TestIndexColumnRenameAndDrop(t *testing.T) {
	ctx := context.Background()
	db := open(t, "")
	defer db.Close()
	tx := db.Begin()
	tb, _ := tx.Create(ctx, "r", ixCols)
	for _, d := range []IndexDef{{Name: "r_a", Cols: []string{"a"}}, {Name: "r_sa", Cols: []string{"s", "a"}}, {Name: "r_s", Cols: []string{"s"}}} {
		if _, err := tx.CreateIndex(ctx, tb, d); err != nil {
			t.Fatal(err)
		}
	}
	commitOK(t, tx)
	tx = db.Begin()
	tb = mustLookup(t, tx, "r")
	if err := tx.RenameIndexColumns(ctx, tb, map[string]string{"a": "z"}); err != nil {
		t.Fatal(err)
	}
	if err := tx.DropIndexesOn(ctx, tb, "s"); err != nil {
		t.Fatal(err)
	}
	commitOK(t, tx)
	ds := IndexesOf(mustLookup(t, db.Begin(), "r"))
	if len(ds) != 1 || ds[0].Name != "r_a" || ds[0].Cols[0] != "z" {
		t.Fatalf("indexes: %+v", ds)
	}
}
