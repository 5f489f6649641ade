package storage

import (
	"context"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/joind/joind/pgerr"
)

// The commit protocol: how transactions and compaction change the
// committed state, and what readers may rely on.
//
// Sessions queue commits (submit); one committer goroutine takes every
// queued commit as a group, validates and applies them in order to a copy of
// the published version (applyGroup, the decision), writes one segment per
// touched table and one manifest, publishes the new version and acknowledges
// each commit. Compaction (compact.go) is one more kind of commit in the same
// queue. INVARIANTS (checked after every schedule by the explorer in
// commit_explore_test.go):
//
//   - Order: commits are applied in queue order, each against the state the
//     earlier ones left, so the committed history is one sequence.
//   - Whole groups: a version is published only once every commit of its
//     group is applied and its segments written, and is never modified after
//     (copy on write), so every published version is the state after some
//     prefix of the queue.
//   - Durability: a version is published only after the manifest naming its
//     segments is durable, and a commit is acknowledged only after that
//     publication: an acknowledged commit survives a crash, and the session's
//     next statement sees it.
//   - Atomic failure: a conflicting commit (its table dropped or truncated by
//     an earlier one, its new name taken) fails whole and changes nothing; a
//     failed write fails the whole group.
//   - Snapshots: a reader's snapshot (Txn: the version pinned at statement
//     start) never changes; it only ever moves forward, to a later version.
//   - Compaction never loses, duplicates or reorders a row, and never
//     replaces a segment a concurrent commit removed (truncated, dropped):
//     it applies only if its run of segments is still in place.
//
// The synchronization points — the queue, publication, acknowledgement — go
// through commitSync, and the side effects (segment files, manifest) through
// commitStore. The shipped DB instantiates them with a channel, an atomic
// pointer and per-commit channels (chanSync) and the data directory
// (dbStore); the explorer instantiates them with a deterministic scheduler
// over this same code. Keep every step of the protocol in the code below
// (committerLoop, commitGroup and its phases): a second copy elsewhere would
// not be covered by the model check.

// commitSync is the committer protocol's synchronization points.
type commitSync interface {
	// send queues r (session side); errClosed once the DB is closing.
	send(r *commitReq) error
	// wait returns r's outcome once the committer acknowledged it.
	wait(r *commitReq) error
	// next waits for the first commit of the next group; false once the DB
	// is closed and nothing is queued.
	next() (*commitReq, bool)
	// more takes another queued commit without waiting.
	more() (*commitReq, bool)
	// load returns the published version.
	load() *version
	// publish makes v the version later statements read.
	publish(v *version)
	// ack delivers r's outcome to its submitter.
	ack(r *commitReq, err error)
	// lockPoint comes before a session changes the row-lock table
	// (rowlock.go), lockWait waits until ch is closed (a release) or
	// ctx is done.
	lockPoint()
	lockWait(ctx context.Context, ch <-chan struct{}) error
}

// commitStore is where the committer's durable effects go.
type commitStore interface {
	// newSegment stores recs (rows of a table with columns cols) as
	// segment id, durably if the DB syncs.
	newSegment(id uint64, cols []ColumnDef, recs []arrow.Record) (*segment, error)
	// removeSegment deletes the file of a segment no manifest names.
	removeSegment(s *segment)
	// newDeleteFile stores a deletion-vector delta file (dvfile.go).
	newDeleteFile(id uint64, entries []delEntry) (delFileRef, error)
	// removeDeleteFile deletes a delta file no manifest names.
	removeDeleteFile(id uint64)
	// persist makes v (with the id counter at nextID) the durable state:
	// once it returns nil, a crash recovers v. newFiles: some segment v
	// names was written since the last persist.
	persist(v *version, nextID uint64, newFiles bool) error
	// appendLog appends a logged group's record to the log the durable
	// manifest names, durably if sync (wal.go); startLog begins generation
	// gen's log once a manifest naming it is durable.
	appendLog(v *version, record []byte, sync bool) error
	// flushSegment writes the file of an in-memory segment of the log
	// (a checkpoint).
	flushSegment(s *segment) error
	startLog(gen uint64) error
}

// commitReq is one transaction's changes (or one compaction) waiting for
// the committer.
type commitReq struct {
	p       *pending
	ser     *serialCheck // a SERIALIZABLE transaction's reads (isolation.go)
	compact *compaction
	done    chan error
}

