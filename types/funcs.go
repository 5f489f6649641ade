package types

import (
	"crypto/md5"
	"encoding/hex"
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/cockroachdb/apd/v3"
	"github.com/joind/joind/pgerr"
)

func f1(fn func(float64) float64) evalFn {
	return func(_ *EvalContext, a []Value) (Value, error) { return Value{F: fn(a[0].F)}, nil }
}

func errLog(x float64) error {
	if x == 0 {
		return pgerr.New("2201E", "cannot take logarithm of zero")
	}
	return pgerr.New("2201E", "cannot take logarithm of a negative number")
}

// nbaseDigits returns the base-10000 weight and up to two leading base-10000
// digits of a positive finite numeric (PostgreSQL's NumericVar view).
func nbaseDigits(d *apd.Decimal) (weight int, d0, d1 int, nd int) {
	if d.Form != apd.Finite || d.Coeff.Sign() == 0 {
		return 0, 0, 0, 0
	}
	digits := d.Coeff.String()
	msd := len(digits) + int(d.Exponent) - 1
	weight = int(floorDiv(int64(msd), 4))
	lsd := int(d.Exponent) // power of ten of last digit
	lastGroup := int(floorDiv(int64(lsd), 4))
	nd = weight - lastGroup + 1
	group := func(w int) int {
		v := 0
		for p := 4*w + 3; p >= 4*w; p-- {
			idx := msd - p // index into digits
			v *= 10
			if idx >= 0 && idx < len(digits) {
				v += int(digits[idx] - '0')
			}
		}
		return v
	}
	d0 = group(weight)
	if nd > 1 {
		d1 = group(weight - 1)
	}
	return
}

func estimateLnDweight(x *apd.Decimal) int {
	if x.Negative || x.Form != apd.Finite || x.IsZero() {
		return 0
	}
	lo, hi := apd.New(9, -1), apd.New(11, -1)
	if x.Cmp(lo) >= 0 && x.Cmp(hi) <= 0 {
		diff, _ := numAdd(x, apd.New(1, 0), true)
		if diff.IsZero() {
			return 0
		}
		w, d0, _, _ := nbaseDigits(new(apd.Decimal).Abs(diff))
		return w*4 + int(math.Log10(float64(d0)))
	}
	w, d0, d1, nd := nbaseDigits(x)
	digits := d0
	dweight := w * 4
	if nd > 1 {
		digits = d0*10000 + d1
		dweight -= 4
	}
	lnv := math.Log(float64(digits)) + float64(dweight)*2.302585092994046
	return int(math.Log10(math.Abs(lnv)))
}

func clampScale(r int, scales ...int) int {
	for _, s := range scales {
		r = max(r, s)
	}
	return min(max(r, numericMinDispScale), numericMaxDispScale)
}

// numApprox evaluates f at enough precision for rscale digits after the point.
func numApprox(rscale int, log10est float64, f func(c *apd.Context, d *apd.Decimal) error) (*apd.Decimal, error) {
	intDigits := 1
	if log10est > 0 && !math.IsInf(log10est, 0) {
		intDigits = int(log10est) + 2
	}
	c := roundCtx.WithPrecision(uint32(rscale + intDigits + 12))
	c.Rounding = apd.RoundHalfEven
	d := new(apd.Decimal)
	if err := f(c, d); err != nil {
		return nil, errNumericOverflow()
	}
	return roundNumericScale(d, rscale), nil
}

func evalSqrtNumeric(_ *EvalContext, a []Value) (Value, error) {
	x := a[0].Num
	if isNaNNum(x) {
		return a[0], nil
	}
	if x.Negative && !x.IsZero() {
		return Value{}, pgerr.New("2201F", "cannot take square root of a negative number")
	}
	if x.Form == apd.Infinite {
		return a[0], nil
	}
	w, _, _, _ := nbaseDigits(x)
	sweight := (w+1)*4/2 - 1
	rscale := clampScale(numericMinSigDigits-sweight, dscale(x))
	r, err := numApprox(rscale, numericToFloat(x, 64)/2, func(c *apd.Context, d *apd.Decimal) error {
		_, err := c.Sqrt(d, x)
		return err
	})
	return Value{Num: r}, err
}

