package operators

import (
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/types"
)

func isIntID(id types.ID) bool { return id == types.Int2 || id == types.Int4 || id == types.Int8 }

var cmpNames = []string{"=", "<>", "<", "<=", ">", ">="}

// The integer, float and date/timestamp comparisons and integer arithmetic.
func init() {
	ints := []types.ID{types.Int2, types.Int4, types.Int8}
	for _, a := range ints {
		for _, b := range ints {
			for _, name := range cmpNames {
				op := cmpOpOf(name)
				registerKernel(name, []types.ID{a, b}, func(*types.Overload, *types.EvalContext) fastFunc {
					return func(argv []vec, n int) (arrow.Array, bool, error) {
						return fastCompare[int64](argv, n, op, asInt64s)
					}
				})
			}
			for _, name := range []string{"+", "-", "*", "/", "%"} {
				name := name
				registerKernel(name, []types.ID{a, b}, func(fn *types.Overload, _ *types.EvalContext) fastFunc {
					res := fn.Result
					if !isIntID(res.ID) {
						return nil
					}
					return func(argv []vec, n int) (arrow.Array, bool, error) {
						return fastIntArith(argv, n, name, res)
					}
				})
			}
		}
	}
	for _, id := range []types.ID{types.Date, types.Timestamp, types.TimestampTZ} {
		for _, name := range cmpNames {
			op := cmpOpOf(name)
			registerKernel(name, []types.ID{id, id}, func(*types.Overload, *types.EvalContext) fastFunc {
				return func(argv []vec, n int) (arrow.Array, bool, error) {
					return fastCompare[int64](argv, n, op, asInt64s)
				}
			})
		}
	}
	fl := []types.ID{types.Float4, types.Float8}
	for _, a := range fl {
		for _, b := range fl {
			for _, name := range cmpNames {
				op := cmpOpOf(name)
				registerKernel(name, []types.ID{a, b}, func(*types.Overload, *types.EvalContext) fastFunc {
					return func(argv []vec, n int) (arrow.Array, bool, error) {
						return fastCompare[float64](argv, n, op, asFloat64s)
					}
				})
			}
		}
	}
}

type cmpOp uint8

const (
	cmpNone cmpOp = iota
	cmpEq
	cmpNe
	cmpLt
	cmpLe
	cmpGt
	cmpGe
)

func cmpOpOf(name string) cmpOp {
	switch name {
	case "=":
		return cmpEq
	case "<>", "!=":
		return cmpNe
	case "<":
		return cmpLt
	case "<=":
		return cmpLe
	case ">":
		return cmpGt
	case ">=":
		return cmpGe
	}
	return cmpNone
}

// flip is the operator with its operands swapped (c < x  ⇔  x > c).
func (o cmpOp) flip() cmpOp {
	switch o {
	case cmpLt:
		return cmpGt
	case cmpLe:
		return cmpGe
	case cmpGt:
		return cmpLt
	case cmpGe:
		return cmpLe
	}
	return o
}

// column is one numeric input of a fast path: a slice or a constant.
type column[T int64 | float64] struct {
	vals  []T
	c     T
	konst bool
	arr   arrow.Array // nil for constants
}

// asInt64s reads an integer-like vec; ok=false for a NULL constant or an
// unexpected array type.
func asInt64s(v vec) (column[int64], bool) {
	if v.isConst() {
		if v.c.Null {
			return column[int64]{}, false
		}
		return column[int64]{c: v.c.I, konst: true}, true
	}
	switch a := v.arr.(type) {
	case *array.Int64:
		return column[int64]{vals: a.Int64Values(), arr: a}, true
	case *array.Int32:
		return column[int64]{vals: widen(a.Int32Values()), arr: a}, true
	case *array.Int16:
		return column[int64]{vals: widen(a.Int16Values()), arr: a}, true
	case *array.Date32:
		return column[int64]{vals: widen(a.Date32Values()), arr: a}, true
	case *array.Timestamp:
		return column[int64]{vals: widen(a.TimestampValues()), arr: a}, true
	}
	return column[int64]{}, false
}

func widen[S ~int16 | ~int32 | ~int64](s []S) []int64 {
	out := make([]int64, len(s))
	for i, x := range s {
		out[i] = int64(x)
	}
	return out
}

