package optimizer

import "github.com/joind/joind/sql/plan"

// PruneColumns drops the columns no ancestor reads: unused projections,
// unused aggregates and unread table columns. The root keeps all its output
// columns.
func PruneColumns(n plan.Node) plan.Node {
	return prune(n, outputCols(n))
}

// prune returns n producing at least the columns in need (it may produce
// more; set operations and DISTINCT keep all, since every column decides
// which rows exist).
func prune(n plan.Node, need colSet) plan.Node {
	switch x := n.(type) {
	case *plan.Scan:
		var ords []int
		var cols []plan.Column
		for i, c := range x.Cols {
			if need.has(c.ID) {
				ords = append(ords, x.Ordinals[i])
				cols = append(cols, c)
			}
		}
		if len(cols) == 0 && len(x.Cols) > 0 {
			// Keep one column so batches still carry their row count.
			ords, cols = x.Ordinals[:1], x.Cols[:1]
		}
		sc := &plan.Scan{Table: x.Table, Alias: x.Alias, Ordinals: ords, Cols: cols}
		if need.has(x.RowID.ID) {
			sc.RowID = x.RowID
		}
		return sc
	case *plan.Values:
		// The unread columns of a one-row VALUES are not computed:
		// PostgreSQL plans it as a plain SELECT and drops them too, so
		// `(VALUES (1/0)) v(x)` read without x does not fail. A longer
		// list it keeps, and folds, whole.
		if len(x.Rows) != 1 {
			return n
		}
		var keep []int
		for i, c := range x.Cols {
			if need.has(c.ID) {
				keep = append(keep, i)
			}
		}
		if len(keep) == len(x.Cols) {
			return n
		}
		c := &plan.Values{Rows: make([][]plan.Expr, len(x.Rows))}
		for _, i := range keep {
			c.Cols = append(c.Cols, x.Cols[i])
		}
		for r, row := range x.Rows {
			c.Rows[r] = make([]plan.Expr, 0, len(keep))
			for _, i := range keep {
				c.Rows[r] = append(c.Rows[r], row[i])
			}
		}
		return c
	case *plan.Project:
		var exprs []plan.Expr
		var cols []plan.Column
		for i, c := range x.Cols {
			if need.has(c.ID) {
				exprs = append(exprs, x.Exprs[i])
				cols = append(cols, c)
			}
		}
		childNeed := colSet{}
		for _, e := range exprs {
			addAll(childNeed, exprCols(e))
		}
		return &plan.Project{Input: prune(x.Input, childNeed), Exprs: exprs, Cols: cols}
	case *plan.ProjectSet:
		return pruneProjectSet(x, need)
	case *plan.Filter:
		childNeed := union(need, exprCols(x.Pred))
		return &plan.Filter{Input: prune(x.Input, childNeed), Pred: x.Pred}
	case *plan.Sort:
		childNeed := union(need, colSet{})
		for _, k := range x.Keys {
			addAll(childNeed, exprCols(k.Expr))
		}
		c := *x
		c.Input = prune(x.Input, childNeed)
		return &c
	case *plan.Limit:
		c := *x
		c.Input = prune(x.Input, need)
		return &c
	case *plan.Aggregate:
		nGroups := len(x.GroupBy)
		c := &plan.Aggregate{GroupBy: x.GroupBy, Cols: append([]plan.Column(nil), x.Cols[:nGroups]...), Seeds: x.Seeds}
		for i, a := range x.Aggs {
			if need.has(x.Cols[nGroups+i].ID) {
				c.Aggs = append(c.Aggs, a)
				c.Cols = append(c.Cols, x.Cols[nGroups+i])
			}
		}
		childNeed := colSet{}
		for _, g := range x.GroupBy {
			addAll(childNeed, exprCols(g))
		}
		for _, a := range c.Aggs {
			for _, arg := range a.Args {
				addAll(childNeed, exprCols(arg))
			}
			if a.Filter != nil {
				addAll(childNeed, exprCols(a.Filter))
			}
		}
		c.Input = prune(x.Input, childNeed)
		return c
	case *plan.Window:
		return pruneWindow(x, need)
	case *plan.GroupingSets:
		return pruneGroupingSets(x, need)
	case *plan.Join:
		childNeed := union(need, exprCols(x.On))
		c := *x
		c.Left = prune(x.Left, childNeed)
		c.Right = prune(x.Right, childNeed)
		return &c
	case *plan.Apply:
		// The left side also keeps the columns the right side reads per row.
		leftNeed := union(need, exprCols(x.On))
		for _, id := range x.OuterRefs {
			leftNeed.add(id)
		}
		c := *x
		c.Left = prune(x.Left, leftNeed)
		c.Right = prune(x.Right, union(need, exprCols(x.On)))
		return &c
	case *plan.Distinct:
		c := *x
		c.Input = prune(x.Input, outputCols(x.Input))
		return &c
	case *plan.SetOp:
		c := *x
		c.Left = prune(x.Left, outputCols(x.Left))
		c.Right = prune(x.Right, outputCols(x.Right))
		return &c
	case *plan.RecursiveUnion:
		// Every column feeds the next iteration: both terms keep them all.
		c := *x
		c.NonRecursive = prune(x.NonRecursive, outputCols(x.NonRecursive))
		c.Recursive = prune(x.Recursive, outputCols(x.Recursive))
		return &c
	}
	return n
}

func addAll(dst, src colSet) {
	for id := range src {
		dst.add(id)
	}
}
