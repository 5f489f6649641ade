package operators

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// fakeRunner returns fixed rows, or rows computed from the outer values.
type fakeRunner struct {
	rows  [][]types.Value
	fn    func(outer map[plan.ColumnID]types.Value) [][]types.Value
	calls atomic.Int64
}

func (f *fakeRunner) RunSubquery(_ context.Context, _ plan.Node, outer map[plan.ColumnID]types.Value, limit int) ([][]types.Value, error) {
	f.calls.Add(1)
	rows := f.rows
	if f.fn != nil {
		rows = f.fn(outer)
	}
	if limit >= 0 && len(rows) > limit {
		rows = rows[:limit]
	}
	return rows, nil
}

func vals(vs ...types.Value) [][]types.Value {
	out := make([][]types.Value, len(vs))
	for i, v := range vs {
		out[i] = []types.Value{v}
	}
	return out
}

func subEval(t *testing.T, sq *plan.Subquery, r *fakeRunner, rows [][]types.Value) ([]string, error) {
	t.Helper()
	cs := cols(i8, i8)
	c, err := Compile(sq, cs, &Env{Subqueries: r})
	if err != nil {
		t.Fatal(err)
	}
	arr, err := c.Eval(context.Background(), mkRecord(cs, rows))
	if err != nil {
		return nil, err
	}
	out := make([]string, arr.Len())
	for i := range out {
		out[i] = fmtVal(types.GetValue(arr, sq.T, i), sq.T)
	}
	return out, nil
}

func TestSubqueryAnyAll(t *testing.T) {
	in := [][]types.Value{{I(1), N}, {I(5), N}, {N, N}}
	cases := []struct {
		name string
		kind plan.SubqueryKind
		op   *types.Overload
		rows [][]types.Value
		want string
	}{
		{"in hit/miss", plan.AnySubquery, eq8, vals(I(1), I(2)), "t,f,NULL"},
		{"in with null", plan.AnySubquery, eq8, vals(I(1), N), "t,NULL,NULL"},
		{"in empty", plan.AnySubquery, eq8, nil, "f,f,f"},
		{"not in with null", plan.AllSubquery, ne8, vals(I(2), N), "NULL,NULL,NULL"},
		{"not in", plan.AllSubquery, ne8, vals(I(2), I(3)), "t,t,NULL"},
		{"all empty", plan.AllSubquery, ne8, nil, "t,t,t"},
		{"not in false wins", plan.AllSubquery, ne8, vals(N, I(1)), "f,NULL,NULL"},
	}
	for _, c := range cases {
		r := &fakeRunner{rows: c.rows}
		sq := &plan.Subquery{Kind: c.kind, LHS: []plan.Expr{col(1, i8)}, Ops: []*types.Overload{c.op}, T: bl}
		got, err := subEval(t, sq, r, in)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if s := join(got); s != c.want {
			t.Fatalf("%s: got %s want %s", c.name, s, c.want)
		}
		if r.calls.Load() != 1 {
			t.Fatalf("%s: uncorrelated subquery ran %d times", c.name, r.calls.Load())
		}
	}
	// Row-valued IN: (a, b) IN (rows): a definite mismatch is FALSE, else NULL.
	rowsIn := [][]types.Value{{I(1), I(2)}, {I(1), N}, {I(3), N}}
	sq := &plan.Subquery{Kind: plan.AnySubquery, LHS: []plan.Expr{col(1, i8), col(2, i8)}, Ops: []*types.Overload{eq8, eq8}, T: bl}
	got, err := subEval(t, sq, &fakeRunner{rows: [][]types.Value{{I(1), I(2)}}}, rowsIn)
	if err != nil || join(got) != "t,NULL,f" {
		t.Fatalf("row in: %v %v", got, err)
	}
}

func TestSubqueryScalarExistsCorrelated(t *testing.T) {
	in := [][]types.Value{{I(1), I(10)}, {I(2), I(20)}, {I(3), N}}
	sc := &plan.Subquery{Kind: plan.ScalarSubquery, T: i8}
	got, err := subEval(t, sc, &fakeRunner{rows: vals(I(7))}, in)
	if err != nil || join(got) != "7,7,7" {
		t.Fatalf("scalar: %v %v", got, err)
	}
	got, err = subEval(t, sc, &fakeRunner{}, in)
	if err != nil || join(got) != "NULL,NULL,NULL" {
		t.Fatalf("scalar empty: %v %v", got, err)
	}
	_, err = subEval(t, sc, &fakeRunner{rows: vals(I(1), I(2))}, in)
	wantCode(t, err, pgerr.CardinalityViolation)

	ex := &plan.Subquery{Kind: plan.ExistsSubquery, T: bl}
	got, err = subEval(t, ex, &fakeRunner{rows: vals(N)}, in)
	if err != nil || join(got) != "t,t,t" {
		t.Fatalf("exists: %v %v", got, err)
	}
	// Correlated: (SELECT b * 2 WHERE a > 1), outer refs a=1, b=2.
	r := &fakeRunner{fn: func(o map[plan.ColumnID]types.Value) [][]types.Value {
		if o[1].Null || o[1].I <= 1 {
			return nil
		}
		if o[2].Null {
			return vals(N)
		}
		return vals(I(o[2].I * 2))
	}}
	corr := &plan.Subquery{Kind: plan.ScalarSubquery, OuterRefs: []plan.ColumnID{1, 2}, T: i8}
	got, err = subEval(t, corr, r, in)
	if err != nil || join(got) != "NULL,40,NULL" || r.calls.Load() != 3 {
		t.Fatalf("correlated: %v %v calls %d", got, err, r.calls.Load())
	}
	// Correlated EXISTS inside CASE runs only for the rows that reach it.
	r2 := &fakeRunner{fn: func(o map[plan.ColumnID]types.Value) [][]types.Value { return vals(o[1]) }}
	ce := &plan.Case{Whens: []plan.When{{Cond: call(gt8, col(1, i8), cst(I(1), i8)),
		Result: &plan.Subquery{Kind: plan.ExistsSubquery, OuterRefs: []plan.ColumnID{1}, T: bl}}}, T: bl}
	cs := cols(i8, i8)
	c, err := Compile(ce, cs, &Env{Subqueries: r2})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Eval(context.Background(), mkRecord(cs, in)); err != nil || r2.calls.Load() != 2 {
		t.Fatalf("lazy correlated: %v calls %d", err, r2.calls.Load())
	}
}

func join(s []string) string {
	out := ""
	for i, x := range s {
		if i > 0 {
			out += ","
		}
		out += x
	}
	return out
}
