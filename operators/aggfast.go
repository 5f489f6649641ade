package operators

import (
	"math"
)

// Batch aggregation. Instead of one types.Value and one Accumulator.Add per
// row, the common aggregates keep typed per-group arrays (aggstate.go) and
// fold whole batches, with group ids assigned per batch (agggroups.go).
// This is exact:
//
//   - sum/avg over integers: 128-bit sums per group; sum(int2/int4) is int8
//     and fails with 22003 if its total does not fit, sum(int8) and avg are
//     numeric, avg finishes through types.AvgNumeric (numeric division's
//     scale rules), so its text is the accumulator's.
//   - min and max over integer-like types: int64 comparisons.
//   - sum/avg over numeric: values of at most 18 significant digits are
//     parsed into a scaled int64 (parseDec); a group's sum keeps the largest
//     input scale, which is the scale PostgreSQL's sum keeps. NaN,
//     infinities, exponents, longer values or an int64 overflow move that
//     group to an exact apd decimal (types.NumericAdd).
//   - sum/avg over floats: added in the accumulator's order with its
//     overflow check.
//
// Everything else (DISTINCT, other types and functions) uses one
// types.Accumulator per group.

// aggKernels can be switched off by tests to compare with the per-row path.
var aggKernels = true

var pow10 = func() [19]int64 {
	var p [19]int64
	p[0] = 1
	for i := 1; i < len(p); i++ {
		p[i] = p[i-1] * 10
	}
	return p
}()

// parseDec parses PostgreSQL's numeric output form "[-]digits[.digits]"
// with at most 18 significant digits into mantissa and scale.
func parseDec(s string) (m int64, scale int, ok bool) {
	i, neg := 0, false
	if len(s) > 0 && (s[0] == '-' || s[0] == '+') {
		neg, i = s[0] == '-', 1
	}
	sig, seen, dot := 0, 0, false
	for ; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			if m != 0 || c != '0' {
				if sig == 18 {
					return 0, 0, false
				}
				sig++
			}
			m = m*10 + int64(c-'0')
			seen++
			if dot {
				scale++
			}
		case c == '.' && !dot:
			dot = true
		default:
			return 0, 0, false
		}
	}
	if seen == 0 || scale > 18 {
		return 0, 0, false
	}
	if neg {
		m = -m
	}
	return m, scale, true
}

// rescale multiplies m by 10^k, reporting overflow.
func rescale(m int64, k int) (int64, bool) {
	if k == 0 {
		return m, true
	}
	if k >= len(pow10) {
		return 0, m == 0
	}
	p := pow10[k]
	if m > math.MaxInt64/p || m < math.MinInt64/p {
		return 0, false
	}
	return m * p, true
}
