package stats

import (
	"math"
	"sync"
	"testing"
	"time"
)

func TestNormalizeJumblesOnlyOptimizableStatements(t *testing.T) {
	a, ida := Normalize("SELECT * FROM t WHERE a = 1 AND b = 'x'", true)
	b, idb := Normalize("SELECT * FROM t WHERE a = 2 AND b = 'y'", true)
	if a != "SELECT * FROM t WHERE a = $1 AND b = $2" || ida != idb || a != b {
		t.Fatalf("optimizable: %q (%d) and %q (%d), want one entry with $1, $2", a, ida, b, idb)
	}
	// Constants after a client's own parameters are numbered past them.
	if p, _ := Normalize("SELECT $1, 5", true); p != "SELECT $1, $2" {
		t.Fatalf("with a parameter: %q", p)
	}
	u1, id1 := Normalize("SET work_mem = '1MB'", false)
	_, id2 := Normalize("SET work_mem = '2MB'", false)
	if u1 != "SET work_mem = '1MB'" || id1 == id2 {
		t.Fatalf("utility: %q, ids %d %d: want the text kept and two ids", u1, id1, id2)
	}
}

// Welford's mean and population standard deviation, as pgss_store
// keeps them, against the direct formulas.
func TestStatementTimesAgreeWithDirectFormulas(t *testing.T) {
	s := New(time.Unix(0, 0)).Statements
	key := StatementKey{UserID: 10, DBID: 5, QueryID: 42, TopLevel: true}
	ms := []float64{3, 1, 4, 1, 5, 9, 2, 6}
	for _, m := range ms {
		s.Record(Execution{Key: key, Query: "q", Elapsed: time.Duration(m * float64(time.Millisecond)), Rows: 2, Segments: 1})
	}
	rows := s.Rows()
	if len(rows) != 1 {
		t.Fatalf("%d entries", len(rows))
	}
	r := rows[0]
	var sum float64
	for _, m := range ms {
		sum += m
	}
	mean := sum / float64(len(ms))
	var sq float64
	for _, m := range ms {
		sq += (m - mean) * (m - mean)
	}
	sd := math.Sqrt(sq / float64(len(ms)))
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-9 }
	if r.Calls != 8 || r.Rows != 16 || r.SegmentsRead != 8 || !near(r.Total, sum) || !near(r.Mean, mean) || !near(r.Stddev, sd) || r.Min != 1 || r.Max != 9 {
		t.Fatalf("%+v; want total %v mean %v stddev %v", r, sum, mean, sd)
	}
}

func TestResetMatchesEveryNonZeroArgument(t *testing.T) {
	s := New(time.Unix(0, 0)).Statements
	for _, k := range []StatementKey{{UserID: 1, DBID: 1, QueryID: 1}, {UserID: 1, DBID: 2, QueryID: 1}, {UserID: 2, DBID: 1, QueryID: 2}} {
		s.Record(Execution{Key: k})
	}
	s.Reset(0, 1, 1, time.Unix(5, 0)) // db 1 and query 1: one entry
	if n := len(s.Rows()); n != 2 {
		t.Fatalf("%d entries after a partial reset, want 2", n)
	}
	if !s.ResetTime().Equal(time.Unix(0, 0)) {
		t.Fatal("a partial reset moved stats_reset")
	}
	s.Reset(0, 0, 0, time.Unix(9, 0))
	if n := len(s.Rows()); n != 0 || !s.ResetTime().Equal(time.Unix(9, 0)) {
		t.Fatalf("%d entries, reset %v after a full reset", n, s.ResetTime())
	}
}

