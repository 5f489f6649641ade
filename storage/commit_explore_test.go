package storage

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/joind/joind/interleave"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/types"
)

// This file model-checks the commit protocol (commit.go) with the
// interleaving explorer (package interleave). Sessions, a reader, the
// compactor and the committer run as explorer threads over a real
// in-memory DB whose commitSync is the simulator below: every
// synchronization point — queueing a commit, the committer taking one,
// loading or publishing the version — is a park point where the explorer
// decides who runs next, and waiting for an acknowledgement blocks the
// thread until it arrives. The explorer enumerates every schedule. The
// code under test is the shipped Txn, committerLoop, commitGroup and
// compactOnce; only the synchronization and the manifest write are
// simulated.
//
// Steps that commute with every other thread's steps are not choice points:
// delivering an outcome (the waiter observes it only when it next runs),
// the manifest write (only the checker observes the disk), the committer's
// own load of the version (only it publishes), and a session's private
// changes. Everything else is.
//
// The checker compares the run against a sequential specification: the
// queue replayed in order on a plain model (table id → name and row values),
// each commit succeeding or failing by the rules in ARCHITECTURE.md.

// ---- the model ----

type modelTable struct {
	name string
	rows []int64
}

type modelState map[uint64]modelTable

func (st modelState) String() string {
	var parts []string
	for id, t := range st {
		parts = append(parts, fmt.Sprintf("%s#%d%v", t.name, id, t.rows))
	}
	sort.Strings(parts)
	return "{" + strings.Join(parts, " ") + "}"
}

func (st modelState) copy() modelState {
	n := modelState{}
	for id, t := range st {
		n[id] = modelTable{name: t.name, rows: append([]int64(nil), t.rows...)}
	}
	return n
}

func (st modelState) byName(name string) (uint64, bool) {
	for id, t := range st {
		if t.name == name {
			return id, true
		}
	}
	return 0, false
}

func recRows(recs []arrow.Record) []int64 {
	var out []int64
	for _, r := range recs {
		out = append(out, r.Column(0).(*array.Int64).Int64Values()...)
	}
	return out
}

// model replays the queue: states[k] is the committed state after the
// first k queued commits, oks[k] whether commit k applies, removed[k] the
// tables whose committed segments commit k dropped or truncated.
type model struct {
	states  []modelState
	oks     []bool
	removed []map[uint64]bool
}

// A compaction the specification allows may still fail (a row lock or a
// delete since it read its segments: it changes no row either way); one
// it forbids must fail. mayFail marks those.

// at returns the state after the first k commits of the queue.
func (m *model) at(s *sim, k int) modelState {
	for len(m.states) <= k {
		j := len(m.states) - 1
		st, ok, removed := m.states[j], false, map[uint64]bool(nil)
		if !s.writeFailed[s.queue[j]] { // a failed manifest write applies nothing of its group
			st, ok, removed = specApply(m.states[j], s.queue[j], s.snapOf[s.queue[j]], m.removed, true)
		}
		m.states = append(m.states, st)
		m.oks = append(m.oks, ok)
		m.removed = append(m.removed, removed)
	}
	return m.states[k]
}

func (m *model) ok(s *sim, j int) bool { m.at(s, j+1); return m.oks[j] }

// deletedOf is the values a commit's deletes remove from committed rows
// (recorded by the session that queued it: the specification names rows
// by value, the implementation by RowID).
var deletedOf = map[*pending]map[uint64][]int64{}

// specApply is the specification of one commit, independent of
// applyPending/applyCompaction; unique: refuse one leaving duplicate keys
// in uniqueTable (a transaction's own view may hold a key twice: a row a
// commit deleted after its snapshot and the one it inserted again).
func specApply(st modelState, r *commitReq, snap int, removedBy []map[uint64]bool, unique bool) (modelState, bool, map[uint64]bool) {
	if c := r.compact; c != nil {
		// A compaction applies iff its table still exists and no commit
		// queued after the version it read dropped or truncated it.
		if _, ok := st[c.table]; !ok {
			return st, false, nil
		}
		for _, rm := range removedBy[snap:] {
			if rm[c.table] {
				return st, false, nil
			}
		}
		return st, true, nil // rows unchanged, in order
	}
	p := r.p
	for id := range p.dropped {
		if _, ok := st[id]; !ok {
			return st, false, nil
		}
	}
	for id := range p.truncated {
		if _, ok := st[id]; !ok && p.created[id] == nil {
			return st, false, nil
		}
	}
	for id := range p.appends {
		if _, ok := st[id]; !ok && p.created[id] == nil {
			return st, false, nil
		}
	}
	for _, t := range p.created {
		if id, taken := st.byName(t.name); taken {
			if _, dropping := p.dropped[id]; !dropping {
				return st, false, nil
			}
		}
	}
	// A delete applies only to rows still there (a row deleted, or its
	// table truncated or dropped, since: 40001).
	for id, vals := range deletedOf[p] {
		if p.truncated[id] {
			continue
		}
		t, ok := st[id]
		if !ok {
			return st, false, nil
		}
		for _, v := range vals {
			if !slices.Contains(t.rows, v) {
				return st, false, nil
			}
		}
	}
	n := st.copy()
	removed := map[uint64]bool{}
	for id := range p.dropped {
		delete(n, id)
		removed[id] = true
	}
	for id, t := range p.created {
		n[id] = modelTable{name: t.name}
	}
	for id := range p.truncated {
		if p.created[id] == nil {
			n[id] = modelTable{name: n[id].name}
			removed[id] = true
		}
	}
	for id, vals := range deletedOf[p] {
		if p.truncated[id] {
			continue
		}
		t := n[id]
		t.rows = slices.DeleteFunc(t.rows, func(v int64) bool { return slices.Contains(vals, v) })
		n[id] = t
	}
	for id, recs := range p.appends {
		t := n[id]
		t.rows = append(t.rows, recRows(recs)...)
		n[id] = t
	}
	// A commit that would leave two live rows of uniqueTable with equal
	// keys does not apply (23505), whatever the order of the queue.
	for _, t := range n {
		if unique && t.name == uniqueTable && hasDuplicate(t.rows) {
			return st, false, nil
		}
	}
	return n, true, removed
}

// uniqueTable is the table whose column k is its PRIMARY KEY (set up by
// the scenarios with unique set).
const uniqueTable = "u"

func hasDuplicate(rows []int64) bool {
	seen := map[int64]bool{}
	for _, v := range rows {
		if seen[v] {
			return true
		}
		seen[v] = true
	}
	return false
}

