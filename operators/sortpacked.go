package operators

import (
	"math/bits"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/joind/joind/sql/plan"
)

// intColumn reads an integer-like column (bool, int2/4/8, date, timestamp)
// as int64 without boxing; ok is false for any other array.
type intColumn struct {
	arr  arrow.Array
	at   func(i int) int64
	size int
}

func newIntColumn(a arrow.Array) (intColumn, bool) {
	c := intColumn{arr: a, size: a.Len()}
	switch t := a.(type) {
	case *array.Int16:
		v := t.Int16Values()
		c.at = func(i int) int64 { return int64(v[i]) }
	case *array.Int32:
		v := t.Int32Values()
		c.at = func(i int) int64 { return int64(v[i]) }
	case *array.Int64:
		v := t.Int64Values()
		c.at = func(i int) int64 { return v[i] }
	case *array.Date32:
		v := t.Date32Values()
		c.at = func(i int) int64 { return int64(v[i]) }
	case *array.Timestamp:
		v := t.TimestampValues()
		c.at = func(i int) int64 { return int64(v[i]) }
	case *array.Boolean:
		c.at = func(i int) int64 {
			if t.Value(i) {
				return 1
			}
			return 0
		}
	default:
		return c, false
	}
	return c, true
}

// packedSortPerm is the stable sort permutation of n rows by integer-like
// key columns when every key's value range, its NULL slot and the row
// number fit in one uint64 together: each row becomes one word (keys
// rebased to their minimum, flipped for DESC, NULL at the end the key asks
// for; the row number last, which makes any sort stable), and a sort of
// plain words replaces the comparator over boxed values. nil when the keys
// do not fit (the caller sorts by comparison then).
func packedSortPerm(spec []plan.SortKey, cols []arrow.Array, n int) []int {
	if n < 2 {
		return nil
	}
	idxBits := bits.Len64(uint64(n - 1))
	type keyCode struct {
		col             intColumn
		lo, hi          int64 // value range
		shift           uint
		nulls           bool
		desc, nullFirst bool
	}
	codes := make([]keyCode, len(cols))
	used := idxBits
	for k, a := range cols {
		c, ok := newIntColumn(a)
		if !ok {
			return nil
		}
		kc := keyCode{col: c, desc: spec[k].Desc, nullFirst: spec[k].NullsFirst, nulls: a.NullN() > 0}
		first := true
		for i := 0; i < n; i++ {
			if kc.nulls && a.IsNull(i) {
				continue
			}
			v := c.at(i)
			if first {
				kc.lo, kc.hi, first = v, v, false
				continue
			}
			kc.lo, kc.hi = min(kc.lo, v), max(kc.hi, v)
		}
		span := uint64(kc.hi) - uint64(kc.lo) // exact: hi >= lo
		width := bits.Len64(span)
		if kc.nulls {
			if span == ^uint64(0) {
				return nil
			}
			width = bits.Len64(span + 1)
		}
		used += width
		if used > 64 {
			return nil
		}
		codes[k] = kc
	}
	shift := uint(64)
	for k := range codes {
		kc := &codes[k]
		width := bits.Len64(uint64(kc.hi) - uint64(kc.lo))
		if kc.nulls {
			width = bits.Len64(uint64(kc.hi) - uint64(kc.lo) + 1)
		}
		shift -= uint(width)
		kc.shift = shift
	}
	words := make([]uint64, n)
	for i := range words {
		w := uint64(i)
		for k := range codes {
			kc := &codes[k]
			var code uint64
			if kc.nulls && kc.col.arr.IsNull(i) {
				if !kc.nullFirst {
					code = uint64(kc.hi) - uint64(kc.lo) + 1
				}
			} else {
				v := kc.col.at(i)
				if kc.desc {
					code = uint64(kc.hi) - uint64(v)
				} else {
					code = uint64(v) - uint64(kc.lo)
				}
				if kc.nulls && kc.nullFirst {
					code++
				}
			}
			w |= code << kc.shift
		}
		words[i] = w
	}
	slices.Sort(words)
	mask := uint64(1)<<idxBits - 1
	perm := make([]int, n)
	for i, w := range words {
		perm[i] = int(w & mask)
	}
	return perm
}
