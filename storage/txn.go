package storage

import (
	"context"
	"fmt"
	"sort"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/types"
)

// pending is a transaction's uncommitted changes.
type pending struct {
	created   map[uint64]*tableState    // tables created by the transaction, by id
	dropped   map[uint64]string         // committed tables dropped (id → name)
	truncated map[uint64]bool           // tables whose committed rows are hidden
	appends   map[uint64][]arrow.Record // rows added, in order
	views     map[string]viewChange     // views created, replaced or dropped (views.go)
	cons      *conPending               // constraint changes and checks (constraint.go)
	idx       *idxPending               // index changes and checks (indexdef.go)
	// appendSeg is the id of each table's virtual segment of appended rows
	// (their RowIDs); deletes the rows deleted, by table and segment id
	// (delete.go). Both maps' values are immutable: clone copies the maps.
	appendSeg map[uint64]uint64
	deletes   map[uint64]map[uint64]*DeleteVector
	seqs      map[string]seqChange // sequences created, altered or dropped (sequence.go)
	seqMarks  map[uint64]seqMark   // a nextval's durable reservation (sequence.go)
	// altered are committed tables' new definitions, schema the
	// definition generation of each committed table written, rewrite the
	// row generation of each table rewritten (alter.go).
	altered map[uint64]*tableState
	schema  map[uint64]uint64
	rewrite map[uint64]uint64
	schemas map[uint64]schemaChange // schemas created, altered or dropped (schema.go)
	types   map[uint64]typeChange   // user-defined types created, altered or dropped (usertype.go)
	// auth is the role catalog as the transaction changed it, authOps the
	// changes to replay at commit (roles.go).
	auth    *Auth
	authOps []func(*Auth) error
	foreign map[uint64]foreignChange // extensions and foreign servers (foreign.go)
	funcs   map[uint64]funcChange    // user-defined functions (function.go)
}

func newPending() *pending {
	return &pending{created: map[uint64]*tableState{}, dropped: map[uint64]string{},
		truncated: map[uint64]bool{}, appends: map[uint64][]arrow.Record{},
		appendSeg: map[uint64]uint64{}, deletes: map[uint64]map[uint64]*DeleteVector{},
		altered: map[uint64]*tableState{}, schema: map[uint64]uint64{}, rewrite: map[uint64]uint64{}}
}

func (p *pending) empty() bool {
	return len(p.created) == 0 && len(p.dropped) == 0 && len(p.truncated) == 0 && len(p.appends) == 0 && len(p.views) == 0 && len(p.deletes) == 0 &&
		(p.cons == nil || len(p.cons.set) == 0) && p.idx.empty() && len(p.seqs) == 0 && len(p.seqMarks) == 0 && len(p.altered) == 0 &&
		len(p.schemas) == 0 && len(p.types) == 0 && len(p.authOps) == 0 && len(p.foreign) == 0 && len(p.funcs) == 0
}

func (p *pending) clone() *pending {
	n := newPending()
	for k, v := range p.created {
		n.created[k] = v
	}
	for k, v := range p.dropped {
		n.dropped[k] = v
	}
	for k, v := range p.truncated {
		n.truncated[k] = v
	}
	for k, v := range p.appends {
		n.appends[k] = append([]arrow.Record(nil), v...)
	}
	n.views = cloneViews(p.views)
	n.cons = p.cons.clone()
	n.idx = p.idx.clone()
	for k, v := range p.appendSeg {
		n.appendSeg[k] = v
	}
	for k, v := range p.deletes {
		n.deletes[k] = v // replaced, never modified (Delete)
	}
	n.seqs = cloneSeqs(p.seqs)
	for k, v := range p.altered {
		n.altered[k] = v
	}
	for k, v := range p.schema {
		n.schema[k] = v
	}
	for k, v := range p.rewrite {
		n.rewrite[k] = v
	}
	n.schemas = cloneSchemas(p.schemas)
	n.types = cloneTypes(p.types)
	n.auth, n.authOps = p.auth, append([]func(*Auth) error(nil), p.authOps...)
	n.foreign = cloneForeign(p.foreign)
	n.funcs = cloneFuncs(p.funcs)
	return n
}

func (p *pending) nameOf(id uint64) string {
	if t := p.created[id]; t != nil {
		return t.name
	}
	return fmt.Sprintf("#%d", id)
}

