package regress

import (
	"fmt"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/joind/joind/regress/joindtest"
	"github.com/joind/joind/regress/oracle"
)

// dashboardQuery is one query a monitoring tool sends, as it sends it.
type dashboardQuery struct {
	Tool string
	SQL  string
	// SameRows requires as many rows on joind as on PostgreSQL (the query
	// lists neither sessions, locks nor databases: the oracle cluster is
	// shared by the package's tests, each making its own database).
	SameRows bool
}

// dashboardQueries: pgAdmin 4's dashboard (web/pgadmin/dashboard/
// templates/dashboard/sql/default/*.sql, rendered for one database and
// every chart), pganalyze's backend sampling, and the default collectors of prometheus-community's
// postgres_exporter (collector/*.go), which Grafana's PostgreSQL
// dashboards chart.
var dashboardQueries = []dashboardQuery{
	{Tool: "pgadmin/activity", SQL: `/*pga4dash*/
SELECT pid, datname, usename, application_name, client_addr,
    pg_catalog.to_char(backend_start, 'YYYY-MM-DD HH24:MI:SS TZ') AS backend_start, state,
    wait_event_type || ': ' || wait_event AS wait_event,
    array_to_string(pg_catalog.pg_blocking_pids(pid), ', ') AS blocking_pids, query,
    pg_catalog.to_char(state_change, 'YYYY-MM-DD HH24:MI:SS TZ') AS state_change,
    pg_catalog.to_char(query_start, 'YYYY-MM-DD HH24:MI:SS TZ') AS query_start,
    pg_catalog.to_char(xact_start, 'YYYY-MM-DD HH24:MI:SS TZ') AS xact_start, backend_type,
    CASE WHEN state = 'active' THEN ROUND((extract(epoch from now() - query_start) / 60)::numeric, 2) ELSE 0 END AS active_since
FROM pg_catalog.pg_stat_activity
WHERE datname = (SELECT datname FROM pg_catalog.pg_database WHERE oid = {did})
ORDER BY pid`},
	{Tool: "pgadmin/charts", SQL: `/*pga4dash*/
SELECT 'session_stats' AS chart_name, row_to_json(t)::jsonb AS chart_data
FROM (SELECT
   (SELECT count(*) FROM pg_stat_activity WHERE datname = (SELECT datname FROM pg_database WHERE oid = {did})) AS "Total",
   (SELECT count(*) FROM pg_stat_activity WHERE state = 'active' AND datname = (SELECT datname FROM pg_database WHERE oid = {did}))  AS "Active",
   (SELECT count(*) FROM pg_stat_activity WHERE state = 'idle' AND datname = (SELECT datname FROM pg_database WHERE oid = {did}))  AS "Idle"
) t
UNION ALL
SELECT 'tps_stats' AS chart_name, row_to_json(t)::jsonb AS chart_data
FROM (SELECT
   (SELECT sum(xact_commit) + sum(xact_rollback) FROM pg_stat_database WHERE datname = (SELECT datname FROM pg_database WHERE oid = {did})) AS "Transactions",
   (SELECT sum(xact_commit) FROM pg_stat_database WHERE datname = (SELECT datname FROM pg_database WHERE oid = {did})) AS "Commits",
   (SELECT sum(xact_rollback) FROM pg_stat_database WHERE datname = (SELECT datname FROM pg_database WHERE oid = {did})) AS "Rollbacks"
) t
UNION ALL
SELECT 'ti_stats' AS chart_name, row_to_json(t)::jsonb AS chart_data
FROM (SELECT
   (SELECT sum(tup_inserted) FROM pg_stat_database WHERE datname = (SELECT datname FROM pg_database WHERE oid = {did})) AS "Inserts",
   (SELECT sum(tup_updated) FROM pg_stat_database WHERE datname = (SELECT datname FROM pg_database WHERE oid = {did})) AS "Updates",
   (SELECT sum(tup_deleted) FROM pg_stat_database WHERE datname = (SELECT datname FROM pg_database WHERE oid = {did})) AS "Deletes"
) t
UNION ALL
SELECT 'to_stats' AS chart_name, row_to_json(t)::jsonb AS chart_data
FROM (SELECT
   (SELECT sum(tup_fetched) FROM pg_stat_database WHERE datname = (SELECT datname FROM pg_database WHERE oid = {did})) AS "Fetched",
   (SELECT sum(tup_returned) FROM pg_stat_database WHERE datname = (SELECT datname FROM pg_database WHERE oid = {did})) AS "Returned"
) t
UNION ALL
SELECT 'bio_stats' AS chart_name, row_to_json(t)::jsonb AS chart_data
FROM (SELECT
   (SELECT sum(blks_read) FROM pg_stat_database WHERE datname = (SELECT datname FROM pg_database WHERE oid = {did})) AS "Reads",
   (SELECT sum(blks_hit) FROM pg_stat_database WHERE datname = (SELECT datname FROM pg_database WHERE oid = {did})) AS "Hits"
) t`, SameRows: true},
	{Tool: "pgadmin/locks", SQL: `/*pga4dash*/
SELECT pid, locktype, datname, relation::regclass, page, tuple, virtualxid
    transactionid, classid::regclass, objid, objsubid, virtualtransaction, mode, granted, fastpath
FROM pg_locks l LEFT OUTER JOIN pg_database d ON (l.database = d.oid)
WHERE datname = (SELECT datname FROM pg_database WHERE oid = {did})
ORDER BY pid, locktype`},
	{Tool: "pgadmin/prepared", SQL: `/*pga4dash*/
SELECT gid, database, owner, transaction, pg_catalog.to_char(prepared, 'YYYY-MM-DD HH24:MI:SS TZ') AS prepared
FROM pg_catalog.pg_prepared_xacts
WHERE database = (SELECT datname FROM pg_catalog.pg_database WHERE oid = {did})
ORDER BY gid, database, owner`, SameRows: true},
	{Tool: "pgadmin/config", SQL: `/*pga4dash*/
SELECT name, category, setting, unit, short_desc FROM pg_catalog.pg_show_all_settings() ORDER BY category`},
	// pganalyze's collector (input/postgres/backends.go, PostgreSQL 14+,
	// locks collected).
	{Tool: "pganalyze/backends", SQL: `SELECT (extract(epoch from COALESCE(backend_start, pg_catalog.pg_postmaster_start_time()))::int::text || pg_catalog.to_char(pid, 'FM0000000'))::bigint,
	datid, datname, usesysid, usename, pid, application_name, client_addr::text, client_port,
	backend_start, xact_start, query_start, state_change, COALESCE(wait_event_type, '') = 'Lock' as waiting,
	backend_xid, backend_xmin, wait_event_type, wait_event, backend_type,
	CASE WHEN COALESCE(wait_event_type, '') = 'Lock' THEN pg_blocking_pids(pid) END, state, query, coalesce(query_id, 0)
FROM pg_catalog.pg_stat_activity
WHERE pid IS NOT NULL`},
	{Tool: "postgres_exporter/database", SQL: `SELECT pg_database.datname, pg_database.datconnlimit FROM pg_database`},
	{Tool: "postgres_exporter/database_size", SQL: `SELECT pg_database_size(current_database())`, SameRows: true},
	{Tool: "postgres_exporter/database_wraparound", SQL: `SELECT datname, age(d.datfrozenxid) as age_datfrozenxid, mxid_age(d.datminmxid) as age_datminmxid
	FROM pg_catalog.pg_database d WHERE d.datallowconn`},
	{Tool: "postgres_exporter/locks", SQL: `SELECT pg_database.datname as datname, tmp.mode as mode, COALESCE(count, 0) as count
		FROM (VALUES ('accesssharelock'), ('rowsharelock'), ('rowexclusivelock'), ('shareupdateexclusivelock'), ('sharelock'),
		      ('sharerowexclusivelock'), ('exclusivelock'), ('accessexclusivelock'), ('sireadlock')) AS tmp(mode)
		  CROSS JOIN pg_database
		  LEFT JOIN (SELECT database, lower(mode) AS mode, count(*) AS count FROM pg_locks WHERE database IS NOT NULL
		    GROUP BY database, lower(mode)) AS tmp2 ON tmp.mode = tmp2.mode and pg_database.oid = tmp2.database
		ORDER BY 1`},
	{Tool: "postgres_exporter/replication", SQL: `SELECT
	CASE WHEN NOT pg_is_in_recovery() THEN 0
                WHEN pg_last_wal_receive_lsn () = pg_last_wal_replay_lsn () THEN 0
		ELSE GREATEST (0, EXTRACT(EPOCH FROM (now() - pg_last_xact_replay_timestamp())))
	END AS lag,
	CASE WHEN pg_is_in_recovery() THEN 1 ELSE 0 END as is_replica,
	GREATEST (0, EXTRACT(EPOCH FROM (now() - pg_last_xact_replay_timestamp()))) as last_replay`, SameRows: true},
	{Tool: "postgres_exporter/replication_slots", SQL: `SELECT slot_name, slot_type,
		CASE WHEN pg_is_in_recovery() THEN pg_last_wal_receive_lsn() - '0/0' ELSE pg_current_wal_lsn() - '0/0' END AS current_wal_lsn,
		COALESCE(confirmed_flush_lsn, '0/0') - '0/0' AS confirmed_flush_lsn, active, safe_wal_size, wal_status
	FROM pg_replication_slots`, SameRows: true},
	{Tool: "postgres_exporter/roles", SQL: `SELECT pg_roles.rolname, pg_roles.rolconnlimit FROM pg_roles`},
	{Tool: "postgres_exporter/settings", SQL: `SELECT name, setting, COALESCE(unit, ''), COALESCE(short_desc, ''), vartype FROM pg_settings
	WHERE vartype IN ('bool', 'integer', 'real') AND name NOT IN ('sync_commit_cancel_wait', 'google_dataplex.max_messages')`},
	{Tool: "postgres_exporter/stat_activity", SQL: `SELECT pg_database.datname, tmp.state, tmp2.usename, tmp2.application_name, tmp2.backend_type,
		tmp2.wait_event_type, tmp2.wait_event, COALESCE(count,0) as count, COALESCE(max_tx_duration,0) as max_tx_duration
	FROM (VALUES ('active'), ('idle'), ('idle in transaction'), ('idle in transaction (aborted)'), ('fastpath function call'),
		('disabled')) AS tmp(state) CROSS JOIN pg_database
	LEFT JOIN (SELECT datname, state, usename, application_name, backend_type, wait_event_type, wait_event, count(*) AS count,
			MAX(EXTRACT(EPOCH FROM now() - xact_start))::float AS max_tx_duration
		FROM pg_stat_activity WHERE pid <> pg_backend_pid()
		GROUP BY datname,state,usename,application_name,backend_type,wait_event_type,wait_event) AS tmp2
		ON tmp.state = tmp2.state AND pg_database.datname = tmp2.datname`},
	{Tool: "postgres_exporter/stat_archiver", SQL: `SELECT archived_count, failed_count, extract(epoch from now() - last_archived_time) AS last_archive_age
	FROM pg_stat_archiver`, SameRows: true},
	{Tool: "postgres_exporter/stat_bgwriter", SQL: `SELECT checkpoints_timed, checkpoints_req, checkpoint_write_time, checkpoint_sync_time,
		buffers_checkpoint, buffers_clean, maxwritten_clean, buffers_backend, buffers_backend_fsync, buffers_alloc, stats_reset
	FROM pg_stat_bgwriter`, SameRows: true},
	{Tool: "postgres_exporter/stat_database", SQL: `SELECT datid,datname,numbackends,xact_commit,xact_rollback,blks_read,blks_hit,tup_returned,
	tup_fetched,tup_inserted,tup_updated,tup_deleted,conflicts,temp_files,temp_bytes,deadlocks,blk_read_time,blk_write_time,stats_reset,
	active_time FROM pg_stat_database`},
	{Tool: "postgres_exporter/stat_progress_vacuum", SQL: `SELECT d.datname,
		COALESCE(CASE WHEN d.datname = current_database() THEN s.relid::regclass::text END, s.relid::text) AS relname,
		s.param1 AS phase, s.param2 AS heap_blks_total, s.param3 AS heap_blks_scanned, s.param4 AS heap_blks_vacuumed,
		s.param5 AS index_vacuum_count, s.param6 AS max_dead_tuples, s.param7 AS num_dead_tuples
	FROM pg_stat_get_progress_info('VACUUM'::text)
		s(pid, datid, relid, param1, param2, param3, param4, param5, param6, param7, param8, param9, param10, param11, param12,
		  param13, param14, param15, param16, param17, param18, param19, param20)
	LEFT JOIN pg_database d ON s.datid = d.oid`, SameRows: true},
	{Tool: "postgres_exporter/stat_user_tables", SQL: `SELECT current_database() datname, schemaname, relname, seq_scan, seq_tup_read,
		idx_scan, idx_tup_fetch, n_tup_ins, n_tup_upd, n_tup_del, n_tup_hot_upd, n_live_tup, n_dead_tup, n_mod_since_analyze,
		COALESCE(last_vacuum, '1970-01-01Z') as last_vacuum, COALESCE(last_autovacuum, '1970-01-01Z') as last_autovacuum,
		COALESCE(last_analyze, '1970-01-01Z') as last_analyze, COALESCE(last_autoanalyze, '1970-01-01Z') as last_autoanalyze,
		vacuum_count, autovacuum_count, analyze_count, autoanalyze_count, pg_indexes_size(relid) as indexes_size,
		pg_table_size(relid) as table_size
	FROM pg_stat_user_tables`, SameRows: true},
	{Tool: "postgres_exporter/statio_user_tables", SQL: `SELECT current_database() datname, schemaname, relname, heap_blks_read,
		heap_blks_hit, idx_blks_read, idx_blks_hit, toast_blks_read, toast_blks_hit, tidx_blks_read, tidx_blks_hit
	FROM pg_statio_user_tables`, SameRows: true},
	{Tool: "postgres_exporter/wal", SQL: `SELECT COUNT(*) AS segments, SUM(size) AS size FROM pg_ls_waldir() WHERE name ~ '^[0-9A-F]{24}$'`, SameRows: true},
	{Tool: "postgres_exporter/stat_statements", SQL: `SELECT pg_get_userbyid(userid) as user, pg_database.datname,
		pg_stat_statements.queryid, LEFT(pg_stat_statements.query, 120) as query, pg_stat_statements.calls as calls_total,
		pg_stat_statements.total_exec_time / 1000.0 as seconds_total, pg_stat_statements.rows as rows_total,
		pg_stat_statements.blk_read_time / 1000.0 as block_read_seconds_total,
		pg_stat_statements.blk_write_time / 1000.0 as block_write_seconds_total
		FROM pg_stat_statements(true)
	JOIN pg_database ON pg_database.oid = pg_stat_statements.dbid
	WHERE total_exec_time > (SELECT percentile_cont(0.1) WITHIN GROUP (ORDER BY total_exec_time) FROM pg_stat_statements(false))
	ORDER BY seconds_total DESC LIMIT 100`},
	{Tool: "postgres_exporter/postmaster", SQL: `SELECT extract(epoch from pg_postmaster_start_time) from pg_postmaster_start_time()`, SameRows: true},
}

