package types

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/cockroachdb/apd/v3"
	"github.com/joind/joind/pgerr"
)

// json and jsonb. Both are string-backed (Value.S, Arrow String): json holds
// its input text verbatim once validated, jsonb the normalized text jsonb_out
// prints (keys ordered by length then bytes, the last of duplicate keys,
// numbers as numeric_out, `{"a": 1, "b": [1, 2]}` spacing). The parser below
// is PostgreSQL's src/common/jsonapi.c: its tokens, its error kinds and the
// CONTEXT line report_json_context makes.

const (
	codeUntranslatable    = "22P05" // unsupported Unicode escape sequence
	codeInvalidJSONText   = "22032"
	codeNonNumericJSON    = "22036"
	codeObjectNotFound    = "22023"
	codeArraySubscriptErr = "2202E"
)

// jsonKind orders the kinds as jsonb's comparison does (jbvNull < jbvString
// < jbvNumeric < jbvBool < jbvArray < jbvObject).
type jsonKind uint8

const (
	jsonNull   jsonKind = 0
	jsonString jsonKind = 1
	jsonNumber jsonKind = 2
	jsonBool   jsonKind = 3
	jsonArray  jsonKind = 0x10
	jsonObject jsonKind = 0x11
)

// jsonValue is one parsed JSON value. For json (not jsonb) Raw is the
// value's verbatim source text and objects keep every key in input order.
type jsonValue struct {
	Kind  jsonKind
	Str   string       // string value (de-escaped)
	Num   *apd.Decimal // number
	Bool  bool
	Elems []*jsonValue // array elements
	Keys  []string     // object keys
	Vals  []*jsonValue // object values, Vals[i] under Keys[i]
	Raw   string
	dt    *jsonDatetimeItem // a jsonpath datetime item's value (Kind jsonDatetime)
}

type jsonToken uint8

const (
	tokInvalid jsonToken = iota
	tokString
	tokNumber
	tokObjectStart
	tokObjectEnd
	tokArrayStart
	tokArrayEnd
	tokComma
	tokColon
	tokTrue
	tokFalse
	tokNull
	tokEnd
)

type jsonLexer struct {
	in         string
	pos        int // next byte to lex
	tokStart   int
	tokEnd     int
	tok        jsonToken
	lineNumber int
	lineStart  int
	strval     string // de-escaped value of the last string token
	deescape   bool   // convert escapes (jsonb, processing): \u0000 refused
}

// jsonError is one of jsonapi.c's JsonParseErrorType results with what its
// message needs.
type jsonError struct {
	detail string
	code   string
}

func (l *jsonLexer) token() string { return l.in[l.tokStart:l.tokEnd] }

func (l *jsonLexer) invalidToken() *jsonError {
	return &jsonError{detail: "Token \"" + l.token() + "\" is invalid."}
}

func isJSONAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c >= 0x80
}

func mbLen(s string, i int) int {
	_, n := utf8.DecodeRuneInString(s[i:])
	if n < 1 {
		n = 1
	}
	return n
}

// lex reads the next token into l.tok (json_lex).
func (l *jsonLexer) lex() *jsonError {
	s := l.pos
	for s < len(l.in) && (l.in[s] == ' ' || l.in[s] == '\t' || l.in[s] == '\n' || l.in[s] == '\r') {
		if l.in[s] == '\n' {
			l.lineNumber++
			l.lineStart = s + 1
		}
		s++
	}
	l.tokStart = s
	if s >= len(l.in) {
		l.tok, l.tokEnd, l.pos = tokEnd, s, s
		return nil
	}
	c := l.in[s]
	if t := punctuationToken(c); t != tokEnd {
		l.tok, l.tokEnd, l.pos = t, s+1, s+1
		return nil
	}
	switch {
	case c == '"':
		if err := l.lexString(s); err != nil {
			return err
		}
		l.tok = tokString
	case c == '-' || c >= '0' && c <= '9':
		end, bad := lexNumber(l.in, s)
		l.tokEnd, l.pos = end, end
		if bad {
			return l.invalidToken()
		}
		l.tok = tokNumber
	default:
		p := s
		for p < len(l.in) && isJSONAlnum(l.in[p]) {
			p++
		}
		if p == s {
			l.tokEnd = s + mbLen(l.in, s)
			return l.invalidToken()
		}
		l.tokEnd, l.pos = p, p
		switch l.in[s:p] {
		case "true":
			l.tok = tokTrue
		case "false":
			l.tok = tokFalse
		case "null":
			l.tok = tokNull
		default:
			return l.invalidToken()
		}
	}
	return nil
}

