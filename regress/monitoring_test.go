package regress

import (
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/joind/joind/regress/joindtest"
	"github.com/joind/joind/regress/oracle"
)

// monitoringViews are the cumulative-statistics views whose columns must
// be PostgreSQL 15's, in its order (pg_stat_statements 1.10's after
// CREATE EXTENSION on the oracle).
var monitoringViews = []string{"pg_stat_statements", "pg_stat_statements_info", "pg_stat_all_tables", "pg_stat_user_tables",
	"pg_stat_sys_tables", "pg_statio_all_tables", "pg_statio_user_tables", "pg_statio_sys_tables", "pg_stat_database",
	"pg_stat_progress_copy", "pg_stat_activity", "pg_locks", "pg_prepared_xacts", "pg_replication_slots", "pg_stat_archiver",
	"pg_stat_bgwriter", "pg_stat_progress_vacuum", "pg_settings"}

// TestMonitoringViewShapes: each view's column names and types, from
// pg_attribute, are PostgreSQL 15's.
func TestMonitoringViewShapes(t *testing.T) {
	pg := oracle.Start(t)
	pg.CreateDatabase(t, "monshape")
	pgc := connect(t, endpoint{dsn: pg.DSNFor("monshape")})
	mustExec(t, pgc, "CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
	j := joindtest.StartJoind(t)
	jc := connect(t, endpoint{dsn: j.DSNFor("monshape")})
	shape := func(c *pgx.Conn, view string) string {
		t.Helper()
		rows, err := c.Query(ctxT(t), fmt.Sprintf(`SELECT a.attname || ' ' || format_type(a.atttypid, a.atttypmod)
			FROM pg_attribute a WHERE a.attrelid = '%s'::regclass AND a.attnum > 0 ORDER BY a.attnum`, view))
		if err != nil {
			t.Fatalf("%s: %v", view, err)
		}
		cols, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			t.Fatalf("%s: %v", view, err)
		}
		return strings.Join(cols, ", ")
	}
	for _, v := range monitoringViews {
		want := shape(pgc, v)
		if got := shape(jc, v); got != want {
			t.Errorf("%s:\n joind    %s\n postgres %s", v, got, want)
		}
	}
}

