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
	"github.com/joind/joind/sql/plan"
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

// noNulls is rows without their NULLs (value 0 instead).
func noNulls(rows [][]types.Value) [][]types.Value {
	out := make([][]types.Value, len(rows))
	for i, r := range rows {
		out[i] = slices.Clone(r)
		for c := range r {
			if r[c].Null {
				out[i][c] = types.IntValue(0)
			}
		}
	}
	return out
}

// graceSpills is which configurations spill: all but the correlated
// null-aware joins, null-aware mark joins and Partitioned null-aware ones.
func graceSpills(c jcase) bool {
	return !c.na || c.typ == plan.AntiJoin && c.nkeys == 1 && !c.residual && c.mode == CollectLeft
}

// Every join configuration with a build side far past the memory limit,
// on sides with and without NULL keys and an empty probe side: those that
// spill give the reference answer, the others fail with 53200.
func TestGraceJoinMatrixAgainstReference(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	L, R := wideRows(rng, 500, 150), wideRows(rng, 300, 150)
	sets := []struct {
		name string
		L, R [][]types.Value
	}{{"nulls", L, R}, {"no-nulls", noNulls(L), noNulls(R)}, {"build-nulls", L, noNulls(R)},
		{"probe-nulls", noNulls(L), R}, {"empty-probe", L, nil}}
	partitions := matrixPartitions(1, 3)
	for _, c := range allCases() {
		for _, d := range sets {
			if !c.na && d.name != "nulls" && d.name != "empty-probe" {
				continue // the NULL facts matter to null-aware joins only
			}
			if raceEnabled && (d.name == "build-nulls" || d.name == "probe-nulls") {
				// Under the race detector the NULLs on both sides and on
				// neither are enough interleavings; one-sided NULLs are
				// the plain run's.
				continue
			}
			want := reference(c, d.L, d.R)
			for _, parts := range partitions {
				dir := t.TempDir()
				sp := spill.NewSpace(dir, 8<<10)
				env := &operators.Env{BatchSize: 32, Spill: sp}
				op, err := newHashJoin(newMem(lc, d.L, parts, 32), newMem(rc, d.R, parts, 32), c.spec(), env)
				if err != nil {
					t.Fatalf("%v: %v", c, err)
				}
				got, err := run(t, op)
				if !graceSpills(c) {
					if sqlstate(err) != pgerr.OutOfMemory {
						t.Fatalf("%v %s parts=%d: past the limit: %v, want 53200", c, d.name, parts, err)
					}
					checkSpillClean(t, sp, dir)
					continue
				}
				if err != nil {
					t.Fatalf("%v %s parts=%d: %v", c, d.name, parts, err)
				}
				if sp.Created() == 0 {
					t.Fatalf("%v %s parts=%d: nothing spilled", c, d.name, parts)
				}
				if !slices.Equal(got, want) {
					t.Fatalf("%v %s parts=%d: spilled join differs (%d rows, want %d)", c, d.name, parts, len(got), len(want))
				}
				checkSpillClean(t, sp, dir)
			}
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

// Within the limit a join that could spill collects its build side in
// memory (graceSink) exactly once: every configuration, several build
// partitions of several batches each.
func TestSpillableJoinWithinLimitMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewSource(9))
	L, R := wideRows(rng, 300, 60), wideRows(rng, 200, 60)
	for _, c := range allCases() {
		want := reference(c, L, R)
		for _, parts := range []int{1, 3} {
			dir := t.TempDir()
			sp := spill.NewSpace(dir, 1<<30)
			op, err := newHashJoin(newMem(lc, L, parts, 16), newMem(rc, R, parts, 16), c.spec(), &operators.Env{BatchSize: 16, Spill: sp})
			if err != nil {
				t.Fatalf("%v: %v", c, err)
			}
			got, err := run(t, op)
			if err != nil {
				t.Fatalf("%v parts=%d: %v", c, parts, err)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("%v parts=%d: %d rows, want %d", c, parts, len(got), len(want))
			}
			if sp.Created() != 0 {
				t.Fatalf("%v: spilled within the limit", c)
			}
			if u := sp.Used(); u != 0 {
				t.Fatalf("%v: %d bytes still counted after the join closed", c, u)
			}
		}
	}
}
