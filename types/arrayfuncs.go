package types

import (
	"slices"
	"strings"

	"github.com/joind/joind/pgerr"
)

// arrayFn is an array function's body: et is the element type its
// polymorphic slots resolved to.
type arrayFn func(ctx *EvalContext, et Type, a []Value) (Value, error)

// regArray registers a function or operator over arrays; strict as in
// pg_proc.proisstrict.
func regArray(table map[string][]*builtin, key, name string, args []ID, result ID, strict bool, fn arrayFn) {
	b := &builtin{name: name, args: args, result: result, strict: strict, leakproof: false,
		bind: func(at []Type) evalFn {
			et := TextType
			for i, id := range args {
				if i < len(at) && id == idAnyArray && at[i].ID == Array {
					et = at[i].ElemType()
					break
				}
				if i < len(at) && id == idAnyElement {
					et = at[i]
				}
			}
			return func(ctx *EvalContext, a []Value) (Value, error) { return fn(ctx, et, a) }
		}}
	table[key] = append(table[key], b)
}

func arrFn(name string, args []ID, result ID, strict bool, fn arrayFn) {
	regArray(functionTable, name, name, args, result, strict, fn)
}

func arrOp(name string, args []ID, result ID, fn arrayFn) {
	regArray(operatorTable, opKey(name, len(args)), name, args, result, true, fn)
}

func arrayValue(a *ArrayValue) Value { return Value{Arr: a} }

func int4OrNull(ok bool, i int64) Value {
	if !ok {
		return NullValue
	}
	return Value{I: i}
}

// dimArg reads a dimension number argument: ok is false when the array
// has no such dimension.
func dimArg(a *ArrayValue, d int64) (int, bool) {
	if d < 1 || d > int64(len(a.Dims)) {
		return 0, false
	}
	return int(d - 1), true
}

func errConcat(detail string, args ...any) error {
	return pgerr.New(pgerr.ArraySubscriptError, "cannot concatenate incompatible arrays").WithDetail(detail, args...)
}

// concatArrays is array_cat: NULL or empty operands vanish; arrays of
// equal rank join along the first dimension; an array one rank lower is
// appended (or prepended) as a new slice, the bounds the higher rank's.
func concatArrays(x, y *ArrayValue) (*ArrayValue, error) {
	switch {
	case len(x.Dims) == 0:
		return y, nil
	case len(y.Dims) == 0:
		return x, nil
	}
	elems := append(append(make([]Value, 0, len(x.Elems)+len(y.Elems)), x.Elems...), y.Elems...)
	outer, add := x, y.Dims[0]
	switch {
	case len(x.Dims) == len(y.Dims):
		if !slices.Equal(x.Dims[1:], y.Dims[1:]) {
			return nil, errConcat("Arrays with differing element dimensions are not compatible for concatenation.")
		}
	case len(x.Dims) == len(y.Dims)+1:
		if !slices.Equal(x.Dims[1:], y.Dims) {
			return nil, errConcat("Arrays with differing dimensions are not compatible for concatenation.")
		}
		add = 1
	case len(x.Dims)+1 == len(y.Dims):
		if !slices.Equal(y.Dims[1:], x.Dims) {
			return nil, errConcat("Arrays with differing dimensions are not compatible for concatenation.")
		}
		outer, add = y, 1
	default:
		return nil, errConcat("Arrays of %d and %d dimensions are not compatible for concatenation.", len(x.Dims), len(y.Dims))
	}
	dims := append([]int32{outer.Dims[0] + add}, outer.Dims[1:]...)
	return &ArrayValue{Dims: dims, Lbound: slices.Clone(outer.Lbound), Elems: elems}, nil
}

