package join

import (
	"github.com/joind/joind/operators/hashtable"
)

// hashIndex indexes build rows by the hash of their key columns in the
// Swiss table: composite keys, one key that is not int-like (text,
// numeric, interval), and the NULL-aware side indexes keyed by correlation
// columns. The table maps each row's 64-bit hash (operators.HashKeys: the
// shared encoding and hash family) to its rows; a probe takes the
// candidates of a batch's hashes from the table's kernel and keeps the
// pairs whose keys are equal column by column, which also drops the rare
// different keys colliding on all 64 bits. A NULL in a column equals only a
// NULL (the callers leave NULLs only in IS NOT DISTINCT FROM columns).
type hashIndex struct {
	t    *hashtable.Int64Table
	kb   *keyBatch
	cols []int
	rows []int32 // table row id → build row; nil: the same
}

// newHashIndex indexes rows (nil = all rows of kb) by cols.
func newHashIndex(kb *keyBatch, cols []int, rows []int32) (*hashIndex, error) {
	h := kb.hashes(cols, nil)
	var keys []int64
	if rows == nil {
		keys = make([]int64, kb.n)
		for i, x := range h {
			keys[i] = int64(x)
		}
	} else {
		keys = make([]int64, len(rows))
		for i, r := range rows {
			keys[i] = int64(h[r])
		}
	}
	t := hashtable.NewInt64(len(keys))
	if err := t.AppendSlice(keys, nil); err != nil {
		return nil, err
	}
	t.Finish()
	return &hashIndex{t: t, kb: kb, cols: cols, rows: rows}, nil
}

// sameKey reports whether probe row p of pk equals build row r on cols.
func (ix *hashIndex) sameKey(pk *keyBatch, p int, r int) bool {
	for _, c := range ix.cols {
		a, b := &pk.cols[c], &ix.kb.cols[c]
		an, bn := a.Null(p), b.Null(r)
		if an != bn || !an && !a.Equal(p, b, r) {
			return false
		}
	}
	return true
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
		h := kb.hashes(ix.cols, pb.hbuf)
		pb.hbuf = h
		if cap(pb.hkeys) < len(h) {
			pb.hkeys = make([]int64, len(h))
		}
		pb.hkeys = pb.hkeys[:len(h)]
		for i, x := range h {
			pb.hkeys[i] = int64(x)
		}
		pb.hvalid = true
	}
	done := ix.t.Probe(pb.hkeys, sel, pb.ht)
	if done {
		pb.hvalid = false
	}
	for i, p := range pb.ht.ProbeRows {
		r := int32(pb.ht.BuildRows[i])
		if ix.rows != nil {
			r = ix.rows[r]
		}
		if ix.sameKey(kb, int(p), int(r)) {
			pb.probe = append(pb.probe, p)
			pb.build = append(pb.build, r)
		}
	}
	return done
}

func (ix *hashIndex) kernelName() string { return "swiss-hash/" + ix.t.Kernel() }
func (ix *hashIndex) bytes() int64 {
	return ix.t.Groups()*128 + int64(len(ix.rows))*4 + ix.t.Rows()*4
}

// newKeyIndex indexes rows (nil = all) of kb by cols in a hashIndex.
func newKeyIndex(kb *keyBatch, cols []int, rows []int32) (index, error) {
	return newHashIndex(kb, cols, rows)
}
