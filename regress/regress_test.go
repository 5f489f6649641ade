package regress

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/joind/joind/regress/joindtest"
	"github.com/joind/joind/regress/oracle"
)

func TestMain(m *testing.M) { joindtest.Main(m) }

// regressDB is the database the suites run in (pg_regress's default name).
const regressDB = "regression"

// targetEnv selects the server the suites and e2e tests run against:
// "joind" (default) or "postgres" (the oracle, which proves the expected
// files and the runner right).
const targetEnv = "JOIND_REGRESS_TARGET"

// endpoint is a server to run against; crashed reports a dead server.
type endpoint struct {
	name    string
	host    string
	port    int
	db      string
	dsn     string
	crashed func() bool
	log     func() string
}

func startTarget(t *testing.T, db string) endpoint {
	t.Helper()
	switch tgt := os.Getenv(targetEnv); tgt {
	case "", "joind":
		// The suites' data files (regress/data, named through psql's
		// abs_srcdir: RunSuite) are server-side files joind may read.
		data, err := filepath.Abs("data")
		if err != nil {
			t.Fatal(err)
		}
		j := joindtest.StartJoind(t, "--copy-dirs", data)
		return endpoint{name: "joind", host: j.Host(), port: j.Port(), db: db, dsn: j.DSNFor(db), crashed: j.Exited, log: j.Log}
	case "postgres":
		return startOracle(t, db)
	default:
		t.Fatalf("%s=%q: want joind or postgres", targetEnv, tgt)
		return endpoint{}
	}
}

func startOracle(t *testing.T, db string) endpoint {
	t.Helper()
	s := oracle.Start(t)
	s.CreateDatabase(t, db)
	return endpoint{name: "postgres", host: s.Host(), port: s.Port(), db: db, dsn: s.DSNFor(db),
		crashed: func() bool { return false }, log: s.Log}
}

func schedule(t *testing.T) []string {
	t.Helper()
	names, err := ReadSchedule("schedule")
	if err != nil {
		t.Fatal(err)
	}
	if len(names) == 0 {
		t.Fatal("schedule is empty")
	}
	return names
}

// TestRegress runs every suite of the schedule against the target (joind
// unless JOIND_REGRESS_TARGET=postgres) and diffs psql's output against
// expected/<name>.out. The actual output is kept in results/<name>.out.
func TestRegress(t *testing.T) {
	names := schedule(t)
	ep := startTarget(t, regressDB)
	if err := os.MkdirAll("results", 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			runAndCompare(t, ep, name, filepath.Join("results", name+".out"))
		})
	}
}

// TestExpectedFilesMatchPostgres runs the suites against real PostgreSQL
// 15, so an expected file that PostgreSQL itself would not produce (a hand
// edit, a suite changed without regenerating) fails here rather than
// becoming a target joind is pushed towards.
func TestExpectedFilesMatchPostgres(t *testing.T) {
	if os.Getenv(targetEnv) == "postgres" {
		t.Skip("TestRegress already runs against PostgreSQL")
	}
	names := schedule(t)
	ep := startOracle(t, regressDB)
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			runAndCompare(t, ep, name, "")
		})
	}
}

func runAndCompare(t *testing.T, ep endpoint, name, resultPath string) {
	t.Helper()
	want, err := os.ReadFile(filepath.Join("expected", name+".out"))
	if err != nil {
		t.Fatalf("%v (generate it with regress/make-expected.sh)", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	got, err := RunSuite(ctx, ".", name, ep.host, ep.port, ep.db)
	if resultPath != "" {
		if werr := os.WriteFile(resultPath, got, 0o644); werr != nil {
			t.Error(werr)
		}
	}
	if err != nil {
		t.Fatalf("%s: %v\noutput so far:\n%s", ep.name, err, tail(got, 40))
	}
	if ep.crashed() {
		t.Errorf("%s exited while running suite %s; log tail:\n%s", ep.name, name, tail([]byte(ep.log()), 60))
	}
	if !bytes.Equal(want, got) {
		where := "(output not kept)"
		if resultPath != "" {
			where = "full output: regress/" + resultPath
		}
		t.Errorf("suite %s: %s output differs from expected/%s.out; %s\n%s",
			name, ep.name, name, where,
			UnifiedDiff("expected/"+name+".out", want, ep.name+"/"+name+".out", got, 80))
	}
}

func tail(b []byte, n int) string {
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// TestScheduleIsComplete keeps schedule, sql/ and expected/ in step: a
// suite missing from the schedule would silently never run.
func TestScheduleIsComplete(t *testing.T) {
	names := schedule(t)
	inSchedule := map[string]bool{}
	for _, n := range names {
		if inSchedule[n] {
			t.Errorf("schedule lists %s twice", n)
		}
		inSchedule[n] = true
		for _, p := range []string{filepath.Join("sql", n+".sql"), filepath.Join("expected", n+".out")} {
			if _, err := os.Stat(p); err != nil {
				t.Errorf("schedule lists %s: %v", n, err)
			}
		}
	}
	for _, dir := range []string{"sql", "expected"} {
		files, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			n := strings.TrimSuffix(strings.TrimSuffix(f.Name(), ".sql"), ".out")
			if !inSchedule[n] {
				t.Errorf("%s/%s is not in the schedule", dir, f.Name())
			}
		}
	}
}