// versionState is the content of a version, or an error if it is not
// whole (rows not yet in segments, inconsistent indexes, wrong counts).
func versionState(v *version) (modelState, string) {
	st := modelState{}
	if len(v.tables) != len(v.byID) {
		return nil, "tables and byID disagree"
	}
	for id, t := range v.byID {
		if v.tables[t.name] != t {
			return nil, fmt.Sprintf("table %s#%d not under its name", t.name, id)
		}
		if len(t.fresh) > 0 {
			return nil, fmt.Sprintf("table %s has rows not written to a segment", t.name)
		}
		var rows []int64
		var n int64
		for _, s := range t.segs {
			rows = append(rows, recRows(liveRecords(s.recs, t.dels[s.id]))...)
			n += s.rows
		}
		for id := range t.dels {
			if t.segment(id) == nil {
				return nil, fmt.Sprintf("table %s has deleted rows of a segment it does not have", t.name)
			}
		}
		if n != t.rows {
			return nil, fmt.Sprintf("table %s counts %d rows, its segments hold %d", t.name, t.rows, n)
		}
		st[id] = modelTable{name: t.name, rows: rows}
	}
	return st, ""
}

// ---- the simulator: commitSync and commitStore over the explorer ----

type sim struct {
	db         *DB
	run        *interleave.Run
	loadPrefix []int // per thread: published prefix at its last load
	committer  int   // index of the committer thread

	queue     []*commitReq
	idx       map[*commitReq]int
	snapOf    map[*commitReq]int
	acked     map[*commitReq]error
	dequeued  int
	published int // prefix of the queue the published version holds
	durable   int // prefix of the queue the durable manifest holds
	versions  []*version
	contents  []string // content of versions[i] when published
	m         *model
	failure   string
	reads     []string // what each read saw, for outcome
	dupAppend int      // appends refused with 23505 (by the statement's view)
	// failPersist: the failPersist-th manifest write of the run fails
	// before its rename (ENOSPC, EMFILE: the durable manifest stays the
	// old one); writeFailed marks the commits of that group.
	failPersist, persists int
	writeFailed           map[*commitReq]bool
}

var errInjectedWrite = errors.New("injected: no space left on device")

// failWrite is the specification of a failed manifest write: every commit
// of the group (the queue after the published prefix) fails and changes
// nothing; the model forgets what it derived from them.
func (s *sim) failWrite() {
	for k := s.published; k < s.dequeued; k++ {
		s.writeFailed[s.queue[k]] = true
	}
	if n := s.published + 1; len(s.m.states) > n {
		s.m.states, s.m.oks, s.m.removed = s.m.states[:n], s.m.oks[:n-1], s.m.removed[:n-1]
	}
}

func (s *sim) failf(format string, args ...any) {
	if s.failure == "" {
		s.failure = fmt.Sprintf(format, args...)
	}
}

// cur is the running thread; -1 during setup (no choice points).
func (s *sim) cur() int { return s.run.Current() }

func (s *sim) park(label string, ready func() bool) { s.run.Block(label, ready) }

func (s *sim) othersDone() bool {
	for i := 0; i < s.run.Threads(); i++ {
		if i != s.committer && !s.run.Done(i) {
			return false
		}
	}
	return true
}

func (s *sim) send(r *commitReq) error {
	s.park("send", nil)
	s.idx[r] = len(s.queue)
	s.queue = append(s.queue, r)
	if s.cur() >= 0 {
		s.snapOf[r] = s.loadPrefix[s.cur()]
	}
	return nil
}

func (s *sim) wait(r *commitReq) error {
	if s.cur() < 0 {
		// Setup: run the committer inline.
		for s.dequeued < len(s.queue) {
			g := s.queue[s.dequeued:]
			s.dequeued = len(s.queue)
			s.db.commitGroup(g)
		}
	}
	s.park("wait", func() bool { _, ok := s.acked[r]; return ok })
	return s.acked[r]
}

func (s *sim) take() (*commitReq, bool) {
	if s.dequeued < len(s.queue) {
		s.dequeued++
		return s.queue[s.dequeued-1], true
	}
	return nil, false
}

func (s *sim) next() (*commitReq, bool) {
	s.park("next", func() bool { return s.dequeued < len(s.queue) || s.othersDone() })
	return s.take()
}

func (s *sim) more() (*commitReq, bool) {
	s.park("more", nil)
	return s.take()
}

func (s *sim) load() *version {
	if s.cur() >= 0 && s.cur() != s.committer {
		s.park("load", nil)
		s.loadPrefix[s.cur()] = s.published
	}
	return s.db.cur.Load()
}

func (s *sim) lockPoint() {
	if s.cur() >= 0 && s.cur() != s.committer {
		s.park("lock", nil)
	}
}

func (s *sim) lockWait(ctx context.Context, ch <-chan struct{}) error {
	closed := func() bool {
		select {
		case <-ch:
			return true
		default:
			return false
		}
	}
	if s.cur() < 0 {
		if !closed() {
			panic("setup waits for a row lock")
		}
		return nil
	}
	s.park("lockwait", closed)
	return nil
}

func (s *sim) publish(v *version) {
	s.park("publish", nil)
	s.db.cur.Store(v)
	if s.cur() < 0 {
		return
	}
	st, bad := versionState(v)
	switch {
	case bad != "":
		s.failf("published a version that is not whole: %s", bad)
	case st.String() != s.m.at(s, s.dequeued).String():
		s.failf("published %v, but the first %d queued commits give %v", st, s.dequeued, s.m.at(s, s.dequeued))
	case s.durable != s.dequeued:
		s.failf("published the first %d commits while the durable manifest holds %d", s.dequeued, s.durable)
	}
	s.published = s.dequeued
	s.versions = append(s.versions, v)
	s.contents = append(s.contents, st.String())
}

func (s *sim) ack(r *commitReq, err error) {
	if _, twice := s.acked[r]; twice {
		s.failf("commit #%d acknowledged twice", s.idx[r])
	}
	s.acked[r] = err
	if s.cur() < 0 {
		return
	}
	i := s.idx[r]
	if want := s.m.ok(s, i); want != (err == nil) && !(r.compact != nil && want) {
		s.failf("commit #%d (%s): outcome %v, the specification says applies=%v", i, describe(r), err, want)
	}
	if err == nil && s.durable <= i {
		s.failf("commit #%d (%s) acknowledged before the manifest naming it is durable (durable prefix %d)", i, describe(r), s.durable)
	}
	if err == nil && s.published <= i {
		s.failf("commit #%d (%s) acknowledged before it is published (published prefix %d)", i, describe(r), s.published)
	}
}

