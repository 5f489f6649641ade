//go:build linux && (amd64 || arm64)

package hashtable

import (
	"bufio"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// largeLogGroups gives a group array of 2^26 * 128 B = 8 GiB of address
// space: group ids reach past 2^31/stride (2^24) and 2^32/stride (2^25).
const largeLogGroups = 26

// mapLarge reserves the group array with an anonymous MAP_NORESERVE
// mapping: only the pages the test touches become resident.
func mapLarge(t *testing.T) []group {
	size := (uint64(1) << largeLogGroups) << groupShift
	b, err := unix.Mmap(-1, 0, int(size), unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANON|unix.MAP_NORESERVE)
	if err != nil {
		t.Skipf("cannot reserve %d GiB of address space: %v", size>>30, err)
	}
	t.Cleanup(func() { _ = unix.Munmap(b) })
	g := groupsFromBytes(b)
	if uint64(len(g)) != uint64(1)<<largeLogGroups {
		t.Fatalf("mapped %d groups", len(g))
	}
	return g
}

func rssBytes(t *testing.T) uint64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		t.Skip("no /proc/self/status")
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			kb, _ := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// largeTable places keys at group ids just below and above 2^31/stride and
// 2^32/stride, in the last group (full, spilling over the wrap to group 0)
// and in group 0, and returns the table, the model, and absent keys aimed at
// the same groups.
func largeTable(t *testing.T, groups []group) (*Int64Table, modelTable, []int64) {
	const lg = largeLogGroups
	seed := uint64(0x1234_5678_9ABC_DEF0)
	tab := newInt64WithGroups(groups, seed, findPortable, "portable")
	r := rand.New(rand.NewPCG(11, 12))
	last := uint64(1)<<lg - 1
	g31 := uint64(1) << 31 / groupStride // 2^24
	g32 := uint64(1) << 32 / groupStride // 2^25
	targets := []uint64{0, 1, g31 - 1, g31, g31 + 1, g32 - 1, g32, g32 + 1, g32 + g31, last - 1, last}
	model := modelTable{}
	var keys []int64
	var absent []int64
	for _, g := range targets {
		n := 3
		if g == last || g == g32 {
			n = 11 // fill the group and spill into the next (wrapping from last to 0)
		}
		for range n {
			keys = append(keys, keyInGroup(g, lg, seed, r.Uint64()))
		}
		for range 3 {
			absent = append(absent, keyInGroup(g, lg, seed, r.Uint64()))
		}
	}
	if err := tab.AppendSlice(keys, nil); err != nil {
		t.Fatal(err)
	}
	for i, k := range keys {
		model[k] = uint32(i)
	}
	tab.Finish()
	if emptyMask(groups[last].ctrl) != 0 || emptyMask(groups[g32].ctrl) != 0 {
		t.Fatal("last group / group 2^32/stride not full")
	}
	if tab.view.groupOf(hashInt64(keys[len(keys)-1], seed)) != last {
		t.Fatal("keyInGroup misplaced a key")
	}
	return tab, model, absent
}

// TestKernelsPast4GiB: both production kernels find every key placed past
// the 32-bit offset limits, and the deliberately wrong 32-bit variant fails
// the very same check.
func TestKernelsPast4GiB(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	rss0 := rssBytes(t)
	groups := mapLarge(t)
	tab, model, absent := largeTable(t, groups)

	var batch []int64
	for k := range model {
		batch = append(batch, k, k) // duplicates in the batch
	}
	batch = append(batch, absent...)
	rand.New(rand.NewPCG(1, 1)).Shuffle(len(batch), func(i, j int) { batch[i], batch[j] = batch[j], batch[i] })

	for _, kc := range kernels() {
		if errs := diffBatch(&tab.view, model, findPortable, kc.find, batch, nil, len(batch)); len(errs) > 0 {
			t.Errorf("%s: %d wrong answers, first: %s", kc.name, len(errs), errs[0])
		}
		// And through the public Probe path, one pair per present key.
		tab.find, tab.kernel = kc.find, kc.name
		got := pairsOf(t, tab, batch, nil, 7)
		if len(got) != 2*len(model) {
			t.Errorf("%s: Probe found %d pairs, want %d", kc.name, len(got), 2*len(model))
		}
	}

	errs := diffBatch(&tab.view, model, findPortable, findWrong32, batch, nil, len(batch))
	if len(errs) == 0 {
		t.Fatal("the 32-bit-offset kernel passed: the test cannot see the bug class")
	}
	t.Logf("32-bit-offset variant caught: %d wrong answers (e.g. %s)", len(errs), errs[0])

	if rss1 := rssBytes(t); rss0 > 0 && rss1 > rss0+512<<20 {
		t.Errorf("resident memory grew by %d MiB; the mapping should stay sparse", (rss1-rss0)>>20)
	}
}
