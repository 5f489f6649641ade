package storage

import (
	"context"
	"testing"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/types"
)

// rowsOf is the row count txn sees in table name, as a statement would.
func rowsOf(t *testing.T, txn *Txn, name string) int64 {
	t.Helper()
	txn.NewStatement()
	tb, ok := txn.Lookup(name)
	if !ok {
		t.Fatalf("no table %s", name)
	}
	return sumRows(tb.Snapshot())
}

func appendTo(t *testing.T, txn *Txn, name string, vals ...int64) {
	t.Helper()
	tb, ok := txn.Lookup(name)
	if !ok {
		t.Fatalf("no table %s", name)
	}
	if err := txn.Append(context.Background(), tb, intBatch(vals...)); err != nil {
		t.Fatal(err)
	}
}

func TestIsolationSnapshots(t *testing.T) {
	ctx := context.Background()
	db := open(t, t.TempDir())
	defer db.Close()
	cols := []ColumnDef{{Name: "k", Type: types.Int8Type}}
	for _, n := range []string{"t", "x", "y"} {
		if _, err := db.Create(ctx, n, cols); err != nil {
			t.Fatal(err)
		}
	}
	insert := func(name string, vals ...int64) {
		b := db.Begin()
		appendTo(t, b, name, vals...)
		if err := b.Commit(ctx); err != nil {
			t.Fatal(err)
		}
	}
	insert("t", 1)

	// The snapshot is the first snapshot-taking statement's, not Begin's.
	rr, rc := db.Begin(), db.Begin()
	insert("t", 2)
	rr.NewStatement()
	rr.TakeSnapshot(RepeatableRead)
	rc.NewStatement()
	rc.TakeSnapshot(ReadCommitted)
	if n := rowsOf(t, rr, "t"); n != 2 {
		t.Fatalf("repeatable read first statement sees %d rows, want 2", n)
	}
	insert("t", 3)
	if n := rowsOf(t, rr, "t"); n != 2 {
		t.Fatalf("repeatable read sees %d rows after a concurrent commit, want 2", n)
	}
	if n := rowsOf(t, rc, "t"); n != 3 {
		t.Fatalf("read committed sees %d rows, want 3", n)
	}
	appendTo(t, rr, "t", 4)
	if n := rowsOf(t, rr, "t"); n != 3 {
		t.Fatalf("repeatable read sees %d rows with its own, want 3", n)
	}
	// Names resolve in the latest catalog: a table created since reads
	// as empty, one dropped since is gone.
	if _, err := db.Create(ctx, "since", cols); err != nil {
		t.Fatal(err)
	}
	insert("since", 1, 2)
	if n := rowsOf(t, rr, "since"); n != 0 {
		t.Fatalf("repeatable read sees %d rows of a table created since, want 0", n)
	}
	if err := db.Drop(ctx, "since"); err != nil {
		t.Fatal(err)
	}
	if _, ok := rr.Lookup("since"); !ok {
		t.Fatal("a table once resolved must stay (PostgreSQL holds its lock)")
	}
	if err := rr.Commit(ctx); err != nil { // blind appends commit
		t.Fatal(err)
	}
	rc.Rollback()

	// Write skew: each reads what the other writes; the second to commit fails.
	a, b := db.Begin(), db.Begin()
	a.TakeSnapshot(Serializable)
	b.TakeSnapshot(Serializable)
	rowsOf(t, a, "x")
	rowsOf(t, b, "y")
	appendTo(t, a, "y", 1)
	appendTo(t, b, "x", 1)
	if err := a.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	err := b.Commit(ctx)
	if pe, ok := err.(*pgerr.Error); !ok || pe.Code != "40001" || pe.Message != "could not serialize access due to read/write dependencies among transactions" {
		t.Fatalf("write skew: got %v, want 40001", err)
	}
	if n := rowsOf(t, db.Begin(), "x"); n != 0 {
		t.Fatalf("the failed commit left %d rows", n)
	}

	// Disjoint reads and writes, and a read-only transaction: all commit.
	a, b = db.Begin(), db.Begin()
	a.TakeSnapshot(Serializable)
	b.TakeSnapshot(Serializable)
	rowsOf(t, a, "x")
	rowsOf(t, b, "y")
	appendTo(t, a, "x", 2)
	appendTo(t, b, "y", 2)
	if err := a.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if err := b.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	ro := db.Begin()
	ro.TakeSnapshot(Serializable)
	rowsOf(t, ro, "x")
	insert("x", 3)
	if err := ro.Commit(ctx); err != nil {
		t.Fatal(err)
	}

	// A name found absent is a read too: a concurrent CREATE conflicts.
	a = db.Begin()
	a.TakeSnapshot(Serializable)
	a.NewStatement()
	if _, ok := a.Lookup("z"); ok {
		t.Fatal("z exists")
	}
	appendTo(t, a, "t", 9)
	if _, err := db.Create(ctx, "z", cols); err != nil {
		t.Fatal(err)
	}
	if err := a.Commit(ctx); pgerr.Code(err) != "40001" {
		t.Fatalf("phantom table: got %v, want 40001", err)
	}
}
