package storage

import (
	"context"
	"time"

	"github.com/joind/joind/pgerr"

	"github.com/apache/arrow-go/v18/arrow"
)

// Compaction policy: adjacent segments under smallRows rows are merged
// once there are minRun of them, into segments of at most maxRows rows.
// Merging keeps row order (a run is replaced in place). maxRows also cuts
// large commits into several segments (commitGroup): 1M rows is 8 MB per
// bigint column, big enough that per-segment costs (a file, a manifest
// entry with statistics) stay negligible, small enough that a selective
// range filter on a 10M-row table skips most segments by their min/max.
const (
	smallRows = 64 << 10
	maxRows   = 1 << 20
	minRun    = 4
	tierRatio = 4
	// A segment with more than 1/foldShare of its rows deleted is
	// rewritten live-only; one whose deleted rows are spread over more
	// than maxDeltas delta files gets them folded into one file.
	foldShare = 4
	maxDeltas = 8
)

// compactor merges small segments in the background: after commits that
// wrote segments, and every few seconds to purge retired files.
func (db *DB) compactor() {
	defer db.wg.Done()
	tick := time.NewTicker(2 * time.Second)
	defer tick.Stop()
	for {
		select {
		case <-db.quit:
			return
		case <-db.compactC:
		case <-tick.C:
			db.purgeRetired(false)
			continue
		}
		for db.compactOnce() {
			select {
			case <-db.quit:
				return
			default:
			}
		}
	}
}

// compactOnce merges one run of small segments; it reports whether it did.
// It does nothing while a REPEATABLE READ or SERIALIZABLE transaction is
// open, which keeps the row moves such a transaction may follow
// (forward.go) few; the commits after it ends wake the compactor again.
// VACUUM does not wait.
func (db *DB) compactOnce() bool {
	if db.fixedSnaps.Load() > 0 {
		return false
	}
	v := db.cs.load()
	for _, t := range v.sorted() {
		var err error
		if run := pickRun(t.segs); run != nil {
			err = db.merge(t, run)
		} else if s := pickFold(t); s != nil {
			err = db.merge(t, []*segment{s})
		} else if s := db.pickRefile(t); s != nil {
			err = db.refile(t, s)
		} else {
			continue
		}
		if err != nil {
			if err != errConflict {
				db.log.Warn("storage: compaction failed", "table", t.name, "err", err)
			}
			return false
		}
		db.compactions.Add(1)
		return true
	}
	return false
}

// pickRun returns the first run of at least minRun adjacent small
// segments. A leading segment with more than tierRatio times the rows of
// the rest of the run is left out: the segment merged from a stream of
// small commits is then not rewritten every minRun commits, only once the
// ones after it add up to a quarter of it (a row is rewritten a
// logarithmic number of times, not once per merge of the tail).
func pickRun(segs []*segment) []*segment {
	for i := 0; i < len(segs); {
		if segs[i].rows >= smallRows {
			i++
			continue
		}
		j, rows := i, int64(0)
		for j < len(segs) && segs[j].rows < smallRows && rows+segs[j].rows <= maxRows {
			rows += segs[j].rows
			j++
		}
		k := i
		for k < j && segs[k].rows > tierRatio*(rows-segs[k].rows) {
			rows -= segs[k].rows
			k++
		}
		if j-k >= minRun {
			return segs[k:j]
		}
		if j == i {
			j++
		}
		i = j
	}
	return nil
}

// pickFold returns a segment with so many deleted rows that it is worth
// rewriting live-only.
func pickFold(t *tableState) *segment {
	for _, s := range t.segs {
		if n := t.dels[s.id].Count(); n > 0 && n*foldShare > s.rows {
			return s
		}
	}
	return nil
}

// pickRefile returns a segment whose deleted rows are spread over too many
// delta files (only a data directory has them).
func (db *DB) pickRefile(t *tableState) *segment {
	if db.dir == "" {
		return nil
	}
	for _, s := range t.segs {
		if len(t.delFiles[s.id]) > maxDeltas {
			return s
		}
	}
	return nil
}

// refileRun picks the delta files to merge, leveled so that a stream of
// small deletes does not rewrite a large vector each time: all of them
// when the later ones hold at least half as much as the first, otherwise
// all but the first.
func refileRun(files []delFileRef) []delFileRef {
	var tail int64
	for _, f := range files[1:] {
		tail += f.Size
	}
	if 2*tail >= files[0].Size {
		return files
	}
	return files[1:]
}

// refiledAt is where run starts in files (-1: not a run of it).
func refiledAt(files, run []delFileRef) int {
	for at := 0; at+len(run) <= len(files); at++ {
		if files[at].ID != run[0].ID {
			continue
		}
		for i := range run {
			if files[at+i].ID != run[i].ID {
				return -1
			}
		}
		return at
	}
	return -1
}

