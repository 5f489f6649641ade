package sql

import (
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// pgTypeof binds pg_typeof(x): the name regtype output gives x's type
// ("unknown" for an untyped literal).
// The argument is still evaluated (its errors are PostgreSQL's too); the
// result is text, as joind's regtype values are (pgcatalog.go's regCast),
// not a regtype column.
func (b *binder) pgTypeof(args []plan.Expr) (plan.Expr, error) {
	if p, ok := args[0].(*plan.Param); ok && p.T.ID == types.Unknown {
		// "any" leaves an untyped parameter untyped, which PostgreSQL
		// reports once the statement is analyzed (no position).
		return nil, pgerr.New("42P18", "could not determine data type of parameter $%d", p.Index)
	}
	name := types.TextValue(args[0].Type().BaseSQLName()) // regtypeout's format_type_be
	return &plan.Call{Func: &types.Overload{Name: "pg_typeof", Args: []types.Type{args[0].Type()}, Result: types.TextType, Stable: true,
		Eval: func(*types.EvalContext, []types.Value) (types.Value, error) { return name, nil }}, Args: args}, nil
}
