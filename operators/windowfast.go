package operators

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/cockroachdb/apd/v3"
	"github.com/joind/joind/types"
)

// rankColumn computes row_number, rank, dense_rank, percent_rank and
// cume_dist straight into a typed column from the partition and peer
// structure (no boxed value per row); nil for any other function.
func rankColumn(f *windowFn, w *windowRows) arrow.Array {
	switch f.Name {
	case "row_number", "rank", "dense_rank":
		if f.result.ID != types.Int8 {
			return nil
		}
		v := make([]int64, w.n)
		for i := range v {
			switch f.Name {
			case "row_number":
				v[i] = int64(i - w.partLo[i] + 1)
			case "rank":
				v[i] = int64(w.peerLo[i] - w.partLo[i] + 1)
			default:
				v[i] = int64(w.group[i] + 1)
			}
		}
		b := array.NewInt64Builder(mem)
		b.AppendValues(v, nil)
		return b.NewArray()
	case "percent_rank", "cume_dist":
		if f.result.ID != types.Float8 {
			return nil
		}
		v := make([]float64, w.n)
		for i := range v {
			lo, hi := w.partLo[i], w.partHi[i]
			switch {
			case f.Name == "cume_dist":
				v[i] = float64(w.peerHi[i]-lo) / float64(hi-lo)
			case hi-lo > 1:
				v[i] = float64(w.peerLo[i]-lo) / float64(hi-lo-1)
			}
		}
		b := array.NewFloat64Builder(mem)
		b.AppendValues(v, nil)
		return b.NewArray()
	}
	return nil
}

// prefixColumn computes count, and sum or avg of an integer column, over
// every row's frame from int64 prefix sums read straight off the typed
// argument column (exact, so it serves every frame shape). nil, nil when
// the function is not one of those, has a FILTER, or a sum leaves int64's
// range (the boxed path, with exact big sums, runs then).
func (o *windowOp) prefixColumn(ctx context.Context, f *windowFn, w *windowRows, rec arrow.Record) (arrow.Array, error) {
	name := f.Agg.Name
	if (name != "count" && name != "sum" && name != "avg") || len(f.args) > 1 {
		return nil, nil
	}
	var arg arrow.Array
	if len(f.args) == 0 && f.filter != nil {
		// count(*) FILTER (WHERE p) counts the rows p passes: the count of
		// a column NULL where p does not pass.
		pass, err := f.filter.Eval(ctx, rec)
		if err != nil {
			return nil, err
		}
		b := newBuilder(types.BoolType, pass.Len())
		for i := 0; i < pass.Len(); i++ {
			if pass.IsNull(i) || types.GetValue(pass, types.BoolType, i).I == 0 {
				b.AppendNull()
			} else {
				types.AppendValue(b, types.BoolType, types.Value{I: 1})
			}
		}
		arg = b.NewArray()
	}
	if len(f.args) == 1 {
		a, err := f.args[0].Eval(ctx, rec)
		if err != nil {
			return nil, err
		}
		if arg, err = filteredArg(ctx, f, rec, a); err != nil {
			return nil, err
		}
	}
	var col intColumn
	if name != "count" {
		t := f.Agg.Args[0].ID
		ic, ok := newIntColumn(arg)
		if !ok || (t != types.Int2 && t != types.Int4 && t != types.Int8) {
			return nil, nil
		}
		col = ic
	} else if arg == nil && len(f.args) == 1 {
		return nil, nil
	}
	n := w.n
	cnt := make([]int64, n+1)
	var sum []int64
	if name != "count" {
		sum = make([]int64, n+1)
	}
	for i := 0; i < n; i++ {
		counted := arg == nil || arg.IsValid(i)
		cnt[i+1] = cnt[i]
		if counted {
			cnt[i+1]++
		}
		if sum != nil {
			s := sum[i]
			if counted {
				v := col.at(i)
				s += v
				if (v > 0 && s < sum[i]) || (v < 0 && s > sum[i]) {
					return nil, nil
				}
			}
			sum[i+1] = s
		}
	}
	fs, err := o.frames(ctx, f, w, rec)
	if err != nil {
		return nil, err
	}
	counts := make([]int64, n)
	var sums []int64
	if sum != nil {
		sums = make([]int64, n)
	}
	var buf []span
	for i := 0; i < n; i++ {
		buf = fs.spans(i, buf)
		var c, s int64
		for _, sp := range buf {
			c += cnt[sp.hi] - cnt[sp.lo]
			if sum != nil {
				d := sum[sp.hi] - sum[sp.lo]
				ns := s + d
				// A difference or the total past int64's range: the boxed path.
				if (d >= 0) != (sum[sp.hi] >= sum[sp.lo]) || (d > 0 && ns < s) || (d < 0 && ns > s) {
					return nil, nil
				}
				s = ns
			}
		}
		counts[i] = c
		if sums != nil {
			sums[i] = s
		}
	}
	if name == "count" || (name == "sum" && f.result.ID == types.Int8) {
		vals := counts
		if name == "sum" {
			vals = sums
		}
		b := array.NewInt64Builder(mem)
		b.Reserve(n)
		for i, v := range vals {
			if name == "sum" && counts[i] == 0 {
				b.AppendNull()
			} else {
				b.Append(v)
			}
		}
		return b.NewArray(), nil
	}
	b := newBuilder(f.result, n)
	for i := 0; i < n; i++ {
		if i%4096 == 0 {
			if err := checkCtx(ctx); err != nil {
				return nil, err
			}
		}
		if counts[i] == 0 {
			b.AppendNull()
			continue
		}
		d := apd.New(sums[i], 0)
		v := types.Value{Num: d}
		if name == "avg" {
			if v, err = types.AvgNumeric(d, counts[i]); err != nil {
				return nil, err
			}
		}
		types.AppendValue(b, f.result, v)
	}
	return b.NewArray(), nil
}

// filteredArg is an aggregate's argument column with the rows its FILTER
// does not pass made NULL: the strict aggregates the typed frame paths
// serve skip a NULL argument exactly as they skip a filtered-out row.
func filteredArg(ctx context.Context, f *windowFn, rec arrow.Record, arg arrow.Array) (arrow.Array, error) {
	if f.filter == nil {
		return arg, nil
	}
	pass, err := f.filter.Eval(ctx, rec)
	if err != nil {
		return nil, err
	}
	t := f.Agg.Args[0]
	b := newBuilder(t, arg.Len())
	for i := 0; i < arg.Len(); i++ {
		if pass.IsNull(i) || types.GetValue(pass, types.BoolType, i).I == 0 {
			b.AppendNull()
			continue
		}
		types.AppendValue(b, t, types.GetValue(arg, t, i))
	}
	return b.NewArray(), nil
}
