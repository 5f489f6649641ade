package operators

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// Test overloads, defined here so the evaluator is tested independently of
// package types' built-in catalogue.

func intOp(name string, t types.Type, res types.Type, f func(a, b int64) (types.Value, error)) *types.Overload {
	return &types.Overload{Name: name, Args: []types.Type{t, t}, Result: res, Strict: true,
		Eval: func(_ *types.EvalContext, a []types.Value) (types.Value, error) { return f(a[0].I, a[1].I) }}
}

var (
	i8 = types.Int8Type
	i4 = types.Int4Type
	bl = types.BoolType

	eq8 = intOp("=", i8, bl, func(a, b int64) (types.Value, error) { return B(a == b), nil })
	lt8 = intOp("<", i8, bl, func(a, b int64) (types.Value, error) { return B(a < b), nil })
	ne8 = intOp("<>", i8, bl, func(a, b int64) (types.Value, error) { return B(a != b), nil })
	gt8 = intOp(">", i8, bl, func(a, b int64) (types.Value, error) { return B(a > b), nil })
	// A renamed "+" so only the generic path can run it.
	plus8slow = intOp("plus", i8, i8, func(a, b int64) (types.Value, error) { return I(a + b), nil })
	plus4     = intOp("+", i4, i4, func(a, b int64) (types.Value, error) {
		r := a + b
		if r > math.MaxInt32 || r < math.MinInt32 {
			return N, pgerr.New(pgerr.NumericValueOutOfRange, "integer out of range")
		}
		return I(r), nil
	})
	div8 = intOp("/", i8, i8, func(a, b int64) (types.Value, error) {
		if b == 0 {
			return N, pgerr.New(pgerr.DivisionByZero, "division by zero")
		}
		return I(a / b), nil
	})
	div8slow = &types.Overload{Name: "div", Args: div8.Args, Result: i8, Strict: true, Eval: div8.Eval}
)

func col(id int, t types.Type) *plan.ColRef                { return &plan.ColRef{ID: plan.ColumnID(id), T: t} }
func cst(v types.Value, t types.Type) *plan.Const          { return &plan.Const{Val: v, T: t} }
func call(f *types.Overload, args ...plan.Expr) *plan.Call { return &plan.Call{Func: f, Args: args} }

// evalStrings evaluates e over rows and formats the results.
func evalStrings(t *testing.T, e plan.Expr, cs []plan.Column, rows [][]types.Value) ([]string, error) {
	t.Helper()
	c, err := Compile(e, cs, &Env{})
	if err != nil {
		t.Fatalf("compile: %v", err)
	}
	arr, err := c.Eval(context.Background(), mkRecord(cs, rows))
	if err != nil {
		return nil, err
	}
	if arr.Len() != len(rows) {
		t.Fatalf("got %d values for %d rows", arr.Len(), len(rows))
	}
	out := make([]string, len(rows))
	for i := range out {
		out[i] = fmtVal(types.GetValue(arr, e.Type(), i), e.Type())
	}
	return out, nil
}

func checkEval(t *testing.T, name string, e plan.Expr, cs []plan.Column, rows [][]types.Value, want string) {
	t.Helper()
	got, err := evalStrings(t, e, cs, rows)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if g := strings.Join(got, ","); g != want {
		t.Fatalf("%s: got %s want %s", name, g, want)
	}
}

func TestThreeValuedLogic(t *testing.T) {
	cs := cols(bl, bl)
	var rows [][]types.Value
	for _, a := range []types.Value{B(true), B(false), N} {
		for _, b := range []types.Value{B(true), B(false), N} {
			rows = append(rows, []types.Value{a, b})
		}
	}
	a, b := col(1, bl), col(2, bl)
	// rows: TT TF TN FT FF FN NT NF NN
	checkEval(t, "and", &plan.And{Args: []plan.Expr{a, b}}, cs, rows, "t,f,NULL,f,f,f,NULL,f,NULL")
	checkEval(t, "or", &plan.Or{Args: []plan.Expr{a, b}}, cs, rows, "t,t,t,t,f,NULL,t,NULL,NULL")
	checkEval(t, "not", &plan.Not{Arg: a}, cs, rows, "f,f,f,t,t,t,NULL,NULL,NULL")
	checkEval(t, "isnull", &plan.IsNull{Arg: b}, cs, rows, "f,f,t,f,f,t,f,f,t")
	checkEval(t, "isnotnull", &plan.IsNull{Arg: b, Negate: true}, cs, rows, "t,t,f,t,t,f,t,t,f")
	checkEval(t, "and const null", &plan.And{Args: []plan.Expr{a, cst(N, bl)}}, cs, rows, "NULL,NULL,NULL,f,f,f,NULL,NULL,NULL")
	checkEval(t, "or const true", &plan.Or{Args: []plan.Expr{cst(B(true), bl), a}}, cs, rows, "t,t,t,t,t,t,t,t,t")
	checkEval(t, "is true", &plan.BoolTest{Arg: a, Kind: plan.IsTrue}, cs, rows, "t,t,t,f,f,f,f,f,f")
	checkEval(t, "is not false", &plan.BoolTest{Arg: a, Kind: plan.IsNotFalse}, cs, rows, "t,t,t,f,f,f,t,t,t")
	checkEval(t, "is unknown", &plan.BoolTest{Arg: a, Kind: plan.IsUnknown}, cs, rows, "f,f,f,f,f,f,t,t,t")
	checkEval(t, "and3", &plan.And{Args: []plan.Expr{a, b, cst(B(false), bl)}}, cs, rows, "f,f,f,f,f,f,f,f,f")
}

