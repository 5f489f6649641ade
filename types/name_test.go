package types

import (
	"strings"
	"testing"
)

func TestClipName(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"abc", "abc"},
		{strings.Repeat("x", 63), strings.Repeat("x", 63)},
		{strings.Repeat("x", 64), strings.Repeat("x", 63)},
		// 31 two-byte characters fit in 62 bytes; the 32nd would straddle byte 63.
		{strings.Repeat("é", 40), strings.Repeat("é", 31)},
		{strings.Repeat("a", 62) + "€", strings.Repeat("a", 62)},
	} {
		if got := clipName(c.in); got != c.want {
			t.Errorf("clipName(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestNameCasts(t *testing.T) {
	long := strings.Repeat("y", 70)
	for _, c := range []struct {
		in       string
		from, to Type
		want     string
	}{
		{long, TextType, NameType, long[:63]},
		{long, VarcharType, NameType, long[:63]},
		{long, UnknownType, NameType, long[:63]},
		{"ab  ", CharOf(4), NameType, "ab"},
		// bpchar_name clips before it trims.
		{"x" + strings.Repeat(" ", 70) + "z", CharOf(80), NameType, "x"},
		{"abc", NameType, VarcharOf(2), "ab"},
		{"ab", NameType, CharOf(4), "ab  "},
	} {
		v, err := CastValue(nil, TextValue(c.in), c.from, c.to, true)
		if err != nil || v.S != c.want {
			t.Errorf("%q::%s::%s = %q, %v; want %q", c.in, c.from.SQLName(), c.to.SQLName(), v.S, err, c.want)
		}
	}
	for _, c := range []struct {
		from, to Type
		implicit bool
		assign   bool
	}{
		{NameType, TextType, true, true}, {TextType, NameType, true, true},
		{VarcharType, NameType, true, true}, {CharType, NameType, true, true},
		{NameType, VarcharType, false, true}, {NameType, CharType, false, true},
		{NameType, Int4Type, false, false}, {Int4Type, NameType, false, true},
	} {
		i, a, e := CanCast(c.from, c.to)
		if i != c.implicit || a != c.assign || !e {
			t.Errorf("cast %s -> %s: implicit %v assignment %v explicit %v", c.from.SQLName(), c.to.SQLName(), i, a, e)
		}
	}
}

func TestNameOperators(t *testing.T) {
	for _, c := range []struct {
		op     string
		l, r   Type
		a, b   string
		want   bool
		argsID ID
	}{
		{"=", NameType, NameType, "abc", "abc", true, Name},
		{"<", NameType, NameType, "Zed", "apple", true, Name}, // C collation
		{"<", NameType, TextType, "a", "b", true, Name},
		{">=", TextType, NameType, "b", "a", true, Text},
		{"~~", NameType, TextType, "apple pie", "apple%", true, Name},
		{"~", NameType, TextType, "Banana", "^[A-Z]", true, Name},
	} {
		ov, err := ResolveOperator(c.op, c.l, c.r)
		if err != nil {
			t.Fatalf("%s %s %s: %v", c.l.SQLName(), c.op, c.r.SQLName(), err)
		}
		if ov.Args[0].ID != c.argsID {
			t.Errorf("%s %s %s resolved to %s", c.l.SQLName(), c.op, c.r.SQLName(), ov.Args[0].SQLName())
		}
		v, err := ov.Eval(nil, []Value{TextValue(c.a), TextValue(c.b)})
		if err != nil || (v.I != 0) != c.want {
			t.Errorf("%q %s %q = %v, %v; want %v", c.a, c.op, c.b, v.I != 0, err, c.want)
		}
	}
	// An unknown literal against a name is a name: name = name.
	ov, err := ResolveOperator("=", NameType, UnknownType)
	if err != nil || ov.Args[1].ID != Name {
		t.Fatalf("name = unknown: %+v %v", ov, err)
	}
	if got := NameType.Size(); got != 64 {
		t.Errorf("typlen %d, want 64", got)
	}
	if v, err := ParseText(strings.Repeat("q", 70), NameType); err != nil || len(v.S) != 63 {
		t.Errorf("namein: %q %v", v.S, err)
	}
}
