package storage

import (
	"context"
	"errors"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/joind/joind/pgerr"
)

// Deletes. A row is named by a RowID: its segment's id and its physical
// offset in that segment (deleted rows keep their offsets, so RowIDs of
// live rows never move while the segment exists). The rows a transaction
// appended form one virtual segment per table (pending.appendSeg) whose
// offsets count the pending batches in order, so they have RowIDs too.
//
// A version keeps, per table, a DeleteVector per segment with deleted
// rows (tableState.dels); segments themselves stay immutable files. A
// transaction's deletes are DeleteVectors in pending.deletes, merged into
// the committed ones by the committer (applyPending), which refuses a
// commit whose deletes hit a row already deleted in the current version
// or a segment that is gone (40001): whatever the row locks (rowlock.go)
// did or did not prevent, a row is deleted at most once and never by a
// commit that could not see it. Rows a compaction moved since a
// transaction's snapshot are followed to their new RowIDs (forward.go).
//
// INVARIANTS: every reader of a version sees exactly the live rows of its
// segments (Snapshot filters, Segments hands the vector to the scan);
// deleted rows still count in a segment's statistics, which only ever
// widen (null counts and distinct values over-estimate, bounds are those
// of the rows written), while Stats.Rows counts live rows exactly.

// RowID names one row of a table within a transaction: segment id << 32 |
// physical offset within the segment.
type RowID int64

// MakeRowID builds the RowID of offset off of segment seg.
func MakeRowID(seg uint64, off int64) RowID { return RowID(int64(seg)<<32 | off) }

// Segment is the id of the row's segment.
func (r RowID) Segment() uint64 { return uint64(r) >> 32 }

// Offset is the row's physical offset in its segment.
func (r RowID) Offset() int64 { return int64(r) & (1<<32 - 1) }

// errConcurrentUpdate marks the 40001 of a row changed by a commit the
// statement could not see.
var errConcurrentUpdate = errors.New("concurrent update")

func concurrentUpdate() error {
	return pgerr.Wrap(errConcurrentUpdate, codeSerialization, "could not serialize access due to concurrent update")
}

// IsConcurrentUpdate reports whether err is Delete's (or Commit's) 40001
// for a row another transaction deleted or updated after the statement's
// snapshot: under READ COMMITTED the engine undoes the statement and runs
// it again on a fresh snapshot (PostgreSQL's EvalPlanQual re-check, done
// by statement restart); under REPEATABLE READ and SERIALIZABLE it goes to
// the client, as in PostgreSQL.
func IsConcurrentUpdate(err error) bool { return errors.Is(err, errConcurrentUpdate) }

// segRows is the offsets of one segment a Delete names, ascending.
type segRows struct {
	seg  uint64
	offs []int64
}

// groupRowIDs sorts ids by segment and offset.
func groupRowIDs(ids []RowID) []segRows {
	s := slices.Clone(ids)
	slices.Sort(s)
	var out []segRows
	for _, id := range s {
		if len(out) == 0 || out[len(out)-1].seg != id.Segment() {
			out = append(out, segRows{seg: id.Segment()})
		}
		g := &out[len(out)-1]
		g.offs = append(g.offs, id.Offset())
	}
	return out
}

