package operators

import (
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/joind/joind/operators/hashtable"
	"github.com/joind/joind/types"
)

// Group ids for hash aggregation. A groupKeys maps each input row to a dense
// group id 0, 1, 2, ... in first-seen order; the aggregates keep their state
// in arrays indexed by that id (aggstate.go). Merging a partition's table
// into another maps its ids to the other's, appending new groups in the
// partition's order, so the output order is what the per-group tables gave.
//
// Every shape is the Swiss table of package hashtable, the one under hash
// joins: one grouping column of an integer-like type keyed by its int64;
// one text/varchar column keyed by the string's hash, strings copied into
// an arena; anything else (several columns, numeric, char(n), floats,
// intervals) keyed by the hash of the row encoding of keys.go, whose
// equality is SQL's "not distinct". A batch is looked up with one call of
// the table's probe kernel; the rows it does not find are added one by one.
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
	return newEncKeys(ts)
}

// intKeys: one integer-like column, in the Swiss table of package
// hashtable (the join's table for one int-like key, as a map).
type intKeys struct {
	t    types.Type
	tab  *hashtable.Int64Table
	keys []int64 // per group (0 for the NULL group)
	null int32   // the NULL group's id, -1 = none yet
	lookups
}

// lookups is the scratch of a batch's lookup: its keys encoded, the rows
// without a NULL key (when some are NULL), the kernel's answers.
type lookups struct {
	enc KeyCol
	sel []int32
	res []uint32
}

// nonNull returns the rows of the batch (n rows, encoded in l.enc) whose
// key is not NULL, or nil when no row is NULL.
func (l *lookups) nonNull(n int) []int32 {
	if l.enc.Nulls == nil {
		return nil
	}
	l.sel = l.sel[:0]
	for i, null := range l.enc.Nulls[:n] {
		if !null {
			l.sel = append(l.sel, int32(i))
		}
	}
	if l.sel == nil {
		l.sel = []int32{} // nil would mean every row
	}
	return l.sel
}

func newIntKeys(t types.Type) *intKeys {
	return &intKeys{t: t, null: -1, tab: hashtable.NewInt64(256)}
}

func (k *intKeys) count() int { return len(k.keys) }

// find returns key v's group, adding it when new.
func (k *intKeys) find(v int64) int32 {
	g, added := k.tab.FindOrAdd(v, uint32(len(k.keys)))
	if added {
		k.keys = append(k.keys, v)
	}
	return int32(g)
}

func (k *intKeys) nullGroup() int32 {
	if k.null < 0 {
		k.null = int32(len(k.keys))
		k.keys = append(k.keys, 0)
	}
	return k.null
}

func (k *intKeys) assign(arrs []arrow.Array, n int, gids []int32) {
	arr := arrs[0]
	if err := k.enc.Encode(arr, k.t); err != nil {
		panic(err)
	}
	vals := k.enc.Ints
	// The batch's known keys in one call of the probe kernel; the rest
	// (new keys, or keys added earlier in this batch) one by one.
	sel := k.nonNull(n)
	k.res = grow(k.res, n)
	res := k.res[:n]
	if sel != nil {
		res = res[:len(sel)]
	}
	k.tab.Lookup(vals, sel, res)
	if sel == nil {
		for i, g := range res {
			if g == hashtable.NotFound {
				g = uint32(k.find(vals[i]))
			}
			gids[i] = int32(g)
		}
		return
	}
	j := 0
	for i := 0; i < n; i++ {
		if k.enc.Null(i) {
			gids[i] = k.nullGroup()
			continue
		}
		g := int32(res[j])
		j++
		if res[j-1] == hashtable.NotFound {
			g = k.find(vals[i])
		}
		gids[i] = g
	}
}

func (k *intKeys) absorb(src groupKeys) []int32 {
	s := src.(*intKeys)
	m := make([]int32, len(s.keys))
	known := lookupAll(k.tab, s.keys)
	for i, v := range s.keys {
		switch {
		case int32(i) == s.null:
			m[i] = k.nullGroup()
		case known[i] != hashtable.NotFound:
			m[i] = int32(known[i])
		default:
			m[i] = k.find(v)
		}
	}
	return m
}

// lookupAll looks up every key with one call of the probe kernel: the
// groups of a merged table that are known already.
func lookupAll(tab *hashtable.Int64Table, keys []int64) []uint32 {
	res := make([]uint32, len(keys))
	tab.Lookup(keys, nil, res)
	return res
}

