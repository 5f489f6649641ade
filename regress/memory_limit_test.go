package regress

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/joind/joind/regress/joindtest"
)

// memoryRun is one run of the memory reliability test: the table's rows,
// the per-query limit (the server-wide one is twice it) and the resident
// memory a query may add past it.
type memoryRun struct {
	rows     int64
	limit    int64
	overhead int64
	timeout  time.Duration
}

// memoryOverhead is what a query's resident memory may exceed its limit
// by: what operators do not count (the batches in flight between
// operators, each partition's 64 spill writers' 256 KiB buffers, the
// encoded rows on their way to the client) and the Go collector's
// headroom (the soft limit is a quarter above the server-wide limit, which the stored table is not counted in).
func memoryOverhead(limit int64) int64 { return 64<<20 + limit/2 }

// TestMemoryLimitHoldsResidentSize runs each memory-heavy operator over a
// table too big for the per-query limit, one query at a time, on a joind
// process, and checks from /proc/PID/status that its resident peak
// (VmHWM, reset before each query through clear_refs) stayed within the
// resident size before the query plus the limit plus memoryOverhead, and
// that each query either spilled (EXPLAIN ANALYZE says so) or failed with
// 53200. JOIND_MEMORY_50M=1 runs it at 50M rows under 1 GiB instead of 3M
// rows under 64 MiB.
func TestMemoryLimitHoldsResidentSize(t *testing.T) {
	run := memoryRun{rows: 3_000_000, limit: 64 << 20, timeout: 10 * time.Minute}
	if os.Getenv("JOIND_MEMORY_50M") == "1" {
		run = memoryRun{rows: 50_000_000, limit: 1 << 30, timeout: 60 * time.Minute}
	}
	run.overhead = memoryOverhead(run.limit)
	args := []string{"--partitions", "2", "--memory-limit", strconv.FormatInt(run.limit, 10),
		"--server-memory-limit", strconv.FormatInt(2*run.limit, 10)}
	load := joindtest.StartJoind(t, args...)
	c := connect(t, endpoint{name: "joind", dsn: load.DSN()})
	ctx, cancel := context.WithTimeout(context.Background(), run.timeout)
	defer cancel()
	// k: every value distinct, in an order unrelated to g's.
	if _, err := c.Exec(ctx, fmt.Sprintf("CREATE TABLE mt AS SELECT g::bigint AS g, (g::bigint * 7919 %% %d) AS k FROM generate_series(1, %d) g",
		run.rows, run.rows)); err != nil {
		t.Fatal(err)
	}
	c.Close(ctx)
	load.Stop()

	// A fresh server on the loaded table: the loading's garbage is not in
	// the baseline.
	j := joindtest.StartJoindWithDataDir(t, load.DataDir(), args...)
	c = connect(t, endpoint{name: "joind", dsn: j.DSN()})
	var n int64
	if err := c.QueryRow(ctx, "SELECT count(*) FROM mt").Scan(&n); err != nil || n != run.rows {
		t.Fatalf("count(*): %d, %v", n, err)
	}
	t.Logf("%d rows, per-query limit %d MiB, server-wide %d MiB, overhead allowed %d MiB; resident after loading: %d MiB",
		run.rows, run.limit>>20, 2*run.limit>>20, run.overhead>>20, procStatus(t, j.Pid(), "VmRSS")>>20)
	for _, q := range []struct{ name, sql string }{
		{"GROUP BY", "SELECT count(*) FROM (SELECT k, count(*) FROM mt GROUP BY k) x"},
		{"ORDER BY", fmt.Sprintf("SELECT g FROM mt ORDER BY k OFFSET %d", run.rows-1)},
		{"window over one partition", "SELECT max(s) FROM (SELECT sum(g) OVER (ORDER BY k) AS s FROM mt) x"},
		{"DISTINCT", "SELECT count(*) FROM (SELECT DISTINCT k FROM mt) x"},
		{"UNION", "SELECT count(*) FROM (SELECT k FROM mt UNION SELECT g FROM mt) x"},
		{"hash join", "SELECT count(*) FROM mt a JOIN mt b ON a.k = b.k AND a.g = b.g"},
	} {
		base := settledRSS(t, j.Pid())
		if err := os.WriteFile(fmt.Sprintf("/proc/%d/clear_refs", j.Pid()), []byte("5"), 0); err != nil {
			t.Fatalf("reset VmHWM: %v", err)
		}
		start := time.Now()
		plan, err := explainAnalyze(ctx, c, q.sql)
		took := time.Since(start).Round(time.Millisecond)
		hwm := procStatus(t, j.Pid(), "VmHWM")
		var pe *pgconn.PgError
		outcome := ""
		switch {
		case err == nil && strings.Contains(plan, "(spilled: "):
			outcome = "spilled"
		case err == nil:
			t.Errorf("%s: neither spilled nor failed under %d MiB:\n%s", q.name, run.limit>>20, plan)
		case errors.As(err, &pe) && pe.Code == "53200":
			outcome = "53200: " + pe.Detail
		default:
			t.Fatalf("%s: %v", q.name, err)
		}
		t.Logf("%-26s %s in %v; resident %d MiB before, peak %d MiB (+%d MiB)", q.name, outcome, took, base>>20, hwm>>20, (hwm-base)>>20)
		if bound := base + run.limit + run.overhead; hwm > bound {
			t.Errorf("%s: resident peak %d MiB past %d MiB (before %d + limit %d + overhead %d)",
				q.name, hwm>>20, bound>>20, base>>20, run.limit>>20, run.overhead>>20)
		}
		if j.Exited() {
			t.Fatalf("%s: joind exited", q.name)
		}
	}
}

