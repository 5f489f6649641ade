package storage

import (
	"context"
	"math"
	"sync"
	"testing"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/types"
)

func seqDef(name string) Sequence {
	return Sequence{Name: name, Type: types.Int8, Start: 1, Increment: 1, Min: 1, Max: math.MaxInt64, Cache: 1}
}

func nextval(t *testing.T, db *DB, name string) int64 {
	t.Helper()
	txn := db.Begin()
	defer txn.Rollback()
	v, _, err := txn.NextVal(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// A created sequence counts in its transaction, survives its commit with
// that state, and a restart continues after the durable mark, never
// repeating a value.
func TestSequenceDurableMark(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db, err := Open(dir, Options{NoCompaction: true})
	if err != nil {
		t.Fatal(err)
	}
	txn := db.Begin()
	if _, err := txn.CreateSequence(ctx, seqDef("s")); err != nil {
		t.Fatal(err)
	}
	if v, _, err := txn.NextVal(ctx, "s"); err != nil || v != 1 {
		t.Fatalf("nextval in the creating transaction = %d, %v", v, err)
	}
	if err := txn.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	for want := int64(2); want <= 5; want++ {
		if v := nextval(t, db, "s"); v != want {
			t.Fatalf("nextval = %d, want %d", v, want)
		}
	}
	st, _ := db.Begin().SequenceState("s")
	// The creating transaction's counter goes on after its commit, with
	// the values its mark reserved.
	if st.LastValue != 5 || st.LogCnt != 28 || !st.IsCalled {
		t.Fatalf("state %+v, want 5/28/true (PostgreSQL's)", st)
	}
	db.Close()
	db, err = Open(dir, Options{NoCompaction: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	// The mark the first value logged (the commit's) reserved up to 1+32.
	if v := nextval(t, db, "s"); v != 34 {
		t.Fatalf("nextval after restart = %d, want 34", v)
	}
}

// A rolled-back creation leaves nothing; a rolled-back nextval is not
// returned again; RESTART and DROP are transactional.
func TestSequenceTransactions(t *testing.T) {
	ctx := context.Background()
	db, _ := Open("", Options{NoCompaction: true})
	defer db.Close()
	txn := db.Begin()
	txn.CreateSequence(ctx, seqDef("gone"))
	txn.Rollback()
	if _, ok := db.Begin().LookupSequence("gone"); ok {
		t.Fatal("rolled-back sequence exists")
	}
	txn = db.Begin()
	txn.CreateSequence(ctx, seqDef("s"))
	txn.Commit(ctx)
	txn = db.Begin()
	txn.NextVal(ctx, "s")
	txn.Rollback()
	if v := nextval(t, db, "s"); v != 2 {
		t.Fatalf("after a rolled-back nextval got %d, want 2", v)
	}
	txn = db.Begin()
	r := int64(1)
	d := seqDef("s")
	if err := txn.AlterSequence(ctx, "s", d, &r); err != nil {
		t.Fatal(err)
	}
	if v := nextval(t, db, "s"); v != 3 {
		t.Fatalf("uncommitted RESTART seen by others: %d", v)
	}
	if err := txn.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if v := nextval(t, db, "s"); v != 1 {
		t.Fatalf("after RESTART got %d, want 1", v)
	}
	txn = db.Begin()
	if _, err := txn.Create(ctx, "s", nil); pgerr.Code(err) != pgerr.DuplicateTable {
		t.Fatalf("table named like a sequence: %v", err)
	}
	txn.DropSequence(ctx, "s")
	txn.Commit(ctx)
	if _, ok := db.Begin().LookupSequence("s"); ok {
		t.Fatal("dropped sequence exists")
	}
}

// Concurrent nextval calls never hand out a value twice.
func TestSequenceConcurrent(t *testing.T) {
	ctx := context.Background()
	db, _ := Open(t.TempDir(), Options{NoCompaction: true, NoSync: true})
	defer db.Close()
	txn := db.Begin()
	txn.CreateSequence(ctx, seqDef("s"))
	txn.Commit(ctx)
	var mu sync.Mutex
	seen := map[int64]bool{}
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 200; i++ {
				v := nextval(t, db, "s")
				mu.Lock()
				if seen[v] {
					t.Errorf("value %d handed out twice", v)
				}
				seen[v] = true
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if len(seen) != 1600 {
		t.Fatalf("%d values", len(seen))
	}
}

// fetch follows PostgreSQL's limits: the maximum fails with 2200H unless
// CYCLE, which wraps to the minimum.
func TestSequenceLimits(t *testing.T) {
	d := seqDef("s")
	d.Max = 2
	r := &seqRun{last: 1}
	for _, want := range []int64{1, 2} {
		v, last, _, _, log, err := fetch(&d, r)
		if err != nil || v != want {
			t.Fatalf("fetch = %d, %v; want %d", v, err, want)
		}
		r.last, r.called, r.logCnt = last, true, log
	}
	if _, _, _, _, _, err := fetch(&d, r); pgerr.Code(err) != "2200H" {
		t.Fatalf("past the maximum: %v", err)
	}
	d.Cycle = true
	if v, _, _, _, _, _ := fetch(&d, r); v != 1 {
		t.Fatalf("cycled to %d, want 1", v)
	}
}

// ALTER without RESTART and RENAME keep the counter (no value repeats);
// a mark made under an older definition is refused as stale.
func TestSequenceAlterKeepsCounter(t *testing.T) {
	ctx := context.Background()
	db, _ := Open(t.TempDir(), Options{NoCompaction: true, NoSync: true})
	defer db.Close()
	txn := db.Begin()
	txn.CreateSequence(ctx, seqDef("s"))
	txn.Commit(ctx)
	nextval(t, db, "s")
	nextval(t, db, "s")
	before, _ := db.Begin().LookupSequence("s")
	e := db.publishedSeq(before.ID)
	txn = db.Begin()
	d := seqDef("r")
	d.Increment = 10
	if err := txn.AlterSequence(ctx, "s", d, nil); err != nil {
		t.Fatal(err)
	}
	if err := txn.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if v := nextval(t, db, "r"); v != 12 {
		t.Fatalf("after ALTER INCREMENT 10 and RENAME: %d, want 12", v)
	}
	if _, ok := db.Begin().LookupSequence("s"); ok {
		t.Fatal("old name still there")
	}
	if err := db.mark(before.ID, seqMark{epoch: e.epoch, last: 1000, called: true}); err != errSeqStale {
		t.Fatalf("stale mark: %v", err)
	}
}

// A transaction that restarted a committed sequence counts on its own
// counter from the restart value, which others do not see; its rollback
// undoes the restart, its commit publishes the counter, durably: after the
// data directory is reopened nothing it handed out comes again. A
// transaction that altered the counter's parameters without a restart
// cannot use it before COMMIT.
func TestSequenceRestartedInTxn(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db, err := Open(dir, Options{NoCompaction: true})
	if err != nil {
		t.Fatal(err)
	}
	txn := db.Begin()
	txn.CreateSequence(ctx, seqDef("s"))
	if err := txn.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	restartAt := func(txn *Txn, r int64) {
		t.Helper()
		if err := txn.AlterSequence(ctx, "s", seqDef("s"), &r); err != nil {
			t.Fatal(err)
		}
	}
	own := func(txn *Txn, want int64) {
		t.Helper()
		if v, _, err := txn.NextVal(ctx, "s"); err != nil || v != want {
			t.Fatalf("nextval in the restarting transaction = %d, %v; want %d", v, err, want)
		}
	}
	txn = db.Begin()
	restartAt(txn, 100)
	own(txn, 100)
	own(txn, 101)
	if v := nextval(t, db, "s"); v != 1 {
		t.Fatalf("another transaction's nextval = %d, want 1", v)
	}
	txn.Rollback()
	if v := nextval(t, db, "s"); v != 2 {
		t.Fatalf("nextval after the rolled-back restart = %d, want 2", v)
	}

	txn = db.Begin()
	restartAt(txn, 100)
	own(txn, 100)
	if err := txn.SetVal(ctx, "s", 200, true); err != nil {
		t.Fatal(err)
	}
	own(txn, 201)
	if st, _ := txn.SequenceState("s"); st.LastValue != 201 || !st.IsCalled {
		t.Fatalf("state in the transaction %+v, want 201 called", st)
	}
	if err := txn.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if v := nextval(t, db, "s"); v != 202 {
		t.Fatalf("nextval after the committed restart = %d, want 202", v)
	}
	db.Close()
	if db, err = Open(dir, Options{NoCompaction: true}); err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	// The mark of 201 (setval's, then the nextval's) reserved to 201+32.
	if v := nextval(t, db, "s"); v != 234 {
		t.Fatalf("nextval after reopening = %d, want 234", v)
	}

	txn = db.Begin()
	defer txn.Rollback()
	def := seqDef("s")
	def.Increment = 5
	if err := txn.AlterSequence(ctx, "s", def, nil); err != nil {
		t.Fatal(err)
	}
	if _, _, err := txn.NextVal(ctx, "s"); err == nil || pgerr.Code(err) != pgerr.FeatureNotSupported {
		t.Fatalf("nextval after ALTER ... INCREMENT in the transaction: %v", err)
	}
}

// Other transactions' nextval calls race a transaction that restarts the
// sequence, counts on its own counter and commits: before the commit they
// take the shared counter's values, after it the restarted counter's
// successors, and no value comes twice (run under -race).
func TestSequenceRestartCommitRacesNextval(t *testing.T) {
	ctx := context.Background()
	db, _ := Open(t.TempDir(), Options{NoCompaction: true, NoSync: true})
	defer db.Close()
	txn := db.Begin()
	txn.CreateSequence(ctx, seqDef("s"))
	if err := txn.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	const workers, calls = 4, 200
	got := make([][]int64, workers+1)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; i < calls; i++ {
				txn := db.Begin()
				v, _, err := txn.NextVal(ctx, "s")
				txn.Rollback()
				if err != nil {
					t.Error(err)
					return
				}
				got[w] = append(got[w], v)
			}
		}(w)
	}
	txn = db.Begin()
	r := int64(100000)
	if err := txn.AlterSequence(ctx, "s", seqDef("s"), &r); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 50; i++ {
		v, _, err := txn.NextVal(ctx, "s")
		if err != nil {
			t.Fatal(err)
		}
		got[workers] = append(got[workers], v)
	}
	if err := txn.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	seen := map[int64]bool{}
	for _, vs := range got {
		for _, v := range vs {
			if seen[v] {
				t.Fatalf("value %d handed out twice", v)
			}
			seen[v] = true
		}
	}
	if v := nextval(t, db, "s"); v <= 100049 {
		t.Fatalf("nextval after the commit = %d, want past the restarted counter's 100049", v)
	}
}
