package storage

import (
	"context"
	"reflect"
	"testing"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/types"
)

func TestViewsPersistAndShareTheTableNamespace(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db := open(t, dir)
	if _, err := db.Create(ctx, "t", []ColumnDef{{Name: "a", Type: types.Int4Type}}); err != nil {
		t.Fatal(err)
	}
	v := View{Name: "v", SQL: "SELECT a FROM t", Columns: []string{"a"}, Deps: []string{"t"}}
	if err := db.CreateView(ctx, v, false); err != nil {
		t.Fatal(err)
	}
	for _, err := range []error{
		db.CreateView(ctx, v, false),
		db.CreateView(ctx, View{Name: "t", SQL: "SELECT 1", Columns: []string{"x"}}, true),
		func() error { _, err := db.Create(ctx, "v", nil); return err }(),
	} {
		if e := pgerr.As(err); e == nil || e.Code != pgerr.DuplicateTable {
			t.Fatalf("want 42P07, got %v", err)
		}
	}
	v2 := View{Name: "v", SQL: "SELECT a, 1 AS b FROM t", Columns: []string{"a", "b"}, Deps: []string{"t"}}
	if err := db.CreateView(ctx, v2, true); err != nil {
		t.Fatal(err)
	}
	if err := db.CreateView(ctx, View{Name: "w", SQL: "SELECT 1", Columns: []string{"x"}}, false); err != nil {
		t.Fatal(err)
	}
	if err := db.DropView(ctx, "w"); err != nil {
		t.Fatal(err)
	}
	if e := pgerr.As(db.DropView(ctx, "w")); e == nil || e.Code != pgerr.UndefinedTable {
		t.Fatalf("drop of a missing view: %v", e)
	}
	db.Close()

	db = open(t, dir)
	defer db.Close()
	got, ok := db.LookupView("v")
	if v2.ID = got.ID; !ok || got.ID == 0 || !reflect.DeepEqual(got, v2) {
		t.Fatalf("after reopen: %+v %v, want %+v", got, ok, v2)
	}
	if vs := db.Views(); len(vs) != 1 || vs[0].Name != "v" {
		t.Fatalf("views after reopen: %+v", vs)
	}
	if _, ok := db.Lookup("v"); ok {
		t.Fatal("a view is not a table")
	}
}

func TestViewTransactions(t *testing.T) {
	ctx := context.Background()
	db := open(t, "")
	defer db.Close()
	a, b := db.Begin(), db.Begin()
	if err := a.CreateView(ctx, View{Name: "v", SQL: "SELECT 1", Columns: []string{"x"}}, false); err != nil {
		t.Fatal(err)
	}
	if _, ok := a.LookupView("v"); !ok {
		t.Fatal("a transaction sees its own view")
	}
	if _, ok := b.LookupView("v"); ok {
		t.Fatal("an uncommitted view is private")
	}
	// A savepoint rolled back forgets the drop.
	a.Savepoint("s")
	if err := a.DropView(ctx, "v"); err != nil {
		t.Fatal(err)
	}
	if err := a.RollbackTo("s"); err != nil {
		t.Fatal(err)
	}
	if err := b.CreateView(ctx, View{Name: "v", SQL: "SELECT 2", Columns: []string{"y"}}, false); err != nil {
		t.Fatal(err)
	}
	if err := a.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	// b created the same name concurrently: its commit fails whole.
	if e := pgerr.As(b.Commit(ctx)); e == nil || e.Code != pgerr.DuplicateTable {
		t.Fatalf("concurrent create: %v", e)
	}
	if got, _ := db.LookupView("v"); got.SQL != "SELECT 1" {
		t.Fatalf("committed view: %+v", got)
	}
	// Created and dropped in one transaction: nothing to commit.
	c := db.Begin()
	c.CreateView(ctx, View{Name: "tmp", SQL: "SELECT 1", Columns: []string{"x"}}, false)
	c.DropView(ctx, "tmp")
	if c.Changed() {
		t.Fatal("create+drop left a change")
	}
	c.Rollback()
}

func TestMemoryCatalogViews(t *testing.T) {
	ctx := context.Background()
	c := NewMemoryCatalog()
	if err := c.CreateView(ctx, View{Name: "v", SQL: "SELECT 1", Columns: []string{"x"}}, false); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Create(ctx, "v", nil); err == nil {
		t.Fatal("table over a view's name")
	}
	if v, ok := c.LookupView("v"); !ok || v.SQL != "SELECT 1" {
		t.Fatalf("lookup: %+v", v)
	}
	if err := c.DropView(ctx, "v"); err != nil {
		t.Fatal(err)
	}
	if len(c.Views()) != 0 {
		t.Fatal("view not dropped")
	}
}
