package optimizer

import (
	"sort"

	"github.com/joind/joind/sql/plan"
)

// Join ordering (issue 4): a tree of inner and cross joins is flattened into
// its relations and conditions and rebuilt left-deep, greedily: start from
// the smallest relation, then repeatedly join the smallest relation that a
// condition connects to what is already joined (a cross product only when
// nothing connects). The order written in the query does not matter; the
// estimates from storage statistics do.

// ReorderJoins rebuilds every maximal inner-join tree of n by estimated size.
// Output columns keep their order (a projection restores it when the new
// order differs).
func ReorderJoins(n plan.Node) plan.Node {
	if isInnerJoin(n) {
		var rels []plan.Node
		var conds []plan.Expr
		flattenInner(n, &rels, &conds)
		for i, r := range rels {
			rels[i] = ReorderJoins(r)
		}
		if len(rels) > 2 {
			return restoreColumnOrder(greedyJoin(rels, conds), n.Columns())
		}
		j := *n.(*plan.Join)
		j.Left, j.Right = rels[0], rels[1]
		return &j
	}
	kids := n.Children()
	if len(kids) == 0 {
		return n
	}
	newKids := make([]plan.Node, len(kids))
	changed := false
	for i, k := range kids {
		newKids[i] = ReorderJoins(k)
		changed = changed || newKids[i] != k
	}
	if !changed {
		return n
	}
	return n.WithChildren(newKids)
}

func isInnerJoin(n plan.Node) bool {
	j, ok := n.(*plan.Join)
	return ok && (j.Type == plan.InnerJoin || j.Type == plan.CrossJoin)
}

func flattenInner(n plan.Node, rels *[]plan.Node, conds *[]plan.Expr) {
	if !isInnerJoin(n) {
		*rels = append(*rels, n)
		return
	}
	j := n.(*plan.Join)
	flattenInner(j.Left, rels, conds)
	flattenInner(j.Right, rels, conds)
	*conds = append(*conds, conjuncts(j.On)...)
}

func greedyJoin(rels []plan.Node, conds []plan.Expr) plan.Node {
	type rel struct {
		node plan.Node
		rows float64
		cols colSet
	}
	rs := make([]rel, len(rels))
	for i, r := range rels {
		rs[i] = rel{node: r, rows: EstimateRows(r), cols: outputCols(r)}
	}
	// Stable by size, so ties keep the written order.
	sort.SliceStable(rs, func(i, j int) bool { return rs[i].rows < rs[j].rows })
	condCols := make([]colSet, len(conds))
	for i, c := range conds {
		condCols[i] = exprCols(c)
	}
	usedCond := make([]bool, len(conds))

	cur, curCols, curRows := rs[0].node, rs[0].cols, rs[0].rows
	done := make([]bool, len(rs))
	done[0] = true
	for step := 1; step < len(rs); step++ {
		pick := -1
		for i := range rs {
			if done[i] {
				continue
			}
			if connects(condCols, usedCond, curCols, rs[i].cols) {
				pick = i
				break // rs is sorted: the first connected one is the smallest
			}
		}
		connected := pick >= 0
		if !connected {
			for i := range rs {
				if !done[i] {
					pick = i
					break
				}
			}
		}
		both := union(curCols, rs[pick].cols)
		var on []plan.Expr
		for i, c := range conds {
			if !usedCond[i] && condCols[i].subsetOf(both) {
				on = append(on, c)
				usedCond[i] = true
			}
		}
		typ := plan.InnerJoin
		if len(on) == 0 {
			typ = plan.CrossJoin
		}
		cur = &plan.Join{Type: typ, Left: cur, Right: rs[pick].node, On: andOf(on)}
		curCols = both
		if connected {
			curRows = max(curRows, rs[pick].rows)
		} else {
			curRows *= rs[pick].rows
		}
		done[pick] = true
	}
	// Conditions over no relation (constants) stay on the top join.
	var rest []plan.Expr
	for i, c := range conds {
		if !usedCond[i] {
			rest = append(rest, c)
		}
	}
	if len(rest) > 0 {
		j := cur.(*plan.Join)
		j.On = andOf(append(conjuncts(j.On), rest...))
		j.Type = plan.InnerJoin
	}
	return cur
}

// connects reports whether an unused condition reads both sides.
func connects(condCols []colSet, used []bool, a, b colSet) bool {
	for i, cc := range condCols {
		if used[i] || len(cc) == 0 {
			continue
		}
		if readsSet(cc, a) && readsSet(cc, b) && cc.subsetOf(union(a, b)) {
			return true
		}
	}
	return false
}

