package types

import (
	"math"
	"strings"

	"github.com/cockroachdb/apd/v3"
)

// Compare orders two non-NULL values of type t as PostgreSQL's btree
// comparison does: -1, 0 or 1. Floats: NaN equals NaN and sorts above every
// other value, -0 equals 0. Text compares bytewise (C collation); char(n)
// ignores trailing blanks. NULLs are the caller's business.
func Compare(a, b Value, t Type) int {
	if IsWordKind(t.ID) {
		return cmpInt(a.I, b.I)
	}
	switch t.ID {
	case Bool, Int2, Int4, Int8, Date, Timestamp, TimestampTZ, Time, TimeTZ:
		return cmpInt(a.I, b.I)
	case Float4, Float8:
		return cmpFloat(a.F, b.F)
	case Numeric:
		return compareNumeric(a.Num, b.Num)
	case Char:
		return strings.Compare(strings.TrimRight(a.S, " "), strings.TrimRight(b.S, " "))
	case Interval:
		return compareInterval(a.Iv, b.Iv)
	case Record:
		return compareRecord(a.S, b.S, t)
	case Array:
		return compareArrays(a.Arr, b.Arr, t.ElemType())
	case JSONB:
		return compareJSONB(a.S, b.S)
	}
	return strings.Compare(a.S, b.S)
}

// CompareInt and CompareFloat are Compare's orders of integer-like and
// float values, for callers holding them unboxed.
func CompareInt(a, b int64) int     { return cmpInt(a, b) }
func CompareFloat(a, b float64) int { return cmpFloat(a, b) }

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

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

// Equal is Compare(a, b, t) == 0.
func Equal(a, b Value, t Type) bool { return Compare(a, b, t) == 0 }

const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

// mix64 is a 64-bit finalizer (splitmix64) spreading integer keys.
func mix64(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

func hashString(s string) uint64 {
	h := uint64(fnvOffset)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= fnvPrime
	}
	return mix64(h)
}

// Hash hashes a non-NULL value of type t consistently with Compare: equal
// values hash equal (1.0 = 1.00 numerics, char(n) without trailing blanks,
// '1 mon' = '30 days' intervals, -0 = 0 floats).
func Hash(v Value, t Type) uint64 {
	if IsWordKind(t.ID) {
		return mix64(uint64(v.I))
	}
	switch t.ID {
	case Bool, Int2, Int4, Int8, Date, Timestamp, TimestampTZ, Time, TimeTZ:
		return mix64(uint64(v.I))
	case Float4, Float8:
		f := v.F
		if f == 0 {
			f = 0
		}
		if math.IsNaN(f) {
			return mix64(0x7ff8000000000001)
		}
		return mix64(math.Float64bits(f))
	case Numeric:
		return hashNumeric(v.Num)
	case Char:
		return hashString(strings.TrimRight(v.S, " "))
	case Interval:
		d, us := intervalSpan(v.Iv)
		return mix64(uint64(d)*0x9e3779b97f4a7c15 ^ uint64(us))
	case Array:
		return hashArray(v.Arr, t.ElemType())
	case JSONB:
		return hashJSONB(v.S)
	}
	return hashString(v.S)
}

func hashNumeric(d *apd.Decimal) uint64 {
	switch d.Form {
	case apd.NaN, apd.NaNSignaling:
		return mix64(1)
	case apd.Infinite:
		if d.Negative {
			return mix64(2)
		}
		return mix64(3)
	}
	if d.Coeff.Sign() == 0 {
		return mix64(0)
	}
	var r apd.Decimal
	r.Reduce(d)
	h := hashString(r.Coeff.String())
	h = mix64(h ^ uint64(int64(r.Exponent)))
	if r.Negative {
		h = ^h
	}
	return h
}
