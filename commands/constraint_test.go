package commands

import (
	"context"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql"
	"github.com/joind/joind/storage"
)

// The referenced side of a foreign key: removing a parent key a child row
// holds fails with PostgreSQL's 23503 unless the key is still there; a
// child row's key missing from the parent fails the insert side.
func TestForeignKeyBothSides(t *testing.T) {
	ctx := context.Background()
	s, _, _ := newFake(t)
	pk := storage.Constraint{Name: "p_pkey", Kind: storage.ConPrimary, Cols: []string{"a"}}
	fk := storage.Constraint{Name: "c_a_fkey", Kind: storage.ConForeign, Cols: []string{"a"}, RefTable: "p", RefCols: []string{"a"},
		OnDelete: storage.FKNoAction, OnUpdate: storage.FKNoAction, Match: 's'}
	if _, err := run(t, s, &sql.CreateTable{Name: "p", Columns: intCol, Constraints: []storage.Constraint{pk}}); err != nil {
		t.Fatal(err)
	}
	if _, err := run(t, s, &sql.CreateTable{Name: "c", Columns: intCol, Constraints: []storage.Constraint{fk}}); err != nil {
		t.Fatal(err)
	}
	p, _ := s.cat.Lookup("p")
	c, _ := s.cat.Lookup("c")
	if _, err := AppendRecords(ctx, s.cat, p, []arrow.Record{record(t, 1), record(t, 2)}, s.Format()); err != nil {
		t.Fatal(err)
	}
	if _, err := AddRows(ctx, s, c, []arrow.Record{record(t, 1)}); err != nil {
		t.Fatal(err)
	}
	_, err := AddRows(ctx, s, c, []arrow.Record{record(t, 3)})
	if e := pgerr.As(err); e.Code != "23503" || e.Detail != `Key (a)=(3) is not present in table "p".` {
		t.Fatalf("child key missing from the parent: %v (%s)", err, e.Detail)
	}
	// Key 1 is still in p: removing one of its versions is fine.
	if err := CheckReferenced(ctx, s, p, []arrow.Record{record(t, 1)}, nil); err != nil {
		t.Fatalf("key still present: %v", err)
	}
	if err := s.cat.Truncate(ctx, []storage.Table{p}); err != nil {
		t.Fatal(err)
	}
	err = CheckReferenced(ctx, s, p, []arrow.Record{record(t, 2), record(t, 1)}, nil)
	if e := pgerr.As(err); e.Code != "23503" ||
		e.Message != `update or delete on table "p" violates foreign key constraint "c_a_fkey" on table "c"` ||
		e.Detail != `Key (a)=(1) is still referenced from table "c".` {
		t.Fatalf("removed key still referenced: %v (%s)", err, e.Detail)
	}
	if err := CheckReferenced(ctx, s, p, []arrow.Record{record(t, 2)}, nil); err != nil {
		t.Fatalf("unreferenced key: %v", err)
	}
}
