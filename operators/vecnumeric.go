package operators

import (
	"context"
	"math"
	"math/bits"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/joind/joind/types"
)

// Vectorized numeric kernels over scaled int64s (types/decimal.go has the
// column forms). An operand is usable when every row is finite, its
// coefficient fits an int64 and all rows share one display scale: a
// Decimal64 array (a numeric(p≤18,s) column or another kernel's result), a
// Decimal128 or Binary array whose values happen to qualify, or a numeric
// constant. Results have PostgreSQL's exact result scale (add/sub: the
// larger scale; mul: the sum of the scales; round/trunc: the requested
// one), so every row's display scale is the array's. Whenever an operand
// does not qualify, or a result would overflow int64, or a cast would fail,
// the kernel declines (ok=false) and the caller runs the apd path, which is
// the reference (TestNumericKernelsMatchApd): never wrong, never a spurious
// error.

// decCol is one operand: n scaled values (a constant is broadcast) at scale.
type decCol struct {
	vals  []int64
	scale int
	arr   arrow.Array // validity; nil for a constant
}

// int64s views 64-bit values (Decimal64s, hashes as the table's keys) as
// int64s, without a copy.
func int64s[T ~int64 | ~uint64](v []T) []int64 {
	return unsafe.Slice((*int64)(unsafe.Pointer(unsafe.SliceData(v))), len(v))
}

// asDec reads v as scaled int64s.
func asDec(v vec, n int) (decCol, bool) {
	if v.isConst() {
		if v.c.Null {
			return decCol{}, false
		}
		m, s, ok := types.NumericScaled(v.c.Num)
		if !ok {
			return decCol{}, false
		}
		vals := make([]int64, n)
		for i := range vals {
			vals[i] = m
		}
		return decCol{vals: vals, scale: s}, true
	}
	switch a := v.arr.(type) {
	case *array.Decimal64:
		vals := int64s(a.Values())
		nulls := a.NullN() > 0
		for i, x := range vals {
			if x == types.Dec64NaN && (!nulls || a.IsValid(i)) {
				return decCol{}, false
			}
		}
		return decCol{vals: vals, scale: int(a.DataType().(*arrow.Decimal64Type).Scale), arr: a}, true
	case *array.Decimal128:
		vals := make([]int64, a.Len())
		for i, x := range a.Values() {
			if a.IsNull(i) {
				continue
			}
			lo, hi := x.LowBits(), x.HighBits()
			if x == types.Dec128NaN || !(hi == 0 && lo <= math.MaxInt64 || hi == -1 && lo > math.MaxInt64) || int64(lo) == types.Dec64NaN {
				return decCol{}, false
			}
			vals[i] = int64(lo)
		}
		return decCol{vals: vals, scale: int(a.DataType().(*arrow.Decimal128Type).Scale), arr: a}, true
	case *array.Binary:
		vals := make([]int64, a.Len())
		scale := -1
		for i := range vals {
			if a.IsNull(i) {
				continue
			}
			m, s, ok := types.NumBinScaled(a.Value(i))
			if !ok || (scale >= 0 && s != scale) {
				return decCol{}, false
			}
			vals[i], scale = m, s
		}
		return decCol{vals: vals, scale: max(scale, 0), arr: a}, true
	}
	return decCol{}, false
}

// andValidity is the AND of the operands' validity bitmaps (nil buffer:
// every row valid) and the NULL count.
func andValidity(n int, cols ...decCol) (*memory.Buffer, int) {
	var out []byte
	for _, c := range cols {
		if c.arr == nil || c.arr.NullN() == 0 {
			continue
		}
		d := c.arr.Data()
		bm := d.Buffers()[0].Bytes()
		if out == nil {
			out = make([]byte, bitutil.BytesForBits(int64(n)))
			bitutil.CopyBitmap(bm, d.Offset(), n, out, 0)
			continue
		}
		bitutil.BitmapAnd(out, bm, 0, int64(d.Offset()), out, 0, int64(n))
	}
	if out == nil {
		return nil, 0
	}
	return memory.NewBufferBytes(out), n - bitutil.CountSetBits(out, 0, n)
}

