package crash

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"golang.org/x/sys/unix"

	"github.com/joind/joind/regress/joindtest"
	"github.com/joind/joind/regress/oracle"
)

// The soak (issue 17): many clients read, write, change the schema,
// exhaust file descriptors and memory at once while joind is killed with
// SIGKILL every few seconds. Time is cut into rounds of load; a run of
// rounds on one server process is an epoch, and each epoch ends with a
// SIGKILL in the middle of a round. After every round the crash ledger
// checks every acknowledged change; after a round that was not killed the
// server must come back to its idle goroutine count and keep its resident
// size within soakRSSSlack of the epoch's first idle size.
//
// JOIND_SOAK sets the duration (a Go duration, e.g. 1h; default 40s) and
// JOIND_SOAK_CLIENTS the number of clients (default 64).

const (
	soakFDLimit   = 256 // RLIMIT_NOFILE of the server, so fd churn exhausts it
	soakRSSSlack  = 96 << 20
	soakGoroSlack = 8
)

// soakRef is the read-only table every reader queries; its answers come
// from PostgreSQL running the same statements.
var soakRef = []string{
	`CREATE TABLE soak_ref (k int, k2 int, t text, t2 text, x numeric(12,2))`,
	`INSERT INTO soak_ref SELECT g, CASE WHEN g % 97 = 0 THEN NULL ELSE g * 3 END,
	        'v' || (g % 211), CASE WHEN g % 13 = 0 THEN NULL ELSE 'v' || (g % 157) END,
	        (g * 7 % 1000) / 8.0
	   FROM generate_series(1, 20000) g`,
}

var soakReads = []string{
	`SELECT count(*), sum(k), count(t2), sum(x) FROM soak_ref`,
	`SELECT k % 7 AS g, count(*), sum(x), min(t), max(t2) FROM soak_ref GROUP BY 1 ORDER BY 1`,
	`SELECT count(*) FROM soak_ref a WHERE a.k NOT IN (SELECT k2 FROM soak_ref)`,
	`SELECT count(*) FROM soak_ref a WHERE a.k NOT IN (SELECT k2 FROM soak_ref WHERE k2 IS NOT NULL)`,
	`SELECT count(*) FROM soak_ref a WHERE a.k % 50 NOT IN (SELECT b.k2 % 50 FROM soak_ref b WHERE b.t = a.t AND b.k2 IS NOT NULL)`,
	`SELECT count(*), count(DISTINCT b.k) FROM soak_ref a JOIN soak_ref b ON a.t = b.t2 AND a.k % 10 = b.k % 10`,
	`SELECT k, sum(k) OVER (ORDER BY k ROWS 2 PRECEDING), rank() OVER (PARTITION BY t ORDER BY x, k) FROM soak_ref ORDER BY k LIMIT 5 OFFSET 1000`,
	`SELECT t, count(*), string_agg(k::text, ',' ORDER BY k) FILTER (WHERE k < 300) FROM soak_ref GROUP BY t ORDER BY 2 DESC, 1 LIMIT 5`,
	`SELECT k FROM soak_ref WHERE t2 LIKE 'v1%' ORDER BY x DESC, k LIMIT 7`,
}

// soakBigReads need memory: under a small work_mem they spill or, past the
// query's memory limit, fail with 53200.
var soakBigReads = []string{
	`SELECT count(*), count(DISTINCT h), min(h) FROM (SELECT md5(g::text) h FROM generate_series(1, 150000) g ORDER BY h) s`,
	`SELECT count(*) FROM (SELECT g % 40000 AS k, count(*) FROM generate_series(1, 150000) g GROUP BY 1) s`,
}

// soakInvariants hold in every snapshot of the crash table, whatever the
// writers are doing: statements and blocks land whole.
var soakInvariants = []string{
	`SELECT count(*) FROM crash WHERE (w, s) NOT IN (SELECT w, s FROM crash WHERE p = 1)`,
	`SELECT count(*) % 3 FROM crash`,
	`SELECT count(*) FROM (SELECT w, s FROM crash GROUP BY w, s HAVING count(DISTINCT v) > 1 OR count(*) <> 3) u`,
}

