package drivers

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/joind/joind/regress/joindtest"
)

// TestPsql runs testdata/psql_check.sql (\copy in and out, a bad row with
// its CONTEXT line, variables, \gset, ON_ERROR_STOP); testdata/psql.out is
// PostgreSQL 15's output, exit status included.
func TestPsql(t *testing.T) {
	psql := need(t, "psql", "/usr/lib/postgresql/15/bin/psql", "psql")
	j := joindtest.StartJoind(t)
	dir := t.TempDir()
	for _, f := range []string{"pc.csv", "pc.txt", "bad.txt"} {
		b, err := os.ReadFile(filepath.Join("testdata", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	script, err := os.ReadFile(filepath.Join("testdata", "psql_check.sql"))
	if err != nil {
		t.Fatal(err)
	}
	sqlFile := filepath.Join(dir, "check.sql")
	if err := os.WriteFile(sqlFile, []byte(strings.ReplaceAll(string(script), "DATADIR", dir)), 0o644); err != nil {
		t.Fatal(err)
	}
	// ON_ERROR_STOP makes psql exit 3; that is part of the expected output.
	out, code := runStatus(t, []string{"PGPASSWORD="}, psql, "-X", "-h", "127.0.0.1", "-p", itoa(j.Port()),
		"-U", "postgres", "-d", "regression", "-f", sqlFile)
	got := strings.ReplaceAll(out, dir, "DATADIR") + "exit " + itoa(code) + "\n"
	want, err := os.ReadFile(filepath.Join("testdata", "psql.out"))
	if err != nil {
		t.Fatal(err)
	}
	sameLines(t, "psql", got, string(want))
}
