package operators

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// runsTable is a random table of (k int8, v int8, id text) with many ties and
// NULLs in k and v; id tells rows apart.
func runsTable(rng *rand.Rand) ([]plan.Column, [][]types.Value) {
	cs := cols(i8, i8, types.TextType)
	n := rng.Intn(200)
	var rows [][]types.Value
	for i := 0; i < n; i++ {
		k, v := I(int64(rng.Intn(4))), I(int64(rng.Intn(3)))
		if rng.Intn(5) == 0 {
			k = N
		}
		if rng.Intn(6) == 0 {
			v = N
		}
		rows = append(rows, []types.Value{k, v, S(fmt.Sprint(i))})
	}
	return cs, rows
}

// prefixKey is the first n columns of a formatted row.
func prefixKey(row string, n int) string {
	return strings.Join(strings.SplitN(row, "|", 4)[:n], "|")
}

// TestUniqueKeepsFirstOfEachRun holds NewUnique over a sort to the first row
// of each key group of the sorted rows: random tables, NULL keys (equal to
// each other), one and two key columns, every partition count, batches
// small enough that runs cross batches.
func TestUniqueKeepsFirstOfEachRun(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	for trial := 0; trial < 30; trial++ {
		cs, rows := runsTable(rng)
		keys := []plan.SortKey{
			{Expr: col(1, i8), Desc: rng.Intn(2) == 0, NullsFirst: rng.Intn(2) == 0},
			{Expr: col(2, i8), Desc: rng.Intn(2) == 0, NullsFirst: rng.Intn(2) == 0},
			{Expr: col(3, types.TextType)},
		}
		nkeys := 1 + rng.Intn(2)
		on := []plan.Expr{keys[0].Expr, keys[1].Expr}[:nkeys]
		for _, parts := range partitionCounts {
			env := &Env{BatchSize: 1 + rng.Intn(5)}
			sorted := func() Operator {
				s, err := NewSort(NewScanBatch(newMemTable(cs, rows, int64(trial)), []int{0, 1, 2}, cs, parts, 1+rng.Intn(4)), keys, env)
				if err != nil {
					t.Fatal(err)
				}
				return s
			}
			var want []string
			last := ""
			for i, r := range collectRows(t, sorted()) {
				if k := prefixKey(r, nkeys); i == 0 || k != last {
					want, last = append(want, r), k
				}
			}
			u, err := NewUnique(sorted(), on, env)
			if err != nil {
				t.Fatal(err)
			}
			got := collectRows(t, u)
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Fatalf("trial %d, %d partitions, %d keys:\ngot  %v\nwant %v", trial, parts, nkeys, got, want)
			}
		}
	}
}

// TestLimitWithTies holds WITH TIES to the sorted rows from OFFSET on: the
// first count of them, then every following row equal to the last on the
// sort keys; counts and offsets computed at run time obey the same rules.
func TestLimitWithTies(t *testing.T) {
	rng := rand.New(rand.NewSource(13))
	for trial := 0; trial < 30; trial++ {
		cs, rows := runsTable(rng)
		// Sorted on (k, v, id), deterministic; the ties are on k or (k, v).
		keys := []plan.SortKey{{Expr: col(1, i8), NullsFirst: rng.Intn(2) == 0}, {Expr: col(2, i8), Desc: true}, {Expr: col(3, types.TextType)}}
		nkeys := 1 + rng.Intn(2)
		env := &Env{BatchSize: 1 + rng.Intn(5)}
		sorted := func() Operator {
			s, err := NewSort(NewScanBatch(newMemTable(cs, rows, int64(trial)), []int{0, 1, 2}, cs, 2, 1+rng.Intn(4)), keys, env)
			if err != nil {
				t.Fatal(err)
			}
			return s
		}
		all := collectRows(t, sorted())
		n := int64(len(rows))
		for _, b := range []struct{ count, offset int64 }{{1, 0}, {3, 0}, {5, 2}, {n, 0}, {n + 2, 1}, {2, n}, {4, n / 2}, {0, 0}} {
			var want []string
			if b.offset < n && b.count > 0 {
				end := min(n, b.offset+b.count)
				want = append(want, all[b.offset:end]...)
				lastKey := prefixKey(all[end-1], nkeys)
				for ; end < n && prefixKey(all[end], nkeys) == lastKey; end++ {
					want = append(want, all[end])
				}
			}
			tie := make([]plan.Expr, nkeys)
			for i, k := range keys[:nkeys] {
				tie[i] = k.Expr
			}
			// The count as a constant and as an expression evaluated at Open.
			specs := []LimitSpec{
				{Count: b.count, Offset: b.offset, TieKeys: tie},
				{Count: -1, CountExpr: cst(I(b.count), i8), OffsetExpr: cst(I(b.offset), i8), TieKeys: tie},
			}
			for _, spec := range specs {
				l, err := NewLimitSpec(sorted(), spec, env)
				if err != nil {
					t.Fatal(err)
				}
				var got []string
				if b.count > 0 || spec.CountExpr != nil {
					got = collectRows(t, l)
				}
				if strings.Join(got, "\n") != strings.Join(want, "\n") {
					t.Fatalf("trial %d, count %d offset %d keys %d:\ngot  %v\nwant %v", trial, b.count, b.offset, nkeys, got, want)
				}
			}
		}
	}
}

// TestLimitSpecRunTimeValues: a NULL count is no limit, a NULL offset none,
// negative ones fail with PostgreSQL's SQLSTATEs.
func TestLimitSpecRunTimeValues(t *testing.T) {
	cs := cols(i8)
	rows := [][]plan.Expr{{cst(I(1), i8)}, {cst(I(2), i8)}, {cst(I(3), i8)}}
	open := func(spec LimitSpec) ([]string, error) {
		l, err := NewLimitSpec(NewValues(rows, cs, &Env{}), spec, &Env{})
		if err != nil {
			return nil, err
		}
		st, err := l.Open(t.Context(), 0)
		if err != nil {
			return nil, err
		}
		st.Close()
		return collectRows(t, l), nil
	}
	got, err := open(LimitSpec{Count: -1, CountExpr: cst(N, i8), OffsetExpr: cst(I(1), i8)})
	if err != nil || strings.Join(got, ",") != "2,3" {
		t.Fatalf("NULL count: %v %v", got, err)
	}
	got, err = open(LimitSpec{Count: -1, CountExpr: cst(I(1), i8), OffsetExpr: cst(N, i8)})
	if err != nil || strings.Join(got, ",") != "1" {
		t.Fatalf("NULL offset: %v %v", got, err)
	}
	_, err = open(LimitSpec{Count: -1, CountExpr: cst(I(-1), i8)})
	wantCode(t, err, "2201W")
	_, err = open(LimitSpec{Count: -1, OffsetExpr: cst(I(-1), i8)})
	wantCode(t, err, "2201X")
}
