package pgcatalog

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/settings"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// rows reads every row of the system relation name over s.
func rows(t *testing.T, s *Snapshot, schema, name string) [][]types.Value {
	t.Helper()
	st, ok := Lookup(s, schema, name)
	if !ok {
		t.Fatalf("no system table %s", name)
	}
	var out [][]types.Value
	for _, rec := range st.Snapshot() {
		for i := 0; i < int(rec.NumRows()); i++ {
			var row []types.Value
			for c, d := range st.Columns() {
				row = append(row, types.GetValue(rec.Column(c), d.Type, i))
			}
			out = append(out, row)
		}
	}
	return out
}

// col is the position of column name in relation name.
func col(t *testing.T, name, column string) int {
	t.Helper()
	for i, c := range byName["pg_catalog."+name].Cols {
		if c.Name == column {
			return i
		}
	}
	t.Fatalf("%s has no column %s", name, column)
	return -1
}

func TestSystemCatalogs(t *testing.T) {
	cat := storage.NewMemoryCatalog()
	tbl, err := cat.Create(context.Background(), "t", []storage.ColumnDef{
		{Name: "a", Type: types.Int4Type, NotNull: true},
		{Name: "b", Type: types.VarcharOf(20), Default: "'x'"},
	})
	if err != nil {
		t.Fatal(err)
	}
	s := NewSnapshot(cat, Env{User: "alice", Database: "db1"})
	oid := RelationOID(tbl)
	if oid < FirstUserOID || RelationOID(tbl) != oid {
		t.Fatalf("table OID %d not stable or below FirstUserOID", oid)
	}
	found := false
	for _, r := range rows(t, s, "", "pg_class") {
		if r[col(t, "pg_class", "relname")].S == "t" {
			found = r[col(t, "pg_class", "oid")].I == int64(oid) && r[col(t, "pg_class", "relnamespace")].I == OIDNamespacePublic &&
				r[col(t, "pg_class", "relkind")].S == "r" && r[col(t, "pg_class", "relnatts")].I == 2
		}
	}
	if !found {
		t.Error("pg_class does not list t with its OID, schema, kind and column count")
	}
	var atts []string
	for _, r := range rows(t, s, "", "pg_attribute") {
		if r[col(t, "pg_attribute", "attrelid")].I == int64(oid) {
			atts = append(atts, r[1].S)
			if r[1].S == "b" && (r[col(t, "pg_attribute", "atttypid")].I != int64(types.OIDVarchar) ||
				r[col(t, "pg_attribute", "atttypmod")].I != 24 || r[col(t, "pg_attribute", "attnotnull")].I != 0 ||
				r[col(t, "pg_attribute", "atthasdef")].I != 1) {
				t.Errorf("pg_attribute row of b: %v", r)
			}
		}
	}
	// Then the system columns, attnum -1 to -6 (PostgreSQL's order).
	if strings.Join(atts, " ") != "a b ctid xmin cmin xmax cmax tableoid" {
		t.Errorf("pg_attribute of t: %v", atts)
	}
	if d := rows(t, s, "", "pg_attrdef"); len(d) != 1 || d[0][3].S != "'x'::character varying" || d[0][2].I != 2 {
		t.Errorf("pg_attrdef: %v", d)
	}
	// A fresh cluster's three databases, then the connected one.
	if d := rows(t, s, "", "pg_database"); len(d) != 4 || d[0][1].S != "template1" || d[2][1].S != "postgres" ||
		d[2][0].I != OIDDatabase || d[3][1].S != "db1" || d[3][0].I != OIDCurrentDatabase {
		t.Errorf("pg_database: %v", d)
	}
	if r, ok := s.RelationByName("", "pg_class"); !ok || r.OID != 1259 {
		t.Errorf("pg_class by name: %v %v", r, ok)
	}
	if r, ok := s.RelationByOID(oid); !ok || r.Name != "t" {
		t.Errorf("t by OID: %v %v", r, ok)
	}
	if s.RoleName(OIDBootstrapUser) != "alice" {
		t.Error("the session user owns the catalog")
	}
	if pi, ok := Lookup(s, "", "pg_trigger"); !ok || !AlwaysEmpty(pi) {
		t.Error("pg_trigger is always empty")
	}
	if pc, _ := Lookup(s, "", "pg_class"); AlwaysEmpty(pc) {
		t.Error("pg_class is not always empty")
	}
	if _, ok := Lookup(s, "", "tables"); ok {
		t.Error("information_schema.tables must not be found unqualified")
	}
	if _, ok := Lookup(s, "information_schema", "tables"); !ok {
		t.Error("information_schema.tables must be found qualified")
	}
	// The built-in types, then the user types and the tables' row types
	// (each with its array type).
	if n, want := len(rows(t, s, "", "pg_type")), len(SystemTypes)+len(pseudoTypes)+len(userTypeRows(s)); n != want || want == len(SystemTypes) {
		t.Errorf("pg_type has %d rows, want %d (the built-ins and the tables' row types)", n, want)
	}
	// A NULL column (a pointer field left nil) reads as NULL, a set one as its value.
	for _, r := range rows(t, s, "information_schema", "columns") {
		if r[3].S == "b" && (!r[8].Null || r[5].S != "'x'::character varying") {
			// character_maximum_length is column 8, column_default 5
			if r[8].Null || r[8].I != 20 {
				t.Errorf("information_schema.columns of b: %v", r)
			}
		}
		if r[3].S == "a" && !r[5].Null {
			t.Errorf("column_default of a is not NULL: %v", r[5])
		}
	}
}