// dec64Array is a Decimal64 array of vals at scale with the given validity.
func dec64Array(vals []int64, scale int, valid *memory.Buffer, nulls int) arrow.Array {
	raw := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(vals))), len(vals)*8)
	data := array.NewData(types.Dec64Type(scale), len(vals), []*memory.Buffer{valid, memory.NewBufferBytes(raw)}, nil, nulls, 0)
	return array.MakeFromData(data)
}

// upscale multiplies every value by 10^k; false on overflow.
func upscale(vals []int64, k int) ([]int64, bool) {
	if k == 0 {
		return vals, true
	}
	if k > 18 {
		return nil, false
	}
	m := types.Pow10[k]
	lim := math.MaxInt64 / m
	out := make([]int64, len(vals))
	for i, x := range vals {
		if x > lim || x < -lim {
			return nil, false
		}
		out[i] = x * m
	}
	return out, true
}

// numAddSub is a ± b at the larger scale.
func numAddSub(argv []vec, n int, sub bool) (arrow.Array, bool, error) {
	a, ok1 := asDec(argv[0], n)
	b, ok2 := asDec(argv[1], n)
	if !ok1 || !ok2 {
		return nil, false, nil
	}
	s := max(a.scale, b.scale)
	x, ok1 := upscale(a.vals, s-a.scale)
	y, ok2 := upscale(b.vals, s-b.scale)
	if !ok1 || !ok2 {
		return nil, false, nil
	}
	out := make([]int64, n)
	var bad int64
	if sub {
		for i := range out {
			r := x[i] - y[i]
			bad |= (x[i] ^ y[i]) & (x[i] ^ r)
			out[i] = r
		}
	} else {
		for i := range out {
			r := x[i] + y[i]
			bad |= (x[i] ^ r) & (y[i] ^ r)
			out[i] = r
		}
	}
	if bad < 0 || hasNaNSentinel(out) {
		return nil, false, nil
	}
	valid, nulls := andValidity(n, a, b)
	return dec64Array(out, s, valid, nulls), true, nil
}

// hasNaNSentinel reports a result equal to the NaN encoding (so it must
// take the exact path instead).
func hasNaNSentinel(v []int64) bool {
	for _, x := range v {
		if x == types.Dec64NaN {
			return true
		}
	}
	return false
}

// numMul is a × b at the sum of the scales.
func numMul(argv []vec, n int) (arrow.Array, bool, error) {
	a, ok1 := asDec(argv[0], n)
	b, ok2 := asDec(argv[1], n)
	if !ok1 || !ok2 {
		return nil, false, nil
	}
	s := a.scale + b.scale
	if s > types.MaxDec128Digits {
		return nil, false, nil
	}
	out := make([]int64, n)
	var bad uint64
	x, y := a.vals[:n], b.vals[:n]
	for i := range out {
		p, q := x[i], y[i]
		up, uq := uint64(p), uint64(q)
		if p < 0 {
			up = -up
		}
		if q < 0 {
			uq = -uq
		}
		hi, lo := bits.Mul64(up, uq)
		bad |= hi | lo>>63
		r := int64(lo)
		if (p < 0) != (q < 0) {
			r = -r
		}
		out[i] = r
	}
	if bad != 0 {
		return nil, false, nil
	}
	valid, nulls := andValidity(n, a, b)
	return dec64Array(out, s, valid, nulls), true, nil
}

// numNeg is -a.
func numNeg(argv []vec, n int) (arrow.Array, bool, error) {
	a, ok := asDec(argv[0], n)
	if !ok {
		return nil, false, nil
	}
	out := make([]int64, n)
	for i, x := range a.vals[:n] {
		out[i] = -x
	}
	valid, nulls := andValidity(n, a)
	return dec64Array(out, a.scale, valid, nulls), true, nil
}