// Delete implements Catalog: it marks rows ids of tb deleted for this
// transaction (its later statements no longer see them) and, at Commit,
// for everyone. It takes each committed row's lock first (rowlock.go),
// waiting for a transaction holding it to end; a row deleted by a commit
// after this statement's snapshot then fails with IsConcurrentUpdate's
// 40001. Naming a row this transaction already deleted, or one that is not
// in its snapshot, is the caller's error (XX000).
func (t *Txn) Delete(ctx context.Context, tb Table, ids []RowID) error {
	if t.done {
		return errDone
	}
	tt, err := t.own(tb)
	if err != nil {
		return err
	}
	if len(ids) == 0 {
		return nil
	}
	groups := groupRowIDs(ids)
	cs := tt.committed()
	pseg, hasPending := t.p.appendSeg[tt.id]
	mine := t.p.deletes[tt.id]
	next := make(map[uint64]*DeleteVector, len(groups))
	var locks []segRows
	for _, g := range groups {
		var rows int64
		var base *DeleteVector
		switch {
		case hasPending && g.seg == pseg:
			rows = pendingRows(t.p.appends[tt.id])
		default:
			s := cs.segment(g.seg)
			if s == nil {
				return pgerr.New(pgerr.InternalError, "delete from %q: row (%d,%d) is not in the transaction's snapshot", BareName(tt.name), g.seg, g.offs[0])
			}
			rows, base = s.rows, cs.dels[g.seg]
			locks = append(locks, g)
		}
		for i, off := range g.offs {
			if off >= rows || base.Deleted(off) || (i > 0 && g.offs[i-1] == off) {
				return pgerr.New(pgerr.InternalError, "delete from %q: row (%d,%d) is not a live row of the transaction's snapshot", BareName(tt.name), g.seg, off)
			}
		}
		dv, dup := mine[g.seg].with(g.offs)
		if dup >= 0 {
			return pgerr.New(pgerr.InternalError, "delete from %q: row (%d,%d) was already deleted by this transaction", BareName(tt.name), g.seg, dup)
		}
		next[g.seg] = dv
	}
	if len(locks) > 0 {
		t.locked = true
		moved, err := t.lockCurrent(ctx, tt.id, locks)
		if err != nil {
			return err
		}
		// Rows a compaction moved since the snapshot are deleted under
		// their new RowIDs too, for this transaction's later snapshots.
		for _, g := range moved {
			dv, dup := mine[g.seg].with(g.offs)
			if dup >= 0 {
				return pgerr.New(pgerr.InternalError, "delete from %q: row (%d,%d) was already deleted by this transaction", BareName(tt.name), g.seg, dup)
			}
			next[g.seg] = dv
		}
	}
	m := make(map[uint64]*DeleteVector, len(mine)+len(next))
	for k, v := range mine {
		m[k] = v
	}
	for k, v := range next {
		m[k] = v
	}
	t.p.deletes[tt.id] = m
	return nil
}

// lockCurrent takes the locks of rows (of the transaction's snapshot) and
// checks them against the current version: a row a commit deleted since
// fails with the concurrent-update 40001. The rows of segments a
// compaction replaced since are followed to where they are now
// (forward.go), locked there too, and returned by their current RowIDs.
func (t *Txn) lockCurrent(ctx context.Context, table uint64, rows []segRows) (moved []segRows, err error) {
	want := rows
	for hops := 0; ; hops++ {
		if err := t.db.locks.acquire(ctx, t.db.cs, t, table, want); err != nil {
			return nil, err
		}
		// The locks are ours: a commit that deleted one of the rows has
		// been published by now (a holder releases after publication).
		cur := t.db.cs.load().byID[table]
		var again []segRows
		for _, g := range want {
			if cur.segment(g.seg) == nil {
				f, ok := cur.forwardRows(g)
				if !ok {
					return nil, concurrentUpdate()
				}
				again = append(again, f)
				continue
			}
			if dv := cur.dels[g.seg]; dv.Count() > 0 {
				for _, off := range g.offs {
					if dv.Deleted(off) {
						return nil, concurrentUpdate()
					}
				}
			}
			if hops > 0 {
				moved = append(moved, g)
			}
		}
		// Each hop follows compactions published since the last; locks
		// on the new segments keep further ones off them, so a few
		// suffice.
		if len(again) == 0 {
			return moved, nil
		}
		if hops == 3 {
			return nil, concurrentUpdate()
		}
		want = again
	}
}

// segment finds segment id in t (nil if t is nil or has none).
func (t *tableState) segment(id uint64) *segment {
	if t == nil {
		return nil
	}
	for _, s := range t.segs {
		if s.id == id {
			return s
		}
	}
	return nil
}

// liveRows is the number of rows of t not deleted.
func (t *tableState) liveRows() int64 {
	n := t.rows
	for _, dv := range t.dels {
		n -= dv.Count()
	}
	return n
}

func pendingRows(recs []arrow.Record) int64 {
	var n int64
	for _, r := range recs {
		n += r.NumRows()
	}
	return n
}

