package types

import (
	"math"
	"strconv"

	"github.com/joind/joind/pgerr"
)

func errInputOutOfRange() error {
	return pgerr.New(pgerr.NumericValueOutOfRange, "input is out of range")
}

// The degree-based trigonometric functions are PostgreSQL's (float.c):
// the argument is reduced to the first quadrant and the result scaled by
// the function's value at 30, 45 or 60 degrees, so sind(30) is exactly 0.5.
var (
	sin30          = libmSin(30 * radiansPerDeg)
	oneMinusCos60  = 1 - libmCos(60*radiansPerDeg)
	asin0p5        = libmAsin(0.5)
	acos0p5        = libmAcos(0.5)
	atan1          = libmAtan(1)
	tan45          = sindQ1(45) / cosdQ1(45)
	cot45          = cosdQ1(45) / sindQ1(45)
	radiansPerDeg  = 0.0174532925199432957692
	degreeTrigFns  = map[string]func(float64) (float64, error){"sind": sind, "cosd": cosd, "tand": tand, "cotd": cotd, "asind": asind, "acosd": acosd, "atand": atand}
	hyperbolicFns  = map[string]func(float64) (float64, error){"asinh": asinhPG, "acosh": acoshPG, "atanh": atanhPG}
	shiftOperators = []string{"<<", ">>"}
)

func sind0to30(x float64) float64 { return libmSin(x*radiansPerDeg) / sin30 / 2 }
func cosd0to60(x float64) float64 { return 1 - (1-libmCos(x*radiansPerDeg))/oneMinusCos60/2 }

func sindQ1(x float64) float64 {
	if x <= 30 {
		return sind0to30(x)
	}
	return cosd0to60(90 - x)
}

func cosdQ1(x float64) float64 {
	if x <= 60 {
		return cosd0to60(x)
	}
	return sind0to30(90 - x)
}

// reduceDegrees folds x into [0, 90] for sind (cos=false: sine's sign
// rules) or cosd; tangent and cotangent fold like sine, negating past 90.
func reduceDegrees(x float64, kind byte) (float64, float64) {
	sign := 1.0
	x = math.Mod(x, 360)
	if x < 0 {
		x = -x
		if kind != 'c' {
			sign = -sign
		}
	}
	if x > 180 {
		x = 360 - x
		if kind != 'c' {
			sign = -sign
		}
	}
	if x > 90 {
		x = 180 - x
		if kind != 's' {
			sign = -sign
		}
	}
	return x, sign
}

func degreeArg(x float64) (bool, error) {
	if math.IsNaN(x) {
		return true, nil
	}
	if math.IsInf(x, 0) {
		return false, errInputOutOfRange()
	}
	return false, nil
}

func sind(x float64) (float64, error) {
	if nan, err := degreeArg(x); nan || err != nil {
		return math.NaN(), err
	}
	x, sign := reduceDegrees(x, 's')
	return sign * sindQ1(x), nil
}

func cosd(x float64) (float64, error) {
	if nan, err := degreeArg(x); nan || err != nil {
		return math.NaN(), err
	}
	x, sign := reduceDegrees(x, 'c')
	return sign * cosdQ1(x), nil
}

func tand(x float64) (float64, error) {
	if nan, err := degreeArg(x); nan || err != nil {
		return math.NaN(), err
	}
	x, sign := reduceDegrees(x, 't')
	r := sign * (sindQ1(x) / cosdQ1(x) / tan45)
	if r == 0 {
		r = 0 // never minus zero
	}
	return r, nil
}

func cotd(x float64) (float64, error) {
	if nan, err := degreeArg(x); nan || err != nil {
		return math.NaN(), err
	}
	x, sign := reduceDegrees(x, 't')
	r := sign * (cosdQ1(x) / sindQ1(x) / cot45)
	if r == 0 {
		r = 0
	}
	return r, nil
}

func asindQ1(x float64) float64 {
	if x <= 0.5 {
		return libmAsin(x) / asin0p5 * 30
	}
	return 90 - libmAcos(x)/acos0p5*60
}

