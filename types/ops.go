package types

import (
	"math"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/cockroachdb/apd/v3"
	"github.com/joind/joind/pgerr"
)

var intIDs = []ID{Int2, Int4, Int8}

func wider(a, b ID) ID {
	if a == Int8 || b == Int8 {
		return Int8
	}
	if a == Int4 || b == Int4 {
		return Int4
	}
	return Int2
}

func intArith(op byte, res ID) evalFn {
	return func(_ *EvalContext, a []Value) (Value, error) {
		x, y := a[0].I, a[1].I
		var r int64
		ok := true
		switch op {
		case '+':
			r, ok = addInt64(x, y)
		case '-':
			r, ok = subInt64(x, y)
		case '*':
			r, ok = mulInt64(x, y)
		case '/':
			if y == 0 {
				return Value{}, errDivisionByZero()
			}
			if y == -1 {
				if x == math.MinInt64 {
					ok = false
				}
				r = -x
			} else {
				r = x / y
			}
		case '%':
			if y == 0 {
				return Value{}, errDivisionByZero()
			}
			if y != -1 {
				r = x % y
			}
		}
		if !ok {
			return Value{}, errIntOutOfRange(res)
		}
		if err := checkIntRange(r, res); err != nil {
			return Value{}, err
		}
		return Value{I: r}, nil
	}
}

func checkFloat(r float64, infOK, zeroOK bool, bits int) (Value, error) {
	if bits == 32 {
		r = float64(float32(r))
	}
	if math.IsInf(r, 0) && !infOK {
		return Value{}, pgerr.New(pgerr.NumericValueOutOfRange, "value out of range: overflow")
	}
	if r == 0 && !zeroOK {
		return Value{}, pgerr.New(pgerr.NumericValueOutOfRange, "value out of range: underflow")
	}
	return Value{F: r}, nil
}

func floatArith(op byte, bits int) evalFn {
	return func(_ *EvalContext, a []Value) (Value, error) {
		x, y := a[0].F, a[1].F
		if bits == 32 {
			x, y = float64(float32(x)), float64(float32(y))
		}
		inf := math.IsInf(x, 0) || math.IsInf(y, 0)
		switch op {
		case '+':
			if bits == 32 {
				return checkFloat(float64(float32(x)+float32(y)), inf, true, bits)
			}
			return checkFloat(x+y, inf, true, bits)
		case '-':
			if bits == 32 {
				return checkFloat(float64(float32(x)-float32(y)), inf, true, bits)
			}
			return checkFloat(x-y, inf, true, bits)
		case '*':
			r := x * y
			if bits == 32 {
				r = float64(float32(x) * float32(y))
			}
			return checkFloat(r, inf, x == 0 || y == 0, bits)
		default:
			if y == 0 && !math.IsNaN(x) {
				return Value{}, errDivisionByZero()
			}
			r := x / y
			if bits == 32 {
				r = float64(float32(x) / float32(y))
			}
			return checkFloat(r, math.IsInf(x, 0), x == 0 || math.IsInf(y, 0), bits)
		}
	}
}

func numArith(op byte) evalFn {
	return func(_ *EvalContext, a []Value) (Value, error) {
		var r *apd.Decimal
		var err error
		switch op {
		case '+':
			r, err = numAdd(a[0].Num, a[1].Num, false)
		case '-':
			r, err = numAdd(a[0].Num, a[1].Num, true)
		case '*':
			r, err = numMul(a[0].Num, a[1].Num)
		case '/':
			r, err = numDiv(a[0].Num, a[1].Num)
		case '%':
			r, err = numMod(a[0].Num, a[1].Num)
		}
		return Value{Num: r}, err
	}
}

func cmpResult(op string, c int) bool {
	switch op {
	case "=":
		return c == 0
	case "<>":
		return c != 0
	case "<":
		return c < 0
	case "<=":
		return c <= 0
	case ">":
		return c > 0
	}
	return c >= 0
}

var cmpOps = []string{"=", "<>", "<", "<=", ">", ">="}

func cmpEval(op string, t Type) evalFn {
	return func(_ *EvalContext, a []Value) (Value, error) {
		return BoolValue(cmpResult(op, Compare(a[0], a[1], t))), nil
	}
}

