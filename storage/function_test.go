package storage

import (
	"context"
	"reflect"
	"testing"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/types"
)

// Functions commit with the transaction, are discarded by a rollback,
// tell overloads apart by input types, fail a concurrent commit of the
// same signature (42723), and survive a reopen with every field.
func TestFunctionsPersist(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db := open(t, dir)
	f := Function{Schema: PublicSchemaID, Name: "f", Result: types.VoidType, RetSet: true, Volatility: 's', Strict: true,
		Language: "sql", Body: "SELECT 1", Args: []FuncArg{{Name: "a", Mode: 'i', Type: types.Int4Type, Default: "3"},
			{Name: "b", Mode: 'o', Type: types.Type{ID: types.Record, Typmod: -1}}}}
	txn := db.Begin()
	created, err := txn.CreateFunction(ctx, f)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := txn.CreateFunction(ctx, f); pgerr.As(err).Code != "42723" {
		t.Fatalf("same signature twice: %v", err)
	}
	g := f
	g.Args = []FuncArg{{Mode: 'i', Type: types.TextType}}
	if _, err := txn.CreateFunction(ctx, g); err != nil {
		t.Fatal("an overload by input type:", err)
	}
	if err := txn.Commit(ctx); err != nil {
		t.Fatal(err)
	}

	txn = db.Begin()
	if err := txn.DropFunction(ctx, created.ID); err != nil || len(txn.Functions()) != 1 {
		t.Fatalf("the transaction should see its drop: %v %v", err, txn.Functions())
	}
	txn.Rollback()

	a, b := db.Begin(), db.Begin()
	h := f
	h.Name = "h"
	for _, x := range []*Txn{a, b} {
		if _, err := x.CreateFunction(ctx, h); err != nil {
			t.Fatal(err)
		}
	}
	if err := a.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if err := b.Commit(ctx); pgerr.As(err).Code != "42723" {
		t.Fatalf("a second h(integer) committed: %v", err)
	}
	db.Close()

	db = open(t, dir)
	defer db.Close()
	txn = db.Begin()
	defer txn.Rollback()
	fs := txn.Functions()
	if len(fs) != 3 || !reflect.DeepEqual(fs[0], created) || fs[1].Args[0].Type != types.TextType || fs[2].Name != "h" {
		t.Fatalf("after reopen: %+v\nwant first %+v", fs, created)
	}
}
