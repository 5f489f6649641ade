package storage

import (
	"bytes"
	"context"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"slices"
	"strings"
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

func delFiles(t *testing.T, dir string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(dir, "del-*.dv"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// Deletes live in delta files named by the manifest: one per commit, read
// back at start-up, folded into one by compaction; a file no manifest
// names (an interrupted commit) is removed at start-up.
func TestDeleteFilesFoldAndOrphans(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db := openNoWAL(t, dir)
	var vals []int64
	for i := int64(0); i < 50000; i++ {
		vals = append(vals, i)
	}
	mustCreate(t, db, "t", vals...)
	const per = maxInline + 1 // too many to stay inline: one file per commit
	for i := int64(0); i < maxDeltas+2; i++ {
		tb, _ := db.Lookup("t")
		if err := db.Delete(ctx, tb, idsWhere(tb, vals[i*per:(i+1)*per]...)); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(delFiles(t, dir)); n != maxDeltas+2 {
		t.Fatalf("%d delta files, want %d", n, maxDeltas+2)
	}
	if !db.compactOnce() {
		t.Fatal("compaction did not fold the delta files")
	}
	if n := len(delFiles(t, dir)); n != 1 {
		t.Fatalf("after folding: %d delta files", n)
	}
	db.Close()
	orphan := filepath.Join(dir, deleteFile(1<<40))
	if err := os.WriteFile(orphan, []byte("JDV1junk"), 0o644); err != nil {
		t.Fatal(err)
	}
	db = openNoWAL(t, dir)
	defer db.Close()
	if _, err := os.Stat(orphan); !os.IsNotExist(err) {
		t.Fatalf("orphan delta file kept: %v", err)
	}
	tb, _ := db.Lookup("t")
	gone := (maxDeltas + 2) * per
	if got := keysOf(tb); len(got) != 50000-gone || got[0] != int64(gone) {
		t.Fatalf("after reopening: %d rows starting %v", len(got), got[:1])
	}
	// Deleting most rows rewrites the segment live-only.
	if err := db.Delete(ctx, tb, idsWhere(tb, vals[gone:49990]...)); err != nil {
		t.Fatal(err)
	}
	for db.compactOnce() {
	}
	tb, _ = db.Lookup("t")
	segs := tb.(Segmented).Segments()
	if len(segs) != 1 || segs[0].Rows != 10 || segs[0].Deletes.Count() != 0 || len(delFiles(t, dir)) != 0 {
		t.Fatalf("after folding the segment: %d segments, %d rows, %d deleted, %d files", len(segs), segs[0].Rows, segs[0].Deletes.Count(), len(delFiles(t, dir)))
	}
}

// A format-2 data directory opens, takes deletes, and is rewritten as the
// current format.
func TestOpensFormat2AndDeletes(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db := open(t, dir)
	mustCreate(t, db, "t", 1, 2, 3)
	db.Close()
	mpath := filepath.Join(dir, manifestName)
	data, err := os.ReadFile(mpath)
	if err != nil {
		t.Fatal(err)
	}
	body := data[bytes.IndexByte(data, '\n')+1:]
	body = bytes.Replace(body, []byte(fmt.Sprintf(`{"format":%d,`, manifestFormat)), []byte(`{"format":2,`), 1)
	if bytes.Contains(body, []byte(`"deletes"`)) {
		t.Fatal("a table without deletes lists some")
	}
	head := fmt.Sprintf("%s %d %08x %d\n", manifestMagic, 2, crc32.Checksum(body, castagnoli), len(body))
	if err := os.WriteFile(mpath, append([]byte(head), body...), 0o644); err != nil {
		t.Fatal(err)
	}
	db = open(t, dir)
	tb, _ := db.Lookup("t")
	if err := db.Delete(ctx, tb, idsWhere(tb, 2)); err != nil {
		t.Fatal(err)
	}
	db.Close()
	data, _ = os.ReadFile(mpath)
	if !bytes.HasPrefix(data, []byte(fmt.Sprintf("%s %d ", manifestMagic, manifestFormat))) || !bytes.Contains(data, []byte(`"deletes"`)) {
		t.Fatalf("manifest not rewritten as format %d with deletes: %.100s", manifestFormat, data)
	}
	db = open(t, dir)
	defer db.Close()
	tb, _ = db.Lookup("t")
	if got := keysOf(tb); !slices.Equal(got, []int64{1, 3}) {
		t.Fatalf("after reopening %v", got)
	}
}

// A damaged delta file makes Open fail naming it, never resurrect rows.
func TestOpenRefusesDamagedDeleteFile(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db := open(t, dir)
	var vals []int64
	for i := int64(0); i < 3*maxInline; i++ {
		vals = append(vals, i)
	}
	tb := mustCreate(t, db, "t", vals...)
	if err := db.Delete(ctx, tb, idsWhere(tb, vals[:maxInline+1]...)); err != nil {
		t.Fatal(err)
	}
	db.Close()
	files := delFiles(t, dir)
	if len(files) != 1 {
		t.Fatalf("%d delta files", len(files))
	}
	data, _ := os.ReadFile(files[0])
	data[len(dvMagic)] ^= 0xff
	os.WriteFile(files[0], data, 0o644)
	if db, err := Open(dir, Options{NoCompaction: true}); err == nil || !strings.Contains(err.Error(), filepath.Base(files[0])) {
		if db != nil {
			db.Close()
		}
		t.Fatalf("want an error naming %s, got %v", files[0], err)
	}
}

func TestVacuumFoldsDeletesAndMerges(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db := open(t, dir)
	defer db.Close()
	tb := mustCreate(t, db, "t")
	other := mustCreate(t, db, "o", 1)
	db.Append(ctx, other, intBatch(2))
	for i := int64(0); i < 3; i++ {
		if err := db.Append(ctx, tb, intBatch(10*i, 10*i+1, 10*i+2)); err != nil {
			t.Fatal(err)
		}
	}
	tb, _ = db.Lookup("t")
	if err := db.Delete(ctx, tb, idsWhere(tb, 1, 21)); err != nil {
		t.Fatal(err)
	}
	if err := db.Vacuum(ctx, []string{"t"}, false); err != nil {
		t.Fatal(err)
	}
	tb, _ = db.Lookup("t")
	segs := tb.(Segmented).Segments()
	for _, s := range segs {
		if s.Deletes.Count() != 0 {
			t.Fatalf("VACUUM left %d deleted rows in segment %d", s.Deletes.Count(), s.ID)
		}
	}
	want := []int64{0, 2, 10, 11, 12, 20, 22}
	if got := keysOf(tb); !slices.Equal(got, want) || len(segs) != 1 || len(delFiles(t, dir)) != 0 {
		t.Fatalf("after VACUUM: %v in %d segments, %d delta files", got, len(segs), len(delFiles(t, dir)))
	}
	other, _ = db.Lookup("o")
	if n := len(other.(Segmented).Segments()); n != 2 {
		t.Fatalf("VACUUM t touched o: %d segments", n)
	}
	// A row lock held by a live transaction leaves its segment alone.
	x := db.Begin()
	xt, _ := x.Lookup("t")
	if err := x.Delete(ctx, xt, idsWhere(xt, 0)); err != nil {
		t.Fatal(err)
	}
	db.Append(ctx, tb, intBatch(30))
	if err := db.Vacuum(ctx, nil, true); err != nil {
		t.Fatal(err)
	}
	if err := x.Commit(ctx); err != nil {
		t.Fatalf("commit after a VACUUM that had to skip its rows: %v", err)
	}
	if err := db.Vacuum(ctx, nil, true); err != nil {
		t.Fatal(err)
	}
	tb, _ = db.Lookup("t")
	other, _ = db.Lookup("o")
	if got := keysOf(tb); !slices.Equal(got, []int64{2, 10, 11, 12, 20, 22, 30}) || len(tb.(Segmented).Segments()) != 1 || len(other.(Segmented).Segments()) != 1 {
		t.Fatalf("after VACUUM FULL: %v in %d segments", got, len(tb.(Segmented).Segments()))
	}
}

// Folding delta files is leveled: a long tail of small files behind a large
// one is merged into one file without rewriting the large one.
func TestDeleteFilesLeveledFold(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db := openNoWAL(t, dir)
	var vals []int64
	for i := int64(0); i < 200000; i++ {
		vals = append(vals, i)
	}
	tb := mustCreate(t, db, "t", vals...)
	const base, per = 20000, maxInline + 1
	if err := db.Delete(ctx, tb, idsWhere(tb, vals[:base]...)); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < maxDeltas; i++ {
		tb, _ = db.Lookup("t")
		if err := db.Delete(ctx, tb, idsWhere(tb, vals[base+i*per:base+(i+1)*per]...)); err != nil {
			t.Fatal(err)
		}
	}
	big := db.cs.load().tables["t"].delFiles
	var first delFileRef
	for _, files := range big {
		first = files[0]
	}
	if !db.compactOnce() {
		t.Fatal("nothing folded")
	}
	for _, files := range db.cs.load().tables["t"].delFiles {
		if len(files) != 2 || files[0] != first {
			t.Fatalf("after folding: %v, want the first file kept and one more", files)
		}
	}
	db.Close()
	db = openNoWAL(t, dir)
	defer db.Close()
	tb, _ = db.Lookup("t")
	if got := keysOf(tb); !slices.Equal(got, vals[base+maxDeltas*per:]) {
		t.Fatalf("after reopening: %d rows", len(got))
	}
}

// A segment's few deletes stay inline in the manifest (no delta file, no
// extra fsync), survive a restart, and move to a file once they outgrow
// maxInline.
func TestDeletesInlineThenSpill(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db := openNoWAL(t, dir)
	var vals []int64
	for i := int64(0); i < 4*maxInline; i++ {
		vals = append(vals, i)
	}
	mustCreate(t, db, "t", vals...)
	for i := 0; i < 3; i++ {
		tb, _ := db.Lookup("t")
		if err := db.Delete(ctx, tb, idsWhere(tb, vals[i])); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(delFiles(t, dir)); n != 0 {
		t.Fatalf("%d delta files for 3 single-row deletes", n)
	}
	db.Close()
	db = openNoWAL(t, dir)
	tb, _ := db.Lookup("t")
	if got := keysOf(tb); !slices.Equal(got, vals[3:]) {
		t.Fatalf("after reopening: %d rows from %d", len(got), got[0])
	}
	if err := db.Delete(ctx, tb, idsWhere(tb, vals[3:maxInline+1]...)); err != nil {
		t.Fatal(err)
	}
	if n := len(delFiles(t, dir)); n != 1 {
		t.Fatalf("%d delta files after outgrowing maxInline", n)
	}
	db.Close()
	db = openNoWAL(t, dir)
	defer db.Close()
	tb, _ = db.Lookup("t")
	if got := keysOf(tb); !slices.Equal(got, vals[maxInline+1:]) || tb.Stats().Rows != int64(3*maxInline-1) {
		t.Fatalf("after reopening: %d rows", len(got))
	}
}

// Background compaction waits while a REPEATABLE READ transaction is open,
// so the RowIDs it read stay valid and its DELETE succeeds as in
// PostgreSQL.
func TestCompactionWaitsForRepeatableRead(t *testing.T) {
	ctx := context.Background()
	db := open(t, "")
	defer db.Close()
	tb := mustCreate(t, db, "t")
	for i := int64(0); i < minRun; i++ {
		db.Append(ctx, tb, intBatch(i))
	}
	rr := db.Begin()
	rr.TakeSnapshot(RepeatableRead)
	rt, _ := rr.Lookup("t")
	ids := idsWhere(rt, 2)
	if db.compactOnce() {
		t.Fatal("compaction ran under an open REPEATABLE READ transaction")
	}
	if err := rr.Delete(ctx, rt, ids); err != nil {
		t.Fatal(err)
	}
	if err := rr.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if !db.compactOnce() {
		t.Fatal("compaction did not resume after the transaction ended")
	}
	tb, _ = db.Lookup("t")
	if got := keysOf(tb); !slices.Equal(got, []int64{0, 1, 3}) {
		t.Fatalf("left %v", got)
	}
}

// Concurrent read-modify-write updates (Delete + Append, READ COMMITTED
// restart on the concurrent-update 40001) lose no update: PostgreSQL's
// UPDATE t SET v = v + 1 WHERE k = $1 from many sessions.
func TestConcurrentUpdatesLoseNothing(t *testing.T) {
	ctx := context.Background()
	db := open(t, "")
	defer db.Close()
	kv := []ColumnDef{{Name: "k", Type: types.Int8Type}, {Name: "v", Type: types.Int8Type}}
	tb, err := db.Create(ctx, "c", kv)
	if err != nil {
		t.Fatal(err)
	}
	const keys, workers, each = 3, 6, 40
	var init [][]types.Value
	for k := 0; k < keys; k++ {
		init = append(init, []types.Value{types.IntValue(int64(k)), types.IntValue(0)})
	}
	if err := db.Append(ctx, tb, rowsBatch(kv, init)); err != nil {
		t.Fatal(err)
	}
	// find returns the RowID and value of key k in the statement's snapshot.
	find := func(tb Table, k int64) (RowID, int64, bool) {
		for _, seg := range tb.(Segmented).Segments() {
			var base int64
			for _, r := range seg.Records {
				ks := r.Column(0).(*array.Int64).Int64Values()
				vs := r.Column(1).(*array.Int64).Int64Values()
				for i := range ks {
					if ks[i] == k && !seg.Deleted(base+int64(i)) {
						return MakeRowID(seg.ID, base+int64(i)), vs[i], true
					}
				}
				base += r.NumRows()
			}
		}
		return 0, 0, false
	}
	errc := make(chan error, workers)
	for w := 0; w < workers; w++ {
		go func(w int) {
			for i := 0; i < each; i++ {
				k := int64((w + i) % keys)
				txn := db.Begin()
				for {
					txn.NewStatement()
					tt, _ := txn.Lookup("c")
					id, v, ok := find(tt, k)
					if !ok {
						errc <- fmt.Errorf("key %d not found", k)
						return
					}
					err := txn.Delete(ctx, tt, []RowID{id})
					if IsConcurrentUpdate(err) {
						continue // restart the statement on a fresh snapshot
					}
					if err == nil {
						err = txn.Append(ctx, tt, rowsBatch(kv, [][]types.Value{{types.IntValue(k), types.IntValue(v + 1)}}))
					}
					if err == nil {
						err = txn.Commit(ctx)
					}
					if err != nil {
						errc <- err
						return
					}
					break
				}
			}
			errc <- nil
		}(w)
	}
	for w := 0; w < workers; w++ {
		if err := <-errc; err != nil {
			t.Fatal(err)
		}
	}
	tb, _ = db.Lookup("c")
	var total int64
	n := 0
	for _, r := range tb.Snapshot() {
		for _, v := range r.Column(1).(*array.Int64).Int64Values() {
			total += v
			n++
		}
	}
	if n != keys || total != workers*each {
		t.Fatalf("%d rows summing to %d, want %d rows summing to %d", n, total, keys, workers*each)
	}
}

// A transaction whose snapshot predates a compaction (here VACUUM, which
// does not wait for REPEATABLE READ; background compaction can also land
// between a snapshot and the statement that fixes it) deletes and locks
// rows the compaction moved, as PostgreSQL's VACUUM never makes an UPDATE
// fail: the rows are followed to their new RowIDs (forward.go). A row
// deleted by a commit it could not see still fails with 40001, and a
// transaction deleting the moved row by its new RowID waits for the lock.
func TestDeleteFollowsCompactedRows(t *testing.T) {
	ctx := context.Background()
	db := open(t, "")
	defer db.Close()
	tb := mustCreate(t, db, "t")
	for i := int64(0); i < 3; i++ {
		db.Append(ctx, tb, intBatch(10*i, 10*i+1, 10*i+2))
	}
	tb, _ = db.Lookup("t")
	if err := db.Delete(ctx, tb, idsWhere(tb, 1)); err != nil {
		t.Fatal(err)
	}
	rr := db.Begin()
	rr.TakeSnapshot(RepeatableRead)
	rt, _ := rr.Lookup("t")
	ids := idsWhere(rt, 2, 12, 21)
	gone := idsWhere(rt, 20)
	// A commit the snapshot does not see deletes 20; then VACUUM merges
	// the three segments into one.
	if err := db.Delete(ctx, tb, idsWhere(tb, 20)); err != nil {
		t.Fatal(err)
	}
	if err := db.Vacuum(ctx, []string{"t"}, false); err != nil {
		t.Fatal(err)
	}
	tb, _ = db.Lookup("t")
	if n := len(tb.(Segmented).Segments()); n != 1 {
		t.Fatalf("VACUUM left %d segments", n)
	}
	if err := rr.Delete(ctx, rt, gone); !IsConcurrentUpdate(err) {
		t.Fatalf("deleting a row a later commit deleted, compacted away since: %v, want 40001", err)
	}
	rr.Rollback()

	rr = db.Begin()
	rr.TakeSnapshot(RepeatableRead)
	rt, _ = rr.Lookup("t")
	ids = idsWhere(rt, 2, 12, 21)
	if err := db.Append(ctx, tb, intBatch(40)); err != nil { // a second segment to merge
		t.Fatal(err)
	}
	if err := db.Vacuum(ctx, []string{"t"}, true); err != nil {
		t.Fatal(err)
	}
	if err := rr.Delete(ctx, rt, ids); err != nil {
		t.Fatalf("deleting rows a compaction moved after the snapshot: %v", err)
	}
	if got := keysOf(rt); !slices.Equal(got, []int64{0, 10, 11, 22}) {
		t.Fatalf("the transaction sees %v after its delete", got)
	}
	// Another transaction deleting 12 by its new RowID waits for rr.
	other := db.Begin()
	ot, _ := other.Lookup("t")
	done := make(chan error, 1)
	go func() { done <- other.Delete(ctx, ot, idsWhere(ot, 12)) }()
	select {
	case err := <-done:
		t.Fatalf("a delete of the moved row did not wait for its lock: %v", err)
	case <-time.After(100 * time.Millisecond):
	}
	if err := rr.Commit(ctx); err != nil {
		t.Fatalf("commit: %v", err)
	}
	if err := <-done; !IsConcurrentUpdate(err) {
		t.Fatalf("the waiting delete after the holder committed: %v, want 40001", err)
	}
	other.Rollback()
	tb, _ = db.Lookup("t")
	if got := keysOf(tb); !slices.Equal(got, []int64{0, 10, 11, 22, 40}) {
		t.Fatalf("committed: %v", got)
	}
	if st := tb.Stats(); st.Rows != 5 {
		t.Fatalf("Stats.Rows %d, want 5", st.Rows)
	}
}
