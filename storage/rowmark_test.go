package storage

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/joind/joind/pgerr"
)

// TestLockRowsBlocksWriters: a row LockRows locked makes a concurrent
// Delete wait until the locker ends, and a row a commit after the
// locker's snapshot deleted fails its lock with the concurrent-update
// 40001; rows the locker deleted itself are reported gone, its own
// appended rows need no lock.
func TestLockRowsBlocksWriters(t *testing.T) {
	ctx := context.Background()
	db := open(t, "")
	defer db.Close()
	mustCreate(t, db, "t", 1, 2, 3)
	a, b := db.Begin(), db.Begin()
	ta, _ := a.Lookup("t")
	tb, _ := b.Lookup("t")
	gone, err := a.LockRows(ctx, ta, idsWhere(ta, 1))
	if err != nil || !slices.Equal(gone, []bool{false}) {
		t.Fatalf("lock: %v %v", gone, err)
	}
	errc := make(chan error, 1)
	go func() { errc <- b.Delete(ctx, tb, idsWhere(tb, 1)) }()
	select {
	case err := <-errc:
		t.Fatalf("the writer did not wait for the lock: %v", err)
	case <-time.After(50 * time.Millisecond):
	}
	// a deletes row 2 itself and appends 4: 2 is gone, 4 needs no lock.
	two := idsWhere(ta, 2)
	if err := a.Delete(ctx, ta, two); err != nil {
		t.Fatal(err)
	}
	if err := a.Append(ctx, ta, intBatch(4)); err != nil {
		t.Fatal(err)
	}
	seg, n, ok := a.AppendedRows(ta)
	if !ok || n != 1 || !slices.Equal(idsWhere(ta, 4), []RowID{MakeRowID(seg, 0)}) {
		t.Fatalf("AppendedRows = %d, %d, %v; row 4 is %v", seg, n, ok, idsWhere(ta, 4))
	}
	if gone, err = a.LockRows(ctx, ta, append(idsWhere(ta, 4), two...)); err != nil ||
		!slices.Equal(gone, []bool{false, true}) {
		t.Fatalf("own rows: %v %v", gone, err)
	}
	if err := a.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if err := <-errc; err != nil {
		t.Fatalf("the writer after the locker committed: %v", err)
	}
	if err := b.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	// c's snapshot still has row 3; d deletes it and commits; c's lock of
	// it is a concurrent update.
	c, d := db.Begin(), db.Begin()
	tc, _ := c.Lookup("t")
	td, _ := d.Lookup("t")
	ids := idsWhere(tc, 3)
	deleteCommitted(t, d, td, 3)
	if _, err := c.LockRows(ctx, tc, ids); !IsConcurrentUpdate(err) || pgerr.Code(err) != codeSerialization {
		t.Fatalf("lock of a row deleted since the snapshot: %v", err)
	}
	c.Rollback()
}

// deleteCommitted deletes the rows of tb with keys in txn and commits it.
func deleteCommitted(t *testing.T, txn *Txn, tb Table, keys ...int64) {
	t.Helper()
	ctx := context.Background()
	if err := txn.Delete(ctx, tb, idsWhere(tb, keys...)); err != nil {
		t.Fatal(err)
	}
	if err := txn.Commit(ctx); err != nil {
		t.Fatal(err)
	}
}
