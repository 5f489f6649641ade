package optimizer

import (
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// PlanTimeError returns the error PostgreSQL's planner raises while it
// folds n's constant subexpressions (eval_const_expressions), or nil.
// PostgreSQL evaluates an immutable function of constants when it plans,
// so `SELECT 1/0 FROM t WHERE false` fails even though no row is read; it
// does so after dropping unused subquery outputs, and in its own order:
// AND/OR stop at a deciding constant, CASE skips the arms after a constant
// TRUE condition and the results of constant FALSE/NULL ones, COALESCE
// stops at a non-NULL constant. FoldConstants itself never fails (an
// expression it cannot fold is left for run time), so this check runs once
// on the bound plan, pruned as PostgreSQL prunes it. Stable casts
// (types.CastStable) and stable functions (Overload.Stable) are skipped:
// they read TimeZone or DateStyle, so PostgreSQL does not fold them.
func PlanTimeError(ctx *types.EvalContext, n plan.Node) error {
	c := &constChecker{ctx: ctx, ctes: map[*plan.CTE]bool{}}
	return c.node(PruneColumns(n))
}

type constChecker struct {
	ctx  *types.EvalContext
	ctes map[*plan.CTE]bool
}

func (c *constChecker) node(n plan.Node) error {
	if cs, ok := n.(*plan.CTEScan); ok && !c.ctes[cs.CTE] {
		c.ctes[cs.CTE] = true
		// Only what the body computes for its own rows: which of its
		// outputs PostgreSQL keeps depends on inlining.
		if err := c.node(prune(cs.CTE.Plan, colSet{})); err != nil {
			return err
		}
	}
	for _, e := range n.Expressions() {
		if _, err := c.simplify(e); err != nil {
			return err
		}
	}
	for _, k := range n.Children() {
		if err := c.node(k); err != nil {
			return err
		}
	}
	return nil
}

// simplify returns e's value when PostgreSQL would fold it to a constant
// (nil otherwise), or the error folding raises.
func (c *constChecker) simplify(e plan.Expr) (*plan.Const, error) {
	switch x := e.(type) {
	case *plan.Const:
		return x, nil
	case *plan.Call:
		args, err := c.all(x.Args)
		if err != nil || args == nil || x.Func.Volatile || x.Func.Stable || x.Func.Eval == nil {
			return nil, err
		}
		vals := make([]types.Value, len(args))
		for i, a := range args {
			if a.Val.Null && x.Func.Strict {
				return constOf(types.NullValue, x.Func.Result), nil
			}
			vals[i] = a.Val
		}
		v, err := x.Func.Eval(c.ctx, vals)
		if err != nil {
			return nil, err
		}
		return constOf(v, x.Func.Result), nil
	case *plan.Cast:
		in, err := c.simplify(x.Input)
		if err != nil || in == nil || types.CastStable(in.T.ID, x.T.ID) {
			return nil, err
		}
		v, err := types.CastValue(c.ctx, in.Val, in.T, x.T, x.Explicit)
		if err != nil {
			return nil, err
		}
		return constOf(v, x.T), nil
	case *plan.And:
		return c.andOr(x.Args, false)
	case *plan.Or:
		return c.andOr(x.Args, true)
	case *plan.Case:
		for _, w := range x.Whens {
			cond, err := c.simplify(w.Cond)
			if err != nil {
				return nil, err
			}
			if cond != nil && (cond.Val.Null || cond.Val.I == 0) {
				continue // the arm is dropped unsimplified
			}
			_, err = c.simplify(w.Result)
			if err != nil || cond != nil {
				return nil, err // a constant TRUE arm ends the CASE
			}
		}
		if x.Else != nil {
			_, err := c.simplify(x.Else)
			return nil, err
		}
		return nil, nil
	case *plan.Coalesce:
		for _, a := range x.Args {
			v, err := c.simplify(a)
			if err != nil {
				return nil, err
			}
			if v != nil && !v.Val.Null {
				return nil, nil
			}
		}
		return nil, nil
	case *plan.Subquery:
		if _, err := c.all(x.LHS); err != nil {
			return nil, err
		}
		p := x.Plan
		if x.Kind == plan.ExistsSubquery {
			p = prune(p, colSet{}) // EXISTS ignores its select list
		} else {
			p = PruneColumns(p)
		}
		return nil, c.node(p)
	}
	// Other expressions: check their operands.
	for _, k := range operands(e) {
		if _, err := c.simplify(k); err != nil {
			return nil, err
		}
	}
	return nil, nil
}

// all simplifies es in order; the constants are nil unless all are constant.
func (c *constChecker) all(es []plan.Expr) ([]*plan.Const, error) {
	out := make([]*plan.Const, len(es))
	allConst := true
	for i, e := range es {
		v, err := c.simplify(e)
		if err != nil {
			return nil, err
		}
		out[i] = v
		allConst = allConst && v != nil
	}
	if !allConst {
		return nil, nil
	}
	return out, nil
}

func (c *constChecker) andOr(args []plan.Expr, isOr bool) (*plan.Const, error) {
	for _, a := range args {
		v, err := c.simplify(a)
		if err != nil {
			return nil, err
		}
		if v != nil && !v.Val.Null && (v.Val.I != 0) == isOr {
			return v, nil // the deciding constant: later arguments are not simplified
		}
	}
	return nil, nil
}

// operands lists the direct sub-expressions of the expressions simplify
// does not handle itself.
func operands(e plan.Expr) []plan.Expr {
	switch e.(type) {
	case *plan.Not, *plan.IsNull, *plan.BoolTest, *plan.IsDistinct, *plan.NullIf:
		return e.Children()
	}
	return nil
}