// simStore: in-memory segments (the shipped code for a DB without a data
// directory) and a simulated manifest write.
type simStore struct {
	dbStore
	s *sim
}

func (st simStore) persist(v *version, nextID uint64, newFiles bool) error {
	s := st.s
	if s.cur() < 0 {
		return nil
	}
	if s.persists++; s.persists == s.failPersist {
		s.failWrite()
		return errInjectedWrite
	}
	s.checkDurable("persisted", v)
	s.durable = s.dequeued
	return nil
}

// checkDurable: a version made durable (how: persisted, logged) is whole
// and the queue's dequeued prefix applied; it returns its content.
func (s *sim) checkDurable(how string, v *version) string {
	got, bad := versionState(v)
	switch {
	case bad != "":
		s.failf("%s a version that is not whole: %s", how, bad)
	case got.String() != s.m.at(s, s.dequeued).String():
		s.failf("%s %v, but the first %d queued commits give %v", how, got, s.dequeued, s.m.at(s, s.dequeued))
	}
	return got.String()
}

// appendLog checks a logged group as persist checks a manifest: the
// version it makes durable is the queue's prefix applied. A record not
// synced (compactions only) must change no content: the durable content
// is already that of the prefix.
func (st simStore) appendLog(v *version, record []byte, sync bool) error {
	s := st.s
	if s.cur() < 0 {
		return nil
	}
	if got := s.checkDurable("logged", v); !sync && s.m.at(s, s.durable).String() != got {
		s.failf("an unsynced log record changes the content: durable %v, logged %v", s.m.at(s, s.durable), got)
	}
	s.durable = s.dequeued
	return nil
}

func describe(r *commitReq) string {
	if r.compact != nil {
		return fmt.Sprintf("compaction of %d segments of table #%d", len(r.compact.old), r.compact.table)
	}
	var parts []string
	for _, t := range r.p.created {
		parts = append(parts, "create "+t.name)
	}
	for _, n := range r.p.dropped {
		parts = append(parts, "drop "+n)
	}
	for id := range r.p.truncated {
		parts = append(parts, fmt.Sprintf("truncate #%d", id))
	}
	for id, recs := range r.p.appends {
		parts = append(parts, fmt.Sprintf("append %v to #%d", recRows(recs), id))
	}
	for id, vals := range deletedOf[r.p] {
		parts = append(parts, fmt.Sprintf("delete %v from #%d", vals, id))
	}
	sort.Strings(parts)
	return strings.Join(parts, ", ")
}

// ---- the programs ----

type opKind int

const (
	opAppend opKind = iota
	opCreate
	opDrop
	opTruncate
	opRead // read every table twice, letting others run in between
	opNewStmt
	opDelete // delete the row of value row, if the statement sees it
)

type op struct {
	kind  opKind
	table string
	row   int64
}

func (o op) String() string {
	switch o.kind {
	case opAppend:
		return fmt.Sprintf("append %s %d", o.table, o.row)
	case opCreate:
		return "create " + o.table
	case opDrop:
		return "drop " + o.table
	case opTruncate:
		return "truncate " + o.table
	case opRead:
		return "read"
	case opDelete:
		return fmt.Sprintf("delete %s %d", o.table, o.row)
	default:
		return "new statement"
	}
}

type txnSpec struct {
	ops      []op
	rollback bool
}

type exploreScenario struct {
	large     bool // skipped under the race detector (see raceEnabled)
	name      string
	sessions  [][]txnSpec
	compactor bool
	// wal: the DB has a write-ahead log (wal.go): small commits and
	// compactions are logged, the rest checkpoint.
	wal bool
	// unique: the DB also has uniqueTable, PRIMARY KEY (k), holding 1
	// and 2 in two segments.
	unique bool
	// failPersist: the n-th manifest write fails (0: none).
	failPersist int
}

var cols1 = []ColumnDef{{Name: "k", Type: types.Int8Type}}

// txnState is what a transaction sees: its snapshot plus its own changes.
func txnState(txn *Txn) modelState {
	st := modelState{}
	for _, tb := range txn.Tables() {
		tt := tb.(*txnTable)
		st[tt.id] = modelTable{name: tt.name, rows: recRows(tt.Snapshot())}
	}
	return st
}

func session(s *sim, id int, txns []txnSpec) {
	ctx := context.Background()
	db := s.db
	me := s.cur()
	for _, ts := range txns {
		txn := db.Begin()
		// snap: the queue prefix the statement's snapshot holds (a later
		// load, a delete's check of the current version, is no snapshot).
		snap := s.loadPrefix[me]
		own := map[int64]bool{} // values this transaction deleted
	ops:
		for _, o := range ts.ops {
			var err error
			switch o.kind {
			case opAppend:
				tb, ok := txn.Lookup(o.table)
				if !ok {
					err = fmt.Errorf("no table %s", o.table)
					break
				}
				tid := tb.(*txnTable).id
				inView := o.table == uniqueTable && slices.Contains(s.statementView(txn, own, snap)[tid].rows, o.row)
				mine := slices.Contains(recRows(txn.p.appends[tid]), o.row) && !own[o.row]
				err = txn.Append(ctx, tb, intBatch(o.row))
				// Append refuses a key of the statement's view (its
				// snapshot and the transaction's own changes) unless a
				// commit made by the time it looks (its last load) deleted
				// that row; rows committed since are the committer's.
				sees := inView && (mine || slices.Contains(s.m.at(s, s.loadPrefix[me])[tid].rows, o.row))
				if dup := err != nil && pgerr.Code(err) == codeUniqueViolation; o.table == uniqueTable && dup != sees {
					s.failf("S%d appends %d to %s: error %v, but the key is live in its view and now: %v", id, o.row, o.table, err, sees)
				}
				if sees {
					s.dupAppend++
				}
			case opCreate:
				_, err = txn.Create(ctx, o.table, cols1)
			case opDrop:
				err = txn.Drop(ctx, o.table)
			case opTruncate:
				tb, ok := txn.Lookup(o.table)
				if !ok {
					err = fmt.Errorf("no table %s", o.table)
					break
				}
				err = txn.Truncate(ctx, []Table{tb})
			case opNewStmt:
				txn.NewStatement()
				snap = s.loadPrefix[me]
			case opDelete:
				tb, ok := txn.Lookup(o.table)
				if !ok {
					err = fmt.Errorf("no table %s", o.table)
					break
				}
				ids := idsWhere(tb, o.row)
				if len(ids) == 0 {
					break // the statement deletes nothing
				}
				if err = txn.Delete(ctx, tb, ids); err != nil {
					// 40001 only for a row a commit deleted: one a
					// compaction merely moved is followed (forward.go).
					tid := tb.(*txnTable).id
					if IsConcurrentUpdate(err) && slices.Contains(s.m.at(s, s.loadPrefix[me])[tid].rows, o.row) {
						s.failf("S%d's delete of %d failed with 40001, but the row is live in the version it checked (the first %d commits)", id, o.row, s.loadPrefix[me])
					}
					break
				}
				tt := tb.(*txnTable)
				if pseg, ok := txn.p.appendSeg[tt.id]; !ok || ids[0].Segment() != pseg {
					if deletedOf[txn.p] == nil {
						deletedOf[txn.p] = map[uint64][]int64{}
					}
					deletedOf[txn.p][tt.id] = append(deletedOf[txn.p][tt.id], o.row)
				} else {
					// A row it appended: the specification keeps it in
					// the appends, the view filters it out.
					own[o.row] = true
				}
			case opRead:
				// The statement's snapshot plus the transaction's own changes.
				before := txnState(txn)
				want := s.statementView(txn, own, snap)
				if want == nil || before.String() != want.String() {
					s.failf("S%d reads %v, but its snapshot (the first %d commits) with its own changes is %v", id, before, snap, want)
				}
				s.reads = append(s.reads, fmt.Sprintf("S%d read %v", id, before))
				s.park("pause", nil)
				if after := txnState(txn); after.String() != before.String() {
					s.failf("S%d's snapshot changed within a statement: %v, then %v", id, before, after)
				}
			}
			if err != nil {
				// A failed statement aborts the transaction.
				txn.Rollback()
				break ops
			}
		}
		if ts.rollback || txn.done {
			txn.Rollback()
			continue
		}
		// Commit's outcome is checked against the specification in ack.
		// deletedOf is keyed by the pending changes Commit submits.
		txn.Commit(ctx)
	}
}

