package operators

import (
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/joind/joind/operators/hashtable"
	"github.com/joind/joind/types"
)

// colKeys: grouping columns of any types and number, kept column by column
// (keys.go's key layouts): a batch's columns are encoded (KeyCol, pointing
// into the batch), hashed one after the other into one hash per row, the
// probe kernel finds each row's first candidate group by hash, and the
// candidates are confirmed column by column against the groups' stored
// keys. Rows without a confirmed group (new keys, hash collisions) are
// looked up alone. No row is encoded into bytes, and only new groups copy
// their keys (strings into an arena).
type colKeys struct {
	ts     []types.Type
	tab    *hashtable.Int64Table
	n      int      // groups
	hashes []uint64 // per group (merging never rehashes)
	cols   []groupCol
	arena  arena

	// scratch of a batch
	ks   []KeyCol
	hs   []uint64
	res  []uint32
	keep []bool
	rm   rowMatcher
}

// groupCol is one grouping column's key per group.
type groupCol struct {
	t     types.Type
	isInt bool // IntKey(t): keys in ints, else in strs
	nulls []bool
	ints  []int64  // the encoded key (KeyCol.Ints types)
	strs  []string // the encoded key (the others), in the arena
	// vals holds the first row's value where the key is not the value
	// (numeric 1.0 and 1.00, char(n)'s blanks, -0, intervals): the group
	// outputs that value, as PostgreSQL does.
	vals []types.Value
}

// nullInt is the key a NULL group stores in ints (any value: equal keys
// are confirmed with the NULL flags).
const nullInt = -0x3c6ef372fe94f82b

// keyIsValue reports whether a key of type t is its value: the group's
// output needs nothing but the key.
func keyIsValue(t types.Type) bool {
	switch t.ID {
	case types.Int2, types.Int4, types.Int8, types.Bool, types.Date, types.Timestamp, types.TimestampTZ, types.Time, types.TimeTZ,
		types.Text, types.Varchar, types.Name:
		return true
	}
	return false
}

func newColKeys(ts []types.Type) *colKeys {
	k := &colKeys{ts: ts, tab: hashtable.NewInt64(256), cols: make([]groupCol, len(ts))}
	for c, t := range ts {
		k.cols[c].t, k.cols[c].isInt = t, IntKey(t)
	}
	return k
}

func (k *colKeys) count() int { return k.n }

// rowMatcher is Matcher for row i of the batch's keys ks.
type rowMatcher struct {
	k  *colKeys
	ks []KeyCol
	i  int
}

func (m *rowMatcher) Match(g uint32) bool {
	for c := range m.k.cols {
		if !m.k.cols[c].equalRow(g, &m.ks[c], m.i) {
			return false
		}
	}
	return true
}

// equalRow reports whether group g's key equals row i of kc (NULL = NULL).
func (gc *groupCol) equalRow(g uint32, kc *KeyCol, i int) bool {
	if null := kc.Null(i); null || gc.nulls[g] {
		return null && gc.nulls[g]
	}
	if gc.isInt {
		return gc.ints[g] == kc.Ints[i]
	}
	return gc.strs[g] == kc.Strs[i]
}

// confirm clears keep[i] unless row i of kc equals group res[i]'s key,
// for the rows still kept.
func (gc *groupCol) confirm(kc *KeyCol, res []uint32, keep []bool) {
	if kc.Nulls != nil {
		for i, g := range res {
			keep[i] = keep[i] && gc.equalRow(g, kc, i)
		}
		return
	}
	// A NULL group's key is the placeholder (nullInt, ""), so its NULL flag
	// is read only for rows equal to the placeholder: one memory access
	// per row and column.
	nulls := gc.nulls
	if gc.isInt {
		ints, vals := gc.ints, kc.Ints[:len(res)]
		for i, g := range res {
			v := vals[i]
			keep[i] = keep[i] && ints[g] == v && (v != nullInt || !nulls[g])
		}
		return
	}
	strs, vals := gc.strs, kc.Strs[:len(res)]
	for i, g := range res {
		v := vals[i]
		keep[i] = keep[i] && strs[g] == v && (len(v) != 0 || !nulls[g])
	}
}

func (k *colKeys) assign(arrs []arrow.Array, n int, gids []int32) {
	k.ks = encodeBatch(arrs, k.ts, k.ks)
	k.hs = HashKeys(k.ks, nil, n, k.hs)
	k.res = grow(k.res, n)
	res := k.res[:n]
	k.tab.Lookup(int64s(k.hs), nil, res)
	k.keep = grow(k.keep, n)
	keep := k.keep[:n]
	for i, g := range res {
		keep[i] = g != hashtable.NotFound
		if !keep[i] {
			res[i] = 0 // a valid group to compare with, or none
		}
	}
	if k.n == 0 {
		clear(keep)
	} else {
		for c := range k.cols {
			k.cols[c].confirm(&k.ks[c], res, keep)
		}
	}
	k.rm = rowMatcher{k: k, ks: k.ks}
	for i, ok := range keep {
		if ok {
			gids[i] = int32(res[i])
			continue
		}
		k.rm.i = i
		g, added := k.tab.FindOrAddHash(k.hs[i], uint32(k.n), &k.rm)
		if added {
			k.addRow(arrs, i)
		}
		gids[i] = int32(g)
	}
	k.rm.ks = nil
}