// Txn is one transaction: a Catalog whose reads see the committed state
// of the DB as of the start of the current statement plus the
// transaction's own changes, and whose writes stay private until Commit.
// A Txn is used by one session (one goroutine at a time).
//
// INVARIANTS (the commit protocol, commit.go): the snapshot a statement
// pins (Begin, NewStatement) is a published version, which never changes,
// so a statement never sees a commit half-applied or a row twice; a later
// statement's snapshot is the same or a later version. Nothing of the
// transaction is visible to others before Commit returns nil, and then all
// of it is, durably. A commit that conflicts with one queued before it
// fails whole at Commit and changes nothing.
type Txn struct {
	db   *DB
	snap *version // committed state this statement reads
	p    *pending
	done bool
	// loadErr is the first segment read error met by Lookup; see Err.
	loadErr    error
	savepoints []savepoint
	// iso is the level fixed when taken became true (TakeSnapshot);
	// under RepeatableRead and Serializable snap is then the
	// transaction's snapshot for good.
	iso   Isolation
	taken bool
	// reads are the names the transaction looked up, readAll whether it
	// listed the catalog: a Serializable commit's check (serialCheck).
	reads   map[string]bool
	readAll bool
	// resolved are the tables a RepeatableRead/Serializable transaction
	// has named (catalogEntry).
	resolved      map[string]*tableState
	resolvedViews map[string]*View
	// errFmt formats the key of a duplicate-key error (constraint.go).
	errFmt *types.Format
	// pruns index the pending rows by table and key (indexdef.go).
	pruns map[uint64]map[string]*pendingRuns
	// lockMark tags the row locks taken now (0: none open), markSeq
	// numbers savepoints for it (rowlock.go releaseFrom).
	lockMark, markSeq int
	locked            bool // the transaction took row locks
	fixed             bool // counted in db.fixedSnaps
}

type savepoint struct {
	name string
	p    *pending
	mark int // the lock mark set by this savepoint
}

var _ Catalog = (*Txn)(nil)

// Begin starts a transaction reading the current committed state.
func (db *DB) Begin() *Txn {
	return &Txn{db: db, snap: db.cs.load(), p: newPending()}
}

var errDone = pgerr.New(pgerr.InternalError, "transaction already finished")

// NewStatement moves the transaction's read snapshot to the latest commit
// (READ COMMITTED: each statement sees what was committed before it began),
// unless a REPEATABLE READ or SERIALIZABLE transaction has taken its
// snapshot (TakeSnapshot), which every later statement reads.
func (t *Txn) NewStatement() {
	if !t.done && !(t.taken && t.iso >= RepeatableRead) {
		t.snap = t.db.cs.load()
	}
	t.loadErr = nil
}

// Err is the first error met while reading segment files on behalf of
// Lookup (which cannot return one); a statement must fail with it.
func (t *Txn) Err() error { return t.loadErr }

// Changed reports whether the transaction has uncommitted changes.
func (t *Txn) Changed() bool { return !t.p.empty() }

// Commit makes the transaction's changes durable and visible atomically.
// It returns after the manifest naming them is on disk (fsync'd).
func (t *Txn) Commit(ctx context.Context) error {
	if t.done {
		return errDone
	}
	defer t.releaseLocks() // after publication: see lockTable
	// Deferred constraints are checked first (constraint.go).
	if err := t.RunDeferred(ctx, nil); err != nil {
		t.Rollback()
		return err
	}
	p := t.p
	ownDeletes(p)
	var ser *serialCheck
	if t.iso == Serializable && t.taken {
		ser = &serialCheck{snap: t.snap, names: t.reads, all: t.readAll}
	}
	t.finish()
	if p.empty() {
		return nil // a read-only transaction serializes at its snapshot
	}
	err := t.db.submit(&commitReq{p: p, ser: ser})
	// Committed or not, the types it changed are now the committed ones.
	t.db.reregisterTypes(p)
	return err
}

// Rollback discards the transaction's changes.
func (t *Txn) Rollback() {
	t.db.reregisterTypes(t.p)
	t.finish()
	t.releaseLocks()
}

// releaseLocks drops the transaction's row locks, if it took any.
func (t *Txn) releaseLocks() {
	if t.locked {
		t.db.cs.lockPoint()
		t.db.locks.release(t)
		t.locked = false
	}
}

