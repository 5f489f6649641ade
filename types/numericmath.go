package types

import (
	"context"
	"math"
	"strings"

	"github.com/cockroachdb/apd/v3"
	"github.com/joind/joind/pgerr"
)

// PostgreSQL 15's numeric sqrt, exp, ln, log and power (numeric.c). Each
// picks its result scale with PostgreSQL's rules (which look at the inputs'
// base-10000 digits) and follows PostgreSQL's algorithm step by step: exp_var's
// Taylor series, ln_var's square-root reduction and series, power_var_int's
// repeated squaring, each intermediate rounded (half away from zero) to the
// local scale PostgreSQL picks. apd does the arithmetic (pgMul, pgDiv are
// mul_var and div_var: the exact result rounded to a scale). Matching the
// steps, not just the mathematical value, matters when the value lies near a
// rounding midpoint: PostgreSQL's last digit then follows its own
// intermediate roundings. sqrt is exact, as sqrt_var is.
//
// Every loop checks the statement's context (CHECK_FOR_INTERRUPTS in
// numeric.c): at 16,383 digits of scale a series runs for seconds, and
// cancel and statement_timeout must still end it.

const (
	nbaseDecDigits   = 4     // DEC_DIGITS: decimal digits per base-10000 digit
	numShrtMax       = 32767 // SHRT_MAX, PostgreSQL's numeric weight limit
	numMaxResScale   = 2000  // NUMERIC_MAX_RESULT_SCALE
	numericMaxDscale = 16383 // NUMERIC_DSCALE_MAX
)

// nbaseDigits returns |d|'s base-10000 weight, its first n base-10000 digits
// and its digit count, trailing zero digits stripped: PostgreSQL's NumericVar
// view of the value.
func nbaseDigits(d *apd.Decimal, n int) (weight int, first []int, ndigits int) {
	if d.Form != apd.Finite || d.Coeff.Sign() == 0 {
		return 0, nil, 0
	}
	all := d.Coeff.String()
	digits := strings.TrimRight(all, "0")
	msd := len(all) + int(d.Exponent) - 1           // power of ten of the leading digit
	lsd := int(d.Exponent) + len(all) - len(digits) // power of ten of the last nonzero digit
	weight = int(floorDiv(int64(msd), nbaseDecDigits))
	ndigits = weight - int(floorDiv(int64(lsd), nbaseDecDigits)) + 1
	for w := weight; w > weight-min(n, ndigits); w-- {
		v := 0
		for p := nbaseDecDigits*w + 3; p >= nbaseDecDigits*w; p-- {
			v *= 10
			if idx := msd - p; idx >= 0 && idx < len(digits) {
				v += int(digits[idx] - '0')
			}
		}
		first = append(first, v)
	}
	return weight, first, ndigits
}

// estimateLnDweight is estimate_ln_dweight: the decimal weight of ln(x).
func estimateLnDweight(x *apd.Decimal) int {
	if x.Negative || x.Form != apd.Finite || x.IsZero() {
		return 0
	}
	if x.Cmp(apd.New(9, -1)) >= 0 && x.Cmp(apd.New(11, -1)) <= 0 {
		// ln(1+t) ~= t near 1
		diff, _ := numAdd(x, apd.New(1, 0), true)
		if diff.IsZero() {
			return 0
		}
		w, first, _ := nbaseDigits(diff, 1)
		return w*nbaseDecDigits + int(math.Log10(float64(first[0])))
	}
	w, first, nd := nbaseDigits(x, 2)
	digits := first[0]
	dweight := w * nbaseDecDigits
	if nd > 1 {
		digits = digits*10000 + first[1]
		dweight -= nbaseDecDigits
	}
	lnv := math.Log(float64(digits)) + float64(dweight)*2.302585092994046
	return int(math.Log10(math.Abs(lnv)))
}

// clampScale is the rscale selection's tail: at least every given input
// scale, within [NUMERIC_MIN_DISPLAY_SCALE, NUMERIC_MAX_DISPLAY_SCALE].
func clampScale(r int, scales ...int) int {
	for _, s := range scales {
		r = max(r, s)
	}
	return min(max(r, numericMinDispScale), numericMaxDispScale)
}

