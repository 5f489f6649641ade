package storage

import (
	"time"

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
func (db *DB) compactOnce() bool {
	v := db.cs.load()
	for _, t := range v.sorted() {
		run := pickRun(t.segs)
		if run == nil {
			continue
		}
		if err := db.merge(t, run); err != nil {
			if err != errConflict {
				db.log.Warn("storage: compaction failed", "table", t.name, "err", err)
			}
			return false
		}
		return true
	}
	return false
}

// pickRun returns the first run of at least minRun adjacent small segments.
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
		if j-i >= minRun {
			return segs[i:j]
		}
		if j == i {
			j++
		}
		i = j
	}
	return nil
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
	seg, err := db.store.newSegment(db.nextID.Add(1)-1, t.cols, recs)
	if err != nil {
		return err
	}
	return db.submit(&commitReq{compact: &compaction{table: t.id, old: run, dels: dels, seg: seg, locks: db.locks}})
}
