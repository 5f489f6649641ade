package types

import (
	"math"
	"strconv"
	"strings"
	"testing"
)

// TestLibmMatchesPostgres checks the float8 functions PostgreSQL computes
// with glibc's libm (trigonometric, hyperbolic, degree-based, exp, ln,
// log10, cbrt, power) bit for bit against PostgreSQL 15's outputs
// (testdata/libm_pg15.txt, made by testdata/genlibm.sh, and float_pg15.txt
// for exp, ln, log10 and pow), through the function lookup a query takes.
func TestLibmMatchesPostgres(t *testing.T) {
	n := 0
	for _, fs := range append(testdataFields(t, "testdata/libm_pg15.txt"), testdataFields(t, "testdata/float_pg15.txt")...) {
		line := strings.Join(fs, " ")
		nums := make([]float64, len(fs)-1)
		for i, s := range fs[1:] {
			var err error
			if nums[i], err = strconv.ParseFloat(s, 64); err != nil {
				t.Fatalf("bad line %q", line)
			}
		}
		args := make([]Type, len(nums)-1)
		vals := make([]Value, len(nums)-1)
		for i := range args {
			args[i], vals[i] = Float8Type, Value{F: nums[i]}
		}
		fn, err := ResolveFunction(fs[0], args)
		if err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		got, err := fn.Eval(nil, vals)
		if err != nil {
			t.Errorf("%s: %v", line, err)
			continue
		}
		if want := nums[len(nums)-1]; math.Float64bits(got.F) != math.Float64bits(want) {
			t.Errorf("%s(%v) = %v, PostgreSQL %v", fs[0], nums[:len(nums)-1], got.F, want)
		}
		n++
	}
	if n < 10000 {
		t.Fatalf("only %d cases read", n)
	}
}

// TestShortestFloatNeverAMidpoint checks float text output where Go's
// shortest digits sit exactly on a midpoint; outputs are PostgreSQL 15's.
func TestShortestFloatNeverAMidpoint(t *testing.T) {
	for _, c := range []struct {
		in   string
		bits int
		want string
	}{
		{"1e23", 64, "9.999999999999999e+22"},
		{"-1e23", 64, "-9.999999999999999e+22"},
		{"19994758824423808", 64, "1.9994758824423808e+16"},
		{"2.80208006923568e+18", 64, "2.8020800692356803e+18"},
		{"1e22", 64, "1e+22"},
		{"9007199254740993", 64, "9.007199254740992e+15"},
		{"3e10", 32, "3.0000001e+10"},
		{"16777217", 32, "1.6777216e+07"},
		{"1e38", 32, "1e+38"},
		{"33554434", 32, "3.3554432e+07"},
	} {
		f, err := strconv.ParseFloat(c.in, c.bits)
		if err != nil {
			t.Fatal(err)
		}
		if got := string(appendFloat(nil, f, c.bits, 1)); got != c.want {
			t.Errorf("%s (float%d) = %s, PostgreSQL %s", c.in, c.bits/8, got, c.want)
		}
	}
}
