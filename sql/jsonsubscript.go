package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// jsonb subscripting (types/jsonsubscript.go): x['a'][0] reads, and
// `SET x['a'][0] = v` assigns, as PostgreSQL's jsonb_subscript_transform
// binds them: no slices, and each subscript coerced to the one of integer
// and text it implicitly converts to (an unknown literal is text).

// jsonbSubscript binds x[...] over a jsonb x; ok is false when x is not
// jsonb.
func (b *binder) jsonbSubscript(s *scope, ind *pg_query.A_Indirection) (plan.Expr, bool, error) {
	if !allSubscripts(ind.Indirection) {
		return nil, false, nil
	}
	doc, err := b.bindExpr(s, ind.Arg)
	if err != nil || doc.Type().ID != types.JSONB {
		return nil, false, nil
	}
	subs, err := b.bindJSONBSubscripts(s, ind.Indirection)
	if err != nil {
		return nil, true, err
	}
	args := append([]plan.Expr{doc}, subs...)
	at := argTypes(args)
	return &plan.Call{Func: &types.Overload{Name: "jsonb_subscript", Args: at, Result: types.JSONBType, Strict: true, Leakproof: true,
		Eval: func(_ *types.EvalContext, v []types.Value) (types.Value, error) {
			return types.JSONBSubscript(v[0], subscriptTexts(v[1:], at[1:])), nil
		}}, Args: args}, true, nil
}

// bindJSONBSubscripts binds jsonb subscripts, each to int4 or text.
func (b *binder) bindJSONBSubscripts(s *scope, ind []*pg_query.Node) ([]plan.Expr, error) {
	var out []plan.Expr
	for _, n := range ind {
		idx := n.GetAIndices()
		if idx.IsSlice {
			e := idx.Uidx
			if e == nil {
				e = idx.Lidx
			}
			loc := int32(-1)
			if e != nil {
				loc = nodeLocation(e)
			}
			return nil, b.errAt(pgerr.New(pgerr.DatatypeMismatch, "jsonb subscript does not support slices"), loc)
		}
		e, err := b.bindExpr(s, idx.Uidx)
		if err != nil {
			return nil, err
		}
		want := types.TextType
		if from := e.Type(); from.ID != types.Unknown {
			var found []types.Type
			for _, t := range []types.Type{types.Int4Type, types.TextType} {
				if imp, _, _ := types.CanCast(from, t); imp || from.ID == t.ID {
					found = append(found, t)
				}
			}
			switch len(found) {
			case 0:
				return nil, b.errAt(pgerr.New(pgerr.DatatypeMismatch, "subscript type %s is not supported", typeName(from)).
					WithHint("jsonb subscript must be coercible to either integer or text."), b.locOf(e))
			case 2:
				return nil, b.errAt(pgerr.New(pgerr.DatatypeMismatch, "subscript type %s is not supported", typeName(from)).
					WithHint("jsonb subscript must be coercible to only one type, integer or text."), b.locOf(e))
			}
			want = found[0]
		}
		if e, err = b.coerce(e, want, coerceImplicit, b.locOf(e)); err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, nil
}

// subscriptTexts is the path of bound subscript values of types ts.
func subscriptTexts(vs []types.Value, ts []types.Type) []types.Value {
	out := make([]types.Value, len(vs))
	for i, v := range vs {
		out[i] = types.JSONBSubscriptText(v, ts[i])
	}
	return out
}

// bindJSONBAssign is the new value of jsonb column col after
// `col[...] = val`: base is its current value (NULL for an INSERT).
func (b *binder) bindJSONBAssign(s *scope, base plan.Expr, col string, ind []*pg_query.Node, val plan.Expr, loc int32) (plan.Expr, error) {
	subs, err := b.bindJSONBSubscripts(s, ind)
	if err != nil {
		return nil, err
	}
	v, err := b.coerce(val, types.JSONBType, coerceAssignment, b.locOf(val))
	if err == errCannotCoerce {
		return nil, b.errAt(pgerr.New(pgerr.DatatypeMismatch, "subscripted assignment to \"%s\" requires type jsonb but expression is of type %s",
			col, typeName(val.Type())).WithHint("You will need to rewrite or cast the expression."), loc)
	}
	if err != nil {
		return nil, err
	}
	args := append([]plan.Expr{base, v}, subs...)
	at := argTypes(args)
	intFirst := at[2].ID == types.Int4
	return &plan.Call{Func: &types.Overload{Name: "jsonb_subscript_assign", Args: at, Result: types.JSONBType,
		Eval: func(_ *types.EvalContext, a []types.Value) (types.Value, error) {
			return types.JSONBAssign(a[0], subscriptTexts(a[2:], at[2:]), a[1], intFirst)
		}}, Args: args}, nil
}

func argTypes(args []plan.Expr) []types.Type {
	at := make([]types.Type, len(args))
	for i, a := range args {
		at[i] = a.Type()
	}
	return at
}
