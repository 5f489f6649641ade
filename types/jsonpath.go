package types

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/cockroachdb/apd/v3"
	"github.com/joind/joind/pgerr"
)

// jsonpath: PostgreSQL 15's SQL/JSON path language. A value is stored as
// its canonical text (jsonpath_out's: `$."a"?(@ > 1)`), which parses back
// to the same tree; execution re-parses it (jsonpath_exec.go). The lexer
// is jsonpath_scan.l's, the parser a recursive descent over
// jsonpath_gram.y's grammar (the same precedence: || < && < ! < + - <
// * / % < unary), the checks after parsing flattenJsonPathParseItem's and
// the printer printJsonPathItem's.

// jpKind is a path item's type (JsonPathItemType).
type jpKind uint8

const (
	jpNull jpKind = iota
	jpString
	jpNumeric
	jpBool
	jpAnd
	jpOr
	jpNot
	jpIsUnknown
	jpEqual
	jpNotEqual
	jpLess
	jpGreater
	jpLessOrEqual
	jpGreaterOrEqual
	jpAdd
	jpSub
	jpMul
	jpDiv
	jpMod
	jpPlus
	jpMinus
	jpAnyArray
	jpAnyKey
	jpIndexArray
	jpAny
	jpKey
	jpCurrent
	jpRoot
	jpVariable
	jpFilter
	jpExists
	jpType
	jpSize
	jpAbs
	jpFloor
	jpCeiling
	jpDouble
	jpDatetime
	jpKeyValue
	jpLast
	jpStartsWith
	jpLikeRegex
)

// jpAnyUnbounded is PG_UINT32_MAX: "last" as a ** level bound.
const jpAnyUnbounded = ^uint32(0)

// jpNode is one path item; next is the accessor applied to its result.
type jpNode struct {
	kind        jpKind
	str         string       // string, key, variable name, like_regex pattern
	num         *apd.Decimal // numeric
	b           bool         // bool
	left, right *jpNode      // binary operands; a unary item's argument is left
	subs        []jpSubscript
	first, last uint32 // ** level bounds
	flags       string // like_regex flags, canonical order (i s m x q)
	next        *jpNode
}

type jpSubscript struct{ from, to *jpNode }

// jsonPath is a parsed path: its mode and expression.
type jsonPath struct {
	lax  bool
	expr *jpNode
}

// isPredicate reports whether an item yields a boolean (a predicate in the
// grammar): only those may be operands of && || ! and filter bodies.
func (n *jpNode) isPredicate() bool {
	switch n.kind {
	case jpAnd, jpOr, jpNot, jpIsUnknown, jpEqual, jpNotEqual, jpLess, jpGreater,
		jpLessOrEqual, jpGreaterOrEqual, jpExists, jpStartsWith, jpLikeRegex:
		return n.next == nil
	}
	return false
}

// ---- lexer (jsonpath_scan.l) ----

type jpTokKind uint8

const (
	jtEOF  jpTokKind = iota
	jtChar           // one special character, in text
	jtAnd            // &&
	jtOr             // ||
	jtNot            // !
	jtAny            // **
	jtLess
	jtLessEq
	jtEq
	jtNotEq
	jtGreaterEq
	jtGreater
	jtVariable // $name or $"name": value the name
	jtString   // "..."
	jtNumeric
	jtInt
	jtIdent // a word: keywords are words too (kw)
)

type jpToken struct {
	kind  jpTokKind
	text  string // yytext: what an error message quotes
	value string // a string's, variable's or word's value; a number's text
	kw    string // the keyword a word is ("" for a plain identifier)
	atEnd bool   // the token ends the input (a word's yytext is then empty)
}

// jpKeywords are the scanner's keywords; the true ones match in any case.
var jpKeywords = map[string]bool{
	"is": false, "to": false, "abs": false, "lax": false, "flag": false, "last": false,
	"null": true, "size": false, "true": true, "type": false, "with": false, "false": true,
	"floor": false, "double": false, "exists": false, "starts": false, "strict": false,
	"ceiling": false, "unknown": false, "datetime": false, "keyvalue": false, "like_regex": false,
}

func jpKeyword(w string) string {
	if any, ok := jpKeywords[w]; ok && !any {
		return w
	}
	if l := strings.ToLower(w); jpKeywords[l] {
		return l
	}
	return ""
}

func isJPSpecial(c byte) bool {
	return strings.IndexByte("?%$.[]{}()|&!=<>@#,*:-+/\\\" \t\n\r\f", c) >= 0
}

func isJPBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' }

type jpLexer struct {
	in  string
	pos int
}

func jpSyntaxError(msg, near string, atEnd bool) error {
	if atEnd {
		return pgerr.New(pgerr.SyntaxError, "%s at end of jsonpath input", msg)
	}
	return pgerr.New(pgerr.SyntaxError, "%s at or near \"%s\" of jsonpath input", msg, near)
}

