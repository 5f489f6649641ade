package storage

import (
	"context"
	"testing"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/types"
)

// Extensions, servers and foreign tables commit atomically, are discarded
// by a rollback, keep their definitions through ALTER and survive a
// reopen; a concurrent commit of the same name fails the later one.
func TestForeignObjectsPersist(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db := open(t, dir)
	txn := db.Begin()
	ext, err := txn.CreateForeignObject(ctx, ForeignObject{Kind: 'e', Name: "file_fdw"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := txn.CreateForeignObject(ctx, ForeignObject{Kind: 'e', Name: "file_fdw"}); pgerr.As(err).Code != "42710" {
		t.Fatalf("duplicate extension: %v", err)
	}
	if _, err := txn.CreateForeignObject(ctx, ForeignObject{Kind: 's', Name: "file_fdw", Wrapper: "file_fdw"}); err != nil {
		t.Fatal("a server may have an extension's name:", err)
	}
	tb, err := txn.Create(ctx, "ft", []ColumnDef{{Name: "a", Type: types.Int4Type}})
	if err != nil {
		t.Fatal(err)
	}
	def := &ForeignTableDef{Server: "file_fdw", Options: []ForeignOption{{"filename", "/x.csv"}, {"format", "csv"}},
		ColumnOptions: map[string][]ForeignOption{"a": {{"force_null", "true"}}}}
	if err := txn.SetForeign(ctx, tb, def); err != nil {
		t.Fatal(err)
	}
	if err := txn.Commit(ctx); err != nil {
		t.Fatal(err)
	}

	// A rolled-back drop leaves everything.
	txn = db.Begin()
	if err := txn.DropForeignObject(ctx, ext.ID); err != nil {
		t.Fatal(err)
	}
	if len(txn.ForeignObjects()) != 1 {
		t.Fatalf("the transaction should see its drop: %v", txn.ForeignObjects())
	}
	txn.Rollback()

	// Two transactions creating one server name: the second commit fails.
	a, b := db.Begin(), db.Begin()
	for _, x := range []*Txn{a, b} {
		if _, err := x.CreateForeignObject(ctx, ForeignObject{Kind: 's', Name: "srv", Wrapper: "file_fdw"}); err != nil {
			t.Fatal(err)
		}
	}
	if err := a.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if err := b.Commit(ctx); err == nil {
		t.Fatal("a second server \"srv\" committed")
	}
	db.Close()

	db = open(t, dir)
	defer db.Close()
	txn = db.Begin()
	defer txn.Rollback()
	objs := txn.ForeignObjects()
	if len(objs) != 3 || objs[0].Kind != 'e' || objs[0].Name != "file_fdw" || objs[0].OID() != ext.OID() || objs[2].Name != "srv" {
		t.Fatalf("after reopen: %+v", objs)
	}
	got, ok := txn.Lookup("ft")
	if !ok {
		t.Fatal("foreign table lost")
	}
	d := ForeignDefOf(got)
	if d == nil || d.Server != "file_fdw" || len(d.Options) != 2 || d.Options[0].Value != "/x.csv" || d.ColumnOptions["a"][0].Name != "force_null" {
		t.Fatalf("foreign definition after reopen: %+v", d)
	}
	// ALTER TABLE keeps it; ALTER FOREIGN TABLE ... OPTIONS replaces it.
	if err := txn.SetComment(ctx, got, "c"); err != nil {
		t.Fatal(err)
	}
	if ForeignDefOf(got) == nil {
		t.Fatal("SetComment dropped the foreign definition")
	}
	if err := txn.SetForeign(ctx, got, &ForeignTableDef{Server: "srv", Options: []ForeignOption{{"filename", "/y.csv"}}}); err != nil {
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
	got, _ = txn.Lookup("ft")
	if d := ForeignDefOf(got); d == nil || d.Server != "srv" || d.Options[0].Value != "/y.csv" || d.ColumnOptions != nil {
		t.Fatalf("altered foreign definition after reopen: %+v", d)
	}
	if c, _ := got.(Commented); c.Comment() != "c" {
		t.Fatalf("comment after reopen: %q", c.Comment())
	}
}