// statementView is what the running statement of txn should see by the
// specification: its snapshot (the first snap commits of the queue) with the transaction's changes applied, less the rows it
// appended and deleted again (own); nil if those changes could not apply.
func (s *sim) statementView(txn *Txn, own map[int64]bool, snap int) modelState {
	want, ok, _ := specApply(s.m.at(s, snap), &commitReq{p: txn.p}, 0, nil, false)
	if !ok {
		return nil
	}
	for id, t := range want {
		t.rows = slices.DeleteFunc(t.rows, func(v int64) bool { return own[v] })
		want[id] = t
	}
	return want
}

// ---- the explorer ----

// newSimDB builds an in-memory DB whose commit protocol runs on a new sim
// over run, with table t holding four one-row segments (a run for the
// compactor).
func newSimDB(run *interleave.Run, wal, unique bool) (*sim, *DB) {
	db := &DB{log: slog.New(slog.NewTextHandler(io.Discard, nil)), compactC: make(chan struct{}, 1), locks: newLockTable()}
	db.nextID.Store(1)
	db.cur.Store(newVersion())
	s := &sim{db: db, run: run, idx: map[*commitReq]int{}, snapOf: map[*commitReq]int{}, acked: map[*commitReq]error{},
		writeFailed: map[*commitReq]bool{}}
	db.cs, db.store = s, simStore{dbStore{db}, s}
	if wal {
		db.wal, db.durable = &walLog{}, db.cur.Load()
	}
	ctx := context.Background()
	tb, err := db.Create(ctx, "t", cols1)
	if err != nil {
		panic(err)
	}
	for i := int64(1); i <= 4; i++ {
		if err := db.Append(ctx, tb, intBatch(i)); err != nil {
			panic(err)
		}
	}
	if n := len(db.cur.Load().tables["t"].segs); n != 4 {
		panic(fmt.Sprintf("setup: %d segments", n))
	}
	if unique {
		txn := db.Begin()
		ut, err := txn.CreateConstrained(ctx, uniqueTable, cols1, []Constraint{{Name: uniqueTable + "_pkey", Kind: ConPrimary, Cols: []string{"k"}}})
		if err != nil {
			panic(err)
		}
		if err := txn.Commit(ctx); err != nil {
			panic(err)
		}
		for i := int64(1); i <= 2; i++ {
			if err := db.Append(ctx, ut, intBatch(i)); err != nil {
				panic(err)
			}
		}
	}
	// The explored run starts here: prefix 0 is the set-up state.
	init, _ := versionState(db.cur.Load())
	s.queue, s.idx, s.snapOf, s.acked, s.dequeued = nil, map[*commitReq]int{}, map[*commitReq]int{}, map[*commitReq]error{}, 0
	s.m = &model{states: []modelState{init}}
	return s, db
}

// program is one run of sc on a fresh simulated DB; group is the
// committer's group function (nil: the shipped commitGroup).
func program(sc exploreScenario, group func(db *DB) func([]*commitReq)) func(*interleave.Run) {
	return func(run *interleave.Run) {
		s, db := newSimDB(run, sc.wal, sc.unique)
		s.failPersist = sc.failPersist
		commit := db.commitGroup
		if group != nil {
			commit = group(db)
		}
		s.committer = committerOf(sc)
		s.loadPrefix = make([]int, s.committer+1)
		run.Check(func() string { return s.failure })
		for i, txns := range sc.sessions {
			run.Go(fmt.Sprintf("S%d", i), func() { session(s, i, txns) })
		}
		if sc.compactor {
			run.Go("compactor", func() { db.compactOnce() })
		}
		run.Go("committer", func() { db.committerLoop(commit) })
		run.AtEnd(func() {
			s.finalChecks()
			if observeRun != nil {
				observeRun(s)
			}
		})
	}
}

// committerOf is the committer's thread number: it starts after the
// sessions and the compactor.
func committerOf(sc exploreScenario) int {
	if sc.compactor {
		return len(sc.sessions) + 1
	}
	return len(sc.sessions)
}