// pgRound is round_var: d rounded half away from zero to scale digits after
// the point (scale may be negative), keeping scale as its display scale.
func pgRound(d *apd.Decimal, scale int) *apd.Decimal {
	if scale >= 0 {
		return roundNumericScale(d, scale)
	}
	r := new(apd.Decimal)
	_, _ = roundCtx.Quantize(r, d, int32(-scale))
	return normNum(r)
}

// pgMul is mul_var: the product rounded to rscale. It works on coefficients
// because the exact product's scale may exceed apd's exponent range
// (power_var_int squares values carrying thousands of digits).
func pgMul(a, b *apd.Decimal, rscale int) (*apd.Decimal, error) {
	if a.Form != apd.Finite || b.Form != apd.Finite {
		return numMul(a, b)
	}
	if -rscale > apd.MaxExponent || rscale > -apd.MinExponent {
		return nil, errNumericOverflow()
	}
	res := &apd.Decimal{Negative: a.Negative != b.Negative, Exponent: int32(-rscale)}
	p := &res.Coeff
	p.Mul(&a.Coeff, &b.Coeff)
	if k := int(a.Exponent) + int(b.Exponent) + rscale; k > 0 {
		p.Mul(p, pow10Apd(k))
	} else if k < 0 {
		den := pow10Apd(-k)
		var r apd.BigInt
		p.QuoRem(p, den, &r)
		if r.Lsh(&r, 1).Cmp(den) >= 0 { // half away from zero
			p.Add(p, apdOne)
		}
	}
	return normNum(res), nil
}

// pgDiv is div_var (and div_var_fast, div_var_int): the quotient rounded to rscale.
func pgDiv(a, b *apd.Decimal, rscale int) *apd.Decimal { return divRound(a, b, rscale, true) }

// nbaseWeightOf is a NumericVar's weight (0 for zero).
func nbaseWeightOf(d *apd.Decimal) int {
	if d.Form != apd.Finite || d.Coeff.Sign() == 0 {
		return 0
	}
	return int(floorDiv(d.NumDigits()+int64(d.Exponent)-1, nbaseDecDigits))
}

func numZero(scale int) *apd.Decimal { return roundNumericScale(apd.New(0, 0), scale) }

func numNaN() *apd.Decimal { return &apd.Decimal{Form: apd.NaN} }

func numInf(neg bool) *apd.Decimal { return &apd.Decimal{Form: apd.Infinite, Negative: neg} }

func errSqrtNegative() error {
	return pgerr.New("2201F", "cannot take square root of a negative number")
}

func errLogZero() error { return pgerr.New("2201E", "cannot take logarithm of zero") }

func errLogNegative() error { return pgerr.New("2201E", "cannot take logarithm of a negative number") }

func evalSqrtNumeric(c *EvalContext, a []Value) (Value, error) {
	r, err := numSqrt(c.context(), a[0].Num)
	return Value{Num: r}, err
}

// numSqrt is numeric_sqrt: rscale gives 16 significant digits (from the
// input's base-10000 weight), never less than the input's scale; the root
// is exact, rounded half up.
func numSqrt(_ context.Context, x *apd.Decimal) (*apd.Decimal, error) {
	switch {
	case isNaNNum(x):
		return x, nil
	case x.Negative && !x.IsZero():
		return nil, errSqrtNegative()
	case x.Form == apd.Infinite:
		return x, nil
	}
	sweight := (nbaseWeightOf(x)+1)*nbaseDecDigits/2 - 1
	return sqrtVar(x, clampScale(numericMinSigDigits-sweight, dscale(x))), nil
}

