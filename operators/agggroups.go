package operators

import (
	"hash/maphash"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/joind/joind/types"
)

// Group ids for hash aggregation. A groupKeys maps each input row to a dense
// group id 0, 1, 2, ... in first-seen order; the aggregates keep their state
// in arrays indexed by that id (aggstate.go). Merging a partition's table
// into another maps its ids to the other's, appending new groups in the
// partition's order, so the output order is what the per-group tables gave.
//
// One grouping column of an integer-like type uses an open-addressing table
// of int64 keys; one text/varchar column a Go map over strings copied into
// an arena; anything else (several columns, numeric, char(n), floats,
// intervals) the byte encoding of keys.go, whose equality is SQL's "not
// distinct".
type groupKeys interface {
	// assign sets gids[i] to row i's group for n rows, adding new groups.
	assign(arrs []arrow.Array, n int, gids []int32)
	count() int
	// absorb adds src's groups (same concrete type) and returns, for each
	// src group, its id here.
	absorb(src groupKeys) []int32
	// appendKeys appends groups lo..hi-1's keys to the key builders.
	appendKeys(bs []array.Builder, lo, hi int)
}

func newGroupKeys(ts []types.Type) groupKeys {
	if len(ts) == 1 {
		switch ts[0].ID {
		case types.Int2, types.Int4, types.Int8, types.Date, types.Timestamp, types.TimestampTZ:
			return newIntKeys(ts[0])
		case types.Text, types.Varchar:
			return newStrKeys(ts[0])
		}
	}
	return &encKeys{ts: ts, index: map[string]int32{}}
}

// intKeys: one integer-like column.
type intKeys struct {
	t     types.Type
	slots []intSlot
	shift uint
	keys  []int64 // per group (0 for the NULL group)
	null  int32   // the NULL group's id, -1 = none yet
	vals  []int64 // scratch: one batch's keys widened
}

func newIntKeys(t types.Type) *intKeys {
	k := &intKeys{t: t, null: -1}
	k.resize(256)
	return k
}

// intSlot is one slot of the table: key and group id side by side, so a
// probe touches one cache line.
type intSlot struct {
	k int64
	g int32 // group id + 1; 0 = empty slot
}

func (k *intKeys) resize(slots int) {
	old := k.slots
	k.slots = make([]intSlot, slots)
	k.shift = uint(64 - bitsLen(slots))
	mask := uint64(slots - 1)
	for _, sl := range old {
		if sl.g == 0 {
			continue
		}
		h := (uint64(sl.k) * 0x9E3779B97F4A7C15) >> k.shift
		for k.slots[h].g != 0 {
			h = (h + 1) & mask
		}
		k.slots[h] = sl
	}
}

// bitsLen is log2 of a power of two.
func bitsLen(n int) int {
	b := 0
	for n > 1 {
		n >>= 1
		b++
	}
	return b
}

func (k *intKeys) count() int { return len(k.keys) }

// find returns key v's group, adding it when new.
func (k *intKeys) find(v int64) int32 {
	mask := uint64(len(k.slots) - 1)
	h := (uint64(v) * 0x9E3779B97F4A7C15) >> k.shift
	for {
		sl := &k.slots[h]
		if sl.g == 0 {
			break
		}
		if sl.k == v {
			return sl.g - 1
		}
		h = (h + 1) & mask
	}
	id := int32(len(k.keys))
	k.keys = append(k.keys, v)
	k.slots[h] = intSlot{v, id + 1}
	if len(k.keys)*2 > len(k.slots) { // load at most 1/2
		k.resize(2 * len(k.slots))
	}
	return id
}

func (k *intKeys) nullGroup() int32 {
	if k.null < 0 {
		k.null = int32(len(k.keys))
		k.keys = append(k.keys, 0)
	}
	return k.null
}

func widenInto[T int16 | int32 | int64 | arrow.Date32 | arrow.Timestamp](dst []int64, src []T) {
	for i, x := range src {
		dst[i] = int64(x)
	}
}

