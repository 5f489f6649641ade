package storage

import (
	"testing"

	"github.com/joind/joind/interleave"
)

// TestSegmentCacheExplore runs the shipped segment cache (records, touch,
// evict, pin) under every interleaving of a reader of segment 1, a reader
// of segment 2 then 1 again, and a retire of segment 1, with a budget of
// one segment, and checks segCache's invariants.
func TestSegmentCacheExplore(t *testing.T) {
	dir := t.TempDir()
	db := openNoWAL(t, dir)
	defer db.Close()
	tb := fillSegments(t, db, "ex", 2, 2000)
	segs := db.cs.load().byID[tb.(*txnTable).id].segs
	if len(segs) != 2 {
		t.Fatalf("%d segments", len(segs))
	}
	cols := tb.Columns()
	recs, err := segs[0].records(db, cols)
	if err != nil {
		t.Fatal(err)
	}
	budget := recordsBytes(recs)
	realCache := db.cache
	defer func() { db.cache = realCache }()

	program := func(r *interleave.Run) {
		c := &segCache{budget: budget, park: r.Park}
		c.mu.explore = r.NewMutex()
		db.cache = c
		for _, s := range segs {
			s.mu.explore = r.NewMutex()
			s.recs, s.loaded, s.conformed, s.conformKey = nil, false, nil, ""
			s.onDisk.Store(true)
			s.lruElem, s.charged = nil, 0
		}
		read := func(s *segment) {
			recs, err := s.records(db, cols)
			if err != nil {
				r.Failf("records: %v", err)
			} else if sumRows(recs) != s.rows {
				r.Failf("records gave %d rows of %d", sumRows(recs), s.rows)
			}
		}
		pinned := false
		r.Go("reader 1", func() { read(segs[0]) })
		r.Go("reader 2", func() { read(segs[1]); read(segs[0]) })
		r.Go("retire 1", func() { pinned = segs[0].pin(c) })
		r.AtEnd(func() {
			if pinned && !segs[0].loaded {
				r.Failf("segment 1 was pinned for older readers, then dropped")
			}
			var sum int64
			for e := c.lru.Front(); e != nil; e = e.Next() {
				s := e.Value.(*segment)
				if !s.onDisk.Load() {
					r.Failf("segment %d is in the cache without a file to read it back from", s.id)
				}
				sum += s.charged
			}
			if sum != c.bytes {
				r.Failf("cache counts %d bytes, its segments' charges add to %d", c.bytes, sum)
			}
		})
	}
	res := interleave.Explore(program, interleave.Options{})
	if res.Failure != "" {
		t.Fatalf("%s\n%s", res.Failure, res.TraceString())
	}
	t.Logf("%d schedules, none breaks the segment cache's invariants", res.Schedules)
	for _, s := range segs {
		s.mu.explore = nil
	}
}
