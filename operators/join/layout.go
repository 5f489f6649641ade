package join

import (
	"unsafe"

	"github.com/joind/joind/operators"
	"github.com/joind/joind/operators/hashtable"
)

// The key layout of a join whose key is not one int-like column: several
// columns, text, numeric, interval, or IS NOT DISTINCT FROM keys. It is
// chosen once per build (newKeyLayoutIndex) and is the one place the build
// and probe code ask how keys are laid out:
//
//   - packed: every key column is fixed-width (operators.IntKey) and the
//     build side's values span at most 2^62 combinations: each row packs
//     into one int64 (operators.KeyPacker), which the single-int-key
//     indexes take as is — the dense index when the packed values are
//     dense, else the Swiss table. Exact: no confirmation.
//   - hashed: the columns are hashed one after the other into one 64-bit
//     hash per row (operators.HashKeys), the Swiss table holds the hash with
//     its duplicate lists, the probe kernel finds candidate build rows a
//     batch at a time, and candidates are confirmed column by column
//     against the build side's key columns (KeyCol.EqualRows), which point
//     into the build's Arrow buffers: no per-row encoding, no key copy.
//
// chainIndex (tuple.go) remains for the NULL-aware side indexes, which are
// small and built per scope.

// newKeyLayoutIndex indexes the rows (nil = all) of kb by cols; nullsEq
// marks the columns where NULL equals NULL (rows outside rows hold a NULL
// in another column).
func newKeyLayoutIndex(kb *keyBatch, cols []int, nullsEq []bool, rows []int32) (index, error) {
	switch forceIndex {
	case "chain":
		return newChainIndex(kb, cols, rows), nil
	case "hashed":
		return newHashIndex(kb, cols, rows)
	}
	anyNullsEq := false
	for _, c := range cols {
		anyNullsEq = anyNullsEq || nullsEq[c]
	}
	if !anyNullsEq {
		if p, ok := operators.NewKeyPacker(kb.cols, cols, kb.n); ok {
			return newPackedIndex(kb, cols, p)
		}
	}
	return newHashIndex(kb, cols, rows)
}

// packedIndex is a single-int-key index over the packed keys.
type packedIndex struct {
	p     *operators.KeyPacker
	cols  []int
	inner index
}

func newPackedIndex(kb *keyBatch, cols []int, p *operators.KeyPacker) (*packedIndex, error) {
	pk := &keyBatch{n: kb.n, cols: make([]keyCol, 1)}
	p.Pack(kb.cols, cols, kb.n, &pk.cols[0])
	ix := &packedIndex{p: p, cols: cols}
	k := &pk.cols[0]
	if lo, span, ok := denseSpan(k.Ints, k.Nulls); ok && forceIndex != "swiss" {
		ix.inner = newDenseIndex(k.Ints, k.Nulls, lo, span)
		return ix, nil
	}
	si, err := newSwissIndex(pk, 0)
	if err != nil {
		return nil, err
	}
	ix.inner = si
	return ix, nil
}

func (ix *packedIndex) probe(kb *keyBatch, sel []int32, pb *pairBuf) bool {
	if !pb.pvalid {
		// Once per batch: the calls that resume it pass the same rows.
		if pb.pkb == nil {
			pb.pkb = &keyBatch{cols: make([]keyCol, 1)}
		}
		pb.pkb.n = kb.n
		ix.p.Pack(kb.cols, ix.cols, kb.n, &pb.pkb.cols[0])
		pb.pvalid = true
	}
	done := ix.inner.probe(pb.pkb, sel, pb)
	if done {
		pb.pvalid = false
	}
	return done
}

func (ix *packedIndex) kernelName() string { return "packed/" + ix.inner.kernelName() }
func (ix *packedIndex) bytes() int64       { return ix.inner.bytes() }

// hashIndex is the Swiss table keyed by the rows' hashes, confirming
// candidates against the build side's key columns.
type hashIndex struct {
	t    *hashtable.Int64Table
	kb   *keyBatch
	cols []int
}

func newHashIndex(kb *keyBatch, cols []int, rows []int32) (*hashIndex, error) {
	h := kb.hashes(cols, nil)
	var valid []bool
	if rows != nil {
		valid = make([]bool, kb.n)
		for _, r := range rows {
			valid[r] = true
		}
	}
	t := hashtable.NewInt64(kb.n)
	if err := t.AppendSlice(hashKeys(h), valid); err != nil {
		return nil, err
	}
	t.Finish()
	return &hashIndex{t: t, kb: kb, cols: cols}, nil
}

// hashKeys views hashes as the table's int64 keys.
func hashKeys(h []uint64) []int64 {
	return unsafe.Slice((*int64)(unsafe.Pointer(unsafe.SliceData(h))), len(h))
}

func (ix *hashIndex) probe(kb *keyBatch, sel []int32, pb *pairBuf) bool {
	if pb.ht == nil {
		pb.ht = hashtable.NewMatches(pb.cap)
	}
	if sel == nil {
		sel = []int32{} // nil would mean "every row" to the table
	}
	if !pb.hvalid {
		// Once per batch: the calls that resume it pass the same rows.
		pb.hbuf, pb.hvalid = kb.hashes(ix.cols, pb.hbuf), true
	}
	keys := hashKeys(pb.hbuf)
	for {
		done := ix.t.Probe(keys, sel, pb.ht)
		start := len(pb.probe)
		pb.probe = append(pb.probe, pb.ht.ProbeRows...)
		for _, b := range pb.ht.BuildRows {
			pb.build = append(pb.build, int32(b))
		}
		ix.confirm(kb, pb, start)
		if done {
			pb.hvalid = false
			return true
		}
		if len(pb.probe) > start {
			return false
		}
	}
}

// confirm keeps the candidate pairs from start on whose keys are equal.
func (ix *hashIndex) confirm(kb *keyBatch, pb *pairBuf, start int) {
	ps, bs := pb.probe[start:], pb.build[start:]
	if len(ps) == 0 {
		return
	}
	if cap(pb.keep) < len(ps) {
		pb.keep = make([]bool, len(ps))
	}
	keep := pb.keep[:len(ps)]
	for i := range keep {
		keep[i] = true
	}
	for _, c := range ix.cols {
		kb.cols[c].EqualRows(ps, &ix.kb.cols[c], bs, keep)
	}
	n := start
	for i, k := range keep {
		pb.probe[n], pb.build[n] = ps[i], bs[i]
		if k {
			n++
		}
	}
	pb.probe, pb.build = pb.probe[:n], pb.build[:n]
}

func (ix *hashIndex) kernelName() string { return "swiss-hash/" + ix.t.Kernel() }
func (ix *hashIndex) bytes() int64       { return ix.t.Groups() * 128 }
