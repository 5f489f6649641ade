package crash

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	icebergio "github.com/apache/iceberg-go/io"
	_ "github.com/apache/iceberg-go/io/gocloud/s3" // iceberg-go reads the s3:// table too
	"github.com/apache/iceberg-go/table"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/joind/joind/regress/joindtest"
)

// TestCrashIcebergAppends kills joind with SIGKILL while several
// connections append to an Iceberg foreign table (INSERTs of one unit of
// rows, and transaction blocks of two units), and checks after every
// restart, through joind and through iceberg-go reading the metadata
// file joind's catalog names, that every acknowledged unit is there once,
// an unacknowledged one whole or not at all, and nothing else.
// JOIND_CRASH_CYCLES sets the cycles (default 4).
func TestCrashIcebergAppends(t *testing.T) {
	files := t.TempDir()
	crashIcebergAppends(t, filepath.Join(files, "ice"), files)
}

// TestCrashIcebergAppendsObjectStore is TestCrashIcebergAppends with the
// table in an S3-compatible object store (versitygw).
func TestCrashIcebergAppendsObjectStore(t *testing.T) {
	store := joindtest.StartObjectStore(t, "lake")
	for k, v := range store.Env() {
		t.Setenv(k, v)
	}
	crashIcebergAppends(t, "s3://lake/wh/ice", "s3://lake/wh")
}

// crashIcebergAppends runs the appends-and-kills cycles on a table at
// location, with copy_dirs copyDirs.
func crashIcebergAppends(t *testing.T, location, copyDirs string) {
	cycles := crashCycles(t, 4, 2)
	const writers, rowsPerUnit = 3, 4
	dir, files := t.TempDir(), copyDirs
	seed := time.Now().UnixNano()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewSource(seed))
	j := joindtest.StartJoindWithDataDir(t, dir, "--copy-dirs", files)
	c := mustConnect(t, j)
	run(t, c, "CREATE EXTENSION iceberg", "CREATE SERVER lake FOREIGN DATA WRAPPER iceberg",
		"CREATE FOREIGN TABLE ice (w int, u int, part int) SERVER lake OPTIONS (location '"+location+"')")
	c.Close(context.Background())

	var mu sync.Mutex
	acked := map[[2]int]bool{}    // (writer, unit) acknowledged
	attempted := map[[2]int]int{} // (writer, unit) → the unit it was sent with (a block's first unit), not yet known
	next := make([]int, writers)
	insert := func(w, u int) string {
		var vals []string
		for p := 0; p < rowsPerUnit; p++ {
			vals = append(vals, fmt.Sprintf("(%d, %d, %d)", w, u, p))
		}
		return "INSERT INTO ice VALUES " + strings.Join(vals, ", ")
	}
	for cycle := 1; cycle <= cycles; cycle++ {
		ctx, cancel := context.WithCancel(context.Background())
		var wg sync.WaitGroup
		for w := 0; w < writers; w++ {
			wg.Add(1)
			go func(w int, rng *rand.Rand) {
				defer wg.Done()
				conn, err := connect(ctx, j)
				if err != nil {
					return
				}
				defer conn.Close(context.Background())
				for {
					mu.Lock()
					u := next[w]
					units := []int{u}
					if rng.Intn(3) == 0 {
						units = append(units, u+1)
					}
					next[w] += len(units)
					for _, x := range units {
						attempted[[2]int{w, x}] = u
					}
					mu.Unlock()
					if len(units) == 1 {
						_, err = conn.Exec(ctx, insert(w, u))
					} else {
						_, err = conn.Exec(ctx, "BEGIN; "+insert(w, u)+"; "+insert(w, u+1)+"; COMMIT")
					}
					var pe *pgconn.PgError
					mu.Lock()
					for _, x := range units {
						switch {
						case err == nil:
							acked[[2]int{w, x}] = true
							delete(attempted, [2]int{w, x})
						case errors.As(err, &pe):
							delete(attempted, [2]int{w, x}) // refused: not there
						}
					}
					mu.Unlock()
					if err != nil && !errors.As(err, &pe) {
						return // killed
					}
					if err != nil {
						conn.Exec(ctx, "ROLLBACK")
					}
				}
			}(w, rand.New(rand.NewSource(rng.Int63())))
		}
		time.Sleep(time.Duration(300+rng.Intn(1500)) * time.Millisecond)
		kill(t, j)
		wg.Wait()
		cancel()
		j = joindtest.StartJoindWithDataDir(t, dir, "--copy-dirs", files)
		if strings.Contains(j.Log(), "level=ERROR") {
			t.Fatalf("cycle %d: restart logged an error:\n%s", cycle, j.Log())
		}
		vc := mustConnect(t, j)
		seen := map[[2]int]int{}
		rows, err := vc.Query(context.Background(), "SELECT w, u, count(*) FROM ice GROUP BY w, u")
		if err != nil {
			t.Fatal(err)
		}
		var total int64
		for rows.Next() {
			var w, u, n int
			if err := rows.Scan(&w, &u, &n); err != nil {
				t.Fatal(err)
			}
			seen[[2]int{w, u}] = n
			total += int64(n)
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		for k := range acked {
			if seen[k] != rowsPerUnit {
				t.Fatalf("cycle %d: acknowledged unit %v has %d of %d rows", cycle, k, seen[k], rowsPerUnit)
			}
		}
		landed := map[int]bool{} // a block's first unit → whether it landed
		for k, n := range seen {
			first, maybe := attempted[k]
			if !acked[k] && !maybe {
				t.Fatalf("cycle %d: unit %v (%d rows) was never acknowledged nor in flight", cycle, k, n)
			}
			if n != rowsPerUnit {
				t.Fatalf("cycle %d: unit %v has %d of %d rows", cycle, k, n, rowsPerUnit)
			}
			if maybe {
				landed[k[0]<<32|first] = true
			}
		}
		// In-flight units landed whole with their block, or not at all;
		// those that landed count as acknowledged from now on.
		for k, first := range attempted {
			if landed[k[0]<<32|first] != (seen[k] > 0) {
				t.Fatalf("cycle %d: transaction block starting at unit %d of writer %d landed in part", cycle, first, k[0])
			}
			if seen[k] > 0 {
				acked[k] = true
			}
			delete(attempted, k)
		}
		mu.Unlock()
		// iceberg-go reads the same table from the metadata file joind's
		// catalog names.
		var meta string
		err = vc.QueryRow(context.Background(), "SELECT option_value FROM pg_options_to_table((SELECT ftoptions FROM pg_foreign_table WHERE ftrelid = 'ice'::regclass)) WHERE option_name = 'metadata_file'").Scan(&meta)
		if err == nil {
			tbl, err := table.NewFromLocation(context.Background(), table.Identifier{"crash", "ice"}, meta, icebergio.LoadFSFunc(nil, meta), nil)
			if err != nil {
				t.Fatal(err)
			}
			at, err := tbl.Scan().ToArrowTable(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if at.NumRows() != total {
				t.Fatalf("cycle %d: iceberg-go reads %d rows, joind %d", cycle, at.NumRows(), total)
			}
			at.Release()
		}
		vc.Close(context.Background())
		t.Logf("cycle %d: %d rows", cycle, total)
	}
}