func (k *intKeys) assign(arrs []arrow.Array, n int, gids []int32) {
	arr := arrs[0]
	if cap(k.vals) < n {
		k.vals = make([]int64, n)
	}
	vals := k.vals[:n]
	switch a := arr.(type) {
	case *array.Int64:
		vals = a.Int64Values()[:n]
	case *array.Int32:
		widenInto(vals, a.Int32Values()[:n])
	case *array.Int16:
		widenInto(vals, a.Int16Values()[:n])
	case *array.Date32:
		widenInto(vals, a.Date32Values()[:n])
	case *array.Timestamp:
		widenInto(vals, a.TimestampValues()[:n])
	default: // e.g. an all-NULL column of another Arrow type
		for i := range vals {
			vals[i] = types.GetValue(arr, k.t, i).I
		}
	}
	nulls := arr.NullN() > 0
	// Runs of one key (sorted or clustered input) skip the table.
	last, lastG := int64(0), int32(-1)
	for i, v := range vals {
		if nulls && arr.IsNull(i) {
			gids[i] = k.nullGroup()
			continue
		}
		if v == last && lastG >= 0 {
			gids[i] = lastG
			continue
		}
		g := k.find(v)
		gids[i], last, lastG = g, v, g
	}
}

func (k *intKeys) absorb(src groupKeys) []int32 {
	s := src.(*intKeys)
	m := make([]int32, len(s.keys))
	for i, v := range s.keys {
		if int32(i) == s.null {
			m[i] = k.nullGroup()
		} else {
			m[i] = k.find(v)
		}
	}
	return m
}

func (k *intKeys) appendKeys(bs []array.Builder, lo, hi int) {
	for g := lo; g < hi; g++ {
		if int32(g) == k.null {
			bs[0].AppendNull()
		} else {
			types.AppendValue(bs[0], k.t, types.Value{I: k.keys[g]})
		}
	}
}

// strKeys: one text or varchar column, in an open-addressing table that
// keeps each key's 64-bit hash: growing and merging never rehash, and a
// probe reads a key's bytes only when the hashes are equal.
type strKeys struct {
	t      types.Type
	slots  []intSlot // k: the key's hash
	shift  uint
	keys   []string // per group, pointing into arena chunks
	hashes []uint64 // per group
	null   int32
	arena  []byte
}

// strSeed is shared by every table so merged tables agree on hashes.
var strSeed = maphash.MakeSeed()

func newStrKeys(t types.Type) *strKeys {
	k := &strKeys{t: t, null: -1}
	k.resize(256)
	return k
}

func (k *strKeys) resize(slots int) {
	k.slots = make([]intSlot, slots)
	k.shift = uint(64 - bitsLen(slots))
	mask := uint64(slots - 1)
	for g, h := range k.hashes {
		if int32(g) == k.null {
			continue
		}
		p := h >> k.shift
		for k.slots[p].g != 0 {
			p = (p + 1) & mask
		}
		k.slots[p] = intSlot{int64(h), int32(g) + 1}
	}
}

// intern copies s into the arena: one allocation per 64 KiB of keys, not
// one per group, and the batch's buffer is not pinned.
func (k *strKeys) intern(s string) string {
	if len(s) == 0 {
		return ""
	}
	if len(s) > 4096 {
		return string([]byte(s))
	}
	if len(k.arena)+len(s) > cap(k.arena) {
		k.arena = make([]byte, 0, 64<<10)
	}
	at := len(k.arena)
	k.arena = append(k.arena, s...)
	return unsafe.String(&k.arena[at], len(s))
}

func (k *strKeys) count() int { return len(k.keys) }

// find returns the group of s (hash h), adding it when new (copied into
// the arena unless owned: a merged table's keys are already copies).
func (k *strKeys) find(s string, h uint64, owned bool) int32 {
	mask := uint64(len(k.slots) - 1)
	p := h >> k.shift
	for {
		sl := &k.slots[p]
		if sl.g == 0 {
			break
		}
		if uint64(sl.k) == h && k.keys[sl.g-1] == s {
			return sl.g - 1
		}
		p = (p + 1) & mask
	}
	id := int32(len(k.keys))
	if !owned {
		s = k.intern(s)
	}
	k.keys = append(k.keys, s)
	k.hashes = append(k.hashes, h)
	k.slots[p] = intSlot{int64(h), id + 1}
	if len(k.keys)*2 > len(k.slots) {
		k.resize(2 * len(k.slots))
	}
	return id
}