// textRows runs q over the simple protocol and returns its rows as text.
func textRows(ctx context.Context, c *pgconn.PgConn, q string) ([][]string, error) {
	rs, err := c.Exec(ctx, q).ReadAll()
	if err != nil {
		return nil, err
	}
	var out [][]string
	for _, r := range rs {
		for _, row := range r.Rows {
			var vals []string
			for _, v := range row {
				if v == nil {
					vals = append(vals, "<NULL>")
				} else {
					vals = append(vals, string(v))
				}
			}
			out = append(out, vals)
		}
	}
	return out, nil
}

// soakRun is one soak's shared state.
type soakRun struct {
	t        *testing.T
	expected map[string]string // query → PostgreSQL's rows
	errMu    sync.Mutex
	errs     []string // unexpected outcomes
	stats    sync.Map // outcome name → *atomic.Int64
}

func (r *soakRun) count(name string) {
	v, _ := r.stats.LoadOrStore(name, new(atomic.Int64))
	v.(*atomic.Int64).Add(1)
}

func (r *soakRun) fail(format string, args ...any) {
	r.errMu.Lock()
	defer r.errMu.Unlock()
	if len(r.errs) < 20 {
		r.errs = append(r.errs, fmt.Sprintf(format, args...))
	}
}

// outcome classifies a client's error: expected ones are counted; any
// other fails the soak unless the round is being killed (then connection
// errors are the point).
func (r *soakRun) outcome(who, q string, err error, killing *atomic.Bool, allowed ...string) {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		for _, code := range allowed {
			if pgErr.Code == code {
				r.count(who + " " + code)
				return
			}
		}
		r.fail("%s: %s: unexpected error %s %s", who, q, pgErr.Code, pgErr.Message)
		return
	}
	if killing.Load() || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		r.count(who + " cut off")
		return
	}
	r.fail("%s: %s: %v", who, q, err)
}

// reader runs the reference reads and the ledger's invariants until ctx
// ends, checking every answer.
func (r *soakRun) reader(ctx context.Context, j *joindtest.Joind, rng *rand.Rand, killing *atomic.Bool) {
	c, err := pgconn.Connect(ctx, j.DSN())
	if err != nil {
		r.outcome("reader connect", "", err, killing, "53300")
		return
	}
	defer c.Close(context.Background())
	for ctx.Err() == nil {
		var q string
		if rng.Intn(3) == 0 {
			q = soakInvariants[rng.Intn(len(soakInvariants))]
		} else {
			q = soakReads[rng.Intn(len(soakReads))]
		}
		rows, err := textRows(ctx, c, q)
		if err != nil {
			r.outcome("reader", q, err, killing)
			return
		}
		got := fmt.Sprint(rows)
		if want, ok := r.expected[q]; ok {
			if got != want {
				r.fail("reader: %s: got %s, PostgreSQL gives %s", q, got, want)
			}
		} else if got != "[[0]]" {
			r.fail("invariant broken: %s: %s", q, got)
		}
		r.count("read")
	}
}

// memoryHog runs the big reads under a small work_mem: PostgreSQL's answer
// (spilling) or 53200.
func (r *soakRun) memoryHog(ctx context.Context, j *joindtest.Joind, rng *rand.Rand, killing *atomic.Bool) {
	c, err := pgconn.Connect(ctx, j.DSN())
	if err != nil {
		r.outcome("memory connect", "", err, killing, "53300")
		return
	}
	defer c.Close(context.Background())
	if _, err := textRows(ctx, c, "SET work_mem = '256kB'"); err != nil {
		r.outcome("memory", "SET", err, killing)
		return
	}
	for ctx.Err() == nil {
		q := soakBigReads[rng.Intn(len(soakBigReads))]
		rows, err := textRows(ctx, c, q)
		if err != nil {
			var pgErr *pgconn.PgError
			if errors.As(err, &pgErr) && pgErr.Code == "53200" {
				r.count("memory 53200")
				continue
			}
			r.outcome("memory", q, err, killing)
			return
		}
		if got := fmt.Sprint(rows); got != r.expected[q] {
			r.fail("memory: %s: got %s, PostgreSQL gives %s", q, got, r.expected[q])
		}
		r.count("big read")
	}
}

