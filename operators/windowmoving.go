package operators

import (
	"context"
	"math"
	"math/big"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/cockroachdb/apd/v3"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// Moving frames for the aggregates whose result PostgreSQL's inverse
// transition makes a function of the frame's rows alone (numeric sum/avg,
// bool_and/bool_or), and a typed per-row restart for the float ones it has
// no inverse for.
//
// numeric: numeric_accum_inv is exact (numeric addition is), and the
// result's display scale is the largest display scale of the finite values
// now in the frame: PostgreSQL tracks maxScale/maxScaleCount and restarts
// the aggregate when the last value of that scale leaves, so a restart and a
// removal answer alike. Here the sum of any set of row ranges is a
// difference of int64 prefix sums at the input's largest scale, rescaled
// down to the frame's own largest scale (a max segment tree over the rows'
// scales when they differ); NaN and ±Infinity are prefix counts
// (PostgreSQL 15's NaNcount/pInfcount/nInfcount). Values past int64 at that
// common scale fall back to recomputing each frame.
//
// var/stddev of integers and numeric: numeric_accum_inv keeps N, sumX and
// sumX2 exactly (with the same maxScale restart), so a frame's result is
// numeric_stddev_internal over prefix-sum differences of x and of x*x.
//
// interval: interval_accum_inv is exact too (component-wise integer
// subtraction), so a frame's sum is a difference of prefix sums of months,
// days and microseconds. PostgreSQL raises "interval out of range" when its
// running sum overflows; when no sum of the partition's values can
// overflow (checked up front) neither errs, otherwise each frame is
// recomputed the way PostgreSQL adds it.
//
// float4/float8 sum and avg: pg_aggregate has no aggminvtransfn for them,
// so PostgreSQL restarts the aggregate whenever the frame head moves and
// adds the frame's rows left to right; the last digits of a float sum
// depend on that order (a Kahan or segment-tree sum differs), so each frame
// is summed again, in row order, over the float64 values themselves.

// movingColumn computes f's column for the aggregates above; nil, nil when
// f is not one of them (or its values do not fit the fast form).
func (o *windowOp) movingColumn(ctx context.Context, f *windowFn, w *windowRows, rec arrow.Record) (arrow.Array, error) {
	if f.Agg == nil || len(f.args) != 1 || len(f.Agg.Args) != 1 {
		return nil, nil
	}
	name, at := f.Agg.Name, f.Agg.Args[0].ID
	switch {
	case (name == "sum" || name == "avg") && at == types.Numeric:
	case (name == "sum" || name == "avg") && (at == types.Float8 || at == types.Float4):
	case (name == "sum" || name == "avg") && at == types.Interval:
	case types.IsVarianceAggregate(name) && (at == types.Numeric || at == types.Int2 || at == types.Int4 || at == types.Int8):
		return o.varianceFrames(ctx, f, w, rec)
	case (name == "bool_and" || name == "bool_or" || name == "every") && at == types.Bool:
	default:
		return nil, nil
	}
	arg, err := f.args[0].Eval(ctx, rec)
	if err != nil {
		return nil, err
	}
	if arg, err = filteredArg(ctx, f, rec, arg); err != nil { // windowfast.go
		return nil, err
	}
	switch at {
	case types.Numeric:
		ns := newNumericPrefix(arg, f.Agg.Args[0])
		if ns == nil {
			return nil, nil
		}
		fs, err := o.frames(ctx, f, w, rec)
		if err != nil {
			return nil, err
		}
		return ns.column(ctx, f, fs)
	case types.Bool:
		return boolFrames(ctx, f, w, o, rec, arg)
	case types.Interval:
		ip := newIntervalPrefix(arg)
		if ip == nil {
			return nil, nil
		}
		fs, err := o.frames(ctx, f, w, rec)
		if err != nil {
			return nil, err
		}
		return ip.column(ctx, f, fs)
	}
	vals, ok := floatValues(arg)
	if !ok {
		return nil, nil
	}
	fs, err := o.frames(ctx, f, w, rec)
	if err != nil {
		return nil, err
	}
	return floatFrames(ctx, f, w, fs, arg, vals, at == types.Float4 && name == "sum") // avg(float4) adds in float8
}

// floatValues reads a float8 or float4 column as float64s.
func floatValues(a arrow.Array) ([]float64, bool) {
	switch t := a.(type) {
	case *array.Float64:
		return t.Float64Values(), true
	case *array.Float32:
		v32 := t.Float32Values()
		v := make([]float64, len(v32))
		for i, x := range v32 {
			v[i] = float64(x)
		}
		return v, true
	}
	return nil, false
}

// floatSum adds the non-NULL rows of spans left to right as sum (float8pl,
// float4pl: from the first value) or avg (float8_accum: from 0) does; it
// is types' float sum accumulator over unboxed values, overflow included.
type floatSum struct {
	sum    float64
	n      int64
	f4     bool
	avg    bool
	infs   bool
	vals   []float64
	arr    arrow.Array
	noNull bool
}

func (s *floatSum) reset() { s.sum, s.n, s.infs = 0, 0, false }

func (s *floatSum) add(lo, hi int) error {
	for j := lo; j < hi; j++ {
		if !s.noNull && s.arr.IsNull(j) {
			continue
		}
		x := s.vals[j]
		s.n++
		switch {
		case s.n == 1 && !s.avg:
			s.sum = x
		case s.f4:
			s.sum = float64(float32(s.sum) + float32(x))
		default:
			s.sum += x
		}
		if math.IsInf(s.sum, 0) && !math.IsInf(x, 0) && !s.infs {
			return pgerr.New(pgerr.NumericValueOutOfRange, "value out of range: overflow")
		}
		if math.IsInf(x, 0) {
			s.infs = true
		}
	}
	return nil
}

// floatFrames sums every row's frame again in row order (see above); a
// frame that grows from its partition's start extends one running sum,
// which adds the same values in the same order.
func floatFrames(ctx context.Context, f *windowFn, w *windowRows, fs *frameSet, arr arrow.Array, vals []float64, f4 bool) (arrow.Array, error) {
	s := &floatSum{f4: f4, avg: f.Agg.Name == "avg", vals: vals, arr: arr, noNull: arr.NullN() == 0}
	out := make([]float64, w.n)
	valid := make([]bool, w.n)
	running := f.Frame.Start.Kind == plan.UnboundedPreceding && f.Frame.Exclude == plan.ExcludeNoOthers
	var buf []span
	added := 0
	for i := 0; i < w.n; i++ {
		if i%4096 == 0 {
			if err := checkCtx(ctx); err != nil {
				return nil, err
			}
		}
		if running {
			if i == w.partLo[i] {
				s.reset()
				added = i
			}
			e := max(fs.end[i], added)
			if err := s.add(added, e); err != nil {
				return nil, err
			}
			added = e
		} else {
			s.reset()
			buf = fs.spans(i, buf)
			for _, sp := range buf {
				if err := s.add(sp.lo, sp.hi); err != nil {
					return nil, err
				}
			}
		}
		if s.n == 0 {
			continue
		}
		valid[i] = true
		out[i] = s.sum
		if s.avg {
			out[i] = s.sum / float64(s.n)
		}
	}
	if f.result.ID == types.Float4 {
		b := array.NewFloat32Builder(mem)
		b.Reserve(w.n)
		for i, v := range out {
			if valid[i] {
				b.Append(float32(v))
			} else {
				b.AppendNull()
			}
		}
		return b.NewArray(), nil
	}
	b := array.NewFloat64Builder(mem)
	b.AppendValues(out, valid)
	return b.NewArray(), nil
}

// numericPrefix holds a numeric column's prefix sums at its largest display
// scale, its rows' scales, and prefix counts of its non-NULL, NaN and
// infinite values.
type numericPrefix struct {
	scale            int     // the common scale of sum
	sum              []int64 // sum[i]: rows < i at scale
	cnt              []int32 // non-NULL rows < i
	nan, pinf, ninf  []int32 // nil when the column has none
	scales           *maxTree
	uniform, anyFini bool
}

// newNumericPrefix reads arr (a numeric column in any of its forms); nil
// when a finite value does not fit an int64 at the column's largest scale.
func newNumericPrefix(arr arrow.Array, t types.Type) *numericPrefix {
	n := arr.Len()
	ms := make([]int64, n)
	sc := make([]int8, n) // -1: NULL or not finite
	kind := make([]uint8, n)
	const (
		kNull = iota
		kFinite
		kNaN
		kPInf
		kNInf
	)
	var dec64 []int64
	d64scale := 0
	if a, ok := arr.(*array.Decimal64); ok {
		dec64 = int64s(a.Values())
		d64scale = int(a.DataType().(*arrow.Decimal64Type).Scale)
	}
	bin, _ := arr.(*array.Binary)
	specials := false
	maxScale := -1
	for i := 0; i < n; i++ {
		sc[i] = -1
		if arr.IsNull(i) {
			continue
		}
		var m int64
		s := 0
		ok := false
		switch {
		case dec64 != nil && dec64[i] != types.Dec64NaN:
			m, s, ok = dec64[i], d64scale, true
		case bin != nil:
			m, s, ok = types.NumBinScaled(bin.Value(i))
		}
		if !ok {
			d := types.GetValue(arr, t, i).Num
			switch {
			case d.Form == apd.NaN || d.Form == apd.NaNSignaling:
				kind[i], specials = kNaN, true
				continue
			case d.Form == apd.Infinite && d.Negative:
				kind[i], specials = kNInf, true
				continue
			case d.Form == apd.Infinite:
				kind[i], specials = kPInf, true
				continue
			}
			if m, s, ok = types.NumericScaled(d); !ok {
				return nil
			}
		}
		if s > 18 {
			return nil
		}
		kind[i], ms[i], sc[i] = kFinite, m, int8(s)
		maxScale = max(maxScale, s)
	}
	p := &numericPrefix{scale: max(maxScale, 0), sum: make([]int64, n+1), cnt: make([]int32, n+1), uniform: true, anyFini: maxScale >= 0}
	if specials {
		p.nan, p.pinf, p.ninf = make([]int32, n+1), make([]int32, n+1), make([]int32, n+1)
	}
	for i := 0; i < n; i++ {
		p.cnt[i+1] = p.cnt[i]
		if kind[i] != kNull {
			p.cnt[i+1]++
		}
		if specials {
			p.nan[i+1], p.pinf[i+1], p.ninf[i+1] = p.nan[i], p.pinf[i], p.ninf[i]
			switch kind[i] {
			case kNaN:
				p.nan[i+1]++
			case kPInf:
				p.pinf[i+1]++
			case kNInf:
				p.ninf[i+1]++
			}
		}
		s := p.sum[i]
		if kind[i] == kFinite {
			if int(sc[i]) != p.scale {
				p.uniform = false
			}
			v, ok := types.RescaleUp(ms[i], p.scale-int(sc[i]))
			r := s + v
			if !ok || (v > 0 && r < s) || (v < 0 && r > s) {
				return nil
			}
			s = r
		}
		p.sum[i+1] = s
	}
	if !p.uniform {
		p.scales = newMaxTree(sc)
	}
	return p
}

func (p *numericPrefix) count(c []int32, spans []span) int64 {
	var k int64
	for _, s := range spans {
		k += int64(c[s.hi] - c[s.lo])
	}
	return k
}

// frameSum is the sum of the finite values of spans at the frame's display
// scale.
func (p *numericPrefix) frameSum(spans []span) *apd.Decimal {
	sc := p.scale
	if !p.uniform {
		sc = max(int(p.scales.query(spans)), 0)
	}
	var s int64
	exact := true
	for _, sp := range spans {
		d := p.sum[sp.hi] - p.sum[sp.lo]
		r := s + d
		if (d >= 0) != (p.sum[sp.hi] >= p.sum[sp.lo]) || (d > 0 && r < s) || (d < 0 && r > s) {
			exact = false
			break
		}
		s = r
	}
	if !exact { // the frame's sum leaves int64: add it exactly
		b := new(big.Int)
		for _, sp := range spans {
			b.Add(b, big.NewInt(p.sum[sp.hi]))
			b.Sub(b, big.NewInt(p.sum[sp.lo]))
		}
		b.Quo(b, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(p.scale-sc)), nil))
		d := new(apd.Decimal)
		d.Coeff.SetMathBigInt(b)
		if b.Sign() < 0 {
			d.Coeff.Neg(&d.Coeff)
			d.Negative = true
		}
		d.Exponent = -int32(sc)
		return d
	}
	// Every finite value of the frame has scale ≤ sc: the division is exact.
	return types.NumericFromScaled(s/types.Pow10[p.scale-sc], sc)
}

