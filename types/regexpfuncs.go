package types

import (
	"context"
	"strings"
	"unicode/utf8"

	"github.com/joind/joind/pgerr"
)

// The regular expression functions (PostgreSQL 15's regexp_replace,
// regexp_count, regexp_instr, regexp_like, regexp_substr and
// substring(text from pattern)) over compileARE. Positions are characters,
// 1-based, as in PostgreSQL; matches step through the string as
// compiledRE.matches does.

func errBadParam(name string, v int64) error {
	return pgerr.New(pgerr.InvalidParameterValue, "invalid value for parameter \"%s\": %d", name, v)
}

func errNoGlobal(fn string) error {
	return pgerr.New(pgerr.InvalidParameterValue, "%s() does not support the \"global\" option", fn)
}

// runeOffset is the byte offset of the 0-based character n of s (len(s)
// past its end).
func runeOffset(s string, n int64) int {
	for i := range s {
		if n == 0 {
			return i
		}
		n--
	}
	return len(s)
}

// charPos is the 1-based character position of byte offset b of s.
func charPos(s string, b int) int64 { return int64(utf8.RuneCountInString(s[:b])) + 1 }

// regexpArgs reads the optional (start, N, flags) arguments shared by
// regexp_count/instr/substr: start and N must be positive.
func regexpArgs(fn string, a []Value, startAt, nAt, flagsAt int) (c *compiledRE, start int, n int64, err error) {
	start, n = 0, 1
	var flags string
	if len(a) > startAt {
		if a[startAt].I <= 0 {
			return nil, 0, 0, errBadParam("start", a[startAt].I)
		}
		start = runeOffset(a[0].S, a[startAt].I-1)
	}
	if nAt > 0 && len(a) > nAt {
		if a[nAt].I <= 0 {
			return nil, 0, 0, errBadParam("n", a[nAt].I)
		}
		n = a[nAt].I
	}
	if len(a) > flagsAt {
		flags = a[flagsAt].S
	}
	f, err := parseREFlags(flags)
	if err != nil {
		return nil, 0, 0, err
	}
	if f.global {
		return nil, 0, 0, errNoGlobal(fn)
	}
	c, err = compileARE(a[1].S, f)
	return c, start, n, err
}

// appendReplacement is PostgreSQL's regexp replacement text: \1..\9 the
// subexpressions, \& the match, \\ a backslash, any other \ itself.
func appendReplacement(b *strings.Builder, s, repl string, loc []int) {
	for {
		k := strings.IndexByte(repl, '\\')
		if k < 0 {
			b.WriteString(repl)
			return
		}
		b.WriteString(repl[:k])
		repl = repl[k+1:]
		if repl == "" {
			b.WriteByte('\\')
			return
		}
		idx := -1
		switch c := repl[0]; {
		case c >= '1' && c <= '9':
			idx = int(c - '0')
		case c == '&':
			idx = 0
		case c == '\\':
			b.WriteByte('\\')
			repl = repl[1:]
			continue
		default:
			b.WriteByte('\\')
			continue
		}
		repl = repl[1:]
		if 2*idx+1 < len(loc) && loc[2*idx] >= 0 {
			b.WriteString(s[loc[2*idx]:loc[2*idx+1]])
		}
	}
}

// regexpReplace replaces the n-th match (0: every match) at or after the
// byte offset start.
func regexpReplace(ctx context.Context, s, pattern, repl string, start int, n int64, f reFlags) (string, error) {
	c, err := compileARE(pattern, f)
	if err != nil {
		return "", err
	}
	limit := -1
	if n > 0 {
		limit = int(min(n, int64(len(s)+2)))
	}
	locs, err := c.matches(ctx, s, start, limit)
	if err != nil {
		return "", err
	}
	if n > 0 {
		if int64(len(locs)) < n {
			return s, nil
		}
		locs = locs[n-1:]
	}
	if len(locs) == 0 {
		return s, nil
	}
	var b strings.Builder
	at := 0
	for _, l := range locs {
		b.WriteString(s[at:l[0]])
		appendReplacement(&b, s, repl, l)
		at = l[1]
	}
	b.WriteString(s[at:])
	return b.String(), nil
}