// numCompare compares at the larger scale.
func numCompare(argv []vec, n int, op cmpOp) (arrow.Array, bool, error) {
	a, ok1 := asDec(argv[0], n)
	b, ok2 := asDec(argv[1], n)
	if !ok1 || !ok2 {
		return nil, false, nil
	}
	s := max(a.scale, b.scale)
	x, ok1 := upscale(a.vals, s-a.scale)
	y, ok2 := upscale(b.vals, s-b.scale)
	if !ok1 || !ok2 {
		return nil, false, nil
	}
	res := make([]bool, n)
	cmpColCol(op, x[:n], y[:n], res)
	var valid []bool
	if a.arr != nil && a.arr.NullN() > 0 || b.arr != nil && b.arr.NullN() > 0 {
		valid = validity(n, a.arr, b.arr)
	}
	bld := array.NewBooleanBuilder(mem)
	bld.AppendValues(res, valid)
	return bld.NewArray(), true, nil
}

// roundScaled rounds (half away from zero) or truncates x at scale from to
// scale to < from.
func roundScaled(x int64, k int, trunc bool) int64 {
	if k > 18 {
		return 0 // |x| < 2^63 < 10^19/2: rounds and truncates to 0
	}
	m := types.Pow10[k]
	q, r := x/m, x%m
	if !trunc {
		if r < 0 {
			r = -r
		}
		if uint64(r)*2 >= uint64(m) {
			if x < 0 {
				q--
			} else {
				q++
			}
		}
	}
	return q
}

// numRescale returns a's values at scale s (rounding or truncating when s
// is smaller); false on overflow.
func numRescale(a decCol, s int, trunc bool) ([]int64, bool) {
	if s >= a.scale {
		return upscale(a.vals, s-a.scale)
	}
	out := make([]int64, len(a.vals))
	k := a.scale - s
	for i, x := range a.vals {
		out[i] = roundScaled(x, k, trunc)
	}
	return out, true
}

// numRound is round(x[, s]) and trunc(x[, s]) for a constant s in 0..18.
func numRound(argv []vec, n int, trunc bool) (arrow.Array, bool, error) {
	s := 0
	if len(argv) == 2 {
		if !argv[1].isConst() || argv[1].c.Null || argv[1].c.I < 0 || argv[1].c.I > 18 {
			return nil, false, nil
		}
		s = int(argv[1].c.I)
	}
	a, ok := asDec(argv[0], n)
	if !ok {
		return nil, false, nil
	}
	out, ok := numRescale(a, s, trunc)
	if !ok {
		return nil, false, nil
	}
	valid, nulls := andValidity(n, a)
	return dec64Array(out[:n], s, valid, nulls), true, nil
}

// numericKernels can be switched off by benchmarks to measure the apd path.
var numericKernels = true

// pickNumericFast returns a kernel for numeric operator or function fn.
func pickNumericFast(fn *types.Overload) fastFunc {
	if !numericKernels || fn == nil || !fn.Strict || fn.Result.ID != types.Numeric && fn.Result.ID != types.Bool {
		return nil
	}
	for _, t := range fn.Args {
		if t.ID != types.Numeric && !(fn.Name == "round" || fn.Name == "trunc") {
			return nil
		}
	}
	if len(fn.Args) == 0 || fn.Args[0].ID != types.Numeric {
		return nil
	}
	if fn.Result.ID == types.Bool {
		if op := cmpOpOf(fn.Name); op != cmpNone && len(fn.Args) == 2 {
			return func(argv []vec, n int) (arrow.Array, bool, error) { return numCompare(argv, n, op) }
		}
		return nil
	}
	switch {
	case len(fn.Args) == 2 && fn.Name == "+":
		return func(argv []vec, n int) (arrow.Array, bool, error) { return numAddSub(argv, n, false) }
	case len(fn.Args) == 2 && fn.Name == "-":
		return func(argv []vec, n int) (arrow.Array, bool, error) { return numAddSub(argv, n, true) }
	case len(fn.Args) == 2 && fn.Name == "*":
		return numMul
	case len(fn.Args) == 2 && fn.Name == "/":
		return numDivide
	case len(fn.Args) == 1 && fn.Name == "-":
		return numNeg
	case fn.Name == "round" || fn.Name == "trunc":
		if len(fn.Args) == 2 && fn.Args[1].ID != types.Int4 {
			return nil
		}
		trunc := fn.Name == "trunc"
		return func(argv []vec, n int) (arrow.Array, bool, error) { return numRound(argv, n, trunc) }
	}
	return nil
}

