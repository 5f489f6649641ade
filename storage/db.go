package storage

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"golang.org/x/sys/unix"
)

// Options configure a DB.
type Options struct {
	// NoSync skips fsync (tests and benchmarks only: a crash may lose
	// acknowledged commits).
	NoSync bool
	// NoCompaction turns the background merging of small segments off.
	NoCompaction bool
	// NoWAL makes every commit write its segments and manifest (a
	// checkpoint each, wal.go) instead of appending to the log.
	NoWAL bool
	// NoCompression writes segment files without zstd (for benchmarks
	// comparing the two; files of either kind are read).
	NoCompression bool
	// CacheBytes bounds the memory of the stored tables' segments read
	// from their files (segcache.go); 0 = unbounded.
	CacheBytes int64
	Logger     *slog.Logger
	// FirstID is where an in-memory catalog's ids start (0: 1), so that a
	// session's temporary tables get object ids of their own.
	FirstID uint64
}

// DB is a durable catalog in a data directory: Arrow IPC segment files plus
// a manifest naming them. All changes go through transactions (Begin); the
// committer goroutine groups concurrent commits into one manifest write.
type DB struct {
	dir  string // "" = in memory, nothing written
	opts Options
	log  *slog.Logger
	lock *os.File // flock'd LOCK file
	// cache bounds the loaded segments' memory.
	cache *segCache

	cur    atomic.Pointer[version] // the published version (read through cs.load)
	nextID atomic.Uint64           // table and segment ids
	// fixedSnaps counts the open REPEATABLE READ / SERIALIZABLE
	// transactions that took their snapshot (compact.go).
	fixedSnaps atomic.Int64

	locks *lockTable  // row locks (rowlock.go)
	cs    commitSync  // the commit protocol's synchronization points (commit.go)
	store commitStore // where commits are made durable

	sendMu  sync.RWMutex // held (R) while sending to commits; closed under W
	closed  bool
	commits chan *commitReq
	quit    chan struct{}
	wg      sync.WaitGroup
	failed  error // a manifest or log write failed half-way: refuse further commits
	// failedManifest: failed is a manifest write's, which rewriting the
	// manifest mends (repairManifest).
	failedManifest bool
	// failedLogGen is 1 + the log generation a durable manifest names but
	// whose log could not be started (0: none); starting it mends failed.
	failedLogGen uint64
	compactC     chan struct{}

	// seqRuns are the sequences' counters in memory (sequence.go).
	seqMu   sync.Mutex
	seqRuns map[uint64]*seqRun

	retireMu sync.Mutex
	retired  []retiredFile

	// wal is the open write-ahead log (wal.go); nil for an in-memory DB.
	// durable is the version the durable manifest holds (the last
	// checkpoint's). Both committer only after Open.
	wal     *walLog
	durable *version

	// compactions counts the compactions committed since Open (usage.go).
	compactions atomic.Int64
	// walPos is the log's write position (WALPosition), for readers
	// other than the committer.
	walPos atomic.Uint64
}

type retiredFile struct {
	path string
	at   time.Time
}

// retireGrace is how long an unreferenced segment file is kept: a reader
// that took its snapshot just before the file left the manifest may still
// be reading it.
const retireGrace = 30 * time.Second

// version is one committed state of the catalog. It is immutable once
// published; writers build a new one (copy on write).
type version struct {
	tables map[string]*tableState
	byID   map[uint64]*tableState
	views  map[string]*View     // shared between versions: replaced, never modified (views.go)
	seqs   map[string]*seqEntry // the same, for sequences (sequence.go)
	// schemas other than public, by id: shared like views (schema.go)
	schemas map[uint64]*Schema
	// types are the user-defined types, by id: shared like views (usertype.go)
	types map[uint64]*UserType
	// auth is the role catalog and the objects' access lists (roles.go); nil = none
	auth *Auth
	// foreign are the extensions and foreign servers, by id (foreign.go)
	foreign map[uint64]*ForeignObject
	// funcs are the user-defined functions, by id: shared like views (function.go)
	funcs map[uint64]*Function
	// walGen is the log generation the manifest names (wal.go).
	walGen uint64
	// defGen is the definition generation (defgen.go); in memory only.
	defGen uint64
}

