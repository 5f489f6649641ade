package crash

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/joind/joind/regress/joindtest"
)

func TestMain(m *testing.M) { joindtest.Main(m) }

func connect(ctx context.Context, j *joindtest.Joind) (*pgx.Conn, error) {
	cfg, err := pgx.ParseConfig(j.DSN())
	if err != nil {
		return nil, err
	}
	cfg.DefaultQueryExecMode = pgx.QueryExecModeSimpleProtocol
	return pgx.ConnectConfig(ctx, cfg)
}

func mustConnect(t *testing.T, j *joindtest.Joind) *pgx.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := connect(ctx, j)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close(context.Background()) })
	return c
}

// crashCycles is how many kill/restart cycles a test runs: short under
// -short, else JOIND_CRASH_CYCLES, else def.
func crashCycles(t *testing.T, def, short int) int {
	t.Helper()
	if testing.Short() {
		return short
	}
	if v := os.Getenv("JOIND_CRASH_CYCLES"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			t.Fatalf("JOIND_CRASH_CYCLES=%q: want a positive integer", v)
		}
		return n
	}
	return def
}

// kill sends SIGKILL to the joind child process serving j: it is found
// among this process's children by its --listen address.
func kill(t *testing.T, j *joindtest.Joind) {
	t.Helper()
	listen := fmt.Sprintf("127.0.0.1:%d", j.Port())
	tasks, _ := filepath.Glob("/proc/self/task/*/children")
	for _, f := range tasks {
		b, _ := os.ReadFile(f)
		for _, p := range strings.Fields(string(b)) {
			pid, _ := strconv.Atoi(p)
			cmd, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
			args := strings.Split(string(cmd), "\x00")
			for i := 0; i+1 < len(args); i++ {
				if args[i] == "--listen" && args[i+1] == listen {
					if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
						t.Fatalf("kill %d: %v", pid, err)
					}
					for k := 0; k < 200 && !j.Exited(); k++ {
						time.Sleep(10 * time.Millisecond)
					}
					j.Stop() // marks the exit as expected and reaps it
					return
				}
			}
		}
	}
	t.Fatalf("no child process listens on %s", listen)
}

// ledger records what the writers were told (the table crash has a
// primary key, so every write also keeps its index): a (writer, seq) unit is
// acknowledged when its INSERT or COMMIT returned success; an attempted
// unit may or may not have landed, but never in part. Writers also UPDATE
// (v = v + 1 over all of a unit's rows) and DELETE their own units, alone
// or together in a transaction block: once acknowledged, a change is
// there; an unacknowledged one (pending) either landed whole or not at all.
type ledger struct {
	mu    sync.Mutex
	acked map[[2]int]bool
	next  []int // next seq per writer (units below it were attempted)
	kinds map[string]int
	// units are the known states of the acknowledged units: their version
	// v, or gone once a DELETE of them was acknowledged.
	units map[[2]int]*unitState
	// pending is each writer's unacknowledged UPDATE/DELETE/upsert, if any.
	pending map[int][]change
	// tables are the DDL units: a table crash_<w>_<s> made with its one
	// row (s) in a transaction block, true once acknowledged; an
	// unacknowledged one exists whole or not at all.
	tables map[string]int
	ddlAck map[string]bool
}

type unitState struct {
	v    int
	gone bool
}

// change is what one statement or block does to one unit.
type change struct {
	unit          [2]int
	before, after unitState
}

const parts = 3 // rows per unit

// live picks one of writer w's units that is known to exist (ok false:
// none), not k.
func (l *ledger) live(w int, rng *rand.Rand, not [2]int) ([2]int, bool) {
	var ks [][2]int
	for k, u := range l.units {
		if k[0] == w && !u.gone && k != not {
			ks = append(ks, k)
		}
	}
	if len(ks) == 0 {
		return [2]int{}, false
	}
	sort.Slice(ks, func(i, j int) bool { return ks[i][1] < ks[j][1] })
	return ks[rng.Intn(len(ks))], true
}