// Every declared relation's columns come from its row struct: a name and a
// type per field, no duplicates, and rows read back as declared.
func TestDeclarations(t *testing.T) {
	for _, name := range []string{"pg_catalog.pg_class", "pg_catalog.pg_settings", "pg_catalog.pg_stat_activity", "information_schema.columns"} {
		if byName[name] == nil {
			t.Errorf("%s is not declared", name)
		}
	}
	for _, d := range defs {
		seen := map[string]bool{}
		for _, c := range d.Cols {
			if seen[c.Name] {
				t.Errorf("%s.%s: column %s twice", d.Schema, d.Name, c.Name)
			}
			seen[c.Name] = true
		}
		if byName[d.Schema+"."+d.Name] != d {
			t.Errorf("%s.%s is not found by name", d.Schema, d.Name)
		}
	}
	type row struct {
		O  OID     `pg:"o"`
		N  *Name   `pg:"n"`
		C  Char    `pg:"c"`
		H  int16   `pg:"h"`
		F  float32 `pg:"f"`
		TZ *int64  `pg:"tz" type:"timestamptz"`
	}
	d := &Def{Name: "x"}
	rt := reflect.TypeOf(row{})
	for i := 0; i < rt.NumField(); i++ {
		f := rt.Field(i)
		ct := columnType(f.Type, f.Name)
		if f.Tag.Get("type") == "timestamptz" {
			ct = types.TimestampTZType
		}
		d.Cols = append(d.Cols, storage.ColumnDef{Name: f.Tag.Get("pg"), Type: ct})
		d.field = append(d.field, f.Index)
	}
	want := []types.ID{types.Oid, types.Text, types.Text, types.Int2, types.Float4, types.TimestampTZ}
	for i, c := range d.Cols {
		if c.Type.ID != want[i] {
			t.Errorf("column %s is %v, want %v", c.Name, c.Type, want[i])
		}
	}
	nm := "n"
	d.rows = func(*Snapshot) any { return []row{{O: 7, N: &nm, C: 'r', H: -2, F: 0.5}, {}} }
	rec := d.record(nil)
	got := func(c, r int) types.Value { return types.GetValue(rec.Column(c), d.Cols[c].Type, r) }
	if got(0, 0).I != 7 || got(1, 0).S != "n" || got(2, 0).S != "r" || got(3, 0).I != -2 || got(4, 0).F != 0.5 || !got(5, 0).Null {
		t.Errorf("row 0 reads back wrong")
	}
	if got(0, 1).I != 0 || !got(1, 1).Null || got(2, 1).S != "" {
		t.Errorf("zero row: oid %v, name %v, char %q", got(0, 1), got(1, 1), got(2, 1).S)
	}
}

