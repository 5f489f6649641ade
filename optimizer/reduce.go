package optimizer

import (
	"github.com/joind/joind/sql/plan"
)

// ReduceGroupedJoins is a semi-join reduction of grouped aggregates joined
// on their group keys: in
//
//	L LEFT JOIN (SELECT k, agg(..) FROM R GROUP BY k) g ON L.x = g.k
//
// (the shape a decorrelated scalar subquery takes, scalarAggregateJoin; an
// inner join too) only groups whose key some row of L carries are ever
// read, so the aggregate need only see the rows of R whose key is among
// L's: R becomes R SEMI JOIN S ON R.k = S.x, where S is a copy (fresh
// column IDs) of the part of L that yields x — a subtree whose values of x
// include every row of L's (through projections that pass x on, into the
// side of an inner or left join that holds x). TPC-H's Q17 then averages
// the lineitems of 200 parts, not of all 200,000, and Q20 sums those of
// the partsupp rows it reads.
//
// Exactness: a kept group keeps all of its rows (the semi join tests the
// same equality the join does, on the grouped value), so every group L
// reads is unchanged; what goes is only computation on rows of groups
// nobody reads, which is why the group keys, aggregate arguments and
// FILTERs must be unable to fail (cannotFail) — else PostgreSQL, which
// computes every group, raises the error and joind must too. S must be
// unable to fail and free of volatile calls and subqueries: it runs in full
// (also where L's rows are not all read, under a LIMIT) and twice.
//
// Plan runs it once, after the rewrites and join ordering: S is then the
// filtered subtree. A copy that would not filter (a bare table scan) is
// not made.
func ReduceGroupedJoins(c *Context, n plan.Node) plan.Node {
	kids := n.Children()
	if len(kids) > 0 {
		newKids := make([]plan.Node, len(kids))
		changed := false
		for i, k := range kids {
			newKids[i] = ReduceGroupedJoins(c, k)
			changed = changed || newKids[i] != k
		}
		if changed {
			n = n.WithChildren(newKids)
		}
	}
	j, ok := n.(*plan.Join)
	if !ok || j.Type != plan.LeftJoin && j.Type != plan.InnerJoin {
		return n
	}
	// The aggregate, or a projection of it (a derived table's select list).
	proj, _ := j.Right.(*plan.Project)
	var agg *plan.Aggregate
	if proj != nil {
		agg, ok = proj.Input.(*plan.Aggregate)
	} else {
		agg, ok = j.Right.(*plan.Aggregate)
	}
	if !ok || len(agg.GroupBy) == 0 || !aggregateCannotFail(agg) {
		return n
	}
	groupKey := func(id plan.ColumnID) int {
		if proj != nil {
			i := colIndex(proj.Cols, id)
			if i < 0 {
				return -1
			}
			r, ok := proj.Exprs[i].(*plan.ColRef)
			if !ok {
				return -1
			}
			id = r.ID
		}
		return groupKeyIndex(agg, id)
	}
	leftCols := outputCols(j.Left)
	type pair struct {
		call     *plan.Call
		groupPos int // argument position of the group key
		group    int // index into agg.GroupBy
		left     *plan.ColRef
	}
	var pairs []pair
	need := colSet{}
	for _, conj := range conjuncts(j.On) {
		call, ok := conj.(*plan.Call)
		if !ok || call.Func.Name != "=" || len(call.Args) != 2 {
			continue
		}
		for pos := 0; pos < 2; pos++ {
			g, ok1 := call.Args[pos].(*plan.ColRef)
			l, ok2 := call.Args[1-pos].(*plan.ColRef)
			if !ok1 || !ok2 || !leftCols.has(l.ID) {
				continue
			}
			if gi := groupKey(g.ID); gi >= 0 {
				pairs = append(pairs, pair{call, pos, gi, l})
				need.add(l.ID)
				break
			}
		}
	}
	if len(pairs) == 0 {
		return n
	}
	src := keySource(j.Left, need)
	if !filtersRows(src) || !subtreeCannotFail(src) {
		return n
	}
	ids := map[plan.ColumnID]plan.ColumnID{}
	dup, ok := cloneFresh(c, src, ids)
	if !ok {
		return n
	}
	dupCols := map[plan.ColumnID]plan.Column{}
	for _, col := range dup.Columns() {
		dupCols[col.ID] = col
	}
	var on []plan.Expr
	for _, p := range pairs {
		col, ok := dupCols[ids[p.left.ID]]
		if !ok {
			return n
		}
		args := make([]plan.Expr, 2)
		args[p.groupPos] = agg.GroupBy[p.group]
		args[1-p.groupPos] = &plan.ColRef{ID: col.ID, T: col.Type, Name: col.Name}
		if _, _, ok := hashCompatible(args[0], args[1]); !ok {
			return n
		}
		on = append(on, &plan.Call{Func: p.call.Func, Args: args})
	}
	reduced := *agg
	reduced.Input = &plan.Join{Type: plan.SemiJoin, Left: agg.Input, Right: dup, On: andOf(on)}
	out := *j
	out.Right = &reduced
	if proj != nil {
		out.Right = &plan.Project{Input: &reduced, Exprs: proj.Exprs, Cols: proj.Cols}
	}
	return &out
}

