package stats

import (
	"sync"
	"sync/atomic"
	"time"
)

// TableCounters are one table's cumulative counters (pg_stat_all_tables,
// pg_statio_all_tables), keyed by the table's relation OID.
//
// INVARIANT: each counter is its own atomic, written by every session
// that touches the table, so a reader sees each counter exact as of some
// instant but two counters not necessarily of the same instant — as
// PostgreSQL's own cumulative statistics, which backends flush one by
// one. The last-* times are guarded by mu.
type TableCounters struct {
	SeqScan, SeqTupRead       atomic.Int64
	IdxScan, IdxTupFetch      atomic.Int64
	TupIns, TupUpd, TupDel    atomic.Int64
	SegmentsRead              atomic.Int64 // heap_blks_read: segments scanned
	DeadTup                   atomic.Int64 // updated or deleted rows since the last VACUUM
	ModSinceAnalyze           atomic.Int64
	InsSinceVacuum            atomic.Int64
	VacuumCount, AnalyzeCount atomic.Int64

	mu                      sync.Mutex
	lastVacuum, lastAnalyze time.Time
}

// LastVacuum and LastAnalyze are when VACUUM and ANALYZE last ran on the
// table (zero: never).
func (c *TableCounters) LastVacuum() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lastVacuum
}

func (c *TableCounters) LastAnalyze() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lastAnalyze
}

// Tables are the counters of every table that has been touched.
//
// INVARIANT: the map is guarded by mu; a *TableCounters, once in it, is
// never replaced (Drop removes it), so callers update it without mu.
type Tables struct {
	mu sync.Mutex
	m  map[uint32]*TableCounters
}

func newTables() *Tables { return &Tables{m: map[uint32]*TableCounters{}} }

// Of returns table oid's counters, creating them; nil on a nil Tables.
func (t *Tables) Of(oid uint32) *TableCounters {
	if t == nil || oid == 0 {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	c := t.m[oid]
	if c == nil {
		c = &TableCounters{}
		t.m[oid] = c
	}
	return c
}

// Lookup returns table oid's counters, or nil if it has none.
func (t *Tables) Lookup(oid uint32) *TableCounters {
	if t == nil {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.m[oid]
}

// Scanned records scans sequential (index false) or index scans of table
// oid that returned rows rows from segments segments.
func (t *Tables) Scanned(oid uint32, index bool, scans, rows, segments int64) {
	c := t.Of(oid)
	if c == nil {
		return
	}
	if index {
		c.IdxScan.Add(scans)
		c.IdxTupFetch.Add(rows)
	} else {
		c.SeqScan.Add(scans)
		c.SeqTupRead.Add(rows)
	}
	c.SegmentsRead.Add(segments)
}

// Wrote records rows inserted, updated and deleted in table oid by a
// statement that completed.
func (t *Tables) Wrote(oid uint32, ins, upd, del int64) {
	c := t.Of(oid)
	if c == nil {
		return
	}
	c.TupIns.Add(ins)
	c.TupUpd.Add(upd)
	c.TupDel.Add(del)
	c.DeadTup.Add(upd + del)
	c.ModSinceAnalyze.Add(ins + upd + del)
	c.InsSinceVacuum.Add(ins)
}

// Maintained records a VACUUM (vacuum) and/or ANALYZE (analyze) of table
// oid at now.
func (t *Tables) Maintained(oid uint32, vacuum, analyze bool, now time.Time) {
	c := t.Of(oid)
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if vacuum {
		c.VacuumCount.Add(1)
		c.lastVacuum = now
		c.DeadTup.Store(0)
		c.InsSinceVacuum.Store(0)
	}
	if analyze {
		c.AnalyzeCount.Add(1)
		c.lastAnalyze = now
		c.ModSinceAnalyze.Store(0)
	}
}

// Drop forgets table oid's counters (DROP TABLE).
func (t *Tables) Drop(oid uint32) {
	if t == nil {
		return
	}
	t.mu.Lock()
	delete(t.m, oid)
	t.mu.Unlock()
}
