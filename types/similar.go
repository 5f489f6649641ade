package types

import (
	"strings"
	"unicode/utf8"

	"github.com/joind/joind/pgerr"
)

// SQL regular expressions (SIMILAR TO, SUBSTRING ... SIMILAR): PostgreSQL
// rewrites them into AREs with similar_to_escape, and so does joind.

// similarToEscape is similar_escape_internal. lazyFirst makes every
// quantifier of the first part (before the first escape-double-quote
// separator) non-greedy, for SUBSTRING ... SIMILAR: the ARE PostgreSQL
// builds gets that part's shortest match from Spencer's greediness rules
// ({1,1}? over the part), which RE2's leftmost-first matching reproduces
// only with each quantifier lazy.
func similarToEscape(pat string, esc *string, lazyFirst bool) (string, error) {
	e, hasEsc := "\\", true
	if esc != nil {
		switch n := utf8.RuneCountInString(*esc); {
		case n == 0:
			hasEsc = false
		case n > 1:
			return "", pgerr.New(pgerr.InvalidEscapeSequence, "invalid escape string").
				WithHint("Escape string must be empty or one character.")
		default:
			e = *esc
		}
	}
	lazy := lazyFirst && hasEsc && strings.Contains(pat, e+`"`)
	var r strings.Builder
	r.WriteString("^(?:")
	quantifier := func(q string) {
		r.WriteString(q)
		if lazy {
			r.WriteByte('?')
		}
	}
	nquotes, afterEscape, inClass := 0, false, false
	for len(pat) > 0 {
		c, n := utf8.DecodeRuneInString(pat)
		ch := pat[:n]
		pat = pat[n:]
		switch {
		case afterEscape:
			if c == '"' && !inClass {
				switch nquotes {
				case 0:
					r.WriteString("){1,1}?(")
					lazy = false
				case 1:
					r.WriteString("){1,1}(?:")
				default:
					return "", pgerr.New("2200C", "SQL regular expression may not contain more than two escape-double-quote separators") // ERRCODE_INVALID_USE_OF_ESCAPE_CHARACTER
				}
				nquotes++
			} else {
				r.WriteString(`\` + ch)
			}
			afterEscape = false
		case hasEsc && ch == e:
			afterEscape = true
		case inClass:
			if c == '\\' {
				r.WriteByte('\\')
			}
			r.WriteString(ch)
			if c == ']' {
				inClass = false
			}
		case c == '[':
			r.WriteString(ch)
			inClass = true
		case c == '%':
			r.WriteByte('.')
			quantifier("*")
		case c == '_':
			r.WriteByte('.')
		case c == '(':
			r.WriteString("(?:")
		case c == '\\' || c == '.' || c == '^' || c == '$':
			r.WriteString(`\` + ch)
		case c == '*' || c == '+' || c == '?':
			quantifier(ch)
		case c == '{':
			k := strings.IndexByte(pat, '}')
			if k < 0 {
				r.WriteString(ch)
				continue
			}
			quantifier(ch + pat[:k+1])
			pat = pat[k+1:]
		default:
			r.WriteString(ch)
		}
	}
	r.WriteString(")$")
	return r.String(), nil
}

func registerSimilarFuncs() {
	// similar_to_escape is what SIMILAR TO's pattern goes through (the
	// parser wraps it), whose result the ~ operator matches.
	regFn("similar_to_escape", []ID{Text}, Text, func(_ *EvalContext, a []Value) (Value, error) {
		s, err := similarToEscape(a[0].S, nil, false)
		return Value{S: s}, err
	})
	regFn("similar_to_escape", []ID{Text, Text}, Text, func(_ *EvalContext, a []Value) (Value, error) {
		s, err := similarToEscape(a[0].S, &a[1].S, false)
		return Value{S: s}, err
	})
	// substring(text similar pattern escape text)
	regFn("substring", []ID{Text, Text, Text}, Text, func(_ *EvalContext, a []Value) (Value, error) {
		p, err := similarToEscape(a[1].S, &a[2].S, true)
		if err != nil {
			// PostgreSQL's substring(text, text, text) is an SQL function
			// over similar_to_escape, whose errors carry its context.
			if pe, ok := err.(*pgerr.Error); ok {
				err = pe.WithWhere(`SQL function "substring" statement 1`)
			}
			return Value{}, err
		}
		c, err := compileARE(p, reFlags{ownGreediness: true})
		if err != nil {
			return Value{}, err
		}
		return regexSubstring(c, a[0].S), nil
	})
}