// TestMonitoringCountersMove: as statements run, pg_stat_statements
// gains their normalized entries, pg_stat_user_tables and
// pg_stat_database count the scans, writes and transactions, and the
// Prometheus endpoint's counters move.
func TestMonitoringCountersMove(t *testing.T) {
	port, err := oracle.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	j := joindtest.StartJoind(t, "--metrics-listen", addr)
	c := connect(t, endpoint{dsn: j.DSNFor("moncount")})
	scrape := func() string {
		t.Helper()
		var resp *http.Response
		var err error
		for i := 0; i < 50; i++ { // the listener starts beside the server's
			if resp, err = http.Get("http://" + addr + "/metrics"); err == nil {
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	metric := func(text, name string) float64 {
		t.Helper()
		for _, line := range strings.Split(text, "\n") {
			if rest, ok := strings.CutPrefix(line, name+" "); ok {
				v, err := strconv.ParseFloat(rest, 64)
				if err != nil {
					t.Fatal(err)
				}
				return v
			}
		}
		return 0
	}
	before := scrape()

	mustExec(t, c, "SELECT pg_stat_statements_reset()")
	mustExec(t, c, "CREATE TABLE mon_t (a int, b text)")
	mustExec(t, c, "INSERT INTO mon_t SELECT g, 'r' || g FROM generate_series(1, 10) g")
	mustExec(t, c, "SELECT * FROM mon_t WHERE a = 3")
	mustExec(t, c, "SELECT * FROM mon_t WHERE a = 4")
	mustExec(t, c, "UPDATE mon_t SET b = 'x' WHERE a <= 2")
	mustExec(t, c, "DELETE FROM mon_t WHERE a = 10")
	mustExec(t, c, "ANALYZE mon_t")
	if _, err := c.Exec(ctxT(t), "SELECT 1/0"); err == nil {
		t.Fatal("SELECT 1/0 succeeded")
	}

	var calls, rows, segs int64
	if err := c.QueryRow(ctxT(t), `SELECT calls, rows, shared_blks_read FROM pg_stat_statements
		WHERE query = 'SELECT * FROM mon_t WHERE a = $1'`).Scan(&calls, &rows, &segs); err != nil {
		t.Fatalf("the normalized SELECT's entry: %v", err)
	}
	if calls != 2 || rows != 2 || segs < 2 {
		t.Errorf("SELECT entry: calls %d rows %d shared_blks_read %d, want 2, 2, >= 2", calls, rows, segs)
	}
	var n int64
	if err := c.QueryRow(ctxT(t), `SELECT count(*) FROM pg_stat_statements WHERE query LIKE '%1/0%'`).Scan(&n); err != nil || n != 0 {
		t.Errorf("a failed statement has %d entries (%v), want none", n, err)
	}
	var seqScan, tupRead, ins, upd, del, live, dead, analyzes int64
	var lastAnalyze *time.Time
	if err := c.QueryRow(ctxT(t), `SELECT seq_scan, seq_tup_read, n_tup_ins, n_tup_upd, n_tup_del, n_live_tup, n_dead_tup,
		analyze_count, last_analyze FROM pg_stat_user_tables WHERE relname = 'mon_t'`).Scan(&seqScan, &tupRead, &ins, &upd, &del,
		&live, &dead, &analyzes, &lastAnalyze); err != nil {
		t.Fatal(err)
	}
	// Two SELECTs, the UPDATE and the DELETE each scan the table once;
	// the DELETE's scan may skip the segment the UPDATE wrote (a <= 2
	// there, a = 10 wanted), so it reads 8 or 10 rows.
	if seqScan != 4 || tupRead < 38 || tupRead > 40 || ins != 10 || upd != 2 || del != 1 || live != 9 || dead != 3 || analyzes != 1 || lastAnalyze == nil {
		t.Errorf("pg_stat_user_tables: seq_scan %d seq_tup_read %d ins %d upd %d del %d live %d dead %d analyze_count %d last_analyze %v",
			seqScan, tupRead, ins, upd, del, live, dead, analyzes, lastAnalyze)
	}
	var commits, rollbacks int64
	if err := c.QueryRow(ctxT(t), `SELECT xact_commit, xact_rollback FROM pg_stat_database WHERE datname = current_database()`).
		Scan(&commits, &rollbacks); err != nil {
		t.Fatal(err)
	}
	if commits < 7 || rollbacks < 1 {
		t.Errorf("pg_stat_database: xact_commit %d xact_rollback %d, want >= 7 and >= 1", commits, rollbacks)
	}

	after := scrape()
	for _, m := range []struct {
		name string
		min  float64
	}{
		{`joind_statements_total{outcome="success",sqlstate_class="00"}`, 8},
		{`joind_statements_total{outcome="error",sqlstate_class="22"}`, 1},
		{`joind_statement_duration_seconds_count{outcome="success"}`, 8},
		{`joind_commit_duration_seconds_count{outcome="success"}`, 3},
		{`joind_statement_rows_total`, 10 + 2 + 2 + 1},
		{`joind_transactions_total{outcome="commit"}`, 7},
		{`joind_tuples_total{op="inserted"}`, 10},
		{`joind_connections{state="active"}`, 0},
	} {
		if d := metric(after, m.name) - metric(before, m.name); d < m.min {
			t.Errorf("%s moved by %v, want at least %v", m.name, d, m.min)
		}
	}
	if metric(after, `joind_connections{state="idle"}`) < 1 {
		t.Errorf("no idle connection counted:\n%s", after)
	}
	if !strings.Contains(after, "go_goroutines ") {
		t.Error("no Go runtime metrics")
	}
}