func (p *numericPrefix) column(ctx context.Context, f *windowFn, fs *frameSet) (arrow.Array, error) {
	avg := f.Agg.Name == "avg"
	return frameColumn(ctx, f, fs, func(buf []span) (types.Value, error) {
		total := p.count(p.cnt, buf)
		if total == 0 {
			return types.NullValue, nil
		}
		var sum *apd.Decimal
		if p.nan != nil {
			nan, pinf, ninf := p.count(p.nan, buf), p.count(p.pinf, buf), p.count(p.ninf, buf)
			switch {
			case nan > 0 || (pinf > 0 && ninf > 0):
				sum = &apd.Decimal{Form: apd.NaN}
			case pinf > 0:
				sum = &apd.Decimal{Form: apd.Infinite}
			case ninf > 0:
				sum = &apd.Decimal{Form: apd.Infinite, Negative: true}
			}
		}
		if sum == nil {
			sum = p.frameSum(buf)
		}
		if avg {
			return types.AvgNumeric(sum, total)
		}
		return types.Value{Num: sum}, nil
	})
}

// frameColumn is f's result column: value of each row's frame spans.
func frameColumn(ctx context.Context, f *windowFn, fs *frameSet, value func(spans []span) (types.Value, error)) (arrow.Array, error) {
	n := len(fs.start)
	b := newBuilder(f.result, n)
	var buf []span
	for i := 0; i < n; i++ {
		if i%4096 == 0 {
			if err := checkCtx(ctx); err != nil {
				return nil, err
			}
		}
		buf = fs.spans(i, buf)
		v, err := value(buf)
		if err != nil {
			return nil, err
		}
		types.AppendValue(b, f.result, v)
	}
	return b.NewArray(), nil
}

