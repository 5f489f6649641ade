package pgcatalog

import (
	"context"
	"testing"

	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

func TestIndexRows(t *testing.T) {
	ctx := context.Background()
	db, err := storage.Open("", storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	tx := db.Begin()
	tb, err := tx.Create(ctx, "t", []storage.ColumnDef{{Name: "a", Type: types.Int4Type}, {Name: "B", Type: types.TextType}})
	if err != nil {
		t.Fatal(err)
	}
	d1, err := tx.CreateIndex(ctx, tb, storage.IndexDef{Name: "t_a_B_idx", Cols: []string{"a", "B"}, Unique: true})
	if err != nil {
		t.Fatal(err)
	}
	d2, err := tx.CreateIndex(ctx, tb, storage.IndexDef{Name: "h", Cols: []string{"B"}, Method: storage.MethodHash})
	if err != nil {
		t.Fatal(err)
	}
	s := NewSnapshot(tx, Env{})
	var kinds []string
	for _, r := range rows(t, s, "", "pg_class") {
		switch r[col(t, "pg_class", "relname")].S {
		case "t":
			if r[col(t, "pg_class", "relhasindex")].I != 1 {
				t.Error("relhasindex of t")
			}
		case "t_a_B_idx", "h":
			kinds = append(kinds, r[col(t, "pg_class", "relkind")].S)
			if am := r[col(t, "pg_class", "relam")].I; am != OIDAmBtree && am != OIDAmHash {
				t.Errorf("relam %d", am)
			}
		}
	}
	if len(kinds) != 2 || kinds[0] != "i" || kinds[1] != "i" {
		t.Fatalf("index relations: %v", kinds)
	}
	ix := rows(t, s, "", "pg_index")
	if len(ix) != 2 {
		t.Fatalf("pg_index: %v", ix)
	}
	vec := func(r []types.Value, c string) string { // an int2vector or oidvector column's text
		return types.TextOf(r[col(t, "pg_index", c)], byName["pg_catalog.pg_index"].Cols[col(t, "pg_index", c)].Type)
	}
	for _, r := range ix {
		switch uint32(r[col(t, "pg_index", "indexrelid")].I) {
		case d1.ObjectID():
			if vec(r, "indkey") != "1 2" || r[col(t, "pg_index", "indisunique")].I != 1 ||
				vec(r, "indclass") != "1978 3126" || vec(r, "indcollation") != "0 100" {
				t.Errorf("pg_index of t_a_B_idx: %v", r)
			}
		case d2.ObjectID():
			if vec(r, "indkey") != "2" || vec(r, "indclass") != "10037" {
				t.Errorf("pg_index of h: %v", r)
			}
		default:
			t.Errorf("pg_index row of no index: %v", r)
		}
	}
	got := map[string]string{}
	for _, r := range rows(t, s, "", "pg_indexes") {
		got[r[2].S] = r[4].S
	}
	if got["t_a_B_idx"] != `CREATE UNIQUE INDEX "t_a_B_idx" ON public.t USING btree (a, "B")` ||
		got["h"] != `CREATE INDEX h ON public.t USING hash ("B")` {
		t.Errorf("pg_indexes: %v", got)
	}
	if v := pgGetIndexdef(s, []types.Value{types.IntValue(int64(d1.ObjectID())), types.IntValue(2), types.BoolValue(true)}); v.S != `"B"` {
		t.Errorf("pg_get_indexdef(i, 2, true) = %v", v)
	}
	if v := pgGetIndexdef(s, []types.Value{types.IntValue(int64(RelationOID(tb)))}); !v.Null {
		t.Errorf("pg_get_indexdef of a table = %v", v)
	}
}
