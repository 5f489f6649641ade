package engine

import (
	"io"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/joind/joind/operators"
	"github.com/joind/joind/pgcatalog"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/settings"
	"github.com/joind/joind/sql"
	"github.com/joind/joind/stats"
	"github.com/joind/joind/storage"
)

// The session's side of the server's cumulative statistics (package
// stats, Options.Stats) and of statement logging: every statement that
// finishes is charged to its pg_stat_statements entry, its table and
// database counters, and logged when it ran past log_min_duration_statement.

// scanRecorder is the Env.Scans of the session's queries: each scan of a
// stored table counts for its table, its database and the running
// statement's segments (shared_blks_read).
func (s *session) scanRecorder() operators.ScanRecorder {
	st := s.eng.opts.Stats
	if st == nil {
		return nil
	}
	db := st.Databases.Of(s.dbName())
	return func(t storage.Table, index bool, scans, rows, segments int64) {
		st.Tables.Scanned(pgcatalog.RelationOID(t), index, scans, rows, segments)
		if index {
			db.TupFetched.Add(rows)
		} else {
			db.TupReturned.Add(rows)
		}
		db.BlksRead.Add(segments)
		s.stmtSegments.Add(segments)
	}
}

func (s *session) dbName() string {
	if s.database == "" {
		return "joind"
	}
	return s.database
}

// beginStatementStats starts a statement's accounting; it returns its
// start time for finishStatement.
func (s *session) beginStatementStats() time.Time {
	s.stmtSegments.Store(0)
	return time.Now()
}

// finishStatement charges a finished statement (raw as the client sent
// it, bound as it ran, tag its command tag) to the statistics and logs it
// when it was slow. A failed statement is only logged: pg_stat_statements
// and the table counters count completed statements, as PostgreSQL's do.
func (s *session) finishStatement(raw *sql.RawStatement, bound sql.Statement, start time.Time, tag string, err error) {
	elapsed := time.Since(start)
	if raw != nil {
		s.logSlowStatement(raw.SQL(), elapsed)
	}
	st := s.eng.opts.Stats
	if err != nil {
		st.StatementDone(elapsed, 0, pgerr.As(err).Code)
	} else {
		st.StatementDone(elapsed, tagRows(tag), "")
	}
	if st == nil || err != nil || raw == nil {
		return
	}
	n := tagRows(tag)
	var text string
	var qid int64
	optimizable := isOptimizable(bound)
	switch x := bound.(type) {
	case *sql.Prepare:
		return // PostgreSQL tracks neither PREPARE nor EXECUTE itself
	case *sql.Execute:
		// pgss_ProcessUtility leaves EXECUTE to the executor hooks, which
		// charge the prepared statement: the entry's text is the PREPARE's
		// (its constants normalized), its id the prepared query's.
		ps, ok := s.preparedByName(x.Name)
		if !ok || ps.raw == nil {
			return
		}
		if optimizable = isOptimizable(ps.bound); optimizable {
			text, qid = stats.NormalizePrepared(ps.text)
		} else {
			text, qid = stats.Normalize(ps.text, false)
		}
		bound = ps.bound // for the table counters below
	default:
		text, qid = stats.Normalize(raw.SQL(), optimizable)
	}
	rows := n
	if !optimizable && !strings.HasPrefix(tag, "SELECT ") && !strings.HasPrefix(tag, "COPY ") && !strings.HasPrefix(tag, "FETCH ") {
		rows = 0 // pgss_ProcessUtility counts rows of COPY, FETCH and SELECT-tagged utilities only
	}
	st.Statements.Record(stats.Execution{
		Key:   stats.StatementKey{UserID: pgcatalog.OIDBootstrapUser, DBID: pgcatalog.DatabaseOID(s.dbName()), QueryID: qid, TopLevel: true},
		Query: text, Elapsed: elapsed, Rows: rows, Segments: s.stmtSegments.Load(),
	})
	db := st.Databases.Of(s.dbName())
	db.ActiveTime.Add(elapsed.Microseconds())
	s.chargeWrites(st, db, bound, n, start)
}

