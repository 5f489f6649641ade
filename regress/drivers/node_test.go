package drivers

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/joind/joind/regress/joindtest"
	"github.com/joind/joind/regress/oracle"
)

// TestNodePostgres runs node/check.js with node-postgres (npm pg, pinned
// in node/package.json and installed into node/node_modules by .ci/run)
// on PostgreSQL 15 and joind in the same run: connect, parameters of
// common types, pg's type parsers and a custom one, a named statement,
// catalog queries, errors and a pool. Every line must agree.
func TestNodePostgres(t *testing.T) {
	node := need(t, "node (nodejs)", "node")
	need(t, "node-postgres (npm install in regress/drivers/node)", filepath.Join("node", "node_modules", "pg", "package.json"))
	const db = "drv_node"
	pg := oracle.Start(t)
	pg.CreateDatabase(t, db)
	j := joindtest.StartJoind(t)
	script := filepath.Join("node", "check.js")
	url := func(port int) string { return "postgres://postgres@127.0.0.1:" + itoa(port) + "/" + db }
	// Dates parse in the process's time zone.
	env := []string{"TZ=UTC"}
	want := run(t, env, "", node, script, url(pg.Port()))
	got := run(t, env, "", node, script, url(j.Port()))
	if !strings.Contains(want, "pool: [2,4,6]") {
		t.Fatalf("PostgreSQL's answers are not the expected replay:\n%s", want)
	}
	compareChecks(t, got, want, nil)
}
