package pgcatalog

import (
	"fmt"
	"strings"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// The views and functions monitoring tools read beside pg_stat_activity
// (pgAdmin's dashboard, postgres_exporter's default collectors). Each
// answers what joind has: no replication, no WAL archiving, no background
// writer, no prepared (two-phase) transactions, no VACUUM, so those are
// empty or count zero; the log position and files are joind's own
// write-ahead log's (storage.WALReader).

// pgLocksRow is a row of pg_catalog.pg_locks. joind's table and row locks
// are not listed (empty, as issue 16 allows).
type pgLocksRow struct {
	Locktype           string  `pg:"locktype"`
	Database           *OID    `pg:"database"`
	Relation           *OID    `pg:"relation"`
	Page               *int32  `pg:"page"`
	Tuple              *int16  `pg:"tuple"`
	Virtualxid         *string `pg:"virtualxid"`
	Transactionid      *XID    `pg:"transactionid"`
	Classid            *OID    `pg:"classid"`
	Objid              *OID    `pg:"objid"`
	Objsubid           *int16  `pg:"objsubid"`
	Virtualtransaction *string `pg:"virtualtransaction"`
	Pid                *int32  `pg:"pid"`
	Mode               *string `pg:"mode"`
	Granted            bool    `pg:"granted"`
	Fastpath           bool    `pg:"fastpath"`
	Waitstart          *int64  `pg:"waitstart" type:"timestamptz"`
}

// pgPreparedXactsRow is a row of pg_catalog.pg_prepared_xacts: none, as
// PREPARE TRANSACTION is refused (0A000).
type pgPreparedXactsRow struct {
	Transaction XID    `pg:"transaction"`
	Gid         string `pg:"gid"`
	Prepared    int64  `pg:"prepared" type:"timestamptz"`
	Owner       Name   `pg:"owner" type:"name"`
	Database    Name   `pg:"database" type:"name"`
}

// pgReplicationSlotsRow is a row of pg_catalog.pg_replication_slots: none.
type pgReplicationSlotsRow struct {
	SlotName          Name    `pg:"slot_name" type:"name"`
	Plugin            *Name   `pg:"plugin" type:"name"`
	SlotType          string  `pg:"slot_type"`
	Datoid            *OID    `pg:"datoid"`
	Database          *Name   `pg:"database" type:"name"`
	Temporary         bool    `pg:"temporary"`
	Active            bool    `pg:"active"`
	ActivePid         *int32  `pg:"active_pid"`
	Xmin              *XID    `pg:"xmin"`
	CatalogXmin       *XID    `pg:"catalog_xmin"`
	RestartLsn        *LSN    `pg:"restart_lsn"`
	ConfirmedFlushLsn *LSN    `pg:"confirmed_flush_lsn"`
	WalStatus         *string `pg:"wal_status"`
	SafeWalSize       *int64  `pg:"safe_wal_size"`
	TwoPhase          bool    `pg:"two_phase"`
}

// pgStatArchiverRow is pg_catalog.pg_stat_archiver's one row: nothing
// archived.
type pgStatArchiverRow struct {
	ArchivedCount    int64   `pg:"archived_count"`
	LastArchivedWal  *string `pg:"last_archived_wal"`
	LastArchivedTime *int64  `pg:"last_archived_time" type:"timestamptz"`
	FailedCount      int64   `pg:"failed_count"`
	LastFailedWal    *string `pg:"last_failed_wal"`
	LastFailedTime   *int64  `pg:"last_failed_time" type:"timestamptz"`
	StatsReset       *int64  `pg:"stats_reset" type:"timestamptz"`
}

// pgStatBgwriterRow is pg_catalog.pg_stat_bgwriter's one row. joind has
// no shared buffers for a background writer or checkpointer to write: it
// counts nothing.
type pgStatBgwriterRow struct {
	CheckpointsTimed    int64   `pg:"checkpoints_timed"`
	CheckpointsReq      int64   `pg:"checkpoints_req"`
	CheckpointWriteTime float64 `pg:"checkpoint_write_time"`
	CheckpointSyncTime  float64 `pg:"checkpoint_sync_time"`
	BuffersCheckpoint   int64   `pg:"buffers_checkpoint"`
	BuffersClean        int64   `pg:"buffers_clean"`
	MaxwrittenClean     int64   `pg:"maxwritten_clean"`
	BuffersBackend      int64   `pg:"buffers_backend"`
	BuffersBackendFsync int64   `pg:"buffers_backend_fsync"`
	BuffersAlloc        int64   `pg:"buffers_alloc"`
	StatsReset          *int64  `pg:"stats_reset" type:"timestamptz"`
}

// pgStatProgressVacuumRow is a row of pg_catalog.pg_stat_progress_vacuum:
// none (joind runs no VACUUM).
type pgStatProgressVacuumRow struct {
	Pid              int32  `pg:"pid"`
	Datid            OID    `pg:"datid"`
	Datname          Name   `pg:"datname" type:"name"`
	Relid            OID    `pg:"relid"`
	Phase            string `pg:"phase"`
	HeapBlksTotal    int64  `pg:"heap_blks_total"`
	HeapBlksScanned  int64  `pg:"heap_blks_scanned"`
	HeapBlksVacuumed int64  `pg:"heap_blks_vacuumed"`
	IndexVacuumCount int64  `pg:"index_vacuum_count"`
	MaxDeadTuples    int64  `pg:"max_dead_tuples"`
	NumDeadTuples    int64  `pg:"num_dead_tuples"`
}

// statsResetTime is when the server's statistics began: its start.
func (s *Snapshot) statsResetTime() *int64 {
	if s.env.Activity == nil {
		return nil
	}
	t := pgTime(s.env.Activity.Started())
	return &t
}

// walPosition is the write-ahead log's position, 0/0 without a log.
func (s *Snapshot) walPosition() types.Value {
	if w, ok := s.cat.(storage.WALReader); ok {
		return types.WordValue(w.WALPosition(), types.PgLSN)
	}
	return types.WordValue(0, types.PgLSN)
}

// monitors reports whether the current role has the privileges of
// pg_monitor (or is a superuser): pg_ls_waldir's default grant.
func (s *Snapshot) monitors() bool {
	a, cur := s.Auth(), s.CurrentRole()
	return a == nil || a.IsSuper(cur) || a.MemberOf(cur, 3373, true)
}

func init() {
	declare(pc, "pg_locks", 12073, 'v', func(*Snapshot) []pgLocksRow { return nil })
	declare(pc, "pg_prepared_xacts", 12090, 'v', func(*Snapshot) []pgPreparedXactsRow { return nil })
	declare(pc, "pg_replication_slots", 12257, 'v', func(*Snapshot) []pgReplicationSlotsRow { return nil })
	declare(pc, "pg_stat_archiver", 12285, 'v', func(s *Snapshot) []pgStatArchiverRow {
		return []pgStatArchiverRow{{StatsReset: s.statsResetTime()}}
	})
	declare(pc, "pg_stat_bgwriter", 12289, 'v', func(s *Snapshot) []pgStatBgwriterRow {
		return []pgStatBgwriterRow{{StatsReset: s.statsResetTime()}}
	})
	declare(pc, "pg_stat_progress_vacuum", 12302, 'v', func(*Snapshot) []pgStatProgressVacuumRow { return nil })

	lsn := types.PgLSNType
	monitoringFuncs := []*Func{
		// joind is never a standby: not in recovery, nothing received or
		// replayed (NULL, as on a primary).
		{Names: []string{"pg_is_in_recovery"}, Result: boolT, Volatile: true, Eval: constant(types.BoolValue(false))},
		{Names: []string{"pg_last_wal_receive_lsn", "pg_last_wal_replay_lsn"}, Result: lsn, Volatile: true, Eval: constant(types.NullValue)},
		{Names: []string{"pg_last_xact_replay_timestamp"}, Result: types.TimestampTZType, Volatile: true, Eval: constant(types.NullValue)},
		// Every record is written and flushed when its commit is
		// acknowledged: insert, write and flush positions are one.
		{Names: []string{"pg_current_wal_lsn", "pg_current_wal_insert_lsn", "pg_current_wal_flush_lsn"}, Result: lsn, Volatile: true,
			Eval: func(s *Snapshot, _ []types.Value) types.Value { return s.walPosition() }},
		// Lock waits are not tracked by backend: no backend is reported
		// as blocking another.
		{Names: []string{"pg_blocking_pids"}, MinArgs: 1, MaxArgs: 1, Args: []types.Type{i4}, Result: types.ArrayOf(i4), Volatile: true,
			Eval: func(*Snapshot, []types.Value) types.Value { return types.Value{Arr: types.NewArray(nil)} }},
	}
	for _, f := range monitoringFuncs {
		funcs = append(funcs, f)
		for _, n := range f.Names {
			funcByName[n] = append(funcByName[n], f)
		}
	}

	setFuncs = append(setFuncs,
		&SetFunc{Name: "pg_ls_waldir", Out: []string{"name", "size", "modification"},
			OutTypes: []types.Type{text, types.Int8Type, types.TimestampTZType},
			RowsOut: func(s *Snapshot, _ []types.Value) ([][]types.Value, error) {
				if !s.monitors() {
					return nil, pgerr.New(pgerr.InsufficientPrivilege, "permission denied for function pg_ls_waldir")
				}
				w, ok := s.cat.(storage.WALReader)
				if !ok {
					return nil, nil
				}
				var out [][]types.Value
				for _, f := range w.WALFiles() {
					out = append(out, []types.Value{types.TextValue(f.Name), types.IntValue(f.Size), types.IntValue(pgTime(f.Modified))})
				}
				return out, nil
			}},
		&SetFunc{Name: "pg_stat_get_progress_info", Args: []types.Type{text}, Out: progressInfoColumns(), OutTypes: progressInfoTypes(),
			RowsOut: func(s *Snapshot, v []types.Value) ([][]types.Value, error) { return s.progressInfo(v[0].S) }},
	)
}

// progressInfoColumns and progressInfoTypes are pg_stat_get_progress_info's
// OUT columns: pid, datid, relid, param1 … param20.
func progressInfoColumns() []string {
	out := []string{"pid", "datid", "relid"}
	for i := 1; i <= 20; i++ {
		out = append(out, fmt.Sprintf("param%d", i))
	}
	return out
}

func progressInfoTypes() []types.Type {
	out := []types.Type{i4, oid, oid}
	for i := 1; i <= 20; i++ {
		out = append(out, types.Int8Type)
	}
	return out
}

// progressInfo is pg_stat_get_progress_info(cmd): the backends running
// command cmd, with its progress counters as pg_stat_progress_copy reads
// them (param1 bytes processed, 2 bytes total, 3 tuples processed, 4
// tuples excluded, 5 the command, 6 the I/O type). joind runs no VACUUM,
// ANALYZE, CLUSTER, CREATE INDEX or base backup with progress: none.
func (s *Snapshot) progressInfo(cmd string) ([][]types.Value, error) {
	switch strings.ToUpper(cmd) {
	case "VACUUM", "ANALYZE", "CLUSTER", "CREATE INDEX", "BASEBACKUP":
		return nil, nil
	case "COPY":
	default:
		return nil, pgerr.New(pgerr.InvalidParameterValue, "invalid command name: \"%s\"", cmd)
	}
	var out [][]types.Value
	for _, p := range s.stats().Copies.Running() {
		row := []types.Value{types.IntValue(int64(p.PID)), types.IntValue(int64(DatabaseOID(p.Database))), types.IntValue(int64(p.RelID)),
			types.IntValue(p.BytesProcessed.Load()), types.IntValue(p.BytesTotal), types.IntValue(p.TuplesProcessed.Load()),
			types.IntValue(p.TuplesExcluded.Load()), types.IntValue(int64(copyCommandCode[p.Command])), types.IntValue(int64(copyTypeCode[p.Type]))}
		for len(row) < 23 {
			row = append(row, types.IntValue(0))
		}
		out = append(out, row)
	}
	return out, nil
}

// copyCommandCode and copyTypeCode are the numbers pg_stat_progress_copy
// decodes param5 and param6 with.
var (
	copyCommandCode = map[string]int{"COPY FROM": 1, "COPY TO": 2}
	copyTypeCode    = map[string]int{"FILE": 1, "PROGRAM": 2, "PIPE": 3, "CALLBACK": 4}
)
