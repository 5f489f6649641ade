package optimizer

import "github.com/joind/joind/sql/plan"

// mapExpr rebuilds e bottom-up, replacing each node by f(node) after its
// children were mapped. Subquery plans are not entered (their outer
// references are handled by the subquery rules).
func mapExpr(e plan.Expr, f func(plan.Expr) plan.Expr) plan.Expr {
	if e == nil {
		return nil
	}
	mapAll := func(in []plan.Expr) []plan.Expr {
		out := make([]plan.Expr, len(in))
		for i, a := range in {
			out[i] = mapExpr(a, f)
		}
		return out
	}
	switch x := e.(type) {
	case *plan.Call:
		c := *x
		c.Args = mapAll(x.Args)
		return f(&c)
	case *plan.Cast:
		c := *x
		c.Input = mapExpr(x.Input, f)
		return f(&c)
	case *plan.And:
		return f(&plan.And{Args: mapAll(x.Args)})
	case *plan.Or:
		return f(&plan.Or{Args: mapAll(x.Args)})
	case *plan.Not:
		return f(&plan.Not{Arg: mapExpr(x.Arg, f)})
	case *plan.IsNull:
		return f(&plan.IsNull{Arg: mapExpr(x.Arg, f), Negate: x.Negate})
	case *plan.BoolTest:
		return f(&plan.BoolTest{Arg: mapExpr(x.Arg, f), Kind: x.Kind})
	case *plan.IsDistinct:
		c := *x
		c.Left, c.Right = mapExpr(x.Left, f), mapExpr(x.Right, f)
		return f(&c)
	case *plan.Case:
		c := &plan.Case{T: x.T, Else: mapExpr(x.Else, f)}
		for _, w := range x.Whens {
			c.Whens = append(c.Whens, plan.When{Cond: mapExpr(w.Cond, f), Result: mapExpr(w.Result, f)})
		}
		return f(c)
	case *plan.Coalesce:
		return f(&plan.Coalesce{Args: mapAll(x.Args), T: x.T})
	case *plan.NullIf:
		c := *x
		c.Left, c.Right = mapExpr(x.Left, f), mapExpr(x.Right, f)
		return f(&c)
	case *plan.Subquery:
		c := *x
		c.LHS = mapAll(x.LHS)
		return f(&c)
	}
	return f(e)
}

// walkExpr calls f on every node of e (pre-order), not entering subquery plans.
func walkExpr(e plan.Expr, f func(plan.Expr)) {
	mapExpr(e, func(n plan.Expr) plan.Expr { f(n); return n })
}

// colSet is a set of column IDs.
type colSet map[plan.ColumnID]struct{}

func (s colSet) add(id plan.ColumnID) { s[id] = struct{}{} }
func (s colSet) has(id plan.ColumnID) bool {
	_, ok := s[id]
	return ok
}

// subsetOf reports whether every column of s is in t.
func (s colSet) subsetOf(t colSet) bool {
	for id := range s {
		if !t.has(id) {
			return false
		}
	}
	return true
}

// exprCols returns the columns e references, including the outer references
// of subqueries inside it.
func exprCols(e plan.Expr) colSet {
	s := colSet{}
	walkExpr(e, func(n plan.Expr) {
		switch x := n.(type) {
		case *plan.ColRef:
			s.add(x.ID)
		case *plan.Subquery:
			for _, id := range x.OuterRefs {
				s.add(id)
			}
		}
	})
	return s
}

// hasSubquery reports whether e contains a subquery expression.
func hasSubquery(e plan.Expr) bool {
	found := false
	walkExpr(e, func(n plan.Expr) {
		if _, ok := n.(*plan.Subquery); ok {
			found = true
		}
	})
	return found
}

// outputCols is the set of a node's output column IDs.
func outputCols(n plan.Node) colSet {
	s := colSet{}
	for _, c := range n.Columns() {
		s.add(c.ID)
	}
	return s
}

// conjuncts splits e at top-level ANDs.
func conjuncts(e plan.Expr) []plan.Expr {
	if e == nil {
		return nil
	}
	if a, ok := e.(*plan.And); ok {
		var out []plan.Expr
		for _, x := range a.Args {
			out = append(out, conjuncts(x)...)
		}
		return out
	}
	return []plan.Expr{e}
}

// andOf joins conjuncts back together (nil for none).
func andOf(es []plan.Expr) plan.Expr {
	switch len(es) {
	case 0:
		return nil
	case 1:
		return es[0]
	}
	return &plan.And{Args: es}
}

// substitute replaces column references by the expressions in m.
func substitute(e plan.Expr, m map[plan.ColumnID]plan.Expr) plan.Expr {
	return mapExpr(e, func(n plan.Expr) plan.Expr {
		if c, ok := n.(*plan.ColRef); ok {
			if r, ok := m[c.ID]; ok {
				return r
			}
		}
		return n
	})
}