func readsSet(cols, side colSet) bool {
	for id := range cols {
		if side.has(id) {
			return true
		}
	}
	return false
}

// restoreColumnOrder projects n to cols' order if it differs.
func restoreColumnOrder(n plan.Node, cols []plan.Column) plan.Node {
	got := n.Columns()
	same := len(got) == len(cols)
	for i := 0; same && i < len(cols); i++ {
		same = got[i].ID == cols[i].ID
	}
	if same {
		return n
	}
	exprs := make([]plan.Expr, len(cols))
	for i, c := range cols {
		exprs[i] = &plan.ColRef{ID: c.ID, T: c.Type, Name: c.Name}
	}
	return &plan.Project{Input: n, Exprs: exprs, Cols: cols}
}

// EstimateRows is the planner's row estimate for a logical node.
func EstimateRows(n plan.Node) float64 {
	switch x := n.(type) {
	case *plan.Scan:
		return float64(x.Table.Stats().Rows)
	case *plan.Values:
		return float64(len(x.Rows))
	case *plan.FunctionScan:
		return 1000
	case *plan.Filter:
		return EstimateRows(x.Input) * selectivity(x.Pred)
	case *plan.Aggregate:
		if len(x.GroupBy) == 0 {
			return 1
		}
		return max(1, EstimateRows(x.Input)/10)
	case *plan.Join:
		return joinRows(x, EstimateRows(x.Left), EstimateRows(x.Right))
	case *plan.SetOp:
		return EstimateRows(x.Left) + EstimateRows(x.Right)
	case *plan.Distinct:
		return max(1, EstimateRows(x.Input)/2)
	}
	if kids := n.Children(); len(kids) == 1 {
		return EstimateRows(kids[0])
	}
	return 1000
}

// joinRows estimates a join's output from its inputs' estimates. With an
// equi-key whose distinct counts storage knows, an inner join yields
// l·r / max(d_l, d_r) rows (each key value matches r/d_r rows); otherwise
// the larger input, the usual foreign-key guess.
func joinRows(j *plan.Join, l, r float64) float64 {
	switch j.Type {
	case plan.SemiJoin, plan.AntiJoin, plan.MarkJoin:
		return l
	case plan.CrossJoin:
		return l * r
	}
	if j.On == nil {
		return l * r
	}
	inner := max(l, r)
	leftCols, rightCols := outputCols(j.Left), outputCols(j.Right)
	for _, e := range conjuncts(j.On) {
		lk, rk, _, ok := equiKey(e, leftCols, rightCols, false)
		if !ok {
			continue
		}
		dl, okl := distinctOf(j.Left, lk)
		dr, okr := distinctOf(j.Right, rk)
		if okl && okr && dl > 0 && dr > 0 {
			inner = max(1, l*r/max(dl, dr))
			break
		}
	}
	switch j.Type {
	case plan.LeftJoin:
		return max(inner, l)
	case plan.RightJoin:
		return max(inner, r)
	case plan.FullJoin:
		return max(inner, l, r)
	}
	return inner
}

// distinctOf is storage's distinct-value estimate for a key that is a plain
// column of n's input tables (through casts, projections and filters), or
// false when unknown.
func distinctOf(n plan.Node, key plan.Expr) (float64, bool) {
	for {
		c, ok := key.(*plan.Cast)
		if !ok {
			break
		}
		key = c.Input
	}
	ref, ok := key.(*plan.ColRef)
	if !ok {
		return 0, false
	}
	return columnDistinct(n, ref.ID)
}

func columnDistinct(n plan.Node, id plan.ColumnID) (float64, bool) {
	switch x := n.(type) {
	case *plan.Scan:
		for i, c := range x.Cols {
			if c.ID != id {
				continue
			}
			st := x.Table.Stats()
			if ord := x.Ordinals[i]; ord < len(st.Distinct) && st.Distinct[ord] > 0 {
				return float64(st.Distinct[ord]), true
			}
			return 0, false
		}
		return 0, false
	case *plan.Project:
		for i, c := range x.Cols {
			if c.ID == id {
				if r, ok := x.Exprs[i].(*plan.ColRef); ok {
					return columnDistinct(x.Input, r.ID)
				}
				return 0, false
			}
		}
		return columnDistinct(x.Input, id)
	case *plan.Filter, *plan.Sort, *plan.Limit, *plan.Distinct, *plan.Join:
		for _, k := range n.Children() {
			if outputCols(k).has(id) {
				return columnDistinct(k, id)
			}
		}
	}
	return 0, false
}
