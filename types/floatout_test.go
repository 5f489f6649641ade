package types

import "testing"

// PostgreSQL's Ryu never prints a decimal that lies exactly on the rounding
// boundary between two floats (strconv does, relying on ties-to-even when
// read back). Expected values are PostgreSQL 15's output.
func TestFloatOutputAvoidsBoundaries(t *testing.T) {
	cases := []struct {
		v    float64
		bits int
		want string
	}{
		{104934416, 32, "1.04934416e+08"},
		{3e10, 32, "3.0000001e+10"},
		{9e9, 32, "8.999999e+09"},
		{1e23, 64, "9.999999999999999e+22"},
		{16777216, 32, "1.6777216e+07"},
		{0.1, 32, "0.1"},
		{0.1, 64, "0.1"},
		{1e300, 64, "1e+300"},
		{100, 64, "100"},
		{1.5, 32, "1.5"},
		{-0.125, 64, "-0.125"},
		{123456.789, 64, "123456.789"},
		{1e-45, 32, "1e-45"},
	}
	for _, c := range cases {
		typ := Float8Type
		if c.bits == 32 {
			typ = Float4Type
		}
		if got := TextOf(Value{F: c.v}, typ); got != c.want {
			t.Errorf("%v (float%d): got %s, want %s", c.v, c.bits/8, got, c.want)
		}
	}
}