func registerRegexpFuncs() {
	registerRegexpSetReturning()
	replace := func(ec *EvalContext, a []Value) (Value, error) {
		var flags string
		if len(a) == 4 {
			if a[3].S != "" && a[3].S[0] >= '0' && a[3].S[0] <= '9' {
				_, k := utf8.DecodeRuneInString(a[3].S)
				return Value{}, pgerr.New(pgerr.InvalidParameterValue, "invalid regular expression option: \"%s\"", a[3].S[:k]).
					WithHint("If you meant to use regexp_replace() with a start parameter, cast the fourth argument to integer explicitly.")
			}
			flags = a[3].S
		}
		return regexpReplaceArgs(ec.context(), a, flags, 0, -1)
	}
	replaceExt := func(ec *EvalContext, a []Value) (Value, error) {
		var flags string
		if len(a) > 5 {
			flags = a[5].S
		}
		if a[3].I <= 0 {
			return Value{}, errBadParam("start", a[3].I)
		}
		n := int64(-1)
		if len(a) > 4 {
			if a[4].I < 0 {
				return Value{}, errBadParam("n", a[4].I)
			}
			n = a[4].I
		}
		return regexpReplaceArgs(ec.context(), a, flags, runeOffset(a[0].S, a[3].I-1), n)
	}
	regFn("regexp_replace", []ID{Text, Text, Text}, Text, replace)
	regFn("regexp_replace", []ID{Text, Text, Text, Text}, Text, replace)
	regFn("regexp_replace", []ID{Text, Text, Text, Int4}, Text, replaceExt)
	regFn("regexp_replace", []ID{Text, Text, Text, Int4, Int4}, Text, replaceExt)
	regFn("regexp_replace", []ID{Text, Text, Text, Int4, Int4, Text}, Text, replaceExt)

	count := func(ec *EvalContext, a []Value) (Value, error) {
		c, start, _, err := regexpArgs("regexp_count", a, 2, 0, 3)
		if err != nil {
			return Value{}, err
		}
		locs, err := c.matches(ec.context(), a[0].S, start, -1)
		return Value{I: int64(len(locs))}, err
	}
	regFn("regexp_count", []ID{Text, Text}, Int4, count)
	regFn("regexp_count", []ID{Text, Text, Int4}, Int4, count)
	regFn("regexp_count", []ID{Text, Text, Int4, Text}, Int4, count)

	// nthMatch is the subexpr-th subexpression (0: the whole match) of the
	// n-th match: its byte bounds, ok=false when there is none.
	nthMatch := func(ctx context.Context, fn string, a []Value, flagsAt, subAt int) (lo, hi int, ok bool, err error) {
		c, start, n, err := regexpArgs(fn, a, 2, 3, flagsAt)
		if err != nil {
			return 0, 0, false, err
		}
		sub := int64(0)
		if len(a) > subAt {
			if a[subAt].I < 0 {
				return 0, 0, false, errBadParam("subexpr", a[subAt].I)
			}
			sub = a[subAt].I
		}
		locs, err := c.matches(ctx, a[0].S, start, int(min(n, int64(len(a[0].S)+2))))
		if err != nil || int64(len(locs)) < n || sub > int64(c.re.NumSubexp()) {
			return 0, 0, false, err
		}
		l := locs[n-1]
		if l[2*sub] < 0 {
			return 0, 0, false, nil
		}
		return l[2*sub], l[2*sub+1], true, nil
	}
	instr := func(ec *EvalContext, a []Value) (Value, error) {
		end := int64(0)
		if len(a) > 4 {
			end = a[4].I
			if end != 0 && end != 1 {
				return Value{}, errBadParam("endoption", end)
			}
		}
		lo, hi, ok, err := nthMatch(ec.context(), "regexp_instr", a, 5, 6)
		if err != nil || !ok {
			return Value{I: 0}, err
		}
		if end == 1 {
			return Value{I: charPos(a[0].S, hi)}, nil
		}
		return Value{I: charPos(a[0].S, lo)}, nil
	}
	for _, args := range [][]ID{{Text, Text}, {Text, Text, Int4}, {Text, Text, Int4, Int4}, {Text, Text, Int4, Int4, Int4},
		{Text, Text, Int4, Int4, Int4, Text}, {Text, Text, Int4, Int4, Int4, Text, Int4}} {
		regFn("regexp_instr", args, Int4, instr)
	}
	substr := func(ec *EvalContext, a []Value) (Value, error) {
		lo, hi, ok, err := nthMatch(ec.context(), "regexp_substr", a, 4, 5)
		if err != nil || !ok {
			return NullValue, err
		}
		return Value{S: a[0].S[lo:hi]}, nil
	}
	for _, args := range [][]ID{{Text, Text}, {Text, Text, Int4}, {Text, Text, Int4, Int4}, {Text, Text, Int4, Int4, Text},
		{Text, Text, Int4, Int4, Text, Int4}} {
		regFn("regexp_substr", args, Text, substr)
	}
	like := func(_ *EvalContext, a []Value) (Value, error) {
		var flags string
		if len(a) > 2 {
			flags = a[2].S
		}
		f, err := parseREFlags(flags)
		if err != nil {
			return Value{}, err
		}
		if f.global {
			return Value{}, errNoGlobal("regexp_like")
		}
		f.ownGreediness = true // a boolean match
		c, err := compileARE(a[1].S, f)
		if err != nil {
			return Value{}, err
		}
		return BoolValue(c.re.MatchString(a[0].S)), nil
	}
	regFn("regexp_like", []ID{Text, Text}, Bool, like)
	regFn("regexp_like", []ID{Text, Text, Text}, Bool, like)

	// substring(text from pattern): the first parenthesized subexpression's
	// text if the pattern has one, else the match's.
	regFn("substring", []ID{Text, Text}, Text, func(_ *EvalContext, a []Value) (Value, error) {
		c, err := compileARE(a[1].S, reFlags{})
		if err != nil {
			return Value{}, err
		}
		return regexSubstring(c, a[0].S), nil
	})
}

// regexSubstring is textregexsubstr's answer: the first parenthesized
// subexpression's text if the pattern has one, else the match's; NULL
// without a match.
func regexSubstring(c *compiledRE, s string) Value {
	l := c.re.FindStringSubmatchIndex(s)
	if l == nil {
		return NullValue
	}
	if c.re.NumSubexp() > 0 {
		if l[2] < 0 {
			return NullValue
		}
		return Value{S: s[l[2]:l[3]]}
	}
	return Value{S: s[l[0]:l[1]]}
}

// regexpReplaceArgs runs regexp_replace with its flags; n < 0 takes the
// count from the g flag (every match) or replaces the first match.
func regexpReplaceArgs(ctx context.Context, a []Value, flags string, start int, n int64) (Value, error) {
	f, err := parseREFlags(flags)
	if err != nil {
		return Value{}, err
	}
	if n < 0 {
		n = 1
		if f.global {
			n = 0
		}
	}
	s, err := regexpReplace(ctx, a[0].S, a[1].S, a[2].S, start, n, f)
	return Value{S: s}, err
}
