package types

import (
	"context"
	"crypto/md5"
	"encoding/hex"
	"math"
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
		return errLogZero()
	}
	return errLogNegative()
}

func numUnary(fn func(context.Context, *apd.Decimal) (*apd.Decimal, error)) evalFn {
	return func(c *EvalContext, a []Value) (Value, error) {
		r, err := fn(c.context(), a[0].Num)
		return Value{Num: r}, err
	}
}

func numRoundLike(trunc bool) evalFn {
	return func(_ *EvalContext, a []Value) (Value, error) {
		s := 0
		if len(a) > 1 {
			// numeric_round/numeric_trunc's limits: NUMERIC_DSCALE_MAX after
			// the point, (NUMERIC_WEIGHT_MAX+1)*DEC_DIGITS(+1) before it.
			lo := int64(-(numShrtMax + 1) * nbaseDecDigits)
			if !trunc {
				lo--
			}
			s = int(max(min(a[1].I, numericMaxDscale), lo))
		}
		x := a[0].Num
		if x.Form != apd.Finite {
			return a[0], nil
		}
		if s < 0 && -s > int(x.NumDigits())+int(x.Exponent) {
			// rounding left of the leading digit's next position gives 0
			return Value{Num: apd.New(0, 0)}, nil
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
	regFn("cbrt", []ID{Float8}, Float8, f1(libmCbrt))
	for _, n := range []string{"power", "pow"} {
		regFn(n, []ID{Float8, Float8}, Float8, evalPowFloat)
		regFn(n, []ID{Numeric, Numeric}, Numeric, evalPowNumeric)
	}
	regFn("exp", []ID{Float8}, Float8, func(_ *EvalContext, a []Value) (Value, error) {
		x := a[0].F
		if math.IsNaN(x) || math.IsInf(x, 1) {
			return a[0], nil
		}
		if math.IsInf(x, -1) {
			return Value{F: 0}, nil
		}
		return checkFloat(libmExp(x), false, false, 64)
	})
	regFn("exp", []ID{Numeric}, Numeric, numUnary(numExp))
	floatLog := func(fn func(float64) float64) evalFn {
		return func(_ *EvalContext, a []Value) (Value, error) {
			x := a[0].F
			if x <= 0 {
				return Value{}, errLog(x)
			}
			if math.IsNaN(x) || math.IsInf(x, 1) {
				return a[0], nil
			}
			return Value{F: fn(x)}, nil
		}
	}
	regFn("ln", []ID{Float8}, Float8, floatLog(libmLog))
	regFn("ln", []ID{Numeric}, Numeric, numUnary(numLn))
	for _, n := range []string{"log", "log10"} {
		regFn(n, []ID{Float8}, Float8, floatLog(libmLog10))
		regFn(n, []ID{Numeric}, Numeric, numUnary(func(ctx context.Context, x *apd.Decimal) (*apd.Decimal, error) { return numLog(ctx, apd.New(10, 0), x) }))
	}
	regFn("log", []ID{Numeric, Numeric}, Numeric, func(c *EvalContext, a []Value) (Value, error) {
		r, err := numLog(c.context(), a[0].Num, a[1].Num)
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
	// The domain checks are float.c's: an infinite argument of sin, cos,
	// tan and cot, and one outside [-1, 1] of asin and acos, is 22003.
	for name, fn := range map[string]func(float64) float64{
		"sin": libmSin, "cos": libmCos, "tan": libmTan, "asin": libmAsin, "acos": libmAcos,
		"cot": func(x float64) float64 { return 1 / libmTan(x) },
	} {
		inverse := name == "asin" || name == "acos"
		regFn(name, []ID{Float8}, Float8, func(_ *EvalContext, a []Value) (Value, error) {
			x := a[0].F
			if (inverse && (x < -1 || x > 1)) || (!inverse && math.IsInf(x, 0)) {
				return Value{}, pgerr.New(pgerr.NumericValueOutOfRange, "input is out of range")
			}
			return Value{F: fn(x)}, nil
		})
	}
	for name, fn := range map[string]func(float64) float64{"atan": libmAtan, "sinh": libmSinh, "cosh": libmCosh, "tanh": libmTanh} {
		regFn(name, []ID{Float8}, Float8, f1(fn))
	}
	regFn("atan2", []ID{Float8, Float8}, Float8, func(_ *EvalContext, a []Value) (Value, error) {
		return Value{F: libmAtan2(a[0].F, a[1].F)}, nil
	})
	registerNumericFuncs()
	registerStringFuncs()
	registerByteaFuncs()
	registerRegexpFuncs()
	registerExpandArray()
	registerMathFuncs()
	registerSimilarFuncs()
	registerMoreStringFuncs()
	registerUUIDFuncs()
	registerXidFuncs()
	registerBitFuncs()
	registerBoolCmpFuncs()
	registerParseIdent()
	registerInternalCharFuncs()
	registerNetworkFuncs()
	registerDateFuncs()
	registerFormattingFuncs()
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
	concat := &builtin{name: "concat", args: []ID{idAny}, variadic: true, result: Text, stable: true}
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
	concatWS := &builtin{name: "concat_ws", args: []ID{Text, idAny}, variadic: true, result: Text, stable: true}
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
}