// crossEval compares values of two different types by converting both with conv.
func crossEval(op string, conv func(v Value, left bool) Value, t Type) evalFn {
	return func(_ *EvalContext, a []Value) (Value, error) {
		return BoolValue(cmpResult(op, Compare(conv(a[0], true), conv(a[1], false), t))), nil
	}
}

func registerOperators() {
	// Integer arithmetic and comparison, all width combinations (PostgreSQL
	// has int24pl, int48pl, ... so mixed widths resolve exactly).
	for _, l := range intIDs {
		for _, r := range intIDs {
			res := wider(l, r)
			for _, op := range []byte{'+', '-', '*', '/', '%'} {
				if op == '%' && l != r {
					continue // PostgreSQL has only int2mod/int4mod/int8mod
				}
				regOp(string(op), []ID{l, r}, res, intArith(op, res))
			}
			for _, op := range cmpOps {
				regOp(op, []ID{l, r}, Bool, cmpEval(op, Int8Type))
			}
		}
		id := l
		regOp("-", []ID{id}, id, func(_ *EvalContext, a []Value) (Value, error) {
			if err := checkIntRange(-a[0].I, id); err != nil || a[0].I == math.MinInt64 {
				return Value{}, errIntOutOfRange(id)
			}
			return Value{I: -a[0].I}, nil
		})
		regOp("+", []ID{id}, id, func(_ *EvalContext, a []Value) (Value, error) { return a[0], nil })
		regOp("@", []ID{id}, id, func(_ *EvalContext, a []Value) (Value, error) {
			v := a[0].I
			if v < 0 {
				v = -v
			}
			if checkIntRange(v, id) != nil || v < 0 {
				return Value{}, errIntOutOfRange(id)
			}
			return Value{I: v}, nil
		})
		for _, op := range []string{"&", "|", "#"} {
			op := op
			regOp(op, []ID{id, id}, id, func(_ *EvalContext, a []Value) (Value, error) {
				switch op {
				case "&":
					return Value{I: a[0].I & a[1].I}, nil
				case "|":
					return Value{I: a[0].I | a[1].I}, nil
				}
				return Value{I: a[0].I ^ a[1].I}, nil
			})
		}
	}
	// Floats: float4, float8 and the mixed float48/float84 operators.
	fl := []ID{Float4, Float8}
	for _, l := range fl {
		for _, r := range fl {
			res, bits := Float8, 64
			if l == Float4 && r == Float4 {
				res, bits = Float4, 32
			}
			for _, op := range []byte{'+', '-', '*', '/'} {
				regOp(string(op), []ID{l, r}, res, floatArith(op, bits))
			}
			for _, op := range cmpOps {
				regOp(op, []ID{l, r}, Bool, cmpEval(op, Float8Type))
			}
		}
		id := l
		regOp("-", []ID{id}, id, func(_ *EvalContext, a []Value) (Value, error) { return Value{F: -a[0].F}, nil })
		regOp("+", []ID{id}, id, func(_ *EvalContext, a []Value) (Value, error) { return a[0], nil })
		regOp("@", []ID{id}, id, func(_ *EvalContext, a []Value) (Value, error) { return Value{F: math.Abs(a[0].F)}, nil })
	}
	regOp("^", []ID{Float8, Float8}, Float8, evalPowFloat)
	regOp("|/", []ID{Float8}, Float8, evalSqrtFloat)
	regOp("||/", []ID{Float8}, Float8, func(_ *EvalContext, a []Value) (Value, error) { return Value{F: libmCbrt(a[0].F)}, nil })
	// Numeric.
	for _, op := range []byte{'+', '-', '*', '/', '%'} {
		regOp(string(op), []ID{Numeric, Numeric}, Numeric, numArith(op))
	}
	regOp("^", []ID{Numeric, Numeric}, Numeric, evalPowNumeric)
	regOp("-", []ID{Numeric}, Numeric, func(_ *EvalContext, a []Value) (Value, error) {
		if isNaNNum(a[0].Num) {
			return a[0], nil
		}
		r := new(apd.Decimal).Neg(a[0].Num)
		return Value{Num: normNum(r)}, nil
	})
	regOp("+", []ID{Numeric}, Numeric, func(_ *EvalContext, a []Value) (Value, error) { return a[0], nil })
	regOp("@", []ID{Numeric}, Numeric, evalAbsNumeric)
	// Comparisons of every other type with itself.
	for _, id := range []ID{Bool, Numeric, Text, Char, Date, Timestamp, TimestampTZ, Interval} {
		for _, op := range cmpOps {
			regOp(op, []ID{id, id}, Bool, cmpEval(op, Type{ID: id, Typmod: -1}))
		}
	}
	// date vs timestamp.
	dateConv := func(v Value, _ bool) Value { return v }
	for _, op := range cmpOps {
		regOp(op, []ID{Date, Timestamp}, Bool, crossEval(op, func(v Value, left bool) Value {
			if left {
				return Value{I: dateToTimestamp(v.I)}
			}
			return v
		}, TimestampType))
		regOp(op, []ID{Timestamp, Date}, Bool, crossEval(op, func(v Value, left bool) Value {
			if !left {
				return Value{I: dateToTimestamp(v.I)}
			}
			return dateConv(v, left)
		}, TimestampType))
	}
	registerStringOps()
	registerNameOps()
	registerOIDOps()
	registerDateTimeOps()
	registerTimestampTZOps()
	registerTimeOps()
}

