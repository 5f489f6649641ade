package optimizer

import (
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// foldNodeConstants folds the constant subexpressions of one node.
func foldNodeConstants(c *Context, n plan.Node) (plan.Node, bool) {
	if j, ok := n.(*plan.Join); ok && j.NullAware && j.On != nil {
		return foldNullAwareOn(c, j)
	}
	changed := false
	out := plan.MapNodeExprs(n, func(e plan.Expr) plan.Expr {
		f := FoldConstants(c.Eval, e)
		if f != e {
			changed = true
		}
		return f
	})
	if !changed {
		return n, false
	}
	return out, true
}

// foldNullAwareOn folds a null-aware join's condition below its key
// comparisons: each IN value's comparison must stay a key of the join
// (its NULL decides per row), even when both of its operands fold to
// constants (NULL::int2 / t.c NOT IN (SELECT 1 ...)).
func foldNullAwareOn(c *Context, j *plan.Join) (plan.Node, bool) {
	parts := conjuncts(j.On)
	changed := false
	for i, e := range parts {
		var f plan.Expr
		switch e.(type) {
		case *plan.Call, *plan.IsDistinct:
			f, _ = plan.MapChildren(e, func(k plan.Expr) (plan.Expr, error) { return FoldConstants(c.Eval, k), nil })
			if kids, old := f.Children(), e.Children(); equalPtrs(kids, old) {
				f = e
			}
		default:
			f = FoldConstants(c.Eval, e)
		}
		if f != e {
			parts[i], changed = f, true
		}
	}
	if !changed {
		return j, false
	}
	out := *j
	out.On = andOf(parts)
	return &out, true
}

func equalPtrs(a, b []plan.Expr) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// FoldConstants evaluates the constant parts of e at plan time. An
// expression whose evaluation fails (e.g. 1/0) is left alone so the error
// surfaces at run time, and only if the row is actually evaluated — as in
// PostgreSQL, `CASE WHEN false THEN 1/0 END` must not fail. It returns e
// itself when nothing changed.
func FoldConstants(ctx *types.EvalContext, e plan.Expr) plan.Expr {
	changed := false
	out := plan.Rewrite(e, func(n plan.Expr) plan.Expr {
		f := foldOne(ctx, n)
		if f != n {
			changed = true
		}
		return f
	})
	if !changed {
		return e
	}
	return out
}

func constOf(v types.Value, t types.Type) *plan.Const { return &plan.Const{Val: v, T: t} }

func foldOne(ctx *types.EvalContext, n plan.Expr) plan.Expr {
	switch x := n.(type) {
	case *plan.Call:
		if x.Func.Eval == nil {
			return n
		}
		// As evaluate_function: a strict call with a NULL constant argument
		// is NULL whatever its other arguments are, and whatever its
		// volatility — they are never evaluated, so their errors never arise.
		if x.Func.Strict {
			for _, a := range x.Args {
				if c, ok := isConst(a); ok && c.Val.Null {
					return constOf(types.NullValue, x.Func.Result)
				}
			}
		}
		if x.Func.Volatile {
			return n
		}
		args := make([]types.Value, len(x.Args))
		for i, a := range x.Args {
			c, ok := isConst(a)
			if !ok {
				return n
			}
			args[i] = c.Val
		}
		v, err := x.Func.Eval(ctx, args)
		if err != nil {
			return n
		}
		return constOf(v, x.Func.Result)
	case *plan.Cast:
		c, ok := isConst(x.Input)
		if !ok {
			return n
		}
		v, err := types.CastValue(ctx, c.Val, c.T, x.T, x.Explicit)
		if err != nil {
			return n
		}
		return constOf(v, x.T)
	case *plan.Not:
		if c, ok := isConst(x.Arg); ok {
			if c.Val.Null {
				return constOf(types.NullValue, types.BoolType)
			}
			return constOf(types.BoolValue(c.Val.I == 0), types.BoolType)
		}
	case *plan.And:
		if r := foldAndOr(x.Args, false); r != nil {
			return r
		}
	case *plan.Or:
		if r := foldAndOr(x.Args, true); r != nil {
			return r
		}
	case *plan.IsNull:
		if c, ok := isConst(x.Arg); ok {
			return constOf(types.BoolValue(c.Val.Null != x.Negate), types.BoolType)
		}
	}
	return n
}

// foldAndOr simplifies AND (isOr=false) or OR (isOr=true) with constant
// arguments under three-valued logic: the absorbing constant (FALSE for AND,
// TRUE for OR) decides; the neutral one is dropped; NULL stays, since
// `NULL AND x` is FALSE when x is FALSE. It returns nil when nothing folds.
func foldAndOr(args []plan.Expr, isOr bool) plan.Expr {
	absorbing := int64(0)
	if isOr {
		absorbing = 1
	}
	var rest []plan.Expr
	sawNull := false
	for _, a := range args {
		c, ok := isConst(a)
		if !ok {
			rest = append(rest, a)
			continue
		}
		switch {
		case c.Val.Null:
			sawNull = true
		case c.Val.I == absorbing:
			return constOf(types.BoolValue(isOr), types.BoolType)
		}
	}
	if sawNull {
		rest = append(rest, constOf(types.NullValue, types.BoolType))
	}
	if len(rest) == len(args) {
		return nil // nothing to simplify
	}
	switch len(rest) {
	case 0:
		return constOf(types.BoolValue(!isOr), types.BoolType)
	case 1:
		return rest[0]
	}
	if isOr {
		return &plan.Or{Args: rest}
	}
	return &plan.And{Args: rest}
}