// finish ends the transaction; its tables then show the latest committed
// state (they may outlive it, e.g. in a prepared statement).
func (t *Txn) finish() {
	if t.fixed {
		t.db.fixedSnaps.Add(-1)
		t.fixed = false
	}
	t.done = true
	t.p = newPending()
	t.snap = nil
	t.savepoints = nil
	t.reads, t.readAll, t.resolved, t.resolvedViews, t.pruns = nil, false, nil, nil, nil
}

// version is the committed state the transaction reads.
func (t *Txn) version() *version {
	if t.snap == nil {
		return t.db.cs.load()
	}
	return t.snap
}

// Savepoint marks the current changes under name (a later one of the same
// name hides the earlier, as in PostgreSQL).
func (t *Txn) Savepoint(name string) {
	t.markSeq++
	t.lockMark = t.markSeq
	t.savepoints = append(t.savepoints, savepoint{name: name, p: t.p.clone(), mark: t.lockMark})
}

func (t *Txn) findSavepoint(name string) (int, error) {
	for i := len(t.savepoints) - 1; i >= 0; i-- {
		if t.savepoints[i].name == name {
			return i, nil
		}
	}
	return 0, pgerr.New(codeInvalidSavepoint, "savepoint \"%s\" does not exist", name)
}

// RollbackTo discards the changes made since the savepoint, which stays.
func (t *Txn) RollbackTo(name string) error {
	i, err := t.findSavepoint(name)
	if err != nil {
		return err
	}
	t.savepoints = t.savepoints[:i+1]
	t.db.reregisterTypes(t.p)
	t.p = t.savepoints[i].p.clone()
	for id, ch := range t.p.types {
		if ch.def != nil {
			t.registerPending(id)
		}
	}
	t.lockMark = t.savepoints[i].mark
	if t.locked {
		t.db.cs.lockPoint()
		t.db.locks.releaseFrom(t, t.lockMark)
	}
	return nil
}

// Release forgets the savepoint and the later ones, keeping the changes.
func (t *Txn) Release(name string) error {
	i, err := t.findSavepoint(name)
	if err != nil {
		return err
	}
	t.savepoints = t.savepoints[:i]
	// Later locks belong to the enclosing savepoint; the released one's
	// keep their larger marks, which a rollback to an earlier one covers.
	t.lockMark = 0
	if i > 0 {
		t.lockMark = t.savepoints[i-1].mark
	}
	return nil
}

// txnTable is a table as a transaction sees it.
type txnTable struct {
	txn  *Txn
	id   uint64
	name string
	cols []ColumnDef
}

var _ Segmented = (*txnTable)(nil)

func (tt *txnTable) Name() string         { return tt.name }
func (tt *txnTable) Columns() []ColumnDef { return tt.cols }

// committed is the table's committed state visible to the transaction
// (nil if the transaction created or truncated it).
func (tt *txnTable) committed() *tableState {
	p := tt.txn.p
	if p.created[tt.id] != nil || p.truncated[tt.id] {
		return nil
	}
	return tt.txn.version().byID[tt.id]
}

// Snapshot implements Table: the live rows only.
func (tt *txnTable) Snapshot() []arrow.Record {
	var out []arrow.Record
	for _, seg := range tt.segments(false) {
		out = append(out, liveRecords(seg.Records, seg.Deletes)...)
	}
	return out
}

// Stats implements Table. Rows counts live rows; the other figures are the
// segments' (deleted rows included: they over-estimate, never narrow).
func (tt *txnTable) Stats() Stats {
	var st Stats
	if cs := tt.committed(); cs != nil {
		if sameLayout(cs.cols, tt.cols) {
			st = cs.tableStats()
		} else {
			st = cs.statsOver(tt.cols) // altered by the transaction
		}
		st.Distinct = append([]int64(nil), st.Distinct...)
		st.Nulls = append([]int64(nil), st.Nulls...)
	}
	p := tt.txn.p
	if len(p.appends[tt.id]) > 0 {
		st.Bounds = nil // the pending rows' bounds are not merged in
	}
	for _, r := range p.appends[tt.id] {
		st.Rows += r.NumRows()
		if st.Nulls != nil {
			for c := range st.Nulls {
				st.Nulls[c] += int64(r.Column(c).NullN())
			}
		}
	}
	cs := tt.committed()
	pseg, hasPending := p.appendSeg[tt.id]
	for sid, dv := range p.deletes[tt.id] {
		// Only the snapshot's RowIDs: a row a compaction moved is recorded
		// under its new one too (forward.go).
		if cs.segment(sid) != nil || (hasPending && sid == pseg) {
			st.Rows -= dv.Count()
		}
	}
	return st
}