// evalPowFloat is dpow: POSIX pow(3) rules for NaN and infinities, then a
// correctly rounded power with PostgreSQL's overflow/underflow errors.
func evalPowFloat(_ *EvalContext, a []Value) (Value, error) {
	x, y := a[0].F, a[1].F
	if math.IsNaN(x) {
		if math.IsNaN(y) || y != 0 {
			return Value{F: math.NaN()}, nil
		}
		return Value{F: 1}, nil
	}
	if math.IsNaN(y) {
		if x != 1 {
			return Value{F: math.NaN()}, nil
		}
		return Value{F: 1}, nil
	}
	if x == 0 && y < 0 {
		return Value{}, errZeroNegativePower()
	}
	if x < 0 && math.Floor(y) != y {
		return Value{}, errComplexPower()
	}
	switch {
	case math.IsInf(y, 0):
		absx := math.Abs(x)
		switch {
		case absx == 1:
			return Value{F: 1}, nil
		case (absx > 1) == (y > 0):
			return Value{F: math.Inf(1)}, nil
		}
		return Value{F: 0}, nil
	case math.IsInf(x, 0):
		switch {
		case y == 0:
			return Value{F: 1}, nil
		case x > 0 && y > 0:
			return Value{F: x}, nil
		case x > 0:
			return Value{F: 0}, nil
		}
		halfy := y / 2
		odd := math.Floor(halfy) != halfy
		if y > 0 {
			if odd {
				return Value{F: x}, nil
			}
			return Value{F: -x}, nil
		}
		if odd {
			return Value{F: math.Copysign(0, -1)}, nil
		}
		return Value{F: 0}, nil
	}
	return checkFloat(libmPow(x, y), false, x == 0, 64)
}

func evalSqrtFloat(_ *EvalContext, a []Value) (Value, error) {
	if a[0].F < 0 {
		return Value{}, errSqrtNegative()
	}
	return Value{F: math.Sqrt(a[0].F)}, nil
}

func evalAbsNumeric(_ *EvalContext, a []Value) (Value, error) {
	if isNaNNum(a[0].Num) {
		return a[0], nil
	}
	return Value{Num: new(apd.Decimal).Abs(a[0].Num)}, nil
}

// ---- strings ----------------------------------------------------------------

