package join

// tupleIndex is a chained hash index over several int64-encoded key columns
// (composite integer keys, and the NULL-aware side indexes keyed by integer
// correlation columns). It does what chainIndex does without building a
// byte-string key per row or hashing through a Go map: one 64-bit hash per
// row, a power-of-two bucket array of chain heads, and a per-row next link;
// candidates are compared column by column.
// A NULL in a column equals only a NULL (the callers leave NULLs only in
// IS NOT DISTINCT FROM columns).
type tupleIndex struct {
	kb    *keyBatch
	cols  []int
	mask  uint64
	heads []int32 // bucket -> 1 + first row of its chain, 0 = empty
	next  []int32 // row -> 1 + next row of its bucket's chain, 0 = end
}

// tupleIndexFits reports whether every column in cols is int-encoded.
func tupleIndexFits(kb *keyBatch, cols []int) bool {
	for _, c := range cols {
		if kb.cols[c].Ints == nil {
			return false
		}
	}
	return true
}

// newTupleIndex indexes rows (nil = all rows of kb) by cols.
func newTupleIndex(kb *keyBatch, cols []int, rows []int32) *tupleIndex {
	n := kb.n
	if rows != nil {
		n = len(rows)
	}
	nb := 1
	for nb < n {
		nb <<= 1 // load at most 1: chains stay short, the arrays small
	}
	// Links are stored +1 so that the zeroed arrays mean "empty".
	ix := &tupleIndex{kb: kb, cols: cols, mask: uint64(nb - 1), heads: make([]int32, nb), next: make([]int32, kb.n)}
	add := func(r int32) {
		b := hashTuple(kb, cols, int(r)) & ix.mask
		ix.next[r] = ix.heads[b]
		ix.heads[b] = r + 1
	}
	// Insert in reverse so each chain lists rows in ascending order.
	if rows == nil {
		for r := kb.n - 1; r >= 0; r-- {
			add(int32(r))
		}
	} else {
		for i := len(rows) - 1; i >= 0; i-- {
			add(rows[i])
		}
	}
	return ix
}

// hashTuple mixes row i's values of cols (NULL as a fixed value).
func hashTuple(kb *keyBatch, cols []int, i int) uint64 {
	h := uint64(0x9E3779B97F4A7C15)
	for _, c := range cols {
		k := &kb.cols[c]
		v := uint64(k.Ints[i])
		if k.Null(i) {
			v = 0x6a09e667f3bcc908
		}
		h = fmix64(h ^ v + 0x9E3779B97F4A7C15)
	}
	return h
}

func fmix64(h uint64) uint64 {
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xc4ceb9fe1a85ec53
	h ^= h >> 33
	return h
}

// sameKey reports whether probe row p of pk equals build row r on cols.
func (ix *tupleIndex) sameKey(pk *keyBatch, p int, r int) bool {
	for _, c := range ix.cols {
		a, b := &pk.cols[c], &ix.kb.cols[c]
		an, bn := a.Null(p), b.Null(r)
		if an != bn || !an && a.Ints[p] != b.Ints[r] {
			return false
		}
	}
	return true
}

func (ix *tupleIndex) probe(kb *keyBatch, sel []int32, pb *pairBuf) bool {
	// pb.cur is the next chain entry to examine (+1 encoded, so 0 = chain
	// done), or -1 before the row's chain was looked up.
	for pb.pos < len(sel) {
		p := sel[pb.pos]
		if pb.cur < 0 {
			pb.cur = ix.heads[hashTuple(kb, ix.cols, int(p))&ix.mask]
		}
		for pb.cur > 0 {
			r := pb.cur - 1
			if ix.sameKey(kb, int(p), int(r)) {
				if len(pb.probe) >= pb.cap {
					return false // resume at r
				}
				pb.probe = append(pb.probe, p)
				pb.build = append(pb.build, r)
			}
			pb.cur = ix.next[r]
		}
		pb.cur = -1
		pb.pos++
	}
	pb.pos, pb.cur = 0, -1
	return true
}

func (ix *tupleIndex) kernelName() string { return "hash-int-tuple" }
func (ix *tupleIndex) bytes() int64 {
	return int64(len(ix.heads))*4 + int64(len(ix.next))*4
}

// newKeyIndex indexes rows (nil = all) of kb by cols: integer tuples in a
// tupleIndex, anything else in a chainIndex.
func newKeyIndex(kb *keyBatch, cols []int, rows []int32) index {
	if tupleIndexFits(kb, cols) && forceIndex != "chain" {
		return newTupleIndex(kb, cols, rows)
	}
	return newChainIndex(kb, cols, rows)
}
