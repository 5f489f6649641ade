package optimizer

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/")

// Golden files of the logical rewrites, one per rule: testdata/rules/<name>.txt
// holds cases "SQL ---- before/after", the SQL bound by the real binder over
// ruleCatalog and rewritten by that rule alone, to a fixpoint. `go test
// ./optimizer -run Rules -update` rewrites them; read the diff.

// rulePasses are the rewrites with a golden file each: every DefaultRules
// rule applied alone to a fixpoint, and the passes Plan runs once.
func rulePasses() map[string]func(*Context, plan.Node) (plan.Node, error) {
	m := map[string]func(*Context, plan.Node) (plan.Node, error){
		"derive-or-restrictions": func(_ *Context, n plan.Node) (plan.Node, error) { return DeriveOrRestrictions(n), nil },
		"reorder-joins":          func(_ *Context, n plan.Node) (plan.Node, error) { return ReorderJoins(n), nil },
		"prune-columns":          func(_ *Context, n plan.Node) (plan.Node, error) { return PruneColumns(n), nil },
		"attach-skips":           func(_ *Context, n plan.Node) (plan.Node, error) { return AttachSkips(n), nil },
		"reduce-grouped-joins":   func(c *Context, n plan.Node) (plan.Node, error) { return ReduceGroupedJoins(c, n), nil },
		// PlanTimeError rewrites nothing: its "after" is the error, if any.
		"plan-time-error": func(c *Context, n plan.Node) (plan.Node, error) { return n, PlanTimeError(c.Eval, n) },
	}
	for _, r := range DefaultRules {
		rules := []Rule{r}
		m[r.Name] = func(c *Context, n plan.Node) (plan.Node, error) {
			out := Rewrite(c, n, rules)
			if _, changed := rewriteOnce(c, out, rules); changed {
				return out, fmt.Errorf("rule %s did not reach a fixpoint in %d passes", r.Name, maxPasses)
			}
			return out, nil
		}
	}
	return m
}

// ruleCatalog: tables of known sizes and distinct counts (join ordering
// reads them), as in PostgreSQL:
//
//	create table t(a int not null, b text, c numeric);        -- 1000 rows
//	create table u(a int, d text);                             -- 100 rows
//	create table w(x int not null, y varchar(5), z date);     -- 10 rows
//	create table big(k int not null, v int);                   -- 100000 rows
type ruleCatalog struct{ tables map[string]*fakeTable }

func newRuleCatalog() *ruleCatalog {
	col := func(name string, t types.Type, notNull bool) storage.ColumnDef {
		return storage.ColumnDef{Name: name, Type: t, NotNull: notNull}
	}
	c := &ruleCatalog{tables: map[string]*fakeTable{}}
	for _, t := range []*fakeTable{
		{name: "t", rows: 1000, distinct: []int64{1000, 50, 900},
			cols: []storage.ColumnDef{col("a", types.Int4Type, true), col("b", types.TextType, false), col("c", types.NumericType, false)}},
		{name: "u", rows: 100, distinct: []int64{100, 20},
			cols: []storage.ColumnDef{col("a", types.Int4Type, false), col("d", types.TextType, false)}},
		{name: "w", rows: 10, distinct: []int64{10, 10, 10},
			cols: []storage.ColumnDef{col("x", types.Int4Type, true), col("y", types.VarcharOf(5), false), col("z", types.DateType, false)}},
		{name: "big", rows: 100000, distinct: []int64{100000, 1000},
			cols: []storage.ColumnDef{col("k", types.Int4Type, true), col("v", types.Int4Type, false)}},
	} {
		c.tables[t.name] = t
	}
	return c
}

var errReadOnly = errors.New("rule tests: read-only catalog")

func (c *ruleCatalog) Lookup(name string) (storage.Table, bool) {
	t, ok := c.tables[name]
	return t, ok
}
func (c *ruleCatalog) Tables() []storage.Table {
	var out []storage.Table
	for _, t := range c.tables {
		out = append(out, t)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name() < out[j].Name() })
	return out
}
func (c *ruleCatalog) Create(context.Context, string, []storage.ColumnDef) (storage.Table, error) {
	return nil, errReadOnly
}
func (c *ruleCatalog) Drop(context.Context, string) error                        { return errReadOnly }
func (c *ruleCatalog) Append(context.Context, storage.Table, arrow.Record) error { return errReadOnly }
func (c *ruleCatalog) Truncate(context.Context, []storage.Table) error           { return errReadOnly }
func (c *ruleCatalog) Delete(context.Context, storage.Table, []storage.RowID) error {
	return errReadOnly
}
func (c *ruleCatalog) LookupView(string) (storage.View, bool)               { return storage.View{}, false }
func (c *ruleCatalog) Views() []storage.View                                { return nil }
func (c *ruleCatalog) CreateView(context.Context, storage.View, bool) error { return errReadOnly }
func (c *ruleCatalog) DropView(context.Context, string) error               { return errReadOnly }

