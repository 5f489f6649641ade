package operators

import (
	"fmt"
	"math"
	"math/rand"
	"testing"
	"time"

	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

func numVal(t *testing.T, s string) types.Value {
	v, err := types.ParseTextFormat(s, types.NumericType, nil, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// aggRows runs sum/min/max over every column of rows (plus a FILTER
// variant) with the batch kernels on or off.
func aggRows(t *testing.T, cs []plan.Column, rows [][]types.Value, kernels bool, parts, size int) []string {
	t.Helper()
	defer func(old bool) { aggKernels = old }(aggKernels)
	aggKernels = kernels
	var calls []plan.AggCall
	var out []types.Type
	gt, _ := types.ResolveOperator(">", types.Int8Type, types.Int8Type)
	for _, c := range cs {
		ref := &plan.ColRef{ID: c.ID, T: c.Type}
		for _, name := range []string{"sum", "min", "max"} {
			fn, err := types.ResolveAggregate(name, []types.Type{c.Type}, false)
			if err != nil {
				continue
			}
			calls = append(calls, plan.AggCall{Func: fn, Args: []plan.Expr{ref}})
			out = append(out, fn.Result)
			// FILTER (WHERE c1 > 0): c1 is an int8 column in every test.
			flt := &plan.Call{Func: gt, Args: []plan.Expr{&plan.ColRef{ID: cs[0].ID, T: cs[0].Type}, &plan.Const{Val: types.Value{I: 0}, T: types.Int8Type}}}
			calls = append(calls, plan.AggCall{Func: fn, Args: []plan.Expr{ref}, Filter: flt})
			out = append(out, fn.Result)
		}
	}
	tbl := newMemTable(cs, rows, 3)
	ords := make([]int, len(cs))
	for i := range ords {
		ords[i] = i
	}
	a, err := NewHashAggregate(NewScanBatch(tbl, ords, cs, parts, size), nil, calls, cols(out...), &Env{})
	if err != nil {
		t.Fatal(err)
	}
	return collectRows(t, a)
}

// The batch kernels give exactly the per-row accumulators' answers,
// NULLs, FILTER, numeric scales, NaN and int8 overflow included.
func TestAggKernelsMatchPerRow(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	cs := cols(types.Int8Type, types.Int4Type, types.Int2Type, types.NumericType, types.DateType, types.Int8Type)
	numeric := []string{"0", "1.5", "-2.25", "100", "0.001", "-0.50", "123456789012345678", "1234567890123456789.5", "NaN", "1e3", "99999999999999999.9"}
	for round := 0; round < 30; round++ {
		var rows [][]types.Value
		n := rng.Intn(3000)
		for r := 0; r < n; r++ {
			row := make([]types.Value, len(cs))
			for c := range cs {
				if rng.Intn(6) == 0 {
					row[c] = types.NullValue
					continue
				}
				switch c {
				case 0:
					row[c] = types.Value{I: rng.Int63n(200) - 100}
				case 1:
					row[c] = types.Value{I: rng.Int63n(1<<31) - 1<<30}
				case 2:
					row[c] = types.Value{I: rng.Int63n(60000) - 30000}
				case 3:
					s := numeric[rng.Intn(len(numeric))]
					if round%3 != 0 && s == "NaN" {
						s = "7.125"
					}
					row[c] = numVal(t, s)
				case 4:
					row[c] = types.Value{I: rng.Int63n(20000)}
				case 5: // huge int8: batch partials overflow
					row[c] = types.Value{I: math.MaxInt64 - rng.Int63n(10)}
					if rng.Intn(2) == 0 {
						row[c].I = -row[c].I
					}
				}
			}
			rows = append(rows, row)
		}
		parts, size := 1+rng.Intn(3), 1+rng.Intn(2000)
		got := aggRows(t, cs, rows, true, parts, size)
		want := aggRows(t, cs, rows, false, parts, size)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("round %d: kernels %v\nper-row %v", round, got, want)
		}
	}
}

// sum(int8) is exact numeric beyond int64, as in PostgreSQL:
// SELECT sum(x) FROM (VALUES (9223372036854775807::int8), (...), (...)) v(x)
// is 27670116110564327421.
func TestSumInt8OverflowIsExactNumeric(t *testing.T) {
	cs := cols(types.Int8Type)
	rows := [][]types.Value{{I(math.MaxInt64)}, {I(math.MaxInt64)}, {I(math.MaxInt64)}}
	fn, _ := types.ResolveAggregate("sum", []types.Type{types.Int8Type}, false)
	for _, k := range []bool{true, false} {
		aggKernels = k
		a, err := NewHashAggregate(NewScanBatch(newMemTable(cs, rows, 1), []int{0}, cs, 1, 1024), nil,
			[]plan.AggCall{{Func: fn, Args: []plan.Expr{&plan.ColRef{ID: cs[0].ID, T: cs[0].Type}}}}, cols(types.NumericType), &Env{})
		if err != nil {
			t.Fatal(err)
		}
		got := collectRows(t, a)
		if len(got) != 1 || got[0] != "27670116110564327421" {
			t.Fatalf("kernels=%v: got %v", k, got)
		}
	}
	aggKernels = true
}

func TestParseDec(t *testing.T) {
	for _, c := range []struct {
		in    string
		m     int64
		scale int
		ok    bool
	}{
		{"0", 0, 0, true}, {"-1.50", -150, 2, true}, {"123456789012345678", 123456789012345678, 0, true},
		{"1234567890123456789", 0, 0, false}, {"0.000000000000000001", 1, 18, true}, {"NaN", 0, 0, false},
		{"-", 0, 0, false}, {"", 0, 0, false}, {"1e5", 0, 0, false}, {"Infinity", 0, 0, false}, {"00012.5", 125, 1, true},
	} {
		m, sc, ok := parseDec(c.in)
		if ok != c.ok || ok && (m != c.m || sc != c.scale) {
			t.Errorf("parseDec(%q) = %d, %d, %v", c.in, m, sc, ok)
		}
	}
}
