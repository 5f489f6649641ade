package types

import "testing"

// Expected documents are PostgreSQL 15's (jsonb.sql's "fill the gaps"
// cases).
func TestJSONBAssign(t *testing.T) {
	text := func(s ...string) []Value {
		out := make([]Value, len(s))
		for i, x := range s {
			out[i] = Value{S: x}
		}
		return out
	}
	for _, c := range []struct {
		doc      string // "" is NULL
		path     []string
		intFirst bool
		val      string
		want     string // "" when it fails
	}{
		{`[0]`, []string{"5"}, true, `1`, `[0, null, null, null, null, 1]`},
		{`[0, null, null, null, null, 1]`, []string{"-4"}, true, `1`, `[0, null, 1, null, null, 1]`},
		{`[0, null, 1, null, null, 1]`, []string{"-8"}, true, `1`, ``},
		{`[]`, []string{"5"}, true, `1`, `[null, null, null, null, null, 1]`},
		{``, []string{"2"}, true, `"x"`, `[null, null, "x"]`},
		{``, []string{"a"}, false, `"x"`, `{"a": "x"}`},
		{`{}`, []string{"a", "0", "b", "0", "c"}, false, `1`, `{"a": [{"b": [{"c": 1}]}]}`},
		{`{}`, []string{"a", "2", "b", "2", "c", "2"}, false, `1`, `{"a": [null, null, {"b": [null, null, {"c": [null, null, 1]}]}]}`},
		{`{"b": 1}`, []string{"a", "0"}, false, `2`, `{"a": [2], "b": 1}`},
		{`{}`, []string{"0", "a"}, true, `1`, `{"0": {"a": 1}}`},
		{`{"a": {}}`, []string{"a", "b", "c", "2"}, false, `1`, `{"a": {"b": {"c": [null, null, 1]}}}`},
		{`{"a": 1}`, []string{"a", "b"}, false, `1`, ``},
		{`7`, []string{"0"}, true, `1`, ``},
		{`[1]`, []string{"x"}, false, `1`, ``},
	} {
		doc := NullValue
		if c.doc != "" {
			doc = Value{S: c.doc}
		}
		got, err := JSONBAssign(doc, text(c.path...), Value{S: c.val}, c.intFirst)
		switch {
		case c.want == "" && err == nil:
			t.Errorf("%s%v = %s: got %s, want an error", c.doc, c.path, c.val, got.S)
		case c.want != "" && err != nil:
			t.Errorf("%s%v = %s: %v", c.doc, c.path, c.val, err)
		case c.want != "" && got.S != c.want:
			t.Errorf("%s%v = %s: got %s, want %s", c.doc, c.path, c.val, got.S, c.want)
		}
	}
	if _, err := JSONBAssign(Value{S: `{}`}, []Value{NullValue}, Value{S: `1`}, false); err == nil {
		t.Error("a NULL subscript must fail")
	}
}
