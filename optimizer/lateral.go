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
func decorrelateApply(c *Context, n plan.Node) (plan.Node, bool) {
	a, ok := n.(*plan.Apply)
	if !ok {
		return n, false
	}
	right, hoisted, ok := decorrelate(a.Right, outputCols(a.Left))
	if !ok || subtreeReads(right, outputCols(a.Left)) {
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
	j := &plan.Join{Type: typ, Left: a.Left, Right: right, On: on}
	return restoreColumns(j, a.Columns()), true
}