// Segments implements Segmented: the committed segments of the snapshot,
// then the transaction's appended rows as one segment, each with the rows
// deleted in the snapshot or by the transaction.
func (tt *txnTable) Segments() []Segment { return tt.segments(true) }

// SegmentRows implements SegmentRower.
func (tt *txnTable) SegmentRows() []Segment { return tt.segments(false) }

func (tt *txnTable) segments(stats bool) []Segment {
	var out []Segment
	mine := tt.txn.p.deletes[tt.id]
	if cs := tt.committed(); cs != nil {
		for _, s := range cs.segs {
			recs, err := s.records(tt.txn.db, tt.cols)
			if err != nil {
				// Lookup read every segment of the statement's snapshot
				// and the statement failed if one was unreadable.
				panic(err)
			}
			seg := Segment{ID: s.id, Rows: s.rows, Records: recs, Deletes: union(cs.dels[s.id], mine[s.id])}
			if stats {
				st := s.statsFor(tt.cols)
				seg.Columns = make([]ColumnStats, len(st))
				for c := range st {
					seg.Columns[c] = st[c].public()
				}
			}
			out = append(out, seg)
		}
	}
	if recs := tt.txn.p.appends[tt.id]; len(recs) > 0 {
		id := tt.txn.p.appendSeg[tt.id]
		seg := Segment{ID: id, Rows: pendingRows(recs), Records: recs, Deletes: mine[id]}
		if stats {
			ms, _ := memSegment(id, tt.cols, recs)
			seg.Columns = make([]ColumnStats, len(ms.stats))
			for c := range ms.stats {
				seg.Columns[c] = ms.stats[c].public()
			}
		}
		out = append(out, seg)
	}
	return out
}

// view returns the table the transaction sees under name.
func (t *Txn) view(name string) *txnTable {
	t.noteRead(name)
	for _, c := range t.p.created {
		if c.name == name {
			return &txnTable{txn: t, id: c.id, name: c.name, cols: c.cols}
		}
	}
	for id, a := range t.p.altered {
		if a.name == name {
			if _, gone := t.p.dropped[id]; !gone {
				return &txnTable{txn: t, id: id, name: a.name, cols: a.cols}
			}
		}
	}
	cs := t.version().tables[name]
	if t.taken && t.iso >= RepeatableRead {
		cs = t.catalogEntry(name)
	}
	if cs == nil {
		return nil
	}
	if _, gone := t.p.dropped[cs.id]; gone {
		return nil
	}
	if t.p.altered[cs.id] != nil {
		return nil // renamed by the transaction
	}
	return &txnTable{txn: t, id: cs.id, name: cs.name, cols: cs.cols}
}

// Lookup implements Catalog. It reads the table's segment files on first
// use; a read error is kept for Err.
func (t *Txn) Lookup(name string) (Table, bool) {
	tt := t.view(name)
	if tt == nil {
		return nil, false
	}
	if cs := tt.committed(); cs != nil {
		for _, s := range cs.segs {
			if _, err := s.records(t.db, tt.cols); err != nil && t.loadErr == nil {
				t.loadErr = err
			}
		}
	}
	return tt, true
}

// Tables implements Catalog; tables are listed by name.
func (t *Txn) Tables() []Table {
	t.readAll = true
	seen := map[string]bool{}
	var out []Table
	for _, c := range t.p.created {
		seen[c.name] = true
		out = append(out, &txnTable{txn: t, id: c.id, name: c.name, cols: c.cols})
	}
	for id, a := range t.p.altered {
		if _, gone := t.p.dropped[id]; !gone {
			seen[a.name] = true
			out = append(out, &txnTable{txn: t, id: id, name: a.name, cols: a.cols})
		}
	}
	for name, cs := range t.version().tables {
		if _, gone := t.p.dropped[cs.id]; gone || seen[name] || t.p.altered[cs.id] != nil {
			continue
		}
		out = append(out, &txnTable{txn: t, id: cs.id, name: cs.name, cols: cs.cols})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name() < out[j].Name() })
	return out
}

// Create implements Catalog.
func (t *Txn) Create(ctx context.Context, name string, cols []ColumnDef) (Table, error) {
	if t.done {
		return nil, errDone
	}
	if t.relationTaken(name) {
		return nil, pgerr.New(pgerr.DuplicateTable, "relation %q already exists", BareName(name))
	}
	ts := &tableState{id: t.db.nextID.Add(1) - 1, name: name, cols: assignAttnums(cols)}
	t.p.created[ts.id] = ts
	return &txnTable{txn: t, id: ts.id, name: ts.name, cols: ts.cols}, nil
}

