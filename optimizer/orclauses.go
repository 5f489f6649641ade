package optimizer

import (
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// OR clauses (as PostgreSQL's prepqual.c and orclauses.c): a conjunct common
// to every arm of an OR is factored out, (A AND B) OR (A AND C) becoming
// A AND (B OR C), so TPC-H Q19's p_partkey = l_partkey turns into a hash
// join key; and an OR over two join inputs whose every arm restricts the
// same input yields an extra filter on that input (deriveOrRestrictions).
//
// Both are exact under three-valued logic: AND and OR distribute over each
// other and absorb (A OR (A AND B) = A) in Kleene's logic as in Boolean
// logic, and a derived restriction is implied by the OR — a row the OR keeps
// (TRUE) has some arm TRUE, so that arm's conjuncts over the input are TRUE.

// factorOr rewrites the OR conjuncts of a filter's predicate or a join's
// condition.
func factorOr(_ *Context, n plan.Node) (plan.Node, bool) {
	switch x := n.(type) {
	case *plan.Filter:
		p, ok := factorConjuncts(x.Pred)
		if !ok {
			return n, false
		}
		return &plan.Filter{Input: x.Input, Pred: p}, true
	case *plan.Join:
		// A null-aware join's leading conjuncts are its IN values, by
		// position: leave its condition alone.
		if x.On == nil || x.NullAware {
			return n, false
		}
		on, ok := factorConjuncts(x.On)
		if !ok {
			return n, false
		}
		nj := *x
		nj.On = on
		return &nj, true
	}
	return n, false
}

// factorConjuncts factors every OR conjunct of e; false if none changed.
func factorConjuncts(e plan.Expr) (plan.Expr, bool) {
	var out []plan.Expr
	changed := false
	for _, c := range conjuncts(e) {
		f, ok := factorOne(c)
		if ok {
			changed = true
			out = append(out, conjuncts(f)...)
			continue
		}
		out = append(out, c)
	}
	if !changed {
		return e, false
	}
	return andOf(out), true
}

// factorOne pulls the conjuncts common to all arms of an OR in front of it.
// Volatile expressions are never merged (two calls of random() are two
// values); subqueries are left alone.
func factorOne(e plan.Expr) (plan.Expr, bool) {
	or, ok := e.(*plan.Or)
	if !ok || len(or.Args) < 2 || hasSubquery(or) || isVolatile(or) {
		return e, false
	}
	arms := make([][]plan.Expr, len(or.Args))
	for i, a := range or.Args {
		arms[i] = conjuncts(a)
	}
	var common []plan.Expr
	for _, c := range arms[0] {
		inAll := true
		for _, arm := range arms[1:] {
			if indexOf(arm, c) < 0 {
				inAll = false
				break
			}
		}
		if inAll && indexOf(common, c) < 0 {
			common = append(common, c)
		}
	}
	if len(common) == 0 {
		return e, false
	}
	var rest []plan.Expr
	absorbed := false // an arm was only the common part: A OR (A AND B) = A
	for _, arm := range arms {
		var left []plan.Expr
		for _, c := range arm {
			if indexOf(common, c) < 0 {
				left = append(left, c)
			}
		}
		if len(left) == 0 {
			absorbed = true
			break
		}
		rest = append(rest, andOf(left))
	}
	if !absorbed {
		common = append(common, &plan.Or{Args: rest})
	}
	return andOf(common), true
}

func indexOf(es []plan.Expr, e plan.Expr) int {
	for i, x := range es {
		if sameExpr(x, e) {
			return i
		}
	}
	return -1
}

// sameExpr reports whether a and b are the same expression: same forms,
// functions, types, columns and constants. Forms it does not know compare
// unequal (never a false "same").
func sameExpr(a, b plan.Expr) bool {
	switch x := a.(type) {
	case *plan.ColRef:
		y, ok := b.(*plan.ColRef)
		return ok && x.ID == y.ID && x.T == y.T
	case *plan.Const:
		y, ok := b.(*plan.Const)
		return ok && x.T == y.T && x.Val.Null == y.Val.Null && plan.FormatExpr(x) == plan.FormatExpr(y)
	case *plan.Param:
		y, ok := b.(*plan.Param)
		return ok && x.Index == y.Index && x.T == y.T
	case *plan.Call:
		y, ok := b.(*plan.Call)
		return ok && sameOverload(x.Func, y.Func) && sameExprs(x.Args, y.Args)
	case *plan.Cast:
		y, ok := b.(*plan.Cast)
		return ok && x.T == y.T && x.Explicit == y.Explicit && sameExpr(x.Input, y.Input)
	case *plan.And:
		y, ok := b.(*plan.And)
		return ok && sameExprs(x.Args, y.Args)
	case *plan.Or:
		y, ok := b.(*plan.Or)
		return ok && sameExprs(x.Args, y.Args)
	case *plan.Not:
		y, ok := b.(*plan.Not)
		return ok && sameExpr(x.Arg, y.Arg)
	case *plan.IsNull:
		y, ok := b.(*plan.IsNull)
		return ok && x.Negate == y.Negate && sameExpr(x.Arg, y.Arg)
	case *plan.BoolTest:
		y, ok := b.(*plan.BoolTest)
		return ok && x.Kind == y.Kind && sameExpr(x.Arg, y.Arg)
	case *plan.IsDistinct:
		y, ok := b.(*plan.IsDistinct)
		return ok && x.Negate == y.Negate && sameOverload(x.Eq, y.Eq) && sameExpr(x.Left, y.Left) && sameExpr(x.Right, y.Right)
	}
	return false
}

// sameOverload: the binder instantiates an overload per call, so two calls
// of one built-in are told by name and resolved types (a name and argument
// types pick one built-in).
func sameOverload(a, b *types.Overload) bool {
	if a == b {
		return true
	}
	if a == nil || b == nil || a.Name != b.Name || a.Result != b.Result || len(a.Args) != len(b.Args) {
		return false
	}
	for i := range a.Args {
		if a.Args[i] != b.Args[i] {
			return false
		}
	}
	return true
}

func sameExprs(a, b []plan.Expr) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !sameExpr(a[i], b[i]) {
			return false
		}
	}
	return true
}

