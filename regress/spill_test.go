package regress

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/joind/joind/regress/joindtest"
)

// spillFiles lists the spill files in a joind data directory's tmp/.
func spillFiles(t *testing.T, dataDir string) []string {
	t.Helper()
	ents, err := os.ReadDir(filepath.Join(dataDir, "tmp"))
	if err != nil {
		t.Fatalf("joind's tmp/: %v", err)
	}
	var out []string
	for _, e := range ents {
		out = append(out, e.Name())
	}
	return out
}

// TestSpillFilesAreRemoved: a sort, a hash aggregation and a hash join
// past joind.memory_limit spill to <data-dir>/tmp (EXPLAIN ANALYZE says
// so) and leave no file there; nor does a query canceled mid-spill
// (57014); files a crashed server left are removed at startup. The answers
// themselves are held to PostgreSQL's by the spill regress suite.
func TestSpillFilesAreRemoved(t *testing.T) {
	j := joindtest.StartJoind(t, "--partitions", "2")
	c := connect(t, endpoint{name: "joind", dsn: j.DSN()})
	mustExec(t, c, "CREATE TABLE sf AS SELECT g::bigint AS g, md5(g::text) AS m FROM generate_series(1, 100000) g")
	mustExec(t, c, "SET joind.memory_limit = '512kB'")
	for _, q := range []string{
		"SELECT g FROM sf ORDER BY m OFFSET 99999",
		"SELECT count(*) FROM (SELECT m, count(*) FROM sf GROUP BY m) x",
		"SELECT count(*) FROM sf a JOIN sf b ON a.m = b.m",
	} {
		rows, err := c.Query(ctxT(t), "EXPLAIN ANALYZE "+q)
		if err != nil {
			t.Fatal(err)
		}
		var plan []string
		for rows.Next() {
			var l string
			if err := rows.Scan(&l); err != nil {
				t.Fatal(err)
			}
			plan = append(plan, l)
		}
		if err := rows.Err(); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		if !strings.Contains(strings.Join(plan, "\n"), "(spilled: ") {
			t.Errorf("%s: EXPLAIN ANALYZE shows no spill:\n%s", q, strings.Join(plan, "\n"))
		}
		if fs := spillFiles(t, j.DataDir()); len(fs) != 0 {
			t.Fatalf("%s: left %v in tmp/", q, fs)
		}
	}

	// Cancel as soon as the first spill file appears.
	seen := make(chan bool, 1)
	go func() {
		deadline := time.Now().Add(60 * time.Second)
		for time.Now().Before(deadline) {
			if ents, _ := os.ReadDir(filepath.Join(j.DataDir(), "tmp")); len(ents) > 0 {
				c.PgConn().CancelRequest(context.Background())
				seen <- true
				return
			}
			time.Sleep(2 * time.Millisecond)
		}
		seen <- false
	}()
	_, err := c.Exec(ctxT(t), "SELECT a.m, b.g FROM sf a JOIN sf b ON a.m = b.m ORDER BY a.m DESC OFFSET 99999")
	if !<-seen {
		t.Fatal("the query never spilled")
	}
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != "57014" {
		t.Fatalf("canceled mid-spill: want 57014, got %v", err)
	}
	if fs := spillFiles(t, j.DataDir()); len(fs) != 0 {
		t.Fatalf("canceled query left %v in tmp/", fs)
	}
	var n int64
	if err := c.QueryRow(ctxT(t), "SELECT count(*) FROM sf a JOIN sf b ON a.g = b.g").Scan(&n); err != nil || n != 100000 {
		t.Fatalf("after the cancel: n=%d err=%v", n, err)
	}

	// A stale file from a crashed run is removed at startup.
	dir := j.DataDir()
	j.Stop()
	stale := filepath.Join(dir, "tmp", "spill-stale")
	if err := os.WriteFile(stale, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	joindtest.StartJoindWithDataDir(t, dir)
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Fatalf("stale spill file survived the restart: %v", err)
	}
}
