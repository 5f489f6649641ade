package operators

import (
	"context"
	"fmt"
	"math"
	"math/rand"
	"sort"
	"strings"
	"testing"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// groupedRun runs every sum/avg/min/max/count over the value columns of cs
// (plus FILTER (WHERE c1 > 0) variants and one DISTINCT) grouped by the
// columns keys, with the typed states on or off. It returns the sorted rows,
// or the error's SQLSTATE and message.
func groupedRun(t *testing.T, cs []plan.Column, rows [][]types.Value, keys []int, typed bool, parts, size int) string {
	t.Helper()
	defer func(old bool) { aggKernels = old }(aggKernels)
	aggKernels = typed
	gt, _ := types.ResolveOperator(">", types.Int8Type, types.Int8Type)
	flt := &plan.Call{Func: gt, Args: []plan.Expr{&plan.ColRef{ID: cs[0].ID, T: cs[0].Type}, &plan.Const{Val: types.Value{I: 0}, T: types.Int8Type}}}
	var groupBy []plan.Expr
	var out []types.Type
	for _, k := range keys {
		groupBy = append(groupBy, &plan.ColRef{ID: cs[k].ID, T: cs[k].Type})
		out = append(out, cs[k].Type)
	}
	var calls []plan.AggCall
	star, _ := types.ResolveAggregate("count", nil, true)
	calls = append(calls, plan.AggCall{Func: star}, plan.AggCall{Func: star, Filter: flt})
	out = append(out, star.Result, star.Result)
	for _, c := range cs {
		ref := &plan.ColRef{ID: c.ID, T: c.Type}
		for _, name := range []string{"sum", "avg", "min", "max", "count"} {
			fn, err := types.ResolveAggregate(name, []types.Type{c.Type}, false)
			if err != nil {
				continue
			}
			calls = append(calls, plan.AggCall{Func: fn, Args: []plan.Expr{ref}}, plan.AggCall{Func: fn, Args: []plan.Expr{ref}, Filter: flt})
			out = append(out, fn.Result, fn.Result)
		}
	}
	sum4, _ := types.ResolveAggregate("sum", []types.Type{types.Int4Type}, false)
	calls = append(calls, plan.AggCall{Func: sum4, Args: []plan.Expr{&plan.ColRef{ID: cs[2].ID, T: cs[2].Type}}, Distinct: true})
	out = append(out, sum4.Result)
	ords := make([]int, len(cs))
	for i := range ords {
		ords[i] = i
	}
	a, err := NewHashAggregate(NewScanBatch(newMemTable(cs, rows, 5), ords, cs, parts, size), groupBy, calls, cols(out...), &Env{})
	if err != nil {
		t.Fatal(err)
	}
	recs, err := Collect(context.Background(), a)
	if err != nil {
		return "error " + pgerr.Code(err) + ": " + err.Error()
	}
	var lines []string
	for _, r := range recs {
		for _, row := range recRows(r, a.Columns()) {
			lines = append(lines, fmtRow(row, a.Columns()))
		}
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// The typed grouped states give exactly the accumulators' answers: NULLs,
// FILTER, many groups, numeric scales/NaN/huge values, int8 sums beyond
// int64, floats, several key shapes (int, text, int+text, numeric, date,
// none) and partition counts.
func TestGroupedStatesMatchGeneric(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	// c1 int8 (small keys), c2 text, c3 int4, c4 int8 near the limits,
	// c5 numeric, c6 float8, c7 int2, c8 date, c9 float4, c10 numeric(18,2)
	// (Decimal64, sums beyond int64, NaN).
	cs := cols(types.Int8Type, types.TextType, types.Int4Type, types.Int8Type, types.NumericType,
		types.Float8Type, types.Int2Type, types.DateType, types.Float4Type, types.NumericOf(18, 2))
	numeric := []string{"0", "1.5", "-2.25", "100", "0.001", "-0.50", "7.125", "123456789012345678",
		"-99999999999999999.99", "1234567890123456789.5", "0.000000000000000000001", "NaN", "12.30"}
	keySets := [][]int{{0}, {1}, {0, 1}, {4}, {7}, {2}, nil}
	for round := 0; round < 28; round++ {
		keys := keySets[round%len(keySets)]
		groups := []int64{3, 50, 5000}[rng.Intn(3)]
		var rows [][]types.Value
		n := rng.Intn(3000)
		for r := 0; r < n; r++ {
			row := make([]types.Value, len(cs))
			for c := range cs {
				if rng.Intn(7) == 0 {
					row[c] = types.NullValue
					continue
				}
				switch c {
				case 0:
					row[c] = I(rng.Int63n(groups) - groups/3)
				case 1:
					row[c] = S(fmt.Sprintf("k%d", rng.Int63n(groups)))
				case 2:
					row[c] = I(rng.Int63n(1<<32) - 1<<31)
				case 3:
					if rng.Intn(2) == 0 {
						row[c] = I(math.MaxInt64 - rng.Int63n(1000))
					} else {
						row[c] = I(math.MinInt64 + rng.Int63n(1000))
					}
					if round%2 == 0 {
						row[c] = I(rng.Int63n(1 << 40))
					}
				case 4:
					s := numeric[rng.Intn(len(numeric))]
					if round%4 != 0 && s == "NaN" {
						s = "3.5"
					}
					if round%3 == 1 {
						s = fmt.Sprintf("%d.%02d", rng.Int63n(groups), rng.Intn(100))
					}
					row[c] = numVal(t, s)
				case 5:
					row[c] = F(float64(rng.Int63n(1000)) / 8)
				case 6:
					row[c] = I(rng.Int63n(65536) - 32768)
				case 7:
					row[c] = I(rng.Int63n(groups))
				case 8:
					row[c] = F(float64(float32(rng.Float64() * 100)))
				case 9:
					m := rng.Int63n(100000) - 50000
					switch {
					case round%3 == 2:
						m = 999999999999999999 - rng.Int63n(1000)
					case rng.Intn(500) == 0 && round%4 == 0:
						row[c] = numVal(t, "NaN")
						continue
					}
					row[c] = types.Value{Num: types.NumericFromScaled(m, 2)}
				}
			}
			rows = append(rows, row)
		}
		parts, size := 1+rng.Intn(3), 1+rng.Intn(1500)
		got := groupedRun(t, cs, rows, keys, true, parts, size)
		want := groupedRun(t, cs, rows, keys, false, parts, size)
		if got != want {
			t.Fatalf("round %d keys %v: typed states\n%s\ngeneric\n%s", round, keys, got, want)
		}
	}
}

// Errors match too: float8 sums that overflow fail with 22003 either way.
func TestGroupedFloatOverflowMatches(t *testing.T) {
	cs := cols(types.Int8Type, types.Float8Type)
	rows := [][]types.Value{{I(1), F(math.MaxFloat64)}, {I(1), F(math.MaxFloat64)}, {I(2), F(1)}}
	fn, _ := types.ResolveAggregate("sum", []types.Type{types.Float8Type}, false)
	for _, typed := range []bool{true, false} {
		aggKernels = typed
		a, err := NewHashAggregate(NewScanBatch(newMemTable(cs, rows, 1), []int{0, 1}, cs, 1, 1024),
			[]plan.Expr{&plan.ColRef{ID: cs[0].ID, T: cs[0].Type}},
			[]plan.AggCall{{Func: fn, Args: []plan.Expr{&plan.ColRef{ID: cs[1].ID, T: cs[1].Type}}}}, cols(types.Int8Type, types.Float8Type), &Env{})
		if err != nil {
			t.Fatal(err)
		}
		_, err = Collect(context.Background(), a)
		wantCode(t, err, pgerr.NumericValueOutOfRange)
	}
	aggKernels = true
}

// sum(int8) and avg(int8) per group beyond int64 stay exact.
func TestGroupedInt8SumBeyondInt64(t *testing.T) {
	cs := cols(types.Int8Type, types.Int8Type)
	var rows [][]types.Value
	for i := 0; i < 3; i++ {
		rows = append(rows, []types.Value{I(7), I(math.MaxInt64)}, []types.Value{I(8), I(math.MinInt64)})
	}
	sum, _ := types.ResolveAggregate("sum", []types.Type{types.Int8Type}, false)
	avg, _ := types.ResolveAggregate("avg", []types.Type{types.Int8Type}, false)
	ref := &plan.ColRef{ID: cs[1].ID, T: cs[1].Type}
	a, err := NewHashAggregate(NewScanBatch(newMemTable(cs, rows, 1), []int{0, 1}, cs, 2, 2),
		[]plan.Expr{&plan.ColRef{ID: cs[0].ID, T: cs[0].Type}},
		[]plan.AggCall{{Func: sum, Args: []plan.Expr{ref}}, {Func: avg, Args: []plan.Expr{ref}}}, cols(types.Int8Type, types.NumericType, types.NumericType), &Env{})
	if err != nil {
		t.Fatal(err)
	}
	// As PostgreSQL 15 answers SELECT k, sum(x), avg(x) ... GROUP BY k.
	sameMultiset(t, collectRows(t, a), []string{
		"7|27670116110564327421|9223372036854775807",
		"8|-27670116110564327424|-9223372036854775808",
	})
}

// DISTINCT aggregates keep one tuple per not-distinct argument value per
// group (1.0 = 1.00, -0 = 0, NULL skipped by the aggregate), across batch
// sizes and the merge of partition tables.
func TestDistinctAggregateNotDistinct(t *testing.T) {
	cs := cols(types.Int8Type, types.NumericType)
	vals := []string{"1.0", "1.00", "1", "2", "2.000", "-0", "0.0", "NaN", "NULL", "3.5", "3.50"} // 11: every group sees all
	var rows [][]types.Value
	for i := 0; i < 300; i++ {
		v := types.Value{Null: true}
		if s := vals[i%len(vals)]; s != "NULL" {
			var err error
			if v, err = types.ParseText(s, types.NumericType); err != nil {
				t.Fatal(err)
			}
		}
		rows = append(rows, []types.Value{{I: int64(i % 3)}, v})
	}
	cnt, _ := types.ResolveAggregate("count", []types.Type{types.NumericType}, false)
	sum, _ := types.ResolveAggregate("sum", []types.Type{types.NumericType}, false)
	ref := &plan.ColRef{ID: cs[1].ID, T: cs[1].Type}
	calls := []plan.AggCall{{Func: cnt, Args: []plan.Expr{ref}, Distinct: true}, {Func: sum, Args: []plan.Expr{ref}, Distinct: true}}
	// Every group sees every value: 1, 2, 0, NaN, 3.5 are its distinct values.
	want := "0|5|NaN\n1|5|NaN\n2|5|NaN"
	for _, parts := range []int{1, 3} {
		for _, size := range []int{2, 1024} {
			a, err := NewHashAggregate(NewScanBatch(newMemTable(cs, rows, 5), []int{0, 1}, cs, parts, size),
				[]plan.Expr{&plan.ColRef{ID: cs[0].ID, T: cs[0].Type}}, calls, cols(types.Int8Type, cnt.Result, sum.Result), &Env{})
			if err != nil {
				t.Fatal(err)
			}
			recs, err := Collect(context.Background(), a)
			if err != nil {
				t.Fatal(err)
			}
			var lines []string
			for _, r := range recs {
				for _, row := range recRows(r, a.Columns()) {
					lines = append(lines, fmtRow(row, a.Columns()))
				}
			}
			sort.Strings(lines)
			if got := strings.Join(lines, "\n"); got != want {
				t.Errorf("parts %d, batch %d: got\n%s\nwant\n%s", parts, size, got, want)
			}
		}
	}
}
