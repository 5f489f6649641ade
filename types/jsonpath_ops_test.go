package types

import "testing"

// setPath's op_type cases, with PostgreSQL 15's answers (jsonb_set,
// jsonb_insert, #- on the same documents).
func TestSetPath(t *testing.T) {
	for _, c := range []struct {
		doc, newval string
		path        []string
		op          jsonbPathOp
		want        string
	}{
		{`{"a": [1, 2, 3]}`, `"x"`, []string{"a", "1"}, pathCreate, `{"a": [1, "x", 3]}`},
		{`{"a": [1, 2, 3]}`, `"x"`, []string{"a", "9"}, pathCreate, `{"a": [1, 2, 3, "x"]}`},
		{`{"a": [1, 2, 3]}`, `"x"`, []string{"a", "-9"}, pathCreate, `{"a": ["x", 1, 2, 3]}`},
		{`{"a": [1, 2, 3]}`, `"x"`, []string{"b"}, pathReplace, `{"a": [1, 2, 3]}`},
		{`{"a": [1, 2, 3]}`, `"x"`, []string{"b"}, pathCreate, `{"a": [1, 2, 3], "b": "x"}`},
		{`{"a": 1}`, `2`, []string{"a", "b"}, pathCreate, `{"a": 1}`},
		{`{"a": [0, 1, 2]}`, `"new"`, []string{"a", "1"}, pathInsertBefore, `{"a": [0, "new", 1, 2]}`},
		{`{"a": [0, 1, 2]}`, `"new"`, []string{"a", "1"}, pathInsertAfter, `{"a": [0, 1, "new", 2]}`},
		{`{"a": [0, 1, 2]}`, `"new"`, []string{"a", "-1"}, pathInsertAfter, `{"a": [0, 1, 2, "new"]}`},
		{`[]`, `1`, []string{"5"}, pathInsertBefore, `[1]`},
		{`{"a": {"b": [1, 2, 3]}}`, ``, []string{"a", "b", "-1"}, pathDelete, `{"a": {"b": [1, 2]}}`},
	} {
		var nv *jsonValue
		if c.newval != "" {
			nv = jsonbTree(c.newval)
		}
		got, err := setPath(jsonbTree(c.doc), c.path, make([]bool, len(c.path)), 0, nv, c.op)
		if err != nil {
			t.Errorf("%s %v: %v", c.doc, c.path, err)
			continue
		}
		if s := jsonbText(got); s != c.want {
			t.Errorf("%s %v op %d: got %s, want %s", c.doc, c.path, c.op, s, c.want)
		}
	}
}

// pathIndex reads an array subscript as strtoint does: leading white
// space and a sign, nothing after the digits, int4 range.
func TestPathIndex(t *testing.T) {
	for s, want := range map[string]bool{" 1": true, "+1": true, "-2": true, "1 ": false, "": false, "2147483648": false, "x": false} {
		if _, ok := pathIndex(s); ok != want {
			t.Errorf("pathIndex(%q) ok = %v, want %v", s, ok, want)
		}
	}
}
