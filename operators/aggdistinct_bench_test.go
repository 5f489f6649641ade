package operators

import (
	"context"
	"testing"

	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// BenchmarkDistinctAggregate times count(DISTINCT v) over 200k rows in 100
// groups, each with 1000 distinct values, through 2 partitions.
func BenchmarkDistinctAggregate(b *testing.B) {
	cs := cols(types.Int8Type, types.Int8Type)
	var rows [][]types.Value
	for i := 0; i < 200_000; i++ {
		rows = append(rows, []types.Value{{I: int64(i % 100)}, {I: int64(i % 100_000)}})
	}
	cnt, _ := types.ResolveAggregate("count", []types.Type{types.Int8Type}, false)
	calls := []plan.AggCall{{Func: cnt, Args: []plan.Expr{&plan.ColRef{ID: cs[1].ID, T: cs[1].Type}}, Distinct: true}}
	tab := newMemTable(cs, rows, 5)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		a, err := NewHashAggregate(NewScanBatch(tab, []int{0, 1}, cs, 2, 1024),
			[]plan.Expr{&plan.ColRef{ID: cs[0].ID, T: cs[0].Type}}, calls, cols(types.Int8Type, cnt.Result), &Env{})
		if err != nil {
			b.Fatal(err)
		}
		recs, err := Collect(context.Background(), a)
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		for _, r := range recs {
			n += int(r.NumRows())
		}
		if n != 100 {
			b.Fatalf("%d groups", n)
		}
	}
}
