package storage

import (
	"errors"
	"fmt"
	"path/filepath"
	"sort"
)

// TableUsage is one table's footprint in the data directory, for the
// operator's console: its committed rows and the segments holding them.
type TableUsage struct {
	Name        string
	ID          uint64
	LiveRows    int64 // rows not deleted
	DeletedRows int64 // deleted rows still in segments (compaction folds them away)
	Segments    int   // segments, those only in the write-ahead log so far included
	SmallSegs   int   // segments under the compaction threshold (candidates for merging)
	Bytes       int64 // segment file bytes (0 for a segment only in the log)
}

// Usage is the data directory's footprint and compaction activity.
type Usage struct {
	Tables       []TableUsage // by name
	Compactions  int64        // compactions committed since the server started
	RetiredFiles int          // replaced segment files awaiting removal (retireGrace)
}

// Usage reads the published version: one consistent state of the catalog.
func (db *DB) Usage() Usage {
	v := db.cs.load()
	u := Usage{Compactions: db.compactions.Load()}
	for _, t := range v.sorted() {
		tu := TableUsage{Name: t.name, ID: t.id, Segments: len(t.segs)}
		for _, s := range t.segs {
			dead := t.dels[s.id].Count()
			tu.LiveRows += s.rows - dead
			tu.DeletedRows += dead
			tu.Bytes += s.size
			if s.rows < smallRows {
				tu.SmallSegs++
			}
		}
		u.Tables = append(u.Tables, tu)
	}
	sort.Slice(u.Tables, func(i, j int) bool { return u.Tables[i].Name < u.Tables[j].Name })
	db.retireMu.Lock()
	u.RetiredFiles = len(db.retired)
	db.retireMu.Unlock()
	return u
}

// Verify reads every segment file of the published version and checks it
// against its manifest entry (size, CRC-32C, schema), as a read at query
// time would; verified is told each file's bytes as it is done. It returns
// the number of files checked and every damaged file's error, joined.
// Segments only in the write-ahead log were checked when the log was
// replayed at Open.
func (db *DB) Verify(verified func(bytes int64)) (files int, err error) {
	if db.dir == "" {
		return 0, nil
	}
	var errs []error
	for _, t := range db.cs.load().sorted() {
		for _, s := range t.segs {
			if s.size == 0 {
				continue // in the log only (wal.go)
			}
			if _, rerr := readSegment(filepath.Join(db.dir, segmentFile(s.id)), s, s.layout); rerr != nil {
				errs = append(errs, fmt.Errorf("table %s: %w", t.name, rerr))
			}
			files++
			if verified != nil {
				verified(s.size)
			}
		}
	}
	return files, errors.Join(errs...)
}
