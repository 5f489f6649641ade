package operators

import (
	"math"
	"math/rand"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// TestPackedSortPermMatchesComparison holds the packed-word sort to the
// comparison sort's stable order over random keys: NULLs at either end,
// ascending and descending, narrow and full-width ranges.
func TestPackedSortPermMatchesComparison(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	packed := 0
	for trial := 0; trial < 300; trial++ {
		n := 1 + rng.Intn(300)
		nk := 1 + rng.Intn(3)
		var spec []plan.SortKey
		var cols []arrow.Array
		var keys [][]types.Value
		var keyT []types.Type
		for k := 0; k < nk; k++ {
			spec = append(spec, plan.SortKey{Desc: rng.Intn(2) == 0, NullsFirst: rng.Intn(2) == 0})
			spread := []int64{1, 3, 100, 1 << 40, math.MaxInt64}[rng.Intn(5)]
			nullPct := []int{0, 0, 10, 50}[rng.Intn(4)]
			b := array.NewInt64Builder(mem)
			vals := make([]types.Value, n)
			for i := 0; i < n; i++ {
				if rng.Intn(100) < nullPct {
					b.AppendNull()
					vals[i] = types.NullValue
					continue
				}
				v := rng.Int63n(spread)
				if rng.Intn(2) == 0 {
					v = -v
				}
				b.Append(v)
				vals[i] = types.Value{I: v}
			}
			cols = append(cols, b.NewArray())
			keys = append(keys, vals)
			keyT = append(keyT, types.Type{ID: types.Int8})
		}
		op := &sortOp{spec: spec, keyT: keyT}
		want := make([]int, n)
		for i := range want {
			want[i] = i
		}
		slices.SortStableFunc(want, func(a, b int) int { return op.compare(keys, a, keys, b) })
		got := packedSortPerm(spec, cols, n)
		if got == nil {
			continue // too wide to pack: the comparison sort runs
		}
		packed++
		if !slices.Equal(got, want) {
			t.Fatalf("trial %d (n=%d, spec %+v): packed order %v, comparison order %v", trial, n, spec, got, want)
		}
	}
	if packed < 100 {
		t.Fatalf("only %d of 300 trials packed", packed)
	}
}

// TestPackedSortPermDeclinesWideKeys: keys whose ranges and the row number
// need more than 64 bits fall back to comparison.
func TestPackedSortPermDeclinesWideKeys(t *testing.T) {
	b := array.NewInt64Builder(mem)
	b.AppendValues([]int64{math.MinInt64, math.MaxInt64, 0}, nil)
	if p := packedSortPerm([]plan.SortKey{{}}, []arrow.Array{b.NewArray()}, 3); p != nil {
		t.Fatalf("packed a full-range int8 key with row numbers: %v", p)
	}
	s := array.NewStringBuilder(mem)
	s.AppendValues([]string{"b", "a"}, nil)
	if p := packedSortPerm([]plan.SortKey{{}}, []arrow.Array{s.NewArray()}, 2); p != nil {
		t.Fatalf("packed a text key: %v", p)
	}
}
