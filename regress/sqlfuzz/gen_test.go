package sqlfuzz

import (
	"math/rand"
	"strings"
	"testing"
	"time"

	"github.com/joind/joind/types"
)

// genQueries is the SQL of n queries (and metamorphic cases) generated
// from seed, as Run generates them.
func genQueries(seed int64, n int) []string {
	k := DefaultKnobs()
	k.AvoidNumericTranscendental = true
	cat := newCatalog(&k)
	r := rand.New(rand.NewSource(seed))
	sch := genSchema(r, &k, defaultPrefix)
	g := &gen{r: r, cat: cat, k: k, s: sch}
	out := sch.setup()
	for i := 0; i < n; i++ {
		out = append(out, g.query().sel.SQL())
		if r.Intn(100) < 25 {
			w, p := g.metaCase().queries()
			out = append(out, w, p)
		}
	}
	return out
}

func TestGenerationIsSeeded(t *testing.T) {
	a, b := genQueries(7, 300), genQueries(7, 300)
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("seed 7 generated differently at %d:\n%s\n%s", i, a[i], b[i])
		}
	}
	if c := genQueries(8, 300); strings.Join(c, ";") == strings.Join(a, ";") {
		t.Fatal("seeds 7 and 8 generated the same queries")
	}
}

// TestCatalogCoverage: every catalog overload of a generated result type
// is reachable, and the knobs only remove what they name.
func TestCatalogCoverage(t *testing.T) {
	k := DefaultKnobs()
	k.AvoidNumericTranscendental = true
	cat := newCatalog(&k)
	n := 0
	for _, sigs := range cat.funcs {
		n += len(sigs)
	}
	if n < 80 {
		t.Fatalf("only %d functions in the generator's catalog", n)
	}
	for _, s := range cat.funcs[types.Numeric] {
		if s.Name == "sqrt" {
			t.Error("AvoidNumericTranscendental left numeric sqrt in")
		}
	}
	none := Knobs{}
	all := newCatalog(&none)
	found := false
	for _, s := range all.funcs[types.Numeric] {
		found = found || s.Name == "sqrt"
	}
	if !found {
		t.Error("numeric sqrt is missing with every knob off")
	}
	if len(cat.aggs[types.Int4]) == 0 || len(cat.casts[types.Date]) == 0 {
		t.Error("no aggregates or casts in the catalog")
	}
}

// TestRenderedShapes: the renderer spells keyword-syntax functions and
// comma joins as PostgreSQL's grammar wants them.
func TestRenderedShapes(t *testing.T) {
	pos := &Node{K: kFunc, T: types.Int4, Text: "position", Args: []*Node{{K: kLit, Text: "'abc'"}, {K: kLit, Text: "'b'"}}}
	if got := pos.SQL(); got != "position('b' IN 'abc')" {
		t.Errorf("position renders as %s", got)
	}
	f := &From{Join: "INNER JOIN", L: &From{Join: ",", L: &From{Table: "x", Alias: "a"}, R: &From{Table: "y", Alias: "b"}},
		R: &From{Table: "z", Alias: "c"}, On: &Node{K: kLit, Text: "true"}}
	var sb strings.Builder
	f.render(&sb)
	if got := sb.String(); got != "x AS a CROSS JOIN y AS b INNER JOIN z AS c ON true" {
		t.Errorf("join renders as %s", got)
	}
	row := &Node{K: kRowCmp, T: types.Bool, Text: "IS DISTINCT FROM", Args: []*Node{{K: kLit, Text: "1"}, {K: kCol, Text: "a.x"}, {K: kLit, Text: "2"}, {K: kLit, Text: "NULL"}}}
	if got := row.SQL(); got != "(ROW(1, a.x) IS DISTINCT FROM ROW(2, NULL))" {
		t.Errorf("row comparison renders as %s", got)
	}
	n := 0
	for _, q := range genQueries(1, 300) {
		n += strings.Count(q, "ROW(")
	}
	if n == 0 {
		t.Errorf("300 generated queries hold no row comparison")
	}
}