// sqrtVar is sqrt_var: the exact square root of x >= 0 rounded half up to
// rscale digits after the point (rscale may be negative).
func sqrtVar(x *apd.Decimal, rscale int) *apd.Decimal {
	// s = floor(sqrt(c * 10^k)) is the root scaled by 10^rscale.
	c := &x.Coeff
	k := int(x.Exponent) + 2*rscale
	var n, lhs, rhs apd.BigInt
	if k >= 0 {
		n.Mul(c, pow10Apd(k))
	} else {
		n.Quo(c, pow10Apd(-k))
	}
	r := &apd.Decimal{Exponent: int32(-rscale)}
	s := &r.Coeff
	s.Sqrt(&n)
	// Round up when sqrt(c*10^k) >= s + 1/2, i.e. 4*c*10^k >= (2s+1)^2.
	lhs.Lsh(c, 2)
	rhs.Lsh(s, 1)
	rhs.Add(&rhs, apdOne)
	rhs.Mul(&rhs, &rhs)
	if k >= 0 {
		lhs.Mul(&lhs, pow10Apd(k))
	} else {
		rhs.Mul(&rhs, pow10Apd(-k))
	}
	if lhs.Cmp(&rhs) >= 0 {
		s.Add(s, apdOne)
	}
	return r
}

// numLn is numeric_ln.
func numLn(ctx context.Context, x *apd.Decimal) (*apd.Decimal, error) {
	switch {
	case isNaNNum(x):
		return x, nil
	case x.Form == apd.Finite && x.IsZero():
		return nil, errLogZero()
	case x.Negative:
		return nil, errLogNegative()
	case x.Form == apd.Infinite:
		return x, nil
	}
	rscale := clampScale(numericMinSigDigits-estimateLnDweight(x), dscale(x))
	return lnVar(ctx, x, rscale)
}

var (
	numPointNine    = apd.New(9, -1)
	numOnePointOne  = apd.New(11, -1)
	numOne          = apd.New(1, 0)
	numTwo          = apd.New(2, 0)
	numLog10EFactor = 0.301029995663981 // log10(2)
)

// lnVar is ln_var for x > 0: square roots bring x into (0.9, 1.1), then the
// series for 0.5*ln((1+z)/(1-z)), z = (x-1)/(x+1), scaled back by 2^(nsqrt+1).
func lnVar(ctx context.Context, x *apd.Decimal, rscale int) (*apd.Decimal, error) {
	fact := numTwo
	nsqrt := 0
	for x.Cmp(numPointNine) <= 0 || x.Cmp(numOnePointOne) >= 0 {
		if err := checkCanceled(ctx); err != nil {
			return nil, err
		}
		localRscale := rscale - nbaseWeightOf(x)*nbaseDecDigits/2 + 8
		x = sqrtVar(x, localRscale)
		fact, _ = numMul(fact, numTwo)
		nsqrt++
	}
	localRscale := rscale + int(float64(nsqrt+1)*numLog10EFactor) + 8
	num, _ := numAdd(x, numOne, true)
	den, _ := numAdd(x, numOne, false)
	result := pgDiv(num, den, localRscale)
	xx := result
	z2, err := pgMul(result, result, localRscale)
	if err != nil {
		return nil, err
	}
	for ni := 3; ; ni += 2 {
		if err := checkCanceled(ctx); err != nil {
			return nil, err
		}
		if xx, err = pgMul(xx, z2, localRscale); err != nil {
			return nil, err
		}
		elem := pgDiv(xx, apd.New(int64(ni), 0), localRscale)
		if elem.IsZero() {
			break
		}
		result, _ = numAdd(result, elem, false)
		if nbaseWeightOf(elem) < nbaseWeightOf(result)-localRscale*2/nbaseDecDigits {
			break
		}
	}
	return pgMul(result, fact, rscale)
}

// numLog is numeric_log (log(base, x)); log(x) and log10(x) are log(10, x).
func numLog(ctx context.Context, base, x *apd.Decimal) (*apd.Decimal, error) {
	if isNaNNum(x) || isNaNNum(base) {
		return numNaN(), nil
	}
	for _, v := range []*apd.Decimal{base, x} {
		if v.Form == apd.Finite && v.IsZero() {
			return nil, errLogZero()
		}
		if v.Negative {
			return nil, errLogNegative()
		}
	}
	if base.Form == apd.Infinite {
		if x.Form == apd.Infinite {
			return numNaN(), nil // Inf/Inf
		}
		return apd.New(0, 0), nil
	}
	if x.Form == apd.Infinite {
		return numInf(false), nil
	}
	if base.Cmp(apd.New(1, 0)) == 0 {
		return nil, errDivisionByZero() // ln(1) = 0 is the divisor
	}
	return logVar(ctx, base, x)
}

