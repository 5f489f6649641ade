package operators

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"math/rand"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/cockroachdb/apd/v3"
	"github.com/joind/joind/types"
)

// randScaled is a random coefficient: small, around 10^k, or at int64's
// edges (where kernels must decline rather than overflow).
func randScaled(rng *rand.Rand) int64 {
	switch rng.Intn(8) {
	case 0:
		return math.MaxInt64 - rng.Int63n(1000)
	case 1:
		return -(math.MaxInt64 - rng.Int63n(1000))
	case 2:
		k := rng.Intn(19)
		m := types.Pow10[k] - 1 + rng.Int63n(3)
		if rng.Intn(2) == 0 {
			m = -m
		}
		return m
	case 3:
		return rng.Int63n(3037000499) - 1518500249 // products near 2^63
	case 4:
		return 0
	}
	return rng.Int63n(2000001) - 1000000
}

// randNumericVec is n numerics in one of the forms a kernel may meet: a
// Decimal64 column or intermediate, a Decimal128 column, an unconstrained
// (binary) column with one scale or several, or a constant.
func randNumericVec(rng *rand.Rand, n int) vec {
	s := []int{0, 1, 2, 2, 3, 4, 6, 10, 17}[rng.Intn(9)]
	if rng.Intn(8) == 0 {
		if rng.Intn(4) == 0 {
			return constVec(types.NullValue)
		}
		return constVec(types.Value{Num: types.NumericFromScaled(randScaled(rng), s)})
	}
	var dt arrow.DataType
	form := rng.Intn(4)
	switch form {
	case 0, 1:
		dt = types.Dec64Type(s)
	case 2:
		dt = types.Dec128Type(s)
	default:
		dt = types.NumericBinaryType
	}
	mixed := form == 3 && rng.Intn(3) == 0
	b := array.NewBuilder(mem, dt)
	for i := 0; i < n; i++ {
		switch r := rng.Intn(40); {
		case r == 0:
			b.AppendNull()
			continue
		case r == 1 && rng.Intn(3) == 0:
			types.AppendValue(b, types.NumericType, types.Value{Num: &apd.Decimal{Form: apd.NaN}})
			continue
		}
		m := randScaled(rng)
		if m == types.Dec64NaN {
			m++
		}
		sc := s
		if mixed {
			sc = rng.Intn(5)
		}
		d := types.NumericFromScaled(m, sc)
		if form == 2 && rng.Intn(6) == 0 {
			// beyond int64
			d = new(apd.Decimal)
			c := new(big.Int).Mul(big.NewInt(m), big.NewInt(math.MaxInt32))
			d.Coeff.SetMathBigInt(c.Abs(c))
			d.Negative, d.Exponent = m < 0, -int32(s)
		}
		types.AppendValue(b, types.NumericType, types.Value{Num: d})
	}
	return vec{arr: b.NewArray()}
}

// valueText is a result's text, display scale included.
func valueText(v types.Value, t types.Type) string {
	if v.Null {
		return "NULL"
	}
	return string(types.FormatText(nil, v, t, nil))
}

// checkKernel compares a kernel's answer with the overload's Eval, row by
// row; it returns whether the kernel answered (it may decline).
func checkKernel(t *testing.T, what string, fast fastFunc, ref func([]types.Value) (types.Value, error), res types.Type, argT []types.Type, argv []vec, n int) bool {
	t.Helper()
	out, ok, err := fast(argv, n)
	if err != nil {
		t.Fatalf("%s: kernel error %v (kernels decline, never fail)", what, err)
	}
	if !ok {
		return false
	}
	if out.Len() != n {
		t.Fatalf("%s: %d rows, want %d", what, out.Len(), n)
	}
	vals := make([]types.Value, len(argv))
	for i := 0; i < n; i++ {
		null := false
		for k, v := range argv {
			vals[k] = v.get(argT[k], i)
			null = null || vals[k].Null
		}
		got := types.GetValue(out, res, i)
		if null {
			if !got.Null {
				t.Fatalf("%s row %d: %v for a NULL input", what, i, valueText(got, res))
			}
			continue
		}
		want, werr := ref(vals)
		if werr != nil {
			t.Fatalf("%s row %d %v: kernel answered %s where the apd path fails: %v", what, i, argTexts(vals, argT), valueText(got, res), werr)
		}
		if g, w := valueText(got, res), valueText(want, res); g != w {
			t.Fatalf("%s row %d %v: kernel %s, apd %s", what, i, argTexts(vals, argT), g, w)
		}
	}
	return true
}

