package storage

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/types"
)

// dumpTable renders a table's rows as "v,v;v,v" (NULL as "-").
func dumpTable(t *testing.T, tb Table) string {
	t.Helper()
	var rows []string
	for _, r := range tb.Snapshot() {
		if int(r.NumCols()) != len(tb.Columns()) {
			t.Fatalf("batch has %d columns, table %d", r.NumCols(), len(tb.Columns()))
		}
		for i := 0; i < int(r.NumRows()); i++ {
			var vals []string
			for c, def := range tb.Columns() {
				v := types.GetValue(r.Column(c), def.Type, i)
				if v.Null {
					vals = append(vals, "-")
				} else {
					vals = append(vals, string(types.FormatText(nil, v, def.Type, nil)))
				}
			}
			rows = append(rows, strings.Join(vals, ","))
		}
	}
	return strings.Join(rows, ";")
}

func colNames(cols []ColumnDef) string {
	var out []string
	for _, c := range cols {
		out = append(out, fmt.Sprintf("%s#%d", c.Name, c.Attnum))
	}
	return strings.Join(out, " ")
}

func lookup(t *testing.T, txn *Txn, name string) Table {
	t.Helper()
	tb, ok := txn.Lookup(name)
	if !ok {
		t.Fatalf("no table %q", name)
	}
	if err := txn.Err(); err != nil {
		t.Fatal(err)
	}
	return tb
}

