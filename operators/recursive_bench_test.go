package operators

import (
	"context"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// BenchmarkRecursiveOneRowIterations is peerbench's rec_count_100k
// (SELECT n + 1 FROM t WHERE n < N) at N = 10,000: one row per iteration,
// so it measures the fixed cost of an iteration of the recursive term
// (reopening its operators, filtering and projecting a one-row batch).
func BenchmarkRecursiveOneRowIterations(b *testing.B) {
	const iterations = 10000
	cs := cols(types.Int4Type)
	lt, err := types.ResolveOperator("<", types.Int4Type, types.Int4Type)
	if err != nil {
		b.Fatal(err)
	}
	plus, err := types.ResolveOperator("+", types.Int4Type, types.Int4Type)
	if err != nil {
		b.Fatal(err)
	}
	n := col(1, types.Int4Type)
	env := &Env{}
	wt := &WorkTable{}
	scan := NewWorkTableScan(wt, cs)
	filtered, err := NewFilter(scan, call(lt, n, cst(types.Value{I: iterations}, types.Int4Type)), env)
	if err != nil {
		b.Fatal(err)
	}
	term, err := NewProject(filtered, []plan.Expr{call(plus, n, cst(types.Value{I: 1}, types.Int4Type))}, cs, env)
	if err != nil {
		b.Fatal(err)
	}
	start := mkRecord(cs, [][]types.Value{{I(1)}})
	op, err := NewRecursiveUnion(NewRecordsScan([]arrow.Record{start}, cs), func() (Operator, error) { return term, nil }, wt, true, cs, nil, env)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		rows := 0
		st, err := op.Open(context.Background(), 0)
		if err != nil {
			b.Fatal(err)
		}
		if err := EachBatch(st, func(rec arrow.Record) error {
			rows += int(rec.NumRows())
			return nil
		}); err != nil {
			b.Fatal(err)
		}
		st.Close()
		if rows != iterations {
			b.Fatalf("%d rows, want %d", rows, iterations)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/iterations, "ns/iteration")
}
