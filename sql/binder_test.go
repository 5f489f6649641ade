package sql

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

var update = flag.Bool("update", false, "rewrite golden files")

type fakeTable struct {
	name string
	cols []storage.ColumnDef
}

func (t *fakeTable) Name() string                 { return t.name }
func (t *fakeTable) Columns() []storage.ColumnDef { return t.cols }
func (t *fakeTable) Snapshot() []arrow.Record     { return nil }
func (t *fakeTable) Stats() storage.Stats         { return storage.Stats{} }

type fakeCatalog struct {
	tables map[string]*fakeTable
	views  map[string]storage.View
}

func (c *fakeCatalog) Lookup(name string) (storage.Table, bool) {
	t, ok := c.tables[name]
	if !ok {
		return nil, false
	}
	return t, true
}
func (c *fakeCatalog) Tables() []storage.Table {
	var out []storage.Table
	for _, t := range c.tables {
		out = append(out, t)
	}
	return out
}
func (c *fakeCatalog) Create(ctx context.Context, name string, cols []storage.ColumnDef) (storage.Table, error) {
	t := &fakeTable{name, cols}
	c.tables[name] = t
	return t, nil
}
func (c *fakeCatalog) Drop(ctx context.Context, name string) error {
	delete(c.tables, name)
	return nil
}
func (c *fakeCatalog) Append(ctx context.Context, t storage.Table, batch arrow.Record) error {
	return nil
}
func (c *fakeCatalog) Truncate(ctx context.Context, tables []storage.Table) error { return nil }
func (c *fakeCatalog) Delete(ctx context.Context, t storage.Table, ids []storage.RowID) error {
	return nil
}
func (c *fakeCatalog) LookupView(name string) (storage.View, bool) {
	v, ok := c.views[name]
	return v, ok
}
func (c *fakeCatalog) Views() []storage.View {
	var out []storage.View
	for _, v := range c.views {
		out = append(out, v)
	}
	return out
}
func (c *fakeCatalog) CreateView(ctx context.Context, v storage.View, replace bool) error {
	c.views[v.Name] = v
	return nil
}
func (c *fakeCatalog) DropView(ctx context.Context, name string) error {
	delete(c.views, name)
	return nil
}

// testCatalog mirrors the tables created in the scratch PostgreSQL used to
// obtain the expected errors:
//
//	create table t(a int not null, b text, c numeric);
//	create table u(a int, d text);
//	create table w(x int default 7, y varchar(5), z date);
//
// and one view:
//
//	create view tv as select a, b from t where a > 0;
func testCatalog() *fakeCatalog {
	return &fakeCatalog{views: map[string]storage.View{
		"tv": {Name: "tv", SQL: "SELECT a, b FROM t WHERE a > 0", Columns: []string{"a", "b"}, Deps: []string{"t"}},
	}, tables: map[string]*fakeTable{
		"t": {"t", []storage.ColumnDef{
			{Name: "a", Type: types.Int4Type, NotNull: true},
			{Name: "b", Type: types.TextType},
			{Name: "c", Type: types.NumericType},
		}},
		"u": {"u", []storage.ColumnDef{
			{Name: "a", Type: types.Int4Type},
			{Name: "d", Type: types.TextType},
		}},
		"w": {"w", []storage.ColumnDef{
			{Name: "x", Type: types.Int4Type, Default: "7"},
			{Name: "y", Type: types.VarcharOf(5)},
			{Name: "z", Type: types.DateType},
		}},
	}}
}

// describe renders the outcome of parsing and binding one query string.
func describe(query string) string {
	raws, err := Parse(query)
	if err != nil {
		return formatErr(err)
	}
	var sb strings.Builder
	for _, raw := range raws {
		opts := &BindOptions{}
		st, err := bindNoPanic(raw, opts)
		if err != nil {
			sb.WriteString(formatErr(err))
			continue
		}
		sb.WriteString(describeStmt(st))
		if len(opts.ParamTypes) > 0 {
			var ps []string
			for _, p := range opts.ParamTypes {
				ps = append(ps, plan.FormatType(p))
			}
			fmt.Fprintf(&sb, "params: %s\n", strings.Join(ps, ", "))
		}
	}
	return sb.String()
}