func numLn(x *apd.Decimal) (*apd.Decimal, error) {
	if isNaNNum(x) {
		return x, nil
	}
	if x.Form == apd.Finite && x.IsZero() {
		return nil, pgerr.New("2201E", "cannot take logarithm of zero")
	}
	if x.Negative {
		return nil, pgerr.New("2201E", "cannot take logarithm of a negative number")
	}
	if x.Form == apd.Infinite {
		return x, nil
	}
	rscale := clampScale(numericMinSigDigits-estimateLnDweight(x), dscale(x))
	return numApprox(rscale, 4, func(c *apd.Context, d *apd.Decimal) error {
		_, err := c.Ln(d, x)
		return err
	})
}

func numLog(base, x *apd.Decimal) (*apd.Decimal, error) {
	if isNaNNum(x) || isNaNNum(base) {
		return &apd.Decimal{Form: apd.NaN}, nil
	}
	for _, v := range []*apd.Decimal{base, x} {
		if v.Form == apd.Finite && v.IsZero() {
			return nil, pgerr.New("2201E", "cannot take logarithm of zero")
		}
		if v.Negative {
			return nil, pgerr.New("2201E", "cannot take logarithm of a negative number")
		}
	}
	if base.Cmp(apd.New(1, 0)) == 0 {
		return nil, errDivisionByZero()
	}
	rdw := estimateLnDweight(x) - estimateLnDweight(base)
	rscale := clampScale(numericMinSigDigits-rdw, dscale(base), dscale(x))
	return numApprox(rscale, 4, func(c *apd.Context, d *apd.Decimal) error {
		lb, lx := new(apd.Decimal), new(apd.Decimal)
		if _, err := c.Ln(lb, base); err != nil {
			return err
		}
		if _, err := c.Ln(lx, x); err != nil {
			return err
		}
		_, err := c.Quo(d, lx, lb)
		return err
	})
}

func numExp(x *apd.Decimal) (*apd.Decimal, error) {
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
	val = math.Max(-2000, math.Min(2000, val))
	if val > 131072 {
		return nil, errNumericOverflow()
	}
	rscale := clampScale(numericMinSigDigits-int(val), dscale(x))
	return numApprox(rscale, val, func(c *apd.Context, d *apd.Decimal) error {
		_, err := c.Exp(d, x)
		return err
	})
}

func evalPowNumeric(_ *EvalContext, a []Value) (Value, error) {
	r, err := numPow(a[0].Num, a[1].Num)
	return Value{Num: r}, err
}

func numPow(x, y *apd.Decimal) (*apd.Decimal, error) {
	if isNaNNum(x) {
		if y.Form == apd.Finite && y.IsZero() {
			return apd.New(1, 0), nil
		}
		return x, nil
	}
	if isNaNNum(y) {
		if x.Cmp(apd.New(1, 0)) == 0 {
			return apd.New(1, 0), nil
		}
		return y, nil
	}
	if x.Form != apd.Finite || y.Form != apd.Finite {
		fx, fy := numericToFloat(x, 64), numericToFloat(y, 64)
		v, err := evalPowFloat(nil, []Value{{F: fx}, {F: fy}})
		if err != nil {
			return nil, err
		}
		return floatToNumeric(v.F, 64)
	}
	if x.IsZero() && y.Negative {
		return nil, pgerr.New("2201F", "zero raised to a negative power is undefined")
	}
	yInt := new(apd.Decimal)
	_, _ = exactCtx.RoundToIntegralValue(yInt, y)
	isInt := yInt.Cmp(y) == 0
	if x.Negative && !isInt {
		return nil, pgerr.New("2201F", "a negative number raised to a non-integer power yields a complex result")
	}
	if x.IsZero() {
		if y.IsZero() {
			return apd.New(1, 0), nil
		}
		return roundNumericScale(apd.New(0, 0), clampScale(numericMinSigDigits, dscale(x), dscale(y))), nil
	}
	fx, fy := math.Abs(numericToFloat(x, 64)), numericToFloat(y, 64)
	est := fy * math.Log10(fx)
	if est > 131072*4 {
		return nil, errNumericOverflow()
	}
	rscale := clampScale(numericMinSigDigits-int(est), dscale(x), dscale(y))
	if isInt {
		// power_var with an integral exponent: fixed 16 digits or the base's scale
		rscale = clampScale(numericMinSigDigits, dscale(x))
		if n, err := yInt.Int64(); err == nil && n >= -100000 && n <= 100000 {
			// exact integer power, then one rounding
			base := toBig(x)
			p := new(big.Int).Exp(new(big.Int).Abs(base), big.NewInt(absInt(n)), nil)
			r := new(apd.Decimal)
			r.Coeff.SetMathBigInt(p)
			r.Exponent = x.Exponent * int32(absInt(n))
			r.Negative = x.Negative && n%2 != 0
			if n < 0 {
				return divRound(apd.New(1, 0), r, rscale, true), nil
			}
			return roundNumericScale(r, rscale), nil
		}
	}
	return numApprox(rscale, est, func(c *apd.Context, d *apd.Decimal) error {
		_, err := c.Pow(d, x, y)
		return err
	})
}

