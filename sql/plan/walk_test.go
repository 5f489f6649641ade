package plan

import (
	"reflect"
	"testing"

	"github.com/joind/joind/types"
)

func col(id ColumnID) *ColRef { return &ColRef{ID: id, T: types.Int4Type} }

// TestChildrenRoundTrip: every expression kind rebuilt over its own
// children keeps them in Children's order, and ColumnRefs sees through
// every kind (a kind missing from walk.go would not compile; a wrong
// order would fail here).
func TestChildrenRoundTrip(t *testing.T) {
	eq := &types.Overload{Name: "=", Result: types.BoolType}
	sub := &Subquery{Kind: AnySubquery, LHS: []Expr{col(9)}, OuterRefs: []ColumnID{10}, T: types.BoolType}
	exprs := []Expr{
		&Call{Func: eq, Args: []Expr{col(1), col(2)}},
		&Cast{Input: col(1), T: types.Int8Type},
		&And{Args: []Expr{col(1), col(2), col(3)}},
		&Or{Args: []Expr{col(1), col(2)}},
		&Not{Arg: col(1)},
		&IsNull{Arg: col(1), Negate: true},
		&BoolTest{Arg: col(1), Kind: IsNotFalse},
		&IsDistinct{Left: col(1), Right: col(2), Eq: eq, Negate: true},
		&Case{Whens: []When{{Cond: col(1), Result: col(2)}, {Cond: col(3), Result: col(4)}}, Else: col(5), T: types.Int4Type},
		&Case{Whens: []When{{Cond: col(1), Result: col(2)}}, T: types.Int4Type},
		&Coalesce{Args: []Expr{col(1), col(2)}, T: types.Int4Type},
		&NullIf{Left: col(1), Right: col(2), Eq: eq},
		sub,
	}
	for _, e := range exprs {
		kids := e.Children()
		again := e.WithChildren(kids)
		if !reflect.DeepEqual(again, e) {
			t.Errorf("%T: WithChildren(Children()) = %#v, want %#v", e, again, e)
		}
		if reflect.ValueOf(again).Pointer() == reflect.ValueOf(e).Pointer() && len(kids) > 0 {
			t.Errorf("%T: WithChildren returned the same node, not a copy", e)
		}
		// Replace every child by a distinct column and read them back.
		repl := make([]Expr, len(kids))
		for i := range kids {
			repl[i] = col(ColumnID(100 + i))
		}
		got := e.WithChildren(repl).Children()
		if !reflect.DeepEqual(got, repl) {
			t.Errorf("%T: children after WithChildren = %v, want %v", e, got, repl)
		}
	}
	if got := ColumnRefs(&And{Args: []Expr{col(1), sub}}, nil); !reflect.DeepEqual(got, []ColumnID{1, 10, 9}) {
		t.Errorf("ColumnRefs = %v, want [1 10 9]", got)
	}
}

func TestRewriteIsBottomUp(t *testing.T) {
	e := &Not{Arg: &And{Args: []Expr{col(1), col(2)}}}
	var order []string
	out := Rewrite(e, func(x Expr) Expr {
		switch x := x.(type) {
		case *ColRef:
			order = append(order, "col")
			return col(x.ID + 10)
		case *And:
			order = append(order, "and")
		case *Not:
			order = append(order, "not")
		}
		return x
	})
	if !reflect.DeepEqual(order, []string{"col", "col", "and", "not"}) {
		t.Errorf("order %v", order)
	}
	if got := ColumnRefs(out, nil); !reflect.DeepEqual(got, []ColumnID{11, 12}) {
		t.Errorf("rewritten columns %v", got)
	}
	if got := ColumnRefs(e, nil); !reflect.DeepEqual(got, []ColumnID{1, 2}) {
		t.Errorf("Rewrite changed its input: %v", got)
	}
}

// TestExpressionsRoundTrip: every node kind rebuilt over its own
// expressions is unchanged, and over replacements reads them back in
// Expressions' order (nil optional expressions stay nil).
func TestExpressionsRoundTrip(t *testing.T) {
	agg := &types.AggOverload{Name: "sum"}
	nodes := []Node{
		&Scan{},
		&CTEScan{},
		&Distinct{},
		&SetOp{},
		&Filter{Pred: col(1)},
		&Project{Exprs: []Expr{col(1), col(2)}},
		&FunctionScan{Funcs: []SetFunc{{Args: []Expr{col(1), col(2)}}, {Args: []Expr{col(3)}}}},
		&ProjectSet{Input: &Scan{}, Funcs: []SetFunc{{Args: []Expr{col(1)}}, {Args: []Expr{col(2), col(3)}}}},
		&ProjectSet{Input: &Scan{}, Funcs: []SetFunc{{Args: []Expr{col(1)}}}, Exprs: []Expr{col(4), col(5)}},
		&Join{On: col(1)},
		&Join{},
		&Apply{On: col(1)},
		&Apply{},
		&Limit{Count: col(1), Offset: col(2)},
		&Limit{Offset: col(2)},
		&Limit{Count: col(1)},
		&Values{Rows: [][]Expr{{col(1), col(2)}, {col(3), col(4)}}},
		&Aggregate{GroupBy: []Expr{col(1)}, Aggs: []AggCall{{Func: agg, Args: []Expr{col(2)}, Filter: col(3)}, {Func: agg, Args: []Expr{col(4)}}}},
		&Sort{Keys: []SortKey{{Expr: col(1), Desc: true}, {Expr: col(2)}}},
	}
	for _, n := range nodes {
		es := n.Expressions()
		if again := n.WithExpressions(es); !reflect.DeepEqual(again, n) {
			t.Errorf("%T: WithExpressions(Expressions()) = %#v, want %#v", n, again, n)
		}
		repl := make([]Expr, len(es))
		for i := range es {
			repl[i] = col(ColumnID(100 + i))
		}
		got := n.WithExpressions(repl).Expressions()
		if len(got) != len(repl) || (len(repl) > 0 && !reflect.DeepEqual(got, repl)) {
			t.Errorf("%T: expressions after WithExpressions = %v, want %v", n, got, repl)
		}
		if len(es) > 0 && MapNodeExprs(n, func(e Expr) Expr { return e }) == n {
			t.Errorf("%T: MapNodeExprs returned the same node, not a copy", n)
		}
	}
}
