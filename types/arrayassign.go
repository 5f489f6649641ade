package types

import "github.com/joind/joind/pgerr"

// ArrayAssign is `arr[i][j]... = v` (array_set_element) and, with slice,
// `arr[lo:hi]... = v` (array_set_slice). base may be NULL (INSERT, or a
// NULL column): the result then has exactly the subscripts' extent. A
// one-dimensional array grows, NULL-filled, to take a subscript outside
// it; a multi-dimensional one must contain it. hasLo/hasHi say which slice
// bounds are given (absent ones are the array's own).
func ArrayAssign(base Value, idx []Value, v Value, slice bool, hasLo, hasHi []bool) (Value, error) {
	for _, i := range idx {
		if i.Null {
			return Value{}, pgerr.New(pgerr.NullValueNotAllowed, "array subscript in assignment must not be null")
		}
	}
	var a *ArrayValue
	if !base.Null {
		a = base.Arr
	}
	if slice && v.Null {
		return base, nil // a NULL replacement leaves the array as it was
	}
	n := len(idx)
	if slice {
		n = len(hasLo)
	}
	lo, hi := make([]int64, n), make([]int64, n)
	k := 0
	empty := a == nil || len(a.Dims) == 0
	for d := 0; d < n; d++ {
		if !slice {
			lo[d], hi[d] = idx[d].I, idx[d].I
			continue
		}
		if hasLo[d] {
			lo[d] = idx[k].I
			k++
		} else if empty {
			return Value{}, errSliceBounds()
		} else if d < len(a.Dims) {
			lo[d] = int64(a.Lbound[d])
		}
		if hasHi[d] {
			hi[d] = idx[k].I
			k++
		} else if empty {
			return Value{}, errSliceBounds()
		} else if d < len(a.Dims) {
			hi[d] = int64(a.Lbound[d]) + int64(a.Dims[d]) - 1
		}
		if hi[d] < lo[d] {
			return Value{}, pgerr.New(pgerr.ArraySubscriptError, "upper bound cannot be less than lower bound")
		}
	}
	// The new value's elements, in order.
	var src []Value
	if slice {
		src = v.Arr.Elems
	} else {
		src = []Value{v}
	}
	need := int64(1)
	for d := range lo {
		need *= hi[d] - lo[d] + 1
		if need > maxArraySize {
			return Value{}, errArraySize()
		}
	}
	tooSmall := pgerr.New(pgerr.ArraySubscriptError, "source array too small")
	if empty {
		if int64(len(src)) < need {
			return Value{}, tooSmall
		}
		dims, lbs := make([]int32, n), make([]int32, n)
		for d := range dims {
			dims[d], lbs[d] = int32(hi[d]-lo[d]+1), int32(lo[d])
		}
		for d := range dims {
			if hi[d] > 2147483647 || lo[d] < -2147483648 {
				return Value{}, pgerr.New(pgerr.ProgramLimitExceeded, "array upper bound is too large: %d", hi[d])
			}
		}
		return Value{Arr: &ArrayValue{Dims: dims, Lbound: lbs, Elems: append([]Value(nil), src[:need]...)}}, nil
	}
	if n > len(a.Dims) || !slice && n != len(a.Dims) {
		return Value{}, pgerr.New(pgerr.ArraySubscriptError, "wrong number of array subscripts")
	}
	for d := n; d < len(a.Dims); d++ { // a slice's missing dimensions are whole
		lo = append(lo, int64(a.Lbound[d]))
		hi = append(hi, int64(a.Lbound[d])+int64(a.Dims[d])-1)
		need *= int64(a.Dims[d])
	}
	dims := append([]int32(nil), a.Dims...)
	lbs := append([]int32(nil), a.Lbound...)
	elems := a.Elems
	if len(dims) == 1 {
		// Extend a one-dimensional array, filling NULLs.
		newLo := min(int64(lbs[0]), lo[0])
		newHi := max(int64(lbs[0])+int64(dims[0])-1, hi[0])
		if newHi-newLo+1 > maxArraySize {
			return Value{}, errArraySize()
		}
		if newLo != int64(lbs[0]) || newHi != int64(lbs[0])+int64(dims[0])-1 {
			grown := make([]Value, newHi-newLo+1)
			for i := range grown {
				grown[i] = NullValue
			}
			copy(grown[int64(lbs[0])-newLo:], elems)
			elems, dims[0], lbs[0] = grown, int32(newHi-newLo+1), int32(newLo)
		} else {
			elems = append([]Value(nil), elems...)
		}
	} else {
		for d := range dims {
			if lo[d] < int64(lbs[d]) || hi[d] > int64(lbs[d])+int64(dims[d])-1 {
				return Value{}, pgerr.New(pgerr.ArraySubscriptError, "array subscript out of range")
			}
		}
		elems = append([]Value(nil), elems...)
	}
	if int64(len(src)) < need {
		return Value{}, tooSmall
	}
	out := &ArrayValue{Dims: dims, Lbound: lbs, Elems: elems}
	si := 0
	var walk func(d, off int)
	walk = func(d, off int) {
		for i := lo[d]; i <= hi[d]; i++ {
			o := off*int(dims[d]) + int(i-int64(lbs[d]))
			if d+1 == len(dims) {
				elems[o] = src[si]
				si++
			} else {
				walk(d+1, o)
			}
		}
	}
	walk(0, 0)
	return Value{Arr: out}, nil
}

// maxArraySize is PostgreSQL's MaxArraySize: the most elements an array
// may have.
const maxArraySize = 134217727

func errArraySize() error {
	return pgerr.New(pgerr.ProgramLimitExceeded, "array size exceeds the maximum allowed (%d)", maxArraySize)
}

func errSliceBounds() error {
	return pgerr.New(pgerr.ArraySubscriptError, "array slice subscript must provide both boundaries").
		WithDetail("When assigning to a slice of an empty array value, slice boundaries must be fully specified.")
}