// lexNumber is json_lex_number: the end of the token and whether it is
// malformed (trailing letters and digits belong to the bad token).
func lexNumber(in string, s int) (int, bool) {
	bad := false
	digits := func() {
		for s < len(in) && in[s] >= '0' && in[s] <= '9' {
			s++
		}
	}
	if s < len(in) && in[s] == '-' {
		s++
	}
	switch {
	case s < len(in) && in[s] == '0':
		s++
	case s < len(in) && in[s] >= '1' && in[s] <= '9':
		digits()
	default:
		bad = true
	}
	if s < len(in) && in[s] == '.' {
		s++
		if s >= len(in) || in[s] < '0' || in[s] > '9' {
			bad = true
		} else {
			digits()
		}
	}
	if s < len(in) && (in[s] == 'e' || in[s] == 'E') {
		s++
		if s < len(in) && (in[s] == '+' || in[s] == '-') {
			s++
		}
		if s >= len(in) || in[s] < '0' || in[s] > '9' {
			bad = true
		} else {
			digits()
		}
	}
	for s < len(in) && isJSONAlnum(in[s]) {
		s++
		bad = true
	}
	return s, bad
}

// punctuationToken is the token of a one-byte JSON punctuation mark, or
// tokEnd when c is not one.
func punctuationToken(c byte) jsonToken {
	switch c {
	case '{':
		return tokObjectStart
	case '}':
		return tokObjectEnd
	case '[':
		return tokArrayStart
	case ']':
		return tokArrayEnd
	case ',':
		return tokComma
	case ':':
		return tokColon
	}
	return tokEnd
}

// lexString is json_lex_string from the opening quote at start.
func (l *jsonLexer) lexString(start int) *jsonError {
	s := start + 1
	// Most strings have no escapes: take them as a substring of the input.
	for s < len(l.in) && l.in[s] != '"' && l.in[s] != '\\' && l.in[s] >= 0x20 {
		s++
	}
	if s < len(l.in) && l.in[s] == '"' {
		l.tokEnd, l.pos = s+1, s+1
		l.strval = l.in[start+1 : s]
		return nil
	}
	var b strings.Builder
	b.WriteString(l.in[start+1 : s])
	hi := -1
	lowMissing := &jsonError{detail: "Unicode low surrogate must follow a high surrogate."}
	for {
		if s >= len(l.in) {
			l.tokEnd = s
			return l.invalidToken()
		}
		c := l.in[s]
		if c == '"' {
			break
		}
		if c < 0x20 {
			l.tokEnd = s
			return &jsonError{detail: "Character with value 0x" + hex2(c) + " must be escaped."}
		}
		if c != '\\' {
			if hi != -1 {
				l.tokEnd = s
				return lowMissing
			}
			b.WriteByte(c)
			s++
			continue
		}
		s++
		if s >= len(l.in) {
			l.tokEnd = s
			return l.invalidToken()
		}
		if l.in[s] == 'u' {
			ch := 0
			for i := 1; i <= 4; i++ {
				s++
				if s >= len(l.in) {
					l.tokEnd = s
					return l.invalidToken()
				}
				h := hexValue(l.in[s])
				if h < 0 {
					l.tokEnd = s + mbLen(l.in, s)
					return &jsonError{detail: "\"\\u\" must be followed by four hexadecimal digits."}
				}
				ch = ch*16 + h
			}
			s++
			if !l.deescape {
				continue // json_in checks the digits only
			}
			switch {
			case ch >= 0xd800 && ch <= 0xdbff:
				if hi != -1 {
					l.tokEnd = s
					return &jsonError{detail: "Unicode high surrogate must not follow a high surrogate."}
				}
				hi = ch
				continue
			case ch >= 0xdc00 && ch <= 0xdfff:
				if hi == -1 {
					l.tokEnd = s
					return lowMissing
				}
				ch = 0x10000 + ((hi & 0x3ff) << 10) + (ch & 0x3ff)
				hi = -1
			}
			if hi != -1 {
				l.tokEnd = s
				return lowMissing
			}
			if l.deescape {
				if ch == 0 {
					l.tokEnd = s
					return &jsonError{detail: "\\u0000 cannot be converted to text.", code: codeUntranslatable}
				}
				b.WriteRune(rune(ch))
			}
			continue
		}
		if hi != -1 {
			l.tokEnd = s
			return lowMissing
		}
		switch e := l.in[s]; e {
		case '"', '\\', '/':
			b.WriteByte(e)
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
		default:
			l.tokStart = s
			l.tokEnd = s + mbLen(l.in, s)
			return &jsonError{detail: "Escape sequence \"\\" + l.token() + "\" is invalid."}
		}
		s++
	}
	if hi != -1 {
		l.tokEnd = s + 1
		return lowMissing
	}
	l.tokEnd, l.pos = s+1, s+1
	l.strval = b.String()
	return nil
}