func commit(t *testing.T, txn *Txn) {
	t.Helper()
	if err := txn.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// TestAlterReopen: ADD COLUMN (metadata-only, its value missing from the
// older segments), DROP COLUMN (hidden), RENAME and a rewrite (ALTER TYPE)
// survive a restart, and the segments written in each definition read
// back in the latest one.
func TestAlterReopen(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db := open(t, dir)
	cols := []ColumnDef{{Name: "a", Type: types.Int4Type}, {Name: "b", Type: types.TextType}}
	txn := db.Begin()
	tb, err := txn.Create(ctx, "t", cols)
	if err != nil {
		t.Fatal(err)
	}
	if err := txn.Append(ctx, tb, rowsBatch(cols, [][]types.Value{{types.IntValue(1), types.TextValue("x")}})); err != nil {
		t.Fatal(err)
	}
	commit(t, txn)

	// ADD COLUMN c int8 DEFAULT 7, then DROP COLUMN b, in one transaction
	// that also inserts a row before the change.
	txn = db.Begin()
	tb = lookup(t, txn, "t")
	if err := txn.Append(ctx, tb, rowsBatch(tb.Columns(), [][]types.Value{{types.IntValue(2), types.NullValue}})); err != nil {
		t.Fatal(err)
	}
	seven := types.IntValue(7)
	added := append(append([]ColumnDef(nil), tb.Columns()...), ColumnDef{Name: "c", Type: types.Int8Type, Missing: &seven})
	if err := txn.Alter(ctx, tb, "t", added); err != nil {
		t.Fatal(err)
	}
	tb = lookup(t, txn, "t")
	if got, want := dumpTable(t, tb), "1,x,7;2,-,7"; got != want {
		t.Fatalf("after ADD COLUMN: %s, want %s", got, want)
	}
	c := tb.Columns()
	if err := txn.Alter(ctx, tb, "u", []ColumnDef{c[0], c[2]}); err != nil {
		t.Fatal(err)
	}
	if _, ok := txn.Lookup("t"); ok {
		t.Fatal("the old name still resolves in the transaction")
	}
	tb = lookup(t, txn, "u")
	if err := txn.Append(ctx, tb, rowsBatch(tb.Columns(), [][]types.Value{{types.IntValue(3), types.NullValue}})); err != nil {
		t.Fatal(err)
	}
	commit(t, txn)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	db = open(t, dir)
	txn = db.Begin()
	if _, ok := txn.Lookup("t"); ok {
		t.Fatal("table t survived its rename")
	}
	tb = lookup(t, txn, "u")
	if got, want := colNames(tb.Columns()), "a#1 c#3"; got != want {
		t.Fatalf("columns %s, want %s", got, want)
	}
	if got, want := colNames(tb.(Attributed).DroppedColumns()), "........pg.dropped.2........#2"; got != want {
		t.Fatalf("dropped %s, want %s", got, want)
	}
	if got, want := dumpTable(t, tb), "1,7;2,7;3,-"; got != want {
		t.Fatalf("after reopen: %s, want %s", got, want)
	}
	st := tb.Stats()
	if st.Rows != 3 || st.Nulls[1] != 1 {
		t.Fatalf("stats rows %d nulls %v, want 3 and [.. 1]", st.Rows, st.Nulls)
	}

	// ALTER COLUMN a TYPE int8: a rewrite.
	c = append([]ColumnDef(nil), tb.Columns()...)
	c[0].Type = types.Int8Type
	var vals [][]types.Value
	for _, r := range tb.Snapshot() {
		for i := 0; i < int(r.NumRows()); i++ {
			vals = append(vals, []types.Value{types.IntValue(types.GetValue(r.Column(0), types.Int4Type, i).I * 10), types.GetValue(r.Column(1), types.Int8Type, i)})
		}
	}
	if err := txn.Rewrite(ctx, tb, "u", c, []arrow.Record{rowsBatch(c, vals)}); err != nil {
		t.Fatal(err)
	}
	commit(t, txn)
	db.Close()

	db = open(t, dir)
	defer db.Close()
	txn = db.Begin()
	tb = lookup(t, txn, "u")
	if got, want := dumpTable(t, tb), "10,7;20,7;30,-"; got != want {
		t.Fatalf("after rewrite and reopen: %s, want %s", got, want)
	}
	if tb.Columns()[0].Type != types.Int8Type || tb.Columns()[0].Attnum != 1 {
		t.Fatalf("column a is %v", tb.Columns()[0])
	}
}

// TestAlterConflicts: a commit written against an older definition, or a
// rewrite racing a write, fails whole with 40001.
func TestAlterConflicts(t *testing.T) {
	ctx := context.Background()
	db := open(t, t.TempDir())
	defer db.Close()
	cols := []ColumnDef{{Name: "a", Type: types.Int4Type}}
	txn := db.Begin()
	if _, err := txn.Create(ctx, "t", cols); err != nil {
		t.Fatal(err)
	}
	commit(t, txn)

	writer := db.Begin()
	wt := lookup(t, writer, "t")
	if err := writer.Append(ctx, wt, rowsBatch(wt.Columns(), [][]types.Value{{types.IntValue(1)}})); err != nil {
		t.Fatal(err)
	}
	alter := db.Begin()
	at := lookup(t, alter, "t")
	if err := alter.Alter(ctx, at, "t", append(at.Columns(), ColumnDef{Name: "b", Type: types.TextType})); err != nil {
		t.Fatal(err)
	}
	commit(t, alter)
	if err := writer.Commit(ctx); pgerr.As(err) == nil || pgerr.As(err).Code != codeSerialization {
		t.Fatalf("append in the old definition committed: %v", err)
	}

	rw := db.Begin()
	rt := lookup(t, rw, "t")
	ins := db.Begin()
	it := lookup(t, ins, "t")
	if err := ins.Append(ctx, it, rowsBatch(it.Columns(), [][]types.Value{{types.IntValue(2), types.NullValue}})); err != nil {
		t.Fatal(err)
	}
	commit(t, ins)
	if err := rw.Rewrite(ctx, rt, "t", rt.Columns(), nil); err != nil {
		t.Fatal(err)
	}
	if err := rw.Commit(ctx); pgerr.As(err) == nil || pgerr.As(err).Code != codeSerialization {
		t.Fatalf("a rewrite lost a concurrent insert: %v", err)
	}
	txn = db.Begin()
	if got := dumpTable(t, lookup(t, txn, "t")); got != "2,-" {
		t.Fatalf("rows %s, want 2,-", got)
	}
}
