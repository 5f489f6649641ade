package types

import "github.com/joind/joind/pgerr"

// array_agg(anynonarray) collects its input, NULLs included, into a
// one-dimensional array; array_agg(anyarray) stacks its input arrays into
// one more dimension (array_agg_array_transfn's rules). With no rows it is
// NULL. Merging partial states appends, so ORDER BY inside the call (the
// ordered-aggregate path feeds one accumulator in order) decides the order.

type arrayAggAcc struct {
	nested bool
	vals   []Value
}

func (a *arrayAggAcc) Add(args []Value) error {
	v := args[0]
	if a.nested {
		if v.Null {
			return pgerr.New(pgerr.NullValueNotAllowed, "cannot accumulate null arrays")
		}
		if len(v.Arr.Dims) == 0 {
			return pgerr.New(pgerr.ArraySubscriptError, "cannot accumulate empty arrays")
		}
		if len(a.vals) > 0 {
			f := a.vals[0].Arr
			if !equalDims(f.Dims, v.Arr.Dims) || !equalDims(f.Lbound, v.Arr.Lbound) {
				return pgerr.New(pgerr.ArraySubscriptError, "cannot accumulate arrays of different dimensionality")
			}
		}
	}
	a.vals = append(a.vals, v)
	return nil
}

// AccumArrays is ARRAY(subquery) over a column of arrays: the rows'
// arrays stacked into one more dimension under array_agg's rules, the
// empty array when there are none.
func AccumArrays(vals []Value) (Value, error) {
	acc := arrayAggAcc{nested: true}
	for _, v := range vals {
		if err := acc.Add([]Value{v}); err != nil {
			return Value{}, err
		}
	}
	if len(vals) == 0 {
		return Value{Arr: &ArrayValue{}}, nil
	}
	return acc.Result()
}

func (a *arrayAggAcc) Merge(o Accumulator) error {
	b, ok := o.(*arrayAggAcc)
	if !ok {
		return errAggMerge()
	}
	if a.nested && len(a.vals) > 0 && len(b.vals) > 0 {
		f, g := a.vals[0].Arr, b.vals[0].Arr
		if !equalDims(f.Dims, g.Dims) || !equalDims(f.Lbound, g.Lbound) {
			return pgerr.New(pgerr.ArraySubscriptError, "cannot accumulate arrays of different dimensionality")
		}
	}
	a.vals = append(a.vals, b.vals...)
	return nil
}

func (a *arrayAggAcc) Result() (Value, error) {
	if len(a.vals) == 0 {
		return NullValue, nil
	}
	if a.nested {
		return StackArrays(a.vals)
	}
	return Value{Arr: NewArray(a.vals)}, nil
}

// resolveArrayAgg is array_agg's resolution: one argument of any type
// that has an array type, or an array.
func resolveArrayAgg(args []Type) (*AggOverload, error) {
	if len(args) != 1 {
		return nil, funcError("array_agg", args, false)
	}
	t := args[0]
	if t.ID == Unknown {
		t = TextType
	}
	nested := t.ID == Array
	res := t
	if !nested {
		if !arrayElemOK(t.ID) {
			return nil, funcError("array_agg", args, false)
		}
		res = ArrayOf(t)
	}
	res = DropTypmod(res)
	return &AggOverload{Name: "array_agg", Args: []Type{t}, Result: res,
		New: func() Accumulator { return &arrayAggAcc{nested: nested} }}, nil
}

func init() {
	// The entry names array_agg an aggregate; resolveArrayAgg resolves it.
	regAgg("array_agg", []ID{idAnyNonArray}, idAnyArray, nil)
}

// arrayMinMax is min(anyarray) / max(anyarray): array_smaller and
// array_larger, by btarraycmp's order.
func arrayMinMax(name string, t Type) *AggOverload {
	t = DropTypmod(t)
	return &AggOverload{Name: name, Args: []Type{t}, Result: t,
		New: func() Accumulator { return &minMaxAcc{t: t, max: name == "max"} }}
}
