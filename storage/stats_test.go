package storage

import (
	"context"
	"strings"
	"testing"

	"github.com/joind/joind/types"
)

// A table's bounds are its segments' merged; a segment whose values kept no
// bounds (a long string) leaves the table's unknown, an all-NULL one does not.
func TestTableBoundsMergeSegments(t *testing.T) {
	ctx := context.Background()
	db := open(t, t.TempDir())
	defer db.Close()
	cols := []ColumnDef{{Name: "k", Type: types.Int4Type}, {Name: "s", Type: types.TextType}}
	tb, err := db.Create(ctx, "b", cols)
	if err != nil {
		t.Fatal(err)
	}
	i := func(v int64) types.Value { return types.Value{I: v} }
	s := func(v string) types.Value { return types.Value{S: v} }
	null := types.Value{Null: true}
	for _, rows := range [][][]types.Value{
		{{i(5), s("m")}, {i(7), null}},
		{{i(-3), null}, {null, null}},
		{{i(2), s(strings.Repeat("z", MaxStatBytes+1))}},
	} {
		if err := db.Append(ctx, tb, rowsBatch(cols, rows)); err != nil {
			t.Fatal(err)
		}
	}
	tb, _ = db.Lookup("b")
	st := tb.Stats()
	if st.Rows != 5 || st.Nulls[0] != 1 || st.Nulls[1] != 3 {
		t.Fatalf("stats %+v", st)
	}
	if k := st.Bounds[0]; !k.HasMinMax || k.Min.I != -3 || k.Max.I != 7 {
		t.Fatalf("int bounds %+v", k)
	}
	if st.Bounds[1].HasMinMax {
		t.Fatalf("text bounds kept over a segment without them: %+v", st.Bounds[1])
	}
}
