package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// bindVariadicCall binds f(..., VARIADIC arr) (types.ResolveVariadicCall):
// the array is passed whole and the function reads its elements.
func (b *binder) bindVariadicCall(s *scope, fc *pg_query.FuncCall, name string) (plan.Expr, error) {
	if hasNamedArgs(fc.Args) || fc.AggStar || fc.AggDistinct || fc.AggFilter != nil || len(fc.AggOrder) > 0 ||
		fc.AggWithinGroup || isAggregateName(name) {
		return nil, b.errAt(pgerr.New(pgerr.FeatureNotSupported, "VARIADIC is not supported with named arguments or aggregates"), fc.Location)
	}
	args, err := b.bindList(s, fc.Args)
	if err != nil {
		return nil, err
	}
	ov, err := types.ResolveVariadicCall(name, exprTypes(args))
	if err != nil {
		loc := fc.Location
		if pgerr.As(err).Code == pgerr.DatatypeMismatch {
			loc = nodeLocation(fc.Args[len(fc.Args)-1])
		}
		return nil, b.wrapAt(err, loc)
	}
	if err := b.castCallArgs(args, ov.Args, ov.AnyArgs); err != nil {
		return nil, err
	}
	return &plan.Call{Func: ov, Args: args}, nil
}

// exprTypes is the types of exprs, as function resolution takes them.
func exprTypes(exprs []plan.Expr) []types.Type {
	out := make([]types.Type, len(exprs))
	for i, e := range exprs {
		out[i] = e.Type()
	}
	return out
}
