package storage

import (
	"context"
	"testing"
)

// tableBytes is what pg_relation_size reads: a transaction's view of t.
func tableBytes(t *testing.T, db *DB, name string) int64 {
	t.Helper()
	txn := db.Begin()
	defer txn.Rollback()
	tb, ok := txn.Lookup(name)
	if !ok {
		t.Fatalf("no table %s", name)
	}
	return tb.(TableSizer).DiskBytes()
}

// TestDiskBytes: a table's bytes are its segments' — a logged segment's
// record data (uncompressed Arrow IPC), a file's size (compressed, once a
// checkpoint wrote it) — they grow with its rows, and after a restart are
// the files'; the data directory holds at least them.
func TestDiskBytes(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db := open(t, dir)
	mustCreate(t, db, "t")
	if n := tableBytes(t, db, "t"); n != 0 {
		t.Fatalf("empty table: %d bytes", n)
	}
	tb, _ := db.Lookup("t")
	if err := db.Append(ctx, tb, intBatch(1, 2, 3)); err != nil {
		t.Fatal(err)
	}
	small := tableBytes(t, db, "t")
	if small <= 0 {
		t.Fatalf("3 rows: %d bytes", small)
	}
	vals := make([]int64, 20000)
	for i := range vals {
		vals[i] = int64(i)
	}
	tb, _ = db.Lookup("t")
	if err := db.Append(ctx, tb, intBatch(vals...)); err != nil {
		t.Fatal(err)
	}
	big := tableBytes(t, db, "t")
	if big <= small {
		t.Fatalf("after 20000 more rows %d bytes, before %d", big, small)
	}
	txn := db.Begin()
	if d := txn.DirBytes(); d < big {
		t.Fatalf("data directory %d bytes < the table's %d", d, big)
	}
	txn.Rollback()
	db.Close()
	db = open(t, dir)
	defer db.Close()
	files := db.Usage().Tables[0].Bytes
	if n := tableBytes(t, db, "t"); n <= 0 || n != files {
		t.Fatalf("after a restart %d bytes, its segment files %d", n, files)
	}
}
