package types

import (
	"testing"

	"github.com/joind/joind/pgerr"
)

// The answers below are PostgreSQL 15's (checked with psql against the
// oracle cluster); the regress suite json_types holds the same ground
// end to end.

func TestJSONBInputNormalizes(t *testing.T) {
	for in, want := range map[string]string{
		`{"b":1,  "a":[1, 2.50, 1e2], "a":3}`:    `{"a": 3, "b": 1}`,
		`{"aa":1,"b":2,"a":{"z":null,"y":true}}`: `{"a": {"y": true, "z": null}, "b": 2, "aa": 1}`,
		`-0`:                                     `0`,
		`-1.5e-3`:                                `-0.0015`,
		`"a\"b\\c\/d\n\u00e9\t"`:                 `"a\"b\\c/d\né\t"`,
		`"\ud83d\ude00"`:                         `"😀"`,
		`"\u0001"`:                               `"\u0001"`,
		` [ ] `:                                  `[]`,
	} {
		v, err := ParseText(in, JSONBType)
		if err != nil || v.S != want {
			t.Errorf("jsonb %q = %q, %v; want %q", in, v.S, err, want)
		}
	}
}

func TestJSONInputKeepsText(t *testing.T) {
	for _, in := range []string{`{"b":1,  "a":2}`, `"\ude00"`, `"\u0000"`, ` 1 `} {
		v, err := ParseText(in, JSONType)
		if err != nil || v.S != in {
			t.Errorf("json %q = %q, %v", in, v.S, err)
		}
	}
}

func TestJSONInputErrors(t *testing.T) {
	for _, c := range []struct {
		in, typ, code, detail, where string
	}{
		{`x`, "json", pgerr.InvalidTextRepresentation, `Token "x" is invalid.`, `JSON data, line 1: x`},
		{`{"a":}`, "json", pgerr.InvalidTextRepresentation, `Expected JSON value, but found "}".`, `JSON data, line 1: {"a":}`},
		{`[1,`, "jsonb", pgerr.InvalidTextRepresentation, `The input string ended unexpectedly.`, `JSON data, line 1: [1,`},
		{`{"a":1,}`, "json", pgerr.InvalidTextRepresentation, `Expected string, but found "}".`, `JSON data, line 1: {"a":1,}`},
		{`[1 2]`, "json", pgerr.InvalidTextRepresentation, `Expected "," or "]", but found "2".`, `JSON data, line 1: [1 2...`},
		{`01`, "json", pgerr.InvalidTextRepresentation, `Token "01" is invalid.`, `JSON data, line 1: 01`},
		{`"\x"`, "json", pgerr.InvalidTextRepresentation, `Escape sequence "\x" is invalid.`, `JSON data, line 1: "\x...`},
		{`"\u0000"`, "jsonb", codeUntranslatable, `\u0000 cannot be converted to text.`, `JSON data, line 1: "\u0000...`},
		{`"\ud83d"`, "jsonb", pgerr.InvalidTextRepresentation, `Unicode low surrogate must follow a high surrogate.`, `JSON data, line 1: "\ud83d"`},
		{"\"a\tb\"", "json", pgerr.InvalidTextRepresentation, `Character with value 0x09 must be escaped.`, `JSON data, line 1: "a...`},
		{"[1,\n2,\n}", "json", pgerr.InvalidTextRepresentation, `Expected JSON value, but found "}".`, `JSON data, line 3: }`},
	} {
		typ := JSONType
		if c.typ == "jsonb" {
			typ = JSONBType
		}
		_, err := ParseText(c.in, typ)
		e := pgerr.As(err)
		if err == nil || e.Code != c.code || e.Detail != c.detail || e.Where != c.where {
			t.Errorf("%s %q: %v (code %s, detail %q, where %q)", c.typ, c.in, err, e.Code, e.Detail, e.Where)
		}
	}
}

// jsonb's btree order: null < string < number < boolean < array < object,
// with the raw-scalar rules at the top level; every pair of the list is
// ordered as listed and hashing agrees with equality.
func TestJSONBOrder(t *testing.T) {
	ordered := []string{`[]`, `null`, `""`, `"a"`, `"b"`, `-1`, `1`, `2.5`, `false`, `true`, `[1]`,
		`[2]`, `["a", 1]`, `[1, 2]`, `[null, null, null]`, `{}`, `{"b": 1}`, `{"a": 1, "b": 1}`}
	for i, a := range ordered {
		for j, b := range ordered {
			va, _ := ParseText(a, JSONBType)
			vb, _ := ParseText(b, JSONBType)
			got := Compare(va, vb, JSONBType)
			want := cmpInt(int64(i), int64(j))
			if got != want {
				t.Errorf("compare(%s, %s) = %d, want %d", a, b, got, want)
			}
		}
	}
	one, _ := ParseText(`{"a": [1, 2.50]}`, JSONBType)
	other, _ := ParseText(`{"a": [1.0, 2.5]}`, JSONBType)
	if Compare(one, other, JSONBType) != 0 || Hash(one, JSONBType) != Hash(other, JSONBType) ||
		JSONBKey(one.S) != JSONBKey(other.S) {
		t.Errorf("%s and %s: equal values must hash and key equally", one.S, other.S)
	}
	hundred, _ := ParseText(`100`, JSONBType)
	tenth, _ := ParseText(`100.0`, JSONBType)
	if JSONBKey(hundred.S) != JSONBKey(tenth.S) {
		t.Errorf("key of 100 %q != key of 100.0 %q", JSONBKey(hundred.S), JSONBKey(tenth.S))
	}
}

func TestJSONBContainment(t *testing.T) {
	for _, c := range []struct {
		l, r string
		want bool
	}{
		{`{"a":1,"b":{"c":2}}`, `{"b":{}}`, true},
		{`[1,2,[3]]`, `[[3]]`, true},
		{`[1,2]`, `1`, true},
		{`1`, `[1]`, false},
		{`{"a":[1,2]}`, `{"a":[2,2]}`, true},
		{`{"a":1}`, `{"a":1.0}`, true},
		{`{"a":1}`, `{"a":"1"}`, false},
		{`[{"a":1,"b":2}]`, `[{"a":1}]`, true},
		{`{"a":1}`, `[]`, false},
	} {
		if got := jsonbContainsTop(jsonbTree(mustJSONB(t, c.l)), jsonbTree(mustJSONB(t, c.r))); got != c.want {
			t.Errorf("%s @> %s = %v", c.l, c.r, got)
		}
	}
}

func mustJSONB(t *testing.T, s string) string {
	v, err := ParseText(s, JSONBType)
	if err != nil {
		t.Fatal(err)
	}
	return v.S
}
