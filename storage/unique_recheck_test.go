package storage

import (
	"context"
	"slices"
	"testing"

	"github.com/joind/joind/pgerr"
)

// A REPEATABLE READ transaction whose snapshot still holds a row a
// concurrent commit deleted may insert the row's key (PostgreSQL 15 does:
// its unique check sees committed deletes whatever the snapshot), and one
// inserting a key a concurrent commit added fails at commit with 23505.
func TestUniqueKeyUnderRepeatableReadSeesCommittedDeletes(t *testing.T) {
	ctx := context.Background()
	db, err := Open("", Options{NoSync: true, NoCompaction: true})
	if err != nil {
		t.Fatal(err)
	}
	setup := db.Begin()
	u, err := setup.CreateConstrained(ctx, "u", cols1, []Constraint{{Name: "u_pkey", Kind: ConPrimary, Cols: []string{"k"}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := setup.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	for _, k := range []int64{1, 2} {
		if err := db.Append(ctx, u, intBatch(k)); err != nil {
			t.Fatal(err)
		}
	}
	rr := db.Begin()
	rr.TakeSnapshot(RepeatableRead)
	other := db.Begin()
	ou, _ := other.Lookup("u")
	if err := other.Delete(ctx, ou, idsWhere(ou, 1)); err != nil {
		t.Fatal(err)
	}
	if err := other.Append(ctx, ou, intBatch(3)); err != nil {
		t.Fatal(err)
	}
	if err := other.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	rr.NewStatement()
	ru, _ := rr.Lookup("u")
	if err := rr.Append(ctx, ru, intBatch(1)); err != nil {
		t.Fatalf("re-insert of a key a concurrent commit deleted: %v", err)
	}
	if err := rr.Append(ctx, ru, intBatch(3)); err != nil {
		t.Fatalf("a key a concurrent commit added is the committer's to refuse, Append said %v", err)
	}
	if err := rr.Commit(ctx); pgerr.Code(err) != codeUniqueViolation {
		t.Fatalf("commit of a key a concurrent commit added: %v, want 23505", err)
	}
	// Without the duplicate 3 the re-insert commits.
	rr = db.Begin()
	rr.TakeSnapshot(RepeatableRead)
	tb, _ := rr.Lookup("u")
	if err := rr.Append(ctx, tb, intBatch(1)); err != nil {
		t.Fatal(err)
	}
	if err := rr.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	check := db.Begin()
	cu, _ := check.Lookup("u")
	got := keysOf(cu)
	slices.Sort(got)
	if !slices.Equal(got, []int64{1, 2, 3}) {
		t.Fatalf("rows %v, want [1 2 3]", got)
	}
}