// The invariants under concurrency (run with -race): an entry's calls and
// total always describe the same set of calls, and no table counter
// update is lost.
func TestCountersUnderConcurrency(t *testing.T) {
	srv := New(time.Now())
	key := StatementKey{QueryID: 7}
	const workers, each = 4, 500
	var wg sync.WaitGroup
	stop := make(chan struct{})
	var readers sync.WaitGroup
	readers.Add(1)
	go func() {
		defer readers.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			for _, r := range srv.Statements.Rows() {
				if want := float64(r.Calls); math.Abs(r.Total-want) > 1e-6 {
					t.Errorf("calls %d with total %v ms: not one instant", r.Calls, r.Total)
					return
				}
			}
		}
	}()
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < each; i++ {
				srv.Statements.Record(Execution{Key: key, Elapsed: time.Millisecond, Rows: 1})
				srv.Tables.Scanned(99, false, 1, 3, 1)
				srv.Tables.Wrote(99, 1, 0, 0)
				srv.Databases.Of("d").XactCommit.Add(1)
			}
		}()
	}
	wg.Wait()
	close(stop)
	readers.Wait()
	c := srv.Tables.Lookup(99)
	if c.SeqScan.Load() != workers*each || c.SeqTupRead.Load() != 3*workers*each || c.TupIns.Load() != workers*each ||
		srv.Databases.Of("d").XactCommit.Load() != workers*each {
		t.Fatalf("lost updates: seq_scan %d seq_tup_read %d ins %d", c.SeqScan.Load(), c.SeqTupRead.Load(), c.TupIns.Load())
	}
	if r := srv.Statements.Rows()[0]; r.Calls != workers*each {
		t.Fatalf("calls %d", r.Calls)
	}
}

func TestMaintenanceResetsItsCounters(t *testing.T) {
	tb := New(time.Now()).Tables
	tb.Wrote(1, 5, 2, 1)
	tb.Maintained(1, false, true, time.Unix(3, 0))
	c := tb.Lookup(1)
	if c.ModSinceAnalyze.Load() != 0 || c.DeadTup.Load() != 3 || c.AnalyzeCount.Load() != 1 || !c.LastAnalyze().Equal(time.Unix(3, 0)) {
		t.Fatal("ANALYZE did not reset n_mod_since_analyze alone")
	}
	tb.Maintained(1, true, false, time.Unix(4, 0))
	if c.DeadTup.Load() != 0 || c.InsSinceVacuum.Load() != 0 || c.VacuumCount.Load() != 1 || !c.LastVacuum().Equal(time.Unix(4, 0)) {
		t.Fatal("VACUUM did not reset n_dead_tup and n_ins_since_vacuum")
	}
	tb.Drop(1)
	if tb.Lookup(1) != nil {
		t.Fatal("dropped table still counted")
	}
}

func TestCopyProgressListsRunningCopies(t *testing.T) {
	c := New(time.Now()).Copies
	p := c.Start(&CopyProgress{PID: 3, Command: "COPY FROM"})
	p.BytesProcessed.Add(10)
	if r := c.Running(); len(r) != 1 || r[0].BytesProcessed.Load() != 10 {
		t.Fatal("running COPY not listed")
	}
	p.Done()
	if len(c.Running()) != 0 {
		t.Fatal("finished COPY still listed")
	}
	var none *Copies
	none.Start(&CopyProgress{}).Done() // no server: counts, lists nothing
}

func TestNormalizePreparedKeepsThePrepareText(t *testing.T) {
	// PostgreSQL 15's pg_stat_statements text for these PREPAREs.
	for _, c := range []struct{ prepare, inner, want string }{
		{"PREPARE q (int, text) AS\n  SELECT $2 || 'as', $1 * 3", "SELECT $2 || 'as', $1 * 3", "PREPARE q (int, text) AS\n  SELECT $2 || $3, $1 * $4"},
		{"prepare p as select $1::int + 1 as x", "select $1::int + 1 as x", "prepare p as select $1::int + $2 as x"},
		{"prepare ins(int) as insert into mp_t values ($1), ($1 + 10)", "insert into mp_t values ($1), ($1 + 10)",
			"prepare ins(int) as insert into mp_t values ($1), ($1 + $2)"},
	} {
		text, qid := NormalizePrepared(c.prepare)
		_, innerID := Normalize(c.inner, true)
		if text != c.want || qid != innerID {
			t.Errorf("NormalizePrepared(%q) = %q, %d; want %q, %d", c.prepare, text, qid, c.want, innerID)
		}
	}
}