// pushElem is array_append / array_prepend over a one-dimensional (or
// empty or NULL) array.
func pushElem(a Value, e Value, front bool) (Value, error) {
	if a.Null || len(a.Arr.Dims) == 0 {
		return arrayValue(NewArray([]Value{e})), nil
	}
	x := a.Arr
	if len(x.Dims) != 1 {
		return Value{}, pgerr.New(pgerr.DataException, "argument must be empty or one-dimensional array")
	}
	elems := make([]Value, 0, len(x.Elems)+1)
	lb := x.Lbound[0] // array_prepend readjusts the bound to the input's
	if front {
		elems = append(append(elems, e), x.Elems...)
	} else {
		elems = append(append(elems, x.Elems...), e)
	}
	return arrayValue(&ArrayValue{Dims: []int32{x.Dims[0] + 1}, Lbound: []int32{lb}, Elems: elems}), nil
}

// elemsEqual is the element comparison of array_position, array_remove and
// array_replace: IS NOT DISTINCT FROM.
func elemsEqual(x, y Value, et Type) bool {
	if x.Null || y.Null {
		return x.Null && y.Null
	}
	return Compare(x, y, et) == 0
}

// containsAll reports whether every non-NULL... element of x is equal to
// some element of y (arraycontained: a NULL element matches nothing).
func containsAll(x, y *ArrayValue, et Type) bool {
	for _, e := range x.Elems {
		if e.Null {
			return false
		}
		found := false
		for _, f := range y.Elems {
			if !f.Null && Compare(e, f, et) == 0 {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

func arraysOverlap(x, y *ArrayValue, et Type) bool {
	for _, e := range x.Elems {
		if e.Null {
			continue
		}
		for _, f := range y.Elems {
			if !f.Null && Compare(e, f, et) == 0 {
				return true
			}
		}
	}
	return false
}

func oneDim(a *ArrayValue, what string) error {
	if len(a.Dims) > 1 {
		return pgerr.New(pgerr.FeatureNotSupported, "%s", what)
	}
	return nil
}

func registerArrayFuncs() {
	A, E, I, T := idAnyArray, idAnyElement, Int4, Text
	cmp := func(name string, ok func(int) bool) {
		arrOp(name, []ID{A, A}, Bool, func(_ *EvalContext, et Type, a []Value) (Value, error) {
			return BoolValue(ok(compareArrays(a[0].Arr, a[1].Arr, et))), nil
		})
	}
	cmp("=", func(c int) bool { return c == 0 })
	cmp("<>", func(c int) bool { return c != 0 })
	cmp("<", func(c int) bool { return c < 0 })
	cmp("<=", func(c int) bool { return c <= 0 })
	cmp(">", func(c int) bool { return c > 0 })
	cmp(">=", func(c int) bool { return c >= 0 })
	arrOp("@>", []ID{A, A}, Bool, func(_ *EvalContext, et Type, a []Value) (Value, error) {
		return BoolValue(containsAll(a[1].Arr, a[0].Arr, et)), nil
	})
	arrOp("<@", []ID{A, A}, Bool, func(_ *EvalContext, et Type, a []Value) (Value, error) {
		return BoolValue(containsAll(a[0].Arr, a[1].Arr, et)), nil
	})
	arrOp("&&", []ID{A, A}, Bool, func(_ *EvalContext, et Type, a []Value) (Value, error) {
		return BoolValue(arraysOverlap(a[0].Arr, a[1].Arr, et)), nil
	})
	cat := func(_ *EvalContext, _ Type, a []Value) (Value, error) {
		switch {
		case a[0].Null && a[1].Null:
			return NullValue, nil
		case a[0].Null:
			return a[1], nil
		case a[1].Null:
			return a[0], nil
		}
		r, err := concatArrays(a[0].Arr, a[1].Arr)
		if err != nil {
			return Value{}, err
		}
		return arrayValue(r), nil
	}
	appendFn := func(_ *EvalContext, _ Type, a []Value) (Value, error) { return pushElem(a[0], a[1], false) }
	prependFn := func(_ *EvalContext, _ Type, a []Value) (Value, error) { return pushElem(a[1], a[0], true) }
	for _, op := range []struct {
		args []ID
		fn   arrayFn
	}{{[]ID{A, A}, cat}, {[]ID{A, E}, appendFn}, {[]ID{E, A}, prependFn}} {
		regArray(operatorTable, opKey("||", 2), "||", op.args, A, false, op.fn)
	}
	arrFn("array_cat", []ID{A, A}, A, false, cat)
	arrFn("array_append", []ID{A, E}, A, false, appendFn)
	arrFn("array_prepend", []ID{E, A}, A, false, prependFn)

	arrFn("array_ndims", []ID{A}, I, true, func(_ *EvalContext, _ Type, a []Value) (Value, error) {
		return int4OrNull(len(a[0].Arr.Dims) > 0, int64(len(a[0].Arr.Dims))), nil
	})
	arrFn("array_dims", []ID{A}, T, true, func(_ *EvalContext, _ Type, a []Value) (Value, error) {
		x := a[0].Arr
		if len(x.Dims) == 0 {
			return NullValue, nil
		}
		return Value{S: string(appendArrayDims(nil, x))}, nil
	})
	dimFn := func(name string, f func(x *ArrayValue, d int) int64) {
		arrFn(name, []ID{A, I}, I, true, func(_ *EvalContext, _ Type, a []Value) (Value, error) {
			d, ok := dimArg(a[0].Arr, a[1].I)
			if !ok {
				return NullValue, nil
			}
			return Value{I: f(a[0].Arr, d)}, nil
		})
	}
	dimFn("array_length", func(x *ArrayValue, d int) int64 { return int64(x.Dims[d]) })
	dimFn("array_lower", func(x *ArrayValue, d int) int64 { return int64(x.Lbound[d]) })
	dimFn("array_upper", func(x *ArrayValue, d int) int64 { return int64(x.Lbound[d] + x.Dims[d] - 1) })
	arrFn("cardinality", []ID{A}, I, true, func(_ *EvalContext, _ Type, a []Value) (Value, error) {
		return Value{I: int64(len(a[0].Arr.Elems))}, nil
	})
	position := func(_ *EvalContext, et Type, a []Value) (Value, error) {
		if a[0].Null {
			return NullValue, nil
		}
		x := a[0].Arr
		if err := oneDim(x, "searching for elements in multidimensional arrays is not supported"); err != nil {
			return Value{}, err
		}
		start := 0
		if len(a) == 3 {
			if a[2].Null {
				return Value{}, pgerr.New(pgerr.NullValueNotAllowed, "initial position must not be null")
			}
			if len(x.Dims) > 0 {
				start = max(int(a[2].I-int64(x.Lbound[0])), 0)
			}
		}
		for i := start; i < len(x.Elems); i++ {
			if elemsEqual(x.Elems[i], a[1], et) {
				return Value{I: int64(i) + int64(x.Lbound[0])}, nil
			}
		}
		return NullValue, nil
	}
	arrFn("array_position", []ID{A, E}, I, false, position)
	arrFn("array_position", []ID{A, E, I}, I, false, position)
	arrFn("array_positions", []ID{A, E}, intArrayID, false, func(_ *EvalContext, et Type, a []Value) (Value, error) {
		if a[0].Null {
			return NullValue, nil
		}
		x := a[0].Arr
		if err := oneDim(x, "searching for elements in multidimensional arrays is not supported"); err != nil {
			return Value{}, err
		}
		var out []Value
		for i, e := range x.Elems {
			if elemsEqual(e, a[1], et) {
				out = append(out, Value{I: int64(i) + int64(x.Lbound[0])})
			}
		}
		return arrayValue(NewArray(out)), nil
	})
	replace := func(x *ArrayValue, et Type, from Value, to *Value) (Value, error) {
		if err := oneDim(x, "removing elements from multidimensional arrays is not supported"); err != nil && to == nil {
			return Value{}, err
		}
		out := make([]Value, 0, len(x.Elems))
		for _, e := range x.Elems {
			switch {
			case !elemsEqual(e, from, et):
				out = append(out, e)
			case to != nil:
				out = append(out, *to)
			}
		}
		if to != nil {
			return arrayValue(&ArrayValue{Dims: x.Dims, Lbound: x.Lbound, Elems: out}), nil
		}
		if len(out) == len(x.Elems) {
			return arrayValue(x), nil
		}
		r := NewArray(out)
		if len(out) > 0 {
			r.Lbound[0] = x.Lbound[0]
		}
		return arrayValue(r), nil
	}
	arrFn("array_remove", []ID{A, E}, A, false, func(_ *EvalContext, et Type, a []Value) (Value, error) {
		if a[0].Null {
			return NullValue, nil
		}
		return replace(a[0].Arr, et, a[1], nil)
	})
	arrFn("array_replace", []ID{A, E, E}, A, false, func(_ *EvalContext, et Type, a []Value) (Value, error) {
		if a[0].Null {
			return NullValue, nil
		}
		return replace(a[0].Arr, et, a[1], &a[2])
	})
	toString := func(ctx *EvalContext, et Type, a []Value) (Value, error) {
		if a[0].Null || a[1].Null {
			return NullValue, nil
		}
		var b strings.Builder
		first := true
		f := ctxFormat(ctx)
		for _, e := range a[0].Arr.Elems {
			var s string
			switch {
			case !e.Null:
				s = string(FormatText(nil, e, et, f))
			case len(a) == 3 && !a[2].Null:
				s = a[2].S
			default:
				continue
			}
			if !first {
				b.WriteString(a[1].S)
			}
			first = false
			b.WriteString(s)
		}
		return Value{S: b.String()}, nil
	}
	arrFn("array_to_string", []ID{A, T}, T, true, toString)
	arrFn("array_to_string", []ID{A, T, T}, T, false, toString)
	splitFn := func(_ *EvalContext, _ Type, a []Value) (Value, error) { return StringToArray(a), nil }
	arrFn("string_to_array", []ID{T, T}, textArrayID, false, splitFn)
	arrFn("string_to_array", []ID{T, T, T}, textArrayID, false, splitFn)
	arrFn("trim_array", []ID{A, I}, A, true, func(_ *EvalContext, _ Type, a []Value) (Value, error) {
		x := a[0].Arr
		n := int64(0)
		if len(x.Dims) > 0 {
			n = int64(x.Dims[0])
		}
		if a[1].I < 0 || a[1].I > n {
			return Value{}, pgerr.New(pgerr.ArraySubscriptError, "number of elements to trim must be between 0 and %d", n)
		}
		keep := n - a[1].I
		if keep == 0 {
			return arrayValue(&ArrayValue{}), nil
		}
		per := len(x.Elems) / int(n)
		dims := append([]int32{int32(keep)}, x.Dims[1:]...)
		// a slice, as array_get_slice makes it: every lower bound 1
		lb := make([]int32, len(dims))
		for i := range lb {
			lb[i] = 1
		}
		return arrayValue(&ArrayValue{Dims: dims, Lbound: lb, Elems: x.Elems[:int(keep)*per]}), nil
	})
}

func init() {
	// unnest's rows come from package operators (arrayunnest.go).
	regArray(functionTable, "unnest", "unnest", []ID{idAnyArray}, idAnyElement, true, func(*EvalContext, Type, []Value) (Value, error) {
		return Value{}, pgerr.New(pgerr.FeatureNotSupported, "set-returning function called in a context that cannot accept a set")
	})
	b := functionTable["unnest"]
	b[len(b)-1].setReturning = true
}

// arrayFill is array_fill(value, dims [, lower bounds]).
func arrayFill(_ *EvalContext, _ Type, a []Value) (Value, error) {
	if a[1].Null || len(a) == 3 && a[2].Null {
		return Value{}, pgerr.New(pgerr.NullValueNotAllowed, "dimension array or low bound array cannot be null")
	}
	dims := a[1].Arr
	if len(dims.Dims) > 1 {
		return Value{}, pgerr.New(pgerr.ArraySubscriptError, "wrong number of array subscripts").WithDetail("Dimension array must be one dimensional.")
	}
	var lbs *ArrayValue
	if len(a) == 3 {
		lbs = a[2].Arr
		if len(lbs.Dims) > 1 {
			return Value{}, pgerr.New(pgerr.ArraySubscriptError, "wrong number of array subscripts").WithDetail("Dimension array must be one dimensional.")
		}
		if len(lbs.Elems) != len(dims.Elems) {
			return Value{}, pgerr.New(pgerr.ArraySubscriptError, "wrong number of array subscripts").WithDetail("Low bound array has different size than dimensions array.")
		}
	}
	if len(dims.Elems) == 0 {
		return arrayValue(&ArrayValue{}), nil
	}
	if len(dims.Elems) > maxArrayDims {
		return Value{}, pgerr.New(pgerr.ProgramLimitExceeded, "number of array dimensions (%d) exceeds the maximum allowed (%d)", len(dims.Elems), maxArrayDims)
	}
	out := &ArrayValue{Dims: make([]int32, len(dims.Elems)), Lbound: make([]int32, len(dims.Elems))}
	n := int64(1)
	for i, d := range dims.Elems {
		if d.Null || lbs != nil && lbs.Elems[i].Null {
			return Value{}, pgerr.New(pgerr.NullValueNotAllowed, "dimension values cannot be null")
		}
		out.Dims[i], out.Lbound[i] = int32(d.I), 1
		if lbs != nil {
			out.Lbound[i] = int32(lbs.Elems[i].I)
		}
		if d.I < 0 {
			return Value{}, errArraySize()
		}
		if d.I == 0 {
			return arrayValue(&ArrayValue{}), nil
		}
		if n *= d.I; n > maxArraySize {
			return Value{}, errArraySize()
		}
	}
	out.Elems = make([]Value, n)
	for i := range out.Elems {
		out.Elems[i] = a[0]
	}
	return arrayValue(out), nil
}

func init() {
	arrFn("array_fill", []ID{idAnyElement, intArrayID}, idAnyArray, false, arrayFill)
	arrFn("array_fill", []ID{idAnyElement, intArrayID, intArrayID}, idAnyArray, false, arrayFill)
}

// StringToArray is string_to_array(s, delimiter [, null string]): a NULL
// delimiter splits into characters, an empty one not at all; pieces equal
// to the null string are NULL. It is string_to_table's split too.
func StringToArray(a []Value) Value {
	if a[0].Null {
		return NullValue
	}
	var parts []string
	s := a[0].S
	switch {
	case s == "":
	case a[1].Null:
		for _, r := range s {
			parts = append(parts, string(r))
		}
	case a[1].S == "":
		parts = []string{s}
	default:
		parts = strings.Split(s, a[1].S)
	}
	out := make([]Value, len(parts))
	for i, p := range parts {
		if len(a) == 3 && !a[2].Null && p == a[2].S {
			out[i] = NullValue
		} else {
			out[i] = Value{S: p}
		}
	}
	return arrayValue(NewArray(out))
}

func init() {
	srf := func(name string, args []ID, result ID) {
		regArray(functionTable, name, name, args, result, false, func(*EvalContext, Type, []Value) (Value, error) {
			return Value{}, pgerr.New(pgerr.FeatureNotSupported, "set-returning function called in a context that cannot accept a set")
		})
		b := functionTable[name]
		b[len(b)-1].setReturning = true
	}
	srf("generate_subscripts", []ID{idAnyArray, Int4}, Int4)
	srf("generate_subscripts", []ID{idAnyArray, Int4, Bool}, Int4)
	srf("string_to_table", []ID{Text, Text}, Text)
	srf("string_to_table", []ID{Text, Text, Text}, Text)
}