// schemaChanger creates, alters, fills and drops its own tables; the
// outcome of each statement must be success (or cut off by the kill).
func (r *soakRun) schemaChanger(ctx context.Context, j *joindtest.Joind, id int, rng *rand.Rand, killing *atomic.Bool) {
	c, err := pgconn.Connect(ctx, j.DSN())
	if err != nil {
		r.outcome("ddl connect", "", err, killing, "53300")
		return
	}
	defer c.Close(context.Background())
	for n := 0; ctx.Err() == nil; n++ {
		name := fmt.Sprintf("soak_ddl_%d_%d_%d", id, rng.Intn(1<<30), n)
		for _, q := range []string{
			"CREATE TABLE " + name + " (a int PRIMARY KEY, b text)",
			"INSERT INTO " + name + " SELECT g, g::text FROM generate_series(1, 100) g",
			"ALTER TABLE " + name + " ADD COLUMN c numeric DEFAULT 1.5",
			"CREATE INDEX ON " + name + " (b)",
			"SELECT count(*), sum(c) FROM " + name,
			"DROP TABLE " + name,
		} {
			if _, err := textRows(ctx, c, q); err != nil {
				r.outcome("ddl", q, err, killing)
				return
			}
		}
		r.count("ddl cycle")
	}
}

// fdChurner opens connections until the server runs out of descriptors or
// slots, holds them a moment and lets them go: new connections may fail
// (53300, or a timeout while accept waits for a descriptor) but the
// server must keep serving and lose nothing.
func (r *soakRun) fdChurner(ctx context.Context, j *joindtest.Joind, killing *atomic.Bool) {
	for ctx.Err() == nil {
		var held []*pgconn.PgConn
		for i := 0; i < soakFDLimit && ctx.Err() == nil; i++ {
			cctx, cancel := context.WithTimeout(ctx, 500*time.Millisecond)
			c, err := pgconn.Connect(cctx, j.DSN())
			cancel()
			if err != nil {
				var pgErr *pgconn.PgError
				if errors.As(err, &pgErr) && pgErr.Code == "53300" {
					r.count("fd churn 53300")
				} else {
					r.count("fd churn refused")
				}
				break
			}
			held = append(held, c)
		}
		r.count("fd churn cycle")
		select {
		case <-ctx.Done():
		case <-time.After(300 * time.Millisecond):
		}
		for _, c := range held {
			c.Close(context.Background())
		}
		select {
		case <-ctx.Done():
		case <-time.After(700 * time.Millisecond):
		}
	}
}

// startSoakServer starts joind on dir with room for the fd churn and
// lowers its descriptor limit so the churn exhausts it.
func startSoakServer(t *testing.T, dir string, metricsPort int) *joindtest.Joind {
	j := joindtest.StartJoindWithDataDir(t, dir, "--max-connections", "1000",
		"--metrics-listen", "127.0.0.1:"+strconv.Itoa(metricsPort), "--pprof", "127.0.0.1:16999")
	lim := unix.Rlimit{Cur: soakFDLimit, Max: soakFDLimit}
	if err := unix.Prlimit(j.Pid(), unix.RLIMIT_NOFILE, &lim, nil); err != nil {
		t.Fatalf("prlimit: %v", err)
	}
	return j
}