func registerStringOps() {
	regOp("||", []ID{Text, Text}, Text, func(_ *EvalContext, a []Value) (Value, error) {
		return Value{S: a[0].S + a[1].S}, nil
	})
	concatAny := func(textLeft bool) func(args []Type) evalFn {
		return func(args []Type) evalFn {
			other := args[1]
			if !textLeft {
				other = args[0]
			}
			return func(ctx *EvalContext, a []Value) (Value, error) {
				if textLeft {
					return Value{S: a[0].S + castToText(ctx, a[1], other)}, nil
				}
				return Value{S: castToText(ctx, a[0], other) + a[1].S}, nil
			}
		}
	}
	b := regOp("||", []ID{Text, idAnyNonArray}, Text, nil)
	b.bind = concatAny(true)
	b = regOp("||", []ID{idAnyNonArray, Text}, Text, nil)
	b.bind = concatAny(false)

	like := func(neg, ci bool, char bool) evalFn {
		return func(_ *EvalContext, a []Value) (Value, error) {
			s := a[0].S
			if char {
				s = strings.TrimRight(s, " ")
			}
			m, err := likeMatch(s, a[1].S, ci)
			if err != nil {
				return Value{}, err
			}
			return BoolValue(m != neg), nil
		}
	}
	for _, op := range []struct {
		name    string
		neg, ci bool
	}{{"~~", false, false}, {"!~~", true, false}, {"~~*", false, true}, {"!~~*", true, true}} {
		regOp(op.name, []ID{Text, Text}, Bool, like(op.neg, op.ci, false))
		regOp(op.name, []ID{Char, Text}, Bool, like(op.neg, op.ci, false))
		regOp(op.name, []ID{Name, Text}, Bool, like(op.neg, op.ci, false)) // namelike
	}
	re := func(neg, ci bool) evalFn {
		return func(_ *EvalContext, a []Value) (Value, error) {
			r, err := compileRegex(a[1].S, ci)
			if err != nil {
				return Value{}, err
			}
			return BoolValue(r.MatchString(a[0].S) != neg), nil
		}
	}
	// bpchar has its own regex operators (bpcharregexeq ...): the value is
	// matched with its padding, as for LIKE. name has them too (nameregexeq).
	for _, id := range []ID{Text, Char, Name} {
		regOp("~", []ID{id, Text}, Bool, re(false, false))
		regOp("!~", []ID{id, Text}, Bool, re(true, false))
		regOp("~*", []ID{id, Text}, Bool, re(false, true))
		regOp("!~*", []ID{id, Text}, Bool, re(true, true))
	}
	// text_pattern_ops' and bpchar_pattern_ops' ordering: bytewise (memcmp,
	// then the shorter first), whatever the collation; bpchar without its
	// trailing blanks (bcTruelen).
	for _, id := range []ID{Text, Char} {
		trim := id == Char
		for _, op := range []string{"<", "<=", ">=", ">"} {
			op := op
			regOp("~"+op+"~", []ID{id, id}, Bool, func(_ *EvalContext, a []Value) (Value, error) {
				x, y := a[0].S, a[1].S
				if trim {
					x, y = strings.TrimRight(x, " "), strings.TrimRight(y, " ")
				}
				return BoolValue(cmpResult(op, strings.Compare(x, y))), nil
			})
		}
	}
	regOp("^@", []ID{Text, Text}, Bool, func(_ *EvalContext, a []Value) (Value, error) {
		return BoolValue(strings.HasPrefix(a[0].S, a[1].S)), nil
	})
}

// castToText is v::text, as text || anynonarray (anytextcat: $1::text ||
// $2) converts its other operand: the output function, except that
// boolean's cast to text spells true/false where its output is t/f.
func castToText(ctx *EvalContext, v Value, t Type) string {
	switch t.ID {
	case Bool:
		if v.I != 0 {
			return "true"
		}
		return "false"
	case Char:
		return strings.TrimRight(v.S, " ") // rtrim1: bpchar::text drops the padding
	}
	return anyToText(ctx, v, t)
}

// anyToText is the output function of a polymorphic argument (concat,
// concat_ws): bpchar keeps its padding.
func anyToText(ctx *EvalContext, v Value, t Type) string {
	if t.ID == Text || t.ID == Varchar || t.ID == Unknown || t.ID == Char || t.ID == Name {
		return v.S
	}
	return string(FormatText(nil, v, t, ctxFormat(ctx)))
}

// likeMatch implements LIKE with backslash as the escape character (the
// binder rewrites ESCAPE clauses with LikeEscape).
func likeMatch(s, p string, ci bool) (bool, error) {
	if ci {
		s, p = strings.ToLower(s), strings.ToLower(p)
	}
	r, err := likeRec(s, p)
	return r == likeTrue, err
}

// likeResult is PostgreSQL's MatchText result: likeAbort means the text ran
// out before the pattern, so no later start for an enclosing % can match
// either. Stopping there keeps a pattern of k %s linear in the text per %
// instead of exponential ('aaa…' LIKE '%a%a…%ab').
type likeResult int

const (
	likeFalse likeResult = iota
	likeTrue
	likeAbort
)

