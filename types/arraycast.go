package types

// castArray is array_coerce: each element cast from from's element type to
// to's (with its typmod), dimensions and bounds kept; to an array of a
// domain, each element then checked against the domain (domain_check).
func castArray(ctx *EvalContext, v Value, from, to Type, explicit bool) (Value, error) {
	fe, te := from.ElemType(), to.ElemType()
	a := v.Arr
	out := &ArrayValue{Dims: a.Dims, Lbound: a.Lbound, Elems: make([]Value, len(a.Elems))}
	for i, e := range a.Elems {
		c, err := CastValue(ctx, e, fe.BaseType(), te.BaseType(), explicit)
		if err == nil && te.Domain != 0 {
			c, err = checkDomainValue(ctx, te, c)
		}
		if err != nil {
			return Value{}, err
		}
		out.Elems[i] = c
	}
	return Value{Arr: out}, nil
}
