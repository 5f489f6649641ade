package types

import (
	"context"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/joind/joind/pgerr"
)

// PostgreSQL's regular expressions are Henry Spencer's AREs; joind runs
// them on Go's RE2 after translating the syntax (translateARE). What RE2
// cannot do the same way is refused with 0A000, never answered differently:
//
//   - backreferences (\1 ... in a pattern) and lookahead/lookbehind
//     constraints ((?=...), (?!...), (?<=...), (?<!...));
//   - \m, \M, [[:<:]], [[:>:]] word-start/end constraints, collating
//     elements [[.x.]] and equivalence classes [[=x=]];
//   - a pattern mixing greedy and non-greedy quantifiers: an ARE then takes
//     the match length from its first quantifier, RE2 does not. A pattern
//     with only greedy quantifiers (or alternation) runs leftmost-longest
//     as an ARE does; one with only non-greedy quantifiers leftmost-first;
//   - BRE/ERE (flags b, e) and partial newline sensitivity (flags p, w).
//
// Translated: ARE escapes (\y \Y word boundaries, \Z, \b backspace, \B
// backslash, \e, \uXXXX, \xHH), the ***= and ***: directors, leading
// embedded options (?flags), flags i c n m s t x q, and '.' matching a
// newline unless the match is newline-sensitive.

// reFlags are the options of one regular expression use.
type reFlags struct {
	global   bool // g: every match (regexp_replace, regexp_matches)
	icase    bool // i (c turns it off)
	newline  bool // n or m: . and [^...] skip newlines, ^ $ match at lines
	expanded bool // x: whitespace and # comments ignored
	literal  bool // q: the pattern is a literal string
	// partial is partial newline sensitivity, 'p' (. and [^...] stop at
	// newlines, ^ $ do not match at them) or 'w' (the reverse); 0: none.
	// jsonpath's like_regex uses it (jsonpath_exec.go).
	partial byte
	// ownGreediness: the caller needs no ARE match lengths (a boolean
	// match) or has made each quantifier's greediness explicit; the
	// pattern may mix greedy and lazy quantifiers and runs leftmost-first.
	ownGreediness bool
}

// parseREFlags reads a flags argument (PostgreSQL's parse_re_flags).
func parseREFlags(s string) (reFlags, error) {
	var f reFlags
	for _, c := range s {
		switch c {
		case 'g':
			f.global = true
		case 'i':
			f.icase = true
		case 'c':
			f.icase = false
		case 'n', 'm':
			f.newline = true
		case 's':
			f.newline = false
		case 'x':
			f.expanded = true
		case 't':
			f.expanded = false
		case 'q':
			f.literal = true
		case 'b', 'e', 'p', 'w':
			return f, pgerr.New(pgerr.FeatureNotSupported, "regular expression option \"%c\" is not supported", c)
		default:
			return f, pgerr.New(pgerr.InvalidParameterValue, "invalid regular expression option: \"%s\"", string(c))
		}
	}
	return f, nil
}

// regexpCache holds compiled patterns; a query applies the same pattern
// to every row. It is cleared when it grows past regexpCacheMax.
var regexpCache struct {
	sync.Mutex
	m map[reKey]*compiledRE
}

type reKey struct {
	pattern string
	flags   reFlags
}

const regexpCacheMax = 1024

// compiledRE is a translated ARE. leftContext marks a pattern whose match
// depends on the text before its start (^, \A, \y, \Y): RE2 cannot begin a
// search in the middle of a string with that context, so such a pattern
// cannot be searched from a start position.
type compiledRE struct {
	re          *regexp.Regexp
	leftContext bool
}

// compileARE compiles a PostgreSQL regular expression (global is ignored).
func compileARE(pattern string, f reFlags) (*compiledRE, error) {
	f.global = false
	k := reKey{pattern, f}
	regexpCache.Lock()
	c, ok := regexpCache.m[k]
	regexpCache.Unlock()
	if ok {
		return c, nil
	}
	tr, err := translateARE(pattern, f)
	if err != nil {
		return nil, err
	}
	r, err := regexp.Compile(tr.src)
	if err != nil {
		return nil, pgerr.New("2201B", "invalid regular expression: %s", reErrorText(err))
	}
	if tr.longest {
		r.Longest()
	}
	c = &compiledRE{re: r, leftContext: tr.leftContext}
	regexpCache.Lock()
	if regexpCache.m == nil || len(regexpCache.m) >= regexpCacheMax {
		regexpCache.m = map[reKey]*compiledRE{}
	}
	regexpCache.m[k] = c
	regexpCache.Unlock()
	return c, nil
}

