package types

import "github.com/joind/joind/pgerr"

// Valid reports whether joind has the type t (an array only over a base
// type that has one).
func (t Type) Valid() bool {
	return t.ID != Array || arrayElemOK(t.Elem) || t.Elem == Array && isVectorOID(t.UserOID)
}

// StackArrays is ARRAY[...] of sub-arrays: one more dimension over the
// sub-arrays' (which must agree); NULL sub-arrays are skipped and empty
// ones make the result empty, as ExecEvalArrayExpr.
func StackArrays(subs []Value) (Value, error) {
	var first *ArrayValue
	var elems []Value
	n := int32(0)
	for _, s := range subs {
		if s.Null {
			continue
		}
		a := s.Arr
		if first == nil {
			first = a
		} else if !equalDims(first.Dims, a.Dims) || !equalDims(first.Lbound, a.Lbound) {
			return Value{}, pgerr.New(pgerr.ArraySubscriptError, "multidimensional arrays must have array expressions with matching dimensions")
		}
		elems = append(elems, a.Elems...)
		n++
	}
	if first == nil || len(first.Dims) == 0 {
		return Value{Arr: &ArrayValue{}}, nil
	}
	if len(first.Dims)+1 > maxArrayDims {
		return Value{}, pgerr.New(pgerr.ProgramLimitExceeded, "number of array dimensions (%d) exceeds the maximum allowed (%d)", len(first.Dims)+1, maxArrayDims)
	}
	dims := append([]int32{n}, first.Dims...)
	lbs := append([]int32{1}, first.Lbound...)
	return Value{Arr: &ArrayValue{Dims: dims, Lbound: lbs, Elems: elems}}, nil
}

// ArrayElement is a[i][j]...: NULL unless there is one subscript per
// dimension, each within its bounds.
func ArrayElement(a *ArrayValue, idx []Value) Value {
	if len(idx) != len(a.Dims) {
		return NullValue
	}
	off := 0
	for d, v := range idx {
		i := v.I - int64(a.Lbound[d])
		if i < 0 || i >= int64(a.Dims[d]) {
			return NullValue
		}
		off = off*int(a.Dims[d]) + int(i)
	}
	return a.Elems[off]
}

// ArraySlice is a[lo:hi]...: bounds clamped to the array's, absent ones
// (hasLo/hasHi false) the array's own; dimensions past the subscripts are
// whole; the result's lower bounds are 1, and it is empty when any range
// is.
func ArraySlice(a *ArrayValue, bounds []Value, hasLo, hasHi []bool) Value {
	if len(a.Dims) == 0 || len(hasLo) > len(a.Dims) {
		return Value{Arr: &ArrayValue{}}
	}
	nd := len(a.Dims)
	lo, hi := make([]int64, nd), make([]int64, nd)
	k := 0
	for d := 0; d < nd; d++ {
		lo[d], hi[d] = int64(a.Lbound[d]), int64(a.Lbound[d])+int64(a.Dims[d])-1
		if d < len(hasLo) {
			if hasLo[d] {
				lo[d] = max(lo[d], bounds[k].I)
				k++
			}
			if hasHi[d] {
				hi[d] = min(hi[d], bounds[k].I)
				k++
			}
		}
		if lo[d] > hi[d] {
			return Value{Arr: &ArrayValue{}}
		}
	}
	dims, lbs := make([]int32, nd), make([]int32, nd)
	for d := range dims {
		dims[d], lbs[d] = int32(hi[d]-lo[d]+1), 1
	}
	var elems []Value
	var walk func(d, off int)
	walk = func(d, off int) {
		for i := lo[d]; i <= hi[d]; i++ {
			o := off*int(a.Dims[d]) + int(i-int64(a.Lbound[d]))
			if d+1 == nd {
				elems = append(elems, a.Elems[o])
			} else {
				walk(d+1, o)
			}
		}
	}
	walk(0, 0)
	return Value{Arr: &ArrayValue{Dims: dims, Lbound: lbs, Elems: elems}}
}

// ScalarArrayOp is `x op ANY (arr)` (all: ALL) with three-valued logic: a
// NULL array is NULL; an empty one is false (ANY) or true (ALL); a NULL
// comparison makes an undecided result NULL.
func ScalarArrayOp(ctx *EvalContext, op *Overload, all bool, x, arr Value) (Value, error) {
	if arr.Null {
		return NullValue, nil
	}
	sawNull := false
	args := make([]Value, 2)
	for _, e := range arr.Arr.Elems {
		var r Value
		if op.Strict && (x.Null || e.Null) {
			r = NullValue
		} else {
			args[0], args[1] = x, e
			var err error
			if r, err = op.Eval(ctx, args); err != nil {
				return Value{}, err
			}
		}
		switch {
		case r.Null:
			sawNull = true
		case (r.I != 0) != all:
			return BoolValue(!all), nil
		}
	}
	if sawNull {
		return NullValue, nil
	}
	return BoolValue(all), nil
}
