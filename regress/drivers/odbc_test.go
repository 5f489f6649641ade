package drivers

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/joind/joind/regress/joindtest"
)

// odbcEnv writes odbcinst.ini and odbc.ini for psqlODBC into a temporary
// directory and returns the environment that points unixODBC at them.
func odbcEnv(t *testing.T, driver string, port int) []string {
	dir := t.TempDir()
	inst := "[PostgreSQL Unicode]\nDriver=" + driver + "\n"
	dsn := "[joind]\nDriver=PostgreSQL Unicode\nServername=127.0.0.1\nPort=" + itoa(port) +
		"\nDatabase=regression\nUsername=odbc\nPassword=\n"
	for name, text := range map[string]string{"odbcinst.ini": inst, "odbc.ini": dsn} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return []string{"ODBCSYSINI=" + dir, "ODBCINI=" + filepath.Join(dir, "odbc.ini")}
}

// TestPsqlODBC connects through unixODBC's isql with a DSN, then runs a C
// program with bound parameters (testdata/odbc_check.c; its expected output
// testdata/odbc.out is PostgreSQL 15's).
func TestPsqlODBC(t *testing.T) {
	driver := need(t, "psqlODBC (odbc-postgresql)", "/usr/lib/x86_64-linux-gnu/odbc/psqlodbcw.so")
	isql := need(t, "isql (unixodbc)", "isql")
	j := joindtest.StartJoind(t)
	env := odbcEnv(t, driver, j.Port())

	// isql: the connect sequence (SHOW DateStyle, pg_type 'lo', ...) and
	// server-prepared statements that psqlODBC deallocates.
	out := run(t, env, "create table i (a int, b text)\ninsert into i values (1, 'x')\nselect a, b, version() like 'PostgreSQL 15%' from i\n",
		isql, "-b", "-v", "-d|", "joind")
	if !strings.Contains(out, "1|x|1") || strings.Contains(out, "ERROR") {
		t.Fatalf("isql:\n%s", out)
	}

	cc := need(t, "a C compiler", "cc", "gcc")
	if _, err := os.Stat("/usr/include/sql.h"); err != nil {
		need(t, "ODBC headers (unixodbc-dev)", "/usr/include/sql.h")
	}
	bin := filepath.Join(t.TempDir(), "odbc_check")
	run(t, nil, "", cc, "-o", bin, filepath.Join("testdata", "odbc_check.c"), "-lodbc")
	got := run(t, env, "", bin, "DSN=joind")
	want, err := os.ReadFile(filepath.Join("testdata", "odbc.out"))
	if err != nil {
		t.Fatal(err)
	}
	sameLines(t, "psqlODBC", got, string(want))
}