// logVar is log_var: ln(x)/ln(base), each logarithm carrying 8 more
// significant digits than the result needs.
func logVar(ctx context.Context, base, x *apd.Decimal) (*apd.Decimal, error) {
	baseDw, xDw := estimateLnDweight(base), estimateLnDweight(x)
	resDw := xDw - baseDw
	rscale := clampScale(numericMinSigDigits-resDw, dscale(base), dscale(x))
	lnBase, err := lnVar(ctx, base, max(rscale+resDw-baseDw+8, numericMinDispScale))
	if err != nil {
		return nil, err
	}
	lnX, err := lnVar(ctx, x, max(rscale+resDw-xDw+8, numericMinDispScale))
	if err != nil {
		return nil, err
	}
	return pgDiv(lnX, lnBase, rscale), nil
}

// numExp is numeric_exp: rscale gives 16 significant digits of the result.
func numExp(ctx context.Context, x *apd.Decimal) (*apd.Decimal, error) {
	if isNaNNum(x) {
		return x, nil
	}
	if x.Form == apd.Infinite {
		if x.Negative {
			return apd.New(0, 0), nil
		}
		return x, nil
	}
	val := numericToFloat(x, 64) * 0.434294481903252
	val = max(-numMaxResScale, min(numMaxResScale, val))
	rscale := clampScale(numericMinSigDigits-int(val), dscale(x))
	return expVar(ctx, x, rscale)
}

// expVar is exp_var: e^x rounded to rscale; |x| >= 6000 overflows or is 0.
// x is halved until |x| <= 0.01, the Taylor series runs until its terms
// round to zero, and the result is squared back.
func expVar(ctx context.Context, x *apd.Decimal, rscale int) (*apd.Decimal, error) {
	val := numericToFloat(x, 64)
	if math.Abs(val) >= numMaxResScale*3 {
		if val > 0 {
			return nil, errNumericOverflow()
		}
		return numZero(rscale), nil
	}
	dweight := int(val * 0.434294481903252)
	ndiv2 := 0
	if math.Abs(val) > 0.01 {
		for ndiv2, val = 1, val/2; math.Abs(val) > 0.01; val /= 2 {
			ndiv2++
		}
		x = pgDiv(x, apd.New(1<<ndiv2, 0), dscale(x)+ndiv2)
	}
	sigDigits := max(1+dweight+rscale+int(float64(ndiv2)*numLog10EFactor), 0) + 8
	localRscale := sigDigits - 1
	result, _ := numAdd(numOne, x, false)
	elem, err := pgMul(x, x, localRscale)
	if err != nil {
		return nil, err
	}
	ni := int64(2)
	elem = pgDiv(elem, apd.New(ni, 0), localRscale)
	for !elem.IsZero() {
		if err := checkCanceled(ctx); err != nil {
			return nil, err
		}
		result, _ = numAdd(result, elem, false)
		if elem, err = pgMul(elem, x, localRscale); err != nil {
			return nil, err
		}
		ni++
		elem = pgDiv(elem, apd.New(ni, 0), localRscale)
	}
	for ; ndiv2 > 0; ndiv2-- {
		if err := checkCanceled(ctx); err != nil {
			return nil, err
		}
		localRscale = max(sigDigits-nbaseWeightOf(result)*2*nbaseDecDigits, numericMinDispScale)
		if result, err = pgMul(result, result, localRscale); err != nil {
			return nil, err
		}
		if nbaseWeightOf(result) > numShrtMax {
			return nil, errNumericOverflow()
		}
	}
	return pgRound(result, rscale), nil
}

func evalPowNumeric(c *EvalContext, a []Value) (Value, error) {
	r, err := numPow(c.context(), a[0].Num, a[1].Num)
	return Value{Num: r}, err
}

