package join

import (
	"context"
	"fmt"
	"io"
	"math/rand"
	"slices"
	"testing"

	"github.com/joind/joind/operators"
	"github.com/joind/joind/operators/spill"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/types"
)

// wideRows are rows whose keys spread over many values (and NULLs), so
// a spilled join's hash partitions each get some.
func wideRows(rng *rand.Rand, n, keys int) [][]types.Value {
	rows := make([][]types.Value, n)
	for i := range rows {
		row := make([]types.Value, 3)
		for c := range row {
			if rng.Intn(10) == 0 {
				row[c] = types.NullValue
			} else {
				row[c] = types.IntValue(int64(rng.Intn(keys)))
			}
		}
		rows[i] = row
	}
	return rows
}

func checkSpillClean(t *testing.T, sp *spill.Space, dir string) {
	t.Helper()
	if n := sp.LiveFiles(); n != 0 {
		t.Fatalf("%d spill files still live", n)
	}
	if fs, err := spill.Files(dir); err != nil || len(fs) != 0 {
		t.Fatalf("spill directory holds %v (%v)", fs, err)
	}
}

// Every join configuration with a build side far past the memory limit:
// the non-null-aware ones spill and give the reference answer, the
// null-aware ones fail with 53200.
func TestGraceJoinMatrixAgainstReference(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	L, R := wideRows(rng, 500, 150), wideRows(rng, 300, 150)
	for _, c := range allCases() {
		want := reference(c, L, R)
		for _, parts := range []int{1, 3} {
			dir := t.TempDir()
			sp := spill.NewSpace(dir, 8<<10)
			env := &operators.Env{BatchSize: 32, Spill: sp}
			op, err := newHashJoin(newMem(lc, L, parts, 32), newMem(rc, R, parts, 32), c.spec(), env)
			if err != nil {
				t.Fatalf("%v: %v", c, err)
			}
			got, err := run(t, op)
			if c.na {
				if sqlstate(err) != pgerr.OutOfMemory {
					t.Fatalf("%v parts=%d: null-aware join past the limit: %v, want 53200", c, parts, err)
				}
				checkSpillClean(t, sp, dir)
				continue
			}
			if err != nil {
				t.Fatalf("%v parts=%d: %v", c, parts, err)
			}
			if sp.Created() == 0 {
				t.Fatalf("%v parts=%d: nothing spilled", c, parts)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("%v parts=%d: spilled join differs (%d rows, want %d)", c, parts, len(got), len(want))
			}
			checkSpillClean(t, sp, dir)
		}
	}
}

// A cancel while the probe side is being written removes every file.
func TestGraceJoinCancelRemovesFiles(t *testing.T) {
	rng := rand.New(rand.NewSource(8))
	L, R := wideRows(rng, 700, 150), wideRows(rng, 2000, 150)
	dir := t.TempDir()
	sp := spill.NewSpace(dir, 6<<10)
	env := &operators.Env{BatchSize: 16, Spill: sp}
	op, err := newHashJoin(newMem(lc, L, 2, 16), newMem(rc, R, 2, 16), jcase{typ: 0, nkeys: 1}.spec(), env)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var streams []operators.Stream
	for p := 0; p < op.Partitions(); p++ {
		s, err := op.Open(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		streams = append(streams, s)
	}
	// The first stream builds (spilling) and writes its probe partition;
	// then the cancel comes before the others finish.
	if _, err := streams[0].Next(); err != io.EOF && err != nil {
		t.Fatalf("first stream: %v", err)
	}
	if sp.Created() == 0 {
		t.Fatal("nothing spilled")
	}
	cancel()
	_, err = streams[1].Next()
	if err == nil || (sqlstate(err) != pgerr.QueryCanceled && err != context.Canceled) {
		t.Fatalf("after cancel: %v", err)
	}
	for _, s := range streams {
		s.Close()
	}
	checkSpillClean(t, sp, dir)
	_ = fmt.Sprint()
}
