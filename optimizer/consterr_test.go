package optimizer

import (
	"testing"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// PlanTimeError fails where PostgreSQL's planner folds a failing constant,
// in its order, and only for what survives pruning.
func TestPlanTimeError(t *testing.T) {
	f := &fixture{}
	a := f.scan("a", 10, false, "k")
	k := ref(a.Cols[0])
	div0 := op(t, "/", intConst(1), intConst(0))
	eq1 := func(e plan.Expr) plan.Expr { return op(t, "=", e, intConst(1)) }
	fls := &plan.Const{Val: types.BoolValue(false), T: types.BoolType}
	tru := &plan.Const{Val: types.BoolValue(true), T: types.BoolType}
	gt := op(t, ">", k, intConst(1))
	out := func(e plan.Expr) plan.Column {
		return plan.Column{ID: f.ids.Next(), Name: "x", Type: e.Type()}
	}
	sel := func(in plan.Node, e plan.Expr) plan.Node {
		return &plan.Project{Input: in, Exprs: []plan.Expr{e}, Cols: []plan.Column{out(e)}}
	}
	cases := []struct {
		name string
		n    plan.Node
		fail bool
	}{
		{"1/0 over no rows", sel(&plan.Filter{Input: a, Pred: fls}, div0), true},
		{"WHERE (1/0 = 1) AND false", &plan.Filter{Input: a, Pred: &plan.And{Args: []plan.Expr{eq1(div0), fls}}}, true},
		{"WHERE false AND (1/0 = 1)", &plan.Filter{Input: a, Pred: &plan.And{Args: []plan.Expr{fls, eq1(div0)}}}, false},
		{"WHERE true OR (1/0 = 1)", &plan.Filter{Input: a, Pred: &plan.Or{Args: []plan.Expr{tru, eq1(div0)}}}, false},
		{"CASE WHEN k > 1 THEN 1 ELSE 1/0 END", sel(a, &plan.Case{Whens: []plan.When{{Cond: gt, Result: intConst(1)}}, Else: div0, T: types.Int4Type}), true},
		{"CASE WHEN false THEN 1/0 END", sel(a, &plan.Case{Whens: []plan.When{{Cond: fls, Result: div0}}, T: types.Int4Type}), false},
		{"CASE WHEN true THEN 1 ELSE 1/0 END", sel(a, &plan.Case{Whens: []plan.When{{Cond: tru, Result: intConst(1)}}, Else: div0, T: types.Int4Type}), false},
		{"COALESCE(1, 1/0)", sel(a, &plan.Coalesce{Args: []plan.Expr{intConst(1), div0}, T: types.Int4Type}), false},
		{"COALESCE(k, 1/0)", sel(a, &plan.Coalesce{Args: []plan.Expr{k, div0}, T: types.Int4Type}), true},
		{"an unread 1/0 output", project(sel(a, div0)), false},
		{"scalar subquery (SELECT 1/0 WHERE false)", sel(a, &plan.Subquery{Kind: plan.ScalarSubquery,
			Plan: sel(&plan.Filter{Input: &plan.Values{Rows: [][]plan.Expr{{}}}, Pred: fls}, div0), T: types.Int4Type}), true},
		{"EXISTS (SELECT 1/0)", sel(a, &plan.Subquery{Kind: plan.ExistsSubquery,
			Plan: sel(&plan.Values{Rows: [][]plan.Expr{{}}}, div0), T: types.BoolType}), false},
	}
	for _, c := range cases {
		err := PlanTimeError(&types.EvalContext{}, c.n)
		switch {
		case c.fail && pgerr.As(err).Code != pgerr.DivisionByZero:
			t.Errorf("%s: got %v, want division by zero", c.name, err)
		case !c.fail && err != nil:
			t.Errorf("%s: got %v, want no error", c.name, err)
		}
	}
}

// Unread VALUES columns are dropped, so they are never computed.
func TestPruneValuesColumns(t *testing.T) {
	f := &fixture{}
	x := plan.Column{ID: f.ids.Next(), Name: "x", Type: types.Int4Type}
	y := plan.Column{ID: f.ids.Next(), Name: "y", Type: types.Int4Type}
	v := &plan.Values{Rows: [][]plan.Expr{{intConst(1), op(t, "/", intConst(1), intConst(0))}}, Cols: []plan.Column{x, y}}
	p := planOf(t, f, project(v, x))
	var got *plan.Values
	for q := p; q != nil; q = q.Inputs[0] {
		if vv, ok := q.Logical.(*plan.Values); ok {
			got = vv
			break
		}
		if len(q.Inputs) == 0 {
			break
		}
	}
	if got == nil || len(got.Cols) != 1 || got.Cols[0].ID != x.ID || len(got.Rows[0]) != 1 {
		t.Fatalf("VALUES should keep only x: %+v", got)
	}
}

// A WITH query read once and not materialized is inlined; one read twice
// stays a shared scan.
func TestInlineSingleReferenceCTE(t *testing.T) {
	f := &fixture{}
	a := f.scan("a", 10, false, "k")
	scanOf := func(cte *plan.CTE) *plan.CTEScan {
		c := a.Cols[0]
		c.ID = f.ids.Next()
		return &plan.CTEScan{CTE: cte, Cols: []plan.Column{c}}
	}
	once := &plan.CTE{Name: "q", Plan: a, Refs: 1}
	s := scanOf(once)
	if p := planOf(t, f, project(s, s.Cols[0])); p.Op == OpCTEScan || (len(p.Inputs) > 0 && p.Inputs[0].Op == OpCTEScan) {
		t.Errorf("single reference not inlined:\n%s", explainText(p))
	}
	twice := &plan.CTE{Name: "q", Plan: a, Refs: 2}
	s1, s2 := scanOf(twice), scanOf(twice)
	p := planOf(t, f, &plan.Join{Type: plan.CrossJoin, Left: s1, Right: s2})
	if p.Inputs[0].Op != OpCTEScan || p.Inputs[1].Op != OpCTEScan {
		t.Errorf("shared WITH query inlined:\n%s", explainText(p))
	}
	forced := &plan.CTE{Name: "q", Plan: a, Refs: 1, Materialized: true}
	s = scanOf(forced)
	if p := planOf(t, f, s); p.Op != OpCTEScan {
		t.Errorf("MATERIALIZED inlined:\n%s", explainText(p))
	}
}
