package join

import (
	"math/bits"
	"slices"
)

// denseIndex is a perfect-hash index for a single int64-encoded key whose
// non-NULL values span a small range [min, min+span): a bitmap with one bit
// per value in the range, a running count of set bits per 64-bit word (so a
// key's rank among the distinct keys costs one popcount), and the build rows
// by rank. It replaces the Swiss table when the span is at most a small
// multiple of the build rows: then the bitmap is smaller than the table's
// groups, a probe is a bit test in a structure that mostly stays in cache,
// and ascending probe keys read it sequentially.
type denseIndex struct {
	min   int64
	span  uint64   // number of values covered: keys min .. min+span-1
	words []uint64 // bit k-min set: some build row has key k
	rank  []uint32 // set bits in words[:w]
	// Build rows by rank: unique keys keep one row per rank in rowOf (nil
	// when the keys ascend, so that the rank is the row); duplicate keys
	// keep rows[start[r]:start[r+1]] (ascending) instead.
	rowOf  []int32
	start  []int32
	rows   []int32
	unique bool
}

// denseMaxSpanPerRow bounds span/rows for a dense index: at 32 bits per
// build row the bitmap and ranks stay below the Swiss table's ~32 bytes per
// row.
const (
	denseMaxSpanPerRow = 32
	denseMinSpan       = 1 << 16 // any span this small is cheap
	denseMaxSpan       = 1 << 32 // ranks are uint32
)

// denseSpan returns the range of the non-NULL keys and whether a dense index
// fits it (nonNull rows, span within the bounds above).
func denseSpan(ints []int64, nulls []bool) (lo int64, span uint64, ok bool) {
	nonNull := 0
	var hi int64
	for i, v := range ints {
		if nulls != nil && nulls[i] {
			continue
		}
		if nonNull == 0 || v < lo {
			lo = v
		}
		if nonNull == 0 || v > hi {
			hi = v
		}
		nonNull++
	}
	if nonNull == 0 {
		return 0, 0, false
	}
	diff := uint64(hi) - uint64(lo) // exact even when hi-lo overflows int64
	if diff >= denseMaxSpan {
		return 0, 0, false
	}
	span = diff + 1
	if span > denseMinSpan && span/uint64(nonNull) > denseMaxSpanPerRow {
		return 0, 0, false
	}
	return lo, span, true
}

func newDenseIndex(ints []int64, nulls []bool, lo int64, span uint64) *denseIndex {
	nw := (span + 63) / 64
	ix := &denseIndex{min: lo, span: span, words: make([]uint64, nw), rank: make([]uint32, nw)}
	nonNull := 0
	// Set the bits, keeping the current word in a register while the keys
	// stay in it (ascending keys touch each word several times in a row).
	cur, acc := uint64(0), uint64(0)
	sorted := nulls == nil // ascending, no NULLs: rank = row
	prev := lo - 1
	for i, v := range ints {
		if nulls != nil && nulls[i] {
			continue
		}
		if v <= prev && i > 0 {
			sorted = false
		}
		prev = v
		d := uint64(v - lo)
		if w := d >> 6; w != cur {
			ix.words[cur] |= acc
			cur, acc = w, 0
		}
		acc |= 1 << (d & 63)
		nonNull++
	}
	ix.words[cur] |= acc
	var total uint32
	for w, x := range ix.words {
		ix.rank[w] = total
		total += uint32(bits.OnesCount64(x))
	}
	distinct := int(total)
	ix.unique = distinct == nonNull
	if ix.unique {
		if sorted {
			return ix // rowOf nil: the rank is the row
		}
		ix.rowOf = make([]int32, distinct)
		for i, v := range ints {
			if nulls != nil && nulls[i] {
				continue
			}
			ix.rowOf[ix.rankOf(uint64(v-lo))] = int32(i)
		}
		return ix
	}
	// Counting sort of the rows by rank; rows stay ascending within a key.
	ix.start = make([]int32, distinct+1)
	for i, v := range ints {
		if nulls != nil && nulls[i] {
			continue
		}
		ix.start[ix.rankOf(uint64(v-lo))+1]++
	}
	for r := 1; r <= distinct; r++ {
		ix.start[r] += ix.start[r-1]
	}
	fill := make([]int32, distinct)
	ix.rows = make([]int32, nonNull)
	for i, v := range ints {
		if nulls != nil && nulls[i] {
			continue
		}
		r := ix.rankOf(uint64(v - lo))
		ix.rows[ix.start[r]+fill[r]] = int32(i)
		fill[r]++
	}
	return ix
}

// rankOf is the number of distinct keys below offset d (d's key is present).
func (ix *denseIndex) rankOf(d uint64) uint32 {
	w := d >> 6
	return ix.rank[w] + uint32(bits.OnesCount64(ix.words[w]&(1<<(d&63)-1)))
}