// numericCast is the vectorized cast from or to numeric; ok=false sends the
// cast to the per-value path (which also raises its errors).
func numericCast(arr arrow.Array, from, to types.Type) (arrow.Array, bool) {
	n := arr.Len()
	switch {
	case from.ID == types.Numeric && to.ID == types.Numeric:
		p, s, has := types.NumericPrecScale(to.Typmod)
		if !has {
			return arr, true // numeric(p,s) → numeric: the same values
		}
		if s < 0 || s > p || p > types.MaxDec64Digits {
			return nil, false
		}
		a, ok := asDec(vec{arr: arr}, n)
		if !ok {
			return nil, false
		}
		out, ok := numRescale(a, s, false)
		if !ok || !fitPrecision(out, p, a.arr) {
			return nil, false
		}
		valid, nulls := andValidity(n, a)
		return types.ConformNumeric(dec64Array(out, s, valid, nulls), to), true
	case isIntID(from.ID) && to.ID == types.Numeric:
		c, ok := asInt64s(vec{arr: arr})
		if !ok {
			return nil, false
		}
		in := decCol{vals: c.vals, arr: arr}
		for i, x := range c.vals[:n] {
			if x == types.Dec64NaN && arr.IsValid(i) {
				return nil, false // the minimum int8 is Decimal64's NaN: row by row
			}
		}
		if to.Typmod < 0 {
			valid, nulls := andValidity(n, in)
			return dec64Array(append([]int64(nil), c.vals...), 0, valid, nulls), true
		}
		return numericCast(numericCastInput(in, n), types.NumericType, to)
	case from.ID == types.Numeric && to.ID == types.Float8:
		a, ok := asDec(vec{arr: arr}, n)
		if !ok || a.scale > 22 {
			return nil, false
		}
		out := make([]float64, n)
		div := math.Pow10(a.scale)
		for i, x := range a.vals[:n] {
			if x > 1<<53 || x < -(1<<53) {
				return nil, false // not exact in a float64: strtod's rounding needed
			}
			// Both operands are exact, so IEEE division rounds correctly,
			// as numeric_float8's strtod does.
			out[i] = float64(x) / div
		}
		var valid []bool
		if arr.NullN() > 0 {
			valid = validity(n, arr)
		}
		b := array.NewFloat64Builder(mem)
		b.AppendValues(out, valid)
		return b.NewArray(), true
	case from.ID == types.Numeric && isIntID(to.ID):
		a, ok := asDec(vec{arr: arr}, n)
		if !ok {
			return nil, false
		}
		out, _ := numRescale(a, 0, false)
		lo, hi, _ := intRange(to)
		for i, x := range out {
			if (x < lo || x > hi) && (a.arr == nil || a.arr.IsValid(i)) {
				return nil, false
			}
		}
		var valid []bool
		if arr.NullN() > 0 {
			valid = validity(n, arr)
		}
		return intArray(to, out, valid), true
	}
	return nil, false
}

// The numeric casts run numericCast; a column it declines goes row by row.
func init() {
	kernel := func(from, to types.Type, _ bool, _ *types.EvalContext) castFunc {
		if !numericKernels {
			return nil
		}
		return func(arr arrow.Array, _ int) (arrow.Array, bool, error) {
			r, ok := numericCast(arr, from, to)
			return r, ok, nil
		}
	}
	for _, id := range []types.ID{types.Int2, types.Int4, types.Int8} {
		registerCastKernel(id, types.Numeric, kernel)
		registerCastKernel(types.Numeric, id, kernel)
	}
	registerCastKernel(types.Numeric, types.Numeric, kernel)
	registerCastKernel(types.Numeric, types.Float8, kernel)
}

// numericCastInput is an integer column as a Decimal64 array at scale 0.
func numericCastInput(c decCol, n int) arrow.Array {
	valid, nulls := andValidity(n, c)
	return dec64Array(c.vals, 0, valid, nulls)
}