// writer writes units until its connection fails: single multi-row
// INSERTs, COPY FROM STDIN, BEGIN/INSERT/INSERT/COMMIT blocks, rolled-back
// blocks that must never be seen (negative seq), UPDATEs and DELETEs of
// its earlier units (single statements, a BEGIN/UPDATE/DELETE/COMMIT
// block, and a rolled-back UPDATE), upserts (INSERT ... ON CONFLICT DO
// UPDATE over the primary key, which bump a unit like UPDATE) and DDL (a
// CREATE TABLE and its first row in one block).
//
// Once ctx ends the writer stops before its next statement or block: the
// one under way finishes, so nothing lands after the writer returned
// unless the server is killed (then nothing lands at all).
func (l *ledger) writer(ctx context.Context, j *joindtest.Joind, w int, rng *rand.Rand) {
	c, err := connect(ctx, j)
	if err != nil {
		return
	}
	defer c.Close(context.Background())
	stop := ctx
	ctx = context.WithoutCancel(ctx)
	exec := func(qs ...string) error {
		for _, q := range qs {
			if _, err := c.Exec(ctx, q); err != nil {
				return err
			}
		}
		return nil
	}
	upd := func(k [2]int) string {
		return fmt.Sprintf("UPDATE crash SET v = v + 1 WHERE w = %d AND s = %d", k[0], k[1])
	}
	del := func(k [2]int) string { return fmt.Sprintf("DELETE FROM crash WHERE w = %d AND s = %d", k[0], k[1]) }
	for stop.Err() == nil {
		kind := rng.Intn(13)
		if kind == 12 {
			l.mu.Lock()
			s := l.next[w]
			l.next[w]++
			name := fmt.Sprintf("crash_%d_%d", w, s)
			l.tables[name] = s
			l.mu.Unlock()
			if err := exec("BEGIN", "CREATE TABLE "+name+" (a int)", fmt.Sprintf("INSERT INTO %s VALUES (%d)", name, s), "COMMIT"); err != nil {
				return
			}
			l.mu.Lock()
			l.ddlAck[name] = true
			l.kinds["CREATE TABLE/INSERT"]++
			l.mu.Unlock()
			continue
		}
		if kind >= 7 {
			l.mu.Lock()
			a, ok := l.live(w, rng, [2]int{-1, -1})
			b, ok2 := l.live(w, rng, a)
			var chs []change
			if ok {
				ua := *l.units[a]
				switch kind {
				case 7, 11:
					chs = []change{{a, ua, unitState{v: ua.v + 1}}}
				case 8:
					chs = []change{{a, ua, unitState{v: ua.v, gone: true}}}
				case 9:
					if ok2 {
						ub := *l.units[b]
						chs = []change{{a, ua, unitState{v: ua.v + 1}}, {b, ub, unitState{v: ub.v, gone: true}}}
					}
				}
			}
			l.pending[w] = chs
			l.mu.Unlock()
			if !ok {
				continue
			}
			var err error
			name := ""
			switch {
			case kind == 7:
				err, name = exec(upd(a)), "UPDATE"
			case kind == 8:
				err, name = exec(del(a)), "DELETE"
			case kind == 9 && ok2:
				err, name = exec("BEGIN", upd(a), del(b), "COMMIT"), "BEGIN/UPDATE/DELETE/COMMIT"
			case kind == 10:
				err, name = exec("BEGIN", upd(a), "ROLLBACK"), "BEGIN/UPDATE/ROLLBACK"
			case kind == 11:
				err, name = exec(fmt.Sprintf("INSERT INTO crash VALUES (%d,%d,0,0),(%d,%d,1,0),(%d,%d,2,0) ON CONFLICT (w, s, p) DO UPDATE SET v = crash.v + 1",
					a[0], a[1], a[0], a[1], a[0], a[1])), "INSERT ON CONFLICT DO UPDATE"
			}
			if err != nil {
				return // killed (or the test is over); the change stays pending
			}
			l.mu.Lock()
			for _, ch := range l.pending[w] {
				u := ch.after
				l.units[ch.unit] = &u
			}
			delete(l.pending, w)
			if name != "" {
				l.kinds[name]++
			}
			l.mu.Unlock()
			continue
		}
		l.mu.Lock()
		s := l.next[w]
		l.next[w]++
		l.mu.Unlock()
		var err error
		switch kind {
		case 6:
			data := fmt.Sprintf("%d\t%d\t0\t0\n%d\t%d\t1\t0\n%d\t%d\t2\t0\n", w, s, w, s, w, s)
			_, err = c.PgConn().CopyFrom(ctx, strings.NewReader(data), "COPY crash FROM STDIN")
		case 0, 1, 2:
			_, err = c.Exec(ctx, fmt.Sprintf("INSERT INTO crash VALUES (%d,%d,0,0),(%d,%d,1,0),(%d,%d,2,0)", w, s, w, s, w, s))
		case 3, 4:
			err = exec("BEGIN",
				fmt.Sprintf("INSERT INTO crash VALUES (%d,%d,0,0)", w, s),
				fmt.Sprintf("INSERT INTO crash VALUES (%d,%d,1,0),(%d,%d,2,0)", w, s, w, s),
				"COMMIT")
		case 5:
			err = exec("BEGIN",
				fmt.Sprintf("INSERT INTO crash VALUES (%d,%d,0,0),(%d,%d,1,0),(%d,%d,2,0)", w, -s-1, w, -s-1, w, -s-1),
				"ROLLBACK")
			if err == nil {
				continue // nothing to acknowledge
			}
		}
		if err != nil {
			return // killed (or the test is over)
		}
		l.mu.Lock()
		l.acked[[2]int{w, s}] = true
		l.units[[2]int{w, s}] = &unitState{}
		l.kinds[[]string{"INSERT", "INSERT", "INSERT", "BEGIN/COMMIT", "BEGIN/COMMIT", "", "COPY"}[kind]]++
		l.mu.Unlock()
	}
}

