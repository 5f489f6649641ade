package drivers

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/joind/joind/regress/joindtest"
	"github.com/joind/joind/regress/oracle"
)

// TestStatActivityAndSignals runs one scenario on PostgreSQL 15 and on
// joind through pgx: a monitoring session watches a worker session in
// pg_stat_activity (idle, active with its query, idle in transaction,
// aborted), cancels its running pg_sleep with pg_cancel_backend and ends
// it with pg_terminate_backend. The transcripts must be equal.
func TestStatActivityAndSignals(t *testing.T) {
	pg := oracle.Start(t)
	pg.CreateDatabase(t, "drv_act")
	j := joindtest.StartJoind(t)
	start := time.Now()
	want := activityTranscript(t, pg.DSNFor("drv_act"))
	t.Logf("PostgreSQL: %v", time.Since(start))
	start = time.Now()
	got := activityTranscript(t, j.DSN())
	t.Logf("joind: %v", time.Since(start))
	if !strings.Contains(want, "canceled: 57014") || !strings.Contains(want, "terminated: 57P01") {
		t.Fatalf("PostgreSQL's transcript lacks the signals:\n%s", want)
	}
	sameLines(t, "joind vs PostgreSQL", got, want)
}

func activityTranscript(t *testing.T, dsn string) string {
	t.Helper()
	ctx := context.Background()
	var b strings.Builder
	mon := connect(t, dsn)
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		t.Fatal(err)
	}
	cfg.RuntimeParams["application_name"] = "drv_worker"
	worker, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer worker.Close(ctx)
	var pid int32
	if err := worker.QueryRow(ctx, "SELECT pg_backend_pid()").Scan(&pid); err != nil {
		t.Fatal(err)
	}
	watch := func(label string) {
		var state, query, app string
		var xact, hasQueryStart, hasAddr bool
		err := mon.QueryRow(ctx, `SELECT state, query, application_name, xact_start IS NOT NULL,
			query_start IS NOT NULL AND query_start >= backend_start, client_addr IS NOT NULL
			FROM pg_stat_activity WHERE pid = $1`, pid).Scan(&state, &query, &app, &xact, &hasQueryStart, &hasAddr)
		if errors.Is(err, pgx.ErrNoRows) {
			fmt.Fprintf(&b, "%s: not listed\n", label)
			return
		}
		if err != nil {
			t.Fatalf("%s: %v", label, err)
		}
		fmt.Fprintf(&b, "%s: state=%s query=%q app=%s xact=%v query_start=%v client_addr=%v\n",
			label, state, query, app, xact, hasQueryStart, hasAddr)
	}
	// waitActive polls until the worker is running query (or 10 s pass).
	waitActive := func(query string) {
		for start := time.Now(); time.Since(start) < 10*time.Second; time.Sleep(20 * time.Millisecond) {
			var n int
			if err := mon.QueryRow(ctx, "SELECT count(*) FROM pg_stat_activity WHERE pid = $1 AND state = 'active' AND query = $2",
				pid, query).Scan(&n); err != nil {
				t.Fatal(err)
			}
			if n == 1 {
				return
			}
		}
		t.Fatalf("the worker never showed as running %q", query)
	}
	sqlstate := func(err error) string {
		var pe *pgconn.PgError
		if errors.As(err, &pe) {
			return pe.Code
		}
		return fmt.Sprint(err)
	}
	watch("after connect")
	if _, err := worker.Exec(ctx, "BEGIN"); err != nil {
		t.Fatal(err)
	}
	watch("in a transaction block")
	_, err = worker.Exec(ctx, "SELECT 1/0")
	fmt.Fprintf(&b, "division: %s\n", sqlstate(err))
	watch("after an error")
	if _, err := worker.Exec(ctx, "ROLLBACK"); err != nil {
		t.Fatal(err)
	}
	watch("after rollback")

	const sleep = "SELECT pg_sleep(30)"
	done := make(chan error, 1)
	go func() {
		_, err := worker.Exec(ctx, sleep, pgx.QueryExecModeSimpleProtocol)
		done <- err
	}()
	waitActive(sleep)
	watch("sleeping")
	var ok bool
	if err := mon.QueryRow(ctx, "SELECT pg_cancel_backend($1)", pid).Scan(&ok); err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(&b, "pg_cancel_backend: %v\n", ok)
	fmt.Fprintf(&b, "canceled: %s\n", sqlstate(<-done))
	watch("after cancel")

	go func() {
		_, err := worker.Exec(ctx, sleep, pgx.QueryExecModeSimpleProtocol)
		done <- err
	}()
	waitActive(sleep)
	if err := mon.QueryRow(ctx, "SELECT pg_terminate_backend($1)", pid).Scan(&ok); err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(&b, "pg_terminate_backend: %v\n", ok)
	fmt.Fprintf(&b, "terminated: %s\n", sqlstate(<-done))
	for start := time.Now(); time.Since(start) < 10*time.Second; time.Sleep(20 * time.Millisecond) {
		var n int
		if err := mon.QueryRow(ctx, "SELECT count(*) FROM pg_stat_activity WHERE pid = $1", pid).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			break
		}
	}
	watch("after terminate")
	if err := mon.QueryRow(ctx, "SELECT pg_cancel_backend($1)", pid).Scan(&ok); err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(&b, "pg_cancel_backend of a gone backend: %v\n", ok)
	return b.String()
}

// TestVanishedClientQueryIsCancelled: a psql that is killed while its
// query runs (here an endless recursive CTE) must not leave the query
// running. PostgreSQL cancels it when client_connection_check_interval
// is set (the test sets it there); joind always does. A monitoring
// session then no longer finds the backend.
func TestVanishedClientQueryIsCancelled(t *testing.T) {
	psql := need(t, "psql", "/usr/lib/postgresql/15/bin/psql", "psql")
	pg := oracle.Start(t)
	pg.CreateDatabase(t, "drv_gone")
	j := joindtest.StartJoind(t)
	const endless = "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r"
	for _, target := range []struct {
		name, dsn, host, db string
		port                int
	}{{"PostgreSQL", pg.DSNFor("drv_gone"), pg.Host(), "drv_gone", pg.Port()}, {"joind", j.DSN(), j.Host(), "regression", j.Port()}} {
		ctx := context.Background()
		mon := connect(t, target.dsn)
		cmd := exec.Command(psql, "-X", "-h", target.host, "-p", strconv.Itoa(target.port), "-U", "postgres",
			"-d", target.db, "-c", endless)
		cmd.Env = append(os.Environ(), "PGOPTIONS=-c client_connection_check_interval=1s")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		active := func() int {
			var n int
			if err := mon.QueryRow(ctx, "SELECT count(*) FROM pg_stat_activity WHERE state = 'active' AND query = $1", endless).Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n
		}
		for start := time.Now(); active() == 0; time.Sleep(20 * time.Millisecond) {
			if time.Since(start) > 10*time.Second {
				_ = cmd.Process.Kill()
				t.Fatalf("%s: the endless query never showed as active", target.name)
			}
		}
		// The client vanishes: psql is killed under the running query.
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		start := time.Now()
		for active() != 0 {
			if time.Since(start) > 15*time.Second {
				t.Fatalf("%s: the query of a killed psql is still running after %v", target.name, time.Since(start))
			}
			time.Sleep(50 * time.Millisecond)
		}
		t.Logf("%s: the killed client's query ended after %v", target.name, time.Since(start).Round(time.Millisecond))
	}
}
