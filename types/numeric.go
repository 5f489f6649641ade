package types

import (
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/cockroachdb/apd/v3"
	"github.com/joind/joind/pgerr"
)

// exactCtx performs exact add/sub/mul; roundCtx quantizes half away from
// zero, which is how PostgreSQL's round_var rounds.
var (
	exactCtx = apd.BaseContext
	roundCtx = apd.Context{
		Precision:   1 << 20,
		MaxExponent: apd.MaxExponent,
		MinExponent: apd.MinExponent,
		Traps:       apd.DefaultTraps,
		Rounding:    apd.RoundHalfUp,
	}
	truncCtx = apd.Context{
		Precision:   1 << 20,
		MaxExponent: apd.MaxExponent,
		MinExponent: apd.MinExponent,
		Traps:       apd.DefaultTraps,
		Rounding:    apd.RoundDown,
	}
)

const (
	numericMinSigDigits = 16
	numericMaxDispScale = 1000
	numericMinDispScale = 0
)

// NumericValue wraps d as a Value.
func NumericValue(d *apd.Decimal) Value { return Value{Num: normNum(d)} }

// NumericFromInt returns an exact integer numeric.
func NumericFromInt(i int64) *apd.Decimal { return apd.New(i, 0) }

// normNum drops the sign of zero (PostgreSQL has no negative zero numeric).
func normNum(d *apd.Decimal) *apd.Decimal {
	if d.Form == apd.Finite && d.Negative && d.Coeff.Sign() == 0 {
		d.Negative = false
	}
	return d
}

// dscale is the display scale: digits after the decimal point.
func dscale(d *apd.Decimal) int {
	if d.Form != apd.Finite || d.Exponent >= 0 {
		return 0
	}
	return int(-d.Exponent)
}

func errNumericSyntax(s string) error {
	return pgerr.New(pgerr.InvalidTextRepresentation, "invalid input syntax for type numeric: \"%s\"", s)
}

// parseNumeric implements numeric_in without typmod.
func parseNumeric(in string) (*apd.Decimal, error) {
	s := strings.TrimSpace(in)
	if s == "" {
		return nil, errNumericSyntax(in)
	}
	body := s
	neg := false
	if body[0] == '+' || body[0] == '-' {
		neg = body[0] == '-'
		body = body[1:]
	}
	switch strings.ToLower(body) {
	case "nan":
		if s != body {
			return nil, errNumericSyntax(in)
		}
		return &apd.Decimal{Form: apd.NaN}, nil
	case "infinity", "inf":
		return &apd.Decimal{Form: apd.Infinite, Negative: neg}, nil
	}
	// digits [. digits] [e [+-] digits]
	i, nd := 0, 0
	for i < len(body) && isDigit(body[i]) {
		i++
		nd++
	}
	intEnd, fracStart := i, i
	if i < len(body) && body[i] == '.' {
		i++
		fracStart = i
		for i < len(body) && isDigit(body[i]) {
			i++
			nd++
		}
	}
	if nd == 0 {
		return nil, errNumericSyntax(in)
	}
	digits := body[:intEnd] + body[fracStart:i]
	e := -(i - fracStart) // power of ten of the last digit
	if i < len(body) && (body[i] == 'e' || body[i] == 'E') {
		j := i + 1
		if j < len(body) && (body[j] == '+' || body[j] == '-') {
			j++
		}
		k := j
		for k < len(body) && isDigit(body[k]) {
			k++
		}
		if k == j {
			return nil, errNumericSyntax(in)
		}
		// set_var_from_str's bound; the weight and scale checks follow
		x, err := strconv.Atoi(body[j:k])
		if err != nil || x >= math.MaxInt32/2 {
			return nil, errNumericOverflow()
		}
		if body[j-1] == '-' {
			x = -x
		}
		e += x
		i = k
	}
	if i != len(body) {
		return nil, errNumericSyntax(in)
	}
	// make_result's limits: display scale at most NUMERIC_DSCALE_MAX and, for
	// a nonzero value, base-10000 weight at most NUMERIC_WEIGHT_MAX.
	if -e > numericMaxDscale {
		return nil, errNumericOverflow()
	}
	if sig := strings.TrimLeft(digits, "0"); sig != "" && floorDiv(int64(len(sig)-1+e), nbaseDecDigits) > numShrtMax {
		return nil, errNumericOverflow()
	}
	if len(digits) <= 18 && e <= 0 {
		// Fits a uint64: skip math/big (most input is short).
		u, err := strconv.ParseUint(digits, 10, 64)
		if err != nil {
			return nil, errNumericSyntax(in)
		}
		d := new(apd.Decimal)
		d.Coeff.SetUint64(u)
		d.Exponent = int32(e)
		d.Negative = neg
		return normNum(d), nil
	}
	c, ok := new(big.Int).SetString(digits, 10)
	if !ok {
		return nil, errNumericSyntax(in)
	}
	if sig := strings.TrimLeft(digits, "0"); sig != "" && len(sig)-1+e > apd.MaxExponent {
		return nil, errNumericOverflow() // beyond what apd (and so joind) can hold
	}
	if e > 0 {
		// "1e5" has display scale 0: keep exponent 0 so the text has no exponent.
		if c.Sign() != 0 {
			c.Mul(c, pow10Big(e))
		}
		e = 0
	}
	d := new(apd.Decimal)
	d.Coeff.SetMathBigInt(c)
	d.Exponent = int32(e)
	d.Negative = neg
	return normNum(d), nil
}