func hex2(c byte) string {
	const digits = "0123456789abcdef"
	return string([]byte{digits[c>>4], digits[c&15]})
}

// jsonParser is pg_parse_json's recursive descent, building the value.
type jsonParser struct {
	l     jsonLexer
	build bool // build the tree (jsonb, processing); json_in only validates
	depth int
}

type parseContext uint8

const (
	ctxValue parseContext = iota
	ctxString
	ctxArrayNext
	ctxObjectStart
	ctxObjectLabel
	ctxObjectNext
	ctxEnd
)

// expectations is what each parse context wanted, as json_errdetail says it.
var expectations = [...]string{ctxValue: "JSON value", ctxString: "string", ctxArrayNext: `"," or "]"`,
	ctxObjectStart: `string or "}"`, ctxObjectLabel: `":"`, ctxObjectNext: `"," or "}"`, ctxEnd: "end of input"}

func (p *jsonParser) parseError(ctx parseContext) *jsonError {
	if p.l.tok == tokEnd {
		return &jsonError{detail: "The input string ended unexpectedly."}
	}
	return &jsonError{detail: "Expected " + expectations[ctx] + ", but found \"" + p.l.token() + "\"."}
}

func (p *jsonParser) parseValue() (*jsonValue, *jsonError) {
	switch p.l.tok {
	case tokObjectStart:
		return p.parseObject()
	case tokArrayStart:
		return p.parseArray()
	}
	return p.parseScalar()
}

func (p *jsonParser) parseScalar() (*jsonValue, *jsonError) {
	var v *jsonValue
	start := p.l.tokStart
	switch p.l.tok {
	case tokString:
		if p.build {
			v = &jsonValue{Kind: jsonString, Str: p.l.strval}
		}
	case tokNumber:
		if p.build {
			d, err := parseNumeric(p.l.token())
			if err != nil {
				return nil, p.l.invalidToken()
			}
			v = &jsonValue{Kind: jsonNumber, Num: d}
		}
	case tokTrue, tokFalse:
		if p.build {
			v = &jsonValue{Kind: jsonBool, Bool: p.l.tok == tokTrue}
		}
	case tokNull:
		if p.build {
			v = &jsonValue{Kind: jsonNull}
		}
	default:
		return nil, p.parseError(ctxValue)
	}
	if v != nil {
		v.Raw = p.l.in[start:p.l.tokEnd]
	}
	return v, p.l.lex()
}

func (p *jsonParser) enter() *jsonError {
	p.depth++
	if p.depth > 6400 {
		return &jsonError{code: "54001", detail: "stack depth limit exceeded"}
	}
	return nil
}

// open starts a container at its bracket: the value (when building) and
// where its source text starts.
func (p *jsonParser) open(kind jsonKind) (*jsonValue, int, *jsonError) {
	if err := p.enter(); err != nil {
		return nil, 0, err
	}
	start := p.l.tokStart
	var v *jsonValue
	if p.build {
		v = &jsonValue{Kind: kind}
		if kind == jsonArray {
			v.Elems = []*jsonValue{}
		}
	}
	return v, start, p.l.lex()
}

// close ends a container at its closing bracket.
func (p *jsonParser) close(v *jsonValue, start int) (*jsonValue, *jsonError) {
	if v != nil {
		v.Raw = p.l.in[start:p.l.tokEnd]
	}
	p.depth--
	return v, p.l.lex()
}

