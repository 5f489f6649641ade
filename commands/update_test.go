package commands

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

func idRecord(ids ...int64) arrow.Record {
	b := array.NewInt64Builder(memory.DefaultAllocator)
	b.AppendValues(ids, nil)
	schema := arrow.NewSchema([]arrow.Field{{Name: "ctid", Type: arrow.PrimitiveTypes.Int64}}, nil)
	return array.NewRecord(schema, []arrow.Array{b.NewArray()}, int64(len(ids)))
}

func ids(recs []arrow.Record) []int64 {
	var out []int64
	for _, r := range recs {
		c := r.Column(0).(*array.Int64)
		for i := 0; i < c.Len(); i++ {
			out = append(out, c.Value(i))
		}
	}
	return out
}

// firstPerRowID keeps the first row of each RowID across batches, in
// order; keepRows cuts a batch into the runs it keeps.
func TestFirstPerRowID(t *testing.T) {
	for _, tc := range []struct {
		in   [][]int64
		want []int64
	}{
		{[][]int64{{1, 2, 3}}, []int64{1, 2, 3}},
		{[][]int64{{1, 1, 2, 2, 3}}, []int64{1, 2, 3}},
		{[][]int64{{5, 1, 5}, {1, 7, 5, 8}}, []int64{5, 1, 7, 8}},
		{[][]int64{{4, 4, 4}}, []int64{4}},
		{[][]int64{{}, {2}}, []int64{2}},
	} {
		var recs []arrow.Record
		for _, b := range tc.in {
			recs = append(recs, idRecord(b...))
		}
		out, err := firstPerRowID(recs)
		if err != nil {
			t.Fatal(err)
		}
		if got := ids(out); len(got) != len(tc.want) || func() bool {
			for i := range got {
				if got[i] != tc.want[i] {
					return true
				}
			}
			return false
		}() {
			t.Errorf("%v: got %v, want %v", tc.in, got, tc.want)
		}
	}
	r := idRecord(1, 2, 3, 4, 5)
	if got := ids(keepRows(r, []bool{false, true, true, false, true})); len(got) != 3 || got[0] != 2 || got[1] != 3 || got[2] != 5 {
		t.Errorf("keepRows: %v", got)
	}
	if out := keepRows(r, []bool{true, true, true, true, true}); len(out) != 1 || out[0] != r {
		t.Errorf("keepRows of every row is not the batch itself")
	}
	if out := keepRows(r, make([]bool, 5)); len(out) != 0 {
		t.Errorf("keepRows of no row: %d batches", len(out))
	}
}