// roundNumericScale rounds d half away from zero to scale digits after the point.
func roundNumericScale(d *apd.Decimal, scale int) *apd.Decimal {
	if d.Form != apd.Finite {
		return d
	}
	r := new(apd.Decimal)
	if _, err := roundCtx.Quantize(r, d, int32(-scale)); err != nil {
		return d
	}
	if scale < 0 {
		_, _ = roundCtx.Quantize(r, r, 0)
	}
	return normNum(r)
}

func truncNumericScale(d *apd.Decimal, scale int) *apd.Decimal {
	if d.Form != apd.Finite {
		return d
	}
	r := new(apd.Decimal)
	if _, err := truncCtx.Quantize(r, d, int32(-scale)); err != nil {
		return d
	}
	if scale < 0 {
		_, _ = roundCtx.Quantize(r, r, 0)
	}
	return normNum(r)
}

// applyNumericTypmod implements apply_typmod / apply_typmod_special.
func applyNumericTypmod(d *apd.Decimal, typmod int32) (*apd.Decimal, error) {
	p, s, ok := NumericPrecScale(typmod)
	if !ok {
		return d, nil
	}
	switch d.Form {
	case apd.NaN, apd.NaNSignaling:
		return d, nil
	case apd.Infinite:
		return nil, pgerr.New(pgerr.NumericValueOutOfRange, "numeric field overflow").
			WithDetail("A field with precision %d, scale %d cannot hold an infinite value.", p, s)
	}
	r := roundNumericScale(d, s)
	if r.Coeff.Sign() != 0 {
		intDigits := int(r.NumDigits()) + int(r.Exponent)
		if intDigits > p-s {
			maxd := p - s
			if maxd != 0 { // apply_typmod prints 10^0 as 1, and 10^-2 for numeric(3,5)
				return nil, pgerr.New(pgerr.NumericValueOutOfRange, "numeric field overflow").
					WithDetail("A field with precision %d, scale %d must round to an absolute value less than 10^%d.", p, s, maxd)
			}
			return nil, pgerr.New(pgerr.NumericValueOutOfRange, "numeric field overflow").
				WithDetail("A field with precision %d, scale %d must round to an absolute value less than 1.", p, s)
		}
	}
	return r, nil
}