// DeriveOrRestrictions adds, below every inner join, the restrictions its
// OR conditions imply for each input: for an OR conjunct whose every arm
// has conjuncts over only the left (right) input, the OR of those is a
// filter on that input (Q7's (n1 = 'FRANCE' AND n2 = 'GERMANY') OR (n1 =
// 'GERMANY' AND n2 = 'FRANCE') restricts n1 and n2 each to two names). The
// OR itself stays in the condition. It runs once (Plan), since the derived
// filter moves away from the OR that implies it; only conjuncts that cannot
// fail are used, as they are then evaluated on rows the join would not
// reach.
func DeriveOrRestrictions(n plan.Node) plan.Node {
	kids := n.Children()
	newKids := make([]plan.Node, len(kids))
	changed := false
	for i, k := range kids {
		newKids[i] = DeriveOrRestrictions(k)
		changed = changed || newKids[i] != k
	}
	if changed {
		n = n.WithChildren(newKids)
	}
	j, ok := n.(*plan.Join)
	if !ok || j.On == nil || (j.Type != plan.InnerJoin && j.Type != plan.CrossJoin) {
		return n
	}
	leftCols, rightCols := outputCols(j.Left), outputCols(j.Right)
	var toLeft, toRight []plan.Expr
	for _, c := range conjuncts(j.On) {
		or, ok := c.(*plan.Or)
		if !ok || hasSubquery(or) || isVolatile(or) {
			continue
		}
		// As PostgreSQL (orclauses.c), a restriction estimated to keep over
		// 90% of the input is not worth evaluating.
		if d := orRestriction(or, leftCols); d != nil && filterSelectivity(d, j.Left) <= 0.9 {
			toLeft = append(toLeft, d)
		}
		if d := orRestriction(or, rightCols); d != nil && filterSelectivity(d, j.Right) <= 0.9 {
			toRight = append(toRight, d)
		}
	}
	if len(toLeft)+len(toRight) == 0 {
		return n
	}
	nj := *j
	if len(toLeft) > 0 {
		nj.Left = &plan.Filter{Input: j.Left, Pred: andOf(toLeft)}
	}
	if len(toRight) > 0 {
		nj.Right = &plan.Filter{Input: j.Right, Pred: andOf(toRight)}
	}
	return &nj
}

// orRestriction is the OR over or's arms of each arm's conjuncts that read
// only side (and at least one column of it), or nil when some arm has none,
// when that is or itself, or when a part could fail.
func orRestriction(or *plan.Or, side colSet) plan.Expr {
	arms := make([]plan.Expr, 0, len(or.Args))
	whole := true
	for _, a := range or.Args {
		var mine []plan.Expr
		cs := conjuncts(a)
		for _, c := range cs {
			cols := exprCols(c)
			if len(cols) > 0 && cols.subsetOf(side) && cannotFail(c) {
				mine = append(mine, c)
			}
		}
		if len(mine) == 0 {
			return nil
		}
		whole = whole && len(mine) == len(cs)
		arms = append(arms, andOf(mine))
	}
	if whole {
		return nil // the OR reads only this side: it is pushed down itself
	}
	return &plan.Or{Args: arms}
}
