package join

// keyFilter is a blocked Bloom filter over the build keys of a Swiss-table
// join: one 64-bit word per key picked by the hash's top bits, two bits set
// in it. At 8 bits per key it is about an eighth of the table's 32 bytes
// per key, so it stays in cache where the table does not; a probe key it
// rejects (about 95% of absent keys) never touches the table. A stream
// stops consulting it when most of its keys pass, since then it only adds
// work.
type keyFilter struct {
	words []uint64
	shift uint64 // word = hash >> shift
}

const filterBitsPerKey = 8

// Variables so that tests can put the filter on small tables.
var (
	filterMinKeys int64 = 1 << 16 // smaller tables stay in cache anyway
	filterSample  int64 = 1 << 16 // probe rows seen before judging the filter
)

// filterHash is one multiplication: the word comes from the product's top
// bits and the two bit positions from the bits just below them, which a
// multiply mixes well too.
func filterHash(k int64) uint64 { return uint64(k) * 0xD6E8FEB86659FD93 }

func (f *keyFilter) mask(h uint64) uint64 {
	return uint64(1)<<(h>>(f.shift-6)&63) | uint64(1)<<(h>>(f.shift-12)&63)
}

// newKeyFilter builds the filter of the non-NULL keys (distinct of them).
func newKeyFilter(ints []int64, nulls []bool, distinct int) *keyFilter {
	nw := uint64(1)
	for nw*64 < uint64(distinct)*filterBitsPerKey {
		nw <<= 1
	}
	lg := uint64(0)
	for 1<<lg < nw {
		lg++
	}
	// shift = 64 for one word: Go's h>>64 is 0.
	f := &keyFilter{words: make([]uint64, nw), shift: 64 - lg}
	for i, k := range ints {
		if nulls != nil && nulls[i] {
			continue
		}
		h := filterHash(k)
		f.words[h>>f.shift] |= f.mask(h)
	}
	return f
}

// mayHave is false only for keys that are not in the build side.
func (f *keyFilter) mayHave(k int64) bool {
	h := filterHash(k)
	m := f.mask(h)
	return f.words[h>>f.shift]&m == m
}

// keep appends to out the rows of sel (nil = every row of keys) whose key
// may be in the build side, without a data-dependent branch.
func (f *keyFilter) keep(keys []int64, sel []int32, out []int32) []int32 {
	n := len(keys)
	if sel != nil {
		n = len(sel)
	}
	if out == nil || cap(out) < n {
		out = make([]int32, n) // never nil: a nil selection means every row
	}
	out = out[:n]
	words, shift := f.words, f.shift
	s1, s2 := shift-6, shift-12
	k := 0
	if sel == nil {
		for i, key := range keys {
			h := filterHash(key)
			m := uint64(1)<<(h>>s1&63) | uint64(1)<<(h>>s2&63)
			out[k] = int32(i)
			if words[h>>shift]&m == m {
				k++
			}
		}
		return out[:k]
	}
	for _, p := range sel {
		h := filterHash(keys[p])
		m := uint64(1)<<(h>>s1&63) | uint64(1)<<(h>>s2&63)
		out[k] = p
		if words[h>>shift]&m == m {
			k++
		}
	}
	return out[:k]
}

// filterSel is sel narrowed by the index's filter for this prober, or sel
// itself when there is no filter or it stopped paying (most rows pass).
func (s *swissIndex) filterSel(keys []int64, sel []int32, pb *pairBuf) []int32 {
	if s.filter == nil || pb.filterOff {
		return sel
	}
	out := s.filter.keep(keys, sel, pb.fsel)
	pb.fsel = out
	n := len(keys)
	if sel != nil {
		n = len(sel)
	}
	pb.fseen += int64(n)
	pb.fpass += int64(len(out))
	if pb.fseen >= filterSample && pb.fpass*2 > pb.fseen {
		pb.filterOff = true
	}
	return out
}