// fitPrecision reports whether every valid value has at most p digits.
func fitPrecision(vals []int64, p int, arr arrow.Array) bool {
	lim := int64(math.MaxInt64)
	if p < 19 {
		lim = types.Pow10[p]
	}
	nulls := arr != nil && arr.NullN() > 0
	for i, x := range vals {
		if (x >= lim || x <= -lim) && (!nulls || arr.IsValid(i)) {
			return false
		}
	}
	return true
}

// takeNumeric copies rows idx of a numeric array (any form).
func takeNumeric(arr arrow.Array, idx []int) arrow.Array {
	if a, ok := arr.(*array.Decimal64); ok {
		return takePrim(a, idx, a.Values(), array.NewDecimal64Builder(mem, a.DataType().(*arrow.Decimal64Type)))
	}
	b := array.NewBuilder(mem, arr.DataType())
	b.Reserve(len(idx))
	for _, i := range idx {
		appendNumericFrom(b, arr, i)
	}
	return b.NewArray()
}

// appendNumericFrom appends row i of a numeric array to b, a builder of any
// numeric form.
func appendNumericFrom(b array.Builder, arr arrow.Array, i int) {
	if arr.IsNull(i) {
		b.AppendNull()
		return
	}
	if arrow.TypeEqual(b.Type(), arr.DataType()) {
		switch a := arr.(type) {
		case *array.Decimal64:
			b.(*array.Decimal64Builder).Append(a.Value(i))
			return
		case *array.Decimal128:
			b.(*array.Decimal128Builder).Append(a.Value(i))
			return
		case *array.Binary:
			b.(*array.BinaryBuilder).Append(a.Value(i))
			return
		}
	}
	types.AppendValue(b, types.NumericType, types.GetValue(arr, types.NumericType, i))
}

// decimal64s views int64s as Decimal64 values.
func decimal64s(v []int64) []decimal.Decimal64 {
	return unsafe.Slice((*decimal.Decimal64)(unsafe.Pointer(unsafe.SliceData(v))), len(v))
}

// evalAnyForm is Eval leaving a numeric result in the column form its
// kernel produced (types/decimal.go) instead of the type's: for consumers
// that read values by types.GetValue or by form, such as aggregate states.
func (c *Compiled) evalAnyForm(ctx context.Context, rec arrow.Record) (arrow.Array, error) {
	if c.typ.ID != types.Numeric {
		return c.Eval(ctx, rec)
	}
	if err := checkCtx(ctx); err != nil {
		return nil, err
	}
	n := int(rec.NumRows())
	v, err := c.root.eval(&evalState{ctx: ctx, env: c.env}, newBatch(rec.Columns(), n))
	if err != nil {
		return nil, err
	}
	if v.arr != nil {
		return v.arr, nil
	}
	return v.materialize(c.typ, n), nil
}

// numDivide is a / b: each row's result scale is select_div_scale's for its
// operands, so the result is in the exact (binary) form with per-row scales.
func numDivide(argv []vec, n int) (arrow.Array, bool, error) {
	a, ok1 := asDec(argv[0], n)
	b, ok2 := asDec(argv[1], n)
	if !ok1 || !ok2 {
		return nil, false, nil
	}
	valid, _ := andValidity(n, a, b)
	var vb []byte
	if valid != nil {
		vb = valid.Bytes()
	}
	bld := array.NewBinaryBuilder(mem, types.NumericBinaryType)
	bld.Reserve(n)
	bld.ReserveData(n * 11)
	var buf [16]byte
	for i := 0; i < n; i++ {
		if vb != nil && !bitutil.BitIsSet(vb, i) {
			bld.AppendNull()
			continue
		}
		q, rs, ok := types.DivScaled(a.vals[i], a.scale, b.vals[i], b.scale)
		if !ok {
			return nil, false, nil // division by zero or a wide quotient: the apd path
		}
		bld.Append(types.AppendNumBinScaled(buf[:0], q, rs))
	}
	return bld.NewArray(), true, nil
}