// TestMonitoringDashboardReplay sends each dashboardQueries entry to
// joind and to PostgreSQL 15 after the same setup and requires the same
// result shape: column names and type OIDs, and for SameRows queries the
// same number of rows. The values are each server's own (sessions,
// counters, times); what joind's mean is checked after: the dashboard
// sees the session running it, active, with its query text.
func TestMonitoringDashboardReplay(t *testing.T) {
	pg := oracle.Start(t)
	const db = "mondash"
	pg.CreateDatabase(t, db)
	j := joindtest.StartJoind(t)
	setup := []string{"CREATE TABLE dash_t (a int PRIMARY KEY, b text)", "INSERT INTO dash_t SELECT g, 'r' || g FROM generate_series(1, 100) g"}
	type answer struct {
		cols []string
		rows [][]string
	}
	run := func(c *pgx.Conn, q string) (answer, error) {
		var did string
		if err := c.QueryRow(ctxT(t), "SELECT oid::text FROM pg_database WHERE datname = current_database()").Scan(&did); err != nil {
			return answer{}, err
		}
		rows, err := c.Query(ctxT(t), strings.ReplaceAll(q, "{did}", did), pgx.QueryExecModeSimpleProtocol)
		if err != nil {
			return answer{}, err
		}
		defer rows.Close()
		var a answer
		for _, f := range rows.FieldDescriptions() {
			a.cols = append(a.cols, fmt.Sprintf("%s:%d", f.Name, f.DataTypeOID))
		}
		for rows.Next() {
			var r []string
			for _, v := range rows.RawValues() {
				r = append(r, string(v))
			}
			a.rows = append(a.rows, r)
		}
		return a, rows.Err()
	}
	pc, jc := connect(t, endpoint{dsn: pg.DSNFor(db)}), connect(t, endpoint{dsn: j.DSNFor(db)})
	mustExec(t, pc, "CREATE EXTENSION IF NOT EXISTS pg_stat_statements") // joind has it built in
	for _, s := range setup {
		mustExec(t, pc, s)
		mustExec(t, jc, s)
	}
	answers := map[string]answer{}
	for _, q := range dashboardQueries {
		t.Run(q.Tool, func(t *testing.T) {
			want, err := run(pc, q.SQL)
			if err != nil {
				t.Fatalf("PostgreSQL: %v", err)
			}
			got, err := run(jc, q.SQL)
			if err != nil {
				t.Fatalf("joind: %v", err)
			}
			if g, w := strings.Join(got.cols, ", "), strings.Join(want.cols, ", "); g != w {
				t.Errorf("columns:\n joind    %s\n postgres %s", g, w)
			}
			if q.SameRows && len(got.rows) != len(want.rows) {
				t.Errorf("joind answers %d rows, PostgreSQL %d", len(got.rows), len(want.rows))
			}
			answers[q.Tool] = got
		})
	}
	// What joind's answers say: the activity page lists this session,
	// active, running the dashboard's query; the session chart counts it.
	act := answers["pgadmin/activity"]
	found := false
	for _, r := range act.rows {
		if len(r) > 9 && r[6] == "active" && strings.Contains(r[9], "pga4dash") {
			found = true
		}
	}
	if !found {
		t.Errorf("pgadmin/activity: no active row running the dashboard query in %v", act.rows)
	}
	sessions := ""
	for _, r := range answers["pgadmin/charts"].rows {
		if r[0] == "session_stats" {
			sessions = r[1]
		}
	}
	if !strings.Contains(sessions, `"Active": 1`) {
		t.Errorf("pgadmin/charts: session_stats %q, want one active session", sessions)
	}
	insert := false
	for _, r := range answers["postgres_exporter/stat_statements"].rows {
		insert = insert || strings.HasPrefix(r[3], "INSERT INTO dash_t SELECT g, $1 || g FROM generate_series($2, $3) g") && r[4] == "1"
	}
	if !insert {
		t.Errorf("postgres_exporter/stat_statements: no normalized INSERT of the setup, called once, in %v", answers["postgres_exporter/stat_statements"].rows)
	}
	if ut := answers["postgres_exporter/stat_user_tables"]; len(ut.rows) != 1 || ut.rows[0][2] != "dash_t" || ut.rows[0][7] != "100" {
		t.Errorf("postgres_exporter/stat_user_tables: %v, want dash_t with n_tup_ins 100", ut.rows)
	}
}
