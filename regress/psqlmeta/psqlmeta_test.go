package psqlmeta

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/joind/joind/regress"
	"github.com/joind/joind/regress/joindtest"
	"github.com/joind/joind/regress/oracle"
)

func TestMain(m *testing.M) { joindtest.Main(m) }

// TestDescribe runs testdata/meta.sql (CREATE TABLE/VIEW, then \dt, \d,
// \d NAME, \dn, \df, \dT and catalog queries) through psql against joind
// and against PostgreSQL 15, and requires the same output.
func TestDescribe(t *testing.T) {
	pg := oracle.Start(t)
	const db = "psqlmeta"
	pg.CreateDatabase(t, db)
	j := joindtest.StartJoind(t)

	want := runScript(t, pg.Host(), pg.Port(), db)
	got := runScript(t, j.Host(), j.Port(), db)
	if got != want {
		t.Errorf("joind's psql output differs from PostgreSQL's:\n%s", diff(want, got))
	}
}

// TestRolesDescribe runs testdata/roles.sql (roles, memberships, grants,
// then \du, \dp, pg_roles, pg_user, has_*_privilege) on both.
func TestRolesDescribe(t *testing.T) {
	pg := oracle.Start(t)
	const db = "psqlmeta_roles"
	pg.CreateDatabase(t, db)
	j := joindtest.StartJoind(t)
	want := runFile(t, pg.Host(), pg.Port(), db, "roles.sql")
	got := runFile(t, j.Host(), j.Port(), db, "roles.sql")
	if got != want {
		t.Errorf("joind's psql output differs from PostgreSQL's:\n%s", diff(want, got))
	}
}

// TestDatabaseList checks \l: joind lists the one database it was asked
// for, as PostgreSQL lists a database of that name when given its name.
func TestDatabaseList(t *testing.T) {
	pg := oracle.Start(t)
	const db = "psqlmeta_l"
	pg.CreateDatabase(t, db)
	j := joindtest.StartJoind(t)
	// The connected database and a fresh cluster's three (the oracle's
	// cluster also holds other tests' databases, so \l is filtered).
	for _, pattern := range []string{db, "postgres", "template*"} {
		want := runPsql(t, pg.Host(), pg.Port(), db, `\l `+pattern)
		got := runPsql(t, j.Host(), j.Port(), db, `\l `+pattern)
		if got != want {
			t.Errorf("\\l %s differs:\n%s", pattern, diff(want, got))
		}
	}
}

func runScript(t *testing.T, host string, port int, db string) string {
	t.Helper()
	return runFile(t, host, port, db, "meta.sql")
}

func runFile(t *testing.T, host string, port int, db, name string) string {
	t.Helper()
	script, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return psql(t, host, port, db, script, "-a")
}

func runPsql(t *testing.T, host string, port int, db, command string) string {
	t.Helper()
	return psql(t, host, port, db, nil, "-c", command)
}

func psql(t *testing.T, host string, port int, db string, stdin []byte, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, regress.PsqlBinary(), append([]string{"-X", "-q"}, args...)...)
	cmd.Env = regress.PsqlEnv(host, port, db)
	cmd.Stdin = bytes.NewReader(stdin)
	out, err := cmd.CombinedOutput()
	if err != nil && ctx.Err() != nil {
		t.Fatalf("psql: %v\n%s", err, out)
	}
	return string(out)
}

// diff is a unified diff of the two outputs (diff(1)), or both in full.
func diff(want, got string) string {
	dir, err := os.MkdirTemp("", "psqlmeta-")
	if err == nil {
		defer os.RemoveAll(dir)
		w, g := filepath.Join(dir, "postgresql"), filepath.Join(dir, "joind")
		if os.WriteFile(w, []byte(want), 0o644) == nil && os.WriteFile(g, []byte(got), 0o644) == nil {
			if out, _ := exec.Command("diff", "-u", w, g).CombinedOutput(); len(out) > 0 {
				return string(out)
			}
		}
	}
	return "--- PostgreSQL ---\n" + want + "\n--- joind ---\n" + got
}