func (p *jsonParser) parseObject() (*jsonValue, *jsonError) {
	v, start, err := p.open(jsonObject)
	if err != nil {
		return nil, err
	}
	switch p.l.tok {
	case tokString:
		for {
			if p.l.tok != tokString {
				return nil, p.parseError(ctxString)
			}
			key := p.l.strval
			if err := p.l.lex(); err != nil {
				return nil, err
			}
			if p.l.tok != tokColon {
				return nil, p.parseError(ctxObjectLabel)
			}
			if err := p.l.lex(); err != nil {
				return nil, err
			}
			val, err := p.parseValue()
			if err != nil {
				return nil, err
			}
			if v != nil {
				v.Keys = append(v.Keys, key)
				v.Vals = append(v.Vals, val)
			}
			if p.l.tok != tokComma {
				break
			}
			if err := p.l.lex(); err != nil {
				return nil, err
			}
		}
	case tokObjectEnd:
	default:
		return nil, p.parseError(ctxObjectStart)
	}
	if p.l.tok != tokObjectEnd {
		return nil, p.parseError(ctxObjectNext)
	}
	return p.close(v, start)
}

func (p *jsonParser) parseArray() (*jsonValue, *jsonError) {
	v, start, err := p.open(jsonArray)
	if err != nil {
		return nil, err
	}
	if p.l.tok != tokArrayEnd {
		for {
			e, err := p.parseValue()
			if err != nil {
				return nil, err
			}
			if v != nil {
				v.Elems = append(v.Elems, e)
			}
			if p.l.tok != tokComma {
				break
			}
			if err := p.l.lex(); err != nil {
				return nil, err
			}
		}
	}
	if p.l.tok != tokArrayEnd {
		return nil, p.parseError(ctxArrayNext)
	}
	return p.close(v, start)
}

// parseJSON parses JSON text; build returns the tree (else nil after
// validation). Errors are PostgreSQL's,
// with its DETAIL and CONTEXT lines.
func parseJSON(s string, build bool) (*jsonValue, error) {
	p := &jsonParser{build: build, l: jsonLexer{in: s, lineNumber: 1, deescape: build}}
	var v *jsonValue
	jerr := p.l.lex()
	if jerr == nil {
		v, jerr = p.parseValue()
	}
	if jerr == nil && p.l.tok != tokEnd {
		jerr = p.parseError(ctxEnd)
	}
	if jerr == nil {
		return v, nil
	}
	if jerr.code == "54001" {
		return nil, pgerr.StackDepthExceeded()
	}
	var e *pgerr.Error
	if jerr.code == codeUntranslatable {
		e = pgerr.New(codeUntranslatable, "unsupported Unicode escape sequence")
	} else {
		// jsonb_in reports through json's parser: "type json" for both.
		e = pgerr.New(pgerr.InvalidTextRepresentation, "invalid input syntax for type json")
	}
	e.Detail = jerr.detail
	return nil, e.WithWhere(p.l.context())
}

// context is report_json_context: the line up to the bad token, cut to
// the last 50 bytes or so.
func (l *jsonLexer) context() string {
	end := l.tokEnd
	if end > len(l.in) {
		end = len(l.in)
	}
	start := l.lineStart
	for end-start >= 50 {
		start += mbLen(l.in, start)
	}
	if start-l.lineStart <= 3 {
		start = l.lineStart
	}
	prefix, suffix := "", ""
	if start > l.lineStart {
		prefix = "..."
	}
	if l.tok != tokEnd && end < len(l.in) && l.in[end] != '\n' && l.in[end] != '\r' {
		suffix = "..."
	}
	return "JSON data, line " + strconv.Itoa(l.lineNumber) + ": " + prefix + l.in[start:end] + suffix
}

// ---- jsonb normalization and output ----

// normalizeJSONB sorts object keys by length then bytes and keeps the last
// value of a repeated key, recursively (uniqueifyJsonbObject).
func normalizeJSONB(v *jsonValue) {
	for _, e := range v.children() {
		normalizeJSONB(e)
	}
	if v.Kind == jsonObject {
		idx := make([]int, len(v.Keys))
		for i := range idx {
			idx[i] = i
		}
		slices.SortStableFunc(idx, func(a, b int) int { return compareJSONBKeys(v.Keys[a], v.Keys[b]) })
		keys := make([]string, 0, len(idx))
		vals := make([]*jsonValue, 0, len(idx))
		for _, i := range idx {
			if n := len(keys); n > 0 && keys[n-1] == v.Keys[i] {
				vals[n-1] = v.Vals[i] // stable sort: the later duplicate wins
				continue
			}
			keys = append(keys, v.Keys[i])
			vals = append(vals, v.Vals[i])
		}
		v.Keys, v.Vals = keys, vals
	}
	v.Raw = ""
}

