package storage

import "sort"

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
