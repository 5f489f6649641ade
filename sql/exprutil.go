package sql

import (
	"math"

	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// exprEqual reports whether two bound expressions are structurally equal
// (PostgreSQL's equal() on expression trees), used to match GROUP BY and
// ORDER BY expressions against the select list.
func exprEqual(a, b plan.Expr) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	switch x := a.(type) {
	case *plan.ColRef:
		y, ok := b.(*plan.ColRef)
		return ok && x.ID == y.ID
	case *plan.Const:
		y, ok := b.(*plan.Const)
		return ok && x.T == y.T && valueEqual(x.Val, y.Val)
	case *plan.Param:
		y, ok := b.(*plan.Param)
		return ok && x.Index == y.Index
	case *plan.Call:
		y, ok := b.(*plan.Call)
		if !ok || x.Func.Name != y.Func.Name || x.Func.Result != y.Func.Result || x.Func.Volatile {
			return false
		}
		return exprsEqual(x.Args, y.Args)
	case *plan.Cast:
		y, ok := b.(*plan.Cast)
		return ok && x.T == y.T && exprEqual(x.Input, y.Input)
	case *plan.And:
		y, ok := b.(*plan.And)
		return ok && exprsEqual(x.Args, y.Args)
	case *plan.Or:
		y, ok := b.(*plan.Or)
		return ok && exprsEqual(x.Args, y.Args)
	case *plan.Not:
		y, ok := b.(*plan.Not)
		return ok && exprEqual(x.Arg, y.Arg)
	case *plan.IsNull:
		y, ok := b.(*plan.IsNull)
		return ok && x.Negate == y.Negate && exprEqual(x.Arg, y.Arg)
	case *plan.BoolTest:
		y, ok := b.(*plan.BoolTest)
		return ok && x.Kind == y.Kind && exprEqual(x.Arg, y.Arg)
	case *plan.IsDistinct:
		y, ok := b.(*plan.IsDistinct)
		return ok && x.Negate == y.Negate && exprEqual(x.Left, y.Left) && exprEqual(x.Right, y.Right)
	case *plan.Case:
		y, ok := b.(*plan.Case)
		if !ok || x.T != y.T || len(x.Whens) != len(y.Whens) || !exprEqual(x.Else, y.Else) {
			return false
		}
		for i := range x.Whens {
			if !exprEqual(x.Whens[i].Cond, y.Whens[i].Cond) || !exprEqual(x.Whens[i].Result, y.Whens[i].Result) {
				return false
			}
		}
		return true
	case *plan.Coalesce:
		y, ok := b.(*plan.Coalesce)
		return ok && x.T == y.T && exprsEqual(x.Args, y.Args)
	case *plan.NullIf:
		y, ok := b.(*plan.NullIf)
		return ok && exprEqual(x.Left, y.Left) && exprEqual(x.Right, y.Right)
	case *plan.GroupingFunc:
		y, ok := b.(*plan.GroupingFunc)
		return ok && exprsEqual(x.Args, y.Args)
	case *plan.Subquery:
		// Subqueries are equal only to themselves.
		return a == b
	}
	return false
}

func exprsEqual(a, b []plan.Expr) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !exprEqual(a[i], b[i]) {
			return false
		}
	}
	return true
}

func valueEqual(a, b types.Value) bool {
	if a.Null || b.Null {
		return a.Null == b.Null
	}
	if a.Num != nil || b.Num != nil {
		return a.Num != nil && b.Num != nil && a.Num.Cmp(b.Num) == 0 && a.Num.Exponent == b.Num.Exponent
	}
	// floats by their bits: NaN is the same constant as NaN, and -0 is
	// not the constant 0 (x * -0.0 and x * 0.0 differ)
	return a.I == b.I && math.Float64bits(a.F) == math.Float64bits(b.F) && a.S == b.S && a.Iv == b.Iv
}