func errZeroNegativePower() error {
	return pgerr.New("2201F", "zero raised to a negative power is undefined")
}

func errComplexPower() error {
	return pgerr.New("2201F", "a negative number raised to a non-integer power yields a complex result")
}

// numIsIntegral is numeric_is_integral: infinities count as integral.
func numIsIntegral(d *apd.Decimal) bool {
	switch d.Form {
	case apd.Infinite:
		return true
	case apd.Finite:
		i := new(apd.Decimal)
		_, _ = exactCtx.RoundToIntegralValue(i, d)
		return i.Cmp(d) == 0
	}
	return false
}

// numIsOdd reports whether the integral finite d is odd.
func numIsOdd(d *apd.Decimal) bool {
	if d.Exponent > 0 {
		return false // a multiple of 10
	}
	i := new(apd.Decimal)
	_, _ = roundCtx.Quantize(i, d, 0)
	return i.Coeff.MathBigInt().Bit(0) == 1
}

// numPow is numeric_power: POSIX pow(3) rules for NaN and infinities,
// power_var for finite inputs.
func numPow(ctx context.Context, x, y *apd.Decimal) (*apd.Decimal, error) {
	one := apd.New(1, 0)
	if x.Form != apd.Finite || y.Form != apd.Finite {
		switch {
		case isNaNNum(x):
			if y.Form == apd.Finite && y.IsZero() {
				return apd.New(1, 0), nil
			}
			return numNaN(), nil
		case isNaNNum(y):
			if x.Form == apd.Finite && x.Cmp(one) == 0 {
				return apd.New(1, 0), nil
			}
			return numNaN(), nil
		}
		sx, sy := x.Sign(), y.Sign()
		if sx == 0 && sy < 0 {
			return nil, errZeroNegativePower()
		}
		if sx < 0 && !numIsIntegral(y) {
			return nil, errComplexPower()
		}
		if x.Form == apd.Finite && x.Cmp(one) == 0 {
			return apd.New(1, 0), nil
		}
		if sy == 0 {
			return apd.New(1, 0), nil
		}
		if sx == 0 && sy > 0 {
			return apd.New(0, 0), nil
		}
		if y.Form == apd.Infinite {
			absGtOne := true // x is ±Infinity
			if x.Form == apd.Finite {
				if x.Cmp(apd.New(-1, 0)) == 0 {
					return apd.New(1, 0), nil
				}
				absGtOne = new(apd.Decimal).Abs(x).Cmp(one) > 0
			}
			if absGtOne == (sy > 0) {
				return numInf(false), nil
			}
			return apd.New(0, 0), nil
		}
		if !x.Negative { // +Infinity
			if sy > 0 {
				return numInf(false), nil
			}
			return apd.New(0, 0), nil
		}
		if sy < 0 { // -Infinity ^ negative
			return apd.New(0, 0), nil
		}
		return numInf(numIsOdd(y)), nil
	}
	if x.IsZero() && y.Negative {
		return nil, errZeroNegativePower()
	}
	r, err := powerVar(ctx, x, y)
	if err != nil {
		return nil, err
	}
	return numCheckRange(r)
}

