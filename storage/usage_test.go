package storage

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestUsageCountsSegmentsDeletesAndCompactions(t *testing.T) {
	ctx := context.Background()
	db := openNoWAL(t, t.TempDir())
	defer db.Close()
	tb := mustCreate(t, db, "t")
	for i := int64(0); i < minRun; i++ {
		if err := db.Append(ctx, tb, intBatch(10*i, 10*i+1)); err != nil {
			t.Fatal(err)
		}
	}
	tb, _ = db.Lookup("t")
	if err := db.Delete(ctx, tb, idsWhere(tb, 1)); err != nil {
		t.Fatal(err)
	}
	before := db.Usage()
	if len(before.Tables) != 1 {
		t.Fatalf("tables %+v", before.Tables)
	}
	u := before.Tables[0]
	if u.Name != "t" || u.LiveRows != 7 || u.DeletedRows != 1 || u.Segments < 1 || u.Bytes <= 0 {
		t.Fatalf("before compaction %+v", u)
	}
	for db.compactOnce() {
	}
	after := db.Usage()
	if got := after.Tables[0]; got.Segments != 1 || got.LiveRows != 7 || got.DeletedRows != 0 {
		t.Fatalf("after compaction %+v", got)
	}
	if after.Compactions <= before.Compactions {
		t.Fatalf("compactions %d then %d", before.Compactions, after.Compactions)
	}
}

func TestVerifyFindsADamagedSegment(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db := openNoWAL(t, dir)
	tb := mustCreate(t, db, "t")
	if err := db.Append(ctx, tb, intBatch(1, 2, 3)); err != nil {
		t.Fatal(err)
	}
	var seen int64
	files, err := db.Verify(func(n int64) { seen += n })
	if err != nil || files != 1 || seen != db.Usage().Tables[0].Bytes {
		t.Fatalf("intact: %d files, %d bytes, %v", files, seen, err)
	}
	v := db.cs.load()
	seg := v.tables["t"].segs[0]
	path := filepath.Join(dir, segmentFile(seg.id))
	data, rerr := os.ReadFile(path)
	if rerr != nil {
		t.Fatal(rerr)
	}
	data[len(data)/2] ^= 0xff
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Verify(nil); err == nil || !strings.Contains(err.Error(), "checksum mismatch") {
		t.Fatalf("damaged: %v", err)
	}
	db.Close()
}
