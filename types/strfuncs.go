package types

import (
	"strconv"
	"strings"

	"github.com/joind/joind/pgerr"
)

// registerMoreStringFuncs registers the string functions beyond
// registerStringFuncs' core set: overlay(text ...), unistr.
func registerMoreStringFuncs() {
	overlay := func(_ *EvalContext, a []Value) (Value, error) {
		r := []rune(a[0].S)
		n := int64(runeLen(a[1].S))
		if len(a) > 3 {
			n = a[3].I
		}
		from := a[2].I
		if from < 1 {
			// text_overlay's substring(s, 1, from - 1) refuses it
			return Value{}, pgerr.New("22011", "negative substring length not allowed")
		}
		head := string(r[:min(from-1, int64(len(r)))])
		tail := "" // substring(s, from + n): from the start if that is before it
		if t := max(from+n-1, 0); t < int64(len(r)) {
			tail = string(r[t:])
		}
		return Value{S: head + a[1].S + tail}, nil
	}
	regFn("overlay", []ID{Text, Text, Int4}, Text, overlay)
	regFn("overlay", []ID{Text, Text, Int4, Int4}, Text, overlay)
	regFn("unistr", []ID{Text}, Text, func(_ *EvalContext, a []Value) (Value, error) {
		s, err := unistr(a[0].S)
		return Value{S: s}, err
	})
}

func isHexN(s string, n int) bool {
	if len(s) < n {
		return false
	}
	for i := 0; i < n; i++ {
		if hexValue(s[i]) < 0 {
			return false
		}
	}
	return true
}

// unistr decodes \XXXX, \+XXXXXX, \uXXXX and \UXXXXXXXX escapes (UTF-16
// surrogate pairs combined) and \\, as PostgreSQL's unistr.
func unistr(s string) (string, error) {
	var b strings.Builder
	pairFirst := rune(0)
	errPair := pgerr.New(pgerr.SyntaxError, "invalid Unicode surrogate pair")
	for len(s) > 0 {
		if s[0] != '\\' {
			if pairFirst != 0 {
				return "", errPair
			}
			b.WriteByte(s[0])
			s = s[1:]
			continue
		}
		var digits, skip int
		switch {
		case len(s) >= 2 && s[1] == '\\':
			b.WriteByte('\\')
			s = s[2:]
			continue
		case isHexN(s[1:], 4):
			digits, skip = 4, 1
		case len(s) >= 2 && s[1] == 'u' && isHexN(s[2:], 4):
			digits, skip = 4, 2
		case len(s) >= 2 && s[1] == '+' && isHexN(s[2:], 6):
			digits, skip = 6, 2
		case len(s) >= 2 && s[1] == 'U' && isHexN(s[2:], 8):
			digits, skip = 8, 2
		default:
			return "", pgerr.New(pgerr.SyntaxError, "invalid Unicode escape").
				WithHint(`Unicode escapes must be \XXXX, \+XXXXXX, \uXXXX, or \UXXXXXXXX.`)
		}
		u, _ := strconv.ParseUint(s[skip:skip+digits], 16, 32)
		s = s[skip+digits:]
		c := rune(u)
		if u == 0 || u > 0x10FFFF {
			return "", pgerr.New(pgerr.InvalidParameterValue, "invalid Unicode code point: %04X", u)
		}
		isFirst, isSecond := c >= 0xD800 && c <= 0xDBFF, c >= 0xDC00 && c <= 0xDFFF
		switch {
		case pairFirst != 0:
			if !isSecond {
				return "", errPair
			}
			c = ((pairFirst & 0x3FF) << 10) + (c & 0x3FF) + 0x10000
			pairFirst = 0
		case isSecond:
			return "", errPair
		case isFirst:
			pairFirst = c
			continue
		}
		b.WriteRune(c)
	}
	if pairFirst != 0 {
		return "", errPair
	}
	return b.String(), nil
}
