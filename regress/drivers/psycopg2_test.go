package drivers

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/joind/joind/regress/joindtest"
)

// TestPsycopg2 runs testdata/psycopg2_check.py; testdata/psycopg2.out is
// its output against PostgreSQL 15, byte for byte.
func TestPsycopg2(t *testing.T) {
	// Debian's python3-psycopg2 belongs to the system interpreter.
	py := need(t, "python3", "/usr/bin/python3")
	if _, err := os.Stat("/usr/lib/python3/dist-packages/psycopg2"); err != nil {
		need(t, "psycopg2 (python3-psycopg2)", "/usr/lib/python3/dist-packages/psycopg2")
	}
	j := joindtest.StartJoind(t)
	dsn := "host=127.0.0.1 port=" + itoa(j.Port()) + " dbname=regression user=psy"
	got := run(t, nil, "", py, filepath.Join("testdata", "psycopg2_check.py"), dsn)
	want, err := os.ReadFile(filepath.Join("testdata", "psycopg2.out"))
	if err != nil {
		t.Fatal(err)
	}
	sameLines(t, "psycopg2", got, string(want))
}

// TestPsycopg2NamedCursors runs testdata/psycopg2_cursors.py: psycopg2's
// server-side cursors (DECLARE / FETCH / MOVE / CLOSE, scrollable, WITH
// HOLD); testdata/psycopg2_cursors.out is its output against PostgreSQL 15.
func TestPsycopg2NamedCursors(t *testing.T) {
	py := need(t, "python3", "/usr/bin/python3")
	if _, err := os.Stat("/usr/lib/python3/dist-packages/psycopg2"); err != nil {
		need(t, "psycopg2 (python3-psycopg2)", "/usr/lib/python3/dist-packages/psycopg2")
	}
	j := joindtest.StartJoind(t)
	dsn := "host=127.0.0.1 port=" + itoa(j.Port()) + " dbname=regression user=psy"
	got := run(t, nil, "", py, filepath.Join("testdata", "psycopg2_cursors.py"), dsn)
	want, err := os.ReadFile(filepath.Join("testdata", "psycopg2_cursors.out"))
	if err != nil {
		t.Fatal(err)
	}
	sameLines(t, "psycopg2 named cursors", got, string(want))
}