// compareJSONBKeys is jsonb's key order: by length, then bytes.
func compareJSONBKeys(a, b string) int {
	if len(a) != len(b) {
		return cmpInt(int64(len(a)), int64(len(b)))
	}
	return strings.Compare(a, b)
}

// escapeJSON is escape_json: quotes, backslash and control characters.
func escapeJSON(dst []byte, s string) []byte {
	dst = append(dst, '"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\b':
			dst = append(dst, '\\', 'b')
		case '\f':
			dst = append(dst, '\\', 'f')
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
		case '\t':
			dst = append(dst, '\\', 't')
		case '"':
			dst = append(dst, '\\', '"')
		case '\\':
			dst = append(dst, '\\', '\\')
		default:
			if c < 0x20 {
				dst = append(dst, '\\', 'u', '0', '0', hex2(c)[0], hex2(c)[1])
			} else {
				dst = append(dst, c)
			}
		}
	}
	return append(dst, '"')
}

// jsonStyle is one of the ways a tree is printed: jsonb_out's, json's
// compact re-emission (json_strip_nulls' semantic actions: no white
// space, numbers as written) and jsonb_pretty's.
type jsonStyle uint8

const (
	styleJSONB jsonStyle = iota
	styleCompact
	stylePretty
)

// appendJSONB is JsonbToCString.
func appendJSONB(dst []byte, v *jsonValue) []byte { return appendStyled(dst, v, styleJSONB, 0) }

func appendStyled(dst []byte, v *jsonValue, style jsonStyle, level int) []byte {
	switch v.Kind {
	case jsonNull:
		return append(dst, "null"...)
	case jsonBool:
		if v.Bool {
			return append(dst, "true"...)
		}
		return append(dst, "false"...)
	case jsonNumber:
		if style == styleCompact && v.Raw != "" {
			return append(dst, v.Raw...)
		}
		return appendNumeric(dst, v.Num)
	case jsonString:
		return escapeJSON(dst, v.Str)
	}
	open, end, n := byte('['), byte(']'), len(v.Elems)
	if v.Kind == jsonObject {
		open, end, n = '{', '}', len(v.Keys)
	}
	sep, colon := ", ", ": "
	switch style {
	case styleCompact:
		sep, colon = ",", ":"
	case stylePretty:
		sep = ","
	}
	newline := func(d []byte, level int) []byte {
		if style != stylePretty {
			return d
		}
		d = append(d, '\n')
		for i := 0; i < level; i++ {
			d = append(d, "    "...)
		}
		return d
	}
	dst = append(dst, open)
	for i := 0; i < n; i++ {
		if i > 0 {
			dst = append(dst, sep...)
		}
		dst = newline(dst, level+1)
		if v.Kind == jsonObject {
			dst = escapeJSON(dst, v.Keys[i])
			dst = append(dst, colon...)
			dst = appendStyled(dst, v.Vals[i], style, level+1)
		} else {
			dst = appendStyled(dst, v.Elems[i], style, level+1)
		}
	}
	dst = newline(dst, level)
	return append(dst, end)
}

func jsonbText(v *jsonValue) string { return string(appendJSONB(nil, v)) }

// parseJSONBText reads jsonb input text into its normalized tree.
func parseJSONBText(s string) (*jsonValue, error) {
	v, err := parseJSON(s, true)
	if err != nil {
		return nil, err
	}
	normalizeJSONB(v)
	return v, nil
}

// jsonbTree reads a stored jsonb value (its normalized text, which always
// parses).
func jsonbTree(s string) *jsonValue {
	v, err := parseJSON(s, true)
	if err != nil {
		return &jsonValue{Kind: jsonNull}
	}
	return v
}

// jsonTree reads a stored json value (validated text) keeping raw spans.
func jsonTree(s string) (*jsonValue, error) { return parseJSON(s, true) }

// ParseJSONText is json_in: the input itself once valid.
func parseJSONInput(s string) (Value, error) {
	if _, err := parseJSON(s, false); err != nil {
		return Value{}, err
	}
	return Value{S: s}, nil
}

// parseJSONBInput is jsonb_in: the normalized text.
func parseJSONBInput(s string) (Value, error) {
	if canonicalJSONB(s) {
		return Value{S: s}, nil // already its own output (jsoncanon.go)
	}
	v, err := parseJSONBText(s)
	if err != nil {
		return Value{}, err
	}
	return Value{S: jsonbText(v)}, nil
}

// ---- jsonb comparison and hashing ----

