package optimizer

import (
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// decorrelateApply turns a lateral join into an ordinary join when its right
// side reads the left row only in filters reached through projections and
// filters (decorrelate): `a LEFT JOIN LATERAL (SELECT .. FROM b WHERE b.x =
// a.x) s ON c` is `a LEFT JOIN (SELECT .., b.x FROM b) s ON b.x = a.x AND c`,
// since per left row the right rows are exactly those the hoisted predicates
// accept. The join can then hash on the equalities instead of running the
// right side once per left row. An aggregate without GROUP BY over such
// rows becomes the scalar subquery's grouped left join
// (lateralAggregateJoin). Anything else (LIMIT, grouped aggregates, joins or
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
		return lateralAggregateJoin(c, a)
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

// lateralAggregateJoin decorrelates a lateral subquery that aggregates over
// equality-correlated rows without GROUP BY, `a, LATERAL (SELECT count(*),
// max(y) FROM b WHERE b.z = a.z) s`: it yields exactly one row per left
// row, so it is the scalar subquery rewrite (aggregateScopeJoin: a left join
// of the aggregate grouped by the keys, the subquery's value over no rows
// where a left row has no group) computing every column. Only when the
// lateral join's own condition is TRUE (CROSS JOIN LATERAL, or JOIN / LEFT
// JOIN LATERAL ... ON true): each left row then keeps its one row.
func lateralAggregateJoin(c *Context, a *plan.Apply) (plan.Node, bool) {
	if a.Type != plan.CrossJoin && a.Type != plan.InnerJoin && a.Type != plan.LeftJoin {
		return a, false
	}
	if a.On != nil && !isTrue(a.On) {
		return a, false
	}
	proj, ok := a.Right.(*plan.Project)
	if !ok || !subtreeReads(proj, outputCols(a.Left)) {
		return a, false
	}
	ts := make([]types.Type, len(proj.Cols))
	for i, col := range proj.Cols {
		ts[i] = col.Type
	}
	joined, values, ok := aggregateScopeJoin(c, a.Left, proj, ts)
	if !ok {
		return a, false
	}
	cols := a.Columns()
	exprs := make([]plan.Expr, 0, len(cols))
	for _, col := range a.Left.Columns() {
		exprs = append(exprs, &plan.ColRef{ID: col.ID, T: col.Type, Name: col.Name})
	}
	exprs = append(exprs, values...)
	return &plan.Project{Input: joined, Exprs: exprs, Cols: cols}, true
}
