package types

import (
	"testing"

	"github.com/cockroachdb/apd/v3"
	"github.com/joind/joind/pgerr"
)

func TestFromTypeNameAndSQLName(t *testing.T) {
	cases := []struct {
		names   []string
		typmods []int32
		want    string // SQLName
		base    string // BaseSQLName
	}{
		{[]string{"pg_catalog", "int4"}, nil, "integer", "integer"},
		{[]string{"int"}, nil, "integer", "integer"},
		{[]string{"varchar"}, []int32{10}, "character varying(10)", "character varying"},
		{[]string{"numeric"}, []int32{10, 2}, "numeric(10,2)", "numeric"},
		{[]string{"numeric"}, []int32{10}, "numeric(10,0)", "numeric"},
		{[]string{"pg_catalog", "bpchar"}, []int32{5}, "character(5)", "character"},
		{[]string{"pg_catalog", "bpchar"}, nil, "bpchar", "character"},
		{[]string{"pg_catalog", "timestamp"}, nil, "timestamp without time zone", "timestamp without time zone"},
		{[]string{"pg_catalog", "timestamp"}, []int32{3}, "timestamp(3) without time zone", "timestamp without time zone"},
		{[]string{"pg_catalog", "float8"}, nil, "double precision", "double precision"},
		{[]string{"pg_catalog", "float4"}, nil, "real", "real"},
		{[]string{"character varying"}, nil, "character varying", "character varying"},
		{[]string{"date"}, nil, "date", "date"},
		{[]string{"interval"}, nil, "interval", "interval"},
		{[]string{"bool"}, nil, "boolean", "boolean"},
		{[]string{"text"}, nil, "text", "text"},
		{[]string{"pg_catalog", "int2"}, nil, "smallint", "smallint"},
		{[]string{"int8"}, nil, "bigint", "bigint"},
	}
	for _, c := range cases {
		typ, err := FromTypeName(c.names, c.typmods, 0)
		if err != nil {
			t.Fatalf("%v: %v", c.names, err)
		}
		if typ.SQLName() != c.want || typ.BaseSQLName() != c.base {
			t.Errorf("%v %v: got %q/%q want %q/%q", c.names, c.typmods, typ.SQLName(), typ.BaseSQLName(), c.want, c.base)
		}
	}
	_, err := FromTypeName([]string{"foo"}, nil, 0)
	if pe := pgerr.As(err); pe.Code != pgerr.UndefinedObject || pe.Message != `type "foo" does not exist` {
		t.Errorf("unknown type: %v", err)
	}
	_, err = FromTypeName([]string{"varchar"}, []int32{0}, 0)
	if pe := pgerr.As(err); pe.Message != "length for type varchar must be at least 1" {
		t.Errorf("varchar(0): %v", err)
	}
	if p, s, ok := NumericPrecScale(NumericTypmod(3, -1)); !ok || p != 3 || s != -1 {
		t.Errorf("negative scale typmod round trip: %d %d", p, s)
	}
}

func TestCanCast(t *testing.T) {
	cases := []struct {
		from, to      Type
		imp, asg, exp bool
	}{
		{Int4Type, Int8Type, true, true, true},
		{Int8Type, Int4Type, false, true, true},
		{Float8Type, NumericType, false, true, true},
		{NumericType, Float8Type, true, true, true},
		{Int4Type, TextType, false, true, true},
		{TextType, Int4Type, false, false, true},
		{BoolType, Int4Type, false, false, true},
		{Int8Type, BoolType, false, false, false},
		{DateType, TimestampType, true, true, true},
		{TimestampType, DateType, false, true, true},
		{VarcharType, TextType, true, true, true},
		{CharType, VarcharType, true, true, true},
		{IntervalType, DateType, false, false, false},
	}
	for _, c := range cases {
		i, a, e := CanCast(c.from, c.to)
		if i != c.imp || a != c.asg || e != c.exp {
			t.Errorf("%s -> %s: got %v %v %v", c.from.SQLName(), c.to.SQLName(), i, a, e)
		}
	}
}

func TestHashConsistency(t *testing.T) {
	a, _, _ := apd.NewFromString("1.0")
	b, _, _ := apd.NewFromString("1.00")
	if Hash(Value{Num: a}, NumericType) != Hash(Value{Num: b}, NumericType) {
		t.Error("1.0 and 1.00 hash differently")
	}
	if Hash(Value{S: "ab  "}, CharOf(4)) != Hash(Value{S: "ab"}, CharOf(4)) {
		t.Error("char(n) trailing blanks change the hash")
	}
	negZero := Value{F: 0}
	negZero.F = -negZero.F
	if Hash(negZero, Float8Type) != Hash(Value{F: 0}, Float8Type) {
		t.Error("-0 and 0 hash differently")
	}
	if Hash(Value{Iv: IntervalValue{Months: 1}}, IntervalType) != Hash(Value{Iv: IntervalValue{Days: 30}}, IntervalType) {
		t.Error("1 mon and 30 days hash differently")
	}
}

func TestLikeEscape(t *testing.T) {
	cases := []struct {
		pat, esc, s string
		want        bool
	}{
		{"a#%c", "#", "a%c", true},
		{"a#%c", "#", "abc", false},
		{`a\b%`, "", `a\bxyz`, true},
		{"100!%", "!", "100%", true},
	}
	for _, c := range cases {
		p, err := LikeEscape(c.pat, c.esc)
		if err != nil {
			t.Fatal(err)
		}
		got, err := likeMatch(c.s, p, false)
		if err != nil || got != c.want {
			t.Errorf("%q ESCAPE %q on %q: got %v (%v) via %q", c.pat, c.esc, c.s, got, err, p)
		}
	}
}

// A pattern ending with the escape character fails only when the text is
// not exhausted before the escape is reached, as PostgreSQL's MatchText.
func TestLikeTrailingEscape(t *testing.T) {
	for _, c := range []struct {
		s, p    string
		wantErr bool
	}{
		{"a", `a\`, false}, {"", `\`, false}, {"ab", `a\`, true}, {"a", `%a\`, false},
		{"a", `%\`, true}, {"", `%\`, false}, {"ab", `_\`, true}, {"a", `_\`, false},
	} {
		m, err := likeMatch(c.s, c.p, false)
		if (err != nil) != c.wantErr || m {
			t.Errorf("%q LIKE %q: got %v, %v; want error %v", c.s, c.p, m, err, c.wantErr)
		}
	}
}

func TestResolveShapes(t *testing.T) {
	ov, err := ResolveOperator("+", Int4Type, Float8Type)
	if err != nil || ov.Args[0].ID != Float8 || ov.Result.ID != Float8 {
		t.Fatalf("int4 + float8: %+v %v", ov, err)
	}
	ov, err = ResolveOperator("-", NoArgType, NumericType)
	if err != nil || len(ov.Args) != 1 {
		t.Fatalf("prefix minus: %+v %v", ov, err)
	}
	ov, err = ResolveFunction("concat", []Type{UnknownType, Int4Type, DateType})
	if err != nil || len(ov.Args) != 3 || ov.Strict {
		t.Fatalf("concat: %+v %v", ov, err)
	}
	ag, err := ResolveAggregate("count", nil, true)
	if err != nil || ag.Result.ID != Int8 {
		t.Fatalf("count(*): %+v %v", ag, err)
	}
	ov, err = ResolveOperator("=", VarcharType, VarcharType)
	if err != nil || ov.Args[0].ID != Text {
		t.Fatalf("varchar = varchar should resolve to text = text: %+v %v", ov, err)
	}
}
