package drivers

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/joind/joind/regress/joindtest"
	"github.com/joind/joind/regress/oracle"
)

// TestPsycopg3 runs testdata/psycopg3_check.py (psycopg 3: TypeInfo.fetch
// of int4, text, numeric, name, oid, a domain, an enum and a composite
// type, EnumInfo, CompositeInfo, parameters, binary results, named and
// scrollable and WITH HOLD cursors, COPY in and out) on PostgreSQL 15 and
// joind in the same run and requires the same line for every check but
// those of knownPsycopg3Gaps.
func TestPsycopg3(t *testing.T) {
	py := need(t, "python3", "/usr/bin/python3")
	need(t, "psycopg 3 (python3-psycopg)", "/usr/lib/python3/dist-packages/psycopg")
	const db = "drv_psycopg3"
	pg := oracle.Start(t)
	pg.CreateDatabase(t, db)
	j := joindtest.StartJoind(t)
	script := filepath.Join("testdata", "psycopg3_check.py")
	dsn := func(port int) string { return "host=127.0.0.1 port=" + itoa(port) + " dbname=" + db + " user=postgres" }
	want := run(t, nil, "", py, script, dsn(pg.Port()))
	got := run(t, nil, "", py, script, dsn(j.Port()))
	if !strings.Contains(want, "named cursor: [(1, 'one')") || !strings.Contains(want, "copy rows: 2") {
		t.Fatalf("PostgreSQL's answers are not the expected replay:\n%s", want)
	}
	compareChecks(t, got, want, knownPsycopg3Gaps)
}

// knownPsycopg3Gaps are the checks joind does not answer as PostgreSQL
// does yet (docs/clients/python.md lists them).
var knownPsycopg3Gaps = map[string]string{}

// compareChecks compares "name: value" lines of a client script run on
// joind (got) and on PostgreSQL (want): every line must agree but those
// named in gaps, and a listed line that agrees fails too (drop it).
func compareChecks(t *testing.T, got, want string, gaps map[string]string) {
	t.Helper()
	gl, wl := strings.Split(got, "\n"), strings.Split(want, "\n")
	if len(gl) != len(wl) {
		t.Fatalf("joind printed %d lines, PostgreSQL %d:\n%s\n---\n%s", len(gl), len(wl), got, want)
	}
	for i := range wl {
		name, _, _ := strings.Cut(wl[i], ": ")
		gap := gaps[name]
		switch {
		case gap != "" && gl[i] == wl[i]:
			t.Errorf("%s now answers as PostgreSQL does: drop it from the known gaps and the docs", name)
		case gap == "" && gl[i] != wl[i]:
			t.Errorf("%s differs:\n joind:      %s\n PostgreSQL: %s", name, gl[i], wl[i])
		}
	}
}
