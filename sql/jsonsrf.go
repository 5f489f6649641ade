package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// bindRowSetFunc binds a FROM item's call of a set-returning function
// other than generate_series (the json ones: types.RowSet) with ordinary
// function resolution.
// A function of records (json_each) becomes one function per column.
func (b *binder) bindRowSetFunc(fs *scope, fc *pg_query.FuncCall, name string) ([]plan.SetFunc, error) {
	args, ov, err := b.bindResolvedCall(fs, fc, name)
	if err != nil {
		return nil, err
	}
	cols := types.RecordSetColumns(ov)
	if cols == nil {
		return []plan.SetFunc{{Func: ov, Args: args}}, nil
	}
	out := make([]plan.SetFunc, len(cols))
	for i, c := range cols {
		out[i] = plan.SetFunc{Func: c, Args: args}
	}
	return out, nil
}

// bindResolvedCall binds a FROM item's function call by ordinary function
// resolution: its arguments, cast to the chosen overload's.
func (b *binder) bindResolvedCall(fs *scope, fc *pg_query.FuncCall, name string) ([]plan.Expr, *types.Overload, error) {
	args, err := b.bindList(fs, fc.Args)
	if err != nil {
		return nil, nil, err
	}
	argTypes := make([]types.Type, len(args))
	for i, a := range args {
		argTypes[i] = a.Type()
	}
	ov, err := types.ResolveFunction(name, argTypes)
	if err != nil {
		return nil, nil, b.wrapAt(err, fc.Location)
	}
	if err := b.castArgs(args, ov.Args); err != nil {
		return nil, nil, err
	}
	return args, ov, nil
}

// bindScalarInFrom binds FROM f(...) of a built-in scalar function as a
// set of one row (types.ScalarInFrom); ok is false when f is no function
// ordinary resolution finds, or not a scalar one.
func (b *binder) bindScalarInFrom(fs *scope, fc *pg_query.FuncCall, name string) (plan.SetFunc, bool, error) {
	if fc.AggStar || fc.AggDistinct || fc.Over != nil || len(fc.AggOrder) > 0 || fc.AggFilter != nil || fc.FuncVariadic || hasNamedArgs(fc.Args) {
		return plan.SetFunc{}, false, nil
	}
	args, err := b.bindList(fs, fc.Args)
	if err != nil {
		return plan.SetFunc{}, true, err
	}
	argTypes := make([]types.Type, len(args))
	for i, a := range args {
		argTypes[i] = a.Type()
	}
	ov, err := types.ResolveFunction(name, argTypes)
	if err != nil || ov.SetReturning || ov.Eval == nil {
		return plan.SetFunc{}, false, nil
	}
	if err := b.castArgs(args, ov.Args); err != nil {
		return plan.SetFunc{}, true, err
	}
	return plan.SetFunc{Func: types.ScalarInFrom(ov), Args: args}, true, nil
}