// compaction replaces a contiguous run of a table's segments by one.
type compaction struct {
	table uint64
	old   []*segment
	dels  []*DeleteVector // old's deleted rows the merged segment left out
	seg   *segment        // nil: old had no live row left
	locks *lockTable      // a row lock on old makes it wait (nil: none checked)
	// refile, when set, is a delta file holding the deletes of
	// old[0]'s delta files refiled (a run of its list), to replace that
	// run (the segment and its rows stay).
	refile  *delFileRef
	refiled []delFileRef
	// walBytes is seg's log encoding (wal.go), made by the compactor so
	// the committer only appends it.
	walBytes []byte
	// pruneMoves: no transaction with a fixed snapshot was open when the
	// compaction was made, so the table's older row moves (forward.go)
	// are dropped.
	pruneMoves bool
}

var errClosed = pgerr.New(pgerr.AdminShutdown, "terminating connection due to administrator command")

// submit hands r to the committer and waits for the outcome. Once
// submitted a commit is not abandoned: the caller must learn whether it
// happened.
func (db *DB) submit(r *commitReq) error {
	if err := db.cs.send(r); err != nil {
		return err
	}
	return db.cs.wait(r)
}

// chanSync is the shipped commitSync: a buffered channel as the queue, the
// DB's atomic version pointer, a one-slot channel per commit for its
// outcome.
type chanSync struct{ db *DB }

func (s chanSync) send(r *commitReq) error {
	db := s.db
	r.done = make(chan error, 1)
	db.sendMu.RLock()
	defer db.sendMu.RUnlock()
	if db.closed {
		return errClosed
	}
	db.commits <- r
	return nil
}

func (s chanSync) wait(r *commitReq) error { return <-r.done }

func (s chanSync) next() (*commitReq, bool) {
	select {
	case r := <-s.db.commits:
		return r, true
	case <-s.db.quit:
		// Close waited for all senders: finish what is queued.
		return s.more()
	}
}

func (s chanSync) more() (*commitReq, bool) {
	select {
	case r := <-s.db.commits:
		return r, true
	default:
		return nil, false
	}
}

func (s chanSync) load() *version              { return s.db.cur.Load() }
func (s chanSync) publish(v *version)          { s.db.cur.Store(v) }
func (s chanSync) ack(r *commitReq, err error) { r.done <- err }
func (s chanSync) lockPoint()                  {}