func likeRec(s, p string) (likeResult, error) {
	for len(p) > 0 {
		c := p[0]
		switch c {
		case '%':
			for len(p) > 0 && p[0] == '%' {
				p = p[1:]
			}
			if len(p) == 0 {
				return likeTrue, nil
			}
			for i := 0; i <= len(s); {
				m, err := likeRec(s[i:], p)
				if err != nil || m != likeFalse {
					return m, err
				}
				if i == len(s) {
					break
				}
				_, sz := utf8.DecodeRuneInString(s[i:])
				i += sz
			}
			return likeAbort, nil
		case '_':
			if len(s) == 0 {
				return likeAbort, nil
			}
			_, sz := utf8.DecodeRuneInString(s)
			s, p = s[sz:], p[1:]
		case '\\':
			if len(s) == 0 {
				// MatchText stops when the text runs out, before it
				// looks at the escape: 'a' LIKE 'a\' is false, no error.
				return likeAbort, nil
			}
			if len(p) < 2 {
				return likeFalse, pgerr.New(pgerr.InvalidEscapeSequence, "LIKE pattern must not end with escape character")
			}
			_, psz := utf8.DecodeRuneInString(p[1:])
			lit := p[1 : 1+psz]
			if !strings.HasPrefix(s, lit) {
				return likeFalse, nil
			}
			s, p = s[len(lit):], p[1+psz:]
		default:
			if len(s) == 0 {
				return likeAbort, nil
			}
			_, psz := utf8.DecodeRuneInString(p)
			if !strings.HasPrefix(s, p[:psz]) {
				return likeFalse, nil
			}
			s, p = s[psz:], p[psz:]
		}
	}
	if len(s) == 0 {
		return likeTrue, nil
	}
	return likeFalse, nil
}