func absInt(n int64) int64 {
	if n < 0 {
		return -n
	}
	return n
}

func numUnary(fn func(*apd.Decimal) (*apd.Decimal, error)) evalFn {
	return func(_ *EvalContext, a []Value) (Value, error) {
		r, err := fn(a[0].Num)
		return Value{Num: r}, err
	}
}

func numRoundLike(trunc bool) evalFn {
	return func(_ *EvalContext, a []Value) (Value, error) {
		s := 0
		if len(a) > 1 {
			s = int(max(min(a[1].I, 2000), -2000))
		}
		if a[0].Num.Form != apd.Finite {
			return a[0], nil
		}
		if trunc {
			return Value{Num: truncNumericScale(a[0].Num, s)}, nil
		}
		return Value{Num: roundNumericScale(a[0].Num, s)}, nil
	}
}

func numCeilFloor(ceil bool) evalFn {
	return func(_ *EvalContext, a []Value) (Value, error) {
		x := a[0].Num
		if x.Form != apd.Finite {
			return a[0], nil
		}
		r := new(apd.Decimal)
		if ceil {
			_, _ = roundCtx.Ceil(r, x)
		} else {
			_, _ = roundCtx.Floor(r, x)
		}
		_, _ = roundCtx.Quantize(r, r, 0)
		return Value{Num: normNum(r)}, nil
	}
}