// dependent reports whether two steps (a thread's step runs from its park
// to its next park, and is named by the park's label) may not commute. The
// explorer skips a schedule in which an independent pair of adjacent steps
// runs the higher-numbered thread first: the lexicographically least
// schedule of each class of equivalent ones (Mazurkiewicz traces) has no
// such pair, so every class is still explored. The relation errs towards
// dependence:
//   - sends to the queue do not commute with each other (queue order) nor
//     with the committer taking from it (next, more);
//   - a load or a read of a snapshot (pause) does not commute with a
//     publication;
//   - a wait does not commute with any committer step (they acknowledge).
//
// Steps also differ in the ids they allocate (nextID), which the checks do
// not depend on. Enabling implies dependence here: a send enables next, an
// acknowledgement enables a wait, and a thread finishing enables the
// committer's last next, which is the highest-numbered thread.
func dependent(committer int) func(x, y interleave.Step) bool {
	return func(x, y interleave.Step) bool {
		a, la, b, lb := x.Thread, x.Label, y.Thread, y.Label
		if b == committer {
			a, la, b, lb = b, lb, a, la
		}
		if a != committer {
			// Row-lock steps (taking, waiting, releasing) of two
			// sessions do not commute either.
			return la == "send" && lb == "send" || isLockStep(la) && isLockStep(lb)
		}
		return committerDependent(la, lb)
	}
}

func isLockStep(l string) bool { return l == "lock" || l == "lockwait" }

// committerDependent: the committer's step la against another thread's lb.
func committerDependent(la, lb string) bool {
	switch lb {
	case "wait":
		return true
	case "send":
		return la == "next" || la == "more"
	case "load", "pause":
		return la == "publish"
	}
	return true
}

// finalChecks: everything queued was answered, the published and durable
// states are the whole queue applied, and no published version changed
// after its publication.
func (s *sim) finalChecks() {
	for i, r := range s.queue {
		if _, ok := s.acked[r]; !ok {
			s.failf("commit #%d (%s) never acknowledged", i, describe(r))
		}
	}
	want := s.m.at(s, len(s.queue)).String()
	if st, bad := versionState(s.db.cur.Load()); bad != "" || st.String() != want {
		s.failf("final version %v%s, the queue gives %s", st, bad, want)
	}
	for i, v := range s.versions {
		if st, _ := versionState(v); st.String() != s.contents[i] {
			s.failf("published version %d changed after publication: %s, now %v", i, s.contents[i], st)
		}
	}
}

// observeRun, if set, sees every complete schedule's final simulator state.
var observeRun func(s *sim)

// exploreAll enumerates the schedules of sc (with the reduction if
// reduce). It returns the number of complete schedules run, the number
// abandoned as equivalent to another, and the first failing schedule's
// trace and message.
func exploreAll(sc exploreScenario, group func(db *DB) func([]*commitReq), reduce bool) (schedules, abandoned int, failTrace []string, failure string) {
	var opt interleave.Options
	if reduce {
		opt.Dependent = dependent(committerOf(sc))
	}
	res := interleave.Explore(program(sc, group), opt)
	return res.Schedules, res.Abandoned, res.Trace, res.Failure
}

func ap(table string, row int64) op { return op{kind: opAppend, table: table, row: row} }

var (
	opRd = op{kind: opRead}
	opNS = op{kind: opNewStmt}
)

func cr(table string) op            { return op{kind: opCreate, table: table} }
func de(table string, row int64) op { return op{kind: opDelete, table: table, row: row} }
func dr(table string) op            { return op{kind: opDrop, table: table} }
func tr(table string) op            { return op{kind: opTruncate, table: table} }

func commitTxn(ops ...op) txnSpec   { return txnSpec{ops: ops} }
func rollbackTxn(ops ...op) txnSpec { return txnSpec{ops: ops, rollback: true} }

var exploreScenarios = []exploreScenario{
	{name: "two appenders and a compaction", compactor: true, sessions: [][]txnSpec{
		{commitTxn(ap("t", 10))},
		{commitTxn(ap("t", 20), ap("t", 21))},
	}},
	{name: "drop vs append vs compaction", compactor: true, sessions: [][]txnSpec{
		{commitTxn(dr("t"))},
		{commitTxn(ap("t", 20))},
	}},
	{name: "truncate vs compaction, with a reader", compactor: true, sessions: [][]txnSpec{
		{commitTxn(tr("t"), ap("t", 10), opRd)},
		{commitTxn(opRd, opNS, opRd)},
	}},
	{name: "create race and a rollback", sessions: [][]txnSpec{
		{commitTxn(cr("x"), ap("x", 10))},
		{commitTxn(cr("x"), ap("x", 20))},
		{rollbackTxn(ap("t", 30)), commitTxn(opRd)},
	}},
	{name: "two transactions each, drop then recreate", sessions: [][]txnSpec{
		{commitTxn(ap("t", 10)), commitTxn(dr("t"), cr("t"), ap("t", 11), opRd)},
		{commitTxn(ap("t", 20)), commitTxn(opRd)},
	}},
	{name: "three sessions: create, drop, append", sessions: [][]txnSpec{
		{commitTxn(cr("x"), ap("x", 10))},
		{commitTxn(dr("t"))},
		{commitTxn(ap("t", 30))},
	}},
	{name: "two transactions delete the same row", sessions: [][]txnSpec{
		{commitTxn(de("t", 2))},
		{commitTxn(de("t", 2), de("t", 3))},
	}},
	{name: "delete vs compaction, with a reader", compactor: true, sessions: [][]txnSpec{
		{commitTxn(de("t", 3), opRd)},
		{commitTxn(opRd, opNS, opRd)},
	}},
	// A compaction that ignored the deleter's row lock would move the
	// row away from the RowID its pending delete names, and the
	// deleter's next statement would see the row again.
	{name: "delete, then a new statement reads, vs compaction", compactor: true, sessions: [][]txnSpec{
		{commitTxn(de("t", 3), opNS, opRd)},
	}},
	{name: "delete own and committed rows vs truncate", sessions: [][]txnSpec{
		{commitTxn(ap("t", 10), de("t", 10), de("t", 1), opRd)},
		{commitTxn(tr("t"))},
	}},
	{name: "appender, dropper and a reader with a compaction", compactor: true, large: true, sessions: [][]txnSpec{
		{commitTxn(ap("t", 10))},
		{commitTxn(dr("t"))},
		{commitTxn(opRd)},
	}},
	// The committer's unique-key re-check (validateUnique, recheckUnique)
	// on uniqueTable, PRIMARY KEY (k) holding 1 and 2.
	{name: "unique: two transactions insert the same key", unique: true, sessions: [][]txnSpec{
		{commitTxn(ap("u", 5))},
		{commitTxn(ap("u", 5), opRd)},
	}},
	{name: "unique: two transactions insert different keys", unique: true, sessions: [][]txnSpec{
		{commitTxn(ap("u", 5))},
		{commitTxn(ap("u", 6))},
	}},
	{name: "unique: a key committed between the first check and a later one", unique: true, sessions: [][]txnSpec{
		{commitTxn(ap("u", 5), opNS, ap("u", 7))},
		{commitTxn(ap("u", 5))},
	}},
	{name: "unique: update moves a key while another inserts the new key", unique: true, sessions: [][]txnSpec{
		{commitTxn(de("u", 1), ap("u", 10))},
		{commitTxn(ap("u", 10))},
	}},
	{name: "unique: update moves a key while another inserts the old key", unique: true, sessions: [][]txnSpec{
		{commitTxn(de("u", 1), ap("u", 10))},
		{commitTxn(ap("u", 1), opRd)},
	}},
	{name: "unique: delete and re-insert a key committed since the first check", unique: true, sessions: [][]txnSpec{
		{commitTxn(ap("u", 7), opNS, de("u", 5), ap("u", 5))},
		{commitTxn(ap("u", 5))},
	}},
	{name: "unique: re-insert a key a committed delete removed", unique: true, sessions: [][]txnSpec{
		{commitTxn(de("u", 2))},
		{commitTxn(ap("u", 9), opNS, ap("u", 2))},
	}},
	{name: "unique: three transactions, two with the same key", unique: true, large: true, sessions: [][]txnSpec{
		{commitTxn(ap("u", 5))},
		{commitTxn(ap("u", 5))},
		{commitTxn(ap("u", 6))},
	}},
}

