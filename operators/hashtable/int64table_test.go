package hashtable

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/joind/joind/pgerr"
)

func TestInt64BuildProbeAgainstMap(t *testing.T) {
	for _, kc := range kernels() {
		t.Run(kc.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(7, 7))
			for _, n := range []int{0, 1, 7, 8, 9, 100, 5000, 70000} {
				tab := newTableWithKernel(n/3, kc)
				ref := reference{}
				keys := make([]int64, n)
				valid := make([]bool, n)
				for i := range keys {
					keys[i] = r.Int64N(int64(n/2 + 1)) // many duplicates
					valid[i] = r.IntN(10) != 0
					if valid[i] {
						ref[keys[i]] = append(ref[keys[i]], uint32(i))
					}
				}
				// Two appends: row ids continue across calls.
				h := n / 2
				if err := tab.AppendSlice(keys[:h], valid[:h]); err != nil {
					t.Fatal(err)
				}
				if err := tab.AppendSlice(keys[h:], valid[h:]); err != nil {
					t.Fatal(err)
				}
				tab.Finish()
				nulls := 0
				for _, v := range valid {
					if !v {
						nulls++
					}
				}
				if tab.NullCount() != int64(nulls) || tab.SawNull() != (nulls > 0) {
					t.Fatalf("null count %d, want %d", tab.NullCount(), nulls)
				}
				if tab.Distinct() != int64(len(ref)) {
					t.Fatalf("distinct %d, want %d", tab.Distinct(), len(ref))
				}
				probe := make([]int64, n+10)
				for i := range probe {
					probe[i] = r.Int64N(int64(n + 5))
				}
				for _, capacity := range []int{1, 3, 1024} {
					got := pairsOf(t, tab, probe, nil, capacity)
					want := expectedPairs(ref, probe, nil, nil)
					if !slices.Equal(got, want) {
						t.Fatalf("n=%d cap=%d: %d pairs, want %d", n, capacity, len(got), len(want))
					}
				}
				for k, rows := range ref {
					if got := tab.BuildRowsOf(k, nil); !slices.Equal(got, rows) {
						t.Fatalf("rows of %d = %v, want %v", k, got, rows)
					}
				}
			}
		})
	}
}

func newTableWithKernel(hint int, kc kernelCase) *Int64Table {
	t := NewInt64(hint)
	t.find, t.kernel = kc.find, kc.name
	return t
}

func TestArrowBuildAndProbeSkipNulls(t *testing.T) {
	b := array.NewInt64Builder(memory.DefaultAllocator)
	b.AppendValues([]int64{1, 2, 0, 2, 3}, []bool{true, true, false, true, true})
	build := b.NewInt64Array()
	b.AppendValues([]int64{2, 0, 3, 9, 1}, []bool{true, false, true, true, true})
	probe := b.NewInt64Array()

	tab := NewInt64(4)
	if err := tab.Append(build); err != nil {
		t.Fatal(err)
	}
	tab.Finish()
	if !tab.SawNull() || tab.NullCount() != 1 || tab.Rows() != 5 {
		t.Fatalf("saw null %v count %d rows %d", tab.SawNull(), tab.NullCount(), tab.Rows())
	}
	out := NewMatches(16)
	if !tab.ProbeArrow(probe, nil, out) {
		t.Fatal("not done")
	}
	var got [][2]int64
	for i := range out.Len() {
		got = append(got, [2]int64{int64(out.ProbeRows[i]), int64(out.BuildRows[i])})
	}
	// probe 0 (2) -> build 1, 3; probe 1 NULL (its value 0 is garbage and
	// must not match build row 2's garbage 0); probe 2 (3) -> 4; probe 4 (1) -> 0.
	want := [][2]int64{{0, 1}, {0, 3}, {2, 4}, {4, 0}}
	if !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	// A selection that keeps only the NULL row yields nothing.
	out.Reset()
	if !tab.ProbeArrow(probe, []int32{1}, out) || out.Len() != 0 {
		t.Fatalf("NULL probe row matched: %v", out.BuildRows)
	}
}

func TestHugeFanOutIsResumable(t *testing.T) {
	tab := NewInt64(1)
	keys := make([]int64, 10000)
	for i := range keys {
		keys[i] = 42
	}
	keys[5000] = 7
	if err := tab.AppendSlice(keys, nil); err != nil {
		t.Fatal(err)
	}
	tab.Finish()
	out := NewMatches(333)
	probe := []int64{1, 42, 7, 42}
	var rows []uint32
	calls := 0
	for {
		done := tab.Probe(probe, nil, out)
		calls++
		rows = append(rows, out.BuildRows...)
		if done {
			break
		}
	}
	if len(rows) != 2*9999+1 {
		t.Fatalf("%d rows", len(rows))
	}
	if calls < (2*9999+1)/333 {
		t.Fatalf("only %d calls", calls)
	}
	// Probing a different batch mid-way panics rather than mixing batches.
	tab.Probe(probe, nil, out)
	defer func() {
		if recover() == nil {
			t.Fatal("no panic on new batch mid-way")
		}
	}()
	tab.Probe([]int64{1, 2}, nil, out)
}

