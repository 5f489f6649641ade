package optimizer

import (
	"math"
	"strings"
	"testing"

	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

func near(got, want float64) bool { return math.Abs(got-want) <= 1e-6*math.Max(1, math.Abs(want)) }

// Filter estimates read distinct counts, NULL counts and bounds.
func TestFilterSelectivityFromStatistics(t *testing.T) {
	f := &fixture{}
	s := f.scan("s", 1000, false, "k", "g")
	tb := s.Table.(*fakeTable)
	tb.distinct = []int64{1000, 20}
	tb.nulls = []int64{0, 200}
	tb.bounds = []storage.ColumnStats{
		{HasMinMax: true, Min: types.IntValue(1), Max: types.IntValue(1001)},
		{HasMinMax: true, Min: types.IntValue(0), Max: types.IntValue(19)},
	}
	k, g := ref(s.Cols[0]), ref(s.Cols[1])
	for _, c := range []struct {
		name string
		pred plan.Expr
		want float64
	}{
		{"equality: non-NULL share / distinct", op(t, "=", g, intConst(3)), 0.8 / 20},
		{"equality outside the bounds", op(t, "=", g, intConst(50)), 0},
		{"IS NULL: the NULL share", &plan.IsNull{Arg: g}, 0.2},
		{"IS NOT NULL", &plan.IsNull{Arg: g, Negate: true}, 0.8},
		{"range: the share of [min, max]", op(t, "<", k, intConst(251)), 0.25},
		{"constant first", op(t, ">", intConst(251), k), 0.25},
		{"BETWEEN's halves make one interval", &plan.And{Args: []plan.Expr{op(t, ">=", k, intConst(101)), op(t, "<=", k, intConst(201))}}, 0.1},
		{"IN list: the arms' union", &plan.Or{Args: []plan.Expr{op(t, "=", g, intConst(1)), op(t, "=", g, intConst(2))}}, 1 - (1-0.04)*(1-0.04)},
		{"<>", op(t, "<>", g, intConst(3)), 1 - 0.04},
	} {
		if got := filterSelectivity(c.pred, s); !near(got, c.want) {
			t.Errorf("%s: selectivity %v, want %v", c.name, got, c.want)
		}
	}
	if got := EstimateRows(&plan.Filter{Input: s, Pred: op(t, "=", g, intConst(50))}); got != 1 {
		t.Errorf("an empty estimate is one row, got %v", got)
	}
}

// Distinct counts are capped by the estimated rows of the filtered input, and
// a composite key's distinct count by the input's rows.
func TestJoinEstimateCapsDistinctByRows(t *testing.T) {
	f := &fixture{}
	nation := f.scan("nation", 25, false, "nk", "name")
	nation.Table.(*fakeTable).distinct = []int64{25, 25}
	supp := f.scan("supplier", 10_000, false, "sk", "nk")
	supp.Table.(*fakeTable).distinct = []int64{10_000, 25}
	one := &plan.Filter{Input: nation, Pred: op(t, "=", ref(nation.Cols[1]), intConst(7))}
	j := &plan.Join{Type: plan.InnerJoin, Left: supp, Right: one, On: op(t, "=", ref(supp.Cols[1]), ref(nation.Cols[0]))}
	if got := EstimateRows(j); !near(got, 400) {
		t.Errorf("supplier ⋈ one nation = %v, want 400", got)
	}
	ps := f.scan("partsupp", 800_000, false, "pk", "sk")
	ps.Table.(*fakeTable).distinct = []int64{200_000, 10_000}
	li := f.scan("lineitem", 6_000_000, false, "pk", "sk")
	li.Table.(*fakeTable).distinct = []int64{200_000, 10_000}
	on := &plan.And{Args: []plan.Expr{op(t, "=", ref(li.Cols[0]), ref(ps.Cols[0])), op(t, "=", ref(li.Cols[1]), ref(ps.Cols[1]))}}
	j2 := &plan.Join{Type: plan.InnerJoin, Left: li, Right: ps, On: on}
	// Key tuples: at most 6M on lineitem's side, 800k on partsupp's.
	if got := EstimateRows(j2); !near(got, 800_000) {
		t.Errorf("lineitem ⋈ partsupp on two keys = %v, want 800000", got)
	}
}

// TPC-H Q5's shape: supplier and customer share only a 25-value nation key.
// Greedy ordering joined them first (10k·150k/25 = 60M rows); the dynamic
// program joins along the foreign keys instead.
func TestJoinOrderAvoidsManyToManyFirst(t *testing.T) {
	f := &fixture{}
	cust := f.scan("customer", 150_000, true, "ck", "nk")
	cust.Table.(*fakeTable).distinct = []int64{150_000, 25}
	ord := f.scan("orders", 1_500_000, true, "ok", "ck")
	ord.Table.(*fakeTable).distinct = []int64{1_500_000, 100_000}
	li := f.scan("lineitem", 6_000_000, true, "ok", "sk")
	li.Table.(*fakeTable).distinct = []int64{1_500_000, 10_000}
	supp := f.scan("supplier", 10_000, true, "sk", "nk")
	supp.Table.(*fakeTable).distinct = []int64{10_000, 25}
	eq := func(a, b plan.Column) plan.Expr { return op(t, "=", ref(a), ref(b)) }
	j := &plan.Join{Type: plan.InnerJoin, Left: cust, Right: ord, On: eq(cust.Cols[0], ord.Cols[1])}
	j = &plan.Join{Type: plan.InnerJoin, Left: j, Right: li, On: eq(li.Cols[0], ord.Cols[0])}
	j = &plan.Join{Type: plan.InnerJoin, Left: j, Right: supp, On: &plan.And{Args: []plan.Expr{eq(li.Cols[1], supp.Cols[0]), eq(cust.Cols[1], supp.Cols[1])}}}
	p := planOf(t, f, project(j, cust.Cols[0]))
	var walk func(p *Physical)
	walk = func(p *Physical) {
		if p.Join != nil {
			names := map[string]bool{}
			for _, in := range p.Inputs {
				for in.Op == OpRepartition || in.Op == OpFilter || in.Op == OpProject {
					in = in.Inputs[0]
				}
				if s, ok := in.Logical.(*plan.Scan); ok {
					names[s.Table.Name()] = true
				}
			}
			if names["customer"] && names["supplier"] {
				t.Errorf("customer and supplier joined directly:\n%s", explainText(p))
			}
		}
		for _, in := range p.Inputs {
			walk(in)
		}
	}
	walk(p)
	if text := explainText(p); !strings.Contains(text, "Hash Join") {
		t.Fatalf("no hash join:\n%s", text)
	}
}

// A date column compared with a timestamp (date + interval '3' month) is a
// range on the same line of days.
func TestRangeSelectivityDateAgainstTimestamp(t *testing.T) {
	var ids plan.IDAllocator
	tb := &fakeTable{name: "o", rows: 1000, cols: []storage.ColumnDef{{Name: "d", Type: types.DateType}},
		distinct: []int64{1000}, bounds: []storage.ColumnStats{{HasMinMax: true, Min: types.Value{I: 0}, Max: types.Value{I: 100}}}}
	col := plan.Column{ID: ids.Next(), Name: "d", Table: "o", Type: types.DateType}
	s := &plan.Scan{Table: tb, Ordinals: []int{0}, Cols: []plan.Column{col}}
	ts := &plan.Const{Val: types.Value{I: 25 * 86_400_000_000}, T: types.TimestampType}
	pred := &plan.And{Args: []plan.Expr{op(t, ">=", ref(col), &plan.Const{Val: types.Value{I: 10}, T: types.DateType}), op(t, "<", ref(col), ts)}}
	if got := filterSelectivity(pred, s); !near(got, 0.15) {
		t.Errorf("selectivity %v, want 0.15", got)
	}
}

// A semi join keeps the share of left keys the right side has: partsupp
// rows of the 1% of parts a filter keeps (TPC-H Q20).
func TestSemiJoinEstimate(t *testing.T) {
	f := &fixture{}
	ps := f.scan("partsupp", 800_000, false, "pk")
	ps.Table.(*fakeTable).distinct = []int64{200_000}
	part := f.scan("part", 200_000, false, "pk", "name")
	part.Table.(*fakeTable).distinct = []int64{200_000, 200_000}
	few := &plan.Filter{Input: part, Pred: op(t, "=", ref(part.Cols[1]), intConst(1))}
	j := &plan.Join{Type: plan.SemiJoin, Left: ps, Right: few, On: op(t, "=", ref(ps.Cols[0]), ref(part.Cols[0]))}
	// 800k · 1/200k: one part's four partsupp rows.
	if got := EstimateRows(j); !near(got, 4) {
		t.Errorf("semi join estimate %v, want 4", got)
	}
	ps.Table.(*fakeTable).distinct = nil
	if got := EstimateRows(j); got != 800_000 {
		t.Errorf("without statistics: %v, want all 800000 left rows", got)
	}
}