// idleSample waits for the server to settle after a round and returns its
// goroutine count and resident size.
func idleSample(t *testing.T, j *joindtest.Joind, metricsPort, want int) (goroutines int, rss int64) {
	t.Helper()
	// Cancelled statements may still be finishing: wait (up to 30 s) until
	// pg_stat_activity shows no other session active.
	c := mustConnect(t, j)
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		var active int
		if err := c.QueryRow(context.Background(),
			"SELECT count(*) FROM pg_stat_activity WHERE state = 'active' AND pid <> pg_backend_pid()").Scan(&active); err != nil {
			t.Fatal(err)
		}
		if active == 0 {
			break
		}
	}
	c.Close(context.Background())
	deadline := time.Now().Add(5 * time.Second)
	for {
		goroutines = scrapeGoroutines(t, metricsPort)
		if want == 0 || goroutines <= want || time.Now().After(deadline) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	// The last query's end hands freed memory back to the system on a
	// goroutine of its own, at most once a second: give it that long,
	// taking the lowest figure.
	rss = joindtest.ProcStatus(t, j.Pid(), "VmRSS")
	for i := 0; i < 15; i++ {
		time.Sleep(100 * time.Millisecond)
		rss = min(rss, joindtest.ProcStatus(t, j.Pid(), "VmRSS"))
	}
	return goroutines, rss
}

func scrapeGoroutines(t *testing.T, port int) int {
	t.Helper()
	resp, err := http.Get(fmt.Sprintf("http://127.0.0.1:%d/metrics", port))
	if err != nil {
		t.Fatalf("metrics: %v", err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	for _, line := range strings.Split(string(body), "\n") {
		if v, ok := strings.CutPrefix(line, "go_goroutines "); ok {
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil {
				t.Fatalf("go_goroutines %q", v)
			}
			return n
		}
	}
	t.Fatalf("no go_goroutines in /metrics")
	return 0
}

func soakSettings(t *testing.T) (time.Duration, int) {
	dur, clients := 40*time.Second, 64
	if v := os.Getenv("JOIND_SOAK"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			t.Fatalf("JOIND_SOAK=%q: want a positive duration", v)
		}
		dur = d
	}
	if v := os.Getenv("JOIND_SOAK_CLIENTS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 8 {
			t.Fatalf("JOIND_SOAK_CLIENTS=%q: want an integer of at least 8", v)
		}
		clients = n
	}
	return dur, clients
}