func TestTooManyBuildRowsIsAnError(t *testing.T) {
	tab := NewInt64(8)
	if err := tab.AppendSlice([]int64{1, 2, 3}, nil); err != nil {
		t.Fatal(err)
	}
	// Pretend the table already holds all but two row ids.
	tab.rows = MaxBuildRows - 2
	err := tab.AppendSlice([]int64{4, 5, 6}, nil)
	var pe *pgerr.Error
	if !errors.As(err, &pe) || pe.Code != pgerr.ProgramLimitExceeded {
		t.Fatalf("err = %v", err)
	}
	if tab.Distinct() != 3 || tab.rows != MaxBuildRows-2 {
		t.Fatal("failed append changed the table")
	}
	// Exactly up to the limit is fine.
	if err := tab.AppendSlice([]int64{4, 5}, nil); err != nil {
		t.Fatal(err)
	}
	if err := tab.AppendSlice([]int64{6}, nil); err == nil {
		t.Fatal("row id MaxBuildRows accepted")
	}
	tab.Finish()
	if got := tab.BuildRowsOf(5, nil); !slices.Equal(got, []uint32{MaxBuildRows - 1}) {
		t.Fatalf("last row id %v", got)
	}
}

func TestContains(t *testing.T) {
	for _, kc := range kernels() {
		tab := newTableWithKernel(100, kc)
		_ = tab.AppendSlice([]int64{10, 20, 30, 20}, nil)
		tab.Finish()
		keys := []int64{20, 5, 30, 10, 11}
		hit := []bool{false, true, false, true, true}
		tab.Contains(keys, []int32{0, 1, 2}, hit, NewMatches(0))
		if want := []bool{true, false, true, true, true}; !slices.Equal(hit, want) {
			t.Fatalf("%s: %v", kc.name, hit)
		}
	}
}

func TestMatchedBits(t *testing.T) {
	b := NewMatchedBits(130)
	b.Set([]uint32{0, 64, 129, 64})
	if !b.Test(64) || b.Test(1) || b.Count() != 3 {
		t.Fatal("bits")
	}
	un := b.AppendUnset(nil, 0, 130)
	if len(un) != 127 || un[0] != 1 || slices.Contains(un, 129) {
		t.Fatalf("unset %v", un[:5])
	}
	all := NewMatchedBits(128)
	for r := range uint32(128) {
		all.Set([]uint32{r})
	}
	if u := all.AppendUnset(nil, 0, 128); len(u) != 0 {
		t.Fatal(u)
	}
}

// Large appends take the clustered path (keys ordered by hash bucket before
// inserting): the table must hold exactly the same rows, duplicate lists
// still ascending, NULLs counted, row ids continuing across appends.
func TestInt64ClusteredBuildAgainstMap(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	const n = 300_000
	tab := NewInt64(n)
	ref := reference{}
	keys := make([]int64, n)
	valid := make([]bool, n)
	for i := range keys {
		keys[i] = r.Int64N(n/3) * 7919 // duplicates, spread over the table
		valid[i] = r.IntN(20) != 0
		if valid[i] {
			ref[keys[i]] = append(ref[keys[i]], uint32(i))
		}
	}
	h := n / 2
	if !tab.clusterable(h) {
		t.Fatalf("a %d-key append into %d groups is not clustered; the test does not cover the path", h, tab.Groups())
	}
	if err := tab.AppendSlice(keys[:h], valid[:h]); err != nil {
		t.Fatal(err)
	}
	if err := tab.AppendSlice(keys[h:], nil); err != nil { // all valid
		t.Fatal(err)
	}
	for i := h; i < n; i++ {
		if !valid[i] {
			ref[keys[i]] = append(ref[keys[i]], uint32(i))
			slices.Sort(ref[keys[i]])
		}
	}
	tab.Finish()
	nulls := 0
	for _, v := range valid[:h] {
		if !v {
			nulls++
		}
	}
	if tab.NullCount() != int64(nulls) || tab.Distinct() != int64(len(ref)) || tab.Rows() != n {
		t.Fatalf("nulls %d distinct %d rows %d, want %d %d %d", tab.NullCount(), tab.Distinct(), tab.Rows(), nulls, len(ref), n)
	}
	for k, rows := range ref {
		if got := tab.BuildRowsOf(k, nil); !slices.Equal(got, rows) {
			t.Fatalf("rows of %d = %v, want %v", k, got, rows)
		}
	}
	probe := make([]int64, 5000)
	for i := range probe {
		probe[i] = r.Int64N(n/3+10) * 7919
	}
	if got, want := pairsOf(t, tab, probe, nil, 1024), expectedPairs(ref, probe, nil, nil); !slices.Equal(got, want) {
		t.Fatalf("%d pairs, want %d", len(got), len(want))
	}
}
