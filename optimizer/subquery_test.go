package optimizer

import (
	"testing"

	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// TestCannotFail checks which expressions decorrelation may move onto rows
// outside a subquery's correlation scope, and PostgreSQL's qual costs.
func TestCannotFail(t *testing.T) {
	op := func(name string, l, r plan.Expr) plan.Expr {
		o, err := types.ResolveOperator(name, l.Type(), r.Type())
		if err != nil {
			t.Fatal(err)
		}
		return &plan.Call{Func: o, Args: []plan.Expr{l, r}}
	}
	col := &plan.ColRef{ID: 1, T: types.Int4Type}
	num := &plan.ColRef{ID: 2, T: types.NumericType}
	day := &plan.ColRef{ID: 3, T: types.DateType}
	ten := &plan.Const{Val: types.Value{I: 10}, T: types.Int4Type}
	zero := &plan.Const{Val: types.Value{I: 0}, T: types.Int4Type}
	iv := &plan.Const{Val: types.Value{}, T: types.IntervalType}
	for _, c := range []struct {
		name string
		e    plan.Expr
		ok   bool
		cost int
	}{
		{"int4 =", op("=", col, ten), true, 1},
		{"division", op(">", op("/", ten, col), zero), false, 2},
		{"numeric <: not leakproof in PostgreSQL", op("<", num, num), false, 1},
		{"widening cast", &plan.Cast{Input: col, T: types.Int8Type}, true, 1},
		{"narrowing cast", &plan.Cast{Input: num, T: types.Int4Type}, false, 1},
		{"typmod cast", &plan.Cast{Input: col, T: types.Type{ID: types.Numeric, Typmod: (5 << 16) + 4}}, false, 1},
		{"AND, IS NULL, CASE over leakproof", &plan.And{Args: []plan.Expr{
			&plan.IsNull{Arg: col}, &plan.Case{Whens: []plan.When{{Cond: op("<", col, ten), Result: col}}, T: types.Int4Type}}}, true, 1},
		{"a division under OR", &plan.Or{Args: []plan.Expr{op("=", col, ten), op("=", op("/", ten, col), ten)}}, false, 3},
		{"a constant division folds while planning", op("=", col, op("/", ten, zero)), true, 1},
		{"date < date + interval (constant)", op("<", day, op("+", &plan.Const{Val: types.Value{}, T: types.DateType}, iv)), false, 1},
		{"subquery", &plan.Subquery{Kind: plan.ExistsSubquery, Plan: &plan.Values{}, T: types.BoolType}, false, 1000},
	} {
		if got := cannotFail(c.e); got != c.ok {
			t.Errorf("%s: cannotFail = %v, want %v", c.name, got, c.ok)
		}
		if got := qualCost(c.e); got != c.cost {
			t.Errorf("%s: qualCost = %d, want %d", c.name, got, c.cost)
		}
	}
}
