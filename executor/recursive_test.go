package executor

import (
	"fmt"
	"testing"

	"github.com/joind/joind/optimizer"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// counting is WITH RECURSIVE r(k) AS (SELECT 0 UNION ALL SELECT v.k + 1
// FROM r JOIN (VALUES 0 .. n) v ON v.k = r.k WHERE v.k < n): its recursive
// term joins, so it is built again for every iteration.
func (f *fixture) counting(t *testing.T, n int64) *plan.RecursiveUnion {
	t.Helper()
	call := func(op string, a, b plan.Expr) plan.Expr {
		o, err := types.ResolveOperator(op, a.Type(), b.Type())
		if err != nil {
			t.Fatal(err)
		}
		return &plan.Call{Func: o, Args: []plan.Expr{a, b}}
	}
	lit := func(v int64) plan.Expr { return &plan.Const{Val: types.IntValue(v), T: types.Int8Type} }
	keys := make([]int64, n+1)
	for i := range keys {
		keys[i] = int64(i)
	}
	vals := f.values(keys...)
	wt := &plan.WorkTable{Name: "r"}
	ws := &plan.WorkTableScan{WorkTable: wt, Cols: []plan.Column{f.col("k")}}
	j := &plan.Join{Type: plan.InnerJoin, Left: ws, Right: vals, On: call("=", ref(vals.Cols[0]), ref(ws.Cols[0]))}
	filt := &plan.Filter{Input: j, Pred: call("<", ref(vals.Cols[0]), lit(n))}
	term := &plan.Project{Input: filt, Exprs: []plan.Expr{call("+", ref(vals.Cols[0]), lit(1))}, Cols: []plan.Column{f.col("k")}}
	start := &plan.Values{Cols: []plan.Column{f.col("k")}, Rows: [][]plan.Expr{{lit(0)}}}
	return &plan.RecursiveUnion{Name: "r", All: true, NonRecursive: start, Recursive: term, WorkTable: wt, Cols: []plan.Column{f.col("k")}}
}

// Two recursive unions whose terms are rebuilt per iteration run at once
// (the partitions of a UNION ALL under the root's Gather): each rebuilds on
// its own goroutine without touching what the other's builds share (run
// with -race), and both count to the end.
func TestRecursiveUnionsRebuildConcurrently(t *testing.T) {
	f := &fixture{}
	// A hash join built first, so the statement's builder has its map of
	// joins when the unions are built.
	l, r := f.values(100, 101), f.values(100, 101)
	eq, err := types.ResolveOperator("=", types.Int8Type, types.Int8Type)
	if err != nil {
		t.Fatal(err)
	}
	first := &plan.Project{Input: &plan.Join{Type: plan.InnerJoin, Left: l, Right: r,
		On: &plan.Call{Func: eq, Args: []plan.Expr{ref(l.Cols[0]), ref(r.Cols[0])}}},
		Exprs: []plan.Expr{ref(l.Cols[0])}, Cols: []plan.Column{f.col("k")}}
	a, b := f.counting(t, 50), f.counting(t, 30)
	ab := &plan.SetOp{Op: plan.Union, All: true, Left: a, Right: b, Cols: []plan.Column{f.col("k")}}
	u := &plan.SetOp{Op: plan.Union, All: true, Left: first, Right: ab, Cols: []plan.Column{f.col("k")}}
	q, rows := run(t, u, f, optimizer.Options{Partitions: 2, CollectLeftMaxRows: 1e6})
	if n := hasOp(q.Phys, optimizer.OpRecursiveUnion); n != 2 {
		t.Fatalf("plan has %d recursive unions, want 2", n)
	}
	if len(rows) != 2+51+31 {
		t.Fatalf("got %d rows, want %d", len(rows), 2+51+31)
	}
	seen := map[string]int{}
	for _, r := range rows {
		seen[r]++
	}
	for k := 0; k <= 101; k++ {
		want := 0
		switch {
		case k <= 30:
			want = 2
		case k <= 50, k >= 100:
			want = 1
		}
		if got := seen[fmt.Sprint(k)]; got != want {
			t.Errorf("k=%d appears %d times, want %d", k, got, want)
		}
	}
}
