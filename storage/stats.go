package storage

import (
	"encoding/binary"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/cockroachdb/apd/v3"
	"github.com/joind/joind/types"
)

// sketchK is the size of the distinct-value sketches: k minimum values of
// a 64-bit hash (KMV); exact below k distinct values, ~1/sqrt(k) error above.
const sketchK = 64

// colStats accumulates the statistics of one column of one segment.
type colStats struct {
	nulls    int64
	has      bool
	min, max types.Value
	sketch   kmv
}

func newColStats() colStats { return colStats{} }

// public converts the statistics for the Segmented API.
func (c *colStats) public() ColumnStats {
	return ColumnStats{Nulls: c.nulls, HasMinMax: c.has, Min: c.min, Max: c.max}
}

// add folds the non-NULL values of arr (of SQL type t) into the statistics.
func (c *colStats) add(arr arrow.Array, t types.Type) {
	if c.addTyped(arr, t) {
		return
	}
	c.nulls += int64(arr.NullN())
	n := arr.Len()
	for i := 0; i < n; i++ {
		if arr.IsNull(i) {
			continue
		}
		v := peekValue(arr, t, i)
		c.sketch.add(types.Hash(v, t))
		if !c.has {
			c.min, c.max, c.has = keep(v), keep(v), true
			continue
		}
		if types.Compare(v, c.min, t) < 0 {
			c.min = keep(v)
		} else if types.Compare(v, c.max, t) > 0 {
			c.max = keep(v)
		}
	}
}

// boundsMerger merges segments' bounds into a table's: known only when
// every segment holding a non-NULL value kept its bounds.
type boundsMerger struct {
	t        types.Type
	ok, has  bool
	min, max types.Value
}

func (b *boundsMerger) add(c *colStats, rows int64) {
	if !c.has {
		if c.nulls < rows {
			b.ok = false // values whose bounds were not kept
		}
		return
	}
	if !b.has {
		b.min, b.max, b.has = c.min, c.max, true
		return
	}
	if types.Compare(c.min, b.min, b.t) < 0 {
		b.min = c.min
	}
	if types.Compare(c.max, b.max, b.t) > 0 {
		b.max = c.max
	}
}

func (b *boundsMerger) result() ColumnStats {
	if !b.ok || !b.has {
		return ColumnStats{}
	}
	return ColumnStats{HasMinMax: true, Min: b.min, Max: b.max}
}

// finish drops bounds too long to keep in the manifest.
func (c *colStats) finish(t types.Type) {
	if !c.has {
		return
	}
	if len(encodeValue(c.min, t)) > MaxStatBytes || len(encodeValue(c.max, t)) > MaxStatBytes {
		c.has, c.min, c.max = false, types.Value{}, types.Value{}
	}
}

// keep detaches a peeked value from the array's buffers.
func keep(v types.Value) types.Value {
	v.S = strings.Clone(v.S)
	return v
}

// peekValue is types.GetValue without copying strings: the result is only
// valid while arr is and must not be kept (see keep).
func peekValue(arr arrow.Array, t types.Type, i int) types.Value {
	if a, ok := arr.(*array.String); ok && t.ID != types.Numeric {
		return types.Value{S: a.Value(i)}
	}
	return types.GetValue(arr, t, i)
}

// encodeValue is the manifest's binary form of a bound.
func encodeValue(v types.Value, t types.Type) []byte {
	if types.IsWordKind(t.ID) {
		t = types.Int8Type // an OID in an int64
	}
	switch t.ID {
	case types.Bool, types.Int2, types.Int4, types.Int8, types.Date, types.Timestamp, types.TimestampTZ, types.Time, types.TimeTZ:
		return binary.LittleEndian.AppendUint64(nil, uint64(v.I))
	case types.Float4, types.Float8:
		return binary.LittleEndian.AppendUint64(nil, math.Float64bits(v.F))
	case types.Numeric:
		return []byte(v.Num.String())
	case types.Interval:
		b := binary.LittleEndian.AppendUint32(nil, uint32(v.Iv.Months))
		b = binary.LittleEndian.AppendUint32(b, uint32(v.Iv.Days))
		return binary.LittleEndian.AppendUint64(b, uint64(v.Iv.Micros))
	}
	return []byte(v.S)
}

