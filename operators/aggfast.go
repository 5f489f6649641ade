package operators

import (
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/cockroachdb/apd/v3"
	"github.com/joind/joind/types"
)

// Batch kernels for the common aggregates. Instead of one types.Value and
// one Accumulator.Add per row, a kernel folds a whole batch of one group
// into a partial result in native integers and hands the accumulator that
// partial as a single Add. This is exact for the aggregates used here:
//
//   - sum over integers: the accumulator adds int64 values with overflow
//     detection (sum(int2/int4) → int8 errors on overflow, sum(int8) →
//     numeric goes to a big decimal), and adding a batch's partial sum is
//     the same addition regrouped. A batch whose own int8 partial would
//     overflow is left to the per-row path.
//   - min and max over integer-like types: idempotent.
//   - sum over numeric: values of at most 18 significant digits are parsed
//     into a scaled int64; the partial is an apd decimal at the batch's
//     largest scale, which is the scale PostgreSQL's sum keeps (the largest
//     input scale). NaN, infinities, exponents, longer values or an int64
//     overflow send the batch to the per-row path.
//
// avg is not here: its accumulator counts Adds.

type aggKernel uint8

const (
	kernNone aggKernel = iota
	kernSumInt
	kernMinMaxInt
	kernSumNumeric
)

// aggKernels can be switched off by tests to compare with the per-row path.
var aggKernels = true

func pickAggKernel(fn *types.AggOverload, argT []types.Type, distinct bool) aggKernel {
	if distinct || len(argT) != 1 {
		return kernNone
	}
	id := argT[0].ID
	switch fn.Name {
	case "sum":
		switch id {
		case types.Int2, types.Int4, types.Int8:
			return kernSumInt
		case types.Numeric:
			return kernSumNumeric
		}
	case "min", "max":
		switch id {
		case types.Int2, types.Int4, types.Int8, types.Date, types.Timestamp, types.TimestampTZ:
			return kernMinMaxInt
		}
	}
	return kernNone
}

// rowSel reports whether row i is aggregated: not filtered out and not NULL.
type rowSel struct {
	f    *array.Boolean // nil = no FILTER
	arg  arrow.Array
	null bool // arg has NULLs
}

func (r rowSel) all() bool { return r.f == nil && !r.null }

func (r rowSel) ok(i int) bool {
	if r.f != nil && (r.f.IsNull(i) || !r.f.Value(i)) {
		return false
	}
	return !r.null || r.arg.IsValid(i)
}

// batchPartial computes kernel k over one batch (every row in one group).
// ok=false: the kernel does not apply to this batch; use the per-row path.
// have=false: no row was aggregated (nothing to Add).
func batchPartial(k aggKernel, max bool, arg arrow.Array, f *array.Boolean, n int) (v types.Value, have, ok bool) {
	sel := rowSel{f: f, arg: arg, null: arg.NullN() > 0}
	switch k {
	case kernSumInt:
		switch a := arg.(type) {
		case *array.Int64:
			return sumInts(a.Int64Values()[:n], sel, true)
		case *array.Int32:
			return sumInts(a.Int32Values()[:n], sel, false)
		case *array.Int16:
			return sumInts(a.Int16Values()[:n], sel, false)
		}
	case kernMinMaxInt:
		switch a := arg.(type) {
		case *array.Int64:
			return minMaxInts(a.Int64Values()[:n], sel, max)
		case *array.Int32:
			return minMaxInts(a.Int32Values()[:n], sel, max)
		case *array.Int16:
			return minMaxInts(a.Int16Values()[:n], sel, max)
		case *array.Date32:
			return minMaxInts(a.Date32Values()[:n], sel, max)
		case *array.Timestamp:
			return minMaxInts(a.TimestampValues()[:n], sel, max)
		}
	case kernSumNumeric:
		if a, isStr := arg.(*array.String); isStr {
			return sumNumeric(a, n, sel)
		}
	}
	return types.Value{}, false, false
}

func sumInts[T int16 | int32 | int64](vals []T, sel rowSel, check bool) (types.Value, bool, bool) {
	var s int64
	cnt := 0
	if sel.all() {
		if !check {
			for _, x := range vals {
				s += int64(x)
			}
			return types.Value{I: s}, len(vals) > 0, true
		}
		for _, x := range vals {
			v := int64(x)
			r := s + v
			if (r > s) != (v > 0) {
				return types.Value{}, false, false
			}
			s = r
		}
		return types.Value{I: s}, len(vals) > 0, true
	}
	for i, x := range vals {
		if !sel.ok(i) {
			continue
		}
		v := int64(x)
		r := s + v
		if check && (r > s) != (v > 0) {
			return types.Value{}, false, false
		}
		s = r
		cnt++
	}
	return types.Value{I: s}, cnt > 0, true
}

func minMaxInts[T int16 | int32 | int64 | arrow.Date32 | arrow.Timestamp](vals []T, sel rowSel, max bool) (types.Value, bool, bool) {
	var best int64
	have := false
	all := sel.all()
	for i, x := range vals {
		if !all && !sel.ok(i) {
			continue
		}
		v := int64(x)
		if !have || (max && v > best) || (!max && v < best) {
			best, have = v, true
		}
	}
	return types.Value{I: best}, have, true
}

var pow10 = func() [19]int64 {
	var p [19]int64
	p[0] = 1
	for i := 1; i < len(p); i++ {
		p[i] = p[i-1] * 10
	}
	return p
}()

// parseDec parses PostgreSQL's numeric output form "[-]digits[.digits]"
// with at most 18 significant digits into mantissa and scale.
func parseDec(s string) (m int64, scale int, ok bool) {
	i, neg := 0, false
	if len(s) > 0 && (s[0] == '-' || s[0] == '+') {
		neg, i = s[0] == '-', 1
	}
	sig, seen, dot := 0, 0, false
	for ; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			if m != 0 || c != '0' {
				if sig == 18 {
					return 0, 0, false
				}
				sig++
			}
			m = m*10 + int64(c-'0')
			seen++
			if dot {
				scale++
			}
		case c == '.' && !dot:
			dot = true
		default:
			return 0, 0, false
		}
	}
	if seen == 0 || scale > 18 {
		return 0, 0, false
	}
	if neg {
		m = -m
	}
	return m, scale, true
}

// rescale multiplies m by 10^k, reporting overflow.
func rescale(m int64, k int) (int64, bool) {
	if k == 0 {
		return m, true
	}
	if k >= len(pow10) {
		return 0, m == 0
	}
	p := pow10[k]
	if m > math.MaxInt64/p || m < math.MinInt64/p {
		return 0, false
	}
	return m * p, true
}

func sumNumeric(a *array.String, n int, sel rowSel) (types.Value, bool, bool) {
	var sum int64
	scale, cnt := 0, 0
	all := sel.all()
	for i := 0; i < n; i++ {
		if !all && !sel.ok(i) {
			continue
		}
		m, sc, ok := parseDec(a.Value(i))
		if !ok {
			return types.Value{}, false, false
		}
		if sc > scale {
			if sum, ok = rescale(sum, sc-scale); !ok {
				return types.Value{}, false, false
			}
			scale = sc
		} else if sc < scale {
			if m, ok = rescale(m, scale-sc); !ok {
				return types.Value{}, false, false
			}
		}
		r := sum + m
		if (r > sum) != (m > 0) {
			return types.Value{}, false, false
		}
		sum = r
		cnt++
	}
	if cnt == 0 {
		return types.Value{}, false, true
	}
	return types.Value{Num: apd.New(sum, int32(-scale))}, true, true
}
