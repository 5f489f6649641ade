package storage

import (
	"errors"
	"os"
	"path/filepath"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/joind/joind/pgerr"
)

// commitReq is one transaction's changes (or one compaction) waiting for
// the committer.
type commitReq struct {
	p       *pending
	compact *compaction
	done    chan error
}

// compaction replaces a contiguous run of a table's segments by one.
type compaction struct {
	table uint64
	old   []*segment
	seg   *segment
}

var errClosed = pgerr.New(pgerr.AdminShutdown, "terminating connection due to administrator command")

// submit hands r to the committer and waits for the outcome. Once
// submitted a commit is not abandoned: the caller must learn whether it
// happened.
func (db *DB) submit(r *commitReq) error {
	r.done = make(chan error, 1)
	db.sendMu.RLock()
	if db.closed {
		db.sendMu.RUnlock()
		return errClosed
	}
	db.commits <- r
	db.sendMu.RUnlock()
	return <-r.done
}

// committer applies queued commits in groups: everything queued while the
// previous group was being written shares one manifest write (group commit).
func (db *DB) committer() {
	defer db.wg.Done()
	for {
		var group []*commitReq
		select {
		case r := <-db.commits:
			group = append(group, r)
		case <-db.quit:
			// Close waited for all senders: finish what is queued.
			for {
				select {
				case r := <-db.commits:
					db.commitGroup([]*commitReq{r})
				default:
					return
				}
			}
		}
	drain:
		for len(group) < 512 {
			select {
			case r := <-db.commits:
				group = append(group, r)
			default:
				break drain
			}
		}
		db.commitGroup(group)
	}
}

// commitGroup validates and applies each request on a working copy of the
// current version, writes the new segments and the manifest, publishes the
// new version and answers every request.
func (db *DB) commitGroup(group []*commitReq) {
	if db.failed != nil {
		for _, r := range group {
			r.done <- db.failed
		}
		return
	}
	old := db.cur.Load()
	work := old.clone()
	touched := map[uint64]bool{}
	ok := make([]*commitReq, 0, len(group))
	newFiles := false
	for _, r := range group {
		var err error
		if r.compact != nil {
			err = applyCompaction(work, touched, r.compact)
		} else {
			err = applyPending(work, touched, r.p)
		}
		if err != nil {
			if r.compact != nil && db.dir != "" {
				os.Remove(filepath.Join(db.dir, segmentFile(r.compact.seg.id)))
			}
			r.done <- err
			continue
		}
		newFiles = newFiles || r.compact != nil
		ok = append(ok, r)
	}
	if len(ok) == 0 {
		return
	}
	fail := func(err error) {
		for _, r := range ok {
			r.done <- err
		}
	}
	// One segment per table per group, however many commits fed it.
	var written []*segment
	for id := range touched {
		t, live := work.byID[id]
		if !live || len(t.fresh) == 0 {
			continue
		}
		// A large write (COPY of millions of rows) becomes several
		// segments of at most maxRows rows, so their statistics can let a
		// filter skip most of it; they still share the group's one
		// manifest write, so the statement stays atomic.
		for _, recs := range splitRecords(coalesce(t.fresh), maxRows) {
			var seg *segment
			var err error
			segID := db.nextID.Add(1) - 1
			if db.dir == "" {
				seg, err = memSegment(segID, t.cols, recs)
			} else {
				seg, err = writeSegment(db.dir, segID, t.cols, recs, db.sync())
			}
			if err != nil {
				for _, s := range written {
					os.Remove(filepath.Join(db.dir, segmentFile(s.id)))
				}
				fail(err)
				return
			}
			written = append(written, seg)
			t.segs = append(t.segs, seg)
			t.rows += seg.rows
		}
		t.fresh = nil
	}
	if db.dir != "" {
		if db.sync() && (newFiles || len(written) > 0) {
			// The segments' directory entries must be durable before the
			// manifest that names them.
			if err := syncDir(db.dir); err != nil {
				fail(err)
				return
			}
		}
		m, err := encodeManifest(work, db.nextID.Load())
		if err == nil {
			err = writeManifest(db.dir, m, db.sync())
		}
		if err != nil {
			// The rename may or may not have happened: the in-memory state
			// can no longer be trusted to match the disk.
			db.failed = pgerr.Wrap(err, codeIOError, "data directory is in an unknown state after a failed write (restart joind): %v", err)
			db.log.Error("storage: manifest write failed; refusing further commits", "err", err)
			fail(err)
			return
		}
	}
	db.cur.Store(work)
	db.retire(unreferenced(old, work))
	for _, r := range ok {
		r.done <- nil
	}
	if len(written) > 0 {
		select {
		case db.compactC <- struct{}{}:
		default:
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
			if _, dropping := p.dropped[other.id]; !dropping {
				return pgerr.New(pgerr.DuplicateTable, "relation %q already exists", t.name)
			}
		}
	}
	if err := validateViews(work, p); err != nil {
		return err
	}
	for id := range p.dropped {
		t := work.byID[id]
		work.del(t)
		delete(touched, id)
	}
	applyViews(work, p)
	for _, t := range p.created {
		work.put(&tableState{id: t.id, name: t.name, cols: t.cols})
		touched[t.id] = true
	}
	for id := range p.truncated {
		if p.created[id] != nil {
			continue
		}
		t := mutable(work, touched, id)
		t.segs, t.fresh, t.rows = nil, nil, 0
	}
	for id, recs := range p.appends {
		t := mutable(work, touched, id)
		t.fresh = append(t.fresh, recs...)
	}
	return nil
}

func concurrentDrop(name string) error {
	return pgerr.New(codeSerialization, "could not serialize access: relation %q was dropped or truncated by a concurrent transaction", name)
}

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
	for i, s := range c.old {
		if t.segs[at+i] != s {
			return errConflict
		}
	}
	t = mutable(work, touched, c.table)
	segs := append([]*segment(nil), t.segs[:at]...)
	segs = append(segs, c.seg)
	t.segs = append(segs, t.segs[at+len(c.old):]...)
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
	seg := &segment{id: id, stats: make([]colStats, len(cols)), recs: recs, loaded: true}
	for _, r := range recs {
		seg.rows += r.NumRows()
	}
	addStats(seg.stats, recs, cols)
	for c, def := range cols {
		seg.stats[c].finish(def.Type)
	}
	return seg, nil
}
