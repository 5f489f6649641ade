package hashtable

// findPortable is the pure-Go (SWAR) probe kernel. For i in [0, n) it looks
// up keys[row(i)] with row(i) = sel[i] (or i when sel is nil) and writes the
// slot value or notFound to res[i]. hashes is scratch of length >= n.
//
// It owns the whole batch: a first pass hashes every key, a second probes.
// The second pass issues a load of the control word lookAhead keys ahead;
// those loads are independent of the current probe, so the CPU overlaps
// their cache misses (Go has no prefetch instruction).
func findPortable(v *tableView, keys []int64, sel []int32, n int, hashes []uint64, res []uint32) {
	if n == 0 {
		return
	}
	hashes = hashes[:n]
	res = res[:n]
	seed, shift := v.seed, v.shift
	if sel == nil {
		keys = keys[:n]
		for i, k := range keys {
			hashes[i] = hashInt64(k, seed)
		}
	} else {
		sel = sel[:n]
		for i, r := range sel {
			hashes[i] = hashInt64(keys[r], seed)
		}
	}
	groups := v.groups
	mask := v.mask
	var sink uint64
	for i := 0; i < lookAhead && i < n; i++ {
		sink ^= groups[hashes[i]>>shift].ctrl
	}
	for i := range n {
		if j := i + lookAhead; j < n {
			sink ^= groups[hashes[j]>>shift].ctrl
		}
		h := hashes[i]
		var k int64
		if sel == nil {
			k = keys[i]
		} else {
			k = keys[sel[i]]
		}
		res[i] = probeOne(groups, mask, h>>shift, uint8(h&tagMask)|ctrlFull, k)
	}
	sinkPortable = sink
}

// lookAhead is how many keys ahead the portable kernel touches; the AVX2
// kernel uses the same distance for its prefetches.
const lookAhead = 16

// sinkPortable keeps the look-ahead loads from being optimised away.
var sinkPortable uint64

// probeOne walks groups from g (64-bit index, 64-bit offsets via slice
// indexing) until it finds k or a group with an empty slot.
func probeOne(groups []group, mask, g uint64, tag uint8, k int64) uint32 {
	for {
		grp := &groups[g]
		c := grp.ctrl
		for m := matchTag(c, tag); m != 0; m &= m - 1 {
			s := slotOf(m)
			if grp.keys[s&7] == k {
				return grp.vals[s&7]
			}
		}
		if emptyMask(c) != 0 {
			return notFound
		}
		g = (g + 1) & mask
	}
}