// refile merges a run of s's delta files (refileRun) into one and submits
// it to replace them. INVARIANT: applied only if the segment still lists
// that run (applyCompaction): deletes committed meanwhile add files after
// it and do not conflict; a compaction or TRUNCATE that replaced the
// segment does, and the new file is removed.
func (db *DB) refile(t *tableState, s *segment) error {
	run := refileRun(t.delFiles[s.id])
	var dv *DeleteVector
	for _, ref := range run {
		f, err := readDeleteFile(db.dir, ref)
		if err != nil {
			return err
		}
		var dup int64
		if dv, dup = dv.with(f[[2]uint64{t.id, s.id}]); dup >= 0 {
			return pgerr.New(codeDataCorrupted, "row %d of segment %d is deleted twice in its delta files", dup, s.id)
		}
	}
	id := db.nextID.Add(1) - 1
	ref, err := db.store.newDeleteFile(id, []delEntry{{table: t.id, seg: s.id, offs: dv.offsets()}})
	if err != nil {
		return err
	}
	return db.submit(&commitReq{compact: &compaction{table: t.id, old: []*segment{s}, refile: &ref, refiled: run}})
}

// merge writes run's rows as one segment and submits the replacement.
// INVARIANT: the committer applies it only if run is still in place in the
// then current version (applyCompaction), so a TRUNCATE, DROP or another
// compaction committed since t was read makes it fail (errConflict) and
// its segment is deleted; appends committed meanwhile come after run and
// do not conflict. The merged segment holds run's rows in run's order, so
// a successful compaction never loses, duplicates or reorders a row.
func (db *DB) merge(t *tableState, run []*segment) error {
	var recs []arrow.Record
	dels := make([]*DeleteVector, len(run))
	for i, s := range run {
		r, err := s.records(db, t.cols)
		if err != nil {
			return err
		}
		dels[i] = t.dels[s.id]
		recs = append(recs, liveRecords(r, dels[i])...)
	}
	if len(recs) > 1 {
		recs = []arrow.Record{concatRecords(recs)}
	}
	var seg *segment // nil: every row of run is deleted
	if rows := pendingRows(recs); rows > 0 && db.wal != nil && rows < smallRows {
		// A small merge goes to the log with the commits (wal.go),
		// encoded here, off the committer's path.
		seg = walSegmentOf(db.nextID.Add(1)-1, t.cols, recs)
		enc, err := encodeIPC(seg.layout, seg.recs)
		if err != nil {
			return err
		}
		seg.logBytes = int64(len(enc))
		return db.submit(&commitReq{compact: &compaction{table: t.id, old: run, dels: dels, seg: seg, locks: db.locks, walBytes: enc, pruneMoves: db.fixedSnaps.Load() == 0}})
	} else if rows > 0 {
		var err error
		if seg, err = db.store.newSegment(db.nextID.Add(1)-1, t.cols, recs); err != nil {
			return err
		}
	}
	return db.submit(&commitReq{compact: &compaction{table: t.id, old: run, dels: dels, seg: seg, locks: db.locks, pruneMoves: db.fixedSnaps.Load() == 0}})
}

// Vacuum compacts the named tables (all when names is empty) now, through
// the committer like background compaction: VACUUM folds every deleted row
// away (segments with deleted rows are rewritten live-only) and merges
// small segments; full (VACUUM FULL) also merges all segments into runs of
// maxRows rows. A segment a concurrent transaction holds row locks on, or
// changes meanwhile, is left as it is (PostgreSQL's VACUUM skips what it
// cannot clean now too).
func (db *DB) Vacuum(ctx context.Context, names []string, full bool) error {
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	tried := map[*segment]bool{}
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		v := db.cs.load()
		var t *tableState
		var run []*segment
		for _, tt := range v.sorted() {
			if len(want) > 0 && !want[tt.name] {
				continue
			}
			if run = vacuumRun(tt, full, tried); run != nil {
				t = tt
				break
			}
		}
		if run == nil {
			return nil
		}
		for _, s := range run {
			tried[s] = true
		}
		if err := db.merge(t, run); err != nil && err != errConflict {
			return err
		}
	}
}

// vacuumRun picks VACUUM's next run of t: a run of adjacent segments with
// deleted rows or small (full: any) whose rows fit in maxRows, not tried
// before, of two or more segments or of one with deleted rows.
func vacuumRun(t *tableState, full bool, tried map[*segment]bool) []*segment {
	worth := func(s *segment) bool {
		return !tried[s] && (t.dels[s.id].Count() > 0 || s.rows < smallRows || full)
	}
	live := func(s *segment) int64 { return s.rows - t.dels[s.id].Count() }
	for i := 0; i < len(t.segs); i++ {
		if !worth(t.segs[i]) {
			continue
		}
		j, rows := i, int64(0)
		for j < len(t.segs) && worth(t.segs[j]) && (j == i || rows+live(t.segs[j]) <= maxRows) {
			rows += live(t.segs[j])
			j++
		}
		if j-i >= 2 || t.dels[t.segs[i].id].Count() > 0 {
			return t.segs[i:j]
		}
	}
	return nil
}
