package stats

import (
	"sync"
	"sync/atomic"
	"time"
)

// DatabaseCounters are one database's pg_stat_database counters.
//
// INVARIANT: as TableCounters: each counter an atomic of its own.
type DatabaseCounters struct {
	XactCommit, XactRollback                                     atomic.Int64
	BlksRead                                                     atomic.Int64
	TupReturned, TupFetched, TupInserted, TupUpdated, TupDeleted atomic.Int64
	TempFiles, TempBytes                                         atomic.Int64
	Sessions, SessionsAbandoned, SessionsFatal, SessionsKilled   atomic.Int64
	// ActiveTime and SessionTime are in microseconds.
	ActiveTime, SessionTime atomic.Int64
}

// Databases are the counters of every database a session has used,
// keyed by name.
//
// INVARIANT: the map is guarded by mu; an entry is never replaced.
type Databases struct {
	mu    sync.Mutex
	m     map[string]*DatabaseCounters
	reset time.Time
}

func newDatabases(now time.Time) *Databases {
	return &Databases{m: map[string]*DatabaseCounters{}, reset: now}
}

// Of returns database name's counters, creating them; nil on a nil
// Databases.
func (d *Databases) Of(name string) *DatabaseCounters {
	if d == nil {
		return nil
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	c := d.m[name]
	if c == nil {
		c = &DatabaseCounters{}
		d.m[name] = c
	}
	return c
}

// Names lists the databases with counters.
func (d *Databases) Names() []string {
	if d == nil {
		return nil
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	out := make([]string, 0, len(d.m))
	for n := range d.m {
		out = append(out, n)
	}
	return out
}

// ResetTime is pg_stat_database.stats_reset.
func (d *Databases) ResetTime() time.Time {
	if d == nil {
		return time.Time{}
	}
	return d.reset
}
