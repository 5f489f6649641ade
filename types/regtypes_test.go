package types

import (
	"testing"

	"github.com/joind/joind/pgerr"
)

func TestOIDInput(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
		code string
	}{
		{"12", 12, ""}, {" 12 ", 12, ""}, {"-1", 4294967295, ""}, {"4294967295", 4294967295, ""},
		{"-2147483648", 2147483648, ""}, {"4294967296", 0, "22003"}, {"-2147483649", 0, "22003"}, {"abc", 0, "22P02"},
	} {
		v, err := ParseText(c.in, OidType)
		code := ""
		if err != nil {
			code = err.(*pgerr.Error).Code
		}
		if code != c.code || (code == "" && v.I != c.want) {
			t.Errorf("%q::oid = %d, %q; want %d, %q", c.in, v.I, code, c.want, c.code)
		}
	}
	// A reg* type reads a number or "-" without a catalog.
	if v, err := ParseText("-", RegClassType); err != nil || v.I != 0 {
		t.Errorf("'-'::regclass = %v, %v", v, err)
	}
	if _, err := ParseText("pg_class", RegClassType); err == nil {
		t.Error("a name read without a catalog")
	}
}

func TestOIDCasts(t *testing.T) {
	for _, c := range []struct {
		from, to Type
		in, want int64
	}{
		{Int4Type, OidType, -1, 4294967295}, {OidType, Int4Type, 4294967295, -1}, {OidType, Int8Type, 4294967295, 4294967295},
		{RegClassType, OidType, 1259, 1259}, {Int8Type, RegTypeType, 23, 23},
	} {
		v, err := CastValue(nil, IntValue(c.in), c.from, c.to, true)
		if err != nil || v.I != c.want {
			t.Errorf("%d::%s::%s = %v, %v; want %d", c.in, c.from.PgTypeName(), c.to.PgTypeName(), v.I, err, c.want)
		}
	}
	if _, err := CastValue(nil, IntValue(-1), Int8Type, OidType, true); err == nil {
		t.Error("(-1)::int8::oid did not fail")
	}
	for _, c := range []struct {
		from, to ID
		want     byte
	}{
		{Int4, Oid, 'i'}, {Int8, RegClass, 'i'}, {Oid, RegType, 'i'}, {RegType, Oid, 'i'}, {Oid, Int8, 'a'},
		{RegClass, Int4, 'a'}, {Text, RegClass, 'i'}, {Text, RegType, 'e'}, {RegClass, Text, 'a'}, {RegClass, RegType, 0},
		{RegProc, RegProcedure, 'i'},
	} {
		if got := castContext(c.from, c.to); got != c.want {
			t.Errorf("castContext(%s, %s) = %q, want %q", Type{ID: c.from}.PgTypeName(), Type{ID: c.to}.PgTypeName(), got, c.want)
		}
	}
}