// describeRule binds query and shows its plan before and after pass.
func describeRule(t *testing.T, query string, pass func(*Context, plan.Node) (plan.Node, error)) string {
	raws, err := sql.Parse(query)
	if err != nil {
		return errText(err)
	}
	if len(raws) != 1 {
		t.Fatalf("%q: want one statement, got %d", query, len(raws))
	}
	st, err := sql.Bind(raws[0], newRuleCatalog(), &sql.BindOptions{})
	if err != nil {
		return errText(err)
	}
	q, ok := st.(*sql.Query)
	if !ok {
		t.Fatalf("%q: not a query but %T", query, st)
	}
	c := &Context{Eval: &types.EvalContext{}, IDs: q.IDs}
	in, err := prepare(c, query, q.Plan)
	if err != nil {
		t.Fatalf("%q: %v", query, err)
	}
	before := plan.Format(in)
	out, err := pass(c, in)
	if plan.Format(in) != before {
		t.Errorf("%q: the rewrite changed its input plan in place", query)
	}
	if err == nil && !sameColumns(out.Columns(), in.Columns()) {
		t.Errorf("%q: the rewrite changed the output columns", query)
	}
	var sb strings.Builder
	sb.WriteString("before:\n" + before)
	switch after := plan.Format(out); {
	case err != nil:
		sb.WriteString("after: " + errText(err))
	case after == before:
		sb.WriteString("after: unchanged\n")
	default:
		sb.WriteString("after:\n" + after)
	}
	return sb.String()
}

// prepare applies the rewrites a case names in a comment line
// "-- prepare: rule, rule" (each to a fixpoint; "default" is all of
// DefaultRules, as Plan runs them), so a rule can be shown on the shapes
// other rules produce for it.
func prepare(c *Context, query string, n plan.Node) (plan.Node, error) {
	var names []string
	for _, line := range strings.Split(query, "\n") {
		if list, ok := strings.CutPrefix(line, "-- prepare:"); ok {
			names = append(names, strings.Split(list, ",")...)
		}
	}
	for _, name := range names {
		name = strings.TrimSpace(name)
		if name == "default" {
			n = Rewrite(c, n, DefaultRules)
			continue
		}
		r, ok := ruleNamed(name)
		if !ok {
			return nil, fmt.Errorf("prepare: no rule %q", name)
		}
		n = Rewrite(c, n, []Rule{r})
	}
	return n, nil
}

func ruleNamed(name string) (Rule, bool) {
	for _, r := range DefaultRules {
		if r.Name == name {
			return r, true
		}
	}
	return Rule{}, false
}

func sameColumns(a, b []plan.Column) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].ID != b[i].ID || a[i].Name != b[i].Name || a[i].Type != b[i].Type {
			return false
		}
	}
	return true
}

func errText(err error) string {
	if e, ok := err.(*pgerr.Error); ok {
		return fmt.Sprintf("ERROR %s: %s\n", e.Code, e.Message)
	}
	return "ERROR " + err.Error() + "\n"
}

// TestRules checks every golden file of testdata/rules, and that each
// rule has one (a new rule comes with its cases).
func TestRules(t *testing.T) {
	passes := rulePasses()
	files, err := filepath.Glob(filepath.Join("testdata", "rules", "*.txt"))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, path := range files {
		name := strings.TrimSuffix(filepath.Base(path), ".txt")
		pass, ok := passes[name]
		if !ok {
			t.Errorf("%s: no rule or pass named %q", path, name)
			continue
		}
		seen[name] = true
		t.Run(name, func(t *testing.T) { runRuleGolden(t, path, pass) })
	}
	for name := range passes {
		if !seen[name] {
			t.Errorf("rule %s has no golden file testdata/rules/%s.txt", name, name)
		}
	}
}

// runRuleGolden runs the cases of one file: separated by lines "====", each
// is SQL, a line "----", and the expected output.
func runRuleGolden(t *testing.T, path string, pass func(*Context, plan.Node) (plan.Node, error)) {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	n := 0
	for _, c := range strings.Split(string(data), "\n====\n") {
		c = strings.TrimSpace(c)
		if c == "" {
			continue
		}
		query, want, _ := strings.Cut(c+"\n", "\n----\n")
		query = strings.TrimSpace(query)
		got := describeRule(t, query, pass)
		n++
		out = append(out, query+"\n----\n"+got)
		if !*update && strings.TrimSpace(got) != strings.TrimSpace(want) {
			t.Errorf("%s:\n%s\n--- got:\n%s--- want:\n%s\n", path, query, got, want)
		}
	}
	if n == 0 {
		t.Errorf("%s: no cases", path)
	}
	if *update {
		if err := os.WriteFile(path, []byte(strings.Join(out, "\n====\n")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