// hashKeysOf is hashes as the table's int64 keys.
func hashKeysOf(hashes []uint64) []int64 {
	ks := make([]int64, len(hashes))
	for i, h := range hashes {
		ks[i] = int64(h)
	}
	return ks
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

// strKeys: one text or varchar column, in the Swiss table keyed by each
// key's 64-bit hash (kept per group: growing and merging never rehash); a
// candidate's bytes are compared only when the hashes are equal.
type strKeys struct {
	t      types.Type
	tab    *hashtable.Int64Table
	keys   []string // per group, pointing into arena chunks
	hashes []uint64 // per group
	null   int32
	arena  []byte
	probe  string  // the key being looked up (Match)
	hs     []int64 // scratch: the batch's hashes
	lookups
}

func newStrKeys(t types.Type) *strKeys {
	return &strKeys{t: t, null: -1, tab: hashtable.NewInt64(256)}
}

// Match reports whether group g's key is the one being looked up.
func (k *strKeys) Match(g uint32) bool { return k.keys[g] == k.probe }

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
	k.probe = s
	g, added := k.tab.FindOrAddHash(h, uint32(len(k.keys)), k)
	if added {
		if !owned {
			s = k.intern(s)
		}
		k.keys = append(k.keys, s)
		k.hashes = append(k.hashes, h)
	}
	return int32(g)
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
	if err := k.enc.Encode(arrs[0], k.t); err != nil {
		panic(err)
	}
	strs := k.enc.Strs
	k.hs = grow(k.hs, n)
	for i, s := range strs[:n] {
		k.hs[i] = int64(hashtable.HashString(s, keySeed))
	}
	sel := k.nonNull(n)
	k.res = grow(k.res, n)
	res := k.res[:n]
	if sel != nil {
		res = res[:len(sel)]
	}
	// The first candidate of every row from the probe kernel; a row whose
	// candidate is not its key (new, or a collision) is looked up alone.
	k.tab.Lookup(k.hs, sel, res)
	j := 0
	for i := 0; i < n; i++ {
		if k.enc.Null(i) {
			gids[i] = k.nullGroup()
			continue
		}
		g := res[j]
		j++
		if g == hashtable.NotFound || k.keys[g] != strs[i] {
			gids[i] = k.find(strs[i], uint64(k.hs[i]), false)
		} else {
			gids[i] = int32(g)
		}
	}
}

func (k *strKeys) absorb(src groupKeys) []int32 {
	s := src.(*strKeys)
	m := make([]int32, len(s.keys))
	cand := lookupAll(k.tab, hashKeysOf(s.hashes))
	for i, v := range s.keys {
		switch g := cand[i]; {
		case int32(i) == s.null:
			m[i] = k.nullGroup()
		case g != hashtable.NotFound && k.keys[g] == v:
			m[i] = int32(g)
		default:
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

// encKeys: any grouping columns, by their row encoding (keys.go) in the
// Swiss table keyed by the encoding's hash.
type encKeys struct {
	ts     []types.Type
	tab    *hashtable.Int64Table
	enc    []string      // per group: the encoded key
	hashes []uint64      // per group: its hash (absorb does not rehash)
	vals   []types.Value // len(ts) per group: the first row's values
	ks     []KeyCol
	buf    []byte // scratch: the batch's keys, row i at offs[i]:offs[i+1]
	offs   []int
	hs     []int64  // scratch: their hashes
	res    []uint32 // scratch: the kernel's candidates
	probe  string   // the key being looked up (Match)
}

func newEncKeys(ts []types.Type) *encKeys {
	return &encKeys{ts: ts, tab: hashtable.NewInt64(256)}
}

func (k *encKeys) count() int { return len(k.enc) }

// Match reports whether group g's key is the one being looked up.
func (k *encKeys) Match(g uint32) bool { return k.enc[g] == k.probe }

// find returns the group of key (hash h), or -1 when absent; with vals it
// adds the key (copied unless owned) with those values instead.
func (k *encKeys) find(key string, h uint64, owned bool, vals func() []types.Value) int32 {
	k.probe = key
	g, added := k.tab.FindOrAddHash(h, uint32(len(k.enc)), k)
	if added {
		if !owned {
			key = string([]byte(key))
		}
		k.enc = append(k.enc, key)
		k.hashes = append(k.hashes, h)
		k.vals = append(k.vals, vals()...)
	}
	return int32(g)
}

func (k *encKeys) assign(arrs []arrow.Array, n int, gids []int32) {
	k.ks = encodeBatch(arrs, k.ts, k.ks)
	k.buf, k.offs = k.buf[:0], append(k.offs[:0], 0)
	k.hs = grow(k.hs, n)
	for i := 0; i < n; i++ {
		at := len(k.buf)
		k.buf = AppendKeyRow(k.buf, k.ks, nil, i)
		k.offs = append(k.offs, len(k.buf))
		k.hs[i] = int64(hashtable.HashString(bytesString(k.buf[at:]), keySeed))
	}
	k.res = grow(k.res, n)
	k.tab.Lookup(k.hs, nil, k.res[:n])
	row := make([]types.Value, len(arrs))
	for i := 0; i < n; i++ {
		key := bytesString(k.buf[k.offs[i]:k.offs[i+1]])
		if g := k.res[i]; g != hashtable.NotFound && k.enc[g] == key {
			gids[i] = int32(g)
			continue
		}
		gids[i] = k.find(key, uint64(k.hs[i]), false, func() []types.Value {
			for c, arr := range arrs {
				row[c] = types.GetValue(arr, k.ts[c], i)
			}
			return row
		})
	}
}

func (k *encKeys) absorb(src groupKeys) []int32 {
	s := src.(*encKeys)
	m := make([]int32, len(s.enc))
	nk := len(k.ts)
	cand := lookupAll(k.tab, hashKeysOf(s.hashes))
	for i, key := range s.enc {
		if g := cand[i]; g != hashtable.NotFound && k.enc[g] == key {
			m[i] = int32(g)
			continue
		}
		m[i] = k.find(key, s.hashes[i], true, func() []types.Value { return s.vals[i*nk : (i+1)*nk] })
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

// bytesString views b as a string without copying; an empty b (a row of no
// key columns, as in SELECT DISTINCT with an empty select list) is "".
func bytesString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}