func (k *strKeys) nullGroup() int32 {
	if k.null < 0 {
		k.null = int32(len(k.keys))
		k.keys = append(k.keys, "")
		k.hashes = append(k.hashes, 0)
	}
	return k.null
}

func (k *strKeys) assign(arrs []arrow.Array, n int, gids []int32) {
	arr := arrs[0]
	a, ok := arr.(*array.String)
	nulls := arr.NullN() > 0
	last, lastG := "", int32(-1)
	for i := 0; i < n; i++ {
		if nulls && arr.IsNull(i) {
			gids[i] = k.nullGroup()
			continue
		}
		var s string
		if ok {
			s = a.Value(i)
		} else {
			s = types.GetValue(arr, k.t, i).S
		}
		if lastG >= 0 && s == last {
			gids[i] = lastG
			continue
		}
		g := k.find(s, maphash.String(strSeed, s), false)
		gids[i], last, lastG = g, s, g
	}
}

func (k *strKeys) absorb(src groupKeys) []int32 {
	s := src.(*strKeys)
	m := make([]int32, len(s.keys))
	for i, v := range s.keys {
		if int32(i) == s.null {
			m[i] = k.nullGroup()
		} else {
			m[i] = k.find(v, s.hashes[i], true)
		}
	}
	return m
}

func (k *strKeys) appendKeys(bs []array.Builder, lo, hi int) {
	b := bs[0].(*array.StringBuilder)
	for g := lo; g < hi; g++ {
		if int32(g) == k.null {
			b.AppendNull()
		} else {
			b.Append(k.keys[g])
		}
	}
}

// encKeys: any grouping columns, by their byte encoding.
type encKeys struct {
	ts    []types.Type
	index map[string]int32
	enc   []string      // per group: the encoded key (for absorb)
	vals  []types.Value // len(ts) per group
	buf   []byte
	offs  []int
}

func (k *encKeys) count() int { return len(k.enc) }

func (k *encKeys) add(key string, vals []types.Value) int32 {
	g := int32(len(k.enc))
	k.index[key] = g
	k.enc = append(k.enc, key)
	k.vals = append(k.vals, vals...)
	return g
}

func (k *encKeys) assign(arrs []arrow.Array, n int, gids []int32) {
	k.buf, k.offs = rowKeys(arrs, k.ts, n, k.buf, k.offs)
	last, lastKey := int32(-1), []byte(nil)
	row := make([]types.Value, len(arrs))
	for i := 0; i < n; i++ {
		key := k.buf[k.offs[i]:k.offs[i+1]]
		if last >= 0 && string(key) == string(lastKey) {
			gids[i] = last
			continue
		}
		g, ok := k.index[string(key)]
		if !ok {
			for c, arr := range arrs {
				row[c] = types.GetValue(arr, k.ts[c], i)
			}
			g = k.add(string(key), row)
		}
		gids[i] = g
		last, lastKey = g, key
	}
}

func (k *encKeys) absorb(src groupKeys) []int32 {
	s := src.(*encKeys)
	m := make([]int32, len(s.enc))
	nk := len(k.ts)
	for i, key := range s.enc {
		g, ok := k.index[key]
		if !ok {
			g = k.add(key, s.vals[i*nk:(i+1)*nk])
		}
		m[i] = g
	}
	return m
}

func (k *encKeys) appendKeys(bs []array.Builder, lo, hi int) {
	nk := len(k.ts)
	for g := lo; g < hi; g++ {
		for c := 0; c < nk; c++ {
			types.AppendValue(bs[c], k.ts[c], k.vals[g*nk+c])
		}
	}
}
