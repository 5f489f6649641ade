package regress

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/joind/joind/regress/joindtest"
	"github.com/joind/joind/regress/oracle"
)

// TestSegmentCacheBoundsResidentSize: stored tables are not all pinned in
// memory. Scanning a table of about 130 MiB decoded keeps it resident with
// --segment-cache 0 (unbounded), and with --segment-cache 16MiB the
// server's settled resident size grows by at most the cache plus 64 MiB,
// while every answer stays PostgreSQL's.
func TestSegmentCacheBoundsResidentSize(t *testing.T) {
	const rows = 3_000_000
	create := fmt.Sprintf("CREATE TABLE sc AS SELECT g::bigint AS g, md5(g::text) AS m FROM generate_series(1, %d) g", rows)
	queries := []string{
		"SELECT sum(g), count(*) FROM sc",
		"SELECT max(m), min(m) FROM sc WHERE g % 3 = 0",
		"SELECT count(DISTINCT substr(m, 1, 3)), count(DISTINCT g % 1000) FROM sc",
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	pg := connect(t, endpoint{name: "postgres", dsn: oracle.Start(t).DSN()})
	mustExec(t, pg, "DROP TABLE IF EXISTS sc")
	mustExec(t, pg, create)
	defer mustExec(t, pg, "DROP TABLE sc")
	want := map[string]string{}
	for _, q := range queries {
		var a, b any
		if err := pg.QueryRow(ctx, q).Scan(&a, &b); err != nil { // every query answers two columns
			t.Fatal(err)
		}
		want[q] = fmt.Sprint(a, b)
	}

	load := joindtest.StartJoind(t)
	c := connect(t, endpoint{name: "joind", dsn: load.DSN()})
	mustExec(t, c, create)
	c.Close(ctx)
	load.Stop()

	growth := func(cache string) int64 {
		j := joindtest.StartJoindWithDataDir(t, load.DataDir(), "--segment-cache", cache)
		defer j.Stop()
		c := connect(t, endpoint{name: "joind", dsn: j.DSN()})
		defer c.Close(ctx)
		base := settledRSS(t, j.Pid())
		for pass := 0; pass < 2; pass++ {
			for _, q := range queries {
				var a, b any
				if err := c.QueryRow(ctx, q).Scan(&a, &b); err != nil {
					t.Fatalf("segment cache %s: %s: %v", cache, q, err)
				}
				if got := fmt.Sprint(a, b); got != want[q] {
					t.Fatalf("segment cache %s: %s: %s, PostgreSQL gives %s", cache, q, got, want[q])
				}
			}
		}
		after := settledRSS(t, j.Pid())
		t.Logf("--segment-cache %s: resident %d MiB before the scans, %d MiB after (+%d MiB)", cache, base>>20, after>>20, (after-base)>>20)
		return after - base
	}
	if g := growth("0"); g < 100<<20 {
		t.Fatalf("unbounded, the scanned table added only %d MiB: the test's table is too small to show the cache", g>>20)
	}
	if g := growth("16MiB"); g > 16<<20+64<<20 {
		t.Fatalf("with a 16 MiB segment cache the scans kept %d MiB resident", g>>20)
	}
}
