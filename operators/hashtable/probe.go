package hashtable

import (
	"runtime"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow/array"
)

func slicePtr[T any](s []T) unsafe.Pointer {
	if cap(s) == 0 {
		return nil
	}
	return unsafe.Pointer(unsafe.SliceData(s))
}

// Probe looks up keys[sel[i]] (every row when sel is nil) and appends to
// out up to its capacity of (probe row, build row) pairs. It returns true
// when the batch is exhausted; otherwise call Probe again with the same
// arguments to get the next chunk (a key with a huge fan-out is emitted
// across several calls). A call may return zero pairs. The table must be
// finished.
func (t *Int64Table) Probe(keys []int64, sel []int32, out *Matches) bool {
	if !t.finished {
		panic("hashtable: Probe before Finish")
	}
	out.begin(slicePtr(keys), len(keys), sel)
	p := payload{t.dupStart, t.dupRows}
	done := out.expand(&p, func(pos, n int) {
		if sel == nil {
			t.find(&t.view, keys[pos:pos+n], nil, n, out.hashes, out.res)
		} else {
			t.find(&t.view, keys, sel[pos:pos+n], n, out.hashes, out.res)
		}
	})
	runtime.KeepAlive(t)
	return done
}

// ProbeArrow is Probe over an Arrow column: NULL probe keys never match.
func (t *Int64Table) ProbeArrow(keys *array.Int64, sel []int32, out *Matches) bool {
	vals := keys.Int64Values()
	if keys.NullN() == 0 {
		return t.Probe(vals, sel, out)
	}
	if !out.active {
		out.nnSel = nonNullSel(keys, sel, out.nnSel[:0])
	}
	return t.Probe(vals, out.nnSel, out)
}

// nonNullSel appends to dst the rows of sel (all rows when nil) whose
// value is not NULL.
func nonNullSel(a interface{ IsValid(int) bool }, sel []int32, dst []int32) []int32 {
	// Note: a non-nil empty slice so that "no rows" is not read as "all rows".
	if dst == nil {
		dst = make([]int32, 0, 64)
	}
	if sel == nil {
		n := a.(interface{ Len() int }).Len()
		for i := range n {
			if a.IsValid(i) {
				dst = append(dst, int32(i))
			}
		}
		return dst
	}
	for _, r := range sel {
		if a.IsValid(int(r)) {
			dst = append(dst, r)
		}
	}
	return dst
}

// Contains sets hit[row] = true for each probed row (keys[sel[i]], or every
// row when sel is nil) whose key is in the table, and false for the others;
// rows outside sel are left alone. This is the semi/anti/mark join probe:
// one answer per probe row, no pairs. scratch supplies kernel buffers.
func (t *Int64Table) Contains(keys []int64, sel []int32, hit []bool, scratch *Matches) {
	if !t.finished {
		panic("hashtable: Probe before Finish")
	}
	total := len(keys)
	if sel != nil {
		total = len(sel)
	}
	for pos := 0; pos < total; pos += chunkRows {
		n := min(chunkRows, total-pos)
		if sel == nil {
			t.find(&t.view, keys[pos:pos+n], nil, n, scratch.hashes, scratch.res)
			for i, v := range scratch.res[:n] {
				hit[pos+i] = v != notFound
			}
		} else {
			s := sel[pos : pos+n]
			t.find(&t.view, keys, s, n, scratch.hashes, scratch.res)
			for i, v := range scratch.res[:n] {
				hit[s[i]] = v != notFound
			}
		}
	}
	runtime.KeepAlive(t)
}

// BuildRowsOf appends to dst the build rows holding key k (a convenience
// for tests and for callers outside a batch loop; not the hot path).
func (t *Int64Table) BuildRowsOf(k int64, dst []uint32) []uint32 {
	h := hashInt64(k, t.view.seed)
	v := probeOne(t.view.groups, t.view.mask, t.view.groupOf(h), uint8(h&tagMask)|ctrlFull, k)
	return appendPayload(&payload{t.dupStart, t.dupRows}, v, dst)
}

func appendPayload(p *payload, v uint32, dst []uint32) []uint32 {
	switch {
	case v == notFound:
		return dst
	case v&dupFlag == 0:
		return append(dst, v)
	}
	e := v &^ dupFlag
	return append(dst, p.dupRows[p.dupStart[e]:p.dupStart[e+1]]...)
}
