package storage

import (
	"context"
	"os"
	"syscall"
	"testing"

	"github.com/joind/joind/types"
)

// withoutFreeFiles runs fn with the process's open-file limit at the
// descriptors already open, so the next open fails with EMFILE (the fault
// 200 idle connections once caused).
func withoutFreeFiles(t *testing.T, fn func() error) error {
	t.Helper()
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		t.Fatal(err)
	}
	// The kernel hands out the lowest free descriptor: a probe's number,
	// as the limit, leaves no descriptor any open could take.
	probe, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	low := lim
	low.Cur = uint64(probe.Fd())
	probe.Close()
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &low); err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
			t.Fatal(err)
		}
	}()
	return fn()
}

// TestFailedManifestWriteRecovers: a CREATE TABLE whose MANIFEST.tmp cannot
// be opened (EMFILE) and an append whose segment cannot be written fail
// alone; once descriptors are free again the same DB takes writes without
// a restart, and a reopen finds exactly the commits that succeeded.
func TestFailedManifestWriteRecovers(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db := openNoWAL(t, dir)
	cols := []ColumnDef{{Name: "a", Type: types.Int4Type}}
	tb, err := db.Create(ctx, "before", cols)
	if err != nil {
		t.Fatal(err)
	}
	if err := withoutFreeFiles(t, func() error { _, err := db.Create(ctx, "during", cols); return err }); err == nil {
		t.Fatal("CREATE TABLE without a free descriptor succeeded")
	}
	row := rowsBatch(cols, [][]types.Value{{{I: 1}}})
	if err := withoutFreeFiles(t, func() error { return db.Append(ctx, tb, row) }); err == nil {
		t.Fatal("an append without a free descriptor succeeded")
	}
	if _, err := db.Create(ctx, "after", cols); err != nil {
		t.Fatalf("CREATE TABLE once descriptors are free: %v", err)
	}
	if err := db.Append(ctx, tb, row); err != nil {
		t.Fatalf("append once descriptors are free: %v", err)
	}
	db.Close()

	db = openNoWAL(t, dir)
	defer db.Close()
	for name, want := range map[string]bool{"before": true, "during": false, "after": true} {
		if _, ok := db.Lookup(name); ok != want {
			t.Errorf("table %s present=%v after reopen, want %v", name, ok, want)
		}
	}
	tb, _ = db.Lookup("before")
	if n := sumRows(tb.Snapshot()); n != 1 {
		t.Errorf("before has %d rows, want 1", n)
	}
	if _, err := os.Stat(dir + "/" + manifestTemp); !os.IsNotExist(err) {
		t.Errorf("%s left behind: %v", manifestTemp, err)
	}
}

// TestHalfFailedManifestIsRewritten: a manifest write that failed after
// its rename could be seen (failedManifest) refuses commits until the next
// group rewrites the durable state's manifest, then commits resume.
func TestHalfFailedManifestIsRewritten(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db := openNoWAL(t, dir)
	defer db.Close()
	cols := []ColumnDef{{Name: "a", Type: types.Int4Type}}
	if _, err := db.Create(ctx, "t1", cols); err != nil {
		t.Fatal(err)
	}
	// As the committer leaves it after a failed directory fsync.
	db.failed, db.failedManifest = errClosed, true
	if _, err := db.Create(ctx, "t2", cols); err != nil {
		t.Fatalf("commit after the manifest could be rewritten: %v", err)
	}
	if db.failed != nil {
		t.Fatalf("still failed: %v", db.failed)
	}
}