// scanNumber matches the number rules at s: the longest of integer,
// decimal and real, and whether other characters follow it directly (the
// *_junk rules) or an exponent is cut short (realfail).
func (l *jpLexer) scanNumber(s int) (end int, kind jpTokKind, ok bool) {
	in := l.in
	p := s
	intPart := false
	if p < len(in) && isDigit(in[p]) {
		intPart = true
		if in[p] == '0' {
			p++
		} else {
			for p < len(in) && isDigit(in[p]) {
				p++
			}
		}
	}
	kind = jtInt
	if p < len(in) && in[p] == '.' {
		q := p + 1
		for q < len(in) && isDigit(in[q]) {
			q++
		}
		if intPart || q > p+1 {
			p, kind = q, jtNumeric
		}
	}
	if !intPart && kind != jtNumeric {
		return s, 0, false
	}
	if p < len(in) && (in[p] == 'e' || in[p] == 'E') {
		q := p + 1
		if q < len(in) && (in[q] == '+' || in[q] == '-') {
			q++
		}
		r := q
		for r < len(in) && isDigit(in[r]) {
			r++
		}
		if r > q {
			p, kind = r, jtNumeric
		} else if q > p+1 {
			return q, 0, true // realfail: "1e+"
		}
	}
	return p, kind, true
}

// numberMatchLen is where a number rule's match ends when other
// characters follow (the *_junk rules take one more character).
func numberMatchLen(in string, end int) int {
	if end < len(in) && !isJPSpecial(in[end]) {
		return end + mbLen(in, end)
	}
	return end
}

// next reads one token. Like flex it takes the longest match: a run of
// word characters longer than a number's match is a word ("1abc").
func (l *jpLexer) next() (jpToken, error) {
	in := l.in
	for {
		for l.pos < len(in) && isJPBlank(in[l.pos]) {
			l.pos++
		}
		if strings.HasPrefix(in[l.pos:], "/*") {
			end := strings.Index(in[l.pos+2:], "*/")
			if end < 0 {
				l.pos = len(in)
				return jpToken{}, jpSyntaxError("unexpected end of comment", "", true)
			}
			l.pos += 2 + end + 2
			continue
		}
		break
	}
	s := l.pos
	if s >= len(in) {
		return jpToken{kind: jtEOF}, nil
	}
	tok := func(k jpTokKind, n int) (jpToken, error) {
		l.pos = s + n
		return jpToken{kind: k, text: in[s : s+n]}, nil
	}
	two := ""
	if s+1 < len(in) {
		two = in[s : s+2]
	}
	switch two {
	case "&&":
		return tok(jtAnd, 2)
	case "||":
		return tok(jtOr, 2)
	case "**":
		return tok(jtAny, 2)
	case "<=":
		return tok(jtLessEq, 2)
	case "==":
		return tok(jtEq, 2)
	case "<>", "!=":
		return tok(jtNotEq, 2)
	case ">=":
		return tok(jtGreaterEq, 2)
	case "$\"":
		l.pos = s + 2
		v, err := l.quoted()
		return jpToken{kind: jtVariable, text: "\"", value: v}, err
	}
	c := in[s]
	switch c {
	case '!':
		return tok(jtNot, 1)
	case '<':
		return tok(jtLess, 1)
	case '>':
		return tok(jtGreater, 1)
	case '"':
		l.pos = s + 1
		v, err := l.quoted()
		return jpToken{kind: jtString, text: "\"", value: v}, err
	case '$':
		p := s + 1
		for p < len(in) && !isJPSpecial(in[p]) {
			p++
		}
		if p > s+1 {
			l.pos = p
			return jpToken{kind: jtVariable, text: in[s:p], value: in[s+1 : p]}, nil
		}
		return tok(jtChar, 1)
	}
	word := s
	for word < len(in) && !isJPSpecial(in[word]) {
		word++
	}
	if end, kind, ok := l.scanNumber(s); ok && word <= numberMatchLen(in, end) {
		if kind == 0 {
			l.pos = end
			return jpToken{}, jpSyntaxError("invalid numeric literal", in[s:end], false)
		}
		if end < len(in) && !isJPSpecial(in[end]) {
			junk := end + mbLen(in, end)
			l.pos = junk
			return jpToken{}, jpSyntaxError("trailing junk after numeric literal", in[s:junk], false)
		}
		l.pos = end
		return jpToken{kind: kind, text: in[s:end], value: in[s:end]}, nil
	}
	if isJPSpecial(c) {
		return tok(jtChar, 1)
	}
	// a word: other characters and backslash escapes
	var b strings.Builder
	p := s
	for p < len(in) {
		if in[p] == '\\' {
			n, err := l.escape(&b, p)
			if err != nil {
				return jpToken{}, err
			}
			p = n
			continue
		}
		if isJPSpecial(in[p]) {
			break
		}
		b.WriteByte(in[p])
		p++
	}
	l.pos = p
	w := b.String()
	// yytext when a word is returned is the character that ended it
	t := jpToken{kind: jtIdent, value: w, kw: jpKeyword(w), atEnd: p >= len(in)}
	if !t.atEnd {
		t.text = in[p : p+mbLen(in, p)]
	}
	return t, nil
}

