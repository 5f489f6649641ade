package pgcatalog

import (
	"slices"
	"time"

	"github.com/joind/joind/stats"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// The cumulative-statistics views over the server's counters (Env.Stats,
// package stats; nil outside a server: every count is zero and
// pg_stat_statements is empty): pg_stat_statements and
// pg_stat_statements_info (the extension's views, which joind always has:
// as if pg_stat_statements were preloaded and created in every database),
// pg_stat_{all,user,sys}_tables, pg_statio_{all,user,sys}_tables,
// pg_stat_database and pg_stat_progress_copy. Columns as PostgreSQL 15's,
// in its order; oid columns are int8 as everywhere in joind.

// The OIDs of the pg_stat_statements extension and its views, and its
// version. PostgreSQL gives an extension's objects OIDs from the user range
// when CREATE EXTENSION runs; joind's are always there, so they sit just
// below FirstUserOID, where they cannot collide with a user table's.
const (
	OIDExtPgStatStatements = 16380
	// OIDExtPlpgsql is initdb's plpgsql extension (a stock 15 cluster's).
	OIDExtPlpgsql           = 13559
	OIDPgStatStatements     = 16381
	OIDPgStatStatementsInfo = 16382
	PgStatStatementsVersion = "1.10"
)

func declareStats() {
	pss := declare(pc, "pg_stat_statements", OIDPgStatStatements, 'v', func(s *Snapshot) []pgStatStatementsRow {
		var out []pgStatStatementsRow
		for _, r := range s.stats().Statements.Rows() {
			out = append(out, pgStatStatementsRow{Userid: r.UserID, Dbid: r.DBID, Toplevel: r.TopLevel, Queryid: r.QueryID,
				Query: r.Query, Calls: r.Calls, TotalExecTime: r.Total, MinExecTime: r.Min, MaxExecTime: r.Max,
				MeanExecTime: r.Mean, StddevExecTime: r.Stddev, Rows: r.Rows, SharedBlksRead: r.SegmentsRead,
				TempBlksWritten: r.TempBlksWritten})
		}
		return out
	})
	// pg_stat_statements(showtext): the view's rows, the query text NULL
	// unless showtext (postgres_exporter reads it so).
	query := slices.IndexFunc(pss.Cols, func(c storage.ColumnDef) bool { return c.Name == "query" })
	setFuncs = append(setFuncs, relationFunc("pg_stat_statements", []types.Type{boolT}, pss, func(args, row []types.Value) {
		if args[0].I == 0 {
			row[query] = types.NullValue
		}
	}))
	declare(pc, "pg_stat_statements_info", OIDPgStatStatementsInfo, 'v', func(s *Snapshot) []pgStatStatementsInfoRow {
		return []pgStatStatementsInfoRow{{StatsReset: pgTime(s.stats().Statements.ResetTime())}}
	})
	for _, v := range []struct {
		name, statio string
		oid, ioOID   uint32
		keep         func(Relation) bool
	}{
		{"pg_stat_all_tables", "pg_statio_all_tables", 12142, 12170, func(Relation) bool { return true }},
		{"pg_stat_sys_tables", "pg_statio_sys_tables", 12152, 12175, isSystemRelation},
		{"pg_stat_user_tables", "pg_statio_user_tables", 12161, 12179, func(r Relation) bool { return !isSystemRelation(r) }},
	} {
		keep := v.keep
		declare(pc, v.name, v.oid, 'v', func(s *Snapshot) []pgStatTablesRow { return s.statTables(keep) })
		declare(pc, v.statio, v.ioOID, 'v', func(s *Snapshot) []pgStatioTablesRow { return s.statioTables(keep) })
	}
	declare(pc, "pg_stat_database", 12266, 'v', pgStatDatabase)
	declare(pc, "pg_stat_progress_copy", 12322, 'v', func(s *Snapshot) []pgStatProgressCopyRow {
		var out []pgStatProgressCopyRow
		for _, p := range s.stats().Copies.Running() {
			out = append(out, pgStatProgressCopyRow{Pid: p.PID, Datid: DatabaseOID(p.Database), Datname: p.Database,
				Relid: p.RelID, Command: p.Command, Type: p.Type, BytesProcessed: p.BytesProcessed.Load(),
				BytesTotal: p.BytesTotal, TuplesProcessed: p.TuplesProcessed.Load(), TuplesExcluded: p.TuplesExcluded.Load()})
		}
		return out
	})
}

// stats is the server's statistics; a nil *stats.Server answers empty.
func (s *Snapshot) stats() *stats.Server {
	if s.env.Stats == nil {
		return &stats.Server{}
	}
	return s.env.Stats
}

// isSystemRelation is pg_stat_sys_tables' rule: a relation in pg_catalog,
// information_schema or pg_toast.
func isSystemRelation(r Relation) bool {
	return r.Schema == "pg_catalog" || r.Schema == "information_schema" || r.Schema == "pg_toast"
}

// statRelations are the relations pg_stat_all_tables lists: tables
// (relkind r), kept by keep.
func (s *Snapshot) statRelations(keep func(Relation) bool) []Relation {
	var out []Relation
	for _, r := range s.Relations() {
		if r.Kind == 'r' && r.Index == nil && keep(r) {
			out = append(out, r)
		}
	}
	return out
}

func (s *Snapshot) statTables(keep func(Relation) bool) []pgStatTablesRow {
	var out []pgStatTablesRow
	for _, r := range s.statRelations(keep) {
		row := pgStatTablesRow{Relid: r.OID, Schemaname: r.Schema, Relname: r.Name}
		if r.Rows > 0 && !isSystemRelation(r) {
			row.NLiveTup = r.Rows
		}
		var idxScan, idxFetch int64
		if c := s.stats().Tables.Lookup(r.OID); c != nil {
			row.SeqScan, row.SeqTupRead = c.SeqScan.Load(), c.SeqTupRead.Load()
			idxScan, idxFetch = c.IdxScan.Load(), c.IdxTupFetch.Load()
			row.NTupIns, row.NTupUpd, row.NTupDel = c.TupIns.Load(), c.TupUpd.Load(), c.TupDel.Load()
			row.NDeadTup, row.NModSinceAnalyze, row.NInsSinceVacuum = c.DeadTup.Load(), c.ModSinceAnalyze.Load(), c.InsSinceVacuum.Load()
			row.LastVacuum, row.LastAnalyze = nullTime(c.LastVacuum()), nullTime(c.LastAnalyze())
			row.VacuumCount, row.AnalyzeCount = c.VacuumCount.Load(), c.AnalyzeCount.Load()
		}
		if r.HasIndex {
			row.IdxScan, row.IdxTupFetch = &idxScan, &idxFetch
		}
		out = append(out, row)
	}
	return out
}

func (s *Snapshot) statioTables(keep func(Relation) bool) []pgStatioTablesRow {
	var out []pgStatioTablesRow
	for _, r := range s.statRelations(keep) {
		row := pgStatioTablesRow{Relid: r.OID, Schemaname: r.Schema, Relname: r.Name}
		if c := s.stats().Tables.Lookup(r.OID); c != nil {
			row.HeapBlksRead = c.SegmentsRead.Load()
		}
		if r.HasIndex {
			var zero int64
			row.IdxBlksRead, row.IdxBlksHit = &zero, &zero
		}
		out = append(out, row)
	}
	return out
}

// pgStatDatabase is one row for the shared objects (datid 0, no name) and
// one per database of pg_database, as PostgreSQL 15 lists them.
func pgStatDatabase(s *Snapshot) []pgStatDatabaseRow {
	st := s.stats()
	out := []pgStatDatabaseRow{{}}
	for _, name := range databaseNames(s.database()) {
		name := name
		row := pgStatDatabaseRow{Datid: DatabaseOID(name), Datname: &name}
		if s.env.Activity != nil {
			for _, b := range s.env.Activity.Rows() {
				if b.Database == name {
					row.Numbackends++
				}
			}
		}
		if st.Databases != nil {
			c := st.Databases.Of(name)
			row.XactCommit, row.XactRollback = c.XactCommit.Load(), c.XactRollback.Load()
			row.BlksRead = c.BlksRead.Load()
			row.TupReturned, row.TupFetched = c.TupReturned.Load(), c.TupFetched.Load()
			row.TupInserted, row.TupUpdated, row.TupDeleted = c.TupInserted.Load(), c.TupUpdated.Load(), c.TupDeleted.Load()
			row.TempFiles, row.TempBytes = c.TempFiles.Load(), c.TempBytes.Load()
			row.ActiveTime = float64(c.ActiveTime.Load()) / 1000
			row.SessionTime = float64(c.SessionTime.Load()) / 1000
			row.Sessions = c.Sessions.Load()
		}
		out = append(out, row)
	}
	return out
}

// pgStatStatementsRow is a row of pg_stat_statements (version 1.10).
// joind plans in the statement's execution: plans and the plan times are
// 0 (pg_stat_statements.track_planning off, its default), as are the
// counters of things joind does not have (WAL records per statement, JIT,
// block I/O timing).
type pgStatStatementsRow struct {
	Userid               uint32  `pg:"userid"`
	Dbid                 uint32  `pg:"dbid"`
	Toplevel             bool    `pg:"toplevel"`
	Queryid              int64   `pg:"queryid"`
	Query                string  `pg:"query"`
	Plans                int64   `pg:"plans"`
	TotalPlanTime        float64 `pg:"total_plan_time"`
	MinPlanTime          float64 `pg:"min_plan_time"`
	MaxPlanTime          float64 `pg:"max_plan_time"`
	MeanPlanTime         float64 `pg:"mean_plan_time"`
	StddevPlanTime       float64 `pg:"stddev_plan_time"`
	Calls                int64   `pg:"calls"`
	TotalExecTime        float64 `pg:"total_exec_time"`
	MinExecTime          float64 `pg:"min_exec_time"`
	MaxExecTime          float64 `pg:"max_exec_time"`
	MeanExecTime         float64 `pg:"mean_exec_time"`
	StddevExecTime       float64 `pg:"stddev_exec_time"`
	Rows                 int64   `pg:"rows"`
	SharedBlksHit        int64   `pg:"shared_blks_hit"`
	SharedBlksRead       int64   `pg:"shared_blks_read"`
	SharedBlksDirtied    int64   `pg:"shared_blks_dirtied"`
	SharedBlksWritten    int64   `pg:"shared_blks_written"`
	LocalBlksHit         int64   `pg:"local_blks_hit"`
	LocalBlksRead        int64   `pg:"local_blks_read"`
	LocalBlksDirtied     int64   `pg:"local_blks_dirtied"`
	LocalBlksWritten     int64   `pg:"local_blks_written"`
	TempBlksRead         int64   `pg:"temp_blks_read"`
	TempBlksWritten      int64   `pg:"temp_blks_written"`
	BlkReadTime          float64 `pg:"blk_read_time"`
	BlkWriteTime         float64 `pg:"blk_write_time"`
	TempBlkReadTime      float64 `pg:"temp_blk_read_time"`
	TempBlkWriteTime     float64 `pg:"temp_blk_write_time"`
	WalRecords           int64   `pg:"wal_records"`
	WalFpi               int64   `pg:"wal_fpi"`
	WalBytes             int64   `pg:"wal_bytes" type:"numeric"`
	JitFunctions         int64   `pg:"jit_functions"`
	JitGenerationTime    float64 `pg:"jit_generation_time"`
	JitInliningCount     int64   `pg:"jit_inlining_count"`
	JitInliningTime      float64 `pg:"jit_inlining_time"`
	JitOptimizationCount int64   `pg:"jit_optimization_count"`
	JitOptimizationTime  float64 `pg:"jit_optimization_time"`
	JitEmissionCount     int64   `pg:"jit_emission_count"`
	JitEmissionTime      float64 `pg:"jit_emission_time"`
}

type pgStatStatementsInfoRow struct {
	Dealloc    int64 `pg:"dealloc"`
	StatsReset int64 `pg:"stats_reset" type:"timestamptz"`
}

// pgStatTablesRow is a row of pg_stat_all_tables (and its user/sys
// subsets). idx_* are NULL for a table without indexes; joind has no
// HOT updates and no autovacuum, so those counts are 0 and times NULL.
type pgStatTablesRow struct {
	Relid            uint32 `pg:"relid"`
	Schemaname       string `pg:"schemaname" type:"name"`
	Relname          string `pg:"relname" type:"name"`
	SeqScan          int64  `pg:"seq_scan"`
	SeqTupRead       int64  `pg:"seq_tup_read"`
	IdxScan          *int64 `pg:"idx_scan"`
	IdxTupFetch      *int64 `pg:"idx_tup_fetch"`
	NTupIns          int64  `pg:"n_tup_ins"`
	NTupUpd          int64  `pg:"n_tup_upd"`
	NTupDel          int64  `pg:"n_tup_del"`
	NTupHotUpd       int64  `pg:"n_tup_hot_upd"`
	NLiveTup         int64  `pg:"n_live_tup"`
	NDeadTup         int64  `pg:"n_dead_tup"`
	NModSinceAnalyze int64  `pg:"n_mod_since_analyze"`
	NInsSinceVacuum  int64  `pg:"n_ins_since_vacuum"`
	LastVacuum       *int64 `pg:"last_vacuum" type:"timestamptz"`
	LastAutovacuum   *int64 `pg:"last_autovacuum" type:"timestamptz"`
	LastAnalyze      *int64 `pg:"last_analyze" type:"timestamptz"`
	LastAutoanalyze  *int64 `pg:"last_autoanalyze" type:"timestamptz"`
	VacuumCount      int64  `pg:"vacuum_count"`
	AutovacuumCount  int64  `pg:"autovacuum_count"`
	AnalyzeCount     int64  `pg:"analyze_count"`
	AutoanalyzeCount int64  `pg:"autoanalyze_count"`
}

// pgStatioTablesRow is a row of pg_statio_all_tables: heap_blks_read
// counts the segments scans read (joind has no buffer cache: no hits).
type pgStatioTablesRow struct {
	Relid         uint32 `pg:"relid"`
	Schemaname    string `pg:"schemaname" type:"name"`
	Relname       string `pg:"relname" type:"name"`
	HeapBlksRead  int64  `pg:"heap_blks_read"`
	HeapBlksHit   int64  `pg:"heap_blks_hit"`
	IdxBlksRead   *int64 `pg:"idx_blks_read"`
	IdxBlksHit    *int64 `pg:"idx_blks_hit"`
	ToastBlksRead *int64 `pg:"toast_blks_read"`
	ToastBlksHit  *int64 `pg:"toast_blks_hit"`
	TidxBlksRead  *int64 `pg:"tidx_blks_read"`
	TidxBlksHit   *int64 `pg:"tidx_blks_hit"`
}

type pgStatDatabaseRow struct {
	Datid                 uint32  `pg:"datid"`
	Datname               *string `pg:"datname" type:"name"`
	Numbackends           int32   `pg:"numbackends"`
	XactCommit            int64   `pg:"xact_commit"`
	XactRollback          int64   `pg:"xact_rollback"`
	BlksRead              int64   `pg:"blks_read"`
	BlksHit               int64   `pg:"blks_hit"`
	TupReturned           int64   `pg:"tup_returned"`
	TupFetched            int64   `pg:"tup_fetched"`
	TupInserted           int64   `pg:"tup_inserted"`
	TupUpdated            int64   `pg:"tup_updated"`
	TupDeleted            int64   `pg:"tup_deleted"`
	Conflicts             int64   `pg:"conflicts"`
	TempFiles             int64   `pg:"temp_files"`
	TempBytes             int64   `pg:"temp_bytes"`
	Deadlocks             int64   `pg:"deadlocks"`
	ChecksumFailures      *int64  `pg:"checksum_failures"`
	ChecksumLastFailure   *int64  `pg:"checksum_last_failure" type:"timestamptz"`
	BlkReadTime           float64 `pg:"blk_read_time"`
	BlkWriteTime          float64 `pg:"blk_write_time"`
	SessionTime           float64 `pg:"session_time"`
	ActiveTime            float64 `pg:"active_time"`
	IdleInTransactionTime float64 `pg:"idle_in_transaction_time"`
	Sessions              int64   `pg:"sessions"`
	SessionsAbandoned     int64   `pg:"sessions_abandoned"`
	SessionsFatal         int64   `pg:"sessions_fatal"`
	SessionsKilled        int64   `pg:"sessions_killed"`
	StatsReset            *int64  `pg:"stats_reset" type:"timestamptz"`
}

type pgStatProgressCopyRow struct {
	Pid             int32  `pg:"pid"`
	Datid           uint32 `pg:"datid"`
	Datname         string `pg:"datname" type:"name"`
	Relid           uint32 `pg:"relid"`
	Command         string `pg:"command"`
	Type            string `pg:"type"`
	BytesProcessed  int64  `pg:"bytes_processed"`
	BytesTotal      int64  `pg:"bytes_total"`
	TuplesProcessed int64  `pg:"tuples_processed"`
	TuplesExcluded  int64  `pg:"tuples_excluded"`
}

// pg_stat_statements_reset(userid oid DEFAULT 0, dbid oid DEFAULT 0,
// queryid bigint DEFAULT 0) returns void.
var statsFuncs = []*Func{
	{Names: []string{"pg_stat_statements_reset"}, MinArgs: 0, MaxArgs: 3, Args: []types.Type{types.Int8Type, types.Int8Type, types.Int8Type},
		Result: types.VoidType, Volatile: true,
		Eval: func(s *Snapshot, v []types.Value) types.Value {
			var a [3]int64
			for i := range v {
				a[i] = v[i].I
			}
			s.stats().Statements.Reset(uint32(a[0]), uint32(a[1]), a[2], time.Now())
			return types.NullValue
		}},
}

func init() {
	for _, f := range statsFuncs {
		funcs = append(funcs, f)
		for _, n := range f.Names {
			funcByName[n] = append(funcByName[n], f)
		}
	}
}
