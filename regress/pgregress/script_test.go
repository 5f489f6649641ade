package pgregress

import (
	"reflect"
	"testing"
)

func TestScriptSplitsLikePsql(t *testing.T) {
	src := `-- comment; not a statement
SELECT 1; SELECT 'a;b', "c;d"
  FROM t;
\set x 42
\set q 'it''s' :x
SELECT :x, :'q', :"q";
CREATE FUNCTION f() RETURNS int AS $$ SELECT 1; $$ LANGUAGE sql;
CREATE FUNCTION g() RETURNS int LANGUAGE sql BEGIN ATOMIC SELECT 1; SELECT 2; END;
SELECT /* a; /* nested; */ b; */ 2;
SELECT E'x\';y';
SELECT 3::int, a::text FROM t
\gset p_
\d t
COPY t FROM stdin;
1	a
2	b
\.
\getenv dir MY_DIR
SELECT :'dir', :unset, ':x';
SELECT (1;
 2);
`
	s := NewScript(src, map[string]string{"MY_DIR": "/data"})
	var got []string
	var gsets []string
	var copies []string
	for {
		st, ok := s.Next()
		if !ok {
			break
		}
		got = append(got, st.SQL)
		if st.Gset != nil {
			gsets = append(gsets, *st.Gset)
		}
		if st.CopyData != nil {
			copies = append(copies, *st.CopyData)
		}
	}
	want := []string{
		"-- comment; not a statement\nSELECT 1",
		"SELECT 'a;b', \"c;d\"\n  FROM t",
		`SELECT 42, 'it''s42', "it's42"`,
		"CREATE FUNCTION f() RETURNS int AS $$ SELECT 1; $$ LANGUAGE sql",
		"CREATE FUNCTION g() RETURNS int LANGUAGE sql BEGIN ATOMIC SELECT 1; SELECT 2; END",
		"SELECT /* a; /* nested; */ b; */ 2",
		`SELECT E'x\';y'`,
		"SELECT 3::int, a::text FROM t",
		"COPY t FROM stdin",
		"SELECT '/data', :unset, ':x'",
		"SELECT (1;\n 2)",
	}
	if !reflect.DeepEqual(got, want) {
		for i := range max(len(got), len(want)) {
			var g, w string
			if i < len(got) {
				g = got[i]
			}
			if i < len(want) {
				w = want[i]
			}
			if g != w {
				t.Errorf("statement %d:\n got  %q\n want %q", i, g, w)
			}
		}
	}
	if !reflect.DeepEqual(gsets, []string{"p_"}) {
		t.Errorf("gsets %q", gsets)
	}
	if !reflect.DeepEqual(copies, []string{"1\ta\n2\tb\n"}) {
		t.Errorf("copy data %q", copies)
	}
	if s.Skipped != 1 {
		t.Errorf("skipped %d meta-commands, want 1 (\\d)", s.Skipped)
	}
}