// maxTree is a segment tree of the maximum of small integers over rows.
type maxTree struct {
	size int
	node []int8
}

func newMaxTree(v []int8) *maxTree {
	size := 1
	for size < len(v) {
		size <<= 1
	}
	t := &maxTree{size: size, node: make([]int8, 2*size)}
	for i := range t.node[:size] {
		t.node[i] = -1
	}
	for i := size + len(v); i < 2*size; i++ {
		t.node[i] = -1
	}
	copy(t.node[size:], v)
	for i := size - 1; i >= 1; i-- {
		t.node[i] = max(t.node[2*i], t.node[2*i+1])
	}
	return t
}

func (t *maxTree) query(spans []span) int8 {
	r := int8(-1)
	for _, s := range spans {
		l, h := s.lo+t.size, s.hi+t.size
		for l < h {
			if l&1 == 1 {
				r = max(r, t.node[l])
				l++
			}
			if h&1 == 1 {
				h--
				r = max(r, t.node[h])
			}
			l >>= 1
			h >>= 1
		}
	}
	return r
}

// boolFrames is bool_and/every and bool_or from prefix counts of true and
// false values (bool_accum_inv keeps those two counts).
func boolFrames(ctx context.Context, f *windowFn, w *windowRows, o *windowOp, rec arrow.Record, arr arrow.Array) (arrow.Array, error) {
	ba, ok := arr.(*array.Boolean)
	if !ok {
		return nil, nil
	}
	fs, err := o.frames(ctx, f, w, rec)
	if err != nil {
		return nil, err
	}
	n := w.n
	trues, falses := make([]int32, n+1), make([]int32, n+1)
	for i := 0; i < n; i++ {
		trues[i+1], falses[i+1] = trues[i], falses[i]
		switch {
		case ba.IsNull(i):
		case ba.Value(i):
			trues[i+1]++
		default:
			falses[i+1]++
		}
	}
	and := f.Agg.Name != "bool_or"
	b := array.NewBooleanBuilder(mem)
	b.Reserve(n)
	var buf []span
	for i := 0; i < n; i++ {
		buf = fs.spans(i, buf)
		var t, fa int32
		for _, s := range buf {
			t += trues[s.hi] - trues[s.lo]
			fa += falses[s.hi] - falses[s.lo]
		}
		switch {
		case t+fa == 0:
			b.AppendNull()
		case and:
			b.Append(fa == 0)
		default:
			b.Append(t > 0)
		}
	}
	return b.NewArray(), nil
}

