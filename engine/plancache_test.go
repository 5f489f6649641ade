package engine

import (
	"context"
	"strings"
	"testing"
)

// TestPreparedBindingCache runs one prepared SELECT through the extended
// protocol many times while rows, definitions, search_path and temporary
// tables change around it: every Execute answers as PostgreSQL 15 does
// (which re-plans after each such change), whether it reused the cached
// binding or bound again.
func TestPreparedBindingCache(t *testing.T) {
	ctx := context.Background()
	pc := connectWire(t, "cache")
	exec := func(q string) {
		t.Helper()
		if _, err := pc.Exec(ctx, q).ReadAll(); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	run := func(k string) string {
		t.Helper()
		res := pc.ExecPrepared(ctx, "s", [][]byte{[]byte(k)}, nil, nil).Read()
		if res.Err != nil {
			return "ERROR " + sqlstate(res.Err)
		}
		var out []string
		for _, row := range res.Rows {
			out = append(out, string(row[0]))
		}
		return strings.Join(out, ",")
	}
	want := func(k, expect string) {
		t.Helper()
		for i := 0; i < 3; i++ { // the first may bind, the others reuse
			if got := run(k); got != expect {
				t.Fatalf("execute %d with $1 = %s: %q, want %q", i, k, got, expect)
			}
		}
	}
	exec("CREATE TABLE t (k int PRIMARY KEY, v text)")
	exec("INSERT INTO t VALUES (1, 'one'), (2, 'two')")
	if _, err := pc.Prepare(ctx, "s", "SELECT v FROM t WHERE k = $1", nil); err != nil {
		t.Fatal(err)
	}
	want("1", "one")
	want("2", "two")

	// Rows committed since are seen: the scan is rebound to the new
	// statement's snapshot.
	exec("UPDATE t SET v = 'uno' WHERE k = 1")
	want("1", "uno")
	exec("INSERT INTO t VALUES (3, 'three')")
	want("3", "three")

	// In a transaction block, its own changes are seen, and its own DDL
	// makes the statement bind in its catalog.
	exec("BEGIN")
	exec("UPDATE t SET v = 'eins' WHERE k = 1")
	want("1", "eins")
	exec("ALTER TABLE t RENAME COLUMN v TO w")
	if got := run("1"); got != "ERROR 42703" { // and the block is failed
		t.Fatalf("after the block's RENAME COLUMN: %q, want ERROR 42703", got)
	}
	exec("ROLLBACK")
	want("1", "uno")

	// A committed definition change: PostgreSQL re-binds and fails.
	exec("ALTER TABLE t RENAME COLUMN v TO w")
	want("1", "ERROR 42703")
	exec("ALTER TABLE t RENAME COLUMN w TO v")
	want("1", "uno")

	// search_path decides which t the name finds.
	exec("CREATE SCHEMA s2")
	exec("CREATE TABLE s2.t (k int, v text)")
	exec("INSERT INTO s2.t VALUES (1, 'other')")
	want("1", "uno")
	exec("SET search_path = s2, public")
	want("1", "other")
	exec("RESET search_path")
	want("1", "uno")

	// A temporary table shadows the stored one.
	exec("CREATE TEMP TABLE t (k int, v text)")
	exec("INSERT INTO t VALUES (1, 'temp')")
	want("1", "temp")
	exec("DROP TABLE pg_temp.t")
	want("1", "uno")
}
