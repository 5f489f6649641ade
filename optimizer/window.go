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
func (pl *planner) planWindow(p *Physical, x *plan.Window) {
	p.Op = OpWindow
	p.Rows = p.Inputs[0].Rows
	if len(x.PartitionBy) > 0 && pl.parts() > 1 {
		p.Inputs[0] = repartition(p.Inputs[0], x.PartitionBy, pl.parts())
		p.Partitions = pl.parts()
	}
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
	return details
}