// Drop implements Catalog.
func (t *Txn) Drop(ctx context.Context, name string) error {
	if t.done {
		return errDone
	}
	tt := t.view(name)
	if tt == nil {
		return pgerr.New(pgerr.UndefinedTable, "table %q does not exist", BareName(name))
	}
	if t.p.created[tt.id] != nil {
		delete(t.p.created, tt.id)
	} else {
		t.p.dropped[tt.id] = name
	}
	delete(t.p.appends, tt.id)
	delete(t.p.truncated, tt.id)
	delete(t.p.appendSeg, tt.id)
	delete(t.p.deletes, tt.id)
	if t.p.idx != nil {
		delete(t.p.idx.set, tt.id)
	}
	delete(t.p.altered, tt.id)
	return nil
}

// Holds reports whether tb is a table of this transaction's catalog (a
// session keeps its temporary tables in a catalog of their own).
func (t *Txn) Holds(tb Table) bool {
	tt, ok := tb.(*txnTable)
	return ok && tt.txn.db == t.db
}

// own checks that tb is a table of this transaction that it can still see.
func (t *Txn) own(tb Table) (*txnTable, error) {
	tt, ok := tb.(*txnTable)
	if !ok || tt.txn.db != t.db {
		return nil, pgerr.New(pgerr.InternalError, "table %q does not belong to this catalog", BareName(tb.Name()))
	}
	// The table may come from another transaction (a statement bound
	// earlier): what counts is that this one sees the same table.
	v := t.view(tt.name)
	if v == nil || v.id != tt.id {
		return nil, pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", BareName(tt.name))
	}
	t.noteSchema(v)
	return v, nil
}

// Append implements Catalog: the batch becomes visible to this transaction
// at once and to others at Commit.
func (t *Txn) Append(ctx context.Context, tb Table, batch arrow.Record) error {
	if t.done {
		return errDone
	}
	tt, err := t.own(tb)
	if err != nil {
		return err
	}
	if int(batch.NumCols()) != len(tt.cols) {
		return pgerr.New(pgerr.InternalError, "append to %q: batch has %d columns, table has %d", BareName(tt.name), batch.NumCols(), len(tt.cols))
	}
	for i, col := range tt.cols {
		if !arrow.TypeEqual(batch.Column(i).DataType(), col.Type.ArrowType()) {
			return pgerr.New(pgerr.InternalError, "append to %q: column %q has Arrow type %s, want %s",
				tt.name, col.Name, batch.Column(i).DataType(), col.Type.ArrowType())
		}
	}
	if batch.NumRows() == 0 {
		return nil
	}
	if err := t.checkAppend(tt, batch); err != nil {
		return err
	}
	// One schema for every stored batch, whatever names the caller used.
	if !batch.Schema().Equal(arrowSchema(tt.cols)) {
		batch = arrowRecordWithSchema(arrowSchema(tt.cols), batch)
	}
	if _, ok := t.p.appendSeg[tt.id]; !ok {
		t.p.appendSeg[tt.id] = t.db.nextID.Add(1) - 1
	}
	t.p.appends[tt.id] = append(t.p.appends[tt.id], batch)
	return nil
}

// Truncate implements Catalog.
func (t *Txn) Truncate(ctx context.Context, tables []Table) error {
	if t.done {
		return errDone
	}
	owned := make([]*txnTable, len(tables))
	for i, tb := range tables {
		tt, err := t.own(tb)
		if err != nil {
			return err
		}
		owned[i] = tt
	}
	for _, tt := range owned {
		delete(t.p.appends, tt.id)
		delete(t.p.appendSeg, tt.id)
		delete(t.p.deletes, tt.id)
		if t.p.created[tt.id] == nil {
			t.p.truncated[tt.id] = true
		}
	}
	return nil
}

// Vacuum runs VACUUM [FULL] (DB.Vacuum) on tables of this transaction's
// catalog (all when tables is empty).
func (t *Txn) Vacuum(ctx context.Context, tables []Table, full bool) error {
	names := make([]string, 0, len(tables))
	for _, tb := range tables {
		names = append(names, tb.Name())
	}
	return t.db.Vacuum(ctx, names, full)
}