func appendNumeric(dst []byte, d *apd.Decimal) []byte {
	if d == nil {
		return dst
	}
	switch d.Form {
	case apd.NaN, apd.NaNSignaling:
		return append(dst, "NaN"...)
	case apd.Infinite:
		if d.Negative {
			return append(dst, "-Infinity"...)
		}
		return append(dst, "Infinity"...)
	}
	if d.Coeff.Sign() == 0 && d.Negative {
		c := *d
		c.Negative = false
		return append(dst, c.Text('f')...)
	}
	return append(dst, d.Text('f')...)
}

// NumericString is the PostgreSQL text of a numeric.
func NumericString(d *apd.Decimal) string { return string(appendNumeric(nil, d)) }

func isNaNNum(d *apd.Decimal) bool { return d.Form == apd.NaN || d.Form == apd.NaNSignaling }

// compareNumeric orders numerics as PostgreSQL: -Inf < finite < +Inf < NaN.
func compareNumeric(a, b *apd.Decimal) int {
	an, bn := isNaNNum(a), isNaNNum(b)
	switch {
	case an && bn:
		return 0
	case an:
		return 1
	case bn:
		return -1
	}
	return a.Cmp(b)
}

// nbaseWeight returns PostgreSQL's base-10000 weight and first digit of a
// nonzero finite numeric, needed to reproduce its division scale rules.
func nbaseWeight(d *apd.Decimal) (weight int, first int) {
	if d.Form != apd.Finite || d.Coeff.Sign() == 0 {
		return 0, 0
	}
	digits := d.Coeff.String()
	msd := len(digits) + int(d.Exponent) - 1 // power of ten of the leading digit
	weight = int(floorDiv(int64(msd), 4))
	cnt := msd - 4*weight + 1
	fd := 0
	for i := 0; i < cnt; i++ {
		fd *= 10
		if i < len(digits) {
			fd += int(digits[i] - '0')
		}
	}
	return weight, fd
}

// divScale is select_div_scale.
func divScale(x, y *apd.Decimal) int {
	w1, f1 := nbaseWeight(x)
	w2, f2 := nbaseWeight(y)
	qweight := w1 - w2
	if f1 <= f2 {
		qweight--
	}
	rscale := numericMinSigDigits - qweight*4
	rscale = max(rscale, dscale(x), dscale(y), numericMinDispScale)
	return min(rscale, numericMaxDispScale)
}

func toBig(d *apd.Decimal) *big.Int {
	b := d.Coeff.MathBigInt() // a copy
	if d.Negative {
		b.Neg(b)
	}
	return b
}

var bigTen = big.NewInt(10)

// pow10Cache holds 10^0 .. 10^(len-1): the transcendental functions scale
// by powers of ten at every step.
var pow10Cache = func() []*big.Int {
	c := make([]*big.Int, 2*numericMaxDispScale+64)
	c[0] = big.NewInt(1)
	for i := 1; i < len(c); i++ {
		c[i] = new(big.Int).Mul(c[i-1], bigTen)
	}
	return c
}()

// pow10Big returns 10^n; callers must not modify the result.
func pow10Big(n int) *big.Int {
	if n < len(pow10Cache) {
		return pow10Cache[n]
	}
	return new(big.Int).Exp(bigTen, big.NewInt(int64(n)), nil)
}

// divRound computes x/y rounded (half away from zero) or truncated to rscale
// digits. It works on apd.BigInt magnitudes, which keep small values inline.
func divRound(x, y *apd.Decimal, rscale int, round bool) *apd.Decimal {
	var num, den, r apd.BigInt
	num.Set(&x.Coeff)
	den.Set(&y.Coeff)
	if k := int(x.Exponent) - int(y.Exponent) + rscale; k >= 0 {
		num.Mul(&num, pow10Apd(k))
	} else {
		den.Mul(&den, pow10Apd(-k))
	}
	res := new(apd.Decimal)
	res.Coeff.QuoRem(&num, &den, &r)
	if round && r.Sign() != 0 && r.Lsh(&r, 1).Cmp(&den) >= 0 {
		res.Coeff.Add(&res.Coeff, apdOne)
	}
	res.Negative = x.Negative != y.Negative
	res.Exponent = int32(-rscale)
	if rscale < 0 {
		_, _ = roundCtx.Quantize(res, res, 0)
	}
	return normNum(res)
}