func newVersion() *version {
	return &version{tables: map[string]*tableState{}, byID: map[uint64]*tableState{}}
}

func (v *version) put(t *tableState) { v.tables[t.name] = t; v.byID[t.id] = t; registerRowType(t) } // rowtype.go
func (v *version) del(t *tableState) { delete(v.tables, t.name); delete(v.byID, t.id) }

func (v *version) clone() *version {
	n := &version{tables: make(map[string]*tableState, len(v.tables)), byID: make(map[uint64]*tableState, len(v.byID)), views: v.views, seqs: v.seqs, schemas: v.schemas, types: v.types, auth: v.auth, foreign: v.foreign, funcs: v.funcs, walGen: v.walGen, defGen: v.defGen}
	for k, t := range v.tables {
		n.tables[k] = t
	}
	for k, t := range v.byID {
		n.byID[k] = t
	}
	return n
}

func (v *version) sorted() []*tableState {
	out := make([]*tableState, 0, len(v.tables))
	for _, t := range v.tables {
		out = append(out, t)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

// tableState is a table in one version. Immutable once published.
type tableState struct {
	id   uint64
	name string
	cols []ColumnDef
	cons []Constraint // constraint.go
	// indexes are the table's own indexes (indexdef.go).
	indexes []IndexDef
	// dropped are the hidden entries of dropped columns (alter.go); ddl
	// counts the commits that changed the definition (in memory only).
	dropped []ColumnDef
	ddl     uint64
	comment string           // COMMENT ON TABLE
	foreign *ForeignTableDef // a foreign table's server and options (foreign.go)
	segs    []*segment
	rows    int64
	// gen counts the commits that changed the rows (not compaction), for
	// a SERIALIZABLE transaction's check (isolation.go); in memory only.
	gen uint64

	// dels are the deleted rows of segments with any, by segment id
	// (delete.go); the map is copied with the tableState, the vectors
	// are immutable.
	dels map[uint64]*DeleteVector
	// delFiles are the deletion-vector files holding each segment's
	// deleted rows (dvfile.go); copied like dels, slices never modified.
	delFiles map[uint64][]delFileRef
	// delInline are deleted offsets of each segment kept in the manifest
	// itself (sorted; commit.go writeDeletes), not in delFiles.
	delInline map[uint64][]int64
	// freshDels: committer only, rows of each segment this group deleted
	// and not yet in a file.
	freshDels map[uint64][]int64
	// walDels: deleted rows only the write-ahead log holds (wal.go),
	// copied like delInline.
	walDels map[uint64][]int64
	// moved: where compactions put the rows of segments they replaced
	// (forward.go), in memory only; copied like dels.
	moved map[uint64]segMove

	fresh []arrow.Record // committer only: rows of this group not yet in a segment
	enc   []byte         // committer only: cached manifest entry

	statsOnce sync.Once
	stats     Stats
}

func (t *tableState) copy() *tableState {
	return &tableState{id: t.id, name: t.name, cols: t.cols, cons: t.cons, indexes: t.indexes, dropped: t.dropped, ddl: t.ddl, comment: t.comment, foreign: t.foreign,
		segs: append([]*segment(nil), t.segs...), rows: t.rows, gen: t.gen, fresh: append([]arrow.Record(nil), t.fresh...),
		dels: cloneDels(t.dels), delFiles: cloneDelFiles(t.delFiles), delInline: cloneInline(t.delInline), walDels: cloneInline(t.walDels),
		moved: maps.Clone(t.moved)}
}

// tableStats merges the segments' statistics (once per version).
func (t *tableState) tableStats() Stats {
	t.statsOnce.Do(func() { t.stats = t.statsOver(t.cols) })
	return t.stats
}

// statsOver merges the segments' statistics laid out as cols (the table's
// columns, or a transaction's altered definition of them).
func (t *tableState) statsOver(cols []ColumnDef) Stats {
	st := Stats{Rows: t.liveRows(), Distinct: make([]int64, len(cols)), Nulls: make([]int64, len(cols)),
		Bounds: make([]ColumnStats, len(cols))}
	per := make([][]colStats, len(t.segs))
	for i, s := range t.segs {
		per[i] = s.statsFor(cols)
	}
	for c := range cols {
		sk := make([][]uint64, 0, len(t.segs))
		b := boundsMerger{t: cols[c].Type, ok: true}
		for i, s := range t.segs {
			sk = append(sk, per[i][c].sketch.h)
			st.Nulls[c] += per[i][c].nulls
			b.add(&per[i][c], s.rows)
		}
		st.Distinct[c] = estimateDistinct(mergeSketches(sk...))
		st.Bounds[c] = b.result()
	}
	return st
}

// Open opens (creating if needed) the data directory dir. An empty dir
// gives an in-memory DB. A corrupt or truncated manifest or segment file
// makes Open fail with an error naming the file.
func Open(dir string, opts Options) (*DB, error) {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	db := &DB{dir: dir, opts: opts, log: opts.Logger, cache: &segCache{budget: opts.CacheBytes}, commits: make(chan *commitReq, 1024),
		quit: make(chan struct{}), compactC: make(chan struct{}, 1)}
	db.nextID.Store(max(1, opts.FirstID))
	db.locks = newLockTable()
	db.cs, db.store = chanSync{db}, dbStore{db}
	if dir == "" {
		db.cur.Store(newVersion())
	} else if err := db.load(); err != nil {
		db.unlock()
		return nil, err
	}
	db.wg.Add(1)
	go db.committer()
	if !opts.NoCompaction {
		db.wg.Add(1)
		go db.compactor()
	}
	return db, nil
}

func (db *DB) sync() bool { return !db.opts.NoSync }

func (db *DB) unlock() {
	if db.lock != nil {
		db.lock.Close()
		db.lock = nil
	}
}

// load reads the manifest and checks every segment file it names.
func (db *DB) load() error {
	if err := os.MkdirAll(db.dir, 0o755); err != nil {
		return fmt.Errorf("create data directory: %w", err)
	}
	lock, err := os.OpenFile(filepath.Join(db.dir, "LOCK"), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	if err := unix.Flock(int(lock.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		lock.Close()
		return fmt.Errorf("data directory %s is in use by another joind (lock %s): %v", db.dir, lock.Name(), err)
	}
	db.lock = lock
	entries, err := os.ReadDir(db.dir)
	if err != nil {
		return err
	}
	mpath := filepath.Join(db.dir, manifestName)
	data, err := os.ReadFile(mpath)
	if errors.Is(err, os.ErrNotExist) {
		for _, e := range entries {
			if strings.HasPrefix(e.Name(), "seg-") {
				return fmt.Errorf("data directory %s holds segment files (e.g. %s) but no %s: refusing to start rather than lose them",
					db.dir, e.Name(), manifestName)
			}
		}
		// A new data directory: write an empty manifest first, so a
		// missing manifest always means damage.
		v := newVersion()
		m, err := encodeManifest(v, 1)
		if err != nil {
			return err
		}
		if err := writeManifest(db.dir, m, db.sync()); err != nil {
			return err
		}
		if db.wal, err = openLog(db.dir, v.walGen, 0, db.sync()); err != nil {
			return err
		}
		db.durable = v
		db.cur.Store(v)
		db.log.Info("storage: initialised a new data directory", "dir", db.dir)
		return nil
	}
	if err != nil {
		return fmt.Errorf("read %s: %w", mpath, err)
	}
	v, next, err := decodeManifest(mpath, data)
	if err != nil {
		return err
	}
	live := map[string]bool{}
	for _, t := range v.tables {
		for _, refs := range t.delFiles {
			for _, r := range refs {
				live[deleteFile(r.ID)] = true
			}
		}
	}
	var rows int64
	nseg := 0
	for _, t := range v.tables {
		for _, s := range t.segs {
			name := segmentFile(s.id)
			live[name] = true
			if err := checkSegmentFile(filepath.Join(db.dir, name), s); err != nil {
				return err
			}
			if s.id >= next {
				return fmt.Errorf("manifest \"%s\" is corrupt: segment id %d >= next id %d", mpath, s.id, next)
			}
			nseg++
		}
		if t.id >= next {
			return fmt.Errorf("manifest \"%s\" is corrupt: table id %d >= next id %d", mpath, t.id, next)
		}
		rows += t.liveRows()
	}
	// Files the manifest does not name were written by a commit that never
	// reached its manifest rename, or replaced by a compaction and not yet
	// deleted: nothing acknowledged lives only in them.
	for _, e := range entries {
		n := e.Name()
		if n == manifestTemp || ((strings.HasPrefix(n, "seg-") || strings.HasPrefix(n, "del-")) && !live[n]) ||
			(strings.HasPrefix(n, "wal-") && n != walFile(v.walGen)) {
			if err := os.Remove(filepath.Join(db.dir, n)); err != nil {
				return err
			}
			db.log.Info("storage: removed a segment file the manifest does not name (interrupted commit or replaced by compaction)", "file", filepath.Join(db.dir, n))
		}
	}
	// The log's records apply on top of the manifest's version; the files
	// the manifest names stay until a checkpoint replaces it.
	work, next, valid, err := replayLog(db.dir, v, next)
	if err != nil {
		return err
	}
	if db.wal, err = openLog(db.dir, v.walGen, valid, db.sync()); err != nil {
		return err
	}
	db.noteWALPos()
	db.durable = v
	db.nextID.Store(next)
	db.cur.Store(work)
	db.log.Info("storage: opened data directory", "dir", db.dir, "tables", len(v.tables), "segments", nseg, "rows", rows)
	return nil
}

// checkSegmentFile verifies what can be checked without reading the data:
// the size and the Arrow file trailer. The CRC is verified on first read.
func checkSegmentFile(path string, s *segment) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("segment file \"%s\" named by the manifest: %w", path, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	if fi.Size() != s.size {
		return fmt.Errorf("segment file \"%s\" is %d bytes, the manifest says %d (truncated or damaged)", path, fi.Size(), s.size)
	}
	var tail [6]byte
	if s.size < 6 {
		return fmt.Errorf("segment file \"%s\" is too short", path)
	}
	if _, err := f.ReadAt(tail[:], s.size-6); err != nil || string(tail[:]) != "ARROW1" {
		return fmt.Errorf("segment file \"%s\" does not end with the Arrow file trailer (damaged)", path)
	}
	return nil
}

// Close stops the background work after the commits already queued.
func (db *DB) Close() error {
	db.sendMu.Lock()
	if db.closed {
		db.sendMu.Unlock()
		return nil
	}
	db.closed = true
	db.sendMu.Unlock()
	close(db.quit)
	db.wg.Wait()
	db.shutdownCheckpoint()
	db.wal.close()
	db.purgeRetired(true)
	db.unlock()
	return nil
}

// retire deletes the files of segments the durable manifest no longer
// names. A loaded segment's file is deleted at once: every reader, even
// one holding an older version, uses the cached batches. An unloaded one
// (a TRUNCATE or DROP of a table not read since start-up) waits out a
// grace period, for a statement that pinned the older version just before.
func (db *DB) retire(segs []*segment) {
	if db.dir == "" || len(segs) == 0 {
		return
	}
	db.retireMu.Lock()
	defer db.retireMu.Unlock()
	now := time.Now()
	for _, s := range segs {
		path := filepath.Join(db.dir, segmentFile(s.id))
		if s.pin(db.cache) {
			if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
				db.log.Warn("storage: could not remove an unused segment file", "file", path, "err", err)
			}
			continue
		}
		db.retired = append(db.retired, retiredFile{path: path, at: now})
	}
}

// purgeRetired deletes retired files whose grace period is over (all if
// final: no reader is left).
func (db *DB) purgeRetired(final bool) {
	db.retireMu.Lock()
	defer db.retireMu.Unlock()
	if !final && db.fixedSnaps.Load() > 0 {
		return // a REPEATABLE READ snapshot may be older than any of them
	}
	keep := db.retired[:0]
	for _, r := range db.retired {
		if final || time.Since(r.at) > retireGrace {
			if err := os.Remove(r.path); err != nil && !errors.Is(err, os.ErrNotExist) {
				db.log.Warn("storage: could not remove an unused segment file", "file", r.path, "err", err)
			}
			continue
		}
		keep = append(keep, r)
	}
	db.retired = keep
}
