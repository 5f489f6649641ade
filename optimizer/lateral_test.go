package optimizer

import (
	"testing"

	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

func findOp(p *Physical, o Op) *Physical {
	if p.Op == o {
		return p
	}
	for _, in := range p.Inputs {
		if f := findOp(in, o); f != nil {
			return f
		}
	}
	return nil
}

// a LEFT JOIN LATERAL (SELECT b.y FROM b WHERE b.x = a.x AND b.y > 1) s ON true
// is a hash left join on b.x = a.x; the output columns stay the Apply's.
func TestLateralEqualityCorrelationBecomesHashJoin(t *testing.T) {
	f := &fixture{}
	a := f.scan("a", 100, false, "x", "k")
	b := f.scan("b", 1000, false, "x", "y")
	ax, bx, by := a.Cols[0], b.Cols[0], b.Cols[1]
	right := project(&plan.Filter{Input: b, Pred: &plan.And{Args: []plan.Expr{op(t, "=", ref(bx), ref(ax)), op(t, ">", ref(by), intConst(1))}}}, by)
	ap := &plan.Apply{Type: plan.LeftJoin, Left: a, Right: right, On: &plan.Const{Val: types.BoolValue(true), T: types.BoolType}, OuterRefs: []plan.ColumnID{ax.ID}}
	want := ap.Columns()
	p := planOf(t, f, ap)
	if findOp(p, OpApply) != nil {
		t.Fatal("equality-correlated lateral join still runs per row")
	}
	j := findJoin(p)
	if j == nil || j.Op != OpHashJoin || j.Join.Logical.Type != plan.LeftJoin || len(j.Join.BuildKeys) != 1 {
		t.Fatalf("want a hash left join on one key, got %+v", j)
	}
	got := p.Columns()
	if len(got) != len(want) {
		t.Fatalf("columns %v, want %v", got, want)
	}
	for i := range want {
		if got[i].ID != want[i].ID {
			t.Fatalf("column %d is #%d, want #%d", i, got[i].ID, want[i].ID)
		}
	}
}

// A lateral subquery that aggregates per left row, or outputs a left column,
// keeps its per-row Apply; its left input keeps the referenced column.
func TestLateralApplyStaysWhenNotDecorrelatable(t *testing.T) {
	f := &fixture{}
	a := f.scan("a", 100, false, "x", "k")
	b := f.scan("b", 1000, false, "x", "y")
	ax := a.Cols[0]
	out := plan.Column{ID: f.ids.Next(), Name: "ax", Type: ax.Type}
	right := &plan.Project{Input: b, Exprs: []plan.Expr{ref(ax)}, Cols: []plan.Column{out}}
	ap := &plan.Apply{Type: plan.CrossJoin, Left: a, Right: right, OuterRefs: []plan.ColumnID{ax.ID}}
	p := planOf(t, f, project(ap, a.Cols[1], out))
	app := findOp(p, OpApply)
	if app == nil {
		t.Fatal("a lateral subquery outputting a left column must stay an Apply")
	}
	if !outputCols(app.Inputs[0].Logical).has(ax.ID) {
		t.Fatal("pruning dropped the left column the right side reads")
	}
}
