package operators

// Interim value primitives used until package types provides CastValue,
// Compare and Hash; compat.go switches to those once they exist.

import (
	"hash/maphash"
	"math"
	"strings"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/types"
)

var hashSeed = maphash.MakeSeed()

func fallbackCompare(a, b types.Value, t types.Type) int {
	switch t.ID {
	case types.Float4, types.Float8:
		return cmpFloat(a.F, b.F)
	case types.Numeric:
		return a.Num.Cmp(b.Num)
	case types.Text, types.Varchar, types.Unknown:
		return strings.Compare(a.S, b.S)
	case types.Char:
		return strings.Compare(strings.TrimRight(a.S, " "), strings.TrimRight(b.S, " "))
	case types.Interval:
		x, y := intervalSpan(a.Iv), intervalSpan(b.Iv)
		switch {
		case x < y:
			return -1
		case x > y:
			return 1
		}
		return 0
	}
	switch {
	case a.I < b.I:
		return -1
	case a.I > b.I:
		return 1
	}
	return 0
}

func intervalSpan(iv types.IntervalValue) float64 {
	return float64(iv.Months)*30*86400e6 + float64(iv.Days)*86400e6 + float64(iv.Micros)
}

// cmpFloat orders floats as PostgreSQL does: NaN equals NaN and sorts last.
func cmpFloat(a, b float64) int {
	an, bn := math.IsNaN(a), math.IsNaN(b)
	switch {
	case an && bn:
		return 0
	case an:
		return 1
	case bn:
		return -1
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func fallbackHash(v types.Value, t types.Type) uint64 {
	var h maphash.Hash
	h.SetSeed(hashSeed)
	switch t.ID {
	case types.Float4, types.Float8:
		f := v.F
		if f == 0 {
			f = 0 // -0 and 0 are equal
		}
		if math.IsNaN(f) {
			f = math.NaN()
		}
		var b [8]byte
		u := math.Float64bits(f)
		for i := range b {
			b[i] = byte(u >> (8 * i))
		}
		h.Write(b[:])
	case types.Numeric:
		h.WriteString(canonicalNumeric(v))
	case types.Text, types.Varchar, types.Unknown:
		h.WriteString(v.S)
	case types.Char:
		h.WriteString(strings.TrimRight(v.S, " "))
	case types.Interval:
		var b [8]byte
		u := math.Float64bits(intervalSpan(v.Iv))
		for i := range b {
			b[i] = byte(u >> (8 * i))
		}
		h.Write(b[:])
	default:
		var b [8]byte
		for i := range b {
			b[i] = byte(uint64(v.I) >> (8 * i))
		}
		h.Write(b[:])
	}
	return h.Sum64()
}

func fallbackCast(_ *types.EvalContext, v types.Value, from, to types.Type, _ bool) (types.Value, error) {
	if v.Null {
		return v, nil
	}
	isInt := func(id types.ID) bool { return id == types.Int2 || id == types.Int4 || id == types.Int8 }
	isStr := func(id types.ID) bool {
		return id == types.Text || id == types.Varchar || id == types.Unknown
	}
	switch {
	case from.ID == to.ID:
		return v, nil
	case isInt(from.ID) && isInt(to.ID):
		lim := int64(math.MaxInt64)
		msg := "bigint out of range"
		switch to.ID {
		case types.Int2:
			lim, msg = math.MaxInt16, "smallint out of range"
		case types.Int4:
			lim, msg = math.MaxInt32, "integer out of range"
		}
		if v.I > lim || v.I < -lim-1 {
			return types.NullValue, pgerr.New(pgerr.NumericValueOutOfRange, "%s", msg)
		}
		return v, nil
	case isInt(from.ID) && (to.ID == types.Float8 || to.ID == types.Float4):
		return types.FloatValue(float64(v.I)), nil
	case isStr(from.ID) && isStr(to.ID):
		return v, nil
	}
	return types.NullValue, pgerr.New(pgerr.FeatureNotSupported, "cast from %d to %d is not supported yet", from.ID, to.ID)
}
