package storage

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
)

// crashCopy copies dir as a SIGKILL would leave it: every acknowledged
// commit was synced, so the files' current contents are what survives.
func crashCopy(t *testing.T, dir string) string {
	t.Helper()
	out := t.TempDir()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() || e.Name() == "LOCK" {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(out, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

func tableKeys(t *testing.T, db *DB, name string) []int64 {
	t.Helper()
	tb, ok := db.Lookup(name)
	if !ok {
		t.Fatalf("table %s missing", name)
	}
	var out []int64
	for _, r := range tb.Snapshot() {
		out = append(out, r.Column(0).(*array.Int64).Int64Values()...)
	}
	slices.Sort(out)
	return out
}

// Small commits (appends, deletes, compactions) live only in the log until
// a checkpoint; a crash replays them, a torn record at the tail (a group
// never acknowledged) is cut off, and a checkpoint (DDL) folds the log into
// segment files and a manifest of the next generation.
func TestWALReplayAfterCrash(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db := open(t, dir)
	defer db.Close()
	mustCreate(t, db, "t", 1, 2, 3)
	for i := int64(4); i <= 9; i++ {
		tb, _ := db.Lookup("t")
		if err := db.Append(ctx, tb, intBatch(i)); err != nil {
			t.Fatal(err)
		}
	}
	tb, _ := db.Lookup("t")
	if err := db.Delete(ctx, tb, idsWhere(tb, 2, 5)); err != nil {
		t.Fatal(err)
	}
	for db.compactOnce() {
	}
	want := []int64{1, 3, 4, 6, 7, 8, 9}
	if got := tableKeys(t, db, "t"); !slices.Equal(got, want) {
		t.Fatalf("before the crash: %v", got)
	}
	if segs, _ := filepath.Glob(filepath.Join(dir, "seg-*")); len(segs) != 0 {
		t.Fatalf("small commits wrote segment files %v; they belong in the log", segs)
	}

	crashed := crashCopy(t, dir)
	db2 := open(t, crashed)
	if got := tableKeys(t, db2, "t"); !slices.Equal(got, want) {
		t.Fatalf("after replay: %v, want %v", got, want)
	}
	// Crashed again, before any checkpoint.
	crashed = crashCopy(t, crashed)
	db2.Close()

	// A torn append after the last acknowledged record is ignored.
	logs, _ := filepath.Glob(filepath.Join(crashed, "wal-*"))
	if len(logs) != 1 {
		t.Fatalf("log files %v", logs)
	}
	f, err := os.OpenFile(logs[0], os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	info, _ := f.Stat()
	data := make([]byte, info.Size())
	f.ReadAt(data, 0)
	end := 0
	for end+8 <= len(data) && (data[end] != 0 || data[end+1] != 0 || data[end+2] != 0 || data[end+3] != 0) {
		end += 8 + int(uint32(data[end])|uint32(data[end+1])<<8|uint32(data[end+2])<<16|uint32(data[end+3])<<24)
	}
	f.WriteAt([]byte{200, 0, 0, 0, 1, 2, 3, 4, 5, 6}, int64(end))
	f.Close()
	db3 := open(t, crashed)
	if got := tableKeys(t, db3, "t"); !slices.Equal(got, want) {
		t.Fatalf("after a torn tail: %v, want %v", got, want)
	}
	// A commit after the cut goes where the torn one was, and survives.
	tb3, _ := db3.Lookup("t")
	if err := db3.Append(ctx, tb3, intBatch(10)); err != nil {
		t.Fatal(err)
	}
	crashed2 := crashCopy(t, crashed)
	db4 := open(t, crashed2)
	want = append(want, 10)
	if got := tableKeys(t, db4, "t"); !slices.Equal(got, want) {
		t.Fatalf("after the commit that followed the cut: %v, want %v", got, want)
	}

	// DDL checkpoints: the rows move to segment files, the log starts over.
	if _, err := db4.Create(ctx, "u", kCols); err != nil {
		t.Fatal(err)
	}
	if segs, _ := filepath.Glob(filepath.Join(crashed2, "seg-*")); len(segs) == 0 {
		t.Fatal("the checkpoint wrote no segment file")
	}
	crashed3 := crashCopy(t, crashed2)
	db5 := open(t, crashed3)
	defer db5.Close()
	if got := tableKeys(t, db5, "t"); !slices.Equal(got, want) {
		t.Fatalf("after the checkpoint: %v, want %v", got, want)
	}
	db3.Close()
	db4.Close()
}
