package storage

import (
	"context"
	"reflect"
	"testing"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/types"
)

// Constraints are kept in the manifest: a reopened data directory has them,
// with their ids, and a savepoint rolled back forgets a change.
func TestConstraintsDurable(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db, err := Open(dir, Options{NoSync: true, NoCompaction: true})
	if err != nil {
		t.Fatal(err)
	}
	cons := []Constraint{
		{Name: "t_pkey", Kind: ConPrimary, Cols: []string{"k"}},
		{Name: "t_k_check", Kind: ConCheck, Cols: []string{"k"}, Check: "k > 0"},
		{Name: "t_k_fkey", Kind: ConForeign, Cols: []string{"k"}, RefTable: "t", RefCols: []string{"k"},
			OnDelete: FKCascade, OnUpdate: FKNoAction, Match: 's', Deferrable: true, Deferred: true},
	}
	txn := db.Begin()
	if _, err := txn.CreateConstrained(ctx, "t", []ColumnDef{{Name: "k", Type: types.Int8Type, NotNull: true}}, cons); err != nil {
		t.Fatal(err)
	}
	if err := txn.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	txn = db.Begin()
	tb, _ := txn.Lookup("t")
	want := ConstraintsOf(tb)
	if len(want) != 3 || want[0].ID == 0 || want[2].RefTable != "t" {
		t.Fatalf("constraints after create: %+v", want)
	}
	txn.Savepoint("s")
	if err := txn.SetConstraints(ctx, tb, want[:1]); err != nil {
		t.Fatal(err)
	}
	if len(ConstraintsOf(tb)) != 1 {
		t.Fatal("SetConstraints not visible to its transaction")
	}
	if err := txn.RollbackTo("s"); err != nil {
		t.Fatal(err)
	}
	if got := ConstraintsOf(tb); !reflect.DeepEqual(got, want) {
		t.Fatalf("after ROLLBACK TO: %+v", got)
	}
	txn.Rollback()
	db.Close()
	db, err = Open(dir, Options{NoSync: true, NoCompaction: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	txn = db.Begin()
	tb, ok := txn.Lookup("t")
	if !ok {
		t.Fatal("table lost")
	}
	if got := ConstraintsOf(tb); !reflect.DeepEqual(got, want) {
		t.Fatalf("after reopening:\n got %+v\nwant %+v", got, want)
	}
}

// Two transactions add the same key: each sees only its own row, so both
// statements pass; the committer fails the later commit with 23505.
func TestUniqueRecheckedAtCommit(t *testing.T) {
	ctx := context.Background()
	db, err := Open("", Options{NoSync: true, NoCompaction: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	txn := db.Begin()
	cons := []Constraint{{Name: "t_pkey", Kind: ConPrimary, Cols: []string{"k"}}}
	if _, err := txn.CreateConstrained(ctx, "t", []ColumnDef{{Name: "k", Type: types.Int8Type}}, cons); err != nil {
		t.Fatal(err)
	}
	if err := txn.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	add := func(txn *Txn, vals ...int64) error {
		tb, _ := txn.Lookup("t")
		return txn.Append(ctx, tb, intBatch(vals...))
	}
	a, b := db.Begin(), db.Begin()
	if err := add(a, 1, 2); err != nil {
		t.Fatal(err)
	}
	if err := add(b, 3, 2); err != nil {
		t.Fatal(err)
	}
	if err := add(b, 3); pgerr.Code(err) != "23505" {
		t.Fatalf("duplicate within a transaction: %v", err)
	}
	if err := a.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	err = b.Commit(ctx)
	if e := pgerr.As(err); e.Code != "23505" || e.Detail != "Key (k)=(2) already exists." {
		t.Fatalf("later commit: %v", err)
	}
	r := db.Begin()
	tb, _ := r.Lookup("t")
	var n int64
	for _, rec := range tb.Snapshot() {
		n += rec.NumRows()
	}
	if n != 2 {
		t.Fatalf("%d rows stored, want the first transaction's 2", n)
	}
}
