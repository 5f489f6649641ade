package stats

import (
	"math"
	"sort"
	"sync"
	"time"
)

// StatementKey identifies a pg_stat_statements entry, as PostgreSQL's
// pgssHashKey does.
type StatementKey struct {
	UserID, DBID uint32
	QueryID      int64
	TopLevel     bool
}

// Execution is one finished statement as Record receives it.
type Execution struct {
	Key      StatementKey
	Query    string // the normalized text (kept from the entry's first call)
	Elapsed  time.Duration
	Rows     int64 // rows returned or affected (pg_stat_statements.rows)
	Segments int64 // storage segments the statement's scans read (shared_blks_read)
	Spilled  int64 // bytes written to spill files (temp_blks_written, in 8 kB blocks)
}

// StatementRow is one entry as pg_stat_statements shows it; times are in
// milliseconds.
type StatementRow struct {
	StatementKey
	Query                         string
	Calls, Rows                   int64
	Total, Min, Max, Mean, Stddev float64
	SegmentsRead, TempBlksWritten int64
}

type statementEntry struct {
	query                 string
	calls, rows           int64
	total, min, max, mean float64
	sumVar                float64 // Welford's running sum of squared deviations
	segments, tempBlks    int64
}

// Statements is pg_stat_statements' table of entries.
//
// INVARIANT: entries and reset are read and written only under mu, so an
// entry's counters always describe the same set of calls (calls, total,
// mean and stddev agree); Record holds mu only to update one entry.
type Statements struct {
	mu      sync.Mutex
	entries map[StatementKey]*statementEntry
	reset   time.Time
}

func newStatements(now time.Time) *Statements {
	return &Statements{entries: map[StatementKey]*statementEntry{}, reset: now}
}

// Record adds one finished execution to its entry.
func (s *Statements) Record(x Execution) {
	if s == nil {
		return
	}
	ms := float64(x.Elapsed) / float64(time.Millisecond)
	s.mu.Lock()
	defer s.mu.Unlock()
	e := s.entries[x.Key]
	if e == nil {
		e = &statementEntry{query: x.Query}
		s.entries[x.Key] = e
	}
	e.calls++
	e.total += ms
	if e.calls == 1 {
		e.min, e.max, e.mean = ms, ms, ms
	} else {
		// PostgreSQL's pgss_store: Welford's online mean and variance.
		old := e.mean
		e.mean += (ms - old) / float64(e.calls)
		e.sumVar += (ms - old) * (ms - e.mean)
		e.min, e.max = math.Min(e.min, ms), math.Max(e.max, ms)
	}
	e.rows += x.Rows
	e.segments += x.Segments
	e.tempBlks += (x.Spilled + 8191) / 8192
}

// Rows lists every entry, by query id then user and database.
func (s *Statements) Rows() []StatementRow {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	out := make([]StatementRow, 0, len(s.entries))
	for k, e := range s.entries {
		sd := 0.0
		if e.calls > 1 {
			sd = math.Sqrt(e.sumVar / float64(e.calls))
		}
		out = append(out, StatementRow{StatementKey: k, Query: e.query, Calls: e.calls, Rows: e.rows,
			Total: e.total, Min: e.min, Max: e.max, Mean: e.mean, Stddev: sd,
			SegmentsRead: e.segments, TempBlksWritten: e.tempBlks})
	}
	s.mu.Unlock()
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i].StatementKey, out[j].StatementKey
		if a.QueryID != b.QueryID {
			return a.QueryID < b.QueryID
		}
		if a.UserID != b.UserID {
			return a.UserID < b.UserID
		}
		return a.DBID < b.DBID
	})
	return out
}

// Reset is pg_stat_statements_reset(userid, dbid, queryid): it removes
// the entries matching every non-zero argument (all of them when all
// three are zero, which also restarts stats_reset).
func (s *Statements) Reset(userID, dbID uint32, queryID int64, now time.Time) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if userID == 0 && dbID == 0 && queryID == 0 {
		s.entries = map[StatementKey]*statementEntry{}
		s.reset = now
		return
	}
	for k := range s.entries {
		if (userID == 0 || k.UserID == userID) && (dbID == 0 || k.DBID == dbID) && (queryID == 0 || k.QueryID == queryID) {
			delete(s.entries, k)
		}
	}
}

// ResetTime is pg_stat_statements_info.stats_reset.
func (s *Statements) ResetTime() time.Time {
	if s == nil {
		return time.Time{}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.reset
}
