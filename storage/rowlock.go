package storage

import (
	"context"
	"sync"

	"github.com/joind/joind/pgerr"
)

// Row locks. A transaction that deletes (or updates) a committed row takes
// the row's lock in the DB-wide lockTable and keeps it until it commits or
// rolls back (or rolls back to a savepoint set before it took the lock). A
// transaction that wants a row another live transaction holds waits until
// that one releases it, as PostgreSQL's row-level locks make a second
// UPDATE wait for the first to end.
//
// INVARIANTS:
//   - At most one transaction holds a row's lock at a time.
//   - A transaction releases its locks only after its commit was published
//     (or it rolled back), so a waiter that obtains a lock and then loads
//     the published version sees the holder's delete if it committed one
//     (Delete's lockCurrent), and fails with the concurrent-update 40001.
//   - acquire takes all the rows of one call or none, and waits for one
//     holder at a time; a wait that would close a cycle of waiting
//     transactions fails with 40P01 instead (so waits never deadlock), a
//     cancelled wait with the context's error (57014 from the engine).
//   - The committer's check (applyPending) does not depend on the locks:
//     they make concurrent deleters wait instead of failing at commit.
type lockTable struct {
	mu    sync.Mutex
	segs  map[lockKey][]*lockHold // holders of rows of one segment
	held  map[*Txn][]lockKey      // segments each transaction holds rows of
	waits map[*Txn]*Txn           // waiter → the holder it waits for
	// retiring are segments a compaction the committer applied replaces
	// (until its group is published or fails): no lock is granted on them.
	retiring map[lockKey]bool
	// changed is closed (and replaced) when retiring marks are lifted.
	changed chan struct{}
	// released[t] is closed when t releases locks: only the transactions
	// waiting for t wake, not every waiter (with 8 sessions updating one
	// hot row, waking all of them on every commit made them compete for
	// the CPU with the holder's next statements).
	released map[*Txn]chan struct{}
}

type lockKey struct{ table, seg uint64 }

// lockHold is the rows of one segment one transaction holds, as a bitmap
// (mutable, guarded by lockTable.mu), with the rows taken under each
// savepoint's lock mark (see releaseFrom).
type lockHold struct {
	owner *Txn
	words []uint64
	// marks[i] is the bits set while the transaction's lock mark was i
	// (Txn.lockMark), so rolling back to a savepoint clears them.
	marks map[int][]int64
}

func newLockTable() *lockTable {
	return &lockTable{segs: map[lockKey][]*lockHold{}, held: map[*Txn][]lockKey{},
		waits: map[*Txn]*Txn{}, retiring: map[lockKey]bool{}, changed: make(chan struct{}), released: map[*Txn]chan struct{}{}}
}

func (h *lockHold) has(off int64) bool {
	w := int(off >> 6)
	return w < len(h.words) && h.words[w]>>(uint(off)&63)&1 != 0
}

func (h *lockHold) set(off int64) bool {
	w := int(off >> 6)
	for w >= len(h.words) {
		h.words = append(h.words, 0)
	}
	if h.words[w]>>(uint(off)&63)&1 != 0 {
		return false
	}
	h.words[w] |= 1 << (uint(off) & 63)
	return true
}

// blocker returns a transaction other than t holding one of rows.
func (lt *lockTable) blocker(t *Txn, table uint64, rows []segRows) *Txn {
	for _, g := range rows {
		for _, h := range lt.segs[lockKey{table, g.seg}] {
			if h.owner == t {
				continue
			}
			for _, off := range g.offs {
				if h.has(off) {
					return h.owner
				}
			}
		}
	}
	return nil
}

