package storage

import (
	"context"
	"testing"

	"github.com/joind/joind/types"
)

func TestSystemCatalogs(t *testing.T) {
	cat := NewMemoryCatalog()
	tbl, err := cat.Create(context.Background(), "t", []ColumnDef{
		{Name: "a", Type: types.Int4Type, NotNull: true},
		{Name: "b", Type: types.VarcharOf(20), Default: "'x'"},
	})
	if err != nil {
		t.Fatal(err)
	}
	env := &SystemEnv{User: "alice", Database: "db1",
		FormatDefault: func(def string, t types.Type) string { return def + "::" + t.BaseSQLName() }}
	oid := RelationOID(tbl)
	if oid < FirstUserOID || RelationOID(tbl) != oid {
		t.Fatalf("table OID %d not stable or below FirstUserOID", oid)
	}
	rows := func(name string) [][]types.Value {
		st, ok := SystemTable(cat, "", name, env)
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
	found := false
	for _, r := range rows("pg_class") {
		if r[1].S == "t" {
			found = r[0].I == int64(oid) && r[2].I == OIDNamespacePublic && r[16].S == "r" && r[17].I == 2
		}
	}
	if !found {
		t.Error("pg_class does not list t with its OID, schema, kind and column count")
	}
	var atts []string
	for _, r := range rows("pg_attribute") {
		if r[0].I == int64(oid) {
			atts = append(atts, r[1].S)
			if r[1].S == "b" && (r[2].I != int64(types.OIDVarchar) || r[8].I != 24 || r[13].I != 0 || r[14].I != 1) {
				t.Errorf("pg_attribute row of b: %v", r)
			}
		}
	}
	if len(atts) != 2 || atts[0] != "a" || atts[1] != "b" {
		t.Errorf("pg_attribute of t: %v", atts)
	}
	if d := rows("pg_attrdef"); len(d) != 1 || d[0][3].S != "'x'::character varying" || d[0][2].I != 2 {
		t.Errorf("pg_attrdef: %v", d)
	}
	if d := rows("pg_database"); len(d) != 1 || d[0][1].S != "db1" {
		t.Errorf("pg_database: %v", d)
	}
	if r, ok := RelationByName(cat, env, "", "pg_class"); !ok || r.OID != 1259 {
		t.Errorf("pg_class by name: %v %v", r, ok)
	}
	if r, ok := RelationByOID(cat, env, oid); !ok || r.Name != "t" {
		t.Errorf("t by OID: %v %v", r, ok)
	}
	if RoleName(env, OIDBootstrapUser) != "alice" {
		t.Error("the session user owns the catalog")
	}
	if pi, ok := SystemTable(cat, "", "pg_index", env); !ok || !SystemAlwaysEmpty(pi) {
		t.Error("pg_index is always empty")
	}
	if pc, _ := SystemTable(cat, "", "pg_class", env); SystemAlwaysEmpty(pc) {
		t.Error("pg_class is not always empty")
	}
	if _, ok := SystemTable(cat, "", "tables", env); ok {
		t.Error("information_schema.tables must not be found unqualified")
	}
	if cols := rows("pg_type"); len(cols) != len(SystemTypes) {
		t.Errorf("pg_type has %d rows, want %d", len(cols), len(SystemTypes))
	}
}