// compareJSONB is compareJsonbContainers over two stored jsonb texts.
func compareJSONB(a, b string) int {
	if a == b {
		return 0
	}
	return compareJSONBTop(jsonbTree(a), jsonbTree(b))
}

// compareJSONBTop treats a top-level scalar as PostgreSQL's raw-scalar
// pseudo array of one element.
func compareJSONBTop(a, b *jsonValue) int {
	aRaw, bRaw := a.Kind < jsonArray, b.Kind < jsonArray
	if !aRaw && !bRaw {
		return compareJSONBValue(a, b)
	}
	an, bn := 1, 1
	ak, bk := jsonArray, jsonArray
	if !aRaw {
		ak, an = a.Kind, len(a.Elems)
	}
	if !bRaw {
		bk, bn = b.Kind, len(b.Elems)
	}
	if ak != bk {
		return cmpKind(ak, bk)
	}
	// Both arrays, at least one a raw scalar.
	res := 0
	if aRaw != bRaw {
		res = 1
		if aRaw {
			res = -1
		}
	}
	if an != bn {
		res = 1
		if an < bn {
			res = -1
		}
	}
	if res != 0 {
		return res
	}
	return compareJSONBValue(a, b) // both raw scalars
}

func cmpKind(a, b jsonKind) int {
	if a > b {
		return 1
	}
	return -1
}

func compareJSONBValue(a, b *jsonValue) int {
	if a.Kind != b.Kind {
		return cmpKind(a.Kind, b.Kind)
	}
	switch a.Kind {
	case jsonNull:
		return 0
	case jsonString:
		return strings.Compare(a.Str, b.Str)
	case jsonNumber:
		return compareNumeric(a.Num, b.Num)
	case jsonBool:
		return cmpInt(boolInt(a.Bool), boolInt(b.Bool))
	case jsonArray:
		if len(a.Elems) != len(b.Elems) {
			return cmpInt(int64(len(a.Elems)), int64(len(b.Elems)))
		}
		for i := range a.Elems {
			if c := compareJSONBValue(a.Elems[i], b.Elems[i]); c != 0 {
				return c
			}
		}
		return 0
	}
	if len(a.Keys) != len(b.Keys) {
		return cmpInt(int64(len(a.Keys)), int64(len(b.Keys)))
	}
	for i := range a.Keys {
		if c := strings.Compare(a.Keys[i], b.Keys[i]); c != 0 {
			return c
		}
		if c := compareJSONBValue(a.Vals[i], b.Vals[i]); c != 0 {
			return c
		}
	}
	return 0
}

func boolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// JSONBKey is the key bytes of a stored jsonb value: equal jsonb values
// (numbers compared by value: 1.0 = 1) have equal keys. Stored numbers are
// numeric_out text, so only a text with a '.' can differ from its key.
func JSONBKey(s string) string {
	if !strings.Contains(s, ".") {
		return s
	}
	v := jsonbTree(s)
	reduceNumbers(v)
	return jsonbText(v)
}

func reduceNumbers(v *jsonValue) {
	switch v.Kind {
	case jsonNumber:
		var r apd.Decimal
		r.Reduce(v.Num)
		if r.Exponent > 0 {
			// Keep integers in plain form: 100, not 1E+2.
			var scale apd.BigInt
			scale.Exp(apd.NewBigInt(10), apd.NewBigInt(int64(r.Exponent)), nil)
			r.Coeff.Mul(&r.Coeff, &scale)
			r.Exponent = 0
		}
		v.Num = &r
	}
	for _, e := range v.children() {
		reduceNumbers(e)
	}
}

// children is a container's elements or member values.
func (v *jsonValue) children() []*jsonValue {
	switch v.Kind {
	case jsonArray:
		return v.Elems
	case jsonObject:
		return v.Vals
	}
	return nil
}

func hashJSONB(s string) uint64 { return hashString(JSONBKey(s)) }

// HasEquality reports whether t has btree equality and ordering operators
// (json and jsonpath have none: they cannot be grouped, deduplicated or sorted).
func HasEquality(t Type) bool { return t.ID != JSON && t.ID != JSONPath && t.ID != Point }

// HasOrdering reports whether t has a btree ordering (ORDER BY, min/max,
// GREATEST, a btree index): the types with equality except xid, whose
// ids wrap around, and arrays of it.
func HasOrdering(t Type) bool {
	if t.ID == Array {
		return t.Elem != Xid && HasEquality(t.ElemType())
	}
	return t.ID != Xid && HasEquality(t)
}
