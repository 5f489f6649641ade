package operators

import (
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
// Both shapes are the Swiss table of package hashtable, the one under hash
// joins: one grouping column of an integer-like type keyed by its int64
// (intKeys); anything else (text, several columns, numeric, char(n),
// floats, intervals) keyed by the hash of the columns' keys, confirmed
// column by column (colKeys, aggcols.go), whose equality is SQL's "not
// distinct". A batch is looked up with one call of the table's probe
// kernel; the rows it does not confirm are looked up one by one.
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
		case types.Int2, types.Int4, types.Int8, types.Date, types.Timestamp, types.TimestampTZ, types.Time, types.TimeTZ:
			return newIntKeys(ts[0])
		}
	}
	return newColKeys(ts)
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
	if err := k.tab.Reserve(len(s.keys)); err != nil {
		panic(err) // unreachable: group ids stay below 2^31
	}
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

func (k *intKeys) appendKeys(bs []array.Builder, lo, hi int) {
	for g := lo; g < hi; g++ {
		if int32(g) == k.null {
			bs[0].AppendNull()
		} else {
			types.AppendValue(bs[0], k.t, types.Value{I: k.keys[g]})
		}
	}
}
