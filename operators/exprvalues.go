package operators

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/joind/joind/types"
)

// EvalValues evaluates the expression for every row of rec as boxed
// values, for a reader that wants values, not a column (a ProjectSet's
// function arguments). A call without a vectorized kernel hands its
// results over as they come: an array argument of unnest is not encoded
// into an Arrow column only to be decoded again for each row.
func (c *Compiled) EvalValues(ctx context.Context, rec arrow.Record) ([]types.Value, error) {
	if err := checkCtx(ctx); err != nil {
		return nil, err
	}
	n := int(rec.NumRows())
	st := &evalState{ctx: ctx, env: c.env}
	b := newBatch(rec.Columns(), n)
	if call, ok := c.root.(*callNode); ok && call.fast == nil {
		return call.values(st, b)
	}
	v, err := c.root.eval(st, b)
	if err != nil {
		return nil, err
	}
	out := make([]types.Value, n)
	if v.isConst() {
		for i := range out {
			out[i] = v.c
		}
		return out, nil
	}
	arr := v.materialize(c.typ, n)
	for i := range out {
		out[i] = types.GetValue(arr, c.typ, i)
	}
	return out, nil
}

// values is generic's row-by-row loop keeping the results as values.
func (n *callNode) values(st *evalState, b *batch) ([]types.Value, error) {
	argv := make([]vec, len(n.args))
	allConst := true
	for i, a := range n.args {
		v, err := a.eval(st, b)
		if err != nil {
			return nil, err
		}
		argv[i] = v
		allConst = allConst && v.isConst()
	}
	out := make([]types.Value, b.n)
	if allConst && !n.fn.Volatile {
		vals := make([]types.Value, len(argv))
		for i, v := range argv {
			vals[i] = v.c
		}
		r, err := n.call(st, vals)
		if err != nil {
			return nil, err
		}
		for i := range out {
			out[i] = r
		}
		return out, nil
	}
	vals := make([]types.Value, len(argv))
	for i := range out {
		null := false
		for k, v := range argv {
			vals[k] = v.get(n.fn.Args[k], i)
			null = null || vals[k].Null
		}
		if null && n.fn.Strict {
			out[i] = types.NullValue
			continue
		}
		r, err := n.fn.Eval(st.env.Eval, vals)
		if err != nil {
			return nil, err
		}
		out[i] = r
	}
	return out, nil
}
