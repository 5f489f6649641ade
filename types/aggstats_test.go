package types

import (
	"testing"

	"github.com/cockroachdb/apd/v3"
)

func addAll(t *testing.T, a Accumulator, rows ...[]Value) Accumulator {
	t.Helper()
	for _, r := range rows {
		if err := a.Add(r); err != nil {
			t.Fatal(err)
		}
	}
	return a
}

func f8(v float64) []Value { return []Value{{F: v}} }

// The numeric variance's scale and digits are PostgreSQL's
// (numeric_stddev_internal): var_samp(5, 3, 8) = 6.3333333333333333.
func TestNumericVarianceScale(t *testing.T) {
	cases := []struct {
		kind varKind
		in   []int64
		want string
	}{
		{varSamp, []int64{5, 3, 8}, "6.3333333333333333"},
		{varPop, []int64{5, 3, 8}, "4.2222222222222222"},
		{stddevSamp, []int64{1, 1, 2}, "0.57735026918962576451"},
		{varPop, []int64{7}, "0"},
	}
	for _, c := range cases {
		a := &numVarAcc{kind: c.kind}
		for _, v := range c.in {
			addAll(t, a, []Value{{I: v}})
		}
		r, err := a.Result()
		if err != nil {
			t.Fatal(err)
		}
		if got := NumericString(r.Num); got != c.want {
			t.Errorf("%v over %v = %s, want %s", c.kind, c.in, got, c.want)
		}
	}
	if r, _ := addAll(t, &numVarAcc{kind: varSamp}, []Value{{Num: apd.New(4, 0)}}).Result(); !r.Null {
		t.Errorf("var_samp of one row = %v, want NULL", r)
	}
}

// Merging partial states is float8_combine: two halves give the Sxx of the
// whole, and an empty side leaves the other as it is.
func TestFloatVarianceCombine(t *testing.T) {
	a := addAll(t, &floatVarAcc{kind: varPop}, f8(1), f8(2)).(*floatVarAcc)
	b := addAll(t, &floatVarAcc{kind: varPop}, f8(3), f8(4)).(*floatVarAcc)
	if err := a.Merge(b); err != nil {
		t.Fatal(err)
	}
	if a.n != 4 || a.sx != 10 || a.sxx != 5 {
		t.Fatalf("combined state (%v, %v, %v), want (4, 10, 5)", a.n, a.sx, a.sxx)
	}
	if err := a.Merge(&floatVarAcc{}); err != nil || a.sxx != 5 {
		t.Fatalf("merging an empty state changed Sxx to %v (%v)", a.sxx, err)
	}
	big := addAll(t, &floatVarAcc{kind: varPop}, f8(1e308))
	if err := big.Add(f8(1e308)); err == nil {
		t.Fatal("finite inputs overflowing Sx did not fail")
	}
}

func TestRegrFinals(t *testing.T) {
	mk := func(k regrKind) Accumulator {
		return addAll(t, &regrAcc{kind: k}, []Value{{F: 1}, {F: 2}}, []Value{{F: 3}, {F: 4}}, []Value{{F: 2}, {F: 6}})
	}
	want := map[regrKind]float64{regrCount: 3, regrSxx: 8, regrAvgX: 4, regrSlope: 0.25, covarPop: 2.0 / 3}
	for k, w := range want {
		r, err := mk(k).Result()
		if err != nil {
			t.Fatal(err)
		}
		got := r.F
		if k == regrCount {
			got = float64(r.I)
		}
		if got != w {
			t.Errorf("kind %d = %v, want %v", k, got, w)
		}
	}
}
