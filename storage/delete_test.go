package storage

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/types"
)

var kCols = []ColumnDef{{Name: "k", Type: types.Int8Type}}

// keysOf lists the live values of column 0 (int8) of tb, in scan order.
func keysOf(tb Table) []int64 {
	var out []int64
	for _, r := range tb.Snapshot() {
		out = append(out, r.Column(0).(*array.Int64).Int64Values()...)
	}
	return out
}

// idsWhere returns the RowIDs of the live rows of tb whose column 0 is in
// keys, read as a scan does (Segments and their deletion vectors).
func idsWhere(tb Table, keys ...int64) []RowID {
	var out []RowID
	for _, seg := range tb.(Segmented).Segments() {
		var base int64
		for _, r := range seg.Records {
			vals := r.Column(0).(*array.Int64).Int64Values()
			for i, v := range vals {
				if !seg.Deleted(base+int64(i)) && slices.Contains(keys, v) {
					out = append(out, MakeRowID(seg.ID, base+int64(i)))
				}
			}
			base += r.NumRows()
		}
	}
	return out
}

func mustCreate(t *testing.T, db *DB, name string, vals ...int64) Table {
	t.Helper()
	ctx := context.Background()
	tb, err := db.Create(ctx, name, kCols)
	if err != nil {
		t.Fatal(err)
	}
	if len(vals) > 0 {
		if err := db.Append(ctx, tb, intBatch(vals...)); err != nil {
			t.Fatal(err)
		}
	}
	tb, _ = db.Lookup(name)
	return tb
}

func TestDeleteVisibilityAndDurability(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db := open(t, dir)
	mustCreate(t, db, "t", 1, 2, 3, 4, 5)
	a, b := db.Begin(), db.Begin()
	ta, _ := a.Lookup("t")
	tb, _ := b.Lookup("t")
	if err := a.Delete(ctx, ta, idsWhere(ta, 2, 4)); err != nil {
		t.Fatal(err)
	}
	if got := keysOf(ta); !slices.Equal(got, []int64{1, 3, 5}) || ta.Stats().Rows != 3 {
		t.Fatalf("a sees %v (%d rows), want [1 3 5]", got, ta.Stats().Rows)
	}
	if got := keysOf(tb); len(got) != 5 {
		t.Fatalf("b sees a's uncommitted delete: %v", got)
	}
	// Deleting a row twice is the caller's error.
	if err := a.Delete(ctx, ta, []RowID{MakeRowID(idsWhere(tb, 2)[0].Segment(), idsWhere(tb, 2)[0].Offset())}); pgerr.Code(err) != pgerr.InternalError {
		t.Fatalf("second delete of a row: %v", err)
	}
	// Own appended rows can be deleted too.
	if err := a.Append(ctx, ta, intBatch(6, 7)); err != nil {
		t.Fatal(err)
	}
	if err := a.Delete(ctx, ta, idsWhere(ta, 6)); err != nil {
		t.Fatal(err)
	}
	if got := keysOf(ta); !slices.Equal(got, []int64{1, 3, 5, 7}) {
		t.Fatalf("a sees %v", got)
	}
	if err := a.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if got := keysOf(tb); len(got) != 5 {
		t.Fatalf("b's statement snapshot moved: %v", got)
	}
	b.NewStatement()
	if got := keysOf(tb); !slices.Equal(got, []int64{1, 3, 5, 7}) || tb.Stats().Rows != 4 {
		t.Fatalf("b's next statement sees %v (%d rows)", got, tb.Stats().Rows)
	}
	b.Rollback()
	db.Close()
	db = open(t, dir)
	defer db.Close()
	tt, _ := db.Lookup("t")
	if got := keysOf(tt); !slices.Equal(got, []int64{1, 3, 5, 7}) || tt.Stats().Rows != 4 {
		t.Fatalf("after reopening: %v (%d rows)", got, tt.Stats().Rows)
	}
}

