package optimizer

import "github.com/joind/joind/sql/plan"

// walkExpr calls f on every node of e (pre-order), not entering subquery plans.
func walkExpr(e plan.Expr, f func(plan.Expr)) {
	plan.Walk(e, func(n plan.Expr) bool { f(n); return true })
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
	for _, id := range plan.ColumnRefs(e, nil) {
		s.add(id)
	}
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

// andOf joins conjuncts back together (nil for none), those with a
// subquery last: as PostgreSQL's order_qual_clauses puts the costly ones
// after the cheap ones, so a row the cheap ones reject never runs the
// subquery.
func andOf(es []plan.Expr) plan.Expr {
	switch len(es) {
	case 0:
		return nil
	case 1:
		return es[0]
	}
	ordered := make([]plan.Expr, 0, len(es))
	var costly []plan.Expr
	for _, e := range es {
		if hasSubquery(e) {
			costly = append(costly, e)
		} else {
			ordered = append(ordered, e)
		}
	}
	return &plan.And{Args: append(ordered, costly...)}
}

// substitute replaces column references by the expressions in m.
func substitute(e plan.Expr, m map[plan.ColumnID]plan.Expr) plan.Expr {
	return plan.Rewrite(e, func(n plan.Expr) plan.Expr {
		if c, ok := n.(*plan.ColRef); ok {
			if r, ok := m[c.ID]; ok {
				return r
			}
		}
		return n
	})
}