func asFloat64s(v vec) (column[float64], bool) {
	if v.isConst() {
		if v.c.Null || math.IsNaN(v.c.F) {
			return column[float64]{}, false
		}
		return column[float64]{c: v.c.F, konst: true}, true
	}
	var vals []float64
	switch a := v.arr.(type) {
	case *array.Float64:
		vals = a.Float64Values()
	case *array.Float32:
		vals = make([]float64, a.Len())
		for i, x := range a.Float32Values() {
			vals[i] = float64(x)
		}
	default:
		return column[float64]{}, false
	}
	// NaN orders after every number in PostgreSQL; leave it to the generic path.
	for i, x := range vals {
		if x != x && v.arr.IsValid(i) {
			return column[float64]{}, false
		}
	}
	return column[float64]{vals: vals, arr: v.arr}, true
}

// validity is the AND of the inputs' validity (nil: all valid).
func validity(n int, arrs ...arrow.Array) []bool {
	var valid []bool
	for _, a := range arrs {
		if a == nil || a.NullN() == 0 {
			continue
		}
		if valid == nil {
			valid = make([]bool, n)
			for i := range valid {
				valid[i] = true
			}
		}
		for i := range valid {
			if a.IsNull(i) {
				valid[i] = false
			}
		}
	}
	return valid
}

func fastCompare[T int64 | float64](argv []vec, n int, op cmpOp, read func(vec) (column[T], bool)) (arrow.Array, bool, error) {
	return fastCompare2(argv, n, op, read, read)
}

// fastCompare2 is fastCompare with a reader per operand (operands of two
// types converted to one ordering).
func fastCompare2[T int64 | float64](argv []vec, n int, op cmpOp, readA, readB func(vec) (column[T], bool)) (arrow.Array, bool, error) {
	a, ok1 := readA(argv[0])
	b, ok2 := readB(argv[1])
	if !ok1 || !ok2 {
		return nil, false, nil
	}
	out := make([]bool, n)
	switch {
	case a.konst && b.konst:
		return nil, false, nil
	case b.konst:
		cmpColConst(op, a.vals, b.c, out)
	case a.konst:
		cmpColConst(op.flip(), b.vals, a.c, out)
	default:
		cmpColCol(op, a.vals, b.vals, out)
	}
	return boolArray(out, validity(n, a.arr, b.arr)), true, nil
}

func cmpColConst[T int64 | float64](op cmpOp, a []T, c T, out []bool) {
	switch op {
	case cmpEq:
		for i, x := range a {
			out[i] = x == c
		}
	case cmpNe:
		for i, x := range a {
			out[i] = x != c
		}
	case cmpLt:
		for i, x := range a {
			out[i] = x < c
		}
	case cmpLe:
		for i, x := range a {
			out[i] = x <= c
		}
	case cmpGt:
		for i, x := range a {
			out[i] = x > c
		}
	case cmpGe:
		for i, x := range a {
			out[i] = x >= c
		}
	}
}

func cmpColCol[T int64 | float64](op cmpOp, a, b []T, out []bool) {
	b = b[:len(a)]
	switch op {
	case cmpEq:
		for i, x := range a {
			out[i] = x == b[i]
		}
	case cmpNe:
		for i, x := range a {
			out[i] = x != b[i]
		}
	case cmpLt:
		for i, x := range a {
			out[i] = x < b[i]
		}
	case cmpLe:
		for i, x := range a {
			out[i] = x <= b[i]
		}
	case cmpGt:
		for i, x := range a {
			out[i] = x > b[i]
		}
	case cmpGe:
		for i, x := range a {
			out[i] = x >= b[i]
		}
	}
}

// intRange is the range and error message of an integer result type.
func intRange(t types.Type) (lo, hi int64, msg string) {
	switch t.ID {
	case types.Int2:
		return math.MinInt16, math.MaxInt16, "smallint out of range"
	case types.Int4:
		return math.MinInt32, math.MaxInt32, "integer out of range"
	}
	return math.MinInt64, math.MaxInt64, "bigint out of range"
}