func registerFunctions() {
	// abs
	for _, id := range []ID{Int2, Int4, Int8, Float4, Float8, Numeric} {
		b := operatorTable[opKey("@", 1)]
		for _, c := range b {
			if c.args[0] == id {
				regFn("abs", []ID{id}, id, c.eval)
			}
		}
	}
	regFn("round", []ID{Float8}, Float8, f1(math.RoundToEven))
	regFn("round", []ID{Numeric}, Numeric, numRoundLike(false))
	regFn("round", []ID{Numeric, Int4}, Numeric, numRoundLike(false))
	regFn("trunc", []ID{Float8}, Float8, f1(math.Trunc))
	regFn("trunc", []ID{Numeric}, Numeric, numRoundLike(true))
	regFn("trunc", []ID{Numeric, Int4}, Numeric, numRoundLike(true))
	for _, n := range []string{"ceil", "ceiling"} {
		regFn(n, []ID{Float8}, Float8, f1(math.Ceil))
		regFn(n, []ID{Numeric}, Numeric, numCeilFloor(true))
	}
	regFn("floor", []ID{Float8}, Float8, f1(math.Floor))
	regFn("floor", []ID{Numeric}, Numeric, numCeilFloor(false))
	regFn("sign", []ID{Float8}, Float8, f1(func(x float64) float64 {
		switch {
		case x > 0:
			return 1
		case x < 0:
			return -1
		}
		return 0
	}))
	regFn("sign", []ID{Numeric}, Numeric, func(_ *EvalContext, a []Value) (Value, error) {
		if isNaNNum(a[0].Num) {
			return a[0], nil
		}
		return Value{Num: apd.New(int64(a[0].Num.Sign()), 0)}, nil
	})
	regFn("sqrt", []ID{Float8}, Float8, evalSqrtFloat)
	regFn("sqrt", []ID{Numeric}, Numeric, evalSqrtNumeric)
	regFn("cbrt", []ID{Float8}, Float8, f1(cbrt))
	for _, n := range []string{"power", "pow"} {
		regFn(n, []ID{Float8, Float8}, Float8, evalPowFloat)
		regFn(n, []ID{Numeric, Numeric}, Numeric, evalPowNumeric)
	}
	regFn("exp", []ID{Float8}, Float8, func(_ *EvalContext, a []Value) (Value, error) {
		r := math.Exp(a[0].F)
		return checkFloat(r, math.IsInf(a[0].F, 1), math.IsInf(a[0].F, -1), 64)
	})
	regFn("exp", []ID{Numeric}, Numeric, numUnary(numExp))
	floatLog := func(fn func(float64) float64) evalFn {
		return func(_ *EvalContext, a []Value) (Value, error) {
			if a[0].F <= 0 {
				return Value{}, errLog(a[0].F)
			}
			return Value{F: fn(a[0].F)}, nil
		}
	}
	regFn("ln", []ID{Float8}, Float8, floatLog(math.Log))
	regFn("ln", []ID{Numeric}, Numeric, numUnary(numLn))
	for _, n := range []string{"log", "log10"} {
		regFn(n, []ID{Float8}, Float8, floatLog(math.Log10))
		regFn(n, []ID{Numeric}, Numeric, numUnary(func(x *apd.Decimal) (*apd.Decimal, error) { return numLog(apd.New(10, 0), x) }))
	}
	regFn("log", []ID{Numeric, Numeric}, Numeric, func(_ *EvalContext, a []Value) (Value, error) {
		r, err := numLog(a[0].Num, a[1].Num)
		return Value{Num: r}, err
	})
	for _, id := range intIDs {
		for _, c := range operatorTable[opKey("%", 2)] {
			if c.args[0] == id && c.args[1] == id {
				regFn("mod", []ID{id, id}, id, c.eval)
			}
		}
	}
	regFn("mod", []ID{Numeric, Numeric}, Numeric, numArith('%'))
	regFn("div", []ID{Numeric, Numeric}, Numeric, func(_ *EvalContext, a []Value) (Value, error) {
		r, err := numDivTrunc(a[0].Num, a[1].Num)
		return Value{Num: r}, err
	})
	b := regFn("random", nil, Float8, func(_ *EvalContext, _ []Value) (Value, error) { return Value{F: rand.Float64()}, nil })
	b.volatile = true
	regFn("pi", nil, Float8, func(_ *EvalContext, _ []Value) (Value, error) { return Value{F: math.Pi}, nil })
	// degrees divides by and radians multiplies by PostgreSQL's
	// RADIANS_PER_DEGREE (x*(180/π) differs in the last digit), with
	// float8_div/float8_mul's overflow and underflow checks.
	const radiansPerDegree = 0.0174532925199432957692
	regFn("degrees", []ID{Float8}, Float8, func(_ *EvalContext, a []Value) (Value, error) {
		x := a[0].F
		return checkFloat(x/radiansPerDegree, math.IsInf(x, 0), x == 0, 64)
	})
	regFn("radians", []ID{Float8}, Float8, func(_ *EvalContext, a []Value) (Value, error) {
		x := a[0].F
		return checkFloat(x*radiansPerDegree, math.IsInf(x, 0), x == 0, 64)
	})
	for name, fn := range map[string]func(float64) float64{
		"sin": math.Sin, "cos": math.Cos, "tan": math.Tan, "asin": math.Asin, "acos": math.Acos, "atan": math.Atan,
		"cot":  func(x float64) float64 { return 1 / math.Tan(x) },
		"sinh": math.Sinh, "cosh": math.Cosh, "tanh": math.Tanh,
	} {
		regFn(name, []ID{Float8}, Float8, f1(fn))
	}
	regFn("atan2", []ID{Float8, Float8}, Float8, func(_ *EvalContext, a []Value) (Value, error) {
		return Value{F: math.Atan2(a[0].F, a[1].F)}, nil
	})
	registerStringFuncs()
	registerDateFuncs()
}