func TestLazyAndCase(t *testing.T) {
	cs := cols(i8)
	rows := [][]types.Value{{I(0)}, {I(2)}, {N}, {I(-4)}, {I(0)}}
	x := col(1, i8)
	zero := cst(I(0), i8)
	for _, div := range []*types.Overload{div8, div8slow} {
		// CASE WHEN x = 0 THEN 0 ELSE 10/x END
		e := &plan.Case{Whens: []plan.When{{Cond: call(eq8, x, zero), Result: zero}},
			Else: call(div, cst(I(10), i8), x), T: i8}
		checkEval(t, "case "+div.Name, e, cs, rows, "0,5,NULL,-2,0")
		// x <> 0 AND 10/x > 1
		and := &plan.And{Args: []plan.Expr{call(ne8, x, zero), call(gt8, call(div, cst(I(10), i8), x), cst(I(1), i8))}}
		checkEval(t, "and lazy "+div.Name, and, cs, rows, "f,t,NULL,f,f")
		// x = 0 OR 10/x < 0
		or := &plan.Or{Args: []plan.Expr{call(eq8, x, zero), call(lt8, call(div, cst(I(10), i8), x), zero)}}
		checkEval(t, "or lazy "+div.Name, or, cs, rows, "t,f,NULL,t,t")
		// COALESCE(x, 10/0) must not evaluate 10/0 when x is never NULL there.
		co := &plan.Coalesce{Args: []plan.Expr{x, call(div, cst(I(10), i8), zero)}, T: i8}
		checkEval(t, "coalesce lazy", co, cs, [][]types.Value{{I(1)}, {I(2)}}, "1,2")
		_, err := evalStrings(t, co, cs, rows)
		wantCode(t, err, pgerr.DivisionByZero)
		// Without the guard the division errors.
		_, err = evalStrings(t, call(div, cst(I(10), i8), x), cs, rows)
		wantCode(t, err, pgerr.DivisionByZero)
	}
	// CASE with several branches, NULL condition falls through, no ELSE -> NULL.
	e := &plan.Case{Whens: []plan.When{
		{Cond: call(lt8, x, zero), Result: cst(S("neg"), types.TextType)},
		{Cond: call(eq8, x, zero), Result: cst(S("zero"), types.TextType)},
	}, T: types.TextType}
	checkEval(t, "case multi", e, cs, rows, "zero,NULL,NULL,neg,zero")
	co := &plan.Coalesce{Args: []plan.Expr{cst(N, i8), x, cst(I(7), i8)}, T: i8}
	checkEval(t, "coalesce", co, cs, rows, "0,2,7,-4,0")
}

func TestArithmeticFastAndGeneric(t *testing.T) {
	cs := cols(i8, i8)
	rows := [][]types.Value{{I(1), I(2)}, {N, I(3)}, {I(5), N}, {I(-7), I(7)}}
	checkEval(t, "fast", call(&types.Overload{Name: "+", Args: []types.Type{i8, i8}, Result: i8, Strict: true, Eval: plus8slow.Eval}, col(1, i8), col(2, i8)), cs, rows, "3,NULL,NULL,0")
	checkEval(t, "generic", call(plus8slow, col(1, i8), col(2, i8)), cs, rows, "3,NULL,NULL,0")
	checkEval(t, "cmp const", call(lt8, col(1, i8), cst(I(2), i8)), cs, rows, "t,NULL,f,t")
	checkEval(t, "cmp const flipped", call(lt8, cst(I(2), i8), col(1, i8)), cs, rows, "f,NULL,t,f")
	checkEval(t, "cmp cols", call(eq8, col(1, i8), col(2, i8)), cs, rows, "f,NULL,NULL,f")
	checkEval(t, "distinct", &plan.IsDistinct{Left: col(1, i8), Right: col(2, i8), Eq: eq8}, cs, rows, "t,t,t,t")
	checkEval(t, "not distinct", &plan.IsDistinct{Left: col(1, i8), Right: cst(I(5), i8), Eq: eq8, Negate: true}, cs, rows, "f,f,t,f")
	checkEval(t, "nullif", &plan.NullIf{Left: col(1, i8), Right: cst(I(5), i8), Eq: eq8}, cs, rows, "1,NULL,NULL,-7")

	// Overflow: int4 + int4, fast path and a NULL row whose slot holds garbage.
	cs4 := cols(i4, i4)
	_, err := evalStrings(t, call(plus4, col(1, i4), col(2, i4)), cs4, [][]types.Value{{I(1), I(1)}, {I(math.MaxInt32), I(1)}})
	wantCode(t, err, pgerr.NumericValueOutOfRange)
	checkEval(t, "no overflow on null", call(plus4, col(1, i4), col(2, i4)), cs4, [][]types.Value{{I(math.MaxInt32), N}}, "NULL")
	plus8 := &types.Overload{Name: "+", Args: []types.Type{i8, i8}, Result: i8, Strict: true, Eval: plus8slow.Eval}
	_, err = evalStrings(t, call(plus8, col(1, i8), cst(I(1), i8)), cs, [][]types.Value{{I(math.MaxInt64), I(0)}})
	wantCode(t, err, pgerr.NumericValueOutOfRange)
	mul8 := &types.Overload{Name: "*", Args: []types.Type{i8, i8}, Result: i8, Strict: true,
		Eval: func(_ *types.EvalContext, a []types.Value) (types.Value, error) { return I(a[0].I * a[1].I), nil }}
	_, err = evalStrings(t, call(mul8, col(1, i8), col(2, i8)), cs, [][]types.Value{{I(math.MinInt64), I(-1)}})
	wantCode(t, err, pgerr.NumericValueOutOfRange)
	checkEval(t, "mul", call(mul8, col(1, i8), col(2, i8)), cs, [][]types.Value{{I(-3), I(4)}, {I(1 << 31), I(1 << 31)}}, "-12,4611686018427387904")
}