func argTexts(vals []types.Value, ts []types.Type) []string {
	var s []string
	for k, v := range vals {
		s = append(s, valueText(v, ts[k]))
	}
	return s
}

// Every numeric kernel gives the apd path's answer and display scale, and
// declines (never errs, never answers) where that path fails or overflows.
func TestNumericKernelsMatchApd(t *testing.T) {
	rng := rand.New(rand.NewSource(12))
	ectx := &types.EvalContext{}
	answered := map[string]int{}
	num := types.NumericType
	for iter := 0; iter < 400; iter++ {
		n := 1 + rng.Intn(40)
		a, b := randNumericVec(rng, n), randNumericVec(rng, n)
		if rng.Intn(4) == 0 {
			b = a // a value against itself: equal rows, x - x, x * x
		}
		for _, op := range []string{"+", "-", "*", "/", "=", "<>", "<", "<=", ">", ">="} {
			fn, err := types.ResolveOperator(op, num, num)
			if err != nil {
				t.Fatal(err)
			}
			ref := func(v []types.Value) (types.Value, error) { return fn.Eval(ectx, v) }
			if checkKernel(t, op, pickFast(fn, nil), ref, fn.Result, fn.Args, []vec{a, b}, n) {
				answered[op]++
			}
		}
		// Division again by divisors without zeros (a zero sends a whole
		// batch to the apd path, which raises the error).
		div, _ := types.ResolveOperator("/", num, num)
		nz := array.NewBuilder(mem, types.Dec64Type([]int{0, 2, 3, 5}[rng.Intn(4)]))
		for i := 0; i < n; i++ {
			m := rng.Int63n(2000000) - 1000000
			if rng.Intn(5) == 0 {
				m = randScaled(rng)
			}
			if m == 0 || m == types.Dec64NaN {
				m = 7
			}
			types.AppendValue(nz, num, types.Value{Num: types.NumericFromScaled(m, int(nz.Type().(*arrow.Decimal64Type).GetScale()))})
		}
		if checkKernel(t, "/ nonzero", pickFast(div, nil), func(v []types.Value) (types.Value, error) { return div.Eval(ectx, v) }, num, div.Args, []vec{a, {arr: nz.NewArray()}}, n) {
			answered["/"]++
		}
		neg, _ := types.ResolveOperator("-", types.NoArgType, num)
		if checkKernel(t, "unary -", pickFast(neg, nil), func(v []types.Value) (types.Value, error) { return neg.Eval(ectx, v) }, num, neg.Args, []vec{a}, n) {
			answered["neg"]++
		}
		for _, name := range []string{"round", "trunc"} {
			s := []int64{0, 1, 2, 3, 5, 18, 19, -1}[rng.Intn(8)]
			fn, _ := types.ResolveFunction(name, []types.Type{num, types.Int4Type})
			argv := []vec{a, constVec(types.IntValue(s))}
			if checkKernel(t, fmt.Sprintf("%s(x,%d)", name, s), pickFast(fn, nil), func(v []types.Value) (types.Value, error) { return fn.Eval(ectx, v) }, num, fn.Args, argv, n) {
				answered[name]++
			}
			fn1, _ := types.ResolveFunction(name, []types.Type{num})
			if checkKernel(t, name+"(x)", pickFast(fn1, nil), func(v []types.Value) (types.Value, error) { return fn1.Eval(ectx, v) }, num, fn1.Args, []vec{a}, n) {
				answered[name]++
			}
		}
		// Casts, through the cast node's fast path.
		p := 1 + rng.Intn(18)
		s := rng.Intn(p + 1)
		targets := []types.Type{types.NumericOf(p, s), types.NumericOf(18, rng.Intn(4)), types.Float8Type, types.Int2Type, types.Int4Type, types.Int8Type, num}
		if a.isConst() {
			continue
		}
		for _, to := range targets {
			to := to
			fast := func(argv []vec, n int) (arrow.Array, bool, error) {
				arr, ok := numericCast(argv[0].arr, num, to)
				return arr, ok, nil
			}
			ref := func(v []types.Value) (types.Value, error) { return types.CastValue(ectx, v[0], num, to, true) }
			if checkKernel(t, "cast to "+to.SQLName(), fast, ref, to, []types.Type{num}, []vec{a}, n) {
				answered["cast "+to.SQLName()]++
			}
		}
		// int → numeric(p,s)
		ib := array.NewInt64Builder(mem)
		for i := 0; i < n; i++ {
			if rng.Intn(20) == 0 {
				ib.AppendNull()
				continue
			}
			if rng.Intn(400) == 0 {
				// The int8 extremes: the minimum is Decimal64's NaN.
				ib.Append([]int64{math.MinInt64, math.MaxInt64}[rng.Intn(2)])
				continue
			}
			ib.Append(randScaled(rng) / types.Pow10[rng.Intn(19)])
		}
		iv := vec{arr: ib.NewArray()}
		for _, to := range []types.Type{num, types.NumericOf(p, s), types.NumericOf(18, 2)} {
			to := to
			fast := func(argv []vec, n int) (arrow.Array, bool, error) {
				arr, ok := numericCast(argv[0].arr, types.Int8Type, to)
				return arr, ok, nil
			}
			ref := func(v []types.Value) (types.Value, error) {
				return types.CastValue(ectx, v[0], types.Int8Type, to, true)
			}
			if checkKernel(t, "int8 to "+to.SQLName(), fast, ref, to, []types.Type{types.Int8Type}, []vec{iv}, n) {
				answered["int8 to numeric"]++
			}
		}
	}
	// The kernels must actually run, not only decline.
	for _, k := range []string{"+", "-", "*", "/", "<", "=", "neg", "round", "trunc", "cast double precision", "cast bigint", "cast numeric", "int8 to numeric"} {
		if answered[k] < 10 {
			t.Errorf("kernel %s answered only %d times", k, answered[k])
		}
	}
}

