package regress

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/joind/joind/regress/joindtest"
	"github.com/joind/joind/regress/oracle"
)

// TestPgRegress runs the suites under PostgreSQL's own pg_regress driver
// (--use-existing) against joind: an independent check of the Go runner,
// and what a pg_regress-based suite of a user's would see.
func TestPgRegress(t *testing.T) {
	oracle.SkipIfUnavailable(t)
	const pgRegress = "/usr/lib/postgresql/15/lib/pgxs/src/test/regress/pg_regress"
	if _, err := os.Stat(pgRegress); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("pg_regress is missing (package postgresql-client-15): %v", err)
		}
		t.Skipf("pg_regress is missing: %v", err)
	}
	// pg_regress sets PG_ABS_SRCDIR to its input directory (this one), so
	// the suites read regress/data as server-side files, as under TestRegress.
	data, err := filepath.Abs("data")
	if err != nil {
		t.Fatal(err)
	}
	j := joindtest.StartJoind(t, "--copy-dirs", data)
	cmd := exec.Command("bash", "pg_regress.sh", strconv.Itoa(j.Port()), j.Host())
	out, err := cmd.CombinedOutput()
	if err != nil {
		diffs, _ := os.ReadFile("output/regression.diffs")
		t.Fatalf("pg_regress against joind failed: %v\n%s\n%s", err, out, diffs)
	}
	t.Logf("%s", out)
}