// acquire takes the locks of rows of table for t, waiting for holders and
// for a compaction of their segments to be published (after which
// Delete's check finds the segment gone).
func (lt *lockTable) acquire(ctx context.Context, cs commitSync, t *Txn, table uint64, rows []segRows) error {
	cs.lockPoint()
	lt.mu.Lock()
	for {
		b := lt.blocker(t, table, rows)
		if b == nil {
			if !lt.retiringAny(table, rows) {
				break
			}
			ch := lt.changed
			lt.mu.Unlock()
			if err := cs.lockWait(ctx, ch); err != nil {
				return err
			}
			lt.mu.Lock()
			continue
		}
		for x := b; x != nil; x = lt.waits[x] {
			if x == t {
				lt.mu.Unlock()
				return pgerr.New(codeDeadlock, "deadlock detected")
			}
		}
		lt.waits[t] = b
		ch := lt.released[b]
		if ch == nil {
			ch = make(chan struct{})
			lt.released[b] = ch
		}
		lt.mu.Unlock()
		err := cs.lockWait(ctx, ch)
		lt.mu.Lock()
		delete(lt.waits, t)
		if err != nil {
			lt.mu.Unlock()
			return err
		}
	}
	defer lt.mu.Unlock()
	for _, g := range rows {
		k := lockKey{table, g.seg}
		var h *lockHold
		for _, x := range lt.segs[k] {
			if x.owner == t {
				h = x
			}
		}
		if h == nil {
			h = &lockHold{owner: t}
			lt.segs[k] = append(lt.segs[k], h)
			lt.held[t] = append(lt.held[t], k)
		}
		for _, off := range g.offs {
			if h.set(off) && t.lockMark > 0 {
				if h.marks == nil {
					h.marks = map[int][]int64{}
				}
				h.marks[t.lockMark] = append(h.marks[t.lockMark], off)
			}
		}
	}
	return nil
}

// release drops every lock t holds and wakes the waiters.
func (lt *lockTable) release(t *Txn) {
	lt.mu.Lock()
	defer lt.mu.Unlock()
	keys, ok := lt.held[t]
	if !ok {
		return
	}
	for _, k := range keys {
		hs := lt.segs[k]
		out := hs[:0]
		for _, h := range hs {
			if h.owner != t {
				out = append(out, h)
			}
		}
		if len(out) == 0 {
			delete(lt.segs, k)
		} else {
			lt.segs[k] = out
		}
	}
	delete(lt.held, t)
	lt.wakeWaitersOf(t)
}

// releaseFrom drops the locks t took while its lock mark was mark or
// higher (a rollback to the savepoint that set mark).
func (lt *lockTable) releaseFrom(t *Txn, mark int) {
	lt.mu.Lock()
	defer lt.mu.Unlock()
	released := false
	for _, k := range lt.held[t] {
		for _, h := range lt.segs[k] {
			if h.owner != t {
				continue
			}
			for m, offs := range h.marks {
				if m < mark {
					continue
				}
				for _, off := range offs {
					h.words[off>>6] &^= 1 << (uint(off) & 63)
				}
				delete(h.marks, m)
				released = true
			}
		}
	}
	if released {
		lt.wakeWaitersOf(t)
	}
}

// wakeWaitersOf wakes the transactions waiting for t (lt.mu held).
func (lt *lockTable) wakeWaitersOf(t *Txn) {
	if ch, ok := lt.released[t]; ok {
		close(ch)
		delete(lt.released, t)
	}
}

func (lt *lockTable) wake() {
	close(lt.changed)
	lt.changed = make(chan struct{})
}

func (lt *lockTable) retiringAny(table uint64, rows []segRows) bool {
	for _, g := range rows {
		if lt.retiring[lockKey{table, g.seg}] {
			return true
		}
	}
	return false
}

// retire marks segs of table retiring unless a live transaction holds a
// lock on one of their rows (then it reports false and marks nothing):
// checking and marking under one lock orders every acquire before or
// after the compaction's decision.
func (lt *lockTable) retire(table uint64, segs []*segment) bool {
	lt.mu.Lock()
	defer lt.mu.Unlock()
	for _, s := range segs {
		if len(lt.segs[lockKey{table, s.id}]) > 0 {
			return false
		}
	}
	for _, s := range segs {
		lt.retiring[lockKey{table, s.id}] = true
	}
	return true
}

// unretire lifts retire's marks and wakes the lockers waiting on them.
func (lt *lockTable) unretire(table uint64, segs []*segment) {
	lt.mu.Lock()
	defer lt.mu.Unlock()
	for _, s := range segs {
		delete(lt.retiring, lockKey{table, s.id})
	}
	lt.wake()
}
