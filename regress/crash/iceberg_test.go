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
	"github.com/jackc/pgx/v5"
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
		if n := icebergGoRows(t, vc); n != total {
			t.Fatalf("cycle %d: iceberg-go reads %d rows, joind %d", cycle, n, total)
		}
		vc.Close(context.Background())
		t.Logf("cycle %d: %d rows", cycle, total)
	}
}

// icebergGoRows is the number of rows iceberg-go reads from the table
// "ice" through the metadata file joind's catalog names for it.
func icebergGoRows(t *testing.T, c *pgx.Conn) int64 {
	t.Helper()
	var meta string
	err := c.QueryRow(context.Background(), "SELECT option_value FROM pg_options_to_table((SELECT ftoptions FROM pg_foreign_table WHERE ftrelid = 'ice'::regclass)) WHERE option_name = 'metadata_file'").Scan(&meta)
	if err != nil {
		t.Fatalf("reading ice's metadata_file option: %v", err)
	}
	tbl, err := table.NewFromLocation(context.Background(), table.Identifier{"crash", "ice"}, meta, icebergio.LoadFSFunc(nil, meta), nil)
	if err != nil {
		t.Fatal(err)
	}
	at, err := tbl.Scan().ToArrowTable(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer at.Release()
	return at.NumRows()
}

// TestCrashIcebergChanges kills joind with SIGKILL while several
// connections insert, UPDATE and DELETE their own units of rows of an
// Iceberg foreign table (single statements, and transaction blocks of
// two changes), and checks after every restart, through joind and
// through iceberg-go reading the metadata file joind's catalog names,
// that every acknowledged change is there, an unacknowledged block whole
// or not at all, and nothing else: the position delete files and the
// updated rows are published by joind's commit as appends are.
// JOIND_CRASH_CYCLES sets the cycles (default 4).
func TestCrashIcebergChanges(t *testing.T) {
	files := t.TempDir()
	crashIcebergChanges(t, filepath.Join(files, "ice"), files)
}

// TestCrashIcebergChangesObjectStore is TestCrashIcebergChanges with the
// table in an S3-compatible object store (versitygw).
func TestCrashIcebergChangesObjectStore(t *testing.T) {
	store := joindtest.StartObjectStore(t, "lake")
	for k, v := range store.Env() {
		t.Setenv(k, v)
	}
	crashIcebergChanges(t, "s3://lake/wh/ice", "s3://lake/wh")
}

// crashIcebergChanges runs the changes-and-kills cycles on a table at
// location, with copy_dirs copyDirs.
func crashIcebergChanges(t *testing.T, location, copyDirs string) {
	cycles := crashCycles(t, 4, 2)
	const writers, rowsPerUnit = 3, 4
	dir, files := t.TempDir(), copyDirs
	seed := time.Now().UnixNano()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewSource(seed))
	j := joindtest.StartJoindWithDataDir(t, dir, "--copy-dirs", files)
	c := mustConnect(t, j)
	run(t, c, "CREATE EXTENSION iceberg", "CREATE SERVER lake FOREIGN DATA WRAPPER iceberg",
		"CREATE FOREIGN TABLE ice (w int, u int, part int) SERVER lake OPTIONS (location '"+location+"', partition_by 'w')")
	c.Close(context.Background())

	// A unit's state: absent (-1), or present with its rows' part values
	// p + 10*version.
	type key [2]int
	type change struct {
		k        key
		from, to int
	}
	var mu sync.Mutex
	state := map[key]int{}         // acknowledged
	inFlight := map[int][]change{} // writer → its block not yet known
	next := make([]int, writers)
	var done, refused int
	sqlOf := func(ch change) string {
		switch {
		case ch.from < 0:
			var vals []string
			for p := 0; p < rowsPerUnit; p++ {
				vals = append(vals, fmt.Sprintf("(%d, %d, %d)", ch.k[0], ch.k[1], p))
			}
			return "INSERT INTO ice VALUES " + strings.Join(vals, ", ")
		case ch.to < 0:
			return fmt.Sprintf("DELETE FROM ice WHERE w = %d AND u = %d", ch.k[0], ch.k[1])
		}
		return fmt.Sprintf("UPDATE ice SET part = part + 10 WHERE w = %d AND u = %d", ch.k[0], ch.k[1])
	}
	// pick is writer w's next change (mu held), not touching the units in
	// taken.
	pick := func(w int, rng *rand.Rand, taken map[key]bool) change {
		var present []key
		for k, v := range state {
			if k[0] == w && v >= 0 && !taken[k] {
				present = append(present, k)
			}
		}
		if len(present) == 0 || rng.Intn(3) == 0 {
			k := key{w, next[w]}
			next[w]++
			return change{k: k, from: -1, to: 0}
		}
		k := present[rng.Intn(len(present))]
		if rng.Intn(2) == 0 {
			return change{k: k, from: state[k], to: -1}
		}
		return change{k: k, from: state[k], to: state[k] + 1}
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
					taken := map[key]bool{}
					block := []change{pick(w, rng, taken)}
					if rng.Intn(3) == 0 {
						taken[block[0].k] = true
						block = append(block, pick(w, rng, taken))
					}
					inFlight[w] = block
					mu.Unlock()
					q := sqlOf(block[0])
					if len(block) == 2 {
						q = "BEGIN; " + q + "; " + sqlOf(block[1]) + "; COMMIT"
					}
					_, err = conn.Exec(ctx, q)
					var pe *pgconn.PgError
					mu.Lock()
					if err == nil {
						done++
						for _, ch := range block {
							state[ch.k] = ch.to
						}
					} else if errors.As(err, &pe) {
						refused++
					}
					if err == nil || errors.As(err, &pe) {
						delete(inFlight, w) // done, or refused (40001): not there
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
		time.Sleep(time.Duration(500+rng.Intn(2000)) * time.Millisecond)
		kill(t, j)
		wg.Wait()
		cancel()
		j = joindtest.StartJoindWithDataDir(t, dir, "--copy-dirs", files)
		if strings.Contains(j.Log(), "level=ERROR") {
			t.Fatalf("cycle %d: restart logged an error:\n%s", cycle, j.Log())
		}
		vc := mustConnect(t, j)
		seen := map[key]int{} // a unit's version, as its rows show it
		rows, err := vc.Query(context.Background(), "SELECT w, u, count(*), min(part), max(part), sum(part) FROM ice GROUP BY w, u")
		if err != nil {
			t.Fatal(err)
		}
		var total int64
		for rows.Next() {
			var w, u, n, lo, hi, sum int
			if err := rows.Scan(&w, &u, &n, &lo, &hi, &sum); err != nil {
				t.Fatal(err)
			}
			v := lo / 10
			if n != rowsPerUnit || hi != lo+rowsPerUnit-1 || sum != rowsPerUnit*lo+rowsPerUnit*(rowsPerUnit-1)/2 || lo%10 != 0 {
				t.Fatalf("cycle %d: unit (%d, %d) has %d rows, part %d..%d: not one whole version", cycle, w, u, n, lo, hi)
			}
			seen[key{w, u}] = v
			total += int64(n)
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		version := func(k key) int {
			if v, ok := seen[k]; ok {
				return v
			}
			return -1
		}
		mu.Lock()
		// An in-flight block landed whole (every change's to) or not at
		// all (every from); what landed counts as acknowledged from now on.
		pending := map[key]bool{}
		for w, block := range inFlight {
			old, now := true, true
			for _, ch := range block {
				pending[ch.k] = true
				old = old && version(ch.k) == ch.from
				now = now && version(ch.k) == ch.to
			}
			if !old && !now {
				t.Fatalf("cycle %d: writer %d's block %v landed in part: %v", cycle, w, block, seen)
			}
			if now {
				for _, ch := range block {
					state[ch.k] = ch.to
				}
			}
			delete(inFlight, w)
		}
		for k, v := range state {
			if !pending[k] && version(k) != v {
				t.Fatalf("cycle %d: acknowledged unit %v is at version %d, joind shows %d", cycle, k, v, version(k))
			}
		}
		for k := range seen {
			if v, ok := state[k]; !ok || v < 0 {
				t.Fatalf("cycle %d: unit %v is there though no change put it there", cycle, k)
			}
		}
		mu.Unlock()
		// iceberg-go reads the same table from the metadata file joind's
		// catalog names.
		if n := icebergGoRows(t, vc); n != total {
			t.Fatalf("cycle %d: iceberg-go reads %d rows, joind %d", cycle, n, total)
		}
		vc.Close(context.Background())
		t.Logf("cycle %d: %d rows; %d changes acknowledged, %d refused so far", cycle, total, done, refused)
	}
}
