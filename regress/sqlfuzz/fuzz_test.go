package sqlfuzz

import (
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/joind/joind/regress/joindtest"
	"github.com/joind/joind/regress/oracle"
)

func TestMain(m *testing.M) { joindtest.Main(m) }

func envInt(t *testing.T, name string, def int64) int64 {
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return n
}

// servers returns the DSNs of joind and PostgreSQL: given ones
// (JOIND_FUZZ_JOIND_DSN, JOIND_FUZZ_PG_DSN: long runs against running
// servers) or freshly started ones.
func servers(t *testing.T) (joindDSN, pgDSN string) {
	joindDSN, pgDSN = os.Getenv("JOIND_FUZZ_JOIND_DSN"), os.Getenv("JOIND_FUZZ_PG_DSN")
	if pgDSN == "" {
		srv := oracle.Start(t)
		srv.CreateDatabase(t, "sqlfuzz")
		pgDSN = srv.DSNFor("sqlfuzz")
	}
	if joindDSN == "" {
		joindDSN = joindtest.StartJoind(t).DSN()
	}
	return joindDSN, pgDSN
}

// TestSQLFuzz is the bounded differential + metamorphic run. Knobs:
//
//	JOIND_FUZZ_SEED=n        first round's seed (default fixed, so CI is reproducible)
//	JOIND_FUZZ_QUERIES=n     generated queries (default 3000; 300 with -short)
//	JOIND_FUZZ_DURATION=30m  run for a duration instead (unbounded queries)
//	JOIND_FUZZ_PER_SCHEMA=n  queries per generated schema (default 150)
//	JOIND_FUZZ_KNOBS=...     generator knobs (see Knobs)
//	JOIND_FUZZ_WORKERS=n     parallel worker pairs of connections (default 1)
//	JOIND_FUZZ_MAX_FAILURES=n  a worker stops after n failures (default 10)
//	JOIND_FUZZ_JOIND_DSN, JOIND_FUZZ_PG_DSN: use running servers
func TestSQLFuzz(t *testing.T) {
	knobs, err := knobsFromEnv()
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{
		Seed:        envInt(t, "JOIND_FUZZ_SEED", 20261201),
		Queries:     int(envInt(t, "JOIND_FUZZ_QUERIES", 3000)),
		PerSchema:   int(envInt(t, "JOIND_FUZZ_PER_SCHEMA", 150)),
		MetaRate:    25,
		MaxFailures: int(envInt(t, "JOIND_FUZZ_MAX_FAILURES", 10)),
		Knobs:       knobs,
		Logf:        t.Logf,
		Progress:    30 * time.Second,
	}
	if testing.Short() && os.Getenv("JOIND_FUZZ_QUERIES") == "" {
		cfg.Queries = 300
	}
	if s := os.Getenv("JOIND_FUZZ_DURATION"); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil {
			t.Fatalf("JOIND_FUZZ_DURATION: %v", err)
		}
		cfg.Duration = d
		if os.Getenv("JOIND_FUZZ_QUERIES") == "" {
			cfg.Queries = 0
		}
	}
	jdsn, pdsn := servers(t)
	workers := int(envInt(t, "JOIND_FUZZ_WORKERS", 1))
	if workers < 1 {
		t.Fatalf("JOIND_FUZZ_WORKERS=%d", workers)
	}
	t.Logf("sqlfuzz: seed %d, %d worker(s), knobs %s", cfg.Seed, workers, knobs)
	// Workers share the servers, each with its own connections, seeds
	// (seed + i*1e9) and tables (fz<i>_t0, ...).
	fs := make([]*Fuzzer, workers)
	for i := range fs {
		wc := cfg
		if workers > 1 {
			wc.Seed = cfg.Seed + int64(i)*1_000_000_000
			wc.Prefix = "fz" + strconv.Itoa(i) + "_"
			wc.Queries = (cfg.Queries + workers - 1) / workers
			if i > 0 {
				wc.Progress = 0 // one progress line: worker 0's
			}
		}
		f, err := NewFuzzer(wc, jdsn, pdsn)
		if err != nil {
			t.Fatal(err)
		}
		fs[i] = f
	}
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for i, f := range fs {
		wg.Add(1)
		go func(i int, f *Fuzzer) {
			defer wg.Done()
			errs[i] = f.Run()
		}(i, f)
	}
	wg.Wait()
	total := &Stats{}
	var failures []*Failure
	for _, f := range fs {
		total.Add(&f.Stats)
		failures = append(failures, f.Failures...)
	}
	t.Logf("sqlfuzz final: %s", total)
	t.Logf("slowest: joind %v, postgres %v: %.300s", fs[0].j.slowestTime, fs[0].pg.slowestTime, fs[0].pg.slowest)
	t.Logf("most frequent both-error outcomes:\n%s", total.TopErrors(15, os.Getenv("JOIND_FUZZ_VERBOSE") != ""))
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, fl := range failures {
		t.Errorf("sqlfuzz failure %s (seed %d); minimal repro above", fl.Kind, fl.Seed)
	}
	if total.Verdicts[vAgree] == 0 {
		t.Errorf("no query agreed: the generator produces nothing valid")
	}
}