// verify reads the table and checks the ledger's promises: every unit
// whole (each part once, one version), acknowledged ones present in their
// acknowledged state, each pending change landed whole or not at all. It
// then takes what it saw as the known state.
func (l *ledger) verify(t *testing.T, j *joindtest.Joind, cycle int) int {
	t.Helper()
	c := mustConnect(t, j)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	rows, err := c.Query(ctx, "SELECT w, s, p, v FROM crash")
	if err != nil {
		t.Fatalf("cycle %d: %v", cycle, err)
	}
	seen := map[[2]int]map[int]int{}
	vers := map[[2]int]map[int]bool{}
	n := 0
	for rows.Next() {
		var w, s, p, v int
		if err := rows.Scan(&w, &s, &p, &v); err != nil {
			t.Fatal(err)
		}
		k := [2]int{w, s}
		if seen[k] == nil {
			seen[k], vers[k] = map[int]int{}, map[int]bool{}
		}
		seen[k][p]++
		vers[k][v] = true
		n++
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("cycle %d: %v", cycle, err)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	observed := map[[2]int]unitState{}
	for k, ps := range seen {
		if k[1] < 0 {
			t.Fatalf("cycle %d: rows of a rolled-back transaction are visible: writer %d unit %d", cycle, k[0], -k[1]-1)
		}
		if k[0] < 0 || k[0] >= len(l.next) || k[1] >= l.next[k[0]] {
			t.Fatalf("cycle %d: unit %v was never written", cycle, k)
		}
		for p := 0; p < parts; p++ {
			if ps[p] != 1 {
				t.Fatalf("cycle %d: unit %v has part %d %d times (parts seen %v): partial or duplicated statement", cycle, k, p, ps[p], ps)
			}
		}
		if len(vers[k]) != 1 {
			t.Fatalf("cycle %d: unit %v has rows of versions %v: a partial UPDATE", cycle, k, vers[k])
		}
		for v := range vers[k] {
			observed[k] = unitState{v: v}
		}
	}
	state := func(k [2]int) unitState {
		if u, ok := observed[k]; ok {
			return u
		}
		return unitState{gone: true}
	}
	same := func(a, b unitState) bool { return a.gone == b.gone && (a.gone || a.v == b.v) }
	pendingUnit := map[[2]int]bool{}
	for w, chs := range l.pending {
		applied := 0
		for _, ch := range chs {
			pendingUnit[ch.unit] = true
			switch got := state(ch.unit); {
			case same(got, ch.after):
				applied++
			case !same(got, ch.before):
				t.Fatalf("cycle %d: writer %d's unacknowledged change of unit %v: found %+v, want %+v or %+v", cycle, w, ch.unit, got, ch.before, ch.after)
			}
		}
		if applied != 0 && applied != len(chs) {
			t.Fatalf("cycle %d: writer %d's unacknowledged block %+v landed in part (%d of %d changes)", cycle, w, chs, applied, len(chs))
		}
	}
	for k, u := range l.units {
		if !pendingUnit[k] && !same(state(k), *u) {
			t.Fatalf("cycle %d: acknowledged unit %v: found %+v, want %+v", cycle, k, state(k), *u)
		}
	}
	for k := range l.acked {
		if _, ok := l.units[k]; !ok && seen[k] == nil {
			t.Fatalf("cycle %d: acknowledged unit %v is missing", cycle, k)
		}
	}
	// What was seen is now known: unacknowledged inserts that landed and
	// pending changes, resolved.
	for k := range seen {
		u := observed[k]
		l.units[k] = &u
	}
	for k, u := range l.units {
		if !u.gone && seen[k] == nil {
			u.gone = true
		}
	}
	l.pending = map[int][]change{}
	for name, s := range l.tables {
		var cnt, a int
		err := c.QueryRow(ctx, "SELECT count(*), coalesce(min(a), -1) FROM "+name).Scan(&cnt, &a)
		var pgErr *pgconn.PgError
		switch {
		case err == nil && (cnt != 1 || a != s):
			t.Fatalf("cycle %d: table %s has %d rows (min %d), want its one row %d", cycle, name, cnt, a, s)
		case err == nil:
			l.ddlAck[name] = true // landed: known from now on
		case errors.As(err, &pgErr) && pgErr.Code == "42P01" && !l.ddlAck[name]:
			delete(l.tables, name) // never landed
		default:
			t.Fatalf("cycle %d: table %s (acknowledged %v): %v", cycle, name, l.ddlAck[name], err)
		}
	}
	return n
}

// TestCrashRecovery kills joind at random moments under concurrent
// writers and checks the data after every restart. JOIND_CRASH_CYCLES sets
// the number of kill/restart cycles (default 10).
func TestCrashRecovery(t *testing.T) {
	cycles := crashCycles(t, 10, 3)
	const writers = 6
	dir := t.TempDir()
	seed := time.Now().UnixNano()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewSource(seed))
	l := &ledger{acked: map[[2]int]bool{}, next: make([]int, writers), kinds: map[string]int{},
		units: map[[2]int]*unitState{}, pending: map[int][]change{}, tables: map[string]int{}, ddlAck: map[string]bool{}}

	j := joindtest.StartJoindWithDataDir(t, dir)
	c := mustConnect(t, j)
	if _, err := c.Exec(context.Background(), "CREATE TABLE crash (w int, s int, p int, v int, PRIMARY KEY (w, s, p))"); err != nil {
		t.Fatal(err)
	}
	c.Close(context.Background())
	var rows int
	start := time.Now()
	for cycle := 1; cycle <= cycles; cycle++ {
		ctx, cancel := context.WithCancel(context.Background())
		var wg sync.WaitGroup
		for w := 0; w < writers; w++ {
			wg.Add(1)
			go func(w int, seed int64) {
				defer wg.Done()
				l.writer(ctx, j, w, rand.New(rand.NewSource(seed)))
			}(w, rng.Int63())
		}
		time.Sleep(time.Duration(20+rng.Intn(400)) * time.Millisecond)
		kill(t, j)
		wg.Wait()
		cancel()
		j = joindtest.StartJoindWithDataDir(t, dir)
		rows = l.verify(t, j, cycle)
		if strings.Contains(j.Log(), "level=ERROR") {
			t.Fatalf("cycle %d: restart logged an error:\n%s", cycle, j.Log())
		}
	}
	l.mu.Lock()
	acked := len(l.acked)
	l.mu.Unlock()
	t.Logf("%d kill/restart cycles in %v: %d units acknowledged (%v), %d rows present, none lost or duplicated",
		cycles, time.Since(start).Round(time.Millisecond), acked, l.kinds, rows)
	j.Stop()
}

