package types

import (
	"strings"
	"testing"

	"github.com/cockroachdb/apd/v3"

	"github.com/joind/joind/pgerr"
)

func TestRecordTextRoundTrip(t *testing.T) {
	rt := RecordOf(RecordDesc{Name: "rt_pair", Fields: []string{"a", "b", "c"}, Types: []Type{Int4Type, TextType, NumericType}})
	d, _, _ := apd.NewFromString("1.50")
	vals := []Value{IntValue(7), TextValue(`q"u\o(t)e, x`), {Num: d}}
	s := FormatRecord(vals, rt.Desc().Types, nil)
	if want := `(7,"q""u\\o(t)e, x",1.50)`; s != want {
		t.Fatalf("record_out = %s, want %s", s, want)
	}
	back, err := ParseRecordFields(s, rt, nil)
	if err != nil {
		t.Fatal(err)
	}
	if back[0].I != 7 || back[1].S != vals[1].S || back[2].Num.String() != "1.50" {
		t.Fatalf("record_in(%s) = %v", s, back)
	}
	// An empty string is quoted, a NULL is nothing.
	if s := FormatRecord([]Value{NullValue, TextValue(""), NullValue}, rt.Desc().Types, nil); s != `(,"",)` {
		t.Fatalf("record_out of NULL and empty = %s", s)
	}
}

func TestSplitRecordErrors(t *testing.T) {
	for in, detail := range map[string]string{
		"1,2":       "Missing left parenthesis.",
		"(1)":       "Too few columns.",
		"(1,2,3)":   "Too many columns.",
		"(1,2) x":   "Junk after right parenthesis.",
		`(1,"2)`:    "Unexpected end of input.",
		"(1,2\\":    "Unexpected end of input.",
		"  [1,2]  ": "Missing left parenthesis.",
	} {
		_, _, err := SplitRecord(in, 2)
		if err == nil || !strings.Contains(err.Error(), "malformed record literal") {
			t.Errorf("SplitRecord(%q) = %v, want malformed record literal", in, err)
			continue
		}
		if got := err.(*pgerr.Error).Detail; got != detail {
			t.Errorf("SplitRecord(%q) detail = %q, want %q", in, got, detail)
		}
	}
	f, ok, err := SplitRecord(` ( 1 , "a""b" ,) `, 3)
	if err != nil || f[0] != " 1 " || f[1] != ` a"b ` || !ok[0] || !ok[1] || ok[2] {
		t.Fatalf("SplitRecord = %q %v %v", f, ok, err)
	}
}

func TestCompareRecord(t *testing.T) {
	rt := AnonymousRecord([]Type{Int4Type, TextType})
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"(9,b)", "(10,a)", -1}, // by field, not by text
		{"(1,)", "(1,a)", 1},    // NULL sorts last
		{"(1,)", "(1,)", 0},     // and equals NULL
		{"(2,a)", "(2,b)", -1},
	} {
		if got := Compare(Value{S: c.a}, Value{S: c.b}, rt); got != c.want {
			t.Errorf("Compare(%s, %s) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
	ov, err := RecordCompare("<", rt, AnonymousRecord([]Type{Int4Type, Int4Type}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ov.Eval(nil, []Value{{S: "(1,a)"}, {S: "(1,2)"}}); err == nil || !strings.Contains(err.Error(), "dissimilar column types text and integer at record column 2") {
		t.Fatalf("comparing dissimilar records: %v", err)
	}
	if v, err := ov.Eval(nil, []Value{{S: "(0,a)"}, {S: "(1,2)"}}); err != nil || v.I != 1 {
		t.Fatalf("(0,a) < (1,2) = %v, %v (the first field decides before the types differ)", v, err)
	}
}

func TestCastRecord(t *testing.T) {
	from := AnonymousRecord([]Type{Int4Type, Int4Type})
	to := RecordOf(RecordDesc{Name: "rt_cast", Fields: []string{"a", "b"}, Types: []Type{Int8Type, TextType}})
	v, err := CastValue(nil, Value{S: "(1,2)"}, from, to, true)
	if err != nil || v.S != "(1,2)" {
		t.Fatalf("cast = %v, %v", v, err)
	}
	short := AnonymousRecord([]Type{Int4Type})
	if _, err := CastValue(nil, Value{S: "(1)"}, short, to, true); err == nil || !strings.Contains(err.Error(), "cannot cast type record to rt_cast") {
		t.Fatalf("cast of a shorter record: %v", err)
	}
}

func TestRecordKey(t *testing.T) {
	rt := AnonymousRecord([]Type{NumericType, Float8Type, CharOf(3), TextType})
	a := RecordKey(`(1.0,-0,"a  ",x)`, rt)
	if b := RecordKey(`(1.00,0,a,x)`, rt); a != b {
		t.Fatalf("keys of equal records differ: %s, %s", a, b)
	}
	if b := RecordKey(`(1.0,-0,"a  ",)`, rt); a == b {
		t.Fatalf("a NULL field and a value share key %s", a)
	}
}