func decodeValue(b []byte, t types.Type) (types.Value, error) {
	if types.IsWordKind(t.ID) {
		t = types.Int8Type
	}
	switch t.ID {
	case types.Bool, types.Int2, types.Int4, types.Int8, types.Date, types.Timestamp, types.TimestampTZ, types.Time, types.TimeTZ:
		if len(b) != 8 {
			return types.Value{}, fmt.Errorf("bad %s bound", t.SQLName())
		}
		return types.Value{I: int64(binary.LittleEndian.Uint64(b))}, nil
	case types.Float4, types.Float8:
		if len(b) != 8 {
			return types.Value{}, fmt.Errorf("bad %s bound", t.SQLName())
		}
		return types.Value{F: math.Float64frombits(binary.LittleEndian.Uint64(b))}, nil
	case types.Numeric:
		d, _, err := apd.NewFromString(string(b))
		if err != nil {
			return types.Value{}, fmt.Errorf("bad numeric bound %q", b)
		}
		return types.Value{Num: d}, nil
	case types.Interval:
		if len(b) != 16 {
			return types.Value{}, fmt.Errorf("bad interval bound")
		}
		return types.Value{Iv: types.IntervalValue{
			Months: int32(binary.LittleEndian.Uint32(b)),
			Days:   int32(binary.LittleEndian.Uint32(b[4:])),
			Micros: int64(binary.LittleEndian.Uint64(b[8:])),
		}}, nil
	}
	return types.Value{S: string(b)}, nil
}

// kmv keeps the sketchK smallest distinct hashes seen, as a max-heap.
type kmv struct{ h []uint64 }

func (k *kmv) add(x uint64) {
	if len(k.h) == sketchK && x >= k.h[0] {
		return
	}
	for _, y := range k.h {
		if y == x {
			return
		}
	}
	if len(k.h) < sketchK {
		k.h = append(k.h, x)
		for i := len(k.h) - 1; i > 0; {
			p := (i - 1) / 2
			if k.h[p] >= k.h[i] {
				break
			}
			k.h[p], k.h[i] = k.h[i], k.h[p]
			i = p
		}
		return
	}
	k.h[0] = x
	for i := 0; ; {
		l, r, big := 2*i+1, 2*i+2, i
		if l < len(k.h) && k.h[l] > k.h[big] {
			big = l
		}
		if r < len(k.h) && k.h[r] > k.h[big] {
			big = r
		}
		if big == i {
			break
		}
		k.h[i], k.h[big] = k.h[big], k.h[i]
		i = big
	}
}

// mergeSketches returns the sorted k smallest distinct hashes of all inputs.
func mergeSketches(in ...[]uint64) []uint64 {
	var all []uint64
	for _, s := range in {
		all = append(all, s...)
	}
	sort.Slice(all, func(i, j int) bool { return all[i] < all[j] })
	out := all[:0]
	for i, x := range all {
		if i == 0 || x != all[i-1] {
			out = append(out, x)
		}
	}
	if len(out) > sketchK {
		out = out[:sketchK]
	}
	return out
}

// estimateDistinct turns a merged sketch (sorted) into a distinct count.
func estimateDistinct(s []uint64) int64 {
	if len(s) < sketchK {
		return int64(len(s))
	}
	kth := float64(s[len(s)-1]) / math.Exp2(64)
	if kth <= 0 {
		return int64(len(s))
	}
	return int64(float64(sketchK-1) / kth)
}

func encodeSketch(s []uint64) []byte {
	b := make([]byte, 0, 8*len(s))
	for _, x := range s {
		b = binary.LittleEndian.AppendUint64(b, x)
	}
	return b
}

func decodeSketch(b []byte) ([]uint64, error) {
	if len(b)%8 != 0 || len(b)/8 > sketchK {
		return nil, fmt.Errorf("bad sketch of %d bytes", len(b))
	}
	s := make([]uint64, len(b)/8)
	for i := range s {
		s[i] = binary.LittleEndian.Uint64(b[8*i:])
	}
	return s, nil
}