func fastIntArith(argv []vec, n int, name string, res types.Type) (arrow.Array, bool, error) {
	a, ok1 := asInt64s(argv[0])
	b, ok2 := asInt64s(argv[1])
	if !ok1 || !ok2 || (a.konst && b.konst) {
		return nil, false, nil
	}
	valid := validity(n, a.arr, b.arr)
	lo, hi, msg := intRange(res)
	wide := res.ID == types.Int8
	out := make([]int64, n)
	at := func(c column[int64], i int) int64 {
		if c.konst {
			return c.c
		}
		return c.vals[i]
	}
	for i := 0; i < n; i++ {
		if valid != nil && !valid[i] {
			continue // NULL: the slot's value is meaningless and never checked
		}
		x, y := at(a, i), at(b, i)
		var r int64
		switch name {
		case "+":
			r = x + y
			if wide && ((x > 0 && y > 0 && r < 0) || (x < 0 && y < 0 && r >= 0)) {
				return nil, true, pgerr.New(pgerr.NumericValueOutOfRange, "%s", msg)
			}
		case "-":
			r = x - y
			if wide && ((x >= 0 && y < 0 && r < 0) || (x < 0 && y > 0 && r >= 0)) {
				return nil, true, pgerr.New(pgerr.NumericValueOutOfRange, "%s", msg)
			}
		case "*":
			r = x * y
			if wide && x != 0 && (r/x != y || (x == -1 && y == math.MinInt64) || (y == -1 && x == math.MinInt64)) {
				return nil, true, pgerr.New(pgerr.NumericValueOutOfRange, "%s", msg)
			}
		case "/":
			if y == 0 {
				return nil, true, pgerr.New(pgerr.DivisionByZero, "division by zero")
			}
			if wide && x == math.MinInt64 && y == -1 {
				return nil, true, pgerr.New(pgerr.NumericValueOutOfRange, "%s", msg)
			}
			r = x / y
		case "%":
			if y == 0 {
				return nil, true, pgerr.New(pgerr.DivisionByZero, "division by zero")
			}
			if y == -1 {
				r = 0
			} else {
				r = x % y
			}
		}
		if !wide && (r < lo || r > hi) {
			return nil, true, pgerr.New(pgerr.NumericValueOutOfRange, "%s", msg)
		}
		out[i] = r
	}
	return intArray(res, out, valid), true, nil
}

// intArray builds an integer array of type t from int64 values.
func intArray(t types.Type, vals []int64, valid []bool) arrow.Array {
	switch t.ID {
	case types.Int2:
		nv := make([]int16, len(vals))
		for i, v := range vals {
			nv[i] = int16(v)
		}
		return primitiveArray(arrow.PrimitiveTypes.Int16, arrow.Int16Traits.CastToBytes(nv), len(vals), valid)
	case types.Int4:
		nv := make([]int32, len(vals))
		for i, v := range vals {
			nv[i] = int32(v)
		}
		return primitiveArray(arrow.PrimitiveTypes.Int32, arrow.Int32Traits.CastToBytes(nv), len(vals), valid)
	}
	return primitiveArray(arrow.PrimitiveTypes.Int64, arrow.Int64Traits.CastToBytes(vals), len(vals), valid)
}

// primitiveArray wraps n fixed-width values (and valid, nil for none
// NULL) as an array without a builder: the values' memory is the array's,
// which keeps small batches (a recursive query's one-row iterations) to
// two allocations.
func primitiveArray(dt arrow.DataType, values []byte, n int, valid []bool) arrow.Array {
	var bitmap *memory.Buffer
	nulls := 0
	if valid != nil {
		bm := make([]byte, bitutil.BytesForBits(int64(n)))
		for i, ok := range valid[:n] {
			if ok {
				bitutil.SetBit(bm, i)
			} else {
				nulls++
			}
		}
		if nulls > 0 {
			bitmap = memory.NewBufferBytes(bm)
		}
	}
	data := array.NewData(dt, n, []*memory.Buffer{bitmap, memory.NewBufferBytes(values)}, nil, nulls, 0)
	defer data.Release()
	return array.MakeFromData(data)
}

// fastCast converts whole arrays for casts that cannot fail.
func fastCast(arr arrow.Array, from, to types.Type) (arrow.Array, bool) {
	if isIntID(from.ID) && isIntID(to.ID) {
		_, hi, _ := intRange(to)
		_, fhi, _ := intRange(from)
		if fhi > hi {
			return nil, false // narrowing can fail: generic path checks ranges
		}
		c, ok := asInt64s(vec{arr: arr})
		if !ok {
			return nil, false
		}
		return intArray(to, c.vals, validity(arr.Len(), arr)), true
	}
	if isIntID(from.ID) && to.ID == types.Float8 {
		c, ok := asInt64s(vec{arr: arr})
		if !ok {
			return nil, false
		}
		out := make([]float64, len(c.vals))
		for i, x := range c.vals {
			out[i] = float64(x)
		}
		b := array.NewFloat64Builder(mem)
		b.AppendValues(out, validity(arr.Len(), arr))
		return b.NewArray(), true
	}
	return nil, false
}
