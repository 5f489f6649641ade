package storage

import "context"

// Row marks: what SELECT ... FOR UPDATE cursors and WHERE CURRENT OF need
// of a transaction's rows besides Append and Delete.

// AppendedRows is the pending segment of the rows this transaction has
// appended to tb and how many it holds (ok false: none yet). Offsets count
// the pending batches in order, so the rows of the next Append get RowIDs
// MakeRowID(seg, n), MakeRowID(seg, n+1), ... (seg as reported after it).
func (t *Txn) AppendedRows(tb Table) (seg uint64, n int64, ok bool) {
	tt, err := t.own(tb)
	if err != nil {
		return 0, 0, false
	}
	seg, ok = t.p.appendSeg[tt.id]
	return seg, pendingRows(t.p.appends[tt.id]), ok
}

// LockRows takes the row locks of rows ids of tb (rows of the
// transaction's snapshot) as Delete does, without deleting them: SELECT
// ... FOR UPDATE. It waits for a transaction holding one of them; a row a
// commit after the snapshot deleted (or updated) fails with
// IsConcurrentUpdate's 40001. gone[i] reports that the transaction itself
// has deleted ids[i] since (PostgreSQL's LockRows then skips the row).
// The transaction's own appended rows need no lock: no one else sees them.
func (t *Txn) LockRows(ctx context.Context, tb Table, ids []RowID) (gone []bool, err error) {
	if t.done {
		return nil, errDone
	}
	tt, err := t.own(tb)
	if err != nil {
		return nil, err
	}
	gone = make([]bool, len(ids))
	pseg, hasPending := t.p.appendSeg[tt.id]
	mine := t.p.deletes[tt.id]
	var lock []RowID
	for i, id := range ids {
		switch {
		case mine[id.Segment()].Deleted(id.Offset()):
			gone[i] = true
		case hasPending && id.Segment() == pseg:
		default:
			lock = append(lock, id)
		}
	}
	if len(lock) == 0 {
		return gone, nil
	}
	t.locked = true
	if _, err := t.lockCurrent(ctx, tt.id, groupRowIDs(lock)); err != nil {
		return nil, err
	}
	return gone, nil
}