// settledRSS is the server's resident size once it stops falling (a big
// query's end hands its memory back to the system in the background), at
// most 30s later.
func settledRSS(t *testing.T, pid int) int64 {
	t.Helper()
	prev := procStatus(t, pid, "VmRSS")
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); {
		time.Sleep(time.Second)
		now := procStatus(t, pid, "VmRSS")
		if now > prev-1<<20 {
			return now
		}
		prev = now
	}
	return prev
}

// explainAnalyze runs EXPLAIN ANALYZE q and returns the plan's text.
func explainAnalyze(ctx context.Context, c *pgx.Conn, q string) (string, error) {
	rows, err := c.Query(ctx, "EXPLAIN ANALYZE "+q)
	if err != nil {
		return "", err
	}
	var lines []string
	for rows.Next() {
		var l string
		if err := rows.Scan(&l); err != nil {
			return "", err
		}
		lines = append(lines, l)
	}
	return strings.Join(lines, "\n"), rows.Err()
}

// procStatus reads a memory figure of /proc/PID/status, in bytes.
func procStatus(t *testing.T, pid int, field string) int64 {
	return joindtest.ProcStatus(t, pid, field)
}

// TestServerMemoryLimit: with no per-query limit, the server-wide one
// still holds: a sort spills, an aggregate that cannot spill fails with
// 53200 naming the server's limit, and what finished queries held
// (materialized WITH rows, a cursor's DISTINCT closed half-read, a query
// failed mid-way) is returned, so the same queries keep running.
func TestServerMemoryLimit(t *testing.T) {
	j := joindtest.StartJoind(t, "--partitions", "2", "--memory-limit", "0", "--server-memory-limit", "8MiB")
	c := connect(t, endpoint{name: "joind", dsn: j.DSN()})
	mustExec(t, c, "CREATE TABLE sm AS SELECT g::bigint AS g, md5(g::text) AS m FROM generate_series(1, 50000) g")
	plan, err := explainAnalyze(ctxT(t), c, "SELECT m FROM sm, generate_series(1, 10) ORDER BY m OFFSET 499999")
	if err != nil || !strings.Contains(plan, "(spilled: ") {
		t.Fatalf("the sort past the server's limit did not spill (%v):\n%s", err, plan)
	}
	_, err = c.Exec(ctxT(t), "SELECT array_agg(m) FROM sm, generate_series(1, 10)")
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != "53200" || pe.Message != "out of memory" ||
		!strings.HasPrefix(pe.Detail, "Failed on request of size ") || !strings.Contains(pe.Hint, "server's memory limit of 8388608 bytes") {
		t.Fatalf("array_agg past the server's limit: %v", err)
	}
	for i := 0; i < 8; i++ { // each holds ~3 MB: a leak would exhaust 8 MiB
		var n int64
		if err := c.QueryRow(ctxT(t), "WITH w AS MATERIALIZED (SELECT * FROM sm) SELECT count(*) FROM w a JOIN w b ON a.g = b.g").Scan(&n); err != nil || n != 50000 {
			t.Fatalf("run %d: %d, %v", i, n, err)
		}
		mustExec(t, c, "BEGIN")
		mustExec(t, c, "DECLARE cur CURSOR FOR SELECT DISTINCT m FROM sm")
		mustExec(t, c, "FETCH 2 FROM cur")
		mustExec(t, c, "COMMIT")
		if _, err := c.Exec(ctxT(t), "SELECT g / 0 FROM (SELECT DISTINCT g FROM sm) x"); err == nil {
			t.Fatal("division by zero succeeded")
		}
	}
}
