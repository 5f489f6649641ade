package sql

import (
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// functionStyleCast is PostgreSQL's function-style cast: a call of one
// argument named like a type (int4(x), float8(x), text(x)) that no function
// matches is the explicit cast to that type when one exists (the cast
// functions int4(float8) and friends are pg_proc rows there; func_get_detail
// makes the other casts FUNCDETAIL_COERCION). ok=false leaves the call's
// own "does not exist" error standing.
func (b *binder) functionStyleCast(name string, args []plan.Expr, loc int32) (plan.Expr, bool, error) {
	if len(args) != 1 {
		return nil, false, nil
	}
	t, err := types.FromTypeName([]string{name}, nil, 0)
	if err != nil || t.ID == types.Unknown {
		return nil, false, nil
	}
	from := args[0].Type()
	if _, _, explicit := types.CanCast(from, t); !explicit && from.ID != types.Unknown {
		return nil, false, nil
	}
	e, err := b.coerce(args[0], t, coerceExplicit, loc)
	return e, true, err
}
