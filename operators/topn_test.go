package operators

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// TestTopNMatchesSortLimit holds the Top-N Sort to the full sort's answer,
// row for row (ties in the full sort's stable order, NULLs placed as each
// key says): random tables with many ties and NULLs, every partition count,
// bounds below, at and above the row count, with and without OFFSET, and
// batches small enough that the kept rows are compacted.
func TestTopNMatchesSortLimit(t *testing.T) {
	cs := cols(i8, i8, types.TextType)
	rng := rand.New(rand.NewSource(7))
	for trial := 0; trial < 40; trial++ {
		n := rng.Intn(300)
		var rows [][]types.Value
		for i := 0; i < n; i++ {
			k := I(int64(rng.Intn(4)))
			if rng.Intn(5) == 0 {
				k = N
			}
			v := I(int64(rng.Intn(6)))
			if rng.Intn(7) == 0 {
				v = N
			}
			rows = append(rows, []types.Value{k, v, S(fmt.Sprint(i))}) // column 3 tells ties apart
		}
		keys := []plan.SortKey{
			{Expr: col(1, i8), Desc: rng.Intn(2) == 0, NullsFirst: rng.Intn(2) == 0},
			{Expr: col(2, i8), Desc: rng.Intn(2) == 0, NullsFirst: rng.Intn(2) == 0},
		}
		if rng.Intn(3) == 0 {
			keys = keys[:1]
		}
		for _, parts := range partitionCounts {
			table := newMemTable(cs, rows, int64(trial))
			env := &Env{BatchSize: 1 + rng.Intn(5)}
			for _, b := range []struct{ count, offset int64 }{
				{1, 0}, {3, 0}, {10, 5}, {int64(n), 0}, {int64(n) + 3, 1}, {2, int64(n)}, {7, int64(n / 2)},
			} {
				if b.count <= 0 {
					continue
				}
				sc := NewScanBatch(table, []int{0, 1, 2}, cs, parts, 1+rng.Intn(4))
				s, err := NewSort(sc, keys, env)
				if err != nil {
					t.Fatal(err)
				}
				want := collectRows(t, NewLimit(s, b.count, b.offset))
				top, err := NewTopN(sc, keys, b.count, b.offset, env)
				if err != nil {
					t.Fatal(err)
				}
				if top.Partitions() != 1 {
					t.Fatalf("top-N has %d partitions", top.Partitions())
				}
				got := collectRows(t, top)
				if strings.Join(got, ",") != strings.Join(want, ",") {
					t.Fatalf("trial %d parts %d limit %d offset %d keys %+v:\ngot  %v\nwant %v", trial, parts, b.count, b.offset, keys, got, want)
				}
			}
		}
	}
}

// TestTopNKeyError: a sort key that fails on any input row fails the
// Top-N as it fails the full sort, even when the row would not be kept.
func TestTopNKeyError(t *testing.T) {
	cs := cols(i8)
	var rows [][]types.Value
	for i := 0; i < 20; i++ {
		rows = append(rows, []types.Value{I(int64(i))})
	}
	div, err := types.ResolveOperator("/", i8, i8)
	if err != nil {
		t.Fatal(err)
	}
	key := &plan.Call{Func: div, Args: []plan.Expr{&plan.Const{Val: I(100), T: i8}, col(1, i8)}}
	for _, parts := range partitionCounts {
		sc := NewScanBatch(newMemTable(cs, rows, 3), []int{0}, cs, parts, 3)
		top, err := NewTopN(sc, []plan.SortKey{{Expr: key}}, 1, 0, &Env{})
		if err != nil {
			t.Fatal(err)
		}
		_, err = Collect(t.Context(), top)
		wantCode(t, err, "22012")
	}
}

func TestTopNRejectsBadBound(t *testing.T) {
	sc := NewScanBatch(newMemTable(cols(i8), nil, 1), []int{0}, cols(i8), 1, 1)
	for _, b := range [][2]int64{{0, 0}, {-1, 0}, {1, -1}} {
		if _, err := NewTopN(sc, []plan.SortKey{{Expr: col(1, i8)}}, b[0], b[1], &Env{}); err == nil {
			t.Fatalf("bound %v accepted", b)
		}
	}
}

// BenchmarkTopN / BenchmarkSortLimit: LIMIT 5 over 1M rows of one integer
// key in 4096-row batches, two partitions, as a Top-N Sort and as the full
// sort it replaces.
func BenchmarkTopN(b *testing.B) { benchLimit(b, true) }

func BenchmarkSortLimit(b *testing.B) { benchLimit(b, false) }

func benchLimit(b *testing.B, topN bool) {
	cs := cols(i8)
	m := &memTable{name: "t", defs: []storage.ColumnDef{{Name: "k", Type: i8}}}
	for start := 0; start < 1<<20; start += 4096 {
		rows := make([][]types.Value, 4096)
		for i := range rows {
			rows[i] = []types.Value{I(int64(((start + i) * 7919) % 1000003))}
		}
		m.recs = append(m.recs, mkRecord(cs, rows))
	}
	keys := []plan.SortKey{{Expr: col(1, i8), Desc: true}}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sc := NewScanBatch(m, []int{0}, cs, 2, 4096)
		var op Operator
		var err error
		if topN {
			op, err = NewTopN(sc, keys, 5, 0, &Env{})
		} else {
			op, err = NewSort(sc, keys, &Env{})
			op = NewLimit(op, 5, 0)
		}
		if err != nil {
			b.Fatal(err)
		}
		if got := collectRows(b, op); len(got) != 5 {
			b.Fatalf("%d rows", len(got))
		}
	}
}
