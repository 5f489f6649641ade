package optimizer

import "github.com/joind/joind/sql/plan"

// decorrelateApply turns a lateral join into an ordinary join when its right
// side reads the left row only in filters reached through projections and
// filters (decorrelate): `a LEFT JOIN LATERAL (SELECT .. FROM b WHERE b.x =
// a.x) s ON c` is `a LEFT JOIN (SELECT .., b.x FROM b) s ON b.x = a.x AND c`,
// since per left row the right rows are exactly those the hoisted predicates
// accept. The join can then hash on the equalities instead of running the
// right side once per left row. Anything else (aggregates, LIMIT, joins or
// functions over the left row) stays an Apply.
//
// PostgreSQL flattens such a subquery too and pushes its conditions down to
// the scan (failMoves), but computes its select list above the join, on the
// joined rows only: select-list expressions that can fail move above the join
// (liftSelectList).
func decorrelateApply(c *Context, n plan.Node) (plan.Node, bool) {
	a, ok := n.(*plan.Apply)
	if !ok {
		return n, false
	}
	leftCols := outputCols(a.Left)
	right, hoisted, ok := decorrelate(a.Right, leftCols, failMoves)
	if !ok || subtreeReads(right, leftCols) {
		return n, false
	}
	typ := a.Type
	var conds []plan.Expr
	for _, e := range append(conjuncts(a.On), hoisted...) {
		if !isTrue(e) {
			conds = append(conds, e)
		}
	}
	on := andOf(conds)
	if typ == plan.CrossJoin && on != nil {
		typ = plan.InnerJoin
	}
	var lifted map[plan.ColumnID]plan.Expr
	if len(hoisted) > 0 {
		right, lifted = liftSelectList(right, typ, on)
	}
	j := &plan.Join{Type: typ, Left: a.Left, Right: right, On: on}
	if len(lifted) == 0 {
		return restoreColumns(j, a.Columns()), true
	}
	cols := a.Columns()
	exprs := make([]plan.Expr, len(cols))
	for i, col := range cols {
		if e, ok := lifted[col.ID]; ok {
			exprs[i] = e
		} else {
			exprs[i] = &plan.ColRef{ID: col.ID, T: col.Type, Name: col.Name}
		}
	}
	return &plan.Project{Input: j, Exprs: exprs, Cols: cols}, true
}

// liftSelectList takes the expressions that can fail out of the projection
// on top of a decorrelated lateral subquery (which would compute them for
// every inner row, in or out of any left row's scope) and returns them by
// output column, to be computed above the join; the projection passes the
// columns they read through instead. Kept below: what the ON reads (PostgreSQL
// evaluates ON conditions at the inner scan), volatile expressions, and under
// a LEFT join what would not be NULL on a NULL-extended row (PostgreSQL
// computes such an expression below the join as well, as a PlaceHolderVar).
func liftSelectList(right plan.Node, typ plan.JoinType, on plan.Expr) (plan.Node, map[plan.ColumnID]plan.Expr) {
	p, ok := right.(*plan.Project)
	if !ok {
		return right, nil
	}
	onCols := colSet{}
	if on != nil {
		onCols = exprCols(on)
	}
	var exprs, up []plan.Expr
	var cols []plan.Column
	lifted := map[plan.ColumnID]plan.Expr{}
	for i, e := range p.Exprs {
		col := p.Cols[i]
		if cannotFail(e) || onCols.has(col.ID) || isVolatile(e) || hasSubquery(e) ||
			typ == plan.LeftJoin && !nullOnNullColumn(e) {
			exprs, cols = append(exprs, e), append(cols, col)
			continue
		}
		lifted[col.ID] = e
		up = append(up, e)
	}
	if len(lifted) == 0 {
		return right, nil
	}
	exprs, cols = passThrough(exprs, cols, p.Input, up, colSet{})
	return &plan.Project{Input: p.Input, Exprs: exprs, Cols: cols}, lifted
}

// nullOnNullColumn reports whether e is NULL whenever a column it reads is
// NULL: strict calls and casts over columns and constants, at least one
// column among them (PostgreSQL's test for needing no PlaceHolderVar).
func nullOnNullColumn(e plan.Expr) bool {
	ok, col := true, false
	walkExpr(e, func(n plan.Expr) {
		switch x := n.(type) {
		case *plan.ColRef:
			col = true
		case *plan.Const, *plan.Param, *plan.Cast:
		case *plan.Call:
			ok = ok && x.Func.Strict
		default:
			ok = false
		}
	})
	return ok && col
}