// A kernel's result stays in its own form inside an expression and is
// conformed to the type's form when it leaves the evaluator.
func TestNumericResultConformed(t *testing.T) {
	d := array.NewBuilder(mem, types.NumericOf(15, 2).ArrowType())
	for _, m := range []int64{150, -225, 0} {
		types.AppendValue(d, types.NumericOf(15, 2), types.Value{Num: types.NumericFromScaled(m, 2)})
	}
	col := d.NewArray()
	mul, _ := types.ResolveOperator("*", types.NumericType, types.NumericType)
	out, ok, err := pickFast(mul, nil)([]vec{{arr: col}, {arr: col}}, 3)
	if err != nil || !ok {
		t.Fatalf("mul declined: %v", err)
	}
	if dt, isDec := out.DataType().(*arrow.Decimal64Type); !isDec || dt.Scale != 4 {
		t.Fatalf("product form %s, want Decimal64 scale 4", out.DataType())
	}
	c := vec{arr: out}.materialize(types.NumericType, 3)
	if !arrow.TypeEqual(c.DataType(), types.NumericType.ArrowType()) {
		t.Fatalf("materialized as %s", c.DataType())
	}
	var got []string
	for i := 0; i < 3; i++ {
		got = append(got, valueText(types.GetValue(c, types.NumericType, i), types.NumericType))
	}
	if fmt.Sprint(got) != "[2.2500 5.0625 0.0000]" {
		t.Fatalf("got %v", got)
	}
}

