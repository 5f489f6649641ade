package storage

import (
	"context"
	"testing"
	"time"
)

// A Delete's lock on a row of a segment that a decided, unpublished
// compaction replaces waits until the compaction is published or failed
// (lockTable.retire), and compaction leaves a segment with a held lock.
func TestRetireBlocksAcquire(t *testing.T) {
	lt := newLockTable()
	segs := []*segment{{id: 7}}
	if !lt.retire(1, segs) {
		t.Fatal("retire refused with no locks held")
	}
	tx := &Txn{}
	done := make(chan error, 1)
	go func() {
		done <- lt.acquire(context.Background(), chanSync{}, tx, 1, []segRows{{seg: 7, offs: []int64{0}}})
	}()
	select {
	case err := <-done:
		t.Fatalf("acquire on a retiring segment returned %v before unretire", err)
	case <-time.After(50 * time.Millisecond):
	}
	lt.unretire(1, segs)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if lt.retire(1, segs) {
		t.Fatal("retire marked a segment with a held row lock")
	}
	// Another segment of the table is not affected.
	if err := lt.acquire(context.Background(), chanSync{}, tx, 1, []segRows{{seg: 8, offs: []int64{1}}}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	lt.retire(1, []*segment{{id: 9}})
	cancel()
	if err := lt.acquire(ctx, chanSync{}, tx, 1, []segRows{{seg: 9, offs: []int64{0}}}); err == nil {
		t.Fatal("a cancelled wait on a retiring segment succeeded")
	}
}
