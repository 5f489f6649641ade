package drivers

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/joind/joind/regress/joindtest"
	"github.com/joind/joind/regress/oracle"
)

// TestSQLAlchemyInspector runs testdata/sqlalchemy_inspect.py (SQLAlchemy
// Inspector over psycopg2: columns, keys, indexes, checks, comments, a
// view) against PostgreSQL 15 and joind in the same run and requires the
// same answers, method by method.
func TestSQLAlchemyInspector(t *testing.T) {
	if _, err := os.Stat("/usr/lib/python3/dist-packages/sqlalchemy"); err != nil {
		need(t, "SQLAlchemy (python3-sqlalchemy)", "/usr/lib/python3/dist-packages/sqlalchemy")
	}
	need(t, "psycopg2 (python3-psycopg2)", "/usr/lib/python3/dist-packages/psycopg2")
	pg := oracle.Start(t)
	pg.CreateDatabase(t, "drv_sqlalchemy")
	j := joindtest.StartJoind(t)
	script := filepath.Join("testdata", "sqlalchemy_inspect.py")
	url := func(host string, port int, db string) string {
		return "postgresql+psycopg2://postgres@/" + db + "?host=" + host + "&port=" + itoa(port)
	}
	want := run(t, nil, "", "/usr/bin/python3", script, url(pg.Host(), pg.Port(), "drv_sqlalchemy"))
	got := run(t, nil, "", "/usr/bin/python3", script, url(j.Host(), j.Port(), "drv_sqlalchemy"))
	if !strings.Contains(want, "get_pk_constraint: {'constrained_columns': ['id']") {
		t.Fatalf("PostgreSQL's answers lack the primary key:\n%s", want)
	}
	gl, wl := strings.Split(got, "\n"), strings.Split(want, "\n")
	if len(gl) != len(wl) {
		t.Fatalf("joind printed %d lines, PostgreSQL %d:\n%s\n---\n%s", len(gl), len(wl), got, want)
	}
	for i := range wl {
		method, _, _ := strings.Cut(wl[i], ": ")
		gap := knownInspectorGaps[method]
		switch {
		case gap != "" && gl[i] == wl[i]:
			t.Errorf("%s now answers as PostgreSQL does: drop it from knownInspectorGaps and docs/clients/sqlalchemy.md", method)
		case gap == "" && gl[i] != wl[i]:
			t.Errorf("%s differs:\n joind:      %s\n PostgreSQL: %s", method, gl[i], wl[i])
		}
	}
}

// knownInspectorGaps are the Inspector methods joind does not answer as
// PostgreSQL does yet, and why (docs/clients/sqlalchemy.md lists them);
// the test fails when one starts to agree, so the list stays true.
var knownInspectorGaps = map[string]string{}
