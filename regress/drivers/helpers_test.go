package drivers

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/joind/joind/regress/joindtest"
	"github.com/joind/joind/regress/oracle"
)

func TestMain(m *testing.M) { joindtest.Main(m) }

// need returns the path of a required program or file, skipping the test
// when it is absent (failing under CI=true, where .ci/run installs it).
func need(t *testing.T, what string, paths ...string) string {
	t.Helper()
	for _, p := range paths {
		if strings.Contains(p, "/") {
			if _, err := os.Stat(p); err == nil {
				return p
			}
			continue
		}
		if lp, err := exec.LookPath(p); err == nil {
			return lp
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s is not installed (looked for %v); .ci/run installs it", what, paths)
	}
	t.Skipf("%s is not installed (looked for %v)", what, paths)
	return ""
}

// run runs a command with a timeout and returns its combined output; a
// failure fails the test with the output.
func run(t *testing.T, env []string, stdin string, name string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Env = append(os.Environ(), env...)
	if stdin != "" {
		cmd.Stdin = strings.NewReader(stdin)
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}

// sameTranscript runs transcript on a scratch PostgreSQL 15 database db
// and on joind: PostgreSQL's must contain marker (the scenario ran), and
// joind's must equal it line for line.
func sameTranscript(t *testing.T, db, marker string, transcript func(t *testing.T, dsn string) string) {
	t.Helper()
	pg := oracle.Start(t)
	pg.CreateDatabase(t, db)
	j := joindtest.StartJoind(t)
	want := transcript(t, pg.DSNFor(db))
	got := transcript(t, j.DSN())
	if !strings.Contains(want, marker) {
		t.Fatalf("PostgreSQL's transcript lacks %q:\n%s", marker, want)
	}
	sameLines(t, "joind vs PostgreSQL", got, want)
}

// connect opens a pgx connection to j's database "regression".
func connect(t *testing.T, dsn string) *pgx.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatalf("connect %s: %v", dsn, err)
	}
	t.Cleanup(func() { c.Close(context.Background()) })
	return c
}

// exec runs statements through the simple protocol.
func execSQL(t *testing.T, c *pgx.Conn, sqls ...string) {
	t.Helper()
	for _, s := range sqls {
		if _, err := c.Exec(context.Background(), s, pgx.QueryExecModeSimpleProtocol); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
}

// sameLines compares outputs line by line, reporting the first difference.
func sameLines(t *testing.T, what, got, want string) {
	t.Helper()
	g := strings.Split(strings.TrimRight(got, "\n"), "\n")
	w := strings.Split(strings.TrimRight(want, "\n"), "\n")
	for i := 0; i < len(g) || i < len(w); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			t.Fatalf("%s: line %d differs\n got: %q\nwant: %q\n--- full output ---\n%s", what, i+1, gl, wl, got)
		}
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// runStatus is run for a command whose exit status is part of the result.
func runStatus(t *testing.T, env []string, name string, args ...string) (string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatalf("%s: %v\n%s", name, err, out)
	}
	return string(out), cmd.ProcessState.ExitCode()
}