func (s chanSync) lockWait(ctx context.Context, ch <-chan struct{}) error {
	select {
	case <-ch:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// dbStore is the shipped commitStore: segment files and the manifest in
// the data directory, or nothing at all for an in-memory DB.
type dbStore struct{ db *DB }

func (s dbStore) newSegment(id uint64, cols []ColumnDef, recs []arrow.Record) (*segment, error) {
	if s.db.dir == "" {
		return memSegment(id, cols, recs)
	}
	return writeSegment(s.db.dir, id, cols, recs, s.db.sync(), !s.db.opts.NoCompression)
}

func (s dbStore) newDeleteFile(id uint64, entries []delEntry) (delFileRef, error) {
	if s.db.dir == "" {
		return delFileRef{ID: id}, nil
	}
	return writeDeleteFile(s.db.dir, id, entries, s.db.sync())
}

func (s dbStore) removeDeleteFile(id uint64) {
	if s.db.dir != "" {
		os.Remove(filepath.Join(s.db.dir, deleteFile(id)))
	}
}

func (s dbStore) removeSegment(seg *segment) {
	seg.onDisk.Store(false)
	s.db.cache.forget(seg)
	if s.db.dir != "" {
		os.Remove(filepath.Join(s.db.dir, segmentFile(seg.id)))
	}
}

func (s dbStore) persist(v *version, nextID uint64, newFiles bool) error {
	db := s.db
	if db.dir == "" {
		return nil
	}
	if db.sync() && newFiles {
		// The segments' directory entries must be durable before the
		// manifest that names them.
		if err := syncDir(db.dir); err != nil {
			return err
		}
	}
	m, err := encodeManifest(v, nextID)
	if err == nil {
		err = writeManifest(db.dir, m, db.sync())
	}
	var unchanged *manifestUnchanged
	if errors.As(err, &unchanged) {
		// The old manifest stands and v is not published: the group
		// fails, the store goes on as it was.
		db.log.Warn("storage: manifest write failed; the commit is refused, the store unchanged", "err", err)
		return unchanged.err
	}
	if err != nil {
		// The rename may or may not have happened: until a manifest of
		// the durable state is written again (repairManifest, before the
		// next group), the disk cannot be trusted to match it.
		db.failed = pgerr.Wrap(err, codeIOError, "data directory is in an unknown state after a failed write: %v", err)
		db.failedManifest = true
		db.log.Error("storage: manifest write failed; refusing commits until it is rewritten", "err", err)
	}
	return err
}

// repairManifest rewrites the manifest of the durable state after a write
// that failed half-way (failedManifest): once it succeeds the disk matches
// memory again and commits resume, without a restart.
func (db *DB) repairManifest() {
	if db.failed != nil && db.failedLogGen != 0 {
		if err := db.rotateLog(db.failedLogGen - 1); err != nil {
			db.log.Warn("storage: the log still cannot be started", "err", err)
			return
		}
		db.failed, db.failedLogGen = nil, 0
		db.log.Info("storage: log started; commits resume")
	}
	if db.failed == nil || !db.failedManifest {
		return
	}
	v := db.durable
	if v == nil {
		v = db.cs.load()
	}
	m, err := encodeManifest(v, db.nextID.Load())
	if err == nil {
		err = writeManifest(db.dir, m, db.sync())
	}
	if err != nil {
		db.log.Warn("storage: manifest still not writable", "err", err)
		return
	}
	db.failed, db.failedManifest = nil, false
	db.log.Info("storage: manifest rewritten; commits resume")
}

func (s dbStore) appendLog(_ *version, record []byte, sync bool) error {
	db := s.db
	if db.dir == "" {
		db.wal.size += int64(len(record))
		return nil
	}
	err := db.wal.append(record, sync && db.sync())
	db.noteWALPos()
	if err != nil {
		db.failed = pgerr.Wrap(err, codeIOError, "data directory is in an unknown state after a failed log write (restart joind): %v", err)
		db.log.Error("storage: log write failed; refusing further commits", "err", err)
	}
	return err
}

func (s dbStore) startLog(gen uint64) error {
	db := s.db
	if db.wal == nil {
		return nil
	}
	if db.dir == "" {
		db.wal.gen, db.wal.size = gen, 0
		return nil
	}
	err := db.rotateLog(gen)
	db.noteWALPos()
	if err != nil {
		db.failed = pgerr.Wrap(err, codeIOError, "the write-ahead log could not be started: %v", err)
		db.failedLogGen = gen + 1
		db.log.Error("storage: starting the log failed; refusing commits until it starts", "err", err)
	}
	return err
}

func (s dbStore) flushSegment(seg *segment) error {
	if s.db.dir != "" {
		f, err := writeSegment(s.db.dir, seg.id, seg.layout, seg.recs, s.db.sync(), !s.db.opts.NoCompression)
		if err != nil {
			return err
		}
		// Only the committer reads a segment's file fields.
		seg.size, seg.crc = f.size, f.crc
		seg.onDisk.Store(true)
	}
	seg.wal = false
	return nil
}

// maxGroup bounds a group, so one manifest write never waits on an
// unbounded queue.
const maxGroup = 512

// committer is the committer goroutine.
func (db *DB) committer() {
	defer db.wg.Done()
	db.committerLoop(db.commitGroup)
}

// committerLoop applies queued commits in groups: everything queued while
// the previous group was being written shares one manifest write (group
// commit). commit is db.commitGroup (a parameter only so a test can run a
// deliberately broken variant through the same loop).
func (db *DB) committerLoop(commit func([]*commitReq)) {
	for {
		r, ok := db.cs.next()
		if !ok {
			return
		}
		group := []*commitReq{r}
		for len(group) < maxGroup {
			r, ok := db.cs.more()
			if !ok {
				break
			}
			group = append(group, r)
		}
		commit(group)
	}
}

// commitGroup validates and applies each request on a working copy of the
// current version, writes the new segments and the manifest, publishes the
// new version and answers every request. The order of the phases is the
// protocol: decide → write segments → persist → publish → acknowledge.
func (db *DB) commitGroup(group []*commitReq) {
	g := db.decide(group)
	if g == nil {
		return
	}
	g.logged = g.logs()
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

// groupCommit is one group on its way through the committer.
type groupCommit struct {
	db       *DB
	old      *version        // the published version the group applies to
	work     *version        // old with the group's commits applied; private until published
	touched  map[uint64]bool // tables of work copied (and changed) by the group
	ok       []*commitReq    // the commits that applied, in queue order
	newFiles bool            // a compaction wrote a segment file
	written  []*segment      // segments written for the group
	wroteDel []uint64        // deletion-vector files written for the group
	// logged: the group is made durable by a log record (wal.go), else
	// it checkpoints; record is that record.
	logged bool
	record []byte
}

// decide loads the published version and applies the group to a copy of
// it (applyGroup). A commit that fails validation is answered at once: it
// changed nothing. It returns nil if no commit of the group applied.
func (db *DB) decide(group []*commitReq) *groupCommit {
	db.repairManifest()
	if db.failed != nil {
		for _, r := range group {
			db.cs.ack(r, db.failed)
		}
		return nil
	}
	old := db.cs.load()
	work, touched, errs := applyGroup(old, group)
	g := &groupCommit{db: db, old: old, work: work, touched: touched, ok: make([]*commitReq, 0, len(group))}
	for i, r := range group {
		if errs[i] != nil {
			if c := r.compact; c != nil && c.seg != nil {
				db.store.removeSegment(c.seg)
			} else if c != nil && c.refile != nil {
				db.store.removeDeleteFile(c.refile.ID)
			}
			db.cs.ack(r, errs[i])
			continue
		}
		g.newFiles = g.newFiles || r.compact != nil
		g.ok = append(g.ok, r)
	}
	if len(g.ok) == 0 {
		return nil
	}
	return g
}

// applyGroup is the committer's decision: it validates and applies each
// commit of group, in order, to a copy of old, each against the state the
// earlier ones left. A commit that fails validation changes nothing (its
// error is errs[i]). It touches no shared state and writes nothing; the
// rows of the group are left in work's tables' fresh lists, for
// writeSegments.
func applyGroup(old *version, group []*commitReq) (work *version, touched map[uint64]bool, errs []error) {
	work = old.clone()
	touched = map[uint64]bool{}
	errs = make([]error, len(group))
	for i, r := range group {
		if r.compact != nil {
			errs[i] = applyCompaction(work, touched, r.compact)
		} else if r.ser != nil {
			if errs[i] = r.ser.check(work); errs[i] == nil {
				errs[i] = applyPending(work, touched, r.p)
			}
		} else {
			errs[i] = applyPending(work, touched, r.p)
		}
	}
	return work, touched, errs
}

// fail answers every applied commit of the group with err; nothing of the
// group is published.
func (g *groupCommit) fail(err error) {
	g.unretire()
	for _, r := range g.ok {
		g.db.cs.ack(r, err)
	}
}

// writeSegments turns the rows the group added to each table into
// segments: one per table per group, however many commits fed it.
func (g *groupCommit) writeSegments() error {
	db := g.db
	if g.logged {
		return g.logSegments()
	}
	if err := g.checkpoint(); err != nil {
		return err
	}
	for id := range g.touched {
		t, live := g.work.byID[id]
		if !live || len(t.fresh) == 0 {
			continue
		}
		// A large write (COPY of millions of rows) becomes several
		// segments of at most maxRows rows, so their statistics can let a
		// filter skip most of it; they still share the group's one
		// manifest write, so the statement stays atomic.
		for _, recs := range splitRecords(coalesce(t.fresh), maxRows) {
			seg, err := db.store.newSegment(db.nextID.Add(1)-1, t.cols, recs)
			if err != nil {
				for _, s := range g.written {
					db.store.removeSegment(s)
				}
				return err
			}
			g.written = append(g.written, seg)
			t.segs = append(t.segs, seg)
			t.rows += seg.rows
		}
		t.fresh = nil
	}
	return g.writeDeletes()
}

// writeDeletes makes the rows the group deleted durable: a segment's few
// recent deletes stay inline in the manifest (which is written anyway, so
// a small UPDATE costs no extra fsync); once they outgrow maxInline they
// go, with the segment's earlier inline ones, into one deletion-vector
// delta file for the group, listed for each segment it covers.
func (g *groupCommit) writeDeletes() error {
	db := g.db
	var entries []delEntry
	var tables []*tableState
	spilled := map[*tableState][]uint64{}
	for id := range g.touched {
		t, live := g.work.byID[id]
		if !live || len(t.freshDels) == 0 {
			continue
		}
		if db.dir == "" {
			// In memory the vectors are the only copy.
			t.freshDels = nil
			continue
		}
		for seg, offs := range t.freshDels {
			merged := append(slices.Clone(t.delInline[seg]), offs...)
			slices.Sort(merged)
			if len(merged) <= maxInline {
				if t.delInline == nil {
					t.delInline = map[uint64][]int64{}
				}
				t.delInline[seg] = merged
				continue
			}
			delete(t.delInline, seg)
			entries = append(entries, delEntry{table: id, seg: seg, offs: merged})
			spilled[t] = append(spilled[t], seg)
		}
		t.freshDels = nil
		tables = append(tables, t)
	}
	if len(entries) == 0 {
		return nil
	}
	ref, err := db.store.newDeleteFile(db.nextID.Add(1)-1, entries)
	if err != nil {
		for _, s := range g.written {
			db.store.removeSegment(s)
		}
		return err
	}
	g.wroteDel = append(g.wroteDel, ref.ID)
	for t, segs := range spilled {
		if t.delFiles == nil {
			t.delFiles = map[uint64][]delFileRef{}
		}
		for _, seg := range segs {
			t.delFiles[seg] = append(t.delFiles[seg][:len(t.delFiles[seg]):len(t.delFiles[seg])], ref)
		}
	}
	return nil
}

// maxInline is how many deleted offsets of a segment the manifest holds
// inline before they move to a delta file.
const maxInline = 1024

// persist makes the group's version durable: its manifest names every
// segment it needs and nothing the group wrote is missing from the disk.
func (g *groupCommit) persist() error {
	if g.logged {
		binary.LittleEndian.PutUint64(g.record, g.db.nextID.Load())
		return g.db.store.appendLog(g.work, g.record, !g.onlyCompactions())
	}
	if err := g.db.store.persist(g.work, g.db.nextID.Load(), g.newFiles || len(g.written) > 0 || len(g.wroteDel) > 0); err != nil {
		return err
	}
	// The manifest naming the group is durable, so the group stands even
	// if its log cannot be started: later groups wait until it is
	// (repairStore).
	_ = g.db.store.startLog(g.work.walGen)
	return nil
}

// publish makes the group's version the one later statements read (after
// persist: nothing visible can be lost by a crash) and retires the segments
// it no longer names.
func (g *groupCommit) publish() {
	g.db.cs.publish(g.work)
	g.unretire()
	base := g.old
	if g.db.wal != nil {
		if g.logged {
			// The durable manifest still names the files the group's
			// compactions replaced: they go at the next checkpoint.
			return
		}
		base, g.db.durable = g.db.durable, g.work
	}
	g.db.retire(unreferenced(base, g.work))
	// Delta files are read only at start-up: one the durable manifest no
	// longer names can go at once.
	for _, id := range unreferencedDeletes(base, g.work) {
		g.db.store.removeDeleteFile(id)
	}
}

// acknowledge answers every applied commit (after publish: a session's
// next statement sees its commit) and wakes the compactor if the group
// wrote segments.
func (g *groupCommit) acknowledge() {
	for _, r := range g.ok {
		g.db.cs.ack(r, nil)
	}
	if len(g.written) > 0 {
		select {
		case g.db.compactC <- struct{}{}:
		default:
		}
	}
}

// unretire lifts the retiring marks of the group's compactions (after
// publication a lock on their old segments finds them gone, as it should).
func (g *groupCommit) unretire() {
	for _, r := range g.ok {
		if c := r.compact; c != nil && c.locks != nil && c.refile == nil {
			c.locks.unretire(c.table, c.old)
		}
	}
}

// unreferenced lists the segments of old that new no longer has.
func unreferenced(old, new *version) []*segment {
	live := map[*segment]bool{}
	for _, t := range new.byID {
		for _, s := range t.segs {
			live[s] = true
		}
	}
	var out []*segment
	for _, t := range old.byID {
		for _, s := range t.segs {
			if !live[s] {
				out = append(out, s)
			}
		}
	}
	return out
}

// mutable returns work's table id as a copy private to this group.
func mutable(work *version, touched map[uint64]bool, id uint64) *tableState {
	t := work.byID[id]
	if t == nil {
		return nil
	}
	if !touched[id] {
		t = t.copy()
		work.put(t)
		touched[id] = true
	}
	return t
}

var errConflict = errors.New("conflict")

// applyPending applies one transaction to work, all or nothing.
// INVARIANT: every check comes before the first change, so a conflicting
// commit (a table it changes was dropped, or truncated and dropped, by an
// earlier commit; a name it creates is taken) returns an error with work
// untouched.
func applyPending(work *version, touched map[uint64]bool, p *pending) error {
	// Validate first, against work as the earlier commits of the group left it.
	for id, name := range p.dropped {
		if work.byID[id] == nil {
			return concurrentDrop(name)
		}
	}
	for id := range p.truncated {
		if work.byID[id] == nil && p.created[id] == nil {
			return concurrentDrop(p.nameOf(id))
		}
	}
	for id := range p.appends {
		if work.byID[id] == nil && p.created[id] == nil {
			return concurrentDrop(p.nameOf(id))
		}
	}
	for _, t := range p.created {
		if other, taken := work.tables[t.name]; taken {
			if _, dropping := p.dropped[other.id]; !dropping && !renamedAway(p, other) {
				return pgerr.New(pgerr.DuplicateTable, "relation %q already exists", BareName(t.name))
			}
		}
	}
	if err := validateDeletes(work, p); err != nil {
		return err
	}
	if err := validateViews(work, p); err != nil {
		return err
	}
	if err := validateUnique(work, p); err != nil {
		return err
	}
	if err := validateIndexes(work, p); err != nil {
		return err
	}
	if err := validateSeqs(work, p); err != nil {
		return err
	}
	if err := validateAlters(work, p); err != nil {
		return err
	}
	if err := validateSchemas(work, p); err != nil {
		return err
	}
	if err := validateTypes(work, p); err != nil {
		return err
	}
	if err := applyAuth(work, p); err != nil {
		return err
	}
	if err := validateForeign(work, p); err != nil {
		return err
	}
	if err := validateFuncs(work, p); err != nil {
		return err
	}
	if p.changesDefinitions() {
		work.defGen++
	}
	for id := range p.dropped {
		t := work.byID[id]
		work.del(t)
		delete(touched, id)
	}
	applyViews(work, p)
	applySeqs(work, p)
	applyAlters(work, touched, p)
	applySchemas(work, p)
	applyTypes(work, p)
	applyFuncs(work, p)
	if len(p.dropped) > 0 || len(p.views) > 0 || len(p.schemas) > 0 || len(p.funcs) > 0 {
		pruneAuth(work) // roles.go
	}
	applyForeign(work, p)
	for _, t := range p.created {
		work.put(&tableState{id: t.id, name: t.name, cols: t.cols, cons: t.cons, dropped: t.dropped, comment: t.comment, foreign: t.foreign})
		touched[t.id] = true
	}
	applyConstraints(work, touched, p)
	applyIndexes(work, touched, p)
	for id := range p.truncated {
		if p.created[id] != nil {
			continue
		}
		t := mutable(work, touched, id)
		t.segs, t.fresh, t.rows, t.dels, t.delFiles, t.freshDels, t.delInline, t.walDels, t.moved = nil, nil, 0, nil, nil, nil, nil, nil, nil
		t.gen++
	}
	applyDeletes(work, touched, p)
	for id, recs := range p.appends {
		t := mutable(work, touched, id)
		t.fresh = append(t.fresh, recs...)
		t.gen++
	}
	return nil
}

func concurrentDrop(name string) error {
	return pgerr.New(codeSerialization, "could not serialize access: relation %q was dropped or truncated by a concurrent transaction", name)
}

// applyCompaction replaces c's run of segments by the merged one if the run
// is still in place (same segments, adjacent, in order) in work; otherwise
// it returns errConflict and leaves work untouched.
func applyCompaction(work *version, touched map[uint64]bool, c *compaction) error {
	t := work.byID[c.table]
	if t == nil {
		return errConflict
	}
	at := -1
	for i, s := range t.segs {
		if s == c.old[0] {
			at = i
			break
		}
	}
	if at < 0 || at+len(c.old) > len(t.segs) {
		return errConflict
	}
	if c.refile != nil {
		// Deletes committed since only added files after the run.
		cur := t.delFiles[c.old[0].id]
		at := refiledAt(cur, c.refiled)
		if at < 0 {
			return errConflict
		}
		t = mutable(work, touched, c.table)
		files := append(append(append([]delFileRef(nil), cur[:at]...), *c.refile), cur[at+len(c.refiled):]...)
		t.delFiles[c.old[0].id] = files
		return nil
	}
	for i, s := range c.old {
		// A delete committed since the merge read the run would be lost.
		if t.segs[at+i] != s || t.dels[s.id] != c.dels[i] {
			return errConflict
		}
	}
	// A transaction holding a row lock may still delete the row by its
	// RowID in old: leave the run to a later try. Otherwise the run is
	// marked retiring until the group is published or fails, so no lock
	// is taken on it meanwhile (lockTable.retire).
	if c.locks != nil && !c.locks.retire(c.table, c.old) {
		return errConflict
	}
	t = mutable(work, touched, c.table)
	for _, s := range c.old {
		if t.dels[s.id] != nil {
			t.rows -= t.dels[s.id].Count()
			delete(t.dels, s.id)
			delete(t.delFiles, s.id)
			delete(t.delInline, s.id)
			delete(t.walDels, s.id)
		}
	}
	segs := append([]*segment(nil), t.segs[:at]...)
	if c.seg != nil {
		segs = append(segs, c.seg)
	}
	t.segs = append(segs, t.segs[at+len(c.old):]...)
	t.recordMoves(c)
	return nil
}

// splitRecords cuts recs into runs of at most max rows each, slicing a
// batch that straddles a boundary (slices share the batch's buffers).
func splitRecords(recs []arrow.Record, max int64) [][]arrow.Record {
	var out [][]arrow.Record
	var cur []arrow.Record
	var rows int64
	for _, r := range recs {
		for off, n := int64(0), r.NumRows(); off < n; {
			take := min(n-off, max-rows)
			part := r
			if off != 0 || take != n {
				part = r.NewSlice(off, off+take)
				// A slice counts its NULLs lazily on first NullN, which
				// would race between the segment writer and the
				// statistics goroutine: count them now.
				for _, c := range part.Columns() {
					c.NullN()
				}
			}
			cur = append(cur, part)
			rows += take
			off += take
			if rows == max {
				out, cur, rows = append(out, cur), nil, 0
			}
		}
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}

// coalesce concatenates many small batches into one, so a segment built
// from single-row INSERTs scans as one batch.
func coalesce(recs []arrow.Record) []arrow.Record {
	if len(recs) < 2 {
		return recs
	}
	var rows int64
	for _, r := range recs {
		rows += r.NumRows()
	}
	if rows/int64(len(recs)) >= 4096 {
		return recs
	}
	return []arrow.Record{concatRecords(recs)}
}

func concatRecords(recs []arrow.Record) arrow.Record {
	var rows int64
	for _, r := range recs {
		rows += r.NumRows()
	}
	cols := make([]arrow.Array, recs[0].NumCols())
	for c := range cols {
		parts := make([]arrow.Array, len(recs))
		for i, r := range recs {
			parts[i] = r.Column(c)
		}
		a, err := array.Concatenate(parts, memory.DefaultAllocator)
		if err != nil {
			// Same-typed arrays always concatenate; anything else is a bug
			// upstream that Append's schema check should have caught.
			panic("storage: concatenating batches: " + err.Error())
		}
		cols[c] = a
	}
	return array.NewRecord(recs[0].Schema(), cols, rows)
}

// memSegment is a segment of an in-memory DB.
func memSegment(id uint64, cols []ColumnDef, recs []arrow.Record) (*segment, error) {
	seg := &segment{id: id, stats: make([]colStats, len(cols)), recs: recs, loaded: true, layout: cols}
	for _, r := range recs {
		seg.rows += r.NumRows()
	}
	if err := addStats(seg.stats, recs, cols); err != nil {
		return nil, err
	}
	for c, def := range cols {
		seg.stats[c].finish(def.Type)
	}
	return seg, nil
}