// intervalPrefix is prefix sums of an interval column's components and of
// its non-NULL count.
type intervalPrefix struct {
	months, days, micros, cnt []int64
}

// newIntervalPrefix reads arr; nil when some sum of its values could
// overflow an interval's fields.
func newIntervalPrefix(arr arrow.Array) *intervalPrefix {
	n := arr.Len()
	p := &intervalPrefix{months: make([]int64, n+1), days: make([]int64, n+1), micros: make([]int64, n+1), cnt: make([]int64, n+1)}
	var maxMonths, maxDays, maxMicros uint64
	abs := func(v int64) uint64 {
		if v < 0 {
			return uint64(-v)
		}
		return uint64(v)
	}
	for i := 0; i < n; i++ {
		p.months[i+1], p.days[i+1], p.micros[i+1], p.cnt[i+1] = p.months[i], p.days[i], p.micros[i], p.cnt[i]
		if arr.IsNull(i) {
			continue
		}
		iv := types.GetValue(arr, types.IntervalType, i).Iv
		maxMonths, maxDays = max(maxMonths, abs(int64(iv.Months))), max(maxDays, abs(int64(iv.Days)))
		maxMicros = max(maxMicros, abs(iv.Micros))
		p.months[i+1] += int64(iv.Months)
		p.days[i+1] += int64(iv.Days)
		p.micros[i+1] += iv.Micros // cannot wrap once the bound below holds
		p.cnt[i+1]++
	}
	rows := uint64(max(n, 1))
	if maxMonths > math.MaxInt32/rows || maxDays > math.MaxInt32/rows || maxMicros > math.MaxInt64/rows {
		return nil
	}
	return p
}