// TestNormalize: values equal in PostgreSQL but printed differently map
// to one text; others stay apart.
func TestNormalize(t *testing.T) {
	eq := [][3]any{
		{"1.50", "1.5", types.OIDNumeric}, {"-0", "0", types.OIDFloat8}, {"1 mon", "30 days", types.OIDInterval},
		{"1 day", "24:00:00", types.OIDInterval}, {"a  ", "a", types.OIDBpchar}, {"2.000", "2", types.OIDNumeric},
	}
	for _, c := range eq {
		if normalizeText(c[0].(string), c[2].(uint32)) != normalizeText(c[1].(string), c[2].(uint32)) {
			t.Errorf("%v and %v should normalize alike", c[0], c[1])
		}
	}
	ne := [][3]any{{"1.5", "15", types.OIDNumeric}, {"100", "1", types.OIDNumeric}, {"1 mon", "31 days", types.OIDInterval}, {"a", "A", types.OIDText}}
	for _, c := range ne {
		if normalizeText(c[0].(string), c[2].(uint32)) == normalizeText(c[1].(string), c[2].(uint32)) {
			t.Errorf("%v and %v should stay apart", c[0], c[1])
		}
	}
}

// TestShrinkKeepsFailure: shrinking a query against a fake failure
// predicate reaches the minimal form that still fails.
func TestShrinkKeepsFailure(t *testing.T) {
	k := DefaultKnobs()
	r := rand.New(rand.NewSource(3))
	sch := genSchema(r, &k, defaultPrefix)
	g := &gen{r: r, cat: newCatalog(&k), k: k, s: sch}
	for i := 0; i < 50; i++ {
		q := g.query().sel
		if !strings.Contains(q.SQL(), " AS c0") {
			continue
		}
		fails := func(s *Select) bool {
			return strings.Contains(s.SQL(), "SELECT") && strings.Contains(s.SQL(), " AS c0")
		}
		min := shrinkSelect(q, fails, timeNowPlus())
		if !fails(min) {
			t.Fatalf("shrunk to a query that passes: %s", min.SQL())
		}
		if len(min.SQL()) > len(q.SQL()) {
			t.Fatalf("shrinking grew the query:\n%s\n%s", q.SQL(), min.SQL())
		}
	}
}

func timeNowPlus() time.Time { return time.Now().Add(10 * time.Second) }

// TestGroupingSetShapes: generated queries group by ROLLUP, CUBE and
// GROUPING SETS, also after a plain key.
func TestGroupingSetShapes(t *testing.T) {
	all := strings.Join(genQueries(11, 3000), "\n")
	for _, shape := range []string{"GROUP BY ROLLUP (", "GROUP BY CUBE (", "GROUP BY GROUPING SETS (", ", ())", ", ROLLUP (", ", CUBE ("} {
		if !strings.Contains(all, shape) {
			t.Errorf("no generated query has %q", shape)
		}
	}
}

// TestArraysGenerated: array literals, ARRAY[...] and array functions and
// operators (polymorphic ones instanced at int4 and text) appear in the
// generated queries.
func TestArraysGenerated(t *testing.T) {
	all := strings.Join(genQueries(7, 2000), "\n")
	for _, want := range []string{"::int4[]", "::text[]", "ARRAY[", "array_length(", " @> "} {
		if !strings.Contains(all, want) {
			t.Errorf("2000 generated queries never contain %q", want)
		}
	}
}

// TestArrayColumnsGenerated: generated schemas have int4[] and text[]
// columns, filled from the array pools.
func TestArrayColumnsGenerated(t *testing.T) {
	var ddl []string
	for seed := int64(0); seed < 60; seed++ {
		for _, tb := range genSchema(rand.New(rand.NewSource(seed)), &Knobs{}, "t").tables {
			ddl = append(ddl, tb.ddl())
		}
	}
	all := strings.Join(ddl, "\n")
	for _, want := range []string{" int4[]", " text[]"} {
		if !strings.Contains(all, want) {
			t.Errorf("60 generated schemas have no %q column", want)
		}
	}
}
