package operators

import (
	"strings"
	"testing"

	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// arrayOf3 is ARRAY[n, n + 1, n + 2] over column n, as the binder builds it.
func arrayOf3(t testing.TB) plan.Expr {
	t.Helper()
	add, err := types.ResolveOperator("+", i4, i4)
	if err != nil {
		t.Fatal(err)
	}
	n := &plan.ColRef{ID: 1, T: i4}
	elems := []plan.Expr{n,
		&plan.Call{Func: add, Args: []plan.Expr{n, cst(I(1), i4)}},
		&plan.Call{Func: add, Args: []plan.Expr{n, cst(I(2), i4)}}}
	mk := &types.Overload{Name: "array", Args: []types.Type{i4, i4, i4}, Result: types.ArrayOf(i4),
		Eval: func(_ *types.EvalContext, v []types.Value) (types.Value, error) {
			return types.Value{Arr: types.NewArray(append([]types.Value(nil), v...))}, nil
		}}
	return &plan.Call{Func: mk, Args: elems}
}

func unnestCall(t testing.TB, arg plan.Expr) plan.SetFunc {
	t.Helper()
	ov, err := types.ResolveFunction("unnest", []types.Type{arg.Type()})
	if err != nil {
		t.Fatal(err)
	}
	return plan.SetFunc{Func: ov, Args: []plan.Expr{arg}}
}

// unnest of an array computed per row (EvalValues hands the arrays over
// without a column in between): each row's elements, strict ARRAY[] over a
// NULL element keeps it, and rows keep their order.
func TestProjectSetUnnestComputedArray(t *testing.T) {
	in := intInput(I(1), N, I(10))
	op, err := NewProjectSet(in, []plan.SetFunc{unnestCall(t, arrayOf3(t))}, []plan.Column{{ID: 2, Type: i4}}, nil, nil, &Env{BatchSize: 4})
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(rowsText(t, op), " ")
	if want := "1,1 1,2 1,3 -,- -,- -,- 10,10 10,11 10,12"; got != want {
		t.Fatalf("got %s\nwant %s", got, want)
	}
}

// BenchmarkProjectSetUnnest is the function benchmark's fn_unnest shape:
// unnest(ARRAY[k, k + 1, k + 2]) over a column.
func BenchmarkProjectSetUnnest(b *testing.B) {
	rows := make([]types.Value, 100000)
	for i := range rows {
		rows[i] = I(int64(i))
	}
	fs := []plan.SetFunc{unnestCall(b, arrayOf3(b))}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		op, err := NewProjectSet(intInput(rows...), fs, []plan.Column{{ID: 2, Type: i4}}, nil, nil, nil)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := Collect(b.Context(), op); err != nil {
			b.Fatal(err)
		}
	}
}