// matches finds up to limit (-1: all) successive matches in s searching
// from byte offset start, as PostgreSQL's regexp functions step through a
// string: after an empty match the next search begins one character on,
// after any other at the match's end. Each match is
// FindStringSubmatchIndex's slice, in byte offsets of s. The search checks
// ctx between matches, so a 100k-character string with as many matches
// still ends on cancel or statement_timeout.
func (c *compiledRE) matches(ctx context.Context, s string, start, limit int) ([][]int, error) {
	if start > 0 && c.leftContext {
		return nil, errRENotSupported("anchors or word boundaries searched from a start position")
	}
	if c.leftContext {
		return c.matchesInContext(s, limit)
	}
	// Without left context a search of s[pos:] is the search of s from pos.
	var locs [][]int
	for pos := start; pos <= len(s) && (limit < 0 || len(locs) < limit); {
		if len(locs)%reCancelEvery == reCancelEvery-1 {
			if err := checkCanceled(ctx); err != nil {
				return nil, err
			}
		}
		l := c.re.FindStringSubmatchIndex(s[pos:])
		if l == nil {
			break
		}
		for j := range l {
			if l[j] >= 0 {
				l[j] += pos
			}
		}
		locs = append(locs, l)
		if l[0] < l[1] {
			pos = l[1]
		} else if pos = l[1]; pos < len(s) {
			_, w := utf8.DecodeRuneInString(s[pos:])
			pos += w
		} else {
			pos++
		}
	}
	return locs, checkCanceled(ctx)
}

// reCancelEvery is how many matches a search finds between cancel checks.
const reCancelEvery = 256

// matchesInContext is matches for a pattern whose anchors or word
// boundaries look left of the search position: RE2's FindAll keeps that
// context, but skips an empty match right where a non-empty one ended,
// which an ARE search reports.
func (c *compiledRE) matchesInContext(s string, limit int) ([][]int, error) {
	locs := c.re.FindAllStringSubmatchIndex(s, limit)
	for i := 0; i < len(locs); i++ {
		e := locs[i][1]
		if locs[i][0] == e || (i+1 < len(locs) && locs[i+1][0] == e) {
			continue
		}
		probe := c.re.FindStringSubmatchIndex(s[e:])
		if probe == nil || probe[0] != 0 || probe[1] != 0 {
			continue
		}
		return nil, errRENotSupported("anchors or word boundaries matching an empty string after a match")
	}
	return locs, nil
}

// reErrorText words RE2's complaint as close to Spencer's as it can.
func reErrorText(err error) string {
	msg := err.Error()
	switch {
	case strings.Contains(msg, "missing closing )"), strings.Contains(msg, "unexpected )"):
		return "parentheses () not balanced"
	case strings.Contains(msg, "missing closing ]"):
		return "brackets [] not balanced"
	case strings.Contains(msg, "invalid nested repetition"), strings.Contains(msg, "missing argument to repetition"):
		return "quantifier operand invalid"
	case strings.Contains(msg, "invalid repeat count"):
		return "invalid repetition count(s)"
	case strings.Contains(msg, "invalid character class range"):
		return "invalid character range"
	case strings.Contains(msg, "invalid escape"):
		return "invalid escape \\ sequence"
	}
	return msg
}

func errRENotSupported(what string) error {
	return pgerr.New(pgerr.FeatureNotSupported, "regular expressions with %s are not supported", what)
}

// translatedRE is an ARE in RE2 syntax; longest: the match is to be
// leftmost-longest (see the comment at the top on greediness).
type translatedRE struct {
	src         string
	longest     bool
	leftContext bool
}