var apdOne = apd.NewBigInt(1)

// pow10ApdCache is pow10Cache as apd.BigInt.
var pow10ApdCache = func() []*apd.BigInt {
	c := make([]*apd.BigInt, len(pow10Cache))
	for i, p := range pow10Cache {
		c[i] = new(apd.BigInt).SetMathBigInt(p)
	}
	return c
}()

// pow10Apd returns 10^n; callers must not modify the result.
func pow10Apd(n int) *apd.BigInt {
	if n < len(pow10ApdCache) {
		return pow10ApdCache[n]
	}
	return new(apd.BigInt).SetMathBigInt(pow10Big(n))
}

func errDivisionByZero() error { return pgerr.New(pgerr.DivisionByZero, "division by zero") }

func numAdd(a, b *apd.Decimal, sub bool) (*apd.Decimal, error) {
	if isNaNNum(a) || isNaNNum(b) {
		return &apd.Decimal{Form: apd.NaN}, nil
	}
	if a.Form == apd.Infinite || b.Form == apd.Infinite {
		bneg := b.Negative != sub
		if a.Form == apd.Infinite && b.Form == apd.Infinite {
			if a.Negative != bneg {
				return &apd.Decimal{Form: apd.NaN}, nil
			}
			return &apd.Decimal{Form: apd.Infinite, Negative: a.Negative}, nil
		}
		if a.Form == apd.Infinite {
			return &apd.Decimal{Form: apd.Infinite, Negative: a.Negative}, nil
		}
		return &apd.Decimal{Form: apd.Infinite, Negative: bneg}, nil
	}
	r := new(apd.Decimal)
	var err error
	if sub {
		_, err = exactCtx.Sub(r, a, b)
	} else {
		_, err = exactCtx.Add(r, a, b)
	}
	if err != nil {
		return nil, errNumericOverflow()
	}
	return normNum(r), nil
}

// numCheckRange rejects finite values apd cannot operate on (decimal
// exponent of the leading digit above apd.MaxExponent, 10^100000):
// PostgreSQL's own limit is 10^131072, so this is an overflow error where
// PostgreSQL would still answer, never a wrong value.
func numCheckRange(d *apd.Decimal) (*apd.Decimal, error) {
	if d != nil && d.Form == apd.Finite && d.Coeff.Sign() != 0 && d.NumDigits()+int64(d.Exponent)-1 > apd.MaxExponent {
		return nil, errNumericOverflow()
	}
	return d, nil
}

func errNumericOverflow() error {
	return pgerr.New(pgerr.NumericValueOutOfRange, "value overflows numeric format")
}

func numMul(a, b *apd.Decimal) (*apd.Decimal, error) {
	if isNaNNum(a) || isNaNNum(b) {
		return &apd.Decimal{Form: apd.NaN}, nil
	}
	if a.Form == apd.Infinite || b.Form == apd.Infinite {
		if a.IsZero() || b.IsZero() {
			return &apd.Decimal{Form: apd.NaN}, nil
		}
		return &apd.Decimal{Form: apd.Infinite, Negative: a.Negative != b.Negative}, nil
	}
	r := new(apd.Decimal)
	if _, err := exactCtx.Mul(r, a, b); err != nil {
		return nil, errNumericOverflow()
	}
	if dscale(r) > numericMaxDscale {
		// numeric_mul: the exact product rounded to what a numeric can hold
		r = roundNumericScale(r, numericMaxDscale)
	}
	return normNum(r), nil
}