// powerVar is power_var for finite inputs.
func powerVar(ctx context.Context, base, exp *apd.Decimal) (*apd.Decimal, error) {
	if numIsIntegral(exp) {
		if n, err := exp.Int64(); err == nil && n >= math.MinInt32 && n <= math.MaxInt32 {
			return powerVarInt(ctx, base, n, clampScale(numericMinSigDigits, dscale(base)))
		}
	}
	if base.IsZero() {
		return numZero(numericMinSigDigits), nil // 0 ^ non-integer
	}
	neg := false
	if base.Negative {
		if !numIsIntegral(exp) {
			return nil, errComplexPower()
		}
		neg = numIsOdd(exp)
		base = new(apd.Decimal).Abs(base)
	}
	// A low-precision exp * ln(base) (ln to about 8 significant digits)
	// estimates the result's weight, which picks rscale; then the real
	// exp * ln(base) carries 8 digits more than the result needs.
	lnDweight := estimateLnDweight(base)
	localRscale := max(8-lnDweight, numericMinDispScale)
	lnBase, err := lnVar(ctx, base, localRscale)
	if err != nil {
		return nil, err
	}
	lnNum, err := pgMul(lnBase, exp, localRscale)
	if err != nil {
		return nil, err
	}
	val := numericToFloat(lnNum, 64)
	if math.Abs(val) > numMaxResScale*3.01 {
		if val > 0 {
			return nil, errNumericOverflow()
		}
		return numZero(numericMaxDispScale), nil
	}
	val *= 0.434294481903252 // approximate decimal weight of the result
	rscale := clampScale(numericMinSigDigits-int(val), dscale(base), dscale(exp))
	sig := max(rscale+int(val), 0)
	localRscale = max(sig-lnDweight+8, numericMinDispScale)
	if lnBase, err = lnVar(ctx, base, localRscale); err != nil {
		return nil, err
	}
	t, err := pgMul(lnBase, exp, localRscale)
	if err != nil {
		return nil, err
	}
	r, err := expVar(ctx, t, rscale)
	if err != nil {
		return nil, err
	}
	if neg && !r.IsZero() {
		r.Negative = true
	}
	return r, nil
}

// powerVarInt is power_var_int: base^n for an int32 n, rounded to rscale.
func powerVarInt(ctx context.Context, base *apd.Decimal, n int64, rscale int) (*apd.Decimal, error) {
	switch n {
	case 0:
		return roundNumericScale(apd.New(1, 0), rscale), nil // 0 ^ 0 = 1 too
	case 1:
		return roundNumericScale(base, rscale), nil
	case -1:
		return divRound(apd.New(1, 0), base, rscale, true), nil
	case 2:
		return pgMul(base, base, rscale)
	}
	if base.IsZero() {
		return numZero(rscale), nil
	}
	// log10(result) ~= n * log10(base), from base's leading 16 digits.
	w, first, _ := nbaseDigits(base, 4)
	f := float64(first[0])
	p := w * nbaseDecDigits
	for i := 1; i < len(first) && i*nbaseDecDigits < 16; i++ {
		f = f*10000 + float64(first[i])
		p -= nbaseDecDigits
	}
	f = float64(n) * (math.Log10(f) + float64(p))
	if f > 3*numShrtMax*nbaseDecDigits {
		return nil, errNumericOverflow()
	}
	if f+1 < float64(-rscale) || f+1 < -numericMaxDispScale {
		return numZero(rscale), nil
	}
	// Significant digits of the result plus those the multiplications may
	// lose (about log(|n|)) plus 8.
	sigDigits := 1 + rscale + int(f) + int(math.Log(math.Abs(float64(n)))) + 8
	neg := n < 0
	mask := uint32(n)
	if neg {
		mask = uint32(-n)
	}
	prod := base
	result := numOne
	if mask&1 != 0 {
		result = base
	}
	var err error
	for mask >>= 1; mask > 0; mask >>= 1 {
		if err := checkCanceled(ctx); err != nil {
			return nil, err
		}
		local := min(sigDigits-2*nbaseWeightOf(prod)*nbaseDecDigits, 2*dscale(prod))
		if prod, err = pgMul(prod, prod, max(local, numericMinDispScale)); err != nil {
			return nil, errNumericOverflow()
		}
		if mask&1 != 0 {
			local = min(sigDigits-(nbaseWeightOf(prod)+nbaseWeightOf(result))*nbaseDecDigits, dscale(prod)+dscale(result))
			if result, err = pgMul(prod, result, max(local, numericMinDispScale)); err != nil {
				return nil, errNumericOverflow()
			}
		}
		if nbaseWeightOf(prod) > numShrtMax || nbaseWeightOf(result) > numShrtMax {
			if !neg {
				return nil, errNumericOverflow()
			}
			return numZero(rscale), nil
		}
	}
	if neg {
		return pgDiv(numOne, result, rscale), nil
	}
	return pgRound(result, rscale), nil
}