// startFails runs joind on dir and returns its output, failing the test
// if it starts.
func startFails(t *testing.T, dir string) string {
	t.Helper()
	bin := joindtest.Binary(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out, err := execOutput(ctx, bin, "--listen", "127.0.0.1:0", "--data-dir", dir)
	var ee interface{ ExitCode() int }
	if err == nil || !errors.As(err, &ee) {
		t.Fatalf("joind started on a damaged data directory (err %v):\n%s", err, out)
	}
	return out
}

// damagedDir makes a data directory with one table of committed rows and
// returns it with the path of its segment file.
func damagedDir(t *testing.T) (string, string) {
	dir := t.TempDir()
	j := joindtest.StartJoindWithDataDir(t, dir)
	c := mustConnect(t, j)
	for _, q := range []string{"CREATE TABLE d (a int, b text)", "INSERT INTO d SELECT g, 'row ' || g FROM generate_series(1, 1000) g"} {
		if _, err := c.Exec(context.Background(), q); err != nil {
			t.Fatal(err)
		}
	}
	c.Close(context.Background())
	j.Stop()
	segs, _ := filepath.Glob(filepath.Join(dir, "seg-*.arrow"))
	if len(segs) != 1 {
		t.Fatalf("want one segment file, have %v", segs)
	}
	return dir, segs[0]
}

func TestTruncatedSegmentRefusesStart(t *testing.T) {
	dir, seg := damagedDir(t)
	fi, _ := os.Stat(seg)
	if err := os.Truncate(seg, fi.Size()/2); err != nil {
		t.Fatal(err)
	}
	out := startFails(t, dir)
	if !strings.Contains(out, seg) {
		t.Fatalf("the error does not name %s:\n%s", seg, out)
	}
}

func TestCorruptManifestRefusesStart(t *testing.T) {
	dir, _ := damagedDir(t)
	m := filepath.Join(dir, "MANIFEST")
	b, _ := os.ReadFile(m)
	b[len(b)-10] ^= 0x20
	if err := os.WriteFile(m, b, 0o644); err != nil {
		t.Fatal(err)
	}
	out := startFails(t, dir)
	if !strings.Contains(out, m) {
		t.Fatalf("the error does not name %s:\n%s", m, out)
	}
}

// A flipped bit inside the data is found when the table is first read:
// the query fails naming the file; nothing is returned silently wrong.
func TestCorruptSegmentFailsQuery(t *testing.T) {
	dir, seg := damagedDir(t)
	b, _ := os.ReadFile(seg)
	b[len(b)/2] ^= 0x01
	if err := os.WriteFile(seg, b, 0o644); err != nil {
		t.Fatal(err)
	}
	j := joindtest.StartJoindWithDataDir(t, dir)
	c := mustConnect(t, j)
	_, err := c.Exec(context.Background(), "SELECT count(*) FROM d")
	if err == nil || !strings.Contains(err.Error(), seg) {
		t.Fatalf("want an error naming %s, got %v", seg, err)
	}
}
