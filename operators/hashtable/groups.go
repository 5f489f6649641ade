package hashtable

// An Int64Table also serves as a map from a key to a dense id, the group
// lookup of hash aggregation, DISTINCT and set operations: FindOrAdd stores
// each distinct key once with the id the caller gives it (no build rows, no
// duplicate lists, no Finish). A table is used either this way or through
// Append/Probe, never both.
//
// Keys of other shapes (several columns, strings, numerics) are looked up
// by their 64-bit hash with FindOrAddHash: the slot key is the hash, equal
// hashes may belong to different keys, and the caller's Matcher confirms
// the candidate (hash → candidates → key compare).

// FindOrAdd returns the id stored under k, or stores id under k and returns
// (id, true). id must be below MaxBuildRows.
func (t *Int64Table) FindOrAdd(k int64, id uint32) (uint32, bool) {
	h := hashInt64(k, t.view.seed)
	tag := uint8(h&tagMask) | ctrlFull
	groups, mask := t.view.groups, t.view.mask
	for g := h >> t.view.shift; ; g = (g + 1) & mask {
		grp := &groups[g]
		c := grp.ctrl
		for m := matchTag(c, tag); m != 0; m &= m - 1 {
			if s := slotOf(m) & 7; grp.keys[s] == k {
				return grp.vals[s], false
			}
		}
		if e := emptyMask(c); e != 0 {
			t.add(grp, slotOf(e)&7, k, h, id)
			return id, true
		}
	}
}

// Matcher confirms a candidate: whether the key stored with id is the key
// being looked up (an interface, not a closure, so a lookup allocates
// nothing).
type Matcher interface{ Match(id uint32) bool }

// FindOrAddHash returns the id stored under hash h whose key m matches, or
// stores id under h and returns (id, true).
func (t *Int64Table) FindOrAddHash(h uint64, id uint32, m Matcher) (uint32, bool) {
	k := int64(h)
	hh := hashInt64(k, t.view.seed)
	tag := uint8(hh&tagMask) | ctrlFull
	groups, mask := t.view.groups, t.view.mask
	for g := hh >> t.view.shift; ; g = (g + 1) & mask {
		grp := &groups[g]
		c := grp.ctrl
		for b := matchTag(c, tag); b != 0; b &= b - 1 {
			if s := slotOf(b) & 7; grp.keys[s] == k && m.Match(grp.vals[s]) {
				return grp.vals[s], false
			}
		}
		if e := emptyMask(c); e != 0 {
			t.add(grp, slotOf(e)&7, k, hh, id)
			return id, true
		}
	}
}

// add stores (k, id) in the empty slot s of grp, where a probe for k of
// hash h ended, or grows the table first when the load would pass 7/8.
func (t *Int64Table) add(grp *group, s uint64, k int64, h uint64, id uint32) {
	if (t.used+1)*8 > uint64(len(t.view.groups))*groupSlots*7 {
		// Unreachable error: ids are below 2^31, far fewer than the
		// 2^35 slots of the largest table.
		if err := t.grow(); err != nil {
			panic(err)
		}
		g := h >> t.view.shift
		for emptyMask(t.view.groups[g].ctrl) == 0 {
			g = (g + 1) & t.view.mask
		}
		grp, s = &t.view.groups[g], slotOf(emptyMask(t.view.groups[g].ctrl))&7
	}
	grp.keys[s] = k
	grp.vals[s] = id
	grp.ctrl |= uint64(uint8(h&tagMask)|ctrlFull) << (8 * s)
	t.used++
}

// NotFound is what Lookup writes for an absent key.
const NotFound = notFound

// Lookup sets res[i] to the id stored under keys[sel[i]] (keys[i] when sel
// is nil), or NotFound, for the len(res) rows: the table's probe kernel
// over a batch, whose memory loads overlap. In a table keyed by hashes
// (FindOrAddHash) the id is the first candidate; the caller confirms it and
// falls back to FindOrAddHash. Lookup uses scratch of the table: one
// goroutine at a time, as for FindOrAdd.
func (t *Int64Table) Lookup(keys []int64, sel []int32, res []uint32) {
	if t.scratch == nil {
		t.scratch = make([]uint64, chunkRows)
	}
	for pos := 0; pos < len(res); pos += chunkRows {
		n := min(chunkRows, len(res)-pos)
		if sel == nil {
			t.find(&t.view, keys[pos:pos+n], nil, n, t.scratch, res[pos:pos+n])
		} else {
			t.find(&t.view, keys, sel[pos:pos+n], n, t.scratch, res[pos:pos+n])
		}
	}
}
