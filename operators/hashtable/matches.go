package hashtable

import (
	"math/bits"
	"sync/atomic"
	"unsafe"
)

// chunkRows is how many probe keys one kernel call covers.
const chunkRows = 1024

// Matches receives (probe row, build row) pairs from Probe and holds the
// per-prober scratch and resume state. One Matches per goroutine.
type Matches struct {
	// ProbeRows[i] and BuildRows[i] are the i-th match of the last Probe
	// call. Probe rows index the probe batch; build rows are build row ids.
	ProbeRows []int32
	BuildRows []uint32

	capacity int

	// kernel scratch
	hashes []uint64
	res    []uint32
	eq     []bool
	brow   []uint32
	prow   []int32
	nnSel  []int32 // selection with NULL probe keys removed

	// resume state for the current batch
	active   bool
	keysPtr  unsafe.Pointer
	keysLen  int
	sel      []int32 // nil = all rows
	total    int     // rows to probe in this batch
	pos      int     // next logical row to hand to the kernel
	chunkBeg int     // logical index of res[0]
	chunkLen int
	ci       int    // next entry of res to expand
	dupPos   uint32 // progress inside the current duplicate list
}

// NewMatches returns a Matches that emits at most capacity pairs per Probe
// call (capacity <= 0 means 1024).
func NewMatches(capacity int) *Matches {
	if capacity <= 0 {
		capacity = 1024
	}
	return &Matches{
		ProbeRows: make([]int32, 0, capacity),
		BuildRows: make([]uint32, 0, capacity),
		capacity:  capacity,
		hashes:    make([]uint64, chunkRows),
		res:       make([]uint32, chunkRows),
	}
}

// Reset abandons the current batch, if any: the next Probe starts afresh.
func (m *Matches) Reset() {
	m.active = false
	m.ProbeRows = m.ProbeRows[:0]
	m.BuildRows = m.BuildRows[:0]
}

// Len is the number of pairs from the last Probe call.
func (m *Matches) Len() int { return len(m.ProbeRows) }

// begin starts or continues a batch. It panics if a different batch is
// passed before the previous one finished (call Reset to abandon one).
func (m *Matches) begin(keysPtr unsafe.Pointer, keysLen int, sel []int32) {
	m.ProbeRows = m.ProbeRows[:0]
	m.BuildRows = m.BuildRows[:0]
	if m.active {
		if keysPtr != m.keysPtr || keysLen != m.keysLen || len(sel) != len(m.sel) || (sel == nil) != (m.sel == nil) {
			panic("hashtable: Probe called with a new batch before the previous one returned done (call Matches.Reset)")
		}
		return
	}
	m.active = true
	m.keysPtr, m.keysLen, m.sel = keysPtr, keysLen, sel
	if sel == nil {
		m.total = keysLen
	} else {
		m.total = len(sel)
	}
	m.pos, m.chunkBeg, m.chunkLen, m.ci, m.dupPos = 0, 0, 0, 0, 0
}

// row returns the probe row of logical index i.
func (m *Matches) row(i int) int32 {
	if m.sel == nil {
		return int32(i)
	}
	return m.sel[i]
}

// payload is the build-row side shared by both table kinds.
type payload struct {
	dupStart []uint32
	dupRows  []uint32
}

// expand turns kernel results into pairs until out is full or the batch
// ends; fill runs the kernel on the next chunk [pos, pos+n). It reports
// whether the batch is done.
func (m *Matches) expand(p *payload, fill func(pos, n int)) bool {
	capLeft := m.capacity
	for {
		if m.ci == m.chunkLen {
			if m.pos == m.total {
				m.active = false
				return true
			}
			if capLeft == 0 {
				return false
			}
			n := min(chunkRows, m.total-m.pos)
			fill(m.pos, n)
			m.chunkBeg, m.chunkLen, m.ci, m.dupPos = m.pos, n, 0, 0
			m.pos += n
		}
		res := m.res[:m.chunkLen]
		if capLeft >= len(res)-m.ci {
			// Fast path: the rest of the chunk fits. Singletons and misses
			// are written without a branch on hit/miss; a duplicate list
			// drops to the general loop below.
			before := len(m.ProbeRows)
			m.fastExpand(res)
			capLeft -= len(m.ProbeRows) - before
		}
		for m.ci < len(res) {
			v := res[m.ci]
			if v == notFound {
				m.ci++
				continue
			}
			if capLeft == 0 {
				return false
			}
			pr := m.row(m.chunkBeg + m.ci)
			if v&dupFlag == 0 {
				m.ProbeRows = append(m.ProbeRows, pr)
				m.BuildRows = append(m.BuildRows, v)
				capLeft--
				m.ci++
				continue
			}
			e := v &^ dupFlag
			list := p.dupRows[p.dupStart[e]+m.dupPos : p.dupStart[e+1]]
			take := min(len(list), capLeft)
			for _, b := range list[:take] {
				m.ProbeRows = append(m.ProbeRows, pr)
				m.BuildRows = append(m.BuildRows, b)
			}
			capLeft -= take
			if take < len(list) {
				m.dupPos += uint32(take)
				return false
			}
			m.dupPos = 0
			m.ci++
		}
	}
}