// pg_settings lists exactly the registry's settings, with the session's values.
func TestPgSettingsReadsTheRegistry(t *testing.T) {
	v := settings.New("alice")
	if _, err := v.Set("work_mem", "8MB", false); err != nil {
		t.Fatal(err)
	}
	s := NewSnapshot(storage.NewMemoryCatalog(), Env{Settings: v})
	got := map[string]string{}
	for _, r := range rows(t, s, "", "pg_settings") {
		got[r[0].S] = r[1].S
	}
	if len(got) != len(v.Rows()) {
		t.Errorf("pg_settings has %d rows, the session's settings %d", len(got), len(v.Rows()))
	}
	for _, st := range settings.All() {
		// GUC_NO_SHOW_ALL settings are hidden from pg_settings, as in PostgreSQL.
		if _, ok := got[st.Name]; ok == st.NoShowAll {
			t.Errorf("registry setting %s (NoShowAll %v): listed in pg_settings %v", st.Name, st.NoShowAll, ok)
		}
	}
	if got["work_mem"] != "8192" {
		t.Errorf("pg_settings.setting of work_mem = %q, want 8192", got["work_mem"])
	}
	if n := len(rows(t, NewSnapshot(storage.NewMemoryCatalog(), Env{}), "", "pg_settings")); n != 0 {
		t.Errorf("pg_settings without a session has %d rows", n)
	}
}

func TestRegInOut(t *testing.T) {
	s := NewSnapshot(storage.NewMemoryCatalog(), Env{User: "alice"})
	for _, c := range []struct {
		target, name string
		oid          uint32
		code         string
	}{
		{"regclass", "pg_class", 1259, ""},
		{"regclass", "pg_catalog.pg_attribute", 1249, ""},
		{"regclass", "nosuch", 0, "42P01"},
		{"regtype", "integer", types.OIDInt4, ""},
		{"regtype", "character varying(3)", types.OIDVarchar, ""},
		{"regtype", "nosuch", 0, "42704"},
		{"regnamespace", "public", OIDNamespacePublic, ""},
		{"regrole", "alice", OIDBootstrapUser, ""},
		{"regrole", "bob", 0, "42704"},
		{"regclass", "42", 42, ""},
		{"regproc", "now", 1299, ""},
		{"regproc", "abs", 0, "42725"},
		{"regproc", "nosuch", 0, "42883"},
		{"regprocedure", "abs(int4)", 1397, ""},
		{"regprocedure", "abs(int4", 0, "22P02"},
		{"regoperator", "+(int4,int4)", 551, ""},
		{"regoperator", "+(int4)", 0, "42P02"},
		{"regoper", "+", 0, "42725"},
	} {
		oid, err := s.RegIn(c.target, c.name)
		code := ""
		if err != nil {
			code = pgerrCode(err)
		}
		if oid != c.oid || code != c.code {
			t.Errorf("'%s'::%s = %d, %q; want %d, %q", c.name, c.target, oid, code, c.oid, c.code)
		}
	}
	for _, c := range []struct {
		target string
		oid    int64
		want   string
	}{
		{"regclass", 1259, "pg_class"}, {"regclass", 99999, "99999"}, {"regclass", 0, "-"},
		{"regtype", int64(types.OIDInt4), "integer"}, {"regnamespace", OIDNamespacePgCatalog, "pg_catalog"},
		{"regrole", OIDBootstrapUser, "alice"},
		{"regproc", 1397, "pg_catalog.abs"}, {"regproc", 1299, "now"}, {"regprocedure", 1397, "abs(integer)"},
		{"regoperator", 551, "+(integer,integer)"}, {"regoper", 551, "pg_catalog.+"}, {"regtype", int64(types.OIDUnknown), "unknown"},
	} {
		if got := s.RegOut(c.target, c.oid); got != c.want {
			t.Errorf("%d::%s = %q, want %q", c.oid, c.target, got, c.want)
		}
	}
}

func TestLookupFunc(t *testing.T) {
	if _, ok := LookupFunc("format_type", 2); !ok {
		t.Error("format_type(oid, int4) not found")
	}
	if _, ok := LookupFunc("format_type", 1); ok {
		t.Error("format_type with one argument found")
	}
	if _, ok := LookupFunc("version", 1); ok {
		t.Error("version() takes no arguments")
	}
	f, ok := LookupFunc("to_regclass", 1)
	if !ok || f.Eval(NewSnapshot(storage.NewMemoryCatalog(), Env{}), []types.Value{types.TextValue("pg_type")}).I != 1247 {
		t.Error("to_regclass('pg_type') is not 1247")
	}
}

func pgerrCode(err error) string { return pgerr.Code(err) }