// quoted reads a quoted string's body after its opening quote.
func (l *jpLexer) quoted() (string, error) {
	var b strings.Builder
	in := l.in
	p := l.pos
	for {
		if p >= len(in) {
			l.pos = p
			return "", jpSyntaxError("unexpected end of quoted string", "", true)
		}
		switch in[p] {
		case '"':
			l.pos = p + 1
			return b.String(), nil
		case '\\':
			n, err := l.escape(&b, p)
			if err != nil {
				return "", err
			}
			p = n
		default:
			b.WriteByte(in[p])
			p++
		}
	}
}

func hexVal(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// escape decodes the backslash sequence at p, returning the position after it.
func (l *jpLexer) escape(b *strings.Builder, p int) (int, error) {
	in := l.in
	if p+1 >= len(in) {
		return p, jpSyntaxError("unexpected end after backslash", "", true)
	}
	c := in[p+1]
	switch c {
	case 'b':
		b.WriteByte('\b')
	case 'f':
		b.WriteByte('\f')
	case 'n':
		b.WriteByte('\n')
	case 'r':
		b.WriteByte('\r')
	case 't':
		b.WriteByte('\t')
	case 'v':
		b.WriteByte('\v')
	case 'x':
		if p+4 <= len(in) && hexVal(in[p+2]) >= 0 && hexVal(in[p+3]) >= 0 {
			r := rune(hexVal(in[p+2])<<4 | hexVal(in[p+3]))
			if r == 0 {
				return p, pgerr.New(codeUntranslatable, "unsupported Unicode escape sequence").WithDetail("\\u0000 cannot be converted to text.")
			}
			b.WriteRune(r)
			return p + 4, nil
		}
		end := min(p+3, len(in))
		return p, jpSyntaxError("invalid hex character sequence", in[p:end], false)
	case 'u':
		return l.unicodeEscape(b, p)
	default:
		n := mbLen(in, p+1)
		b.WriteString(in[p+1 : p+1+n])
		return p + 1 + n, nil
	}
	return p + 2, nil
}

// unicodeEscape decodes \uXXXX or \u{X...} (surrogate pairs joined).
func (l *jpLexer) unicodeEscape(b *strings.Builder, p int) (int, error) {
	in := l.in
	read := func(p int) (rune, int, bool) {
		if p+2 < len(in) && in[p+2] == '{' {
			q, r := p+3, rune(0)
			for q < len(in) && q < p+9 && hexVal(in[q]) >= 0 {
				r = r<<4 | rune(hexVal(in[q]))
				q++
			}
			if q == p+3 || q >= len(in) || in[q] != '}' {
				return 0, q, false
			}
			return r, q + 1, true
		}
		if p+6 > len(in) {
			return 0, len(in), false
		}
		r := rune(0)
		for q := p + 2; q < p+6; q++ {
			h := hexVal(in[q])
			if h < 0 {
				return 0, q, false
			}
			r = r<<4 | rune(h)
		}
		return r, p + 6, true
	}
	r, n, ok := read(p)
	if !ok {
		return p, jpSyntaxError("invalid unicode sequence", in[p:min(n+1, len(in))], false)
	}
	if r >= 0xD800 && r <= 0xDBFF {
		if n+1 < len(in) && in[n] == '\\' && in[n+1] == 'u' {
			lo, n2, ok2 := read(n)
			if ok2 && lo >= 0xDC00 && lo <= 0xDFFF {
				b.WriteRune(0x10000 + (r-0xD800)<<10 + (lo - 0xDC00))
				return n2, nil
			}
		}
		return p, pgerr.New(pgerr.SyntaxError, "invalid input syntax for type %s", "jsonpath").WithDetail("Unicode high surrogate must not follow a high surrogate.")
	}
	if r >= 0xDC00 && r <= 0xDFFF {
		return p, pgerr.New(pgerr.SyntaxError, "invalid input syntax for type %s", "jsonpath").WithDetail("Unicode low surrogate must follow a high surrogate.")
	}
	if r == 0 {
		return p, pgerr.New(codeUntranslatable, "unsupported Unicode escape sequence").WithDetail("\\u0000 cannot be converted to text.")
	}
	if r > utf8.MaxRune {
		return p, jpSyntaxError("invalid unicode sequence", in[p:n], false)
	}
	b.WriteRune(r)
	return n, nil
}

// ---- parser (jsonpath_gram.y) ----

type jpParser struct {
	lex *jpLexer
	tok jpToken
}

func (p *jpParser) advance() error {
	t, err := p.lex.next()
	p.tok = t
	return err
}

// fail is yyerror's "syntax error" at the current token.
func (p *jpParser) fail() error {
	return jpSyntaxError("syntax error", p.tok.text, p.tok.kind == jtEOF || p.tok.atEnd)
}

func (p *jpParser) isChar(c byte) bool { return p.tok.kind == jtChar && p.tok.text[0] == c }
func (p *jpParser) isKw(k string) bool { return p.tok.kind == jtIdent && p.tok.kw == k }

func (p *jpParser) expectChar(c byte) error {
	if !p.isChar(c) {
		return p.fail()
	}
	return p.advance()
}

// parseJSONPath is jsonPathFromCstring: parse, then check.
func parseJSONPath(in string) (*jsonPath, error) {
	p := &jpParser{lex: &jpLexer{in: in}}
	if err := p.advance(); err != nil {
		return nil, err
	}
	if p.tok.kind == jtEOF {
		return nil, pgerr.New(pgerr.InvalidTextRepresentation, "invalid input syntax for type %s: \"%s\"", "jsonpath", in)
	}
	jp := &jsonPath{lax: true}
	switch {
	case p.isKw("strict"):
		jp.lax = false
		if err := p.advance(); err != nil {
			return nil, err
		}
	case p.isKw("lax"):
		if err := p.advance(); err != nil {
			return nil, err
		}
	}
	e, err := p.parseOr()
	if err != nil {
		return nil, err
	}
	if p.tok.kind != jtEOF {
		return nil, p.fail()
	}
	if err := checkJSONPath(e, 0, false); err != nil {
		return nil, err
	}
	jp.expr = e
	return jp, nil
}

// parseOr: predicate || predicate ...
func (p *jpParser) parseOr() (*jpNode, error) {
	l, err := p.parseAnd()
	if err != nil {
		return nil, err
	}
	for p.tok.kind == jtOr {
		if !l.isPredicate() {
			return nil, p.fail()
		}
		if err := p.advance(); err != nil {
			return nil, err
		}
		r, err := p.parseAnd()
		if err != nil {
			return nil, err
		}
		if !r.isPredicate() {
			return nil, p.fail()
		}
		l = &jpNode{kind: jpOr, left: l, right: r}
	}
	return l, nil
}

func (p *jpParser) parseAnd() (*jpNode, error) {
	l, err := p.parsePredicate()
	if err != nil {
		return nil, err
	}
	for p.tok.kind == jtAnd {
		if !l.isPredicate() {
			return nil, p.fail()
		}
		if err := p.advance(); err != nil {
			return nil, err
		}
		r, err := p.parsePredicate()
		if err != nil {
			return nil, err
		}
		if !r.isPredicate() {
			return nil, p.fail()
		}
		l = &jpNode{kind: jpAnd, left: l, right: r}
	}
	return l, nil
}

var jpCompOps = map[jpTokKind]jpKind{jtEq: jpEqual, jtNotEq: jpNotEqual, jtLess: jpLess,
	jtGreater: jpGreater, jtLessEq: jpLessOrEqual, jtGreaterEq: jpGreaterOrEqual}

// parsePredicate: ! delimited_predicate, or an expression with what may
// follow it (a comparison, starts with, like_regex); an expression alone
// is returned as is.
func (p *jpParser) parsePredicate() (*jpNode, error) {
	if p.tok.kind == jtNot {
		if err := p.advance(); err != nil {
			return nil, err
		}
		var arg *jpNode
		var err error
		switch {
		case p.isChar('('):
			if err = p.advance(); err != nil {
				return nil, err
			}
			if arg, err = p.parseOr(); err != nil {
				return nil, err
			}
			if !arg.isPredicate() {
				return nil, p.fail()
			}
			if err = p.expectChar(')'); err != nil {
				return nil, err
			}
		case p.isKw("exists"):
			if arg, err = p.parseExists(); err != nil {
				return nil, err
			}
		default:
			return nil, p.fail()
		}
		return &jpNode{kind: jpNot, left: arg}, nil
	}
	e, err := p.parseArith(0)
	if err != nil {
		return nil, err
	}
	if e.isPredicate() {
		return e, nil
	}
	if op, ok := jpCompOps[p.tok.kind]; ok {
		if err := p.advance(); err != nil {
			return nil, err
		}
		r, err := p.parseArith(0)
		if err != nil {
			return nil, err
		}
		if r.isPredicate() {
			return nil, p.fail()
		}
		return &jpNode{kind: op, left: e, right: r}, nil
	}
	switch {
	case p.isKw("starts"):
		if err := p.advance(); err != nil {
			return nil, err
		}
		if !p.isKw("with") {
			return nil, p.fail()
		}
		if err := p.advance(); err != nil {
			return nil, err
		}
		var init *jpNode
		switch p.tok.kind {
		case jtString:
			init = &jpNode{kind: jpString, str: p.tok.value}
		case jtVariable:
			init = &jpNode{kind: jpVariable, str: p.tok.value}
		default:
			return nil, p.fail()
		}
		if err := p.advance(); err != nil {
			return nil, err
		}
		return &jpNode{kind: jpStartsWith, left: e, right: init}, nil
	case p.isKw("like_regex"):
		if err := p.advance(); err != nil {
			return nil, err
		}
		if p.tok.kind != jtString {
			return nil, p.fail()
		}
		n := &jpNode{kind: jpLikeRegex, left: e, str: p.tok.value}
		if err := p.advance(); err != nil {
			return nil, err
		}
		if p.isKw("flag") {
			if err := p.advance(); err != nil {
				return nil, err
			}
			if p.tok.kind != jtString {
				return nil, p.fail()
			}
			flags, err := jpRegexFlags(p.tok.value)
			if err != nil {
				return nil, err
			}
			n.flags = flags
			if err := p.advance(); err != nil {
				return nil, err
			}
		}
		if err := checkLikeRegex(n.str, n.flags); err != nil {
			return nil, err
		}
		return n, nil
	}
	return e, nil
}

// jpRegexFlags is makeItemLikeRegex's flag check, in canonical order.
func jpRegexFlags(s string) (string, error) {
	var have [5]bool
	const order = "ismxq"
	for i := 0; i < len(s); i++ {
		k := strings.IndexByte(order, s[i])
		if k < 0 {
			n := mbLen(s, i)
			return "", pgerr.New(pgerr.SyntaxError, "invalid input syntax for type %s", "jsonpath").
				WithDetail("Unrecognized flag character \"%s\" in LIKE_REGEX predicate.", s[i:i+n])
		}
		have[k] = true
	}
	var b strings.Builder
	for k := range have {
		if have[k] {
			b.WriteByte(order[k])
		}
	}
	return b.String(), nil
}

func (p *jpParser) parseExists() (*jpNode, error) {
	if err := p.advance(); err != nil {
		return nil, err
	}
	if err := p.expectChar('('); err != nil {
		return nil, err
	}
	e, err := p.parseArith(0)
	if err != nil {
		return nil, err
	}
	if e.isPredicate() {
		return nil, p.fail()
	}
	if err := p.expectChar(')'); err != nil {
		return nil, err
	}
	return &jpNode{kind: jpExists, left: e}, nil
}

// arithmetic precedence: + - 1, * / % 2.
func (p *jpParser) arithOp() (jpKind, int) {
	if p.tok.kind != jtChar {
		return 0, 0
	}
	switch p.tok.text[0] {
	case '+':
		return jpAdd, 1
	case '-':
		return jpSub, 1
	case '*':
		return jpMul, 2
	case '/':
		return jpDiv, 2
	case '%':
		return jpMod, 2
	}
	return 0, 0
}

func (p *jpParser) parseArith(minPrec int) (*jpNode, error) {
	l, err := p.parseUnary()
	if err != nil {
		return nil, err
	}
	for {
		op, prec := p.arithOp()
		if prec == 0 || prec <= minPrec {
			return l, nil
		}
		if l.isPredicate() {
			return nil, p.fail()
		}
		if err := p.advance(); err != nil {
			return nil, err
		}
		r, err := p.parseArith(prec)
		if err != nil {
			return nil, err
		}
		if r.isPredicate() {
			return nil, p.fail()
		}
		l = &jpNode{kind: op, left: l, right: r}
	}
}

func (p *jpParser) parseUnary() (*jpNode, error) {
	if p.isChar('+') || p.isChar('-') {
		kind := jpPlus
		if p.tok.text[0] == '-' {
			kind = jpMinus
		}
		if err := p.advance(); err != nil {
			return nil, err
		}
		a, err := p.parseUnary()
		if err != nil {
			return nil, err
		}
		if a.isPredicate() {
			return nil, p.fail()
		}
		return makeJPUnary(kind, a), nil
	}
	return p.parseAccessorExpr()
}

// makeJPUnary folds a sign into a numeric literal, as makeItemUnary does.
func makeJPUnary(kind jpKind, a *jpNode) *jpNode {
	if a.kind == jpNumeric && a.next == nil {
		if kind == jpPlus {
			return a
		}
		n := new(apd.Decimal).Neg(a.num)
		return &jpNode{kind: jpNumeric, num: n}
	}
	return &jpNode{kind: kind, left: a}
}

// parseAccessorExpr: a primary and its accessors; a parenthesized
// expression or predicate, possibly "is unknown" or followed by accessors.
func (p *jpParser) parseAccessorExpr() (*jpNode, error) {
	var head *jpNode
	switch {
	case p.isChar('('):
		if err := p.advance(); err != nil {
			return nil, err
		}
		inner, err := p.parseOr()
		if err != nil {
			return nil, err
		}
		if err := p.expectChar(')'); err != nil {
			return nil, err
		}
		if inner.isPredicate() && p.isKw("is") {
			if err := p.advance(); err != nil {
				return nil, err
			}
			if !p.isKw("unknown") {
				return nil, p.fail()
			}
			if err := p.advance(); err != nil {
				return nil, err
			}
			return &jpNode{kind: jpIsUnknown, left: inner}, nil
		}
		if !p.atAccessor() {
			return inner, nil
		}
		head = inner
	case p.isKw("exists"):
		return p.parseExists()
	default:
		var err error
		if head, err = p.parsePrimary(); err != nil {
			return nil, err
		}
	}
	tail := head
	for tail.next != nil {
		tail = tail.next
	}
	for p.atAccessor() {
		a, err := p.parseAccessor()
		if err != nil {
			return nil, err
		}
		tail.next = a
		tail = a
	}
	return head, nil
}

func (p *jpParser) atAccessor() bool { return p.isChar('.') || p.isChar('[') || p.isChar('?') }

func (p *jpParser) parsePrimary() (*jpNode, error) {
	t := p.tok
	var n *jpNode
	switch t.kind {
	case jtString:
		n = &jpNode{kind: jpString, str: t.value}
	case jtNumeric, jtInt:
		d, err := parseNumeric(t.value)
		if err != nil {
			return nil, err
		}
		n = &jpNode{kind: jpNumeric, num: d}
	case jtVariable:
		n = &jpNode{kind: jpVariable, str: t.value}
	case jtChar:
		switch t.text[0] {
		case '$':
			n = &jpNode{kind: jpRoot}
		case '@':
			n = &jpNode{kind: jpCurrent}
		}
	case jtIdent:
		switch t.kw {
		case "null":
			n = &jpNode{kind: jpNull}
		case "true", "false":
			n = &jpNode{kind: jpBool, b: t.kw == "true"}
		case "last":
			n = &jpNode{kind: jpLast}
		}
	}
	if n == nil {
		return nil, p.fail()
	}
	return n, p.advance()
}

var jpMethods = map[string]jpKind{"abs": jpAbs, "size": jpSize, "type": jpType, "floor": jpFloor,
	"double": jpDouble, "ceiling": jpCeiling, "keyvalue": jpKeyValue}

func (p *jpParser) parseAccessor() (*jpNode, error) {
	switch {
	case p.isChar('['):
		return p.parseArrayAccessor()
	case p.isChar('?'):
		if err := p.advance(); err != nil {
			return nil, err
		}
		if err := p.expectChar('('); err != nil {
			return nil, err
		}
		pred, err := p.parseOr()
		if err != nil {
			return nil, err
		}
		if !pred.isPredicate() {
			return nil, p.fail()
		}
		if err := p.expectChar(')'); err != nil {
			return nil, err
		}
		return &jpNode{kind: jpFilter, left: pred}, nil
	}
	// '.'
	if err := p.advance(); err != nil {
		return nil, err
	}
	switch {
	case p.isChar('*'):
		return &jpNode{kind: jpAnyKey}, p.advance()
	case p.tok.kind == jtAny:
		return p.parseAnyPath()
	case p.tok.kind == jtString:
		n := &jpNode{kind: jpKey, str: p.tok.value}
		return n, p.advance()
	case p.tok.kind == jtIdent:
		t := p.tok
		if err := p.advance(); err != nil {
			return nil, err
		}
		if p.isChar('(') {
			if m, ok := jpMethods[t.kw]; ok {
				if err := p.advance(); err != nil {
					return nil, err
				}
				return &jpNode{kind: m}, p.expectChar(')')
			}
			if t.kw == "datetime" {
				if err := p.advance(); err != nil {
					return nil, err
				}
				n := &jpNode{kind: jpDatetime}
				if p.tok.kind == jtString {
					n.left = &jpNode{kind: jpString, str: p.tok.value}
					if err := p.advance(); err != nil {
						return nil, err
					}
				}
				return n, p.expectChar(')')
			}
		}
		return &jpNode{kind: jpKey, str: t.value}, nil
	}
	return nil, p.fail()
}

func (p *jpParser) parseAnyPath() (*jpNode, error) {
	if err := p.advance(); err != nil {
		return nil, err
	}
	n := &jpNode{kind: jpAny, first: 0, last: jpAnyUnbounded}
	if !p.isChar('{') {
		return n, nil
	}
	if err := p.advance(); err != nil {
		return nil, err
	}
	level := func() (uint32, error) {
		switch {
		case p.tok.kind == jtInt:
			v, err := strconv.ParseInt(p.tok.value, 10, 32)
			if err != nil {
				return 0, pgerr.New(pgerr.NumericValueOutOfRange, "value \"%s\" is out of range for type integer", p.tok.value)
			}
			return uint32(v), p.advance()
		case p.isKw("last"):
			return jpAnyUnbounded, p.advance()
		}
		return 0, p.fail()
	}
	var err error
	if n.first, err = level(); err != nil {
		return nil, err
	}
	n.last = n.first
	if p.isKw("to") {
		if err := p.advance(); err != nil {
			return nil, err
		}
		if n.last, err = level(); err != nil {
			return nil, err
		}
	}
	return n, p.expectChar('}')
}

func (p *jpParser) parseArrayAccessor() (*jpNode, error) {
	if err := p.advance(); err != nil {
		return nil, err
	}
	if p.isChar('*') {
		if err := p.advance(); err != nil {
			return nil, err
		}
		return &jpNode{kind: jpAnyArray}, p.expectChar(']')
	}
	n := &jpNode{kind: jpIndexArray}
	for {
		from, err := p.parseArith(0)
		if err != nil {
			return nil, err
		}
		if from.isPredicate() {
			return nil, p.fail()
		}
		sub := jpSubscript{from: from}
		if p.isKw("to") {
			if err := p.advance(); err != nil {
				return nil, err
			}
			if sub.to, err = p.parseArith(0); err != nil {
				return nil, err
			}
			if sub.to.isPredicate() {
				return nil, p.fail()
			}
		}
		n.subs = append(n.subs, sub)
		if !p.isChar(',') {
			break
		}
		if err := p.advance(); err != nil {
			return nil, err
		}
	}
	return n, p.expectChar(']')
}

// checkJSONPath is flattenJsonPathParseItem's checks: @ only inside a
// filter, last only inside an array subscript.
func checkJSONPath(n *jpNode, nesting int, inSubscript bool) error {
	for ; n != nil; n = n.next {
		switch n.kind {
		case jpCurrent:
			if nesting <= 0 {
				return pgerr.New(pgerr.SyntaxError, "@ is not allowed in root expressions")
			}
		case jpLast:
			if !inSubscript {
				return pgerr.New(pgerr.SyntaxError, "LAST is allowed only in array subscripts")
			}
		case jpFilter:
			if err := checkJSONPath(n.left, nesting+1, inSubscript); err != nil {
				return err
			}
		case jpIndexArray:
			for _, s := range n.subs {
				if err := checkJSONPath(s.from, nesting, true); err != nil {
					return err
				}
				if err := checkJSONPath(s.to, nesting, true); err != nil {
					return err
				}
			}
		default:
			for _, c := range []*jpNode{n.left, n.right} {
				if err := checkJSONPath(c, nesting, inSubscript); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// ---- printer (printJsonPathItem) ----

func jpOperationName(k jpKind) string {
	switch k {
	case jpAnd:
		return "&&"
	case jpOr:
		return "||"
	case jpEqual:
		return "=="
	case jpNotEqual:
		return "!="
	case jpLess:
		return "<"
	case jpGreater:
		return ">"
	case jpLessOrEqual:
		return "<="
	case jpGreaterOrEqual:
		return ">="
	case jpPlus, jpAdd:
		return "+"
	case jpMinus, jpSub:
		return "-"
	case jpMul:
		return "*"
	case jpDiv:
		return "/"
	case jpMod:
		return "%"
	case jpStartsWith:
		return "starts with"
	case jpLikeRegex:
		return "like_regex"
	case jpType:
		return "type"
	case jpSize:
		return "size"
	case jpKeyValue:
		return "keyvalue"
	case jpDouble:
		return "double"
	case jpAbs:
		return "abs"
	case jpFloor:
		return "floor"
	case jpCeiling:
		return "ceiling"
	case jpDatetime:
		return "datetime"
	}
	return "?"
}

func jpPriority(k jpKind) int {
	switch k {
	case jpOr:
		return 0
	case jpAnd:
		return 1
	case jpEqual, jpNotEqual, jpLess, jpGreater, jpLessOrEqual, jpGreaterOrEqual, jpStartsWith:
		return 2
	case jpAdd, jpSub:
		return 3
	case jpMul, jpDiv, jpMod:
		return 4
	case jpPlus, jpMinus:
		return 5
	}
	return 6
}

func (jp *jsonPath) String() string {
	var b []byte
	if !jp.lax {
		b = append(b, "strict "...)
	}
	return string(appendJPItem(b, jp.expr, false, true))
}

func appendJPItem(b []byte, n *jpNode, inKey, brackets bool) []byte {
	sub := func(b []byte, c *jpNode) []byte {
		return appendJPItem(b, c, false, jpPriority(c.kind) <= jpPriority(n.kind))
	}
	open := func(b []byte) []byte {
		if brackets {
			return append(b, '(')
		}
		return b
	}
	shut := func(b []byte) []byte {
		if brackets {
			return append(b, ')')
		}
		return b
	}
	switch n.kind {
	case jpNull:
		b = append(b, "null"...)
	case jpKey:
		if inKey {
			b = append(b, '.')
		}
		b = escapeJSON(b, n.str)
	case jpString:
		b = escapeJSON(b, n.str)
	case jpVariable:
		b = escapeJSON(append(b, '$'), n.str)
	case jpNumeric:
		if n.next != nil {
			b = append(b, '(')
		}
		b = appendNumeric(b, n.num)
		if n.next != nil {
			b = append(b, ')')
		}
	case jpBool:
		if n.b {
			b = append(b, "true"...)
		} else {
			b = append(b, "false"...)
		}
	case jpAnd, jpOr, jpEqual, jpNotEqual, jpLess, jpGreater, jpLessOrEqual, jpGreaterOrEqual,
		jpAdd, jpSub, jpMul, jpDiv, jpMod, jpStartsWith:
		b = open(b)
		b = sub(b, n.left)
		b = append(append(append(b, ' '), jpOperationName(n.kind)...), ' ')
		b = sub(b, n.right)
		b = shut(b)
	case jpLikeRegex:
		b = open(b)
		b = sub(b, n.left)
		b = escapeJSON(append(b, " like_regex "...), n.str)
		if n.flags != "" {
			b = append(append(append(b, " flag \""...), n.flags...), '"')
		}
		b = shut(b)
	case jpPlus, jpMinus:
		b = open(b)
		b = append(b, jpOperationName(n.kind)...)
		b = sub(b, n.left)
		b = shut(b)
	case jpFilter:
		b = append(appendJPItem(append(b, "?("...), n.left, false, false), ')')
	case jpNot:
		b = append(appendJPItem(append(b, "!("...), n.left, false, false), ')')
	case jpIsUnknown:
		b = append(appendJPItem(append(b, '('), n.left, false, false), ") is unknown"...)
	case jpExists:
		b = append(appendJPItem(append(b, "exists ("...), n.left, false, false), ')')
	case jpCurrent:
		b = append(b, '@')
	case jpRoot:
		b = append(b, '$')
	case jpLast:
		b = append(b, "last"...)
	case jpAnyArray:
		b = append(b, "[*]"...)
	case jpAnyKey:
		if inKey {
			b = append(b, '.')
		}
		b = append(b, '*')
	case jpIndexArray:
		b = append(b, '[')
		for i, s := range n.subs {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJPItem(b, s.from, false, false)
			if s.to != nil {
				b = appendJPItem(append(b, " to "...), s.to, false, false)
			}
		}
		b = append(b, ']')
	case jpAny:
		if inKey {
			b = append(b, '.')
		}
		u := func(v uint32) string { return strconv.FormatUint(uint64(v), 10) }
		switch {
		case n.first == 0 && n.last == jpAnyUnbounded:
			b = append(b, "**"...)
		case n.first == n.last && n.first == jpAnyUnbounded:
			b = append(b, "**{last}"...)
		case n.first == n.last:
			b = append(b, "**{"+u(n.first)+"}"...)
		case n.first == jpAnyUnbounded:
			b = append(b, "**{last to "+u(n.last)+"}"...)
		case n.last == jpAnyUnbounded:
			b = append(b, "**{"+u(n.first)+" to last}"...)
		default:
			b = append(b, "**{"+u(n.first)+" to "+u(n.last)+"}"...)
		}
	case jpDatetime:
		b = append(b, ".datetime("...)
		if n.left != nil {
			b = appendJPItem(b, n.left, false, false)
		}
		b = append(b, ')')
	default: // the other item methods
		b = append(append(append(b, '.'), jpOperationName(n.kind)...), "()"...)
	}
	if n.next != nil {
		b = appendJPItem(b, n.next, true, true)
	}
	return b
}

// parseJSONPathInput is jsonpath_in: the canonical text.
func parseJSONPathInput(s string) (Value, error) {
	jp, err := parseJSONPath(s)
	if err != nil {
		return Value{}, err
	}
	return Value{S: jp.String()}, nil
}