// translateARE rewrites an ARE in RE2 syntax.
func translateARE(p string, f reFlags) (translatedRE, error) {
	switch {
	case strings.HasPrefix(p, "***="):
		p, f.literal = p[4:], true
	case strings.HasPrefix(p, "***:"):
		p = p[4:]
	}
	if !f.literal && strings.HasPrefix(p, "(?") && !strings.HasPrefix(p, "(?:") &&
		!strings.HasPrefix(p, "(?=") && !strings.HasPrefix(p, "(?!") && !strings.HasPrefix(p, "(?<") {
		// embedded options: (?flags) at the start
		end := strings.IndexByte(p, ')')
		if end < 0 {
			return translatedRE{}, pgerr.New("2201B", "invalid regular expression: invalid embedded option")
		}
		for _, c := range p[2:end] {
			if c == 'g' {
				return translatedRE{}, pgerr.New("2201B", "invalid regular expression: invalid embedded option")
			}
		}
		ef, err := parseREFlags(p[2:end])
		if err != nil {
			return translatedRE{}, err
		}
		// embedded options add to (or override) the call's
		f.icase, f.newline, f.expanded, f.literal = ef.icase || f.icase && !strings.ContainsRune(p[2:end], 'c'),
			ef.newline || f.newline && !strings.ContainsRune(p[2:end], 's'), ef.expanded || f.expanded && !strings.ContainsRune(p[2:end], 't'), ef.literal
		p = p[end+1:]
	}
	var b strings.Builder
	if f.icase {
		b.WriteString("(?i)")
	}
	switch {
	case f.partial == 'p': // . and [^...] stop at newlines; ^ $ anchor the string
	case f.partial == 'w':
		b.WriteString("(?ms)")
	case f.newline:
		b.WriteString("(?m)")
	default:
		b.WriteString("(?s)")
	}
	if f.literal {
		b.WriteString(regexp.QuoteMeta(p))
		return translatedRE{src: b.String()}, nil
	}
	greedy, lazy, leftContext := false, false, false
	for i := 0; i < len(p); {
		c := p[i]
		switch {
		case f.expanded && (c == ' ' || c == '\t' || c == '\n' || c == '\r'):
			i++
		case f.expanded && c == '#':
			for i < len(p) && p[i] != '\n' {
				i++
			}
		case c == '^':
			leftContext = true
			b.WriteByte(c)
			i++
		case c == '\\':
			if i+1 < len(p) && strings.IndexByte("AyY", p[i+1]) >= 0 {
				leftContext = true
			}
			n, err := translateEscape(&b, p, i, false)
			if err != nil {
				return translatedRE{}, err
			}
			i = n
		case c == '[':
			n, err := translateBracket(&b, p, i, f.newline || f.partial == 'p')
			if err != nil {
				return translatedRE{}, err
			}
			i = n
		case c == '(':
			if strings.HasPrefix(p[i:], "(?=") || strings.HasPrefix(p[i:], "(?!") || strings.HasPrefix(p[i:], "(?<=") || strings.HasPrefix(p[i:], "(?<!") {
				return translatedRE{}, errRENotSupported("lookahead or lookbehind constraints")
			}
			b.WriteByte(c)
			i++
		case c == '|':
			greedy = true
			b.WriteByte(c)
			i++
		case c == '*' || c == '+' || c == '?' || c == '{':
			j := i + 1
			if c == '{' {
				k := strings.IndexByte(p[i:], '}')
				if k < 0 {
					return translatedRE{}, pgerr.New("2201B", "invalid regular expression: braces {} not balanced")
				}
				j = i + k + 1
			}
			b.WriteString(p[i:j])
			if j < len(p) && p[j] == '?' {
				lazy = true
				b.WriteByte('?')
				j++
			} else {
				greedy = true
			}
			i = j
		default:
			_, n := utf8.DecodeRuneInString(p[i:])
			b.WriteString(p[i : i+n])
			i += n
		}
	}
	if f.ownGreediness {
		return translatedRE{src: b.String(), leftContext: leftContext}, nil
	}
	if greedy && lazy {
		return translatedRE{}, errRENotSupported("both greedy and non-greedy quantifiers")
	}
	return translatedRE{src: b.String(), longest: !lazy, leftContext: leftContext}, nil
}

