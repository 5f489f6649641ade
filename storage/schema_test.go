package storage

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/types"
)

func TestTableKeyRoundTrip(t *testing.T) {
	for _, c := range []struct {
		id   uint64
		name string
	}{{0, "t"}, {0, "a.b"}, {7, "t"}, {12, "x\x00y"}} {
		key := TableKey(c.id, c.name)
		id, name := SplitKey(key)
		if c.id == 0 && key != c.name {
			t.Errorf("public key of %q is %q, want the bare name", c.name, key)
		}
		if id != c.id || name != c.name {
			t.Errorf("SplitKey(TableKey(%d, %q)) = %d, %q", c.id, c.name, id, name)
		}
	}
}

func TestSchemasPersistAndKeepTheirTables(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db := open(t, dir)
	txn := db.Begin()
	s, err := txn.CreateSchema(ctx, "s", "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := txn.CreateSchema(ctx, "s", ""); pgerr.As(err).Code != "42P06" {
		t.Fatalf("duplicate schema: %v", err)
	}
	cols := []ColumnDef{{Name: "a", Type: types.Int4Type}}
	if _, err := txn.Create(ctx, TableKey(s.ID, "t"), cols); err != nil {
		t.Fatal(err)
	}
	if _, err := txn.Create(ctx, "t", cols); err != nil {
		t.Fatal("public.t and s.t are different tables:", err)
	}
	if err := txn.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	// Renaming keeps the tables: they are keyed by the schema's id.
	txn = db.Begin()
	if err := txn.AlterSchema(ctx, Schema{ID: s.ID, Name: "s2"}); err != nil {
		t.Fatal(err)
	}
	if err := txn.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	db.Close()

	db = open(t, dir)
	defer db.Close()
	txn = db.Begin()
	defer txn.Rollback()
	got, ok := txn.LookupSchema("s2")
	if !ok || got.ID != s.ID || got.OID() != FirstUserOID+2*uint32(s.ID) {
		t.Fatalf("after reopen: %+v %v", got, ok)
	}
	if _, ok := txn.LookupSchema("s"); ok {
		t.Fatal("old name still resolves")
	}
	if _, ok := txn.Lookup(TableKey(s.ID, "t")); !ok {
		t.Fatal("s2.t lost")
	}
	if _, ok := txn.Lookup("t"); !ok {
		t.Fatal("public.t lost")
	}
}

func TestDropSchemaConflictsWithConcurrentCreate(t *testing.T) {
	ctx := context.Background()
	db := open(t, t.TempDir())
	defer db.Close()
	txn := db.Begin()
	s, _ := txn.CreateSchema(ctx, "s", "")
	if err := txn.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	a, b := db.Begin(), db.Begin()
	if _, err := a.Create(ctx, TableKey(s.ID, "t"), nil); err != nil {
		t.Fatal(err)
	}
	if err := b.DropSchema(ctx, "s"); err != nil {
		t.Fatal(err)
	}
	if err := b.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if err := a.Commit(ctx); err == nil {
		t.Fatal("a table was created in a dropped schema")
	}
	txn = db.Begin()
	defer txn.Rollback()
	if len(txn.Tables()) != 0 || len(txn.Schemas()) != 0 {
		t.Fatalf("left: %v %v", txn.Tables(), txn.Schemas())
	}
}

// A data directory without schemas other than public keeps the manifest
// shape older joind versions wrote (no "schemas" member).
func TestManifestWithoutSchemasKeepsItsShape(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db := open(t, dir)
	if _, err := db.Create(ctx, "t", []ColumnDef{{Name: "a", Type: types.Int4Type}}); err != nil {
		t.Fatal(err)
	}
	txn := db.Begin()
	if _, err := txn.CreateSchema(ctx, "s", ""); err != nil {
		t.Fatal(err)
	}
	if err := txn.DropSchema(ctx, "s"); err != nil {
		t.Fatal(err)
	}
	if err := txn.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	db.Close()
	data, err := os.ReadFile(filepath.Join(dir, manifestName))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), `"schemas"`) {
		t.Fatalf("manifest names schemas: %s", data)
	}
}

// Under REPEATABLE READ a schema created after the snapshot resolves, as
// relation names do (the catalog is read as of now).
func TestRepeatableReadSeesNewSchemas(t *testing.T) {
	ctx := context.Background()
	db := open(t, t.TempDir())
	defer db.Close()
	rr := db.Begin()
	rr.NewStatement()
	rr.TakeSnapshot(RepeatableRead)
	c := db.Begin()
	if _, err := c.CreateSchema(ctx, "late", ""); err != nil {
		t.Fatal(err)
	}
	if err := c.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if _, ok := rr.LookupSchema("late"); !ok {
		t.Fatal("repeatable read does not resolve a schema created since its snapshot")
	}
	rr.Rollback()
}