// ---- string functions ----------------------------------------------------------

func ts(fn func(s string) string) evalFn {
	return func(_ *EvalContext, a []Value) (Value, error) { return Value{S: fn(a[0].S)}, nil }
}

func runeLen(s string) int64 { return int64(utf8.RuneCountInString(s)) }

func substrRunes(s string, start, length int64, hasLen bool) (string, error) {
	if hasLen && length < 0 {
		return "", pgerr.New("22011", "negative substring length not allowed")
	}
	r := []rune(s)
	begin := start - 1
	end := int64(len(r))
	if hasLen {
		end = begin + length
		if length > 0 && end < begin { // overflow
			end = int64(len(r))
		}
	}
	begin = max(begin, 0)
	end = min(end, int64(len(r)))
	if begin >= end {
		return "", nil
	}
	return string(r[begin:end]), nil
}

func trimSet(s, chars string, left, right bool) string {
	set := func(r rune) bool { return strings.ContainsRune(chars, r) }
	if left {
		s = strings.TrimLeftFunc(s, set)
	}
	if right {
		s = strings.TrimRightFunc(s, set)
	}
	return s
}

func padText(s string, n int64, fill string, left bool) string {
	r := []rune(s)
	if n <= 0 {
		return ""
	}
	if int64(len(r)) >= n {
		return string(r[:n])
	}
	f := []rune(fill)
	if len(f) == 0 {
		return s
	}
	need := int(n) - len(r)
	p := make([]rune, 0, need)
	for i := 0; len(p) < need; i++ {
		p = append(p, f[i%len(f)])
	}
	if left {
		return string(p) + s
	}
	return s + string(p)
}

