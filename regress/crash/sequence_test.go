package crash

import (
	"context"
	"math/rand"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/joind/joind/regress/joindtest"
)

// seqLedger is every sequence value a client was handed (nextval returned
// it, or an INSERT using a serial column was acknowledged).
type seqLedger struct {
	mu    sync.Mutex
	seen  map[string]map[int64]int // sequence → value → cycle it was handed out in
	dup   []string
	calls int
}

func (l *seqLedger) record(seq string, v int64, cycle int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.seen[seq] == nil {
		l.seen[seq] = map[int64]int{}
	}
	if c, ok := l.seen[seq][v]; ok {
		l.dup = append(l.dup, seq+" "+strconv.FormatInt(v, 10)+" in cycles "+strconv.Itoa(c)+" and "+strconv.Itoa(cycle))
	}
	l.seen[seq][v] = cycle
	l.calls++
}

// TestCrashSequences kills joind with SIGKILL during nextval traffic from
// several connections (plain, CACHE 4 with INCREMENT 3, and serial-column
// INSERTs) and checks after every restart that no value handed out before
// the crash is handed out again, and that the serial column's rows are
// unique. JOIND_CRASH_CYCLES sets the cycles (default 10).
func TestCrashSequences(t *testing.T) {
	cycles := crashCycles(t, 10, 3)
	const clients = 6
	dir := t.TempDir()
	seed := time.Now().UnixNano()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewSource(seed))
	l := &seqLedger{seen: map[string]map[int64]int{}}

	j := joindtest.StartJoindWithDataDir(t, dir)
	c := mustConnect(t, j)
	for _, q := range []string{"CREATE SEQUENCE cs_plain", "CREATE SEQUENCE cs_cached INCREMENT 3 CACHE 4",
		"CREATE TABLE cs_serial (id bigserial, w int)"} {
		if _, err := c.Exec(context.Background(), q); err != nil {
			t.Fatal(err)
		}
	}
	c.Close(context.Background())
	start := time.Now()
	for cycle := 1; cycle <= cycles; cycle++ {
		ctx, cancel := context.WithCancel(context.Background())
		var wg sync.WaitGroup
		for w := 0; w < clients; w++ {
			wg.Add(1)
			go func(w int, rng *rand.Rand) {
				defer wg.Done()
				conn, err := connect(ctx, j)
				if err != nil {
					return
				}
				defer conn.Close(context.Background())
				for {
					var err error
					switch k := rng.Intn(5); {
					case k < 2:
						var v int64
						if err = conn.QueryRow(ctx, "SELECT nextval('cs_plain')").Scan(&v); err == nil {
							l.record("cs_plain", v, cycle)
						}
					case k < 4:
						var v int64
						if err = conn.QueryRow(ctx, "SELECT nextval('cs_cached')").Scan(&v); err == nil {
							l.record("cs_cached", v, cycle)
						}
					default:
						_, err = conn.Exec(ctx, "INSERT INTO cs_serial (w) VALUES ("+strconv.Itoa(w)+")")
					}
					if err != nil {
						return // killed
					}
				}
			}(w, rand.New(rand.NewSource(rng.Int63())))
		}
		time.Sleep(time.Duration(20+rng.Intn(400)) * time.Millisecond)
		kill(t, j)
		wg.Wait()
		cancel()
		j = joindtest.StartJoindWithDataDir(t, dir)
		if strings.Contains(j.Log(), "level=ERROR") {
			t.Fatalf("cycle %d: restart logged an error:\n%s", cycle, j.Log())
		}
		l.mu.Lock()
		dup := l.dup
		l.mu.Unlock()
		if len(dup) > 0 {
			t.Fatalf("cycle %d: values handed out twice: %v", cycle, dup)
		}
		// The counters continue past every value handed out.
		vc := mustConnect(t, j)
		for _, seq := range []string{"cs_plain", "cs_cached"} {
			var last int64
			if err := vc.QueryRow(context.Background(), "SELECT last_value FROM "+seq).Scan(&last); err != nil {
				t.Fatal(err)
			}
			l.mu.Lock()
			for v := range l.seen[seq] {
				if v > last {
					t.Fatalf("cycle %d: %s restarted at %d, below the value %d handed out", cycle, seq, last, v)
				}
			}
			l.mu.Unlock()
		}
		var n, distinct int64
		if err := vc.QueryRow(context.Background(), "SELECT count(*), count(DISTINCT id) FROM cs_serial").Scan(&n, &distinct); err != nil {
			t.Fatal(err)
		}
		if n != distinct {
			t.Fatalf("cycle %d: cs_serial has %d rows but %d distinct ids", cycle, n, distinct)
		}
		vc.Close(context.Background())
	}
	l.mu.Lock()
	t.Logf("%d kill/restart cycles in %v: %d values handed out, none twice", cycles, time.Since(start).Round(time.Millisecond), l.calls)
	l.mu.Unlock()
	j.Stop()
}