// bindNoPanic reports a panic (from code under concurrent development in
// other packages) as an error so one case cannot hide the others.
func bindNoPanic(raw *RawStatement, opts *BindOptions) (st Statement, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("PANIC: %v", r)
		}
	}()
	return Bind(raw, testCatalog(), opts)
}

func describeStmt(st Statement) string {
	switch x := st.(type) {
	case *Query:
		return fmt.Sprintf("Query %s\n%s", strings.Join(x.Names, ","), plan.Format(x.Plan))
	case *CreateTable:
		var cols []string
		for _, c := range x.Columns {
			s := c.Name + " " + plan.FormatType(c.Type)
			if c.NotNull {
				s += " NOT NULL"
			}
			if c.Default != "" {
				s += " DEFAULT " + c.Default
			}
			cols = append(cols, s)
		}
		return fmt.Sprintf("CreateTable %s ifnotexists=%v (%s)\n", x.Name, x.IfNotExists, strings.Join(cols, ", "))
	case *CreateTableAs:
		var cols []string
		for _, c := range x.Columns {
			cols = append(cols, c.Name+" "+plan.FormatType(c.Type))
		}
		return fmt.Sprintf("CreateTableAs %s nodata=%v (%s)\n%s", x.Name, x.WithNoData, strings.Join(cols, ", "), plan.Format(x.Query.Plan))
	case *Insert:
		return fmt.Sprintf("Insert %s\n%s", x.Table.Name(), plan.Format(x.Source.Plan))
	case *Explain:
		return fmt.Sprintf("Explain analyze=%v verbose=%v costs=%v\n%s", x.Analyze, x.Verbose, x.Costs, plan.Format(x.Query.Plan))
	case *Truncate:
		var names []string
		for _, t := range x.Tables {
			names = append(names, t.Name())
		}
		return fmt.Sprintf("Truncate %s\n", strings.Join(names, ","))
	}
	return fmt.Sprintf("%T %+v\n", st, st)
}

func formatErr(err error) string {
	e := pgerr.As(err)
	s := fmt.Sprintf("ERROR %s: %s", e.Code, e.Message)
	if e.Position > 0 {
		s += fmt.Sprintf(" (pos %d)", e.Position)
	}
	s += "\n"
	if e.Detail != "" {
		s += "DETAIL: " + e.Detail + "\n"
	}
	if e.Hint != "" {
		s += "HINT: " + e.Hint + "\n"
	}
	return s
}

// runGolden runs every case of a golden file: cases are separated by lines
// "----" (query above, expected output below) and blank-line "===" markers.
func runGolden(t *testing.T, file string) {
	path := filepath.Join("testdata", file)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	cases := strings.Split(string(data), "\n====\n")
	var out strings.Builder
	for i, c := range cases {
		c = strings.TrimSpace(c)
		if c == "" {
			continue
		}
		query, want, _ := strings.Cut(c, "\n----\n")
		if !strings.Contains(c, "\n----\n") {
			query = strings.TrimSuffix(c, "\n----")
			want = ""
		}
		got := describe(query)
		if i > 0 {
			out.WriteString("\n====\n")
		}
		out.WriteString(query + "\n----\n" + got)
		if !*update && strings.TrimSpace(got) != strings.TrimSpace(want) {
			t.Errorf("%s:\n%s\n--- got:\n%s--- want:\n%s", file, query, got, want)
		}
	}
	if *update {
		if err := os.WriteFile(path, []byte(out.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestBindGolden(t *testing.T)         { runGolden(t, "bind.txt") }
func TestErrorsGolden(t *testing.T)       { runGolden(t, "errors.txt") }
func TestErrors2Golden(t *testing.T)      { runGolden(t, "errors2.txt") }
func TestLateralViewsGolden(t *testing.T) { runGolden(t, "lateral_views.txt") }
