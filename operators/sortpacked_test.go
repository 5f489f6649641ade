package operators

import (
	"context"
	"io"
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

// TestSortMergesPartitionsStably: a sort over several partitions, merged
// in memory, returns the stable sort of the partitions' rows in partition
// order (ties keep partition, then arrival, order), for integer keys (the
// packed path) and text keys (the comparison path).
func TestSortMergesPartitionsStably(t *testing.T) {
	cs := cols(i8, types.TextType, i8)
	var rows [][]types.Value
	for i := 0; i < 400; i++ {
		k := types.Value{I: int64(i % 7)}
		if i%11 == 0 {
			k = types.NullValue
		}
		rows = append(rows, []types.Value{k, types.Value{S: string(rune('a' + i%5))}, types.Value{I: int64(i)}})
	}
	for _, parts := range []int{2, 3, 8} {
		for _, keys := range [][]plan.SortKey{
			{{Expr: col(1, i8), Desc: true, NullsFirst: true}},
			{{Expr: col(2, types.TextType)}, {Expr: col(1, i8)}},
		} {
			sc := NewScanBatch(newMemTable(cs, rows, int64(parts)), []int{0, 1, 2}, cs, parts, 3)
			var concat [][]types.Value
			for p := 0; p < parts; p++ {
				st, err := sc.Open(context.Background(), p)
				if err != nil {
					t.Fatal(err)
				}
				for {
					rec, err := st.Next()
					if err == io.EOF {
						break
					}
					if err != nil {
						t.Fatal(err)
					}
					concat = append(concat, recRows(rec, cs)...)
				}
				st.Close()
			}
			var keyT []types.Type
			for _, k := range keys {
				keyT = append(keyT, k.Expr.Type())
			}
			keyOf := func(r []types.Value, k int) types.Value { return r[keys[k].Expr.(*plan.ColRef).ID-1] }
			want := append([][]types.Value(nil), concat...)
			slices.SortStableFunc(want, func(a, b []types.Value) int {
				for k := range keys {
					if c := compareSortKey(keys[k], keyT[k], keyOf(a, k), keyOf(b, k)); c != 0 {
						return c
					}
				}
				return 0
			})
			s, err := NewSort(sc, keys, &Env{BatchSize: 5})
			if err != nil {
				t.Fatal(err)
			}
			got := collectRows(t, s)
			for i, r := range want {
				if got[i] != fmtRow(r, cs) {
					t.Fatalf("%d partitions, keys %v: row %d is %s, want %s", parts, keys, i, got[i], fmtRow(r, cs))
				}
			}
		}
	}
}
