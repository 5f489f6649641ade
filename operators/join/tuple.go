package join

// chainIndex indexes build rows by the hash of their key columns: the
// NULL-aware side indexes keyed by correlation columns, which are built
// per join on subsets of the build rows (the main index of other keys is a
// key layout, layout.go). Each row's 64-bit hash (operators.HashKeys: the
// shared key encoding and hash family) picks a bucket of a power-of-two
// array of chain heads; a per-row next link chains the rest, and
// candidates are compared column by column, which also drops different
// keys that share a bucket. It is built in two passes over arrays of 4
// bytes per slot, so building stays cheap. A NULL in a column equals only
// a NULL (the callers leave NULLs only in IS NOT DISTINCT FROM columns).
type chainIndex struct {
	kb    *keyBatch
	cols  []int
	shift uint    // bucket = hash >> shift
	heads []int32 // bucket -> 1 + first row of its chain, 0 = empty
	next  []int32 // row -> 1 + next row of its bucket's chain, 0 = end
}

// newChainIndex indexes rows (nil = all rows of kb) by cols.
func newChainIndex(kb *keyBatch, cols []int, rows []int32) *chainIndex {
	n := kb.n
	if rows != nil {
		n = len(rows)
	}
	lg := 0
	for 1<<lg < n {
		lg++ // load at most 1: chains stay short, the arrays small
	}
	h := kb.hashes(cols, nil)
	// Links are stored +1 so that the zeroed arrays mean "empty".
	ix := &chainIndex{kb: kb, cols: cols, shift: uint(64 - lg), heads: make([]int32, 1<<lg), next: make([]int32, kb.n)}
	add := func(r int32) {
		b := h[r] >> ix.shift
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

// sameKey reports whether probe row p of pk equals build row r on cols.
func (ix *chainIndex) sameKey(pk *keyBatch, p int, r int) bool {
	for _, c := range ix.cols {
		a, b := &pk.cols[c], &ix.kb.cols[c]
		an, bn := a.Null(p), b.Null(r)
		if an != bn || !an && !a.Equal(p, b, r) {
			return false
		}
	}
	return true
}

func (ix *chainIndex) probe(kb *keyBatch, sel []int32, pb *pairBuf) bool {
	if !pb.hvalid {
		// Once per batch: the calls that resume it pass the same rows.
		pb.hbuf, pb.hvalid = kb.hashes(ix.cols, pb.hbuf), true
	}
	h := pb.hbuf
	// pb.cur is the next chain entry to examine (+1 encoded, so 0 = chain
	// done), or -1 before the row's chain was looked up.
	for pb.pos < len(sel) {
		p := sel[pb.pos]
		if pb.cur < 0 {
			pb.cur = ix.heads[h[p]>>ix.shift]
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
	pb.pos, pb.cur, pb.hvalid = 0, -1, false
	return true
}

func (ix *chainIndex) kernelName() string { return "hash-chain" }
func (ix *chainIndex) bytes() int64 {
	return int64(len(ix.heads))*4 + int64(len(ix.next))*4
}

// newKeyIndex indexes rows (nil = all) of kb by cols in a chainIndex.
func newKeyIndex(kb *keyBatch, cols []int, rows []int32) index {
	return newChainIndex(kb, cols, rows)
}
