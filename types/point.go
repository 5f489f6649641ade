package types

import (
	"encoding/binary"
	"math"
	"strings"

	"github.com/joind/joind/pgerr"
)

// point (OID 600, array 1017, category G) is geo_ops.c's pair of float8s.
// Value.S holds its 16 bytes as PostgreSQL keeps them in memory (x then y,
// each a little-endian float8), so record_image_cmp's memcmp of the image
// is a bytewise comparison of S. point has no btree operator class: no
// equality, no ordering (HasEquality), as in PostgreSQL, where only ~= and
// the geometric operators compare points.

// PointValue is the point (x, y).
func PointValue(x, y float64) Value {
	var b [16]byte
	binary.LittleEndian.PutUint64(b[:8], math.Float64bits(x))
	binary.LittleEndian.PutUint64(b[8:], math.Float64bits(y))
	return Value{S: string(b[:])}
}

// PointXY is the coordinates of a point value.
func PointXY(v Value) (x, y float64) {
	if len(v.S) != 16 {
		return 0, 0
	}
	return math.Float64frombits(binary.LittleEndian.Uint64([]byte(v.S[:8]))),
		math.Float64frombits(binary.LittleEndian.Uint64([]byte(v.S[8:])))
}

// appendPoint is point_out: pair_encode's "(x,y)", each coordinate as
// float8out writes it.
func appendPoint(dst []byte, v Value, efd int) []byte {
	x, y := PointXY(v)
	dst = append(dst, '(')
	dst = appendFloat(dst, x, 64, efd)
	dst = append(dst, ',')
	dst = appendFloat(dst, y, 64, efd)
	return append(dst, ')')
}

// parsePoint is point_in (pair_decode): optional whitespace, an optional
// "(", x "," y, the matching ")", trailing whitespace; each coordinate is
// float8in_internal's, which skips whitespace around the number.
func parsePoint(in string) (Value, error) {
	syntax := pgerr.New(pgerr.InvalidTextRepresentation, "invalid input syntax for type point: \"%s\"", in)
	s := strings.TrimLeft(in, " \t\n\r\v\f")
	delim := strings.HasPrefix(s, "(")
	if delim {
		s = s[1:]
	}
	x, rest, err := float8Prefix(s, in)
	if err != nil {
		return Value{}, err
	}
	if !strings.HasPrefix(rest, ",") {
		return Value{}, syntax
	}
	y, rest, err := float8Prefix(rest[1:], in)
	if err != nil {
		return Value{}, err
	}
	if delim {
		if !strings.HasPrefix(rest, ")") {
			return Value{}, syntax
		}
		rest = strings.TrimLeft(rest[1:], " \t\n\r\v\f")
	}
	if rest != "" {
		return Value{}, syntax
	}
	return PointValue(x, y), nil
}

// float8Prefix is float8in_internal with an end pointer: the number at
// the start of s (whitespace around it skipped) and what follows it. A
// malformed number is point's syntax error; one out of range is float8's.
func float8Prefix(s, orig string) (float64, string, error) {
	s = strings.TrimLeft(s, " \t\n\r\v\f")
	n := strtodLen(s)
	if n == 0 {
		return 0, "", pgerr.New(pgerr.InvalidTextRepresentation, "invalid input syntax for type point: \"%s\"", orig)
	}
	f, err := parseFloat(s[:n], Float8)
	if err != nil {
		if e, ok := err.(*pgerr.Error); ok && e.Code == pgerr.InvalidTextRepresentation {
			return 0, "", pgerr.New(pgerr.InvalidTextRepresentation, "invalid input syntax for type point: \"%s\"", orig)
		}
		return 0, "", err
	}
	return f, strings.TrimLeft(s[n:], " \t\n\r\v\f"), nil
}

// strtodLen is the length of the number strtod reads at the start of s:
// a sign, then NaN / Infinity / Inf, or digits with an optional fraction
// and exponent.
func strtodLen(s string) int {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	low := strings.ToLower(s[i:])
	for _, w := range []string{"infinity", "inf", "nan"} {
		if strings.HasPrefix(low, w) {
			return i + len(w)
		}
	}
	i, nd := scanMantissa(s, i)
	if nd == 0 {
		return 0
	}
	i = scanExponent(s, i, 'e')
	return i
}
