package optimizer

import (
	"strings"

	"github.com/joind/joind/sql/plan"
)

// planWindow lays out a Window node: with PARTITION BY its input is
// hash-repartitioned on the partition keys, so every window partition is
// whole in one of the node's partitions, which sort and evaluate
// independently; without, the operator's sort reads all input partitions
// into one (N→1, as a Sort).
//
// A WindowAgg directly over another whose partitioning it shares and whose
// sort keys begin with its own reads the rows as they come (PostgreSQL
// sorts once for such windows too): no exchange, no sort.
func (pl *planner) planWindow(p *Physical, x *plan.Window) {
	p.Op = OpWindow
	in := p.Inputs[0]
	p.Rows = in.Rows
	if in.Op == OpWindow && sortsFor(in.Logical.(*plan.Window), x) {
		p.Presorted, p.Partitions = true, in.Partitions
		return
	}
	if len(x.PartitionBy) > 0 && pl.parts() > 1 {
		p.Inputs[0] = repartition(in, x.PartitionBy, pl.parts())
		p.Partitions = pl.parts()
	}
}

// WindowSortKeys is the order a Window sorts its partitions by: PARTITION
// BY (ascending, NULLs last), then ORDER BY.
func WindowSortKeys(x *plan.Window) []plan.SortKey {
	keys := make([]plan.SortKey, 0, len(x.PartitionBy)+len(x.OrderBy))
	for _, e := range x.PartitionBy {
		keys = append(keys, plan.SortKey{Expr: e})
	}
	return append(keys, x.OrderBy...)
}

// sortsFor: below's output, partition by partition, is in above's order,
// with above's window partitions whole in one partition: the same
// PARTITION BY and above's sort keys a prefix of below's.
func sortsFor(below, above *plan.Window) bool {
	if len(below.PartitionBy) != len(above.PartitionBy) {
		return false
	}
	for i, e := range above.PartitionBy {
		if !plan.SameExpr(e, below.PartitionBy[i]) {
			return false
		}
	}
	bk, ak := WindowSortKeys(below), WindowSortKeys(above)
	if len(ak) > len(bk) {
		return false
	}
	for i, k := range ak {
		b := bk[i]
		if k.Desc != b.Desc || k.NullsFirst != b.NullsFirst || !plan.SameExpr(k.Expr, b.Expr) {
			return false
		}
	}
	return true
}

// pruneWindow keeps every window function (each may be read through a
// later projection's expression) and the input columns its parents or its
// own expressions read.
func pruneWindow(x *plan.Window, need colSet) plan.Node {
	childNeed := union(need, colSet{})
	for _, e := range x.Expressions() {
		addAll(childNeed, exprCols(e))
	}
	c := *x
	c.Input = prune(x.Input, childNeed)
	c.Cols = append(append([]plan.Column(nil), c.Input.Columns()...), x.FuncColumns()...)
	return &c
}

// explainWindow is a WindowAgg's detail lines.
func explainWindow(p *Physical) []string {
	x := p.Logical.(*plan.Window)
	var details []string
	if len(x.PartitionBy) > 0 {
		var k []string
		for _, e := range x.PartitionBy {
			k = append(k, FormatExpr(e))
		}
		details = append(details, "Partition By: "+strings.Join(k, ", "))
	}
	if len(x.OrderBy) > 0 {
		details = append(details, "Order By: "+formatSortKeys(x.OrderBy))
	}
	if p.Presorted {
		details = append(details, "Presorted: by the WindowAgg below")
	}
	return details
}
