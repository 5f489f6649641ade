package optimizer

import (
	"strings"
	"testing"

	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// TestLimitWithTiesAndRunTimeCounts: WITH TIES and a count that does not fold
// (random()) keep a Limit over the (partition-parallel, merging) Sort, never
// a Top-N; the Limit carries the tie keys and the unfolded expression.
func TestLimitWithTiesAndRunTimeCounts(t *testing.T) {
	f := &fixture{}
	a := f.scan("a", 100, false, "k")
	sorted := &plan.Sort{Input: a, Keys: []plan.SortKey{{Expr: ref(a.Cols[0])}}}
	opts := Options{Partitions: 4, Eval: &types.EvalContext{}}
	random, err := types.ResolveFunction("random", nil)
	if err != nil {
		t.Fatal(err)
	}
	runTime := &plan.Cast{Input: &plan.Call{Func: random}, T: types.Int8Type}
	for _, lim := range []*plan.Limit{
		{Input: sorted, Count: intConst(3), WithTies: true},
		{Input: sorted, Count: runTime},
		{Input: sorted, Count: intConst(3), Offset: runTime},
	} {
		p, err := Plan(lim, &f.ids, opts)
		if err != nil {
			t.Fatal(err)
		}
		if p.Op != OpLimit || p.Partitions != 1 || p.Inputs[0].Op != OpSort || p.Inputs[0].Inputs[0].Partitions != 4 {
			t.Fatalf("want Limit ← Sort(4→1):\n%s", explainText(p))
		}
		if lim.WithTies != (len(p.TieKeys) == 1) || (lim.Count == runTime) != (p.CountExpr != nil) || (lim.Offset == runTime) != (p.OffsetExpr != nil) {
			t.Fatalf("limit fields: ties %v count %v offset %v", p.TieKeys, p.CountExpr, p.OffsetExpr)
		}
	}
	p, err := Plan(&plan.Limit{Input: sorted, Count: intConst(3), WithTies: true}, &f.ids, opts)
	if err != nil {
		t.Fatal(err)
	}
	if want := "Limit  (rows=3 partitions=1)\n  Count: 3\n  With Ties: a.k\n"; !strings.HasPrefix(explainText(p), want) {
		t.Fatalf("EXPLAIN:\n%s\nwant prefix\n%s", explainText(p), want)
	}
}

// TestDistinctOnIsUniqueOverSort: DISTINCT ON plans as a Unique over the
// merged output of a partition-parallel Sort.
func TestDistinctOnIsUniqueOverSort(t *testing.T) {
	f := &fixture{}
	a := f.scan("a", 100, false, "k")
	sorted := &plan.Sort{Input: a, Keys: []plan.SortKey{{Expr: ref(a.Cols[0])}}}
	p, err := Plan(&plan.Distinct{Input: sorted, On: []plan.Expr{ref(a.Cols[0])}}, &f.ids, Options{Partitions: 4, Eval: &types.EvalContext{}})
	if err != nil {
		t.Fatal(err)
	}
	if p.Op != OpDistinctOn || p.Partitions != 1 || p.Inputs[0].Op != OpSort || p.Inputs[0].Inputs[0].Partitions != 4 {
		t.Fatalf("want Unique ← Sort(4→1):\n%s", explainText(p))
	}
	if want := "Unique  (rows="; !strings.HasPrefix(explainText(p), want) || !strings.Contains(explainText(p), "Key: a.k") {
		t.Fatalf("EXPLAIN:\n%s", explainText(p))
	}
}