func TestColRefErrors(t *testing.T) {
	if _, err := Compile(col(9, i8), cols(i8), &Env{}); err == nil {
		t.Fatal("unknown column compiled")
	}
	c, err := Compile(col(9, i8), cols(i8), &Env{Outer: map[plan.ColumnID]types.Value{9: I(42)}})
	if err != nil {
		t.Fatal(err)
	}
	arr, err := c.Eval(context.Background(), mkRecord(cols(i8), [][]types.Value{{I(1)}, {I(2)}}))
	if err != nil || arr.Len() != 2 || types.GetValue(arr, i8, 1).I != 42 {
		t.Fatalf("outer ref: %v %v", arr, err)
	}
	p, _ := Compile(&plan.Param{Index: 2, T: i8}, nil, &Env{Params: []types.Value{I(1), I(5)}})
	if v, err := p.EvalConst(context.Background()); err != nil || v.I != 5 {
		t.Fatalf("param: %v %v", v, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = c.Eval(ctx, mkRecord(cols(i8), [][]types.Value{{I(1)}}))
	wantCode(t, err, pgerr.QueryCanceled)
}

// A qual's AND stops at NULL as at FALSE (PostgreSQL's implicit-AND qual
// list); the same AND as a value does not, so the division fails there.
func TestCompileQualStopsAtNull(t *testing.T) {
	cols := []plan.Column{{ID: 1, Name: "a", Type: types.Int4Type}, {ID: 2, Name: "b", Type: types.Int4Type}}
	a := &plan.ColRef{ID: 1, T: types.Int4Type, Name: "a"}
	b := &plan.ColRef{ID: 2, T: types.Int4Type, Name: "b"}
	gt, err := types.ResolveOperator(">", types.Int4Type, types.Int4Type)
	if err != nil {
		t.Fatal(err)
	}
	div, err := types.ResolveOperator("/", types.Int4Type, types.Int4Type)
	if err != nil {
		t.Fatal(err)
	}
	k := func(v int64) plan.Expr { return &plan.Const{Val: types.IntValue(v), T: types.Int4Type} }
	// b > 0 AND 10 / a > 1 over (a, b) = (0, NULL), (1, 1), (2, 1).
	pred := &plan.And{Args: []plan.Expr{
		&plan.Call{Func: gt, Args: []plan.Expr{b, k(0)}},
		&plan.Call{Func: gt, Args: []plan.Expr{&plan.Call{Func: div, Args: []plan.Expr{k(10), a}}, k(1)}},
	}}
	rec := mkRecord(cols, [][]types.Value{
		{types.IntValue(0), types.NullValue}, {types.IntValue(1), types.IntValue(1)}, {types.IntValue(2), types.IntValue(1)},
	})
	q, err := CompileQual(pred, cols, nil)
	if err != nil {
		t.Fatal(err)
	}
	arr, err := q.Eval(context.Background(), rec)
	if err != nil {
		t.Fatalf("qual: %v", err)
	}
	got := arr.(*array.Boolean)
	if got.IsValid(0) && got.Value(0) || !got.Value(1) || !got.Value(2) {
		t.Fatalf("qual = %v, want row 0 rejected, rows 1 and 2 kept", got)
	}
	v, err := Compile(pred, cols, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := v.Eval(context.Background(), rec); err == nil {
		t.Fatal("the AND as a value divided by zero without an error")
	}
}
