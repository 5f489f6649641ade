package optimizer

import (
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// fakeTable is a storage.Table with a row count and no data: planner tests
// never execute.
type fakeTable struct {
	name     string
	cols     []storage.ColumnDef
	rows     int64
	distinct []int64
	nulls    []int64
	bounds   []storage.ColumnStats
}

func (t *fakeTable) Name() string                 { return t.name }
func (t *fakeTable) Columns() []storage.ColumnDef { return t.cols }
func (t *fakeTable) Snapshot() []arrow.Record     { return nil }
func (t *fakeTable) Stats() storage.Stats {
	return storage.Stats{Rows: t.rows, Distinct: t.distinct, Nulls: t.nulls, Bounds: t.bounds}
}

// fixture builds scans over two-column integer tables.
type fixture struct{ ids plan.IDAllocator }

func (f *fixture) scan(name string, rows int64, notNull bool, cols ...string) *plan.Scan {
	t := &fakeTable{name: name, rows: rows}
	s := &plan.Scan{Table: t, Alias: name}
	for i, c := range cols {
		t.cols = append(t.cols, storage.ColumnDef{Name: c, Type: types.Int4Type, NotNull: notNull})
		s.Ordinals = append(s.Ordinals, i)
		s.Cols = append(s.Cols, plan.Column{ID: f.ids.Next(), Name: c, Table: name, Type: types.Int4Type, NotNull: notNull})
	}
	return s
}

func ref(c plan.Column) *plan.ColRef {
	return &plan.ColRef{ID: c.ID, T: c.Type, Name: c.Table + "." + c.Name}
}

func op(t *testing.T, name string, a, b plan.Expr) plan.Expr {
	t.Helper()
	o, err := types.ResolveOperator(name, a.Type(), b.Type())
	if err != nil {
		t.Fatal(err)
	}
	return &plan.Call{Func: o, Args: []plan.Expr{a, b}}
}

func intConst(v int64) *plan.Const { return &plan.Const{Val: types.IntValue(v), T: types.Int4Type} }

// project returns a projection of the given columns (the SELECT list).
func project(in plan.Node, cols ...plan.Column) *plan.Project {
	p := &plan.Project{Input: in}
	for _, c := range cols {
		p.Exprs = append(p.Exprs, ref(c))
		p.Cols = append(p.Cols, c)
	}
	return p
}

func planOf(t *testing.T, f *fixture, n plan.Node) *Physical {
	t.Helper()
	p, err := Plan(n, &f.ids, Options{Partitions: 2, CollectLeftMaxRows: 1e6, Eval: &types.EvalContext{}})
	if err != nil {
		t.Fatal(err)
	}
	// The tests look at the plan below the root's Gather.
	if p.Op == OpGather {
		p = p.Inputs[0]
	}
	return p
}

func findJoin(p *Physical) *Physical {
	if p.Join != nil {
		return p
	}
	for _, in := range p.Inputs {
		if j := findJoin(in); j != nil {
			return j
		}
	}
	return nil
}

func explainText(p *Physical) string { return strings.Join(Explain(p, nil), "\n") }

func TestNotInUncorrelatedNullableBuildsSubquery(t *testing.T) {
	f := &fixture{}
	t1 := f.scan("t1", 1000, false, "x", "z")
	t2 := f.scan("t2", 100, false, "y", "z")
	sub := &plan.Subquery{Kind: plan.AllSubquery, Plan: project(t2, t2.Cols[0]), LHS: []plan.Expr{ref(t1.Cols[0])},
		T: types.BoolType}
	ne, _ := types.ResolveOperator("<>", types.Int4Type, types.Int4Type)
	sub.Ops = []*types.Overload{ne}
	root := project(&plan.Filter{Input: t1, Pred: sub}, t1.Cols[0])
	j := findJoin(planOf(t, f, root))
	if j == nil {
		t.Fatalf("NOT IN was not unnested:\n%s", explainText(planOf(t, f, root)))
	}
	if j.Join.Logical.Type != plan.AntiJoin || !j.Join.Logical.NullAware {
		t.Fatalf("want null-aware anti join, got type %d nullAware=%v", j.Join.Logical.Type, j.Join.Logical.NullAware)
	}
	if j.Join.Build != RightSide || j.Join.Mode != CollectLeft || len(j.Join.BuildKeys) != 1 {
		t.Fatalf("want RightAnti (build = subquery, CollectLeft, 1 key), got build=%s mode=%s keys=%d",
			j.Join.Build, j.Join.Mode, len(j.Join.BuildKeys))
	}
}

func TestNotInCorrelatedBuildsOuterSideWithScopeKey(t *testing.T) {
	f := &fixture{}
	t1 := f.scan("t1", 100, false, "x", "z")
	t2 := f.scan("t2", 1000, false, "y", "z")
	corr := op(t, "=", ref(t2.Cols[1]), ref(t1.Cols[1]))
	subPlan := project(&plan.Filter{Input: t2, Pred: corr}, t2.Cols[0])
	ne, _ := types.ResolveOperator("<>", types.Int4Type, types.Int4Type)
	sub := &plan.Subquery{Kind: plan.AllSubquery, Plan: subPlan, LHS: []plan.Expr{ref(t1.Cols[0])},
		Ops: []*types.Overload{ne}, OuterRefs: []plan.ColumnID{t1.Cols[1].ID}, T: types.BoolType}
	root := project(&plan.Filter{Input: t1, Pred: sub}, t1.Cols[0])
	p := planOf(t, f, root)
	j := findJoin(p)
	if j == nil {
		t.Fatalf("correlated NOT IN was not unnested:\n%s", explainText(p))
	}
	jp := j.Join
	if !jp.Logical.NullAware || jp.Logical.ValueKeys != 1 || len(jp.BuildKeys) != 2 {
		t.Fatalf("want null-aware anti with value key + scope key, got nullAware=%v valueKeys=%d keys=%d\n%s",
			jp.Logical.NullAware, jp.Logical.ValueKeys, len(jp.BuildKeys), explainText(p))
	}
	if jp.Build != LeftSide || jp.Mode != CollectLeft {
		t.Fatalf("correlated null-aware anti must build the outer side under CollectLeft, got %s/%s", jp.Build, jp.Mode)
	}
}

func TestNotInOverNotNullColumnsIsPlainAnti(t *testing.T) {
	f := &fixture{}
	t1 := f.scan("t1", 10, true, "x")
	t2 := f.scan("t2", 10, true, "y")
	ne, _ := types.ResolveOperator("<>", types.Int4Type, types.Int4Type)
	sub := &plan.Subquery{Kind: plan.AllSubquery, Plan: project(t2, t2.Cols[0]), LHS: []plan.Expr{ref(t1.Cols[0])},
		Ops: []*types.Overload{ne}, T: types.BoolType}
	j := findJoin(planOf(t, f, project(&plan.Filter{Input: t1, Pred: sub}, t1.Cols[0])))
	if j == nil || j.Join.Logical.NullAware || j.Join.Logical.Type != plan.AntiJoin {
		t.Fatalf("NOT IN over NOT NULL columns should be a plain anti join")
	}
}

func TestNotInOverComputedNotNullIsStillNullAware(t *testing.T) {
	f := &fixture{}
	t1 := f.scan("t1", 10, true, "a", "b")
	t2 := f.scan("t2", 10, true, "y")
	ne, _ := types.ResolveOperator("<>", types.Int4Type, types.Int4Type)
	sum := op(t, "+", ref(t1.Cols[0]), ref(t1.Cols[1]))
	sub := &plan.Subquery{Kind: plan.AllSubquery, Plan: project(t2, t2.Cols[0]), LHS: []plan.Expr{sum},
		Ops: []*types.Overload{ne}, T: types.BoolType}
	j := findJoin(planOf(t, f, project(&plan.Filter{Input: t1, Pred: sub}, t1.Cols[0])))
	if j == nil || !j.Join.Logical.NullAware {
		t.Fatalf("a + b over NOT NULL columns is not provably non-NULL: the join must stay null-aware")
	}
}

func TestNotInUnderOrBecomesMarkJoin(t *testing.T) {
	f := &fixture{}
	t1 := f.scan("t1", 10, false, "x")
	t2 := f.scan("t2", 10, false, "y")
	ne, _ := types.ResolveOperator("<>", types.Int4Type, types.Int4Type)
	sub := &plan.Subquery{Kind: plan.AllSubquery, Plan: project(t2, t2.Cols[0]), LHS: []plan.Expr{ref(t1.Cols[0])},
		Ops: []*types.Overload{ne}, T: types.BoolType}
	pred := &plan.Or{Args: []plan.Expr{sub, op(t, "=", ref(t1.Cols[0]), intConst(1))}}
	p := planOf(t, f, project(&plan.Filter{Input: t1, Pred: pred}, t1.Cols[0]))
	j := findJoin(p)
	if j == nil || j.Join.Logical.Type != plan.MarkJoin || !j.Join.Logical.NullAware || j.Join.Build != LeftSide {
		t.Fatalf("NOT IN under OR must be a null-aware mark join building the outer side:\n%s", explainText(p))
	}
}

func TestConstantNotInValueIsProjectedAsKey(t *testing.T) {
	f := &fixture{}
	t1 := f.scan("t1", 10, false, "x")
	t2 := f.scan("t2", 10, false, "y")
	ne, _ := types.ResolveOperator("<>", types.Int4Type, types.Int4Type)
	sub := &plan.Subquery{Kind: plan.AllSubquery, Plan: project(t2, t2.Cols[0]), LHS: []plan.Expr{intConst(5)},
		Ops: []*types.Overload{ne}, T: types.BoolType}
	p := planOf(t, f, project(&plan.Filter{Input: t1, Pred: sub}, t1.Cols[0]))
	j := findJoin(p)
	if j == nil || j.Op != OpHashJoin || len(j.Join.BuildKeys) != 1 {
		t.Fatalf("5 NOT IN (...) should become a hash join on a projected constant key:\n%s", explainText(p))
	}
}

func TestFilterPushdownIntoInnerJoin(t *testing.T) {
	f := &fixture{}
	a := f.scan("a", 100, false, "k", "v")
	b := f.scan("b", 100, false, "k", "w")
	j := &plan.Join{Type: plan.CrossJoin, Left: a, Right: b}
	pred := &plan.And{Args: []plan.Expr{
		op(t, "=", ref(a.Cols[0]), ref(b.Cols[0])),
		op(t, ">", ref(a.Cols[1]), intConst(3)),
		op(t, "<", ref(b.Cols[1]), intConst(7)),
	}}
	p := planOf(t, f, project(&plan.Filter{Input: j, Pred: pred}, a.Cols[1], b.Cols[1]))
	jn := findJoin(p)
	if jn == nil || jn.Op != OpHashJoin || len(jn.Join.BuildKeys) != 1 || jn.Join.Residual != nil {
		t.Fatalf("cross join + equality should become a hash join:\n%s", explainText(p))
	}
	for _, in := range jn.Inputs {
		if in.Op != OpFilter {
			t.Fatalf("single-side predicates should be pushed below the join:\n%s", explainText(p))
		}
	}
}

func TestLeftJoinKeepsNullExtendedSideFilterAbove(t *testing.T) {
	f := &fixture{}
	a := f.scan("a", 100, false, "k")
	b := f.scan("b", 100, false, "k")
	j := &plan.Join{Type: plan.LeftJoin, Left: a, Right: b, On: op(t, "=", ref(a.Cols[0]), ref(b.Cols[0]))}
	pred := &plan.IsNull{Arg: ref(b.Cols[0])}
	p := planOf(t, f, project(&plan.Filter{Input: j, Pred: pred}, a.Cols[0]))
	if p.Inputs[0].Op != OpFilter || p.Inputs[0].Inputs[0].Op != OpHashJoin {
		t.Fatalf("b.k IS NULL over a left join must stay above the join:\n%s", explainText(p))
	}
}

func TestFoldConstantsKeepsThreeValuedLogic(t *testing.T) {
	f := &fixture{}
	a := f.scan("a", 1, false, "k")
	null := &plan.Const{Val: types.NullValue, T: types.BoolType}
	cmp := op(t, ">", ref(a.Cols[0]), intConst(0))
	// (k > 0) AND NULL must not fold to NULL or FALSE: when k > 0 is FALSE it is FALSE.
	e := FoldConstants(&types.EvalContext{}, &plan.And{Args: []plan.Expr{cmp, null}})
	if _, isConst := e.(*plan.Const); isConst {
		t.Fatalf("folded a non-constant AND: %s", FormatExpr(e))
	}
	// 1 + 2 folds; 1 / 0 is left for run time.
	if c, ok := FoldConstants(nil, op(t, "+", intConst(1), intConst(2))).(*plan.Const); !ok || c.Val.I != 3 {
		t.Fatalf("1 + 2 did not fold to 3")
	}
	if _, ok := FoldConstants(nil, op(t, "/", intConst(1), intConst(0))).(*plan.Const); ok {
		t.Fatalf("1 / 0 must not be folded (the error belongs to run time)")
	}
}

func TestPruneScanColumns(t *testing.T) {
	f := &fixture{}
	a := f.scan("a", 10, false, "k", "v", "w")
	p := planOf(t, f, project(a, a.Cols[1]))
	scan := p.Inputs[0].Logical.(*plan.Scan)
	if len(scan.Cols) != 1 || scan.Ordinals[0] != 1 {
		t.Fatalf("scan should read only column v, reads %v", scan.Ordinals)
	}
}

func TestJoinOrderFollowsEstimatesNotSyntax(t *testing.T) {
	f := &fixture{}
	probe := f.scan("probe", 10_000_000, false, "k")
	build := f.scan("build", 1_000_000, false, "k", "g")
	dim := f.scan("dim", 100, false, "g", "name")
	j1 := &plan.Join{Type: plan.InnerJoin, Left: probe, Right: build, On: op(t, "=", ref(probe.Cols[0]), ref(build.Cols[0]))}
	j2 := &plan.Join{Type: plan.InnerJoin, Left: j1, Right: dim, On: op(t, "=", ref(build.Cols[1]), ref(dim.Cols[0]))}
	p := planOf(t, f, project(j2, dim.Cols[1], probe.Cols[0]))
	top := findJoin(p)
	if top == nil || top.Op != OpHashJoin {
		t.Fatalf("no hash join:\n%s", explainText(p))
	}
	// The largest relation is joined last, and the smaller side is built.
	var probeSide *Physical
	for _, in := range top.Inputs {
		if in.Op == OpRepartition {
			in = in.Inputs[0]
		}
		if s, ok := in.Logical.(*plan.Scan); ok && s.Table.Name() == "probe" {
			probeSide = in
		}
	}
	if probeSide == nil {
		t.Fatalf("probe should be joined last, directly under the top join:\n%s", explainText(p))
	}
	// Inputs are (build, probe).
	if build := top.Inputs[0]; build == probeSide || build.Op == OpRepartition && build.Inputs[0] == probeSide {
		t.Fatalf("the 10M-row probe table must not be the build side:\n%s", explainText(p))
	}
	inner := findJoin(top.Inputs[0])
	if inner == nil {
		inner = findJoin(top.Inputs[1])
	}
	if inner == nil || len(inner.Join.BuildKeys) != 1 {
		t.Fatalf("dim and build should be joined first on g:\n%s", explainText(p))
	}
}

func TestJoinEstimateUsesDistinctCounts(t *testing.T) {
	f := &fixture{}
	orders := f.scan("orders", 100_000, false, "cust")
	custs := f.scan("custs", 1_000, false, "id")
	orders.Table.(*fakeTable).distinct = []int64{500}
	custs.Table.(*fakeTable).distinct = []int64{1_000}
	j := &plan.Join{Type: plan.InnerJoin, Left: orders, Right: custs, On: op(t, "=", ref(orders.Cols[0]), ref(custs.Cols[0]))}
	// 100k·1k / max(500, 1k) = 100k: each order finds its one customer.
	if got := EstimateRows(j); got != 100_000 {
		t.Fatalf("estimate = %v, want 100000", got)
	}
	// Many-to-many on a low-cardinality key multiplies.
	custs.Table.(*fakeTable).distinct = []int64{10}
	orders.Table.(*fakeTable).distinct = []int64{10}
	if got := EstimateRows(j); got != 10_000_000 {
		t.Fatalf("estimate = %v, want 1e7", got)
	}
	// Without statistics: the larger input.
	custs.Table.(*fakeTable).distinct = nil
	if got := EstimateRows(j); got != 100_000 {
		t.Fatalf("estimate without stats = %v, want 100000", got)
	}
}

// TestPhysicalPlanCarriesExchanges: every change of partitioning is an
// exchange node, and every node knows its partition count.
func TestPhysicalPlanCarriesExchanges(t *testing.T) {
	f := &fixture{}
	a := f.scan("a", 100, false, "k")
	lim := &plan.Limit{Input: a, Count: intConst(3)}
	p, err := Plan(lim, &f.ids, Options{Partitions: 4, Eval: &types.EvalContext{}})
	if err != nil {
		t.Fatal(err)
	}
	if p.Op != OpLimit || p.Partitions != 1 || p.Inputs[0].Op != OpGather || p.Inputs[0].Inputs[0].Op != OpScan || p.Inputs[0].Inputs[0].Partitions != 4 {
		t.Fatalf("want Limit(1) ← Gather(4→1) ← Scan(4):\n%s", explainText(p))
	}
	if !strings.Contains(explainText(p), "Gather  (rows=100 partitions=4→1)") {
		t.Fatalf("EXPLAIN should show the gather and its partitions:\n%s", explainText(p))
	}

	b := f.scan("b", 100, false, "k")
	j := &plan.Join{Type: plan.InnerJoin, Left: a, Right: b, On: op(t, "=", ref(a.Cols[0]), ref(b.Cols[0]))}
	p, err = Plan(project(j, a.Cols[0]), &f.ids, Options{Partitions: 3, JoinMode: "partitioned", Eval: &types.EvalContext{}})
	if err != nil {
		t.Fatal(err)
	}
	if p.Op != OpGather || p.Partitions != 1 || p.Inputs[0].Partitions != 3 {
		t.Fatalf("the root must gather its 3 partitions:\n%s", explainText(p))
	}
	hj := findJoin(p)
	if hj.Join.Mode != Partitioned || hj.Partitions != 3 {
		t.Fatalf("want a Partitioned join of 3 partitions:\n%s", explainText(p))
	}
	for i, keys := range [][]plan.Expr{hj.Join.BuildKeys, hj.Join.ProbeKeys} {
		in := hj.Inputs[i]
		if in.Op != OpRepartition || in.Partitions != 3 || len(in.HashKeys) != 1 || in.HashKeys[0] != keys[0] {
			t.Fatalf("input %d of a Partitioned join must be a repartition on its keys:\n%s", i, explainText(p))
		}
	}
}

// TestBuildOnRightMirrorsTheJoin: a LEFT JOIN whose right side is the
// smaller is executed with the right side built: inputs, keys and type in
// (build, probe) order.
func TestBuildOnRightMirrorsTheJoin(t *testing.T) {
	f := &fixture{}
	big := f.scan("big", 10000, false, "k")
	small := f.scan("small", 10, false, "k")
	for _, c := range []struct {
		typ       plan.JoinType
		want      plan.JoinType
		emitProbe bool
	}{{plan.LeftJoin, plan.RightJoin, false}, {plan.RightJoin, plan.LeftJoin, false}, {plan.InnerJoin, plan.InnerJoin, false},
		{plan.SemiJoin, plan.SemiJoin, true}, {plan.AntiJoin, plan.AntiJoin, true}} {
		j := &plan.Join{Type: c.typ, Left: big, Right: small, On: op(t, "=", ref(big.Cols[0]), ref(small.Cols[0]))}
		p := planOf(t, f, j)
		hj := findJoin(p)
		jp := hj.Join
		if jp.Build != RightSide || jp.Type != c.want || jp.EmitProbe != c.emitProbe {
			t.Fatalf("%d: want build=right type=%d emitProbe=%v, got build=%s type=%d emitProbe=%v", c.typ, c.want, c.emitProbe, jp.Build, jp.Type, jp.EmitProbe)
		}
		if s, ok := hj.Inputs[0].Logical.(*plan.Scan); !ok || s.Table.Name() != "small" {
			t.Fatalf("%d: the first input must be the build side (small):\n%s", c.typ, explainText(p))
		}
		if r := jp.BuildKeys[0].(*plan.ColRef); r.ID != small.Cols[0].ID {
			t.Fatalf("%d: build keys must read the build side", c.typ)
		}
	}
}

// TestTopNPlanning: ORDER BY ... LIMIT n [OFFSET m] is one Top-N Sort over
// the sort's input partitions (no Gather: it merges them itself); LIMIT 0,
// OFFSET alone and bounds above topNMax keep Sort and Limit.
func TestTopNPlanning(t *testing.T) {
	f := &fixture{}
	a := f.scan("a", 100, false, "k")
	sorted := &plan.Sort{Input: a, Keys: []plan.SortKey{{Expr: ref(a.Cols[0]), Desc: true}}}
	opts := Options{Partitions: 4, Eval: &types.EvalContext{}}
	p, err := Plan(&plan.Limit{Input: sorted, Count: intConst(3), Offset: intConst(2)}, &f.ids, opts)
	if err != nil {
		t.Fatal(err)
	}
	if p.Op != OpTopN || p.Count != 3 || p.Offset != 2 || p.Partitions != 1 || p.Inputs[0].Op != OpScan || p.Inputs[0].Partitions != 4 {
		t.Fatalf("want Top-N Sort(4→1) ← Scan(4):\n%s", explainText(p))
	}
	if want := "Top-N Sort  (rows=3 partitions=4→1)\n  Sort Key: a.k DESC NULLS LAST\n  Count: 3\n  Offset: 2\n"; !strings.HasPrefix(explainText(p), want) {
		t.Fatalf("EXPLAIN:\n%s\nwant prefix\n%s", explainText(p), want)
	}
	for _, lim := range []*plan.Limit{
		{Input: sorted, Count: intConst(0)},
		{Input: sorted, Offset: intConst(5)},
		{Input: sorted, Count: intConst(topNMax + 1)},
		{Input: sorted, Count: intConst(topNMax), Offset: intConst(1)},
	} {
		p, err := Plan(lim, &f.ids, opts)
		if err != nil {
			t.Fatal(err)
		}
		if p.Op != OpLimit || p.Inputs[0].Op != OpSort {
			t.Fatalf("want Limit ← Sort:\n%s", explainText(p))
		}
	}
}
