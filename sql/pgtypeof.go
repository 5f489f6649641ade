package sql

import (
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// pgTypeof binds pg_typeof(x): the name regtype output gives x's type
// ("unknown" for an untyped literal).
// The argument is still evaluated (its errors are PostgreSQL's too); the
// result is text, as joind's regtype values are (pgcatalog.go's regCast),
// not a regtype column.
func (b *binder) pgTypeof(args []plan.Expr) plan.Expr {
	name := types.TextValue(args[0].Type().BaseSQLName()) // regtypeout's format_type_be
	return &plan.Call{Func: &types.Overload{Name: "pg_typeof", Args: []types.Type{args[0].Type()}, Result: types.TextType, Stable: true,
		Eval: func(*types.EvalContext, []types.Value) (types.Value, error) { return name, nil }}, Args: args}
}
