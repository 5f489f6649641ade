package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// Named arguments of built-in functions: make_interval(days => 1). The
// parser has already refused a positional argument after a named one; here
// names must be distinct (ParseFuncOrColumn's 42601), and types resolves
// them to parameters, whose left-over defaults become constants.

func hasNamedArgs(args []*pg_query.Node) bool {
	for _, a := range args {
		if a.GetNamedArgExpr() != nil {
			return true
		}
	}
	return false
}

func (b *binder) bindNamedArgCall(s *scope, fc *pg_query.FuncCall, name string) (plan.Expr, error) {
	if fc.AggStar || fc.AggDistinct || fc.AggFilter != nil || len(fc.AggOrder) > 0 || fc.AggWithinGroup || isAggregateName(name) {
		for _, a := range fc.Args {
			if na := a.GetNamedArgExpr(); na != nil {
				return nil, b.errAt(pgerr.New(pgerr.FeatureNotSupported, "named arguments of aggregates are not supported"), na.Location)
			}
		}
	}
	var names []string
	args := make([]plan.Expr, 0, len(fc.Args))
	for _, a := range fc.Args {
		n := a
		if na := a.GetNamedArgExpr(); na != nil {
			for _, seen := range names {
				if seen == na.Name {
					return nil, b.errAt(pgerr.New(pgerr.SyntaxError, "argument name \"%s\" used more than once", na.Name), na.Location)
				}
			}
			names = append(names, na.Name)
			n = na.Arg
		}
		e, err := b.bindExpr(s, n)
		if err != nil {
			return nil, err
		}
		args = append(args, e)
	}
	argTypes := make([]types.Type, len(args))
	for i, a := range args {
		argTypes[i] = a.Type()
	}
	call, err := types.ResolveNamedFunction(name, argTypes, names)
	if err != nil {
		return nil, b.wrapAt(err, fc.Location)
	}
	ordered := make([]plan.Expr, len(call.ArgIndex))
	for p, i := range call.ArgIndex {
		if i >= 0 {
			ordered[p] = args[i]
		} else {
			ordered[p] = &plan.Const{Val: call.Defaults[p], T: call.Func.Args[p]}
		}
	}
	if err := b.castArgs(ordered, call.Func.Args); err != nil {
		return nil, err
	}
	return &plan.Call{Func: call.Func, Args: ordered}, nil
}
