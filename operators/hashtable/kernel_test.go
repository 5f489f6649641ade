package hashtable

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"unsafe"
)

// findWrong32 is the bug class of Arrow's early_filter_imp_avx2_x8, kept
// here (test file only, unreachable from production) to prove the tests
// catch it: it forms the group's byte offset as a 32-bit product, which
// wraps for group ids >= 2^32/stride.
func findWrong32(v *tableView, keys []int64, sel []int32, n int, hashes []uint64, res []uint32) {
	base := unsafe.Pointer(&v.groups[0])
	for i := range n {
		r := i
		if sel != nil {
			r = int(sel[i])
		}
		k := keys[r]
		h := hashInt64(k, v.seed)
		hashes[i] = h
		tag := uint8(h&tagMask) | ctrlFull
		g := h >> v.shift
		res[i] = notFound
	walk:
		for {
			off := uint32(g) * groupStride // BUG (deliberate): 32-bit offset
			grp := (*group)(unsafe.Add(base, uintptr(off)))
			c := grp.ctrl
			for m := matchTag(c, tag); m != 0; m &= m - 1 {
				s := slotOf(m) & 7
				if grp.keys[s] == k {
					res[i] = grp.vals[s]
					break walk
				}
			}
			if emptyMask(c) != 0 {
				break
			}
			g = (g + 1) & v.mask
		}
	}
}

// modelTable is what a correct table must answer: key -> slot value
// (singleton row id) for a table built from distinct keys.
type modelTable map[int64]uint32

// diffBatch runs base and cand over the same batch and returns a
// description of every disagreement (between the kernels, or with the
// model). An empty result means they agree.
func diffBatch(v *tableView, model modelTable, base, cand findFunc, keys []int64, sel []int32, n int) []string {
	hb, rb := make([]uint64, n), make([]uint32, n)
	hc, rc := make([]uint64, n), make([]uint32, n)
	// Poison the outputs so a kernel that skips an element is caught.
	for i := range rb {
		rb[i], rc[i] = 0xDEADBEEF, 0xDEADBEEF
	}
	base(v, keys, sel, n, hb, rb)
	cand(v, keys, sel, n, hc, rc)
	var errs []string
	for i := range n {
		r := i
		if sel != nil {
			r = int(sel[i])
		}
		want, ok := model[keys[r]]
		if !ok {
			want = notFound
		}
		if rb[i] != want || rc[i] != want {
			errs = append(errs, fmt.Sprintf("i=%d key=%d: base %#x cand %#x model %#x", i, keys[r], rb[i], rc[i], want))
		}
	}
	return errs
}

// diffTable builds a small table designed to hit full groups, probe chains
// that cross several groups, wrap-around from the last group to group 0,
// and duplicate probe keys.
func diffTable(t testing.TB, r *rand.Rand) (*Int64Table, modelTable, []int64) {
	const lg = 6 // 64 groups
	seed := r.Uint64()
	tab := newInt64WithGroups(make([]group, 1<<lg), seed, findPortable, "portable")
	model := modelTable{}
	var absent []int64
	add := func(k int64) {
		if _, dup := model[k]; dup {
			return
		}
		row := uint32(len(model))
		if err := tab.AppendSlice([]int64{k}, nil); err != nil {
			t.Fatal(err)
		}
		model[k] = uint32(tab.rows - 1)
		_ = row
	}
	last := uint64(1)<<lg - 1
	for j := range 20 { // 20 keys aimed at the last group: 8 fit, 12 wrap to groups 0, 1
		add(keyInGroup(last, lg, seed, r.Uint64()))
		_ = j
	}
	for range 11 { // group 9 full and spilling into 10
		add(keyInGroup(9, lg, seed, r.Uint64()))
	}
	for range 20 { // random fill to ~50%
		add(int64(r.Uint64()))
	}
	for _, g := range []uint64{last, 0, 1, 9, 10, 30} { // misses that must walk the chains
		for range 4 {
			absent = append(absent, keyInGroup(g, lg, seed, r.Uint64()))
		}
	}
	tab.Finish()
	if emptyMask(tab.view.groups[last].ctrl) != 0 || emptyMask(tab.view.groups[9].ctrl) != 0 {
		t.Fatal("diffTable: groups meant to be full are not")
	}
	return tab, model, absent
}

// TestKernelsAgreeEveryLength is the differential test: every batch length
// 0..4100 (every tail of the 16-key prefetch window and of 1024-key
// chunks), with and without a selection vector that filters NULL rows.
func TestKernelsAgreeEveryLength(t *testing.T) {
	if accelFind == nil {
		t.Skip("no accelerated kernel on this CPU/build; the portable kernel is tested against the model elsewhere")
	}
	r := rand.New(rand.NewPCG(3, 4))
	failures := runEveryLength(t, r, findPortable, accelFind, 4100)
	for _, f := range failures[:min(len(failures), 10)] {
		t.Error(f)
	}
}

// runEveryLength drives diffBatch over lengths 0..maxLen and returns the
// disagreements.
func runEveryLength(t testing.TB, r *rand.Rand, base, cand findFunc, maxLen int) []string {
	var failures []string
	tab, model, absent := diffTable(t, r)
	present := make([]int64, 0, len(model))
	for k := range model {
		present = append(present, k)
	}
	for n := 0; n <= maxLen; n++ {
		if n%512 == 0 { // new table (new seed) now and then
			tab, model, absent = diffTable(t, r)
			present = present[:0]
			for k := range model {
				present = append(present, k)
			}
		}
		keys := make([]int64, n+n/3)
		valid := make([]bool, len(keys))
		for i := range keys {
			switch r.IntN(4) {
			case 0, 1:
				keys[i] = present[r.IntN(len(present))]
			case 2:
				keys[i] = absent[r.IntN(len(absent))]
			default:
				keys[i] = int64(r.Uint64())
			}
			if i > 0 && r.IntN(8) == 0 {
				keys[i] = keys[i-1] // adjacent duplicate probe keys
			}
			valid[i] = r.IntN(5) != 0
		}
		// Dense: the first n keys, no selection.
		for _, e := range diffBatch(&tab.view, model, base, cand, keys, nil, n) {
			failures = append(failures, fmt.Sprintf("n=%d dense: %s", n, e))
		}
		// NULL-filtered: a selection of valid rows, exactly n long when
		// possible (it indexes beyond n into the longer keys slice).
		var sel []int32
		for i := range keys {
			if valid[i] && len(sel) < n {
				sel = append(sel, int32(i))
			}
		}
		for _, e := range diffBatch(&tab.view, model, base, cand, keys, sel, len(sel)) {
			failures = append(failures, fmt.Sprintf("n=%d sel: %s", n, e))
		}
	}
	return failures
}

// TestDifferentialHarnessCatchesWrongResults makes sure the harness is
// able to fail at all: a kernel that drops every 7th match must be caught
// at ordinary table sizes.
func TestDifferentialHarnessCatchesWrongResults(t *testing.T) {
	lossy := func(v *tableView, keys []int64, sel []int32, n int, hashes []uint64, res []uint32) {
		findPortable(v, keys, sel, n, hashes, res)
		for i := 6; i < n; i += 7 {
			res[i] = notFound
		}
	}
	r := rand.New(rand.NewPCG(5, 6))
	if f := runEveryLength(t, r, findPortable, lossy, 300); len(f) == 0 {
		t.Fatal("differential harness did not notice a kernel that loses matches")
	}
}
