package operators

import (
	"context"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// BenchmarkWindowSliding times 100-row sliding frames (ROWS BETWEEN 99
// PRECEDING AND CURRENT ROW) over 1M rows in t order, as peerbench's
// window_sliding_* workloads: avg of an int, sum of a numeric, min of an
// int, sum of a float8.
func BenchmarkWindowSliding(b *testing.B) {
	const n = 1_000_000
	cs := cols(types.Int8Type, types.Int4Type, types.NumericType, types.Float8Type)
	rows := make([][]types.Value, n)
	for g := range rows {
		x := int64(g*37) % 101
		nv, err := types.ParseText(types.NumericString(types.NumericFromScaled(x*25, 2)), types.NumericType)
		if err != nil {
			b.Fatal(err)
		}
		rows[g] = []types.Value{I(int64(g)), I(x), nv, F(float64(x) / 7)}
	}
	in := &recordOp{cs: cs, rec: mkRecord(cs, rows)}
	ref := func(c plan.Column) *plan.ColRef { return &plan.ColRef{ID: c.ID, T: c.Type, Name: c.Name} }
	fr := plan.Frame{Mode: plan.FrameRows, Start: plan.FrameBound{Kind: plan.OffsetPreceding, Offset: &plan.Const{Val: I(99), T: types.Int8Type}},
		End: plan.FrameBound{Kind: plan.CurrentRow}}
	for _, c := range []struct {
		name string
		agg  string
		arg  plan.Column
	}{{"avg_int", "avg", cs[1]}, {"sum_numeric", "sum", cs[2]}, {"min_int", "min", cs[1]}, {"sum_float8", "sum", cs[3]}} {
		b.Run(c.name, func(b *testing.B) {
			ov, err := types.ResolveAggregate(c.agg, []types.Type{c.arg.Type}, false)
			if err != nil {
				b.Fatal(err)
			}
			w := &plan.Window{OrderBy: []plan.SortKey{{Expr: ref(cs[0])}},
				Funcs: []plan.WindowFunc{{Agg: ov, Args: []plan.Expr{ref(c.arg)}, Frame: fr}}}
			w.Cols = append(append([]plan.Column(nil), cs...), plan.Column{ID: 10, Name: c.name, Type: ov.Result})
			b.ResetTimer()
			cpu0 := cpuNanos()
			for i := 0; i < b.N; i++ {
				op, err := NewWindow(in, w, 1, true, nil)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := Collect(b.Context(), op); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/row")
			b.ReportMetric(float64(cpuNanos()-cpu0)/float64(b.N)/n, "cpu-ns/row")
		})
	}
}

// recordOp is one record, in order, as a one-partition operator.
type recordOp struct {
	cs  []plan.Column
	rec arrow.Record
}

func (r *recordOp) Columns() []plan.Column { return r.cs }
func (r *recordOp) Partitions() int        { return 1 }
func (r *recordOp) Open(context.Context, int) (Stream, error) {
	return &recordStream{rec: r.rec}, nil
}

type recordStream struct{ rec arrow.Record }

func (s *recordStream) Next() (arrow.Record, error) {
	r := s.rec
	s.rec = nil
	return r, nil
}
func (s *recordStream) Close() error { return nil }