func numDiv(a, b *apd.Decimal) (*apd.Decimal, error) {
	if isNaNNum(a) || isNaNNum(b) {
		return &apd.Decimal{Form: apd.NaN}, nil
	}
	if b.Form == apd.Finite && b.IsZero() {
		return nil, errDivisionByZero()
	}
	if a.Form == apd.Infinite {
		if b.Form == apd.Infinite {
			return &apd.Decimal{Form: apd.NaN}, nil
		}
		return &apd.Decimal{Form: apd.Infinite, Negative: a.Negative != b.Negative}, nil
	}
	if b.Form == apd.Infinite {
		return apd.New(0, 0), nil
	}
	return divRound(a, b, divScale(a, b), true), nil
}

// numMod is numeric_mod: a - trunc(a/b)*b with scale max(dscale).
func numMod(a, b *apd.Decimal) (*apd.Decimal, error) {
	if isNaNNum(a) || isNaNNum(b) {
		return &apd.Decimal{Form: apd.NaN}, nil
	}
	if b.Form == apd.Finite && b.IsZero() {
		return nil, errDivisionByZero()
	}
	if a.Form == apd.Infinite {
		return &apd.Decimal{Form: apd.NaN}, nil
	}
	if b.Form == apd.Infinite {
		return a, nil
	}
	q := divRound(a, b, 0, false)
	p, _ := numMul(q, b)
	return numAdd(a, p, true)
}

// numDivTrunc is numeric div(): truncated integer quotient.
func numDivTrunc(a, b *apd.Decimal) (*apd.Decimal, error) {
	if isNaNNum(a) || isNaNNum(b) {
		return &apd.Decimal{Form: apd.NaN}, nil
	}
	if b.Form == apd.Finite && b.IsZero() {
		return nil, errDivisionByZero()
	}
	if a.Form == apd.Infinite || b.Form == apd.Infinite {
		if a.Form == apd.Infinite && b.Form == apd.Infinite {
			return &apd.Decimal{Form: apd.NaN}, nil
		}
		if b.Form == apd.Infinite {
			return apd.New(0, 0), nil
		}
		return &apd.Decimal{Form: apd.Infinite, Negative: a.Negative != b.Negative}, nil
	}
	return divRound(a, b, 0, false), nil
}

// numericToFloat converts via the decimal text, as numeric_float8 does.
func numericToFloat(d *apd.Decimal, bits int) float64 {
	switch d.Form {
	case apd.NaN, apd.NaNSignaling:
		return math.NaN()
	case apd.Infinite:
		if d.Negative {
			return math.Inf(-1)
		}
		return math.Inf(1)
	}
	f, _ := strconv.ParseFloat(d.Text('e'), bits)
	return f
}

// floatToNumeric is float8_numeric / float4_numeric: %.15g (%.6g) then numeric_in.
func floatToNumeric(f float64, bits int) (*apd.Decimal, error) {
	if math.IsNaN(f) {
		return &apd.Decimal{Form: apd.NaN}, nil
	}
	if math.IsInf(f, 0) {
		return &apd.Decimal{Form: apd.Infinite, Negative: f < 0}, nil
	}
	prec := 15
	if bits == 32 {
		prec = 6
	}
	return parseNumeric(strconv.FormatFloat(f, 'g', prec, bits))
}

// numericToInt rounds half away from zero and range-checks.
func numericToInt(d *apd.Decimal, id ID) (int64, error) {
	name := intTypeName(id)
	switch d.Form {
	case apd.NaN, apd.NaNSignaling:
		return 0, pgerr.New(pgerr.FeatureNotSupported, "cannot convert NaN to %s", name)
	case apd.Infinite:
		return 0, pgerr.New(pgerr.FeatureNotSupported, "cannot convert infinity to %s", name)
	}
	r := roundNumericScale(d, 0)
	i, err := r.Int64()
	if err != nil {
		return 0, errIntOutOfRange(id)
	}
	if err := checkIntRange(i, id); err != nil {
		return 0, err
	}
	return i, nil
}
