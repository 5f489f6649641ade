package types

import (
	"math"
	"math/big"
	"strings"

	"github.com/cockroachdb/apd/v3"
	"github.com/joind/joind/pgerr"
)

// scale, min_scale, trim_scale, gcd, lcm, factorial and width_bucket as in
// PostgreSQL 15 (numeric.c, int.c, int8.c, float.c).

// minScale is get_min_scale: the fewest digits after the point that still
// hold d exactly.
func minScale(d *apd.Decimal) int {
	if d.Coeff.Sign() == 0 || d.Exponent >= 0 {
		return 0
	}
	digits := d.Coeff.String()
	return max(dscale(d)-(len(digits)-len(strings.TrimRight(digits, "0"))), 0)
}

// scaledCoeffs returns a and b as integers over 10^s, s = max(dscale).
func scaledCoeffs(a, b *apd.Decimal) (x, y *big.Int, s int) {
	s = max(dscale(a), dscale(b))
	x = new(big.Int).Mul(toBig(a), pow10Big(int(a.Exponent)+s))
	y = new(big.Int).Mul(toBig(b), pow10Big(int(b.Exponent)+s))
	return x.Abs(x), y.Abs(y), s
}

func decimalFromBig(c *big.Int, scale int) *apd.Decimal {
	d := new(apd.Decimal)
	d.Coeff.SetMathBigInt(new(big.Int).Abs(c))
	d.Negative = c.Sign() < 0
	d.Exponent = int32(-scale)
	return normNum(d)
}

// numGcd is numeric_gcd (gcd_var): exact, scale max(dscale), never negative.
func numGcd(a, b *apd.Decimal) *apd.Decimal {
	if a.Form != apd.Finite || b.Form != apd.Finite {
		return numNaN()
	}
	x, y, s := scaledCoeffs(a, b)
	return decimalFromBig(new(big.Int).GCD(nil, nil, x, y), s)
}

// numLcm is numeric_lcm: |a / gcd(a, b) * b|, 0 if either is 0.
func numLcm(a, b *apd.Decimal) *apd.Decimal {
	if a.Form != apd.Finite || b.Form != apd.Finite {
		return numNaN()
	}
	x, y, s := scaledCoeffs(a, b)
	if x.Sign() == 0 || y.Sign() == 0 {
		return numZero(s)
	}
	g := new(big.Int).GCD(nil, nil, x, y)
	return decimalFromBig(new(big.Int).Mul(x.Quo(x, g), y), s)
}

// intGcdLcm is int4gcd/int4lcm and int8gcd/int8lcm: a result outside the
// type's range (gcd(INT_MIN, 0), lcm overflow) is an error.
func intGcdLcm(lcm bool, id ID) evalFn {
	return func(_ *EvalContext, a []Value) (Value, error) {
		x, y := big.NewInt(a[0].I), big.NewInt(a[1].I)
		x.Abs(x)
		y.Abs(y)
		if lcm && (x.Sign() == 0 || y.Sign() == 0) {
			return Value{I: 0}, nil // before the gcd, which overflows for lcm(INT_MIN, 0)
		}
		r := new(big.Int).GCD(nil, nil, x, y)
		if !r.IsInt64() || checkIntRange(r.Int64(), id) != nil {
			return Value{}, errIntOutOfRange(id)
		}
		if lcm {
			r.Mul(x.Quo(x, r), y)
			if !r.IsInt64() || checkIntRange(r.Int64(), id) != nil {
				return Value{}, errIntOutOfRange(id)
			}
		}
		return Value{I: r.Int64()}, nil
	}
}

// numFactorial is numeric_fac.
func numFactorial(n int64) (*apd.Decimal, error) {
	if n < 0 {
		return nil, pgerr.New(pgerr.NumericValueOutOfRange, "factorial of a negative number is undefined")
	}
	if n <= 1 {
		return apd.New(1, 0), nil
	}
	if n > 32177 { // the result would exceed numeric's range
		return nil, errNumericOverflow()
	}
	return numCheckRange(decimalFromBig(new(big.Int).MulRange(2, n), 0))
}

func errWidthBucket(msg string) error { return pgerr.New("2201G", "%s", msg) }

// numWidthBucket is width_bucket_numeric.
func numWidthBucket(op, b1, b2 *apd.Decimal, count int64) (int64, error) {
	if count <= 0 {
		return 0, errWidthBucket("count must be greater than zero")
	}
	if isNaNNum(op) || isNaNNum(b1) || isNaNNum(b2) {
		return 0, errWidthBucket("operand, lower bound, and upper bound cannot be NaN")
	}
	if b1.Form != apd.Finite || b2.Form != apd.Finite {
		return 0, errWidthBucket("lower and upper bounds must be finite")
	}
	var r int64
	switch c := compareNumeric(b1, b2); {
	case c == 0:
		return 0, errWidthBucket("lower bound cannot equal upper bound")
	case c < 0 && compareNumeric(op, b1) < 0, c > 0 && compareNumeric(op, b1) > 0:
		r = 0
	case c < 0 && compareNumeric(op, b2) >= 0, c > 0 && compareNumeric(op, b2) <= 0:
		r = count + 1
	default:
		// compute_bucket: floor((op - b1) * count / (b2 - b1)) + 1, the
		// division at select_div_scale and rounded as numeric division
		// is (so a quotient a hair below an integer may round up to it);
		// the quotient is never negative here, so truncating is floor.
		num, _ := numAdd(op, b1, true)
		den, _ := numAdd(b2, b1, true)
		num, _ = numMul(num, apd.New(count, 0))
		qd, _ := numDiv(num, den)
		q, err := divRound(qd, apd.New(1, 0), 0, false).Int64()
		if err != nil {
			return 0, errIntOutOfRange(Int4)
		}
		r = q + 1
	}
	if r > math.MaxInt32 {
		return 0, errIntOutOfRange(Int4)
	}
	return r, nil
}