// BenchmarkNumericQ1Sum is TPC-H Q1's sum(l_extendedprice * (1 - l_discount)
// * (1 + l_tax)) over numeric(15,2) columns, 4 groups: the expression and
// the aggregate's fold, with the kernels (kernels=on) and on the apd path.
func BenchmarkNumericQ1Sum(b *testing.B) {
	const n = 4096
	rng := rand.New(rand.NewSource(1))
	t152 := types.NumericOf(15, 2)
	cs := cols(t152, t152, t152)
	rows := make([][]types.Value, n)
	for i := range rows {
		rows[i] = []types.Value{
			{Num: types.NumericFromScaled(90000+rng.Int63n(10490000), 2)},
			{Num: types.NumericFromScaled(rng.Int63n(11), 2)},
			{Num: types.NumericFromScaled(rng.Int63n(9), 2)},
		}
	}
	rec := mkRecord(cs, rows)
	num := types.NumericType
	mul, _ := types.ResolveOperator("*", num, num)
	sub, _ := types.ResolveOperator("-", num, num)
	add, _ := types.ResolveOperator("+", num, num)
	one := cst(types.Value{Num: types.NumericFromScaled(1, 0)}, num)
	e := call(mul, call(mul, col(1, t152), call(sub, one, col(2, t152))), call(add, one, col(3, t152)))
	sum, _ := types.ResolveAggregate("sum", []types.Type{num}, false)
	gids := make([]int32, n)
	for i := range gids {
		gids[i] = int32(i % 4)
	}
	for _, on := range []bool{true, false} {
		b.Run(fmt.Sprintf("kernels=%v", on), func(b *testing.B) {
			defer func(k, a bool) { numericKernels, aggKernels = k, a }(numericKernels, aggKernels)
			numericKernels, aggKernels = on, on
			c, err := Compile(e, cs, &Env{})
			if err != nil {
				b.Fatal(err)
			}
			st := newAggState(&aggSpec{fn: sum, args: []*Compiled{c}, argT: []types.Type{num}})
			st.grow(4)
			ctx := context.Background()
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				arr, err := c.evalAnyForm(ctx, rec)
				if err != nil {
					b.Fatal(err)
				}
				if err := st.update(ctx, gids, []arrow.Array{arr}, nil, n); err != nil {
					b.Fatal(err)
				}
			}
			b.SetBytes(n) // "MB/s" reads as million rows per second
		})
	}
}

// sum over a numeric(18,2) column far beyond int64: the groups move to the
// exact path and then fold each batch's rows as int64 partials (flushed on
// partial overflow too); the result is the exact sum.
func TestNumericSumBeyondInt64(t *testing.T) {
	t182 := types.NumericOf(18, 2)
	sum, _ := types.ResolveAggregate("sum", []types.Type{t182}, false)
	st := newAggState(&aggSpec{fn: sum, argT: []types.Type{t182}})
	if _, ok := st.(*numSumState); !ok {
		t.Fatalf("state %T", st)
	}
	st.grow(2)
	want := [2]*apd.Decimal{apd.New(0, -2), apd.New(0, -2)}
	rng := rand.New(rand.NewSource(3))
	for batch := 0; batch < 5; batch++ {
		n := 300
		b := array.NewBuilder(mem, t182.ArrowType())
		gids := make([]int32, n)
		for i := 0; i < n; i++ {
			m := 999999999999999999 - rng.Int63n(1000)
			if rng.Intn(3) == 0 {
				m = -m / 7
			}
			d := types.NumericFromScaled(m, 2)
			types.AppendValue(b, t182, types.Value{Num: d})
			gids[i] = int32(i % 2)
			r, err := types.NumericAdd(want[i%2], d)
			if err != nil {
				t.Fatal(err)
			}
			want[i%2] = r
		}
		if err := st.update(context.Background(), gids, []arrow.Array{b.NewArray()}, nil, n); err != nil {
			t.Fatal(err)
		}
	}
	for g := 0; g < 2; g++ {
		got, err := st.result(g)
		if err != nil {
			t.Fatal(err)
		}
		if types.NumericString(got.Num) != types.NumericString(want[g]) {
			t.Fatalf("group %d: %s, want %s", g, types.NumericString(got.Num), types.NumericString(want[g]))
		}
	}
}