// liveRecords returns recs (consecutive batches starting at offset 0 of a
// segment) without the rows dv deletes; batches without deleted rows are
// returned as they are.
func liveRecords(recs []arrow.Record, dv *DeleteVector) []arrow.Record {
	if dv.Count() == 0 {
		return recs
	}
	out := make([]arrow.Record, 0, len(recs))
	var base int64
	for _, r := range recs {
		n := r.NumRows()
		if dv.Any(base, base+n) {
			if lr := filterRecord(r, dv, base); lr.NumRows() > 0 {
				out = append(out, lr)
			}
		} else {
			out = append(out, r)
		}
		base += n
	}
	return out
}

// filterRecord copies the live rows of rec, whose first row is offset base
// of dv's segment, as runs of consecutive live rows.
func filterRecord(rec arrow.Record, dv *DeleteVector, base int64) arrow.Record {
	n := rec.NumRows()
	type run struct{ lo, hi int64 }
	var runs []run
	var live int64
	for i := int64(0); i < n; {
		for i < n && dv.Deleted(base+i) {
			i++
		}
		j := i
		for j < n && !dv.Deleted(base+j) {
			j++
		}
		if j > i {
			runs = append(runs, run{i, j})
			live += j - i
		}
		i = j
	}
	cols := make([]arrow.Array, rec.NumCols())
	for c := range cols {
		parts := make([]arrow.Array, len(runs))
		for k, r := range runs {
			parts[k] = array.NewSlice(rec.Column(c), r.lo, r.hi)
		}
		if len(parts) == 0 {
			parts = []arrow.Array{array.NewSlice(rec.Column(c), 0, 0)}
		}
		a, err := array.Concatenate(parts, memory.DefaultAllocator)
		if err != nil {
			panic("storage: concatenating live rows: " + err.Error())
		}
		cols[c] = a
	}
	return array.NewRecord(rec.Schema(), cols, live)
}

func cloneDels(m map[uint64]*DeleteVector) map[uint64]*DeleteVector {
	if len(m) == 0 {
		return nil
	}
	n := make(map[uint64]*DeleteVector, len(m))
	for k, v := range m {
		n[k] = v
	}
	return n
}

// ownDeletes applies a committing transaction's deletes of its own
// appended rows to those rows, so the committer sees only the deletes of
// committed segments.
func ownDeletes(p *pending) {
	for tid, segs := range p.deletes {
		pseg, ok := p.appendSeg[tid]
		if !ok || segs[pseg] == nil {
			continue
		}
		p.appends[tid] = liveRecords(p.appends[tid], segs[pseg])
		rest := make(map[uint64]*DeleteVector, len(segs))
		for k, v := range segs {
			if k != pseg {
				rest[k] = v
			}
		}
		if len(rest) == 0 {
			delete(p.deletes, tid)
		} else {
			p.deletes[tid] = rest
		}
	}
}

// validateDeletes checks a commit's deletes against work: each row must
// still be there (in its segment, or where a compaction moved it:
// forward.go) and not deleted. INVARIANT (the committer's
// safety net): a commit whose delete hits a row another commit already
// deleted, or a segment replaced since, fails whole with the
// concurrent-update 40001 and changes nothing.
func validateDeletes(work *version, p *pending) error {
	for tid, segs := range p.deletes {
		t := work.byID[tid]
		if t == nil {
			return concurrentDrop(p.nameOf(tid))
		}
		cur, ok := forwardDeletes(t, segs)
		if !ok {
			return concurrentUpdate()
		}
		for sid, dv := range cur {
			if firstOverlap(t.dels[sid], dv) >= 0 {
				return concurrentUpdate()
			}
		}
	}
	return nil
}

// applyDeletes merges a validated commit's deletes into work.
func applyDeletes(work *version, touched map[uint64]bool, p *pending) {
	for tid, segs := range p.deletes {
		t := mutable(work, touched, tid)
		if t.dels == nil {
			t.dels = map[uint64]*DeleteVector{}
		}
		if t.freshDels == nil {
			t.freshDels = map[uint64][]int64{}
		}
		cur, _ := forwardDeletes(t, segs) // validated: every row is there
		for sid, dv := range cur {
			t.dels[sid] = union(t.dels[sid], dv)
			t.freshDels[sid] = append(t.freshDels[sid], dv.offsets()...)
		}
		t.gen++
	}
}