func TestDeleteSavepointsTruncateDrop(t *testing.T) {
	ctx := context.Background()
	db := open(t, "")
	defer db.Close()
	mustCreate(t, db, "t", 1, 2, 3)
	x := db.Begin()
	tt, _ := x.Lookup("t")
	x.Savepoint("s")
	if err := x.Delete(ctx, tt, idsWhere(tt, 1)); err != nil {
		t.Fatal(err)
	}
	if err := x.RollbackTo("s"); err != nil {
		t.Fatal(err)
	}
	if got := keysOf(tt); len(got) != 3 {
		t.Fatalf("after rollback to savepoint: %v", got)
	}
	// The rolled-back delete released its lock: another transaction can
	// delete the row without waiting.
	y := db.Begin()
	yt, _ := y.Lookup("t")
	cctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	if err := y.Delete(cctx, yt, idsWhere(yt, 1)); err != nil {
		t.Fatalf("lock not released by rollback to savepoint: %v", err)
	}
	y.Rollback()
	if err := x.Delete(ctx, tt, idsWhere(tt, 2)); err != nil {
		t.Fatal(err)
	}
	if err := x.Truncate(ctx, []Table{tt}); err != nil {
		t.Fatal(err)
	}
	if err := x.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	tt, _ = db.Lookup("t")
	if got := keysOf(tt); len(got) != 0 {
		t.Fatalf("after truncate: %v", got)
	}
	mustCreate(t, db, "u", 1, 2)
	z := db.Begin()
	ut, _ := z.Lookup("u")
	if err := z.Delete(ctx, ut, idsWhere(ut, 1)); err != nil {
		t.Fatal(err)
	}
	if err := z.Drop(ctx, "u"); err != nil {
		t.Fatal(err)
	}
	if err := z.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if _, ok := db.Lookup("u"); ok {
		t.Fatal("u survived its drop")
	}
}

func TestConcurrentDeleteWaitsThenFails(t *testing.T) {
	ctx := context.Background()
	db := open(t, "")
	defer db.Close()
	mustCreate(t, db, "t", 1, 2, 3)
	a, b := db.Begin(), db.Begin()
	ta, _ := a.Lookup("t")
	tb, _ := b.Lookup("t")
	if err := a.Delete(ctx, ta, idsWhere(ta, 1)); err != nil {
		t.Fatal(err)
	}
	// b waits for a's lock; a commits; b then fails with 40001.
	errc := make(chan error, 1)
	go func() { errc <- b.Delete(ctx, tb, idsWhere(tb, 1, 2)) }()
	select {
	case err := <-errc:
		t.Fatalf("b did not wait: %v", err)
	case <-time.After(50 * time.Millisecond):
	}
	if err := a.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	err := <-errc
	if !IsConcurrentUpdate(err) || pgerr.Code(err) != codeSerialization {
		t.Fatalf("b: want the concurrent-update 40001, got %v", err)
	}
	// After a restart on a fresh snapshot b deletes what is left.
	b.NewStatement()
	if err := b.Delete(ctx, tb, idsWhere(tb, 1, 2)); err != nil {
		t.Fatal(err)
	}
	if err := b.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	tt, _ := db.Lookup("t")
	if got := keysOf(tt); !slices.Equal(got, []int64{3}) {
		t.Fatalf("left %v", got)
	}
	// A holder that rolls back lets the waiter through.
	c, d := db.Begin(), db.Begin()
	tc, _ := c.Lookup("t")
	td, _ := d.Lookup("t")
	if err := c.Delete(ctx, tc, idsWhere(tc, 3)); err != nil {
		t.Fatal(err)
	}
	go func() { errc <- d.Delete(ctx, td, idsWhere(td, 3)) }()
	time.Sleep(20 * time.Millisecond)
	c.Rollback()
	if err := <-errc; err != nil {
		t.Fatalf("after the holder rolled back: %v", err)
	}
	// A cancelled wait returns the context's error.
	e := db.Begin()
	te, _ := e.Lookup("t")
	cctx, cancel := context.WithTimeout(ctx, 30*time.Millisecond)
	defer cancel()
	if err := e.Delete(cctx, te, idsWhere(te, 3)); err != context.DeadlineExceeded {
		t.Fatalf("cancelled wait: %v", err)
	}
	d.Rollback()
	e.Rollback()
}

