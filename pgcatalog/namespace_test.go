package pgcatalog

import (
	"reflect"
	"testing"

	"github.com/joind/joind/storage"
)

func TestSplitIdentList(t *testing.T) {
	for in, want := range map[string][]string{
		`"$user", public`:         {"$user", "public"},
		` `:                       nil,
		``:                        nil,
		`A, "B c",d`:              {"a", "B c", "d"},
		`"x""y" , Z`:              {`x"y`, "z"},
		`pg_temp,pg_catalog, s1 `: {"pg_temp", "pg_catalog", "s1"},
	} {
		if got := SplitIdentList(in); !reflect.DeepEqual(got, want) {
			t.Errorf("SplitIdentList(%q) = %q, want %q", in, got, want)
		}
	}
}

func names(ns []Namespace) []string {
	var out []string
	for _, n := range ns {
		out = append(out, n.Name)
	}
	return out
}

func TestSearchPath(t *testing.T) {
	s := NewSnapshot(storage.NewMemoryCatalog(), Env{User: "alice"})
	for _, c := range []struct {
		setting          string
		schemas, explict []string
		create           string // "" = none
		createTemp       bool
	}{
		{`"$user", public`, []string{"pg_catalog", "public"}, []string{"public"}, "public", false},
		{``, []string{"pg_catalog"}, nil, "", false},
		{`nosuch, public, pg_catalog`, []string{"public", "pg_catalog"}, []string{"public", "pg_catalog"}, "public", false},
		{`pg_catalog`, []string{"pg_catalog"}, []string{"pg_catalog"}, "pg_catalog", false},
		// pg_temp first: creation goes there (made on demand) though the
		// session has no temporary schema yet.
		{`pg_temp, public`, []string{"pg_catalog", "public"}, []string{"public"}, TempSchema, true},
		{`public, public`, []string{"pg_catalog", "public"}, []string{"public"}, "public", false},
	} {
		p := s.searchPath(c.setting)
		if !reflect.DeepEqual(names(p.Schemas), c.schemas) || !reflect.DeepEqual(names(p.Explicit), c.explict) {
			t.Errorf("%q: schemas %v explicit %v, want %v %v", c.setting, names(p.Schemas), names(p.Explicit), c.schemas, c.explict)
		}
		create := ""
		if p.CreateOK {
			create = p.Create.Name
		}
		if create != c.create || p.CreateTemp != c.createTemp {
			t.Errorf("%q: creates in %q (temp %v), want %q (%v)", c.setting, create, p.CreateTemp, c.create, c.createTemp)
		}
	}
}

func TestSchemaArray(t *testing.T) {
	got := schemaArray([]Namespace{{Name: "public"}, {Name: "Two Words"}, {Name: `q"x`}, {Name: "null"}})
	if want := `{public,"Two Words","q\"x","null"}`; got != want {
		t.Fatalf("schemaArray = %s, want %s", got, want)
	}
}