func registerStringFuncs() {
	lengthFn := func(_ *EvalContext, a []Value) (Value, error) { return Value{I: runeLen(a[0].S)}, nil }
	charLen := func(_ *EvalContext, a []Value) (Value, error) {
		return Value{I: runeLen(strings.TrimRight(a[0].S, " "))}, nil
	}
	for _, n := range []string{"length", "char_length", "character_length"} {
		regFn(n, []ID{Text}, Int4, lengthFn)
		regFn(n, []ID{Char}, Int4, charLen)
	}
	regFn("octet_length", []ID{Text}, Int4, func(_ *EvalContext, a []Value) (Value, error) { return Value{I: int64(len(a[0].S))}, nil })
	regFn("octet_length", []ID{Char}, Int4, func(_ *EvalContext, a []Value) (Value, error) { return Value{I: int64(len(a[0].S))}, nil })
	regFn("bit_length", []ID{Text}, Int4, func(_ *EvalContext, a []Value) (Value, error) { return Value{I: 8 * int64(len(a[0].S))}, nil })
	regFn("lower", []ID{Text}, Text, ts(strings.ToLower))
	regFn("upper", []ID{Text}, Text, ts(strings.ToUpper))
	regFn("initcap", []ID{Text}, Text, ts(func(s string) string {
		var b strings.Builder
		inWord := false
		for _, r := range s {
			if unicode.IsLetter(r) || unicode.IsDigit(r) {
				if inWord {
					b.WriteRune(unicode.ToLower(r))
				} else {
					b.WriteRune(unicode.ToUpper(r))
				}
				inWord = true
			} else {
				b.WriteRune(r)
				inWord = false
			}
		}
		return b.String()
	}))
	for _, n := range []string{"substr", "substring"} {
		regFn(n, []ID{Text, Int4}, Text, func(_ *EvalContext, a []Value) (Value, error) {
			s, err := substrRunes(a[0].S, a[1].I, 0, false)
			return Value{S: s}, err
		})
		regFn(n, []ID{Text, Int4, Int4}, Text, func(_ *EvalContext, a []Value) (Value, error) {
			s, err := substrRunes(a[0].S, a[1].I, a[2].I, true)
			return Value{S: s}, err
		})
	}
	pos := func(_ *EvalContext, a []Value) (Value, error) {
		i := strings.Index(a[0].S, a[1].S)
		if i < 0 {
			return Value{I: 0}, nil
		}
		return Value{I: runeLen(a[0].S[:i]) + 1}, nil
	}
	regFn("position", []ID{Text, Text}, Int4, pos)
	regFn("strpos", []ID{Text, Text}, Int4, pos)
	regFn("left", []ID{Text, Int4}, Text, func(_ *EvalContext, a []Value) (Value, error) {
		r := []rune(a[0].S)
		n := a[1].I
		if n < 0 {
			n = max(int64(len(r))+n, 0)
		}
		return Value{S: string(r[:min(n, int64(len(r)))])}, nil
	})
	regFn("right", []ID{Text, Int4}, Text, func(_ *EvalContext, a []Value) (Value, error) {
		r := []rune(a[0].S)
		n := a[1].I
		if n == math.MinInt32 {
			// text_right negates n in int32: -INT_MIN wraps to INT_MIN,
			// which clips to zero characters dropped
			return a[0], nil
		}
		if n < 0 {
			n = max(int64(len(r))+n, 0)
		}
		n = min(n, int64(len(r)))
		return Value{S: string(r[int64(len(r))-n:])}, nil
	})
	regFn("lpad", []ID{Text, Int4}, Text, func(_ *EvalContext, a []Value) (Value, error) {
		return Value{S: padText(a[0].S, a[1].I, " ", true)}, nil
	})
	regFn("lpad", []ID{Text, Int4, Text}, Text, func(_ *EvalContext, a []Value) (Value, error) {
		return Value{S: padText(a[0].S, a[1].I, a[2].S, true)}, nil
	})
	regFn("rpad", []ID{Text, Int4}, Text, func(_ *EvalContext, a []Value) (Value, error) {
		return Value{S: padText(a[0].S, a[1].I, " ", false)}, nil
	})
	regFn("rpad", []ID{Text, Int4, Text}, Text, func(_ *EvalContext, a []Value) (Value, error) {
		return Value{S: padText(a[0].S, a[1].I, a[2].S, false)}, nil
	})
	for _, t := range []struct {
		name        string
		left, right bool
	}{{"btrim", true, true}, {"ltrim", true, false}, {"rtrim", false, true}} {
		t := t
		regFn(t.name, []ID{Text}, Text, func(_ *EvalContext, a []Value) (Value, error) {
			return Value{S: trimSet(a[0].S, " ", t.left, t.right)}, nil
		})
		regFn(t.name, []ID{Text, Text}, Text, func(_ *EvalContext, a []Value) (Value, error) {
			return Value{S: trimSet(a[0].S, a[1].S, t.left, t.right)}, nil
		})
	}
	regFn("replace", []ID{Text, Text, Text}, Text, func(_ *EvalContext, a []Value) (Value, error) {
		if a[1].S == "" {
			return a[0], nil
		}
		return Value{S: strings.ReplaceAll(a[0].S, a[1].S, a[2].S)}, nil
	})
	regFn("repeat", []ID{Text, Int4}, Text, func(_ *EvalContext, a []Value) (Value, error) {
		if a[1].I <= 0 {
			return Value{S: ""}, nil
		}
		if int64(len(a[0].S))*a[1].I > 1<<30 {
			return Value{}, pgerr.New(pgerr.ProgramLimitExceeded, "requested length too large")
		}
		return Value{S: strings.Repeat(a[0].S, int(a[1].I))}, nil
	})
	regFn("reverse", []ID{Text}, Text, ts(func(s string) string {
		r := []rune(s)
		for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
			r[i], r[j] = r[j], r[i]
		}
		return string(r)
	}))
	regFn("split_part", []ID{Text, Text, Int4}, Text, func(_ *EvalContext, a []Value) (Value, error) {
		n := a[2].I
		if n == 0 {
			return Value{}, pgerr.New(pgerr.InvalidParameterValue, "field position must not be zero")
		}
		var parts []string
		if a[1].S == "" {
			parts = []string{a[0].S}
		} else {
			parts = strings.Split(a[0].S, a[1].S)
		}
		if a[0].S == "" {
			return Value{S: ""}, nil
		}
		if n < 0 {
			n = int64(len(parts)) + n + 1
		}
		if n < 1 || n > int64(len(parts)) {
			return Value{S: ""}, nil
		}
		return Value{S: parts[n-1]}, nil
	})
	concat := &builtin{name: "concat", args: []ID{idAny}, variadic: true, result: Text}
	concat.bind = func(args []Type) evalFn {
		return func(ctx *EvalContext, a []Value) (Value, error) {
			var b strings.Builder
			for i, v := range a {
				if !v.Null {
					b.WriteString(anyToText(ctx, v, args[i]))
				}
			}
			return Value{S: b.String()}, nil
		}
	}
	functionTable["concat"] = append(functionTable["concat"], concat)
	concatWS := &builtin{name: "concat_ws", args: []ID{Text, idAny}, variadic: true, result: Text}
	concatWS.bind = func(args []Type) evalFn {
		return func(ctx *EvalContext, a []Value) (Value, error) {
			if a[0].Null {
				return NullValue, nil
			}
			var parts []string
			for i, v := range a[1:] {
				if !v.Null {
					parts = append(parts, anyToText(ctx, v, args[i+1]))
				}
			}
			return Value{S: strings.Join(parts, a[0].S)}, nil
		}
	}
	functionTable["concat_ws"] = append(functionTable["concat_ws"], concatWS)
	regFn("md5", []ID{Text}, Text, ts(func(s string) string {
		h := md5.Sum([]byte(s))
		return hex.EncodeToString(h[:])
	}))
	regFn("chr", []ID{Int4}, Text, func(_ *EvalContext, a []Value) (Value, error) {
		c := a[0].I
		if c == 0 {
			return Value{}, pgerr.New("54000", "null character not permitted")
		}
		if c < 0 || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF) {
			return Value{}, pgerr.New(pgerr.ProgramLimitExceeded, "requested character too large for encoding: %d", c)
		}
		return Value{S: string(rune(c))}, nil
	})
	regFn("ascii", []ID{Text}, Int4, func(_ *EvalContext, a []Value) (Value, error) {
		if a[0].S == "" {
			return Value{I: 0}, nil
		}
		r, _ := utf8.DecodeRuneInString(a[0].S)
		return Value{I: int64(r)}, nil
	})
	regFn("starts_with", []ID{Text, Text}, Bool, func(_ *EvalContext, a []Value) (Value, error) {
		return BoolValue(strings.HasPrefix(a[0].S, a[1].S)), nil
	})
	regFn("translate", []ID{Text, Text, Text}, Text, func(_ *EvalContext, a []Value) (Value, error) {
		from, to := []rune(a[1].S), []rune(a[2].S)
		var b strings.Builder
		for _, r := range a[0].S {
			idx := -1
			for i, f := range from {
				if f == r {
					idx = i
					break
				}
			}
			switch {
			case idx < 0:
				b.WriteRune(r)
			case idx < len(to):
				b.WriteRune(to[idx])
			}
		}
		return Value{S: b.String()}, nil
	})
	regFn("quote_literal", []ID{Text}, Text, ts(func(s string) string {
		q := "'" + strings.ReplaceAll(s, "'", "''") + "'"
		if strings.Contains(s, `\`) {
			return "E" + strings.ReplaceAll(q, `\`, `\\`)
		}
		return q
	}))
	regFn("quote_ident", []ID{Text}, Text, ts(func(s string) string {
		ok := s != "" && (s[0] == '_' || (s[0] >= 'a' && s[0] <= 'z'))
		for i := 0; ok && i < len(s); i++ {
			c := s[i]
			ok = c == '_' || (c >= 'a' && c <= 'z') || isDigit(c)
		}
		if ok && !reservedKeywords[s] {
			return s
		}
		return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
	}))
}