// TestSoak: see the comment at the top of this file.
func TestSoak(t *testing.T) {
	dur, clients := soakSettings(t)
	writers, hogs, ddl, churners := clients/4, max(1, clients/32), max(1, clients/32), max(1, clients/32)
	readers := clients - writers - hogs - ddl - churners
	seed := time.Now().UnixNano()
	t.Logf("seed %d; %v with %d clients: %d writers, %d readers, %d memory, %d schema, %d fd churn",
		seed, dur, clients, writers, readers, hogs, ddl, churners)
	rng := rand.New(rand.NewSource(seed))

	run := &soakRun{t: t, expected: map[string]string{}}
	pg := oracle.Start(t)
	ctx := context.Background()
	pc, err := pgx.Connect(ctx, pg.DSN())
	if err != nil {
		t.Fatal(err)
	}
	pc.Exec(ctx, "DROP TABLE IF EXISTS soak_ref")
	for _, q := range soakRef {
		if _, err := pc.Exec(ctx, q); err != nil {
			t.Fatalf("oracle: %s: %v", q, err)
		}
	}
	for _, q := range append(append([]string{}, soakReads...), soakBigReads...) {
		rows, err := textRows(ctx, pc.PgConn(), q)
		if err != nil {
			t.Fatalf("oracle: %s: %v", q, err)
		}
		run.expected[q] = fmt.Sprint(rows)
	}
	pc.Exec(ctx, "DROP TABLE soak_ref")
	pc.Close(ctx)

	dir := t.TempDir()
	metricsPort, err := oracle.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	j := startSoakServer(t, dir, metricsPort)
	c := mustConnect(t, j)
	for _, q := range append([]string{"CREATE TABLE crash (w int, s int, p int, v int, PRIMARY KEY (w, s, p))"}, soakRef...) {
		if _, err := c.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	c.Close(ctx)
	l := &ledger{acked: map[[2]int]bool{}, next: make([]int, writers), kinds: map[string]int{},
		units: map[[2]int]*unitState{}, pending: map[int][]change{}, tables: map[string]int{}, ddlAck: map[string]bool{}}

	start := time.Now()
	kills, rounds, epochRound := 0, 0, 0
	var baseGoro int
	var baseRSS, peakRSS int64
	// The soak ends after dur, but not before one SIGKILL: on a slow
	// machine a short soak may have time for few rounds, so once dur has
	// passed without a kill the next round ends in one.
	for (time.Since(start) < dur || kills == 0) && len(run.errs) == 0 {
		rounds++
		epochRound++
		// An epoch lasts 1-4 rounds; its last round ends in SIGKILL.
		killRound := epochRound > 1 && rng.Intn(3) == 0 || epochRound >= 4 || time.Since(start) >= dur
		rctx, cancel := context.WithCancel(ctx)
		var killing atomic.Bool
		var wg sync.WaitGroup
		spawn := func(f func(rng *rand.Rand)) {
			wg.Add(1)
			go func(seed int64) { defer wg.Done(); f(rand.New(rand.NewSource(seed))) }(rng.Int63())
		}
		for w := 0; w < writers; w++ {
			spawn(func(rng *rand.Rand) { l.writer(rctx, j, w, rng) })
		}
		for i := 0; i < readers; i++ {
			spawn(func(rng *rand.Rand) { run.reader(rctx, j, rng, &killing) })
		}
		for i := 0; i < hogs; i++ {
			spawn(func(rng *rand.Rand) { run.memoryHog(rctx, j, rng, &killing) })
		}
		for i := 0; i < ddl; i++ {
			spawn(func(rng *rand.Rand) { run.schemaChanger(rctx, j, i, rng, &killing) })
		}
		for i := 0; i < churners; i++ {
			spawn(func(*rand.Rand) { run.fdChurner(rctx, j, &killing) })
		}
		time.Sleep(time.Duration(1000+rng.Intn(2000)) * time.Millisecond)
		if j.Exited() {
			t.Fatalf("round %d: joind died on its own:\n%s", rounds, j.Log())
		}
		if killRound {
			killing.Store(true)
			kill(t, j)
			kills++
		}
		cancel()
		wg.Wait()
		if killRound {
			j = startSoakServer(t, dir, metricsPort)
			epochRound = 0
		}
		l.verify(t, j, rounds)
		if killRound {
			continue
		}
		goro, rss := idleSample(t, j, metricsPort, baseGoro+soakGoroSlack)
		peakRSS = max(peakRSS, rss)
		if epochRound == 1 {
			baseGoro, baseRSS = goro, rss
			continue
		}
		if goro > baseGoro+soakGoroSlack {
			t.Fatalf("round %d: %d goroutines when idle, %d after the epoch's first round: a leak", rounds, goro, baseGoro)
		}
		if rss > baseRSS+soakRSSSlack {
			resp, _ := http.Get("http://127.0.0.1:16999/debug/pprof/heap?debug=1")
			b, _ := io.ReadAll(resp.Body)
			os.WriteFile("/tmp/soakheap.txt", b, 0o644)
			resp, _ = http.Get("http://127.0.0.1:16999/debug/pprof/heap")
			b, _ = io.ReadAll(resp.Body)
			os.WriteFile("/tmp/soakheap.pb", b, 0o644)
			t.Fatalf("round %d: resident %d MiB when idle, %d MiB after the epoch's first round", rounds, rss>>20, baseRSS>>20)
		}
	}
	for _, e := range run.errs {
		t.Error(e)
	}
	if strings.Contains(j.Log(), "panic") {
		t.Errorf("the server log shows a panic:\n%s", j.Log())
	}
	var outcomes []string
	run.stats.Range(func(k, v any) bool {
		outcomes = append(outcomes, fmt.Sprintf("%s=%d", k, v.(*atomic.Int64).Load()))
		return true
	})
	l.mu.Lock()
	t.Logf("%v: %d rounds, %d SIGKILLs, %d units acknowledged and none lost (%v); outcomes %v; idle peak resident %d MiB",
		time.Since(start).Round(time.Second), rounds, kills, len(l.acked), l.kinds, outcomes, peakRSS>>20)
	l.mu.Unlock()
	if kills == 0 {
		t.Error("no SIGKILL happened: the soak was too short to test recovery")
	}
	j.Stop()
}