func TestCommitProtocolAllSchedules(t *testing.T) {
	if raceEnabled {
		// The explorer serializes the coroutines, so the detector sees
		// little here; TestCommitProtocolAllSchedulesWAL keeps the same
		// scenarios under it, and the plain go test runs this one.
		t.Skip("runs without the race detector; the WAL variant runs under it")
	}
	total := 0
	for _, sc := range exploreScenarios {
		if sc.large && raceEnabled {
			t.Logf("%s: skipped under the race detector", sc.name)
			continue
		}
		n, ab, trace, failure := exploreAll(sc, nil, true)
		if failure != "" {
			t.Fatalf("%s: %s\nschedule:\n  %s", sc.name, failure, strings.Join(trace, "\n  "))
		}
		if n < 2 {
			t.Fatalf("%s: only %d schedule explored", sc.name, n)
		}
		total += n
		t.Logf("%s: %d schedules (%d more abandoned as equivalent), invariants hold", sc.name, n, ab)
	}
	t.Logf("%d schedules in all", total)
}

// The same scenarios, with and without the write-ahead log, with a failed
// manifest write (the first or the second of each run, before its rename;
// with the log, a checkpoint's): the group fails whole, nothing of it is
// published or durable, and the commits after it apply as if it never
// was — the store goes on without a restart.
func TestCommitProtocolFailedManifestWrite(t *testing.T) {
	total, failed := 0, 0
	for _, sc := range exploreScenarios {
		if sc.large {
			continue
		}
		for _, n := range []int{1, 2, -1, -2} { // negative: with the write-ahead log
			sc.failPersist, sc.wal = max(n, -n), n < 0
			prev := observeRun
			observeRun = func(s *sim) {
				if len(s.writeFailed) > 0 {
					failed++
				}
			}
			k, _, trace, failure := exploreAll(sc, nil, true)
			observeRun = prev
			if failure != "" {
				t.Fatalf("%s, manifest write %d failing: %s\nschedule:\n  %s", sc.name, n, failure, strings.Join(trace, "\n  "))
			}
			total += k
		}
	}
	if failed == 0 {
		t.Fatal("no schedule reached a failing manifest write")
	}
	t.Logf("%d schedules, %d with a failed manifest write; invariants hold", total, failed)
}

// The same scenarios with the write-ahead log: appends, deletes and
// compactions go to the log, creates, drops and truncates checkpoint, and
// every invariant still holds.
func TestCommitProtocolAllSchedulesWAL(t *testing.T) {
	total, logged := 0, 0
	for _, sc := range exploreScenarios {
		if sc.large && raceEnabled {
			t.Logf("%s: skipped under the race detector", sc.name)
			continue
		}
		sc.wal = true
		prev := observeRun
		observeRun = func(s *sim) {
			if s.db.wal.size > 0 || s.db.wal.gen > 0 {
				logged++
			}
		}
		n, ab, trace, failure := exploreAll(sc, nil, true)
		observeRun = prev
		if failure != "" {
			t.Fatalf("%s: %s\nschedule:\n  %s", sc.name, failure, strings.Join(trace, "\n  "))
		}
		total += n
		t.Logf("%s: %d schedules (%d more abandoned as equivalent), invariants hold", sc.name, n, ab)
	}
	if logged == 0 {
		t.Fatal("no schedule went through the log")
	}
	t.Logf("%d schedules in all, %d through the log", total, logged)
}

// The unique scenarios reach the outcomes they are there for: a duplicate
// refused by Append (the statement sees the key), one refused by the
// committer's re-check (it does not), and every transaction committing
// where an UPDATE or a delete freed the key.
func TestExplorerReachesUniqueOutcomes(t *testing.T) {
	want := map[string][]string{
		"unique: two transactions insert the same key":                       {"append 23505", "commit 23505"},
		"unique: two transactions insert different keys":                     {"all commit"},
		"unique: a key committed between the first check and a later one":    {"append 23505", "commit 23505"},
		"unique: update moves a key while another inserts the new key":       {"append 23505", "commit 23505"},
		"unique: update moves a key while another inserts the old key":       {"append 23505", "all commit"},
		"unique: delete and re-insert a key committed since the first check": {"commit 23505", "all commit"},
		"unique: re-insert a key a committed delete removed":                 {"append 23505", "all commit"},
		"unique: three transactions, two with the same key":                  {"append 23505", "commit 23505"},
	}
	for _, sc := range exploreScenarios {
		if !sc.unique || sc.large && raceEnabled {
			continue
		}
		seen := map[string]bool{}
		observeRun = func(s *sim) {
			all := s.dupAppend == 0
			for _, r := range s.queue {
				if err := s.acked[r]; err != nil {
					all = false
					if pgerr.Code(err) == codeUniqueViolation {
						seen["commit 23505"] = true
					}
				}
			}
			if s.dupAppend > 0 {
				seen["append 23505"] = true
			}
			if all {
				seen["all commit"] = true
			}
		}
		_, _, trace, failure := exploreAll(sc, nil, true)
		observeRun = nil
		if failure != "" {
			t.Fatalf("%s: %s\n  %s", sc.name, failure, strings.Join(trace, "\n  "))
		}
		w, ok := want[sc.name]
		if !ok {
			t.Fatalf("%s: no expected outcomes", sc.name)
		}
		for _, o := range w {
			if !seen[o] {
				t.Errorf("%s: no schedule reaches %q (reached %v)", sc.name, o, keys(seen))
			}
		}
		t.Logf("%s: reaches %v", sc.name, keys(seen))
	}
}