func acosdQ1(x float64) float64 {
	if x <= 0.5 {
		return 90 - libmAsin(x)/asin0p5*30
	}
	return libmAcos(x) / acos0p5 * 60
}

// arcDegrees is dasind/dacosd's frame: NaN passes, |x| > 1 is an error,
// x >= 0 takes pos(x) and x < 0 neg(-x).
func arcDegrees(x float64, pos, neg func(float64) float64) (float64, error) {
	switch {
	case math.IsNaN(x):
		return x, nil
	case x < -1 || x > 1:
		return 0, errInputOutOfRange()
	case x >= 0:
		return pos(x), nil
	}
	return neg(-x), nil
}

func asind(x float64) (float64, error) {
	return arcDegrees(x, asindQ1, func(y float64) float64 { return -asindQ1(y) })
}

func acosd(x float64) (float64, error) {
	return arcDegrees(x, acosdQ1, func(y float64) float64 { return 90 + asindQ1(y) })
}

func atand(x float64) (float64, error) {
	if math.IsNaN(x) {
		return x, nil
	}
	return libmAtan(x) / atan1 * 45, nil
}

func asinhPG(x float64) (float64, error) { return libmAsinh(x), nil }

func acoshPG(x float64) (float64, error) {
	if x < 1 { // NaN passes
		return 0, errInputOutOfRange()
	}
	return libmAcosh(x), nil
}

func atanhPG(x float64) (float64, error) {
	if x < -1 || x > 1 {
		return 0, errInputOutOfRange()
	}
	return libmAtanh(x), nil // ±1 gives ±Infinity, as in PostgreSQL
}

// shift is int2/int4/int8 << and >> as PostgreSQL's C computes them on
// x86-64: the count taken modulo the operand width (int2 is shifted as an
// int and truncated back).
func shift(op string, x, n int64, id ID) int64 {
	if id == Int8 {
		if op == "<<" {
			return x << (uint64(n) & 63)
		}
		return x >> (uint64(n) & 63)
	}
	v := int32(x)
	if op == "<<" {
		v <<= uint32(n) & 31
	} else {
		v >>= uint32(n) & 31
	}
	if id == Int2 {
		return int64(int16(v))
	}
	return int64(v)
}

func registerMathFuncs() {
	for name, fn := range degreeTrigFns {
		fn := fn
		regFn(name, []ID{Float8}, Float8, func(_ *EvalContext, a []Value) (Value, error) {
			r, err := fn(a[0].F)
			return Value{F: r}, err
		})
	}
	for name, fn := range hyperbolicFns {
		fn := fn
		regFn(name, []ID{Float8}, Float8, func(_ *EvalContext, a []Value) (Value, error) {
			r, err := fn(a[0].F)
			return Value{F: r}, err
		})
	}
	regFn("atan2d", []ID{Float8, Float8}, Float8, func(_ *EvalContext, a []Value) (Value, error) {
		if math.IsNaN(a[0].F) || math.IsNaN(a[1].F) {
			return Value{F: math.NaN()}, nil
		}
		return Value{F: libmAtan2(a[0].F, a[1].F) / atan1 * 45}, nil
	})
	for _, id := range intIDs {
		id := id
		for _, op := range shiftOperators {
			op := op
			regOp(op, []ID{id, Int4}, id, func(_ *EvalContext, a []Value) (Value, error) {
				return Value{I: shift(op, a[0].I, a[1].I, id)}, nil
			})
		}
		regOp("~", []ID{id}, id, func(_ *EvalContext, a []Value) (Value, error) { return Value{I: ^a[0].I}, nil })
	}
	regFn("to_hex", []ID{Int4}, Text, func(_ *EvalContext, a []Value) (Value, error) {
		return Value{S: strconv.FormatUint(uint64(uint32(a[0].I)), 16)}, nil
	})
	regFn("to_hex", []ID{Int8}, Text, func(_ *EvalContext, a []Value) (Value, error) {
		return Value{S: strconv.FormatUint(uint64(a[0].I), 16)}, nil
	})
}
