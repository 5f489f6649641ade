package drivers

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/joind/joind/regress/joindtest"
	"github.com/joind/joind/regress/oracle"
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

// TestStartupSettingsReset connects through pgx with startup parameters
// and options=-c ..., and checks on PostgreSQL 15 and on joind alike that
// RESET, RESET ALL and SET ... TO DEFAULT go back to those values (not to
// the built-in defaults), and which ParameterStatus values the client holds
// after each step — after a SET, a RESET, a rolled-back SET and a
// set_config(). The two transcripts must be equal.
func TestStartupSettingsReset(t *testing.T) {
	pg := oracle.Start(t)
	j := joindtest.StartJoind(t)
	const params = "&datestyle=SQL,DMY&timezone=Europe/Paris&application_name=st_pgx" +
		"&options=-c%20intervalstyle%3Dsql_standard%20-c%20extra_float_digits%3D0"
	want := settingsTranscript(t, pg.DSN()+params)
	got := settingsTranscript(t, j.DSN()+params)
	if !strings.Contains(want, "SHOW DateStyle = SQL, DMY") {
		t.Fatalf("PostgreSQL's transcript does not show the startup DateStyle:\n%s", want)
	}
	sameLines(t, "joind vs PostgreSQL", got, want)
}

func settingsTranscript(t *testing.T, dsn string) string {
	t.Helper()
	ctx := context.Background()
	c := connect(t, dsn)
	var b strings.Builder
	status := func(step string) {
		fmt.Fprintf(&b, "%s:", step)
		for _, k := range []string{"DateStyle", "TimeZone", "IntervalStyle", "application_name", "standard_conforming_strings", "integer_datetimes"} {
			fmt.Fprintf(&b, " %s=%q", k, c.PgConn().ParameterStatus(k))
		}
		b.WriteString("\n")
	}
	show := func(names ...string) {
		for _, n := range names {
			var v string
			if err := c.QueryRow(ctx, "SHOW "+n, pgx.QueryExecModeSimpleProtocol).Scan(&v); err != nil {
				t.Fatalf("SHOW %s: %v", n, err)
			}
			fmt.Fprintf(&b, "SHOW %s = %s\n", n, v)
		}
	}
	all := []string{"DateStyle", "TimeZone", "IntervalStyle", "extra_float_digits", "application_name"}
	status("startup")
	show(all...)
	execSQL(t, c, "SET datestyle = 'German'", "SET timezone = 'Asia/Tokyo'", "SET intervalstyle = 'postgres'",
		"SET extra_float_digits = 3", "SET application_name = 'changed'")
	status("after SET")
	execSQL(t, c, "RESET datestyle", "SET timezone TO DEFAULT")
	status("after RESET datestyle, SET timezone TO DEFAULT")
	show(all...)
	execSQL(t, c, "RESET ALL")
	status("after RESET ALL")
	show(all...)
	execSQL(t, c, "BEGIN", "SET timezone = 'America/New_York'")
	status("in block")
	execSQL(t, c, "ROLLBACK")
	status("after ROLLBACK")
	execSQL(t, c, "SELECT set_config('application_name', 'by_function', false)")
	status("after set_config")
	execSQL(t, c, "BEGIN", "SET LOCAL datestyle = 'Postgres'", "COMMIT")
	status("after SET LOCAL and COMMIT")
	show(all...)
	// The extended protocol: a local set_config outside a block ends with
	// its statement, a session one stays.
	var v string
	if err := c.QueryRow(ctx, "SELECT set_config('timezone', $1, true)", "Asia/Tokyo").Scan(&v); err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(&b, "extended set_config local = %s\n", v)
	if err := c.QueryRow(ctx, "SELECT set_config('intervalstyle', $1, false)", "iso_8601").Scan(&v); err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(&b, "extended set_config session = %s\n", v)
	status("after extended set_config")
	show(all...)
	return b.String()
}