// addRow adds a group keyed by row i of the batch (encoded in k.ks).
func (k *colKeys) addRow(arrs []arrow.Array, i int) {
	k.hashes = append(k.hashes, k.hs[i])
	for c := range k.cols {
		gc, kc := &k.cols[c], &k.ks[c]
		null := kc.Null(i)
		gc.nulls = append(gc.nulls, null)
		switch {
		case gc.isInt:
			v := int64(nullInt)
			if !null {
				v = kc.Ints[i]
			}
			gc.ints = append(gc.ints, v)
		default:
			s := ""
			if !null {
				s = k.arena.intern(kc.Strs[i])
			}
			gc.strs = append(gc.strs, s)
		}
		if !keyIsValue(gc.t) {
			gc.vals = append(gc.vals, types.GetValue(arrs[c], gc.t, i))
		}
	}
	k.n++
}

// groupMatcher is Matcher for group i of another table.
type groupMatcher struct {
	k, src *colKeys
	i      uint32
}

func (m *groupMatcher) Match(g uint32) bool { return m.k.sameGroup(g, m.src, m.i) }

func (k *colKeys) sameGroup(g uint32, src *colKeys, i uint32) bool {
	for c := range k.cols {
		a, b := &k.cols[c], &src.cols[c]
		if a.nulls[g] || b.nulls[i] {
			if a.nulls[g] != b.nulls[i] {
				return false
			}
			continue
		}
		if a.isInt {
			if a.ints[g] != b.ints[i] {
				return false
			}
		} else if a.strs[g] != b.strs[i] {
			return false
		}
	}
	return true
}

func (k *colKeys) absorb(src groupKeys) []int32 {
	s := src.(*colKeys)
	m := make([]int32, s.n)
	cand := make([]uint32, s.n)
	k.tab.Lookup(int64s(s.hashes), nil, cand)
	if err := k.tab.Reserve(s.n); err != nil {
		panic(err) // unreachable: group ids stay below 2^31
	}
	gm := &groupMatcher{k: k, src: s}
	for i := range m {
		if g := cand[i]; g != hashtable.NotFound && k.sameGroup(g, s, uint32(i)) {
			m[i] = int32(g)
			continue
		}
		gm.i = uint32(i)
		g, added := k.tab.FindOrAddHash(s.hashes[i], uint32(k.n), gm)
		if added {
			k.addGroup(s, i)
		}
		m[i] = int32(g)
	}
	return m
}

// addGroup adds src's group i (its strings stay in src's arena).
func (k *colKeys) addGroup(s *colKeys, i int) {
	k.hashes = append(k.hashes, s.hashes[i])
	for c := range k.cols {
		a, b := &k.cols[c], &s.cols[c]
		a.nulls = append(a.nulls, b.nulls[i])
		if a.isInt {
			a.ints = append(a.ints, b.ints[i])
		} else {
			a.strs = append(a.strs, b.strs[i])
		}
		if b.vals != nil {
			a.vals = append(a.vals, b.vals[i])
		}
	}
	k.n++
}

func (k *colKeys) appendKeys(bs []array.Builder, lo, hi int) {
	for c := range k.cols {
		gc, b := &k.cols[c], bs[c]
		switch {
		case !keyIsValue(gc.t):
			for g := lo; g < hi; g++ {
				types.AppendValue(b, gc.t, gc.vals[g])
			}
		case gc.isInt:
			for g := lo; g < hi; g++ {
				if gc.nulls[g] {
					b.AppendNull()
				} else {
					types.AppendValue(b, gc.t, types.Value{I: gc.ints[g]})
				}
			}
		default:
			sb := b.(*array.StringBuilder)
			for g := lo; g < hi; g++ {
				if gc.nulls[g] {
					sb.AppendNull()
				} else {
					sb.Append(gc.strs[g])
				}
			}
		}
	}
}

// arena holds the strings of new groups: one allocation per 64 KiB of
// keys, not one per group, and no batch buffer is pinned.
type arena struct{ buf []byte }

func (a *arena) intern(s string) string {
	if len(s) == 0 {
		return ""
	}
	if len(s) > 4096 {
		return string([]byte(s))
	}
	if len(a.buf)+len(s) > cap(a.buf) {
		a.buf = make([]byte, 0, 64<<10)
	}
	at := len(a.buf)
	a.buf = append(a.buf, s...)
	return unsafe.String(&a.buf[at], len(s))
}