// has reports whether key k has build rows, and its offset.
func (ix *denseIndex) has(k int64) (uint64, bool) {
	d := uint64(k - ix.min)
	if d >= ix.span {
		return 0, false
	}
	return d, ix.words[d>>6]&(1<<(d&63)) != 0
}

// matches is the build rows of the key at offset d (present).
func (ix *denseIndex) matches(d uint64) []int32 {
	r := ix.rankOf(d)
	if ix.unique {
		if ix.rowOf == nil {
			return []int32{int32(r)}
		}
		return ix.rowOf[r : r+1]
	}
	return ix.rows[ix.start[r]:ix.start[r+1]]
}

func (ix *denseIndex) probe(kb *keyBatch, sel []int32, pb *pairBuf) bool {
	keys := kb.cols[0].Ints
	if ix.unique {
		// One row per key: no resume inside a key's rows. Each round takes
		// as many probe rows as there is room for pairs, compacts the hits
		// without a data-dependent branch (a hit advances the write index),
		// then looks up their build rows.
		lo, span, words, rowOf := ix.min, ix.span, ix.words, ix.rowOf
		pos, probe, build := pb.pos, pb.probe, pb.build
		for pos < len(sel) {
			start := len(probe)
			chunk := min(pb.cap-start, len(sel)-pos)
			if chunk <= 0 {
				break
			}
			probe = slices.Grow(probe, chunk)[:start+chunk]
			k := start
			for _, p := range sel[pos : pos+chunk] {
				d := uint64(keys[p] - lo)
				hit := 0
				if d < span {
					hit = int(words[d>>6] >> (d & 63) & 1)
				}
				probe[k] = p
				k += hit
			}
			probe = probe[:k]
			pos += chunk
			for _, p := range probe[start:k] {
				r := int32(ix.rankOf(uint64(keys[p] - lo)))
				if rowOf != nil {
					r = rowOf[r]
				}
				build = append(build, r)
			}
		}
		pb.probe, pb.build = probe, build
		if pos < len(sel) {
			pb.pos = pos
			return false
		}
		pb.pos, pb.cur = 0, -1
		return true
	}
	for pb.pos < len(sel) {
		p := sel[pb.pos]
		d, ok := ix.has(keys[p])
		if !ok {
			pb.pos++
			continue
		}
		ms := ix.matches(d)
		start := 0
		if pb.cur >= 0 {
			start = int(pb.cur)
		}
		for i := start; i < len(ms); i++ {
			if len(pb.probe) >= pb.cap {
				pb.cur = int32(i)
				return false
			}
			pb.probe = append(pb.probe, p)
			pb.build = append(pb.build, ms[i])
		}
		pb.cur = -1
		pb.pos++
	}
	pb.pos, pb.cur = 0, -1
	return true
}

func (ix *denseIndex) contains(keys []int64, sel []int32, hit []bool, _ *pairBuf) {
	if sel == nil {
		for i, k := range keys {
			_, hit[i] = ix.has(k)
		}
		return
	}
	for _, p := range sel {
		_, hit[p] = ix.has(keys[p])
	}
}

func (ix *denseIndex) countHits(keys []int64, sel []int32, _ *pairBuf) int64 {
	var c int64
	lo, span, words := ix.min, ix.span, ix.words
	if sel == nil {
		for _, k := range keys {
			d := uint64(k - lo)
			if d < span {
				c += int64(words[d>>6] >> (d & 63) & 1)
			}
		}
		return c
	}
	for _, p := range sel {
		d := uint64(keys[p] - lo)
		if d < span {
			c += int64(words[d>>6] >> (d & 63) & 1)
		}
	}
	return c
}

func (ix *denseIndex) countMatches(keys []int64, sel []int32, _ *pairBuf) int64 {
	var c int64
	if ix.unique {
		return ix.countHits(keys, sel, nil) // one row per present key
	}
	add := func(k int64) {
		if d, ok := ix.has(k); ok {
			r := ix.rankOf(d)
			c += int64(ix.start[r+1] - ix.start[r])
		}
	}
	if sel == nil {
		for _, k := range keys {
			add(k)
		}
		return c
	}
	for _, p := range sel {
		add(keys[p])
	}
	return c
}

func (ix *denseIndex) kernelName() string { return "dense-int64" }

func (ix *denseIndex) bytes() int64 {
	return int64(len(ix.words))*12 + int64(len(ix.rowOf)+len(ix.start)+len(ix.rows))*4
}

// forceIndex, set by tests only, overrides the index choice: "swiss" for a
// single int key even where a dense index fits (and under packed keys),
// "chain" for the chained index and "hashed" for the hashed key layout on
// every key of several columns or another type ("" = choose).
var forceIndex string