// LikeEscape rewrites a LIKE pattern using escape character esc into the
// backslash-escaped form the ~~ operators take (PostgreSQL's like_escape).
// An empty esc disables escaping.
func LikeEscape(pattern, esc string) (string, error) {
	if utf8.RuneCountInString(esc) > 1 {
		return "", pgerr.New(pgerr.InvalidEscapeSequence, "invalid escape string").
			WithHint("Escape string must be empty or one character.")
	}
	if esc == `\` {
		return pattern, nil
	}
	var b strings.Builder
	escR, _ := utf8.DecodeRuneInString(esc)
	afterEsc := false
	for _, r := range pattern {
		switch {
		case afterEsc:
			b.WriteByte('\\')
			b.WriteRune(r)
			afterEsc = false
		case esc != "" && r == escR:
			afterEsc = true
		case r == '\\':
			b.WriteString(`\\`)
		default:
			b.WriteRune(r)
		}
	}
	if afterEsc {
		return "", pgerr.New(pgerr.InvalidEscapeSequence, "LIKE pattern must not end with escape character")
	}
	return b.String(), nil
}

func init() {
	regFn("like_escape", []ID{Text, Text}, Text, func(_ *EvalContext, a []Value) (Value, error) {
		s, err := LikeEscape(a[0].S, a[1].S)
		return Value{S: s}, err
	})
}

// compileRegex compiles the pattern of ~ and ~* (regexp.go).
func compileRegex(p string, ci bool) (*regexp.Regexp, error) {
	c, err := compileARE(p, reFlags{icase: ci, ownGreediness: true}) // a boolean match
	if err != nil {
		return nil, err
	}
	return c.re, nil
}

// ---- date/time ---------------------------------------------------------------

func registerDateTimeOps() {
	regOp("+", []ID{Date, Int4}, Date, evalDatePlusInt(1))
	regOp("+", []ID{Int4, Date}, Date, func(c *EvalContext, a []Value) (Value, error) {
		return evalDatePlusInt(1)(c, []Value{a[1], a[0]})
	})
	regOp("-", []ID{Date, Int4}, Date, evalDatePlusInt(-1))
	regOp("-", []ID{Date, Date}, Int4, func(_ *EvalContext, a []Value) (Value, error) {
		if isInfDate(a[0].I) || isInfDate(a[1].I) {
			return Value{}, pgerr.New(pgerr.DatetimeFieldOverflow, "cannot subtract infinite dates")
		}
		return Value{I: a[0].I - a[1].I}, nil
	})
	regOp("+", []ID{Date, Interval}, Timestamp, func(_ *EvalContext, a []Value) (Value, error) {
		ts, err := dateToTimestampChecked(a[0].I)
		if err != nil {
			return Value{}, err
		}
		r, err := timestampPlusInterval(ts, a[1].Iv)
		return Value{I: r}, err
	})
	regOp("+", []ID{Interval, Date}, Timestamp, func(_ *EvalContext, a []Value) (Value, error) {
		ts, err := dateToTimestampChecked(a[1].I)
		if err != nil {
			return Value{}, err
		}
		r, err := timestampPlusInterval(ts, a[0].Iv)
		return Value{I: r}, err
	})
	regOp("-", []ID{Date, Interval}, Timestamp, func(_ *EvalContext, a []Value) (Value, error) {
		n, err := intervalNeg(a[1].Iv)
		if err != nil {
			return Value{}, err
		}
		ts, err := dateToTimestampChecked(a[0].I)
		if err != nil {
			return Value{}, err
		}
		r, err := timestampPlusInterval(ts, n)
		return Value{I: r}, err
	})
	regOp("+", []ID{Timestamp, Interval}, Timestamp, func(_ *EvalContext, a []Value) (Value, error) {
		r, err := timestampPlusInterval(a[0].I, a[1].Iv)
		return Value{I: r}, err
	})
	regOp("+", []ID{Interval, Timestamp}, Timestamp, func(_ *EvalContext, a []Value) (Value, error) {
		r, err := timestampPlusInterval(a[1].I, a[0].Iv)
		return Value{I: r}, err
	})
	regOp("-", []ID{Timestamp, Interval}, Timestamp, func(_ *EvalContext, a []Value) (Value, error) {
		n, err := intervalNeg(a[1].Iv)
		if err != nil {
			return Value{}, err
		}
		r, err := timestampPlusInterval(a[0].I, n)
		return Value{I: r}, err
	})
	regOp("-", []ID{Timestamp, Timestamp}, Interval, func(_ *EvalContext, a []Value) (Value, error) {
		r, err := timestampMinus(a[0].I, a[1].I)
		return Value{Iv: r}, err
	})
	regOp("+", []ID{Interval, Interval}, Interval, func(_ *EvalContext, a []Value) (Value, error) {
		r, err := intervalAdd(a[0].Iv, a[1].Iv)
		return Value{Iv: r}, err
	})
	regOp("-", []ID{Interval, Interval}, Interval, func(_ *EvalContext, a []Value) (Value, error) {
		n, err := intervalNeg(a[1].Iv)
		if err != nil {
			return Value{}, err
		}
		r, err := intervalAdd(a[0].Iv, n)
		return Value{Iv: r}, err
	})
	regOp("-", []ID{Interval}, Interval, func(_ *EvalContext, a []Value) (Value, error) {
		r, err := intervalNeg(a[0].Iv)
		return Value{Iv: r}, err
	})
	// PostgreSQL 15 has no prefix + for interval (interval_um only).
	regOp("*", []ID{Interval, Float8}, Interval, func(_ *EvalContext, a []Value) (Value, error) {
		r, err := intervalMulDiv(a[0].Iv, a[1].F, false)
		return Value{Iv: r}, err
	})
	regOp("*", []ID{Float8, Interval}, Interval, func(_ *EvalContext, a []Value) (Value, error) {
		r, err := intervalMulDiv(a[1].Iv, a[0].F, false)
		return Value{Iv: r}, err
	})
	regOp("/", []ID{Interval, Float8}, Interval, func(_ *EvalContext, a []Value) (Value, error) {
		r, err := intervalMulDiv(a[0].Iv, a[1].F, true)
		return Value{Iv: r}, err
	})
}

func isInfDate(d int64) bool { return d == DateInfinity || d == DateNegInfinity }

func evalDatePlusInt(sign int64) evalFn {
	return func(_ *EvalContext, a []Value) (Value, error) {
		if isInfDate(a[0].I) {
			return a[0], nil
		}
		r := a[0].I + sign*a[1].I
		if !dateValid(int(r + unixEpochJD)) {
			return Value{}, errDateOutOfRange()
		}
		return Value{I: r}, nil
	}
}