// cvttsd2si32 is C's double-to-int32 conversion on x86-64: truncation, and
// INT_MIN for NaN or out-of-range values (width_bucket_float8 relies on it
// when the bounds' difference overflows to infinity).
func cvttsd2si32(f float64) int64 {
	if math.IsNaN(f) || f >= 1<<31 || f <= -(1<<31)-1 {
		return math.MinInt32
	}
	return int64(f)
}

// floatWidthBucket is width_bucket_float8.
func floatWidthBucket(op, b1, b2 float64, count int64) (int64, error) {
	if count <= 0 {
		return 0, errWidthBucket("count must be greater than zero")
	}
	if math.IsNaN(op) || math.IsNaN(b1) || math.IsNaN(b2) {
		return 0, errWidthBucket("operand, lower bound, and upper bound cannot be NaN")
	}
	if math.IsInf(b1, 0) || math.IsInf(b2, 0) {
		return 0, errWidthBucket("lower and upper bounds must be finite")
	}
	var r int64
	switch {
	case b1 < b2:
		switch {
		case op < b1:
			r = 0
		case op >= b2:
			r = count + 1
		default:
			r = cvttsd2si32(float64(count)*(op-b1)/(b2-b1) + 1)
		}
	case b1 > b2:
		switch {
		case op > b1:
			r = 0
		case op <= b2:
			r = count + 1
		default:
			r = cvttsd2si32(float64(count)*(b1-op)/(b1-b2) + 1)
		}
	default:
		return 0, errWidthBucket("lower bound cannot equal upper bound")
	}
	if r > math.MaxInt32 {
		return 0, errIntOutOfRange(Int4)
	}
	return r, nil
}

func registerNumericFuncs() {
	regFn("scale", []ID{Numeric}, Int4, func(_ *EvalContext, a []Value) (Value, error) {
		if a[0].Num.Form != apd.Finite {
			return Value{Null: true}, nil
		}
		return Value{I: int64(dscale(a[0].Num))}, nil
	})
	regFn("min_scale", []ID{Numeric}, Int4, func(_ *EvalContext, a []Value) (Value, error) {
		if a[0].Num.Form != apd.Finite {
			return Value{Null: true}, nil
		}
		return Value{I: int64(minScale(a[0].Num))}, nil
	})
	regFn("trim_scale", []ID{Numeric}, Numeric, func(_ *EvalContext, a []Value) (Value, error) {
		if a[0].Num.Form != apd.Finite {
			return a[0], nil
		}
		return Value{Num: roundNumericScale(a[0].Num, minScale(a[0].Num))}, nil
	})
	regFn("numeric_inc", []ID{Numeric}, Numeric, func(_ *EvalContext, a []Value) (Value, error) {
		r, err := numAdd(a[0].Num, apd.New(1, 0), false)
		if err == nil {
			r, err = numCheckRange(r)
		}
		return Value{Num: r}, err
	})
	for _, id := range []ID{Int4, Int8} {
		regFn("gcd", []ID{id, id}, id, intGcdLcm(false, id))
		regFn("lcm", []ID{id, id}, id, intGcdLcm(true, id))
	}
	regFn("gcd", []ID{Numeric, Numeric}, Numeric, func(_ *EvalContext, a []Value) (Value, error) {
		return Value{Num: numGcd(a[0].Num, a[1].Num)}, nil
	})
	regFn("lcm", []ID{Numeric, Numeric}, Numeric, func(_ *EvalContext, a []Value) (Value, error) {
		r, err := numCheckRange(numLcm(a[0].Num, a[1].Num))
		return Value{Num: r}, err
	})
	regFn("factorial", []ID{Int8}, Numeric, func(_ *EvalContext, a []Value) (Value, error) {
		r, err := numFactorial(a[0].I)
		return Value{Num: r}, err
	})
	regFn("width_bucket", []ID{Numeric, Numeric, Numeric, Int4}, Int4, func(_ *EvalContext, a []Value) (Value, error) {
		r, err := numWidthBucket(a[0].Num, a[1].Num, a[2].Num, a[3].I)
		return Value{I: r}, err
	})
	regFn("width_bucket", []ID{Float8, Float8, Float8, Int4}, Int4, func(_ *EvalContext, a []Value) (Value, error) {
		r, err := floatWidthBucket(a[0].F, a[1].F, a[2].F, a[3].I)
		return Value{I: r}, err
	})
}