// translateEscape writes the RE2 form of the escape at p[i] and returns
// the index after it.
func translateEscape(b *strings.Builder, p string, i int, inBracket bool) (int, error) {
	if i+1 >= len(p) {
		return 0, pgerr.New("2201B", "invalid regular expression: invalid escape \\ sequence")
	}
	c := p[i+1]
	next := i + 2
	switch c {
	case 'w':
		// word characters by the database's C.UTF-8 ctype (iswalnum), not
		// RE2's ASCII \w
		if inBracket {
			b.WriteString(`\p{L}\p{Nd}_`)
		} else {
			b.WriteString(`[\p{L}\p{Nd}_]`)
		}
	case 'W':
		if inBracket {
			return 0, errRENotSupported(`\W in a bracket expression`)
		}
		b.WriteString(`[^\p{L}\p{Nd}_]`)
	case 'd', 'D', 's', 'S', 'n', 'r', 't', 'f', 'v', 'a':
		b.WriteString(p[i:next])
	case 'b':
		b.WriteString(`\x08`)
	case 'B':
		b.WriteString(`\\`)
	case 'e':
		b.WriteString(`\x1b`)
	case 'y', 'Y', 'A', 'Z', 'm', 'M':
		if inBracket {
			return 0, pgerr.New("2201B", "invalid regular expression: invalid escape \\ sequence")
		}
		switch c {
		case 'y':
			b.WriteString(`\b`)
		case 'Y':
			b.WriteString(`\B`)
		case 'A':
			b.WriteString(`\A`)
		case 'Z':
			b.WriteString(`\z`)
		default:
			return 0, errRENotSupported(`word-start and word-end constraints (\m, \M)`)
		}
	case 'u', 'U', 'x':
		n := map[byte]int{'u': 4, 'U': 8, 'x': 8}[c]
		j := next
		for j < len(p) && j-next < n && hexValue(p[j]) >= 0 {
			j++
		}
		if j == next || (c != 'x' && j-next != n) {
			return 0, pgerr.New("2201B", "invalid regular expression: invalid escape \\ sequence")
		}
		v, _ := strconv.ParseUint(p[next:j], 16, 32)
		b.WriteString(`\x{` + strconv.FormatUint(v, 16) + `}`)
		next = j
	case 'c':
		if next >= len(p) {
			return 0, pgerr.New("2201B", "invalid regular expression: invalid escape \\ sequence")
		}
		b.WriteString(`\x{` + strconv.FormatUint(uint64(p[next]&0x1f), 16) + `}`)
		next++
	case '0':
		b.WriteString(`\x00`)
	default:
		switch {
		case c >= '1' && c <= '9':
			if inBracket {
				return 0, pgerr.New("2201B", "invalid regular expression: invalid escape \\ sequence")
			}
			return 0, errRENotSupported("backreferences")
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			return 0, pgerr.New("2201B", "invalid regular expression: invalid escape \\ sequence")
		case c < utf8.RuneSelf:
			b.WriteString(p[i:next]) // an escaped punctuation character is itself
		default:
			_, n := utf8.DecodeRuneInString(p[i+1:])
			b.WriteString(regexp.QuoteMeta(p[i+1 : i+1+n]))
			next = i + 1 + n
		}
	}
	return next, nil
}

// unicodeClasses are the POSIX classes whose members beyond ASCII the
// database's C.UTF-8 ctype (iswalpha, iswupper, ...) has and RE2's ASCII
// classes lack.
var unicodeClasses = map[string]string{
	"[:alpha:]": `\p{L}`, "[:alnum:]": `\p{L}\p{Nd}`, "[:upper:]": `\p{Lu}\p{Lt}`, "[:lower:]": `\p{Ll}`,
}

// translateBracket writes a bracket expression starting at p[i] and
// returns the index after its closing ']'.
func translateBracket(b *strings.Builder, p string, i int, newline bool) (int, error) {
	j := i + 1
	b.WriteByte('[')
	negated := j < len(p) && p[j] == '^'
	if negated {
		b.WriteByte('^')
		j++
	}
	if j < len(p) && p[j] == ']' {
		b.WriteString(`\]`)
		j++
	}
	for j < len(p) && p[j] != ']' {
		switch {
		case strings.HasPrefix(p[j:], "[:<:]") || strings.HasPrefix(p[j:], "[:>:]"):
			return 0, errRENotSupported("word-start and word-end constraints ([[:<:]], [[:>:]])")
		case strings.HasPrefix(p[j:], "[:"):
			k := strings.Index(p[j+2:], ":]")
			if k < 0 {
				return 0, pgerr.New("2201B", "invalid regular expression: brackets [] not balanced")
			}
			class := p[j : j+2+k+2]
			if u, ok := unicodeClasses[class]; ok {
				class = u
			}
			b.WriteString(class)
			j += 2 + k + 2
		case strings.HasPrefix(p[j:], "[.") || strings.HasPrefix(p[j:], "[="):
			return 0, errRENotSupported("collating elements and equivalence classes")
		case p[j] == '\\':
			n, err := translateEscape(b, p, j, true)
			if err != nil {
				return 0, err
			}
			j = n
		case p[j] == '[':
			b.WriteString(`\[`)
			j++
		default:
			_, n := utf8.DecodeRuneInString(p[j:])
			b.WriteString(p[j : j+n])
			j += n
		}
	}
	if j >= len(p) {
		return 0, pgerr.New("2201B", "invalid regular expression: brackets [] not balanced")
	}
	if negated && newline {
		b.WriteString(`\n`) // newline-sensitive: [^...] never matches a newline
	}
	b.WriteByte(']')
	return j + 1, nil
}