// outcome is what a schedule did, up to the order of equivalent steps: the
// final state and each commit's outcome (by content, as queue order and ids
// may differ).
func (s *sim) outcome() string {
	var parts []string
	for _, r := range s.queue {
		d := describe(r)
		if r.p != nil {
			// Table ids depend on allocation order; names do not.
			d = fmt.Sprintf("%d changes", len(r.p.created)+len(r.p.dropped)+len(r.p.truncated)+len(r.p.appends)+len(r.p.deletes))
			for _, recs := range r.p.appends {
				d += fmt.Sprint(recRows(recs))
			}
		}
		parts = append(parts, fmt.Sprintf("%s→%v", d, s.acked[r] == nil))
	}
	parts = append(parts, s.reads...)
	sort.Strings(parts)
	st, _ := versionState(s.db.cur.Load())
	var tables []string
	for _, t := range st {
		tables = append(tables, fmt.Sprintf("%s%v", t.name, t.rows))
	}
	sort.Strings(tables)
	return strings.Join(parts, " ") + " | " + strings.Join(tables, " ")
}

// The reduction loses no behaviour: on scenarios small enough to explore
// without it, both explorations reach the same set of outcomes.
func TestExplorerReductionKeepsOutcomes(t *testing.T) {
	for _, sc := range []exploreScenario{
		{name: "append vs drop", sessions: [][]txnSpec{{commitTxn(ap("t", 10))}, {commitTxn(dr("t"))}}},
		{name: "create race", sessions: [][]txnSpec{{commitTxn(cr("x"), ap("x", 10))}, {commitTxn(cr("x"), ap("x", 20))}}},
		{name: "truncate vs compaction", compactor: true, sessions: [][]txnSpec{{commitTxn(tr("t"), ap("t", 10))}}},
		{name: "reader vs appender", sessions: [][]txnSpec{{commitTxn(ap("t", 10))}, {commitTxn(opRd, opNS, opRd)}}},
		{name: "two deleters", sessions: [][]txnSpec{{commitTxn(de("t", 2))}, {commitTxn(de("t", 2), de("t", 3))}}},
	} {
		seen := [2]map[string]bool{{}, {}}
		var counts [2]int
		for k, reduce := range []bool{false, true} {
			observeRun = func(s *sim) { seen[k][s.outcome()] = true }
			n, _, trace, failure := exploreAll(sc, nil, reduce)
			observeRun = nil
			if failure != "" {
				t.Fatalf("%s (reduce=%v): %s\n  %s", sc.name, reduce, failure, strings.Join(trace, "\n  "))
			}
			counts[k] = n
		}
		if fmt.Sprint(seen[0]) != fmt.Sprint(seen[1]) {
			t.Fatalf("%s: outcomes without reduction %v, with %v", sc.name, seen[0], seen[1])
		}
		if counts[1] > counts[0] {
			t.Fatalf("%s: reduction explored more schedules (%d > %d)", sc.name, counts[1], counts[0])
		}
		t.Logf("%s: %d schedules, %d with the reduction, %d outcomes: %v", sc.name, counts[0], counts[1], len(seen[0]), keys(seen[0]))
	}
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// ---- deliberately broken committers: the explorer must catch each ----

// ackBeforeDurable acknowledges the group before its manifest is written.
func ackBeforeDurable(db *DB) func([]*commitReq) {
	return func(group []*commitReq) {
		g := db.decide(group)
		if g == nil {
			return
		}
		if err := g.writeSegments(); err != nil {
			g.fail(err)
			return
		}
		g.acknowledge() // BUG: a crash now loses an acknowledged commit
		g.persist()
		g.publish()
	}
}

// publishEachCommit publishes after each commit of a group instead of once
// the whole group is applied, and applies the rest of the group onto the
// version it already published.
func publishEachCommit(db *DB) func([]*commitReq) {
	return func(group []*commitReq) {
		old := db.cs.load()
		work, touched := old.clone(), map[uint64]bool{}
		for _, r := range group {
			var err error
			if r.compact != nil {
				err = applyCompaction(work, touched, r.compact)
			} else {
				err = applyPending(work, touched, r.p)
			}
			if err != nil {
				db.cs.ack(r, err)
				continue
			}
			g := &groupCommit{db: db, old: old, work: work, touched: touched, ok: []*commitReq{r}, newFiles: r.compact != nil}
			if g.writeSegments() != nil || g.persist() != nil {
				g.fail(err)
				continue
			}
			g.publish() // BUG: the next commit of the group changes this published version
			g.acknowledge()
		}
	}
}

// staleCompaction applies a compaction to whatever segments its table has
// now, without checking they are the ones it merged.
func staleCompaction(db *DB) func([]*commitReq) {
	return func(group []*commitReq) {
		v := db.cs.load()
		for _, r := range group {
			c := r.compact
			if c == nil {
				continue
			}
			if t := v.byID[c.table]; t != nil && len(t.segs) > 0 {
				c.old = t.segs[:min(len(c.old), len(t.segs))] // BUG: no validation
			}
		}
		db.commitGroup(group)
	}
}

// inPlaceVersion applies the group to the published version itself rather
// than to a copy (tables are still copied on write, the catalog maps are
// not): a table created or dropped shows up in snapshots already taken.
func inPlaceVersion(db *DB) func([]*commitReq) {
	return func(group []*commitReq) {
		old := db.cs.load()
		g := &groupCommit{db: db, old: old, work: old, touched: map[uint64]bool{}} // BUG: no clone
		for _, r := range group {
			var err error
			if r.compact != nil {
				err = applyCompaction(g.work, g.touched, r.compact)
			} else {
				err = applyPending(g.work, g.touched, r.p)
			}
			if err != nil {
				db.cs.ack(r, err)
				continue
			}
			g.newFiles = g.newFiles || r.compact != nil
			g.ok = append(g.ok, r)
		}
		if len(g.ok) == 0 {
			return
		}
		if err := g.writeSegments(); err != nil {
			g.fail(err)
			return
		}
		if err := g.persist(); err != nil {
			g.fail(err)
			return
		}
		g.publish()
		g.acknowledge()
	}
}

// lockBlindCompaction applies compactions whatever row locks are held: a
// transaction that locked a row of the run then fails at commit although
// no one else deleted the row.
func lockBlindCompaction(db *DB) func([]*commitReq) {
	return func(group []*commitReq) {
		for _, r := range group {
			if r.compact != nil {
				r.compact.locks = nil // BUG: row locks ignored
			}
		}
		db.commitGroup(group)
	}
}

// deletesOfGoneSegments drops a commit's deletes of segments no longer in
// the table (truncated since) instead of failing the commit.
func deletesOfGoneSegments(db *DB) func([]*commitReq) {
	return func(group []*commitReq) {
		v := db.cs.load()
		for _, r := range group {
			if r.p == nil {
				continue
			}
			for tid, segs := range r.p.deletes {
				kept := map[uint64]*DeleteVector{}
				for sid, dv := range segs {
					if v.byID[tid].segment(sid) != nil {
						kept[sid] = dv
					}
				}
				r.p.deletes[tid] = kept // BUG: a delete of a truncated row "succeeds"
			}
		}
		db.commitGroup(group)
	}
}

// noUniqueRecheck skips the committer's re-check of unique keys: two
// transactions inserting the same key both commit.
func noUniqueRecheck(db *DB) func([]*commitReq) {
	return func(group []*commitReq) {
		for _, r := range group {
			if r.p != nil && r.p.idx != nil {
				ip := r.p.idx.clone()
				ip.checked = map[uint64]uint64{} // BUG: nothing to re-check
				r.p.idx = ip
			}
		}
		db.commitGroup(group)
	}
}

// uniqueRecheckSkipsNewSegments re-checks unique keys only against rows
// not yet in a segment (the group's earlier commits), taking every
// committed segment for one the transaction checked at its first check.
func uniqueRecheckSkipsNewSegments(db *DB) func([]*commitReq) {
	return func(group []*commitReq) {
		v := db.cs.load()
		for _, r := range group {
			if r.p == nil || r.p.idx == nil {
				continue
			}
			ip := r.p.idx.clone()
			ip.checkedSegs = map[uint64]map[*segment]bool{}
			for id := range ip.checked {
				all := map[*segment]bool{}
				if t := v.byID[id]; t != nil {
					for _, s := range t.segs {
						all[s] = true // BUG: segments committed since are skipped
					}
				}
				ip.checkedSegs[id] = all
			}
			r.p.idx = ip
		}
		db.commitGroup(group)
	}
}

// uniqueRecheckBeforeGroup re-checks unique keys against the published
// version, not against it with the group's earlier commits applied: two
// commits of one group inserting the same key both apply.
func uniqueRecheckBeforeGroup(db *DB) func([]*commitReq) {
	return recheckBeforeGroup(db, validateUnique, false) // BUG: v, not work
}

// uniqueRecheckIgnoresOwnDeletes also re-checks a transaction's new keys
// against the committed rows without subtracting its own deletes: an
// UPDATE that deletes a key committed since its first check and inserts
// it again fails with a false 23505.
func uniqueRecheckIgnoresOwnDeletes(db *DB) func([]*commitReq) {
	return recheckBeforeGroup(db, func(v *version, p *pending) error {
		blind := *p
		blind.deletes = nil // BUG: the transaction's deletes not subtracted
		return validateUnique(v, &blind)
	}, true)
}

// recheckBeforeGroup runs check on each commit of the group against the
// published version, failing those it refuses, then commits the rest with
// the shipped re-check (keep) or without it.
func recheckBeforeGroup(db *DB, check func(v *version, p *pending) error, keep bool) func([]*commitReq) {
	return func(group []*commitReq) {
		v := db.cs.load()
		var rest []*commitReq
		for _, r := range group {
			if r.p != nil && r.p.idx != nil {
				if err := check(v, r.p); err != nil {
					db.cs.ack(r, err)
					continue
				}
				if !keep {
					ip := r.p.idx.clone()
					ip.checked = map[uint64]uint64{}
					r.p.idx = ip
				}
			}
			rest = append(rest, r)
		}
		if len(rest) > 0 {
			db.commitGroup(rest)
		}
	}
}

// The explorer finds a failing schedule for each broken committer, running
// the same scenarios as TestCommitProtocolAllSchedules (a broken unique-key
// re-check: the unique scenarios, with the log off and on).
func TestExplorerCatchesBrokenCommitters(t *testing.T) {
	for _, b := range []struct {
		name  string
		group func(*DB) func([]*commitReq)
		// raceOnly: the bug shows only under some schedules (the
		// others are wrong in every schedule that forms a group).
		raceOnly bool
		unique   bool
	}{
		{"acknowledge before the manifest is durable", ackBeforeDurable, false, false},
		{"publish before the whole group is applied", publishEachCommit, false, false},
		{"compaction without validation", staleCompaction, true, false},
		{"group applied to the published version in place", inPlaceVersion, true, false},
		{"compaction ignores row locks", lockBlindCompaction, true, false},
		{"deletes of truncated segments dropped, not refused", deletesOfGoneSegments, true, false},
		{"unique keys not re-checked", noUniqueRecheck, false, true},
		{"unique re-check skips segments committed since the first check", uniqueRecheckSkipsNewSegments, true, true},
		{"unique re-check ignores the group's earlier commits", uniqueRecheckBeforeGroup, false, true},
		{"unique re-check ignores the transaction's own deletes", uniqueRecheckIgnoresOwnDeletes, true, true},
	} {
		wals := []bool{false}
		if b.unique {
			wals = []bool{false, true}
		}
		for _, wal := range wals {
			found := false
			total := 0
			for _, sc := range exploreScenarios {
				if sc.large && raceEnabled || b.unique && !sc.unique {
					continue
				}
				sc.wal = wal
				n, _, trace, failure := exploreAll(sc, b.group, true)
				total += n
				if failure == "" {
					continue
				}
				found = true
				if b.raceOnly && n < 2 {
					t.Errorf("%s: failed on the first schedule of %q; expected a schedule-dependent failure", b.name, sc.name)
				}
				t.Logf("%s (wal=%v): fails on %q after %d schedules (%d in all): %s\nschedule:\n  %s",
					b.name, wal, sc.name, n, total, failure, strings.Join(trace, "\n  "))
				break
			}
			if !found {
				t.Errorf("%s (wal=%v): explorer found no failing schedule in %d schedules", b.name, wal, total)
			}
		}
	}
}
