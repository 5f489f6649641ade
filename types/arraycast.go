package types

// castArray is array_coerce: each element cast from from's element type to
// to's (with its typmod), dimensions and bounds kept.
func castArray(ctx *EvalContext, v Value, from, to Type, explicit bool) (Value, error) {
	fe, te := from.ElemType(), to.ElemType()
	a := v.Arr
	out := &ArrayValue{Dims: a.Dims, Lbound: a.Lbound, Elems: make([]Value, len(a.Elems))}
	for i, e := range a.Elems {
		c, err := CastValue(ctx, e, fe, te, explicit)
		if err != nil {
			return Value{}, err
		}
		out.Elems[i] = c
	}
	return Value{Arr: out}, nil
}
