package hashtable

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"
)

// kernelCase names a kernel under test.
type kernelCase struct {
	name string
	find findFunc
}

// kernels returns every production kernel usable on this machine, the
// portable one first (it is the reference).
func kernels() []kernelCase {
	ks := []kernelCase{{"portable", findPortable}}
	if accelFind != nil {
		ks = append(ks, kernelCase{accelName, accelFind})
	}
	return ks
}

// mulInverse returns x with a*x == 1 mod 2^64 (a odd), by Newton iteration.
func mulInverse(a uint64) uint64 {
	x := a // correct to 3 bits
	for range 6 {
		x *= 2 - a*x
	}
	return x
}

// invHash returns the key whose hashInt64 under seed is h.
func invHash(h, seed uint64) int64 {
	x := h * mulInverse(hashMul2)
	x ^= x >> 32
	x *= mulInverse(hashMul1)
	return int64(x ^ seed)
}

// keyInGroup returns a key that hashes to group g of a 2^lg-group table,
// with the free low bits (tag and below) taken from salt.
func keyInGroup(g uint64, lg int, seed, salt uint64) int64 {
	low := salt & (uint64(1)<<(64-lg) - 1)
	return invHash(g<<(64-lg)|low, seed)
}

// reference is a Go map model of a table: key -> ascending build rows.
type reference map[int64][]uint32

func (r reference) lookup(k int64) []uint32 { return r[k] }

// pairsOf runs a full Probe of keys/sel and returns sorted "probe:build"
// pairs, checking that no call exceeds the capacity.
func pairsOf(t testing.TB, tab *Int64Table, keys []int64, sel []int32, capacity int) []string {
	out := NewMatches(capacity)
	var got []string
	for calls := 0; ; calls++ {
		done := tab.Probe(keys, sel, out)
		if out.Len() > capacity {
			t.Fatalf("Probe returned %d pairs, capacity %d", out.Len(), capacity)
		}
		for i := range out.Len() {
			got = append(got, fmt.Sprintf("%d:%d", out.ProbeRows[i], out.BuildRows[i]))
		}
		if done {
			break
		}
		if calls > 10_000_000 {
			t.Fatal("Probe never finished")
		}
	}
	slices.Sort(got)
	return got
}

func expectedPairs(ref reference, keys []int64, sel []int32, valid []bool) []string {
	var want []string
	visit := func(r int32) {
		if valid != nil && !valid[r] {
			return
		}
		for _, b := range ref.lookup(keys[r]) {
			want = append(want, fmt.Sprintf("%d:%d", r, b))
		}
	}
	if sel == nil {
		for r := range keys {
			visit(int32(r))
		}
	} else {
		for _, r := range sel {
			visit(r)
		}
	}
	slices.Sort(want)
	return want
}

func TestLayoutOffsets(t *testing.T) {
	var g group
	if unsafe.Sizeof(g) != groupStride {
		t.Fatalf("group is %d bytes, want %d", unsafe.Sizeof(g), groupStride)
	}
	// kernel_amd64.s hard-codes these.
	if o := unsafe.Offsetof(g.keys); o != 0 {
		t.Fatalf("keys at %d", o)
	}
	if o := unsafe.Offsetof(g.ctrl); o != 64 {
		t.Fatalf("ctrl at %d", o)
	}
	if o := unsafe.Offsetof(g.vals); o != 72 {
		t.Fatalf("vals at %d", o)
	}
}

func TestTagAndGroupBitsDisjoint(t *testing.T) {
	// At the largest accepted table, the group index is the top maxLogGroups
	// bits and the tag the low tagBits: no bit is shared.
	all := ^uint64(0)
	groupBits := all << (64 - maxLogGroups)
	if groupBits&tagMask != 0 {
		t.Fatalf("group bits %#x overlap tag bits %#x", groupBits, tagMask)
	}
	for lg := minLogGroups; lg <= maxLogGroups; lg++ {
		v := tableView{shift: uint64(64 - lg)}
		h := ^uint64(0) &^ tagMask // all group bits set, tag zero
		if v.groupOf(h) != uint64(1)<<lg-1 {
			t.Fatalf("lg=%d: group of all-ones hash = %d", lg, v.groupOf(h))
		}
		if v.groupOf(tagMask) != 0 {
			t.Fatalf("lg=%d: tag bits leak into the group index", lg)
		}
	}
}

func TestInvHash(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 1000 {
		k, seed := int64(r.Uint64()), r.Uint64()
		if got := invHash(hashInt64(k, seed), seed); got != k {
			t.Fatalf("invHash(hash(%d)) = %d", k, got)
		}
	}
}
