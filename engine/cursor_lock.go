package engine

import (
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/storage"
)

// Row marks of cursors. A FOR UPDATE cursor locks each row as it reads it
// (PostgreSQL's LockRows node under the portal): storage's row lock, the
// one UPDATE and DELETE take, so a concurrent writer of the row waits for
// this transaction to end. A row this transaction updated or deleted after
// DECLARE is skipped, as LockRows skips a self-modified tuple. PostgreSQL
// under READ COMMITTED locks a row a concurrent transaction changed in its
// new version (EvalPlanQual); joind's cursor reads its DECLARE snapshot,
// so that case is refused with 0A000 (under REPEATABLE READ and
// SERIALIZABLE it is PostgreSQL's 40001 either way).
//
// WHERE CURRENT OF follows the cursor's row to its latest version: an
// UPDATE appends the new version and deletes the old one, and reports the
// pair (session.rowMoves, through commands.Session.RowMoves) while a cursor
// reads the table; the moves are kept until the transaction ends. A row
// deleted with no newer version matches nothing (UPDATE 0 / DELETE 0, as
// PostgreSQL's TID scan finds no live version).

// rowID is the RowID of the cursor row r (a simply updatable cursor's
// hidden last column).
func (c *cursor) rowID(r rowRef) storage.RowID {
	return storage.RowID(r.rec.Column(c.ridCol).(*array.Int64).Value(r.i))
}

// lockRow locks row r of a FOR UPDATE cursor as the cursor reads it; keep
// is false for a row the transaction has since deleted (skipped).
func (c *cursor) lockRow(r rowRef) (keep bool, err error) {
	s := c.s
	cat := s.catalogOf(s.txn)
	if cat == nil {
		return false, pgerr.New("24000", "cursor \"%s\" is not open", c.name)
	}
	gone, err := cat.LockRows(c.ctx, c.ridTable, []storage.RowID{c.rowID(r)})
	if storage.IsConcurrentUpdate(err) && s.settings.Get("transaction_isolation") == "read committed" {
		return false, pgerr.New(pgerr.FeatureNotSupported,
			"FOR UPDATE cursor \"%s\" reading a row a concurrent transaction changed is not supported", c.name)
	}
	if err != nil {
		return false, err
	}
	return !gone[0], nil
}

// noRow is a RowID no row has.
const noRow = storage.RowID(-1)

// latestVersion follows rid, a row of t a cursor read, through the
// transaction's updates to the version live now (noRow: deleted).
func (s *session) latestVersion(t storage.Table, rid storage.RowID) storage.RowID {
	st, ok := t.(storage.Segmented)
	if !ok {
		return rid
	}
	for deleted(st, rid) {
		next, ok := s.moves[t.Name()][rid]
		if !ok {
			return noRow
		}
		rid = next
	}
	return rid
}

// deleted reports whether row rid of t is deleted in t's current state.
func deleted(t storage.Segmented, rid storage.RowID) bool {
	for _, seg := range t.Segments() {
		if seg.ID == rid.Segment() {
			return seg.Deleted(rid.Offset())
		}
	}
	return true // its segment is gone (truncated)
}

// rowMoves is commands.Session.RowMoves: a recorder of t's updated rows
// while an open cursor reads t (nil otherwise: nothing to follow).
func (s *session) rowMoves(t storage.Table) func(from, to []storage.RowID) {
	reads := false
	for _, c := range s.cursors {
		reads = reads || c.open && c.ridTable != nil && c.ridTable.Name() == t.Name()
	}
	if !reads {
		return nil
	}
	return func(from, to []storage.RowID) {
		if s.moves == nil {
			s.moves = map[string]map[storage.RowID]storage.RowID{}
		}
		m := s.moves[t.Name()]
		if m == nil {
			m = map[storage.RowID]storage.RowID{}
			s.moves[t.Name()] = m
		}
		for i, id := range from {
			m[id] = to[i]
		}
	}
}
