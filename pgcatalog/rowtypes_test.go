package pgcatalog

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// TestRelationRowTypes checks pg_type's rows of the relations' row types
// and the pseudo-types against PostgreSQL 15's catalog: every relation
// but an index and a sequence has a composite type whose typrelid is the
// relation and which is its pg_class.reltype (pg_class's own is 83, its
// array 273), OIDs are unique, and the pseudo-types are named as
// format_type names them.
func TestRelationRowTypes(t *testing.T) {
	cat := storage.NewMemoryCatalog()
	if _, err := cat.Create(context.Background(), "t", []storage.ColumnDef{{Name: "a", Type: types.Int4Type}}); err != nil {
		t.Fatal(err)
	}
	s := NewSnapshot(cat, Env{User: "alice", Database: "db1"})
	reltype := map[int64]int64{}
	relkind := map[int64]string{}
	for _, r := range rows(t, s, "", "pg_class") {
		oid := r[col(t, "pg_class", "oid")].I
		if _, dup := relkind[oid]; dup {
			t.Errorf("pg_class lists OID %d twice", oid)
		}
		relkind[oid], reltype[oid] = r[col(t, "pg_class", "relkind")].S, r[col(t, "pg_class", "reltype")].I
	}
	typrelid := map[int64]int64{}
	names := map[int64]string{}
	for _, r := range rows(t, s, "", "pg_type") {
		oid := r[col(t, "pg_type", "oid")].I
		if _, dup := names[oid]; dup {
			t.Errorf("pg_type lists OID %d twice", oid)
		}
		names[oid] = r[col(t, "pg_type", "typname")].S
		if rel := r[col(t, "pg_type", "typrelid")].I; rel != 0 {
			typrelid[oid] = rel
			if reltype[rel] != oid {
				t.Errorf("type %s (%d): typrelid %d, whose reltype is %d", names[oid], oid, rel, reltype[rel])
			}
		}
	}
	for rel, typ := range reltype {
		if typ == 0 && relkind[rel] != "i" && relkind[rel] != "S" && rel != 16381 && rel != 16382 {
			t.Errorf("relation %d (relkind %s) has no row type", rel, relkind[rel])
		}
		if typ != 0 && typrelid[typ] != rel {
			t.Errorf("relation %d: reltype %d is not its type", rel, typ)
		}
	}
	if reltype[1259] != 83 || names[83] != "pg_class" || names[273] != "_pg_class" {
		t.Errorf("pg_class's row type: %d %q %q", reltype[1259], names[83], names[273])
	}
	for oid, want := range map[uint32]string{2276: `"any"`, 2283: "anyelement", 2287: "record[]", 1263: "cstring[]", 83: "pg_class"} {
		if got := FormatType(oid, -1, true); got != want {
			t.Errorf("format_type(%d): %q, want %q", oid, got, want)
		}
	}
	if oid, err := s.RegIn("regtype", `"any"`); err != nil || oid != 2276 {
		t.Errorf(`'"any"'::regtype: %d %v`, oid, err)
	}
	tr, _ := s.RelationByName("", "t")
	if oid, err := s.RegIn("regtype", "t[]"); err != nil || oid != storage.RowTypeOID(tr.OID)+1 {
		t.Errorf("'t[]'::regtype: %d %v", oid, err)
	}
}

// TestSystemAttributes checks pg_attribute's system columns of a table
// against PostgreSQL 15's (SELECT attname, atttypid, attlen, attnum,
// attbyval, attalign, attnotnull, attstattarget FROM pg_attribute WHERE
// attnum < 0 of a table): a view has none.
func TestSystemAttributes(t *testing.T) {
	cat := storage.NewMemoryCatalog()
	tbl, err := cat.Create(context.Background(), "t", []storage.ColumnDef{{Name: "a", Type: types.Int4Type}})
	if err != nil {
		t.Fatal(err)
	}
	s := NewSnapshot(cat, Env{User: "alice", Database: "db1"})
	want := []string{"tableoid 26 4 -6 t i t 0", "cmax 29 4 -5 t i t 0", "xmax 28 4 -4 t i t 0",
		"cmin 29 4 -3 t i t 0", "xmin 28 4 -2 t i t 0", "ctid 27 6 -1 f s t 0"}
	var got []string
	b := func(v types.Value) string {
		if v.I != 0 {
			return "t"
		}
		return "f"
	}
	for _, r := range rows(t, s, "", "pg_attribute") {
		if r[col(t, "pg_attribute", "attrelid")].I != int64(RelationOID(tbl)) || r[col(t, "pg_attribute", "attnum")].I > 0 {
			continue
		}
		got = append(got, fmt.Sprintf("%s %d %d %d %s %s %s %d", r[1].S, r[col(t, "pg_attribute", "atttypid")].I,
			r[col(t, "pg_attribute", "attlen")].I, r[col(t, "pg_attribute", "attnum")].I, b(r[col(t, "pg_attribute", "attbyval")]),
			r[col(t, "pg_attribute", "attalign")].S, b(r[col(t, "pg_attribute", "attnotnull")]), r[col(t, "pg_attribute", "attstattarget")].I))
	}
	sort.Slice(got, func(i, j int) bool { return got[i] < got[j] })
	sort.Strings(want)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("system columns:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if got := FormatType(27, -1, true); got != "tid" {
		t.Errorf("format_type(27): %q", got)
	}
}
