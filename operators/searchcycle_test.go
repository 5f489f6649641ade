package operators

import (
	"testing"

	"github.com/cockroachdb/apd/v3"

	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// TestSearchCycleRealRecords runs searchCycle.extend over a numeric
// column: the breadth-first sequence is the record (depth, n) with the
// depth counting up, the path a record[] keeping each value's text, and a
// row whose n equals (record_eq: 1.50 = 1.5) one on its path is marked.
func TestSearchCycleRealRecords(t *testing.T) {
	num := types.Type{ID: types.Numeric, Typmod: -1}
	unnamed := func(ts ...types.Type) types.Type {
		return types.RecordOf(types.RecordDesc{Fields: make([]string, len(ts)), Types: ts})
	}
	seqT, pathT := unnamed(types.Int8Type, num), types.ArrayOf(unnamed(num))
	colT := []types.Type{num, seqT, types.BoolType, pathT}
	spec := &plan.SearchCycle{Base: 1, Search: true, BreadthFirst: true, SearchCols: []int{0}, Cycle: true, CycleCols: []int{0},
		MarkType: types.BoolType, MarkValue: types.BoolValue(true), MarkDefault: types.BoolValue(false)}
	sc, err := newSearchCycle(spec, colT, nil)
	if err != nil {
		t.Fatal(err)
	}
	n := func(s string) types.Value {
		d, _, _ := apd.NewFromString(s)
		return types.Value{Num: d}
	}
	out := cols(colT...)
	schema := schemaOf(out)
	first, err := sc.extend(mkRecord(cols(num), [][]types.Value{{n("1.5")}}), false, schema)
	if err != nil {
		t.Fatal(err)
	}
	text := func(v types.Value, t types.Type) string { return string(types.FormatText(nil, v, t, nil)) }
	seq0, path0 := types.GetValue(first.Column(1), seqT, 0), types.GetValue(first.Column(3), pathT, 0)
	if got := text(seq0, seqT) + " " + text(path0, pathT); got != "(0,1.5) {(1.5)}" {
		t.Fatalf("non-recursive row: %s", got)
	}
	// The recursive term's rows: n, then the carried sequence and path.
	in := mkRecord(cols(num, seqT, pathT), [][]types.Value{{n("1.50"), seq0, path0}, {n("2"), seq0, path0}})
	next, err := sc.extend(in, true, schema)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{"(1,1.50) t {(1.5),(1.50)}", "(1,2) f {(1.5),(2)}"} {
		got := text(types.GetValue(next.Column(1), seqT, i), seqT) + " " +
			text(types.GetValue(next.Column(2), types.BoolType, i), types.BoolType) + " " +
			text(types.GetValue(next.Column(3), pathT, i), pathT)
		if got != want {
			t.Errorf("recursive row %d: %s, want %s", i, got, want)
		}
	}
	if w := sc.workRows(next); w == nil || w.NumRows() != 1 {
		t.Fatalf("the marked row entered the working table")
	}
}
