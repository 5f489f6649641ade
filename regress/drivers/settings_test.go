package drivers

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/joind/joind/regress/joindtest"
)

// TestSettings runs SET / SHOW / RESET, SET LOCAL, SET TRANSACTION and
// ROLLBACK of SETs through psql; testdata/settings.out is PostgreSQL 15's
// output.
func TestSettings(t *testing.T) {
	psql := need(t, "psql", "/usr/lib/postgresql/15/bin/psql", "psql")
	j := joindtest.StartJoind(t)
	got, _ := runStatus(t, nil, psql, "-X", "-h", "127.0.0.1", "-p", itoa(j.Port()), "-U", "postgres", "-d", "postgres",
		"-f", filepath.Join("testdata", "settings.sql"))
	want, err := os.ReadFile(filepath.Join("testdata", "settings.out"))
	if err != nil {
		t.Fatal(err)
	}
	sameLines(t, "settings", got, string(want))
}