// chargeWrites counts a data-modifying statement's rows for its table.
func (s *session) chargeWrites(st *stats.Server, db *stats.DatabaseCounters, bound sql.Statement, n int64, now time.Time) {
	switch x := bound.(type) {
	case *sql.Insert:
		st.Tables.Wrote(pgcatalog.RelationOID(x.Table), n, 0, 0)
		db.TupInserted.Add(n)
	case *sql.Update:
		st.Tables.Wrote(pgcatalog.RelationOID(x.Table), 0, n, 0)
		db.TupUpdated.Add(n)
	case *sql.Delete:
		st.Tables.Wrote(pgcatalog.RelationOID(x.Table), 0, 0, n)
		db.TupDeleted.Add(n)
	case *sql.Copy:
		if x.From && x.Table != nil {
			st.Tables.Wrote(pgcatalog.RelationOID(x.Table), n, 0, 0)
			db.TupInserted.Add(n)
		}
	case *sql.Analyze:
		analyze := x.Analyzes
		if len(x.Rels) == 0 {
			// Every table: read the committed catalog (the statement's own
			// catalog is gone by now).
			txn := s.eng.catalog.Begin()
			for _, t := range txn.Tables() {
				st.Tables.Maintained(pgcatalog.RelationOID(t), x.Vacuum, analyze, now)
			}
			txn.Rollback()
		}
		for _, r := range x.Rels {
			if r.Table != nil {
				st.Tables.Maintained(pgcatalog.RelationOID(r.Table), x.Vacuum, analyze, now)
			}
		}
	}
}

// isOptimizable is PostgreSQL's "optimizable statement": the ones
// pg_stat_statements jumbles (constants replaced).
func isOptimizable(st sql.Statement) bool {
	switch st.(type) {
	case *sql.Query, *sql.Insert, *sql.Update, *sql.Delete, *sql.Merge, *sql.ModifyingWith:
		return true
	}
	return false
}

// tagRows is the row count a command tag reports (its last number; 0 for
// a tag without one).
func tagRows(tag string) int64 {
	i := strings.LastIndexByte(tag, ' ')
	if i < 0 {
		return 0
	}
	n, err := strconv.ParseInt(tag[i+1:], 10, 64)
	if err != nil {
		return 0
	}
	return n
}

// logSlowStatement is log_min_duration_statement: a statement that ran
// at least that many milliseconds (0: every statement; -1: off) is logged
// with its duration, in PostgreSQL's words.
func (s *session) logSlowStatement(text string, elapsed time.Duration) {
	min := settings.Int64(s.settings.Get("log_min_duration_statement"))
	if min < 0 || elapsed < time.Duration(min)*time.Millisecond {
		return
	}
	s.eng.log.Info("duration: "+strconv.FormatFloat(float64(elapsed)/float64(time.Millisecond), 'f', 3, 64)+" ms  statement: "+text,
		"pid", s.pid, "duration_ms", float64(elapsed)/float64(time.Millisecond))
}

// copyProgress lists a COPY in pg_stat_progress_copy while it runs; file
// is the server-side file COPY FROM reads (nil: the client's data, or COPY
// TO). Bytes count as they cross; tuples as COPY TO sends them, and for
// COPY FROM once its input is parsed (the parallel loader parses before
// it appends).
func (s *session) copyProgress(x *sql.Copy, file *os.File) *stats.CopyProgress {
	p := &stats.CopyProgress{PID: s.pid, Database: s.dbName(), Command: "COPY TO", Type: "PIPE"}
	if x.From {
		p.Command = "COPY FROM"
	}
	if x.Table != nil {
		p.RelID = pgcatalog.RelationOID(x.Table)
	}
	if x.Filename != "" {
		p.Type = "FILE"
	}
	if file != nil {
		if fi, err := file.Stat(); err == nil {
			p.BytesTotal = fi.Size()
		}
	}
	var copies *stats.Copies
	if st := s.eng.opts.Stats; st != nil {
		copies = st.Copies
	}
	return copies.Start(p)
}

// countingReader and countingWriter add the bytes that pass to n.
type countingReader struct {
	r io.Reader
	n *atomic.Int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	k, err := c.r.Read(p)
	c.n.Add(int64(k))
	return k, err
}

type countingWriter struct {
	w io.Writer
	n *atomic.Int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	k, err := c.w.Write(p)
	c.n.Add(int64(k))
	return k, err
}

// autoExplainMin is joind.auto_explain_min_duration (-1: off).
func (s *session) autoExplainMin() time.Duration {
	ms := settings.Int64(s.settings.Get("joind.auto_explain_min_duration"))
	if ms < 0 {
		return -1
	}
	return time.Duration(ms) * time.Millisecond
}

// autoExplain logs the EXPLAIN ANALYZE of a query that started at start
// and ran at least min, as auto_explain does ("duration: ... plan:" and
// the plan's lines, after the query text).
func (s *session) autoExplain(p *prepared, start time.Time, min time.Duration) {
	elapsed := time.Since(start)
	if elapsed < min {
		return
	}
	var b strings.Builder
	b.WriteString("duration: " + strconv.FormatFloat(float64(elapsed)/float64(time.Millisecond), 'f', 3, 64) + " ms  plan:\n")
	for _, line := range p.q.Explain() {
		b.WriteString(line)
		b.WriteByte('\n')
	}
	s.eng.log.Info(strings.TrimSuffix(b.String(), "\n"), "pid", s.pid)
}
