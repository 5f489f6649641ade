package storage

import "math"

// Row forwarding. Compaction renumbers rows: it replaces a run of segments
// by one holding their live rows in order. A transaction whose snapshot
// predates the compaction still names rows by their RowIDs in the old
// segments; PostgreSQL's VACUUM never makes such a transaction's UPDATE or
// DELETE fail, so neither may compaction. Each compaction leaves, in the
// table's version, where every replaced segment's live rows went
// (tableState.moved), and a Delete, a LockRows or a commit naming a
// replaced segment follows it to the row's current RowID.
//
// INVARIANTS:
//   - A forwarded row is the same row: segMove maps live offset off of
//     the old segment to base + off − (rows of it deleted before off) of
//     the new one, which is how merge laid them out (liveRecords, in
//     order). A row the compaction left out (deleted by then) does not
//     forward: it was deleted by a commit the snapshot did not see, which
//     is the concurrent-update 40001.
//   - Moves are kept in memory only (no snapshot survives a restart) and
//     dropped by a later compaction that runs while no REPEATABLE READ or
//     SERIALIZABLE transaction is open (compaction.pruneMoves); a row of a
//     segment whose move was dropped fails with 40001 as before, which a
//     READ COMMITTED statement absorbs by restarting.
//   - A Delete locks the forwarded RowIDs (besides the snapshot's), so
//     a transaction deleting the row by its new RowID waits for it as for
//     any row lock; and it records its delete under both RowIDs
//     (pending.deletes), so the transaction's snapshot and its later
//     statements' snapshots both stop seeing the row. The committer keeps
//     the current one (forwardDeletes).

// segMove is where one segment's live rows went: its row off (not in dels)
// is row base+off−rank(off) of segment to; gone: the compaction left no
// row of it.
type segMove struct {
	to   uint64
	base int64
	dels *DeleteVector // the segment's deleted rows the compaction left out
	gone bool
}

// maxMoves bounds the moves a table keeps while transactions with fixed
// snapshots stay open (each is a few words and a vector the old version
// held anyway).
const maxMoves = 4096

// forwardRows maps the offsets of g, a segment t no longer has, to the
// segment that holds them now; ok is false if a row did not survive (or
// the segment's move is unknown).
func (t *tableState) forwardRows(g segRows) (segRows, bool) {
	for hops := 0; t.segment(g.seg) == nil; hops++ {
		m, known := t.moved[g.seg]
		if !known || m.gone || hops > len(t.moved) {
			return segRows{}, false
		}
		dead, _ := m.dels.DeletedIn(0, math.MaxInt64, math.MaxInt, nil)
		out := segRows{seg: m.to, offs: make([]int64, len(g.offs))}
		k := 0 // deleted offsets below the current one (offs ascend)
		for i, off := range g.offs {
			for k < len(dead) && dead[k] < off {
				k++
			}
			if k < len(dead) && dead[k] == off {
				return segRows{}, false
			}
			out.offs[i] = m.base + off - int64(k)
		}
		g = out
	}
	return g, true
}

// recordMoves notes in t where c's run went (called with c applied).
func (t *tableState) recordMoves(c *compaction) {
	if c.pruneMoves || len(t.moved) > maxMoves {
		t.moved = nil
	}
	if t.moved == nil {
		t.moved = map[uint64]segMove{}
	}
	var base int64
	for i, s := range c.old {
		m := segMove{base: base, dels: c.dels[i], gone: c.seg == nil}
		if c.seg != nil {
			m.to = c.seg.id
		}
		t.moved[s.id] = m
		base += s.rows - c.dels[i].Count()
	}
}

// forwardDeletes is a commit's deletes of table t keyed by the segments t
// has now: a segment compacted since the transaction's snapshot has its
// offsets forwarded (and merged with the same rows recorded under their
// new RowIDs). ok is false when a deleted row did not survive.
func forwardDeletes(t *tableState, segs map[uint64]*DeleteVector) (map[uint64]*DeleteVector, bool) {
	var out map[uint64]*DeleteVector
	for sid, dv := range segs {
		if t.segment(sid) != nil {
			continue
		}
		if out == nil {
			out = make(map[uint64]*DeleteVector, len(segs))
			for k, v := range segs {
				if t.segment(k) != nil {
					out[k] = union(out[k], v)
				}
			}
		}
		g, ok := t.forwardRows(segRows{seg: sid, offs: dv.offsets()})
		if !ok {
			return nil, false
		}
		// The transaction may have recorded some of these rows under
		// their new RowIDs already (Delete does both).
		have := out[g.seg]
		fresh := g.offs[:0]
		for _, off := range g.offs {
			if !have.Deleted(off) {
				fresh = append(fresh, off)
			}
		}
		if len(fresh) > 0 {
			out[g.seg], _ = have.with(fresh)
		}
	}
	if out == nil {
		return segs, true
	}
	return out, true
}