func colIndex(cols []plan.Column, id plan.ColumnID) int {
	for i, c := range cols {
		if c.ID == id {
			return i
		}
	}
	return -1
}

// groupKeyIndex is the index of the group key agg outputs as column id, or -1.
func groupKeyIndex(agg *plan.Aggregate, id plan.ColumnID) int {
	for i := range agg.GroupBy {
		if agg.Cols[i].ID == id {
			return i
		}
	}
	return -1
}

// aggregateCannotFail reports whether nothing agg computes per input row
// can fail: its group keys, aggregate arguments and FILTERs.
func aggregateCannotFail(agg *plan.Aggregate) bool {
	for _, g := range agg.GroupBy {
		if !cannotFail(g) || isVolatile(g) {
			return false
		}
	}
	for _, a := range agg.Aggs {
		for _, arg := range a.Args {
			if !cannotFail(arg) || isVolatile(arg) {
				return false
			}
		}
		if a.Filter != nil && (!cannotFail(a.Filter) || isVolatile(a.Filter)) {
			return false
		}
	}
	return true
}

// keySource descends from n to the smallest subtree whose output holds the
// columns need and whose values of them include those of every row of n.
func keySource(n plan.Node, need colSet) plan.Node {
	switch x := n.(type) {
	case *plan.Project:
		for id := range need {
			if !passesThrough(x, id) {
				return n
			}
		}
		return keySource(x.Input, need)
	case *plan.Join:
		switch x.Type {
		case plan.InnerJoin, plan.CrossJoin, plan.LeftJoin:
			if need.subsetOf(outputCols(x.Left)) {
				return keySource(x.Left, need)
			}
			if x.Type != plan.LeftJoin && need.subsetOf(outputCols(x.Right)) {
				return keySource(x.Right, need)
			}
		}
	}
	return n
}

// passesThrough reports whether projection p outputs its input's column id
// unchanged, under the same ID.
func passesThrough(p *plan.Project, id plan.ColumnID) bool {
	for i, col := range p.Cols {
		if col.ID == id {
			r, ok := p.Exprs[i].(*plan.ColRef)
			return ok && r.ID == id
		}
	}
	return false
}

// filtersRows reports whether n can yield fewer rows than the tables it
// reads (a copy of a bare scan reduces nothing).
func filtersRows(n plan.Node) bool {
	switch x := n.(type) {
	case *plan.Scan:
		return false
	case *plan.Project:
		return filtersRows(x.Input)
	}
	return true
}

// subtreeCannotFail reports whether every expression of the plan cannot
// fail and is not volatile (cannotFail also refuses subqueries).
func subtreeCannotFail(n plan.Node) bool {
	for _, e := range n.Expressions() {
		if !cannotFail(e) || isVolatile(e) {
			return false
		}
	}
	for _, k := range n.Children() {
		if !subtreeCannotFail(k) {
			return false
		}
	}
	return true
}

// cloneFresh copies a plan of scans, filters, projections and joins, giving
// every column it defines a fresh ID (recorded in ids, old → new), so that
// the copy can sit beside the original in one tree. It refuses other nodes
// and expressions reading columns the plan does not define.
func cloneFresh(c *Context, n plan.Node, ids map[plan.ColumnID]plan.ColumnID) (plan.Node, bool) {
	fresh := func(cols []plan.Column) []plan.Column {
		out := make([]plan.Column, len(cols))
		for i, col := range cols {
			col.ID = c.IDs.Next()
			ids[cols[i].ID] = col.ID
			out[i] = col
		}
		return out
	}
	ok := true
	remap := func(e plan.Expr) plan.Expr {
		if e == nil {
			return nil
		}
		return plan.Rewrite(e, func(x plan.Expr) plan.Expr {
			r, isRef := x.(*plan.ColRef)
			if !isRef {
				return x
			}
			id, known := ids[r.ID]
			if !known {
				ok = false
				return x
			}
			cp := *r
			cp.ID = id
			return &cp
		})
	}
	switch x := n.(type) {
	case *plan.Scan:
		s := *x
		s.Cols = fresh(x.Cols)
		if x.RowID.ID != 0 {
			s.RowID = fresh([]plan.Column{x.RowID})[0]
		}
		s.Skip = nil
		for _, e := range x.Skip {
			s.Skip = append(s.Skip, remap(e))
		}
		return &s, ok
	case *plan.Filter:
		in, inOK := cloneFresh(c, x.Input, ids)
		if !inOK {
			return nil, false
		}
		pred := remap(x.Pred)
		return &plan.Filter{Input: in, Pred: pred}, ok
	case *plan.Project:
		in, inOK := cloneFresh(c, x.Input, ids)
		if !inOK {
			return nil, false
		}
		exprs := make([]plan.Expr, len(x.Exprs))
		for i, e := range x.Exprs {
			exprs[i] = remap(e)
		}
		return &plan.Project{Input: in, Exprs: exprs, Cols: fresh(x.Cols)}, ok
	case *plan.Join:
		if x.Mark != nil || x.NullAware {
			return nil, false
		}
		l, lok := cloneFresh(c, x.Left, ids)
		if !lok {
			return nil, false
		}
		r, rok := cloneFresh(c, x.Right, ids)
		if !rok {
			return nil, false
		}
		j := *x
		j.Left, j.Right, j.On = l, r, remap(x.On)
		return &j, ok
	}
	return nil, false
}
