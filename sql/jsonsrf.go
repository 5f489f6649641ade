package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/joind/joind/pgerr"
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

// bindScalarInFrom binds FROM f(...) for a function that returns no
// set: the call binds as it would in a select list (so its errors are the
// select list's), and the scan yields its one value, NULL included, as one
// row (types.ScalarInFrom). A call that binds to a set-returning function
// this path cannot run stays 0A000.
func (b *binder) bindScalarInFrom(fs *scope, fc *pg_query.FuncCall, name string) (plan.SetFunc, error) {
	e, err := b.bindExpr(fs, &pg_query.Node{Node: &pg_query.Node_FuncCall{FuncCall: fc}})
	if err != nil {
		return plan.SetFunc{}, err
	}
	if lastSetFunc(e) != nil {
		return plan.SetFunc{}, b.errAt(pgerr.New(pgerr.FeatureNotSupported, "function %s in FROM is not supported", name), fc.Location)
	}
	return plan.SetFunc{Func: types.ScalarInFrom(name, e.Type()), Args: []plan.Expr{e}}, nil
}
