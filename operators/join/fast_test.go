package join

import (
	"context"
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/joind/joind/operators"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// The matrix again with the chained hash index in place of the Swiss and
// dense indexes of a single int-like key.
func TestJoinMatrixChainIndex(t *testing.T) {
	if raceEnabled {
		t.Skip("the index variants of the matrix run without the race detector (go test ./...); under it the matrix runs once, TestJoinMatrixAgainstReference")
	}
	forceIndex = "chain"
	defer func() { forceIndex = "" }()
	TestJoinMatrixAgainstReference(t)
}

// The matrix again with the Swiss table and its key filter on every build
// side, judged after a few rows (so some streams switch it off midway).
func TestJoinMatrixSwissWithFilter(t *testing.T) {
	if raceEnabled {
		t.Skip("the index variants of the matrix run without the race detector (go test ./...); under it the matrix runs once, TestJoinMatrixAgainstReference")
	}
	forceIndex = "swiss"
	filterMinKeys, filterSample = 0, 7
	defer func() { forceIndex, filterMinKeys, filterSample = "", 1<<16, 1<<16 }()
	TestJoinMatrixAgainstReference(t)
	TestJoinWithoutOutputColumns(t)
}

func TestKeyFilterHasNoFalseNegatives(t *testing.T) {
	rng := rand.New(rand.NewSource(12))
	for _, n := range []int{1, 5, 64, 1000, 100_000} {
		keys := make([]int64, n)
		for i := range keys {
			keys[i] = rng.Int63() - rng.Int63()
		}
		f := newKeyFilter(keys, nil, n)
		for _, k := range keys {
			if !f.mayHave(k) {
				t.Fatalf("n=%d: key %d rejected", n, k)
			}
		}
		if got := f.keep(keys, nil, nil); len(got) != n {
			t.Fatalf("n=%d: keep dropped build keys", n)
		}
		// Absent keys: most are rejected.
		pass := 0
		for i := 0; i < 10000; i++ {
			if f.mayHave(rng.Int63()) {
				pass++
			}
		}
		if n >= 1000 && pass > 1500 {
			t.Fatalf("n=%d: %d of 10000 absent keys pass", n, pass)
		}
	}
}

// The matrix again with the Swiss table forced where a dense index would be
// chosen (the matrix's keys are small, so it otherwise tests the dense one).
func TestJoinMatrixSwissIndex(t *testing.T) {
	if raceEnabled {
		t.Skip("the index variants of the matrix run without the race detector (go test ./...); under it the matrix runs once, TestJoinMatrixAgainstReference")
	}
	forceIndex = "swiss"
	defer func() { forceIndex = "" }()
	TestJoinMatrixAgainstReference(t)
}

// countRows runs op and returns its number of rows (batches may have no
// columns).
func countRows(t *testing.T, op operators.Operator) int {
	t.Helper()
	recs, err := operators.Collect(context.Background(), op)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, r := range recs {
		if r.NumRows() == 0 {
			t.Fatal("empty batch")
		}
		if r.NumCols() != 0 {
			t.Fatalf("batch has %d columns, want none", r.NumCols())
		}
		n += int(r.NumRows())
	}
	return n
}

// A join with no output columns (count(*) over a join) emits only row
// counts; they must equal the reference's number of rows, for every join
// type and both indexes.
func TestJoinWithoutOutputColumns(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	var sets [][2][][]types.Value
	for i := 0; i < 8; i++ {
		sets = append(sets, [2][][]types.Value{genRows(rng, rng.Intn(30)+1), genRows(rng, rng.Intn(30)+1)})
	}
	sets = append(sets, [2][][]types.Value{nil, genRows(rng, 5)}, [2][][]types.Value{genRows(rng, 5), nil},
		[2][][]types.Value{genRows(rng, 5), {nulls3, nulls3}})
	for _, force := range []string{"", "swiss", "chain", "hashed"} {
		forceIndex = force
		for _, c := range allCases() {
			for si, d := range sets {
				want := len(reference(c, d[0], d[1]))
				for _, parts := range matrixPartitions(1, 2) {
					for _, size := range []int{2, 1024} {
						spec := c.spec()
						spec.Cols = nil
						if c.typ == plan.MarkJoin {
							continue // the mark column is always an output
						}
						env := &operators.Env{BatchSize: size}
						op, err := newHashJoin(newMem(lc, d[0], parts, size), newMem(rc, d[1], parts, size), spec, env)
						if err != nil {
							t.Fatalf("%v: %v", c, err)
						}
						if got := countRows(t, op); got != want {
							t.Fatalf("index %q, %v, set %d, %d partitions, batch %d: %d rows, want %d", force, c, si, parts, size, got, want)
						}
					}
				}
			}
		}
	}
	forceIndex = ""
}

// The dense index against the Swiss table on wide, sparse, negative and
// duplicate keys, through the fast path and the pair path.
func TestDenseIndexChoiceAndEdges(t *testing.T) {
	for _, tc := range []struct {
		keys  []int64
		dense bool
	}{
		{[]int64{5}, true},
		{[]int64{1, 2, 3, 70}, true}, // ascending: rank = row
		{[]int64{3, 1, 2, 70}, true},
		{[]int64{1, 2, 2, 3}, true},
		{[]int64{-3, -1, -3, 7}, true},
		{[]int64{-1 << 63, 1<<63 - 1}, false},
		{[]int64{0, 1 << 40}, false},
		{[]int64{1<<63 - 2, 1<<63 - 1, 1<<63 - 1}, true},
		{[]int64{-1 << 63, -1<<63 + 1}, true},
	} {
		lo, span, ok := denseSpan(tc.keys, nil)
		if ok != tc.dense {
			t.Fatalf("%v: dense=%v, want %v", tc.keys, ok, tc.dense)
		}
		if !ok {
			continue
		}
		ix := newDenseIndex(tc.keys, nil, lo, span)
		probe := append([]int64{lo - 1, lo + int64(span)}, tc.keys...)
		for _, k := range probe {
			var want []int32
			for r, b := range tc.keys {
				if b == k {
					want = append(want, int32(r))
				}
			}
			d, has := ix.has(k)
			if has != (len(want) > 0) {
				t.Fatalf("%v: has(%d) = %v", tc.keys, k, has)
			}
			if has && fmt.Sprint(ix.matches(d)) != fmt.Sprint(want) {
				t.Fatalf("%v: matches(%d) = %v, want %v", tc.keys, k, ix.matches(d), want)
			}
			if h := ix.countHits([]int64{k}, []int32{0}, nil); h != int64(min(1, len(want))) {
				t.Fatalf("%v: countHits(%d) = %d", tc.keys, k, h)
			}
			if c := ix.countMatches([]int64{k}, nil, nil); c != int64(len(want)) {
				t.Fatalf("%v: countMatches(%d) = %d, want %d", tc.keys, k, c, len(want))
			}
		}
	}
}

// take's builder-free paths against GetValue, with NULL inputs, -1 indexes
// and sliced inputs.
func TestTakeAgainstValues(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	for _, typ := range []types.Type{types.Int8Type, types.Int4Type, types.Int2Type, types.Float8Type, types.TextType, types.DateType, types.TimestampType} {
		for trial := 0; trial < 20; trial++ {
			n := rng.Intn(40) + 1
			b := array.NewBuilder(memory.DefaultAllocator, typ.ArrowType())
			for i := 0; i < n; i++ {
				if trial%2 == 0 && rng.Intn(4) == 0 {
					b.AppendNull()
					continue
				}
				v := types.Value{I: int64(rng.Intn(1000)), F: float64(rng.Intn(1000)) / 4, S: strings.Repeat("x", rng.Intn(5)) + fmt.Sprint(i)}
				types.AppendValue(b, typ, v)
			}
			arr := b.NewArray()
			lo := rng.Intn(n)
			arr = array.NewSlice(arr, int64(lo), int64(n))
			idx := make([]int32, rng.Intn(50))
			for j := range idx {
				idx[j] = int32(rng.Intn(arr.Len()+1)) - 1
			}
			got := take(arr, typ, idx)
			if got.Len() != len(idx) {
				t.Fatalf("%v: len %d, want %d", typ, got.Len(), len(idx))
			}
			for j, i := range idx {
				var want types.Value
				if i < 0 {
					want = types.NullValue
				} else {
					want = types.GetValue(arr, typ, int(i))
				}
				g := types.GetValue(got, typ, j)
				if g.Null != want.Null || !g.Null && (g.I != want.I || g.F != want.F || g.S != want.S) {
					t.Fatalf("%v: row %d (from %d) = %+v, want %+v", typ, j, i, g, want)
				}
			}
		}
	}
}

// Narrow keeps a subset of the output columns: the rows must be the
// reference's rows projected onto them, for every configuration and index.
func TestNarrowAgainstReference(t *testing.T) {
	rng := rand.New(rand.NewSource(9))
	for _, force := range []string{"", "swiss", "chain", "hashed"} {
		forceIndex = force
		for _, c := range allCases() {
			for trial := 0; trial < 4; trial++ {
				L, R := genRows(rng, rng.Intn(20)+1), genRows(rng, rng.Intn(20)+1)
				spec := c.spec()
				keep := map[plan.ColumnID]bool{}
				var pos []int
				for i, col := range spec.Cols {
					if rng.Intn(2) == 0 || spec.Mark != nil && col.ID == spec.Mark.ID {
						keep[col.ID] = true
						pos = append(pos, i)
					}
				}
				var want []string
				for _, row := range reference(c, L, R) {
					f := strings.Split(row, ",")
					var p []string
					for _, i := range pos {
						p = append(p, f[i])
					}
					want = append(want, strings.Join(p, ","))
				}
				slices.Sort(want)
				env := &operators.Env{BatchSize: 3}
				op, err := newHashJoin(newMem(lc, L, 2, 3), newMem(rc, R, 2, 3), spec, env)
				if err != nil {
					t.Fatal(err)
				}
				if err := op.(operators.Narrower).Narrow(func(id plan.ColumnID) bool { return keep[id] }); err != nil {
					t.Fatal(err)
				}
				if len(op.Columns()) != len(pos) {
					t.Fatalf("%v: %d columns after Narrow, want %d", c, len(op.Columns()), len(pos))
				}
				var got []string
				if len(pos) == 0 {
					for i := countRows(t, op); i > 0; i-- {
						got = append(got, "")
					}
				} else if got, err = run(t, op); err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(got, want) {
					t.Fatalf("index %q, %v, keep %v:\n got %v\nwant %v", force, c, pos, got, want)
				}
				if err := op.(operators.Narrower).Narrow(func(plan.ColumnID) bool { return true }); err == nil {
					t.Fatal("Narrow after Open succeeded")
				}
			}
		}
	}
	forceIndex = ""
}

// count(*) over a filter over a join: the aggregate narrows the filter,
// which keeps its predicate's columns, recompiles the predicate, and narrows
// the join. The count must equal the reference's.
func TestCountOverFilterOverJoinNarrows(t *testing.T) {
	countStar, err := types.ResolveAggregate("count", nil, true)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewSource(11))
	for trial := 0; trial < 30; trial++ {
		L, R := genRows(rng, rng.Intn(40)+1), genRows(rng, rng.Intn(40)+1)
		ref := jcase{typ: plan.InnerJoin, nkeys: 1, residual: true}
		want := len(reference(ref, L, R))
		env := &operators.Env{BatchSize: 4}
		j, err := newHashJoin(newMem(lc, L, 2, 4), newMem(rc, R, 2, 4), jcase{typ: plan.InnerJoin, nkeys: 1}.spec(), env)
		if err != nil {
			t.Fatal(err)
		}
		f, err := operators.NewFilter(j, ltResidual, env)
		if err != nil {
			t.Fatal(err)
		}
		agg, err := operators.NewHashAggregate(f, nil, []plan.AggCall{{Func: countStar}}, []plan.Column{{ID: 99, Name: "count", Type: types.Int8Type}}, env)
		if err != nil {
			t.Fatal(err)
		}
		if got := len(j.Columns()); got != 2 {
			t.Fatalf("join has %d columns after narrowing, want 2 (lv, rv)", got)
		}
		rows, err := run(t, agg)
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) != 1 || rows[0] != fmt.Sprint(want) {
			t.Fatalf("count = %v, want %d", rows, want)
		}
	}
}
