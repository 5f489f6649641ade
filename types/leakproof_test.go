package types

import (
	"os"
	"strings"
	"testing"
)

// pgLeakproof reads testdata/leakproof_pg15.tsv (PostgreSQL 15's
// proleakproof of every operator, function and cast over joind's types,
// written by testdata/genleakproof.sh): kind ("op", "fn", "cast") and
// signature key → leakproof.
func pgLeakproof(t *testing.T) map[string]bool {
	data, err := os.ReadFile("testdata/leakproof_pg15.tsv")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		f := strings.Split(line, "\t")
		if len(f) != 4 {
			t.Fatalf("bad line %q", line)
		}
		var args []string
		if f[2] != "" {
			args = strings.Split(f[2], ",")
		}
		out[f[0]+" "+sigKey(f[1], args)] = f[3] == "t"
	}
	return out
}

// TestLeakproofAsPgProc holds every built-in's Leakproof flag to PostgreSQL
// 15's proleakproof. A built-in PostgreSQL lacks (or has under another
// signature) must not be leakproof: the flag licenses evaluating it where
// PostgreSQL would not, so only PostgreSQL's word counts.
func TestLeakproofAsPgProc(t *testing.T) {
	pg := pgLeakproof(t)
	matched, leakproof := 0, 0
	for kind, tab := range map[string]map[string][]*builtin{"fn": functionTable, "op": operatorTable} {
		for _, bs := range tab {
			for _, b := range bs {
				key := sigKey(b.name, sigNames(b.args))
				want, ok := pg[kind+" "+key]
				if ok {
					matched++
				}
				if b.leakproof != want {
					t.Errorf("%s %s: leakproof %v, PostgreSQL 15 %v (known there: %v)", kind, key, b.leakproof, want, ok)
				}
				if b.leakproof {
					leakproof++
				}
			}
		}
	}
	if matched < 300 || leakproof < 100 {
		t.Errorf("only %d built-ins found in PostgreSQL's list, %d leakproof: signature keys out of step?", matched, leakproof)
	}
	for _, from := range ConcreteIDs() {
		for _, to := range ConcreteIDs() {
			got := CastLeakproof(Type{ID: from, Typmod: -1}, Type{ID: to, Typmod: -1})
			want := from == to || pg["cast "+sigKey(idSigName(from), []string{idSigName(to)})]
			if got != want {
				t.Errorf("cast %s -> %s: leakproof %v, PostgreSQL 15 %v", idSigName(from), idSigName(to), got, want)
			}
		}
	}
	if CastLeakproof(TextType, Type{ID: Varchar, Typmod: 8}) {
		t.Error("a cast to varchar(4) can fail (value too long)")
	}
	// The flag reaches the resolved overload.
	for _, c := range []struct {
		op   string
		l, r Type
		want bool
	}{{"=", Int4Type, Int4Type, true}, {"/", Int4Type, Int4Type, false}, {"<", NumericType, NumericType, false}} {
		o, err := ResolveOperator(c.op, c.l, c.r)
		if err != nil || o.Leakproof != c.want {
			t.Errorf("%v %s %v: %+v %v, want leakproof %v", c.l, c.op, c.r, o, err, c.want)
		}
	}
}