func TestDeleteDeadlockDetected(t *testing.T) {
	ctx := context.Background()
	db := open(t, "")
	defer db.Close()
	mustCreate(t, db, "t", 1, 2)
	a, b := db.Begin(), db.Begin()
	ta, _ := a.Lookup("t")
	tb, _ := b.Lookup("t")
	if err := a.Delete(ctx, ta, idsWhere(ta, 1)); err != nil {
		t.Fatal(err)
	}
	if err := b.Delete(ctx, tb, idsWhere(tb, 2)); err != nil {
		t.Fatal(err)
	}
	errc := make(chan error, 1)
	go func() { errc <- a.Delete(ctx, ta, idsWhere(ta, 2)) }()
	time.Sleep(20 * time.Millisecond)
	if err := b.Delete(ctx, tb, idsWhere(tb, 1)); pgerr.Code(err) != codeDeadlock || err.Error() != "deadlock detected" {
		t.Fatalf("want 40P01 deadlock detected, got %v", err)
	}
	b.Rollback()
	if err := <-errc; err != nil {
		t.Fatalf("a after b's rollback: %v", err)
	}
	if err := a.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	tt, _ := db.Lookup("t")
	if got := keysOf(tt); len(got) != 0 {
		t.Fatalf("left %v", got)
	}
}

// The committer refuses a delete of a row deleted by an earlier commit even
// when no lock stood in the way (the safety net).
func TestCommitterRefusesDoubleDelete(t *testing.T) {
	ctx := context.Background()
	db := open(t, "")
	defer db.Close()
	mustCreate(t, db, "t", 1, 2)
	a, b := db.Begin(), db.Begin()
	ta, _ := a.Lookup("t")
	tb, _ := b.Lookup("t")
	ids := idsWhere(tb, 1)
	if err := a.Delete(ctx, ta, idsWhere(ta, 1)); err != nil {
		t.Fatal(err)
	}
	if err := a.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	// Forge b's pending delete past Delete's checks.
	b.p.deletes[ids[0].Segment()] = nil
	dv, _ := (*DeleteVector)(nil).with([]int64{ids[0].Offset()})
	b.p.deletes = map[uint64]map[uint64]*DeleteVector{tb.(*txnTable).id: {ids[0].Segment(): dv}}
	if err := b.Commit(ctx); !IsConcurrentUpdate(err) {
		t.Fatalf("want 40001, got %v", err)
	}
	tt, _ := db.Lookup("t")
	if got := keysOf(tt); !slices.Equal(got, []int64{2}) {
		t.Fatalf("left %v", got)
	}
}

func TestCompactionFoldsDeletes(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db := open(t, dir)
	tb := mustCreate(t, db, "t")
	for i := int64(0); i < minRun; i++ {
		if err := db.Append(ctx, tb, intBatch(10*i, 10*i+1)); err != nil {
			t.Fatal(err)
		}
	}
	tb, _ = db.Lookup("t")
	if err := db.Delete(ctx, tb, idsWhere(tb, 1, 20)); err != nil {
		t.Fatal(err)
	}
	for db.compactOnce() {
	}
	tb, _ = db.Lookup("t")
	segs := tb.(Segmented).Segments()
	if len(segs) != 1 || segs[0].Deletes.Count() != 0 || segs[0].Rows != 6 {
		t.Fatalf("after compaction: %d segments, first %d rows with %d deleted", len(segs), segs[0].Rows, segs[0].Deletes.Count())
	}
	want := []int64{0, 10, 11, 21, 30, 31}
	if got := keysOf(tb); !slices.Equal(got, want) {
		t.Fatalf("after compaction %v, want %v", got, want)
	}
	db.Close()
	db = open(t, dir)
	defer db.Close()
	tb, _ = db.Lookup("t")
	if got := keysOf(tb); !slices.Equal(got, want) || tb.Stats().Rows != 6 {
		t.Fatalf("after reopening %v", got)
	}
}