// fastExpand appends pairs for res[m.ci:] until the end or the first
// duplicate-list value. The caller guarantees the capacity.
func (m *Matches) fastExpand(res []uint32) {
	n := len(m.ProbeRows)
	need := n + len(res) - m.ci
	if cap(m.ProbeRows) < need {
		m.ProbeRows = append(m.ProbeRows[:n], make([]int32, need-n)...)
		m.BuildRows = append(m.BuildRows[:n], make([]uint32, need-n)...)
	}
	pr := m.ProbeRows[:need]
	br := m.BuildRows[:need]
	ci := m.ci
	if m.sel == nil {
		base := int32(m.chunkBeg)
		for ; ci < len(res); ci++ {
			v := res[ci]
			if v&dupFlag != 0 && v != notFound {
				break
			}
			pr[n] = base + int32(ci)
			br[n] = v
			n += int(1 - (uint64(v)+1)>>32) // +1 unless v == notFound
		}
	} else {
		sel := m.sel[m.chunkBeg:]
		for ; ci < len(res); ci++ {
			v := res[ci]
			if v&dupFlag != 0 && v != notFound {
				break
			}
			pr[n] = sel[ci]
			br[n] = v
			n += int(1 - (uint64(v)+1)>>32)
		}
	}
	m.ci = ci
	m.ProbeRows = pr[:n]
	m.BuildRows = br[:n]
}

// MatchedBits is one bit per build row, set when the row found a partner.
// Several probers may Set concurrently (atomic OR); read it with Test or
// ForEachUnset only after every prober has finished (the join's barrier
// supplies the happens-before edge).
type MatchedBits struct {
	words []uint64
	n     int64
}

// NewMatchedBits returns bits for rows build rows (see Rows()).
func NewMatchedBits(rows int64) *MatchedBits {
	return &MatchedBits{words: make([]uint64, (uint64(rows)+63)>>6), n: rows}
}

// Set marks each build row in rows. Words already fully set are not written
// again, so hot keys do not bounce a cache line between cores.
func (b *MatchedBits) Set(rows []uint32) {
	for _, r := range rows {
		w := &b.words[uint64(r)>>6]
		bit := uint64(1) << (r & 63)
		if atomic.LoadUint64(w)&bit == 0 {
			atomic.OrUint64(w, bit)
		}
	}
}

// Test reports whether build row r is marked.
func (b *MatchedBits) Test(r uint32) bool {
	return atomic.LoadUint64(&b.words[uint64(r)>>6])&(1<<(r&63)) != 0
}

// Count returns the number of marked rows.
func (b *MatchedBits) Count() int64 {
	var c int
	for i := range b.words {
		c += bits.OnesCount64(atomic.LoadUint64(&b.words[i]))
	}
	return int64(c)
}

// AppendUnset appends to dst the build rows in [from, to) that are not
// marked, for right/full outer and right anti joins. Rows whose key was
// NULL are never marked, so they are reported here too, as SQL requires.
func (b *MatchedBits) AppendUnset(dst []uint32, from, to int64) []uint32 {
	if to > b.n {
		to = b.n
	}
	for r := from; r < to; r++ {
		w := atomic.LoadUint64(&b.words[uint64(r)>>6])
		if w == ^uint64(0) && r&63 == 0 && r+64 <= to {
			r += 63
			continue
		}
		if w&(1<<(uint64(r)&63)) == 0 {
			dst = append(dst, uint32(r))
		}
	}
	return dst
}
