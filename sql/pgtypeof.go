package sql

import (
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// pgTypeof binds pg_typeof(x): the regtype of x's type (unknown for an
// untyped literal, the domain for a domain's value).
// The argument is still evaluated (its errors are PostgreSQL's too).
func (b *binder) pgTypeof(args []plan.Expr) (plan.Expr, error) {
	if p, ok := args[0].(*plan.Param); ok && p.T.ID == types.Unknown {
		// "any" leaves an untyped parameter untyped, which PostgreSQL
		// reports once the statement is analyzed (no position).
		return nil, pgerr.New("42P18", "could not determine data type of parameter $%d", p.Index)
	}
	t := args[0].Type()
	if et := t; et.ID == types.Record || et.ID == types.Array && et.Elem == types.Record {
		if et.ID == types.Array {
			et = et.ElemType()
		}
		if d := et.Desc(); d != nil && d.Name != "" {
			// A named composite type has no pg_type OID of its own in
			// joind yet: its name, as text.
			name := types.TextValue(t.BaseSQLName())
			return &plan.Call{Func: &types.Overload{Name: "pg_typeof", Args: []types.Type{t}, Result: types.TextType, Stable: true,
				Eval: func(*types.EvalContext, []types.Value) (types.Value, error) { return name, nil }}, Args: args}, nil
		}
	}
	oid := t.OID()
	switch {
	case t.Domain != 0:
		oid = t.Domain
	case t.ID == types.Unknown:
		oid = types.OIDUnknown
	}
	v := types.IntValue(int64(oid))
	return &plan.Call{Func: &types.Overload{Name: "pg_typeof", Args: []types.Type{t}, Result: types.RegTypeType, Stable: true,
		Eval: func(*types.EvalContext, []types.Value) (types.Value, error) { return v, nil }}, Args: args}, nil
}