func spanSum(pre []int64, spans []span) int64 {
	var s int64
	for _, sp := range spans {
		s += pre[sp.hi] - pre[sp.lo]
	}
	return s
}

func (p *intervalPrefix) column(ctx context.Context, f *windowFn, fs *frameSet) (arrow.Array, error) {
	avg := f.Agg.Name == "avg"
	return frameColumn(ctx, f, fs, func(buf []span) (types.Value, error) {
		total := spanSum(p.cnt, buf)
		if total == 0 {
			return types.NullValue, nil
		}
		sum := types.IntervalValue{Months: int32(spanSum(p.months, buf)), Days: int32(spanSum(p.days, buf)), Micros: spanSum(p.micros, buf)}
		if avg {
			var err error
			if sum, err = types.AvgInterval(sum, total); err != nil {
				return types.Value{}, err
			}
		}
		return types.Value{Iv: sum}, nil
	})
}

// varianceFrames is var/stddev over moving frames from numeric prefix sums
// of the argument and of its squares; nil, nil when either does not fit
// the prefix form.
func (o *windowOp) varianceFrames(ctx context.Context, f *windowFn, w *windowRows, rec arrow.Record) (arrow.Array, error) {
	arg, err := f.args[0].Eval(ctx, rec)
	if err != nil {
		return nil, err
	}
	if arg, err = filteredArg(ctx, f, rec, arg); err != nil { // windowfast.go
		return nil, err
	}
	n := arg.Len()
	xb, sqb := newBuilder(types.NumericType, n), newBuilder(types.NumericType, n)
	for i := 0; i < n; i++ {
		if arg.IsNull(i) {
			xb.AppendNull()
			sqb.AppendNull()
			continue
		}
		v := types.GetValue(arg, f.Agg.Args[0], i)
		x := v.Num
		if f.Agg.Args[0].ID != types.Numeric {
			x = apd.New(v.I, 0)
		}
		sq := x
		if x.Form == apd.Finite {
			if sq, err = types.NumericSquare(x); err != nil {
				return nil, err
			}
		}
		types.AppendValue(xb, types.NumericType, types.Value{Num: x})
		types.AppendValue(sqb, types.NumericType, types.Value{Num: sq})
	}
	p, q := newNumericPrefix(xb.NewArray(), types.NumericType), newNumericPrefix(sqb.NewArray(), types.NumericType)
	if p == nil || q == nil {
		return nil, nil
	}
	fs, err := o.frames(ctx, f, w, rec)
	if err != nil {
		return nil, err
	}
	return frameColumn(ctx, f, fs, func(buf []span) (types.Value, error) {
		total := p.count(p.cnt, buf)
		if total == 0 {
			return types.NullValue, nil
		}
		special := p.nan != nil && p.count(p.nan, buf)+p.count(p.pinf, buf)+p.count(p.ninf, buf) > 0
		return types.VarianceFromSums(f.Agg.Name, total, p.frameSum(buf), q.frameSum(buf), special)
	})
}
