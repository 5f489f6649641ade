package optimizer

import (
	"testing"

	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// TestReduceGroupedJoinsFreshIDs: the copy of the key-yielding subtree
// defines only new columns (every column ID is defined once in the tree),
// and the plan still plans; a volatile filter in the subtree refuses the
// copy.
func TestReduceGroupedJoinsFreshIDs(t *testing.T) {
	f := &fixture{}
	outer := f.scan("o", 1000, true, "k", "x")
	inner := f.scan("i", 100000, true, "k", "v")
	count, err := types.ResolveAggregate("count", nil, true)
	if err != nil {
		t.Fatal(err)
	}
	build := func(pred plan.Expr) plan.Node {
		agg := &plan.Aggregate{Input: inner, GroupBy: []plan.Expr{ref(inner.Cols[0])}, Aggs: []plan.AggCall{{Func: count}},
			Cols: []plan.Column{{ID: f.ids.Next(), Name: "k", Type: types.Int4Type}, {ID: f.ids.Next(), Name: "count", Type: types.Int8Type}}}
		left := &plan.Filter{Input: outer, Pred: pred}
		return &plan.Join{Type: plan.LeftJoin, Left: left, Right: agg, On: op(t, "=", ref(outer.Cols[0]), ref(agg.Cols[0]))}
	}
	c := &Context{Eval: &types.EvalContext{}, IDs: &f.ids}
	out := ReduceGroupedJoins(c, build(op(t, ">", ref(outer.Cols[1]), intConst(5))))
	semi, ok := out.(*plan.Join).Right.(*plan.Aggregate).Input.(*plan.Join)
	if !ok || semi.Type != plan.SemiJoin {
		t.Fatalf("not reduced:\n%s", plan.Format(out))
	}
	defined := map[plan.ColumnID]int{}
	var walk func(n plan.Node)
	walk = func(n plan.Node) {
		switch x := n.(type) {
		case *plan.Scan:
			for _, col := range x.Cols {
				defined[col.ID]++
			}
		case *plan.Aggregate:
			for _, col := range x.Cols[len(x.GroupBy):] {
				defined[col.ID]++
			}
		}
		for _, k := range n.Children() {
			walk(k)
		}
	}
	walk(semi.Right)
	walk(out.(*plan.Join).Left)
	for id, n := range defined {
		if n > 1 {
			t.Fatalf("column %d defined %d times:\n%s", id, n, plan.Format(out))
		}
	}
	if _, err := Plan(out, &f.ids, Options{Partitions: 2, Eval: &types.EvalContext{}}); err != nil {
		t.Fatal(err)
	}

	random, err := types.ResolveFunction("random", nil)
	if err != nil {
		t.Fatal(err)
	}
	vol := op(t, ">", &plan.Call{Func: random, Args: nil}, &plan.Const{Val: types.FloatValue(0.5), T: types.Float8Type})
	if out := ReduceGroupedJoins(c, build(vol)); out.(*plan.Join).Right.(*plan.Aggregate).Input != inner {
		t.Fatalf("reduced under a volatile filter:\n%s", plan.Format(out))
	}
}
