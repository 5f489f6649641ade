package sql

import (
	"errors"
	"strings"
	"unicode/utf8"

	pg_query "github.com/pganalyze/pg_query_go/v5"
	pgparser "github.com/pganalyze/pg_query_go/v5/parser"

	"github.com/joind/joind/pgerr"
)

// RawStatement is one parsed, not yet bound statement of a query string. It
// keeps the whole query text so bind errors can point into it.
type RawStatement struct {
	query string // the full query string the statement came from
	start int    // byte offset of the statement in query
	end   int    // byte offset just past the statement
	stmt  *pg_query.Node
}

// SQL returns the statement's own text, without the trailing semicolon.
func (r *RawStatement) SQL() string { return strings.TrimSpace(r.query[r.start:r.end]) }

// Query returns the full query string the statement was parsed from.
func (r *RawStatement) Query() string { return r.query }

// Offset is the byte offset of the statement within Query().
func (r *RawStatement) Offset() int { return r.start }

// AST returns the pg_query parse tree of the statement.
func (r *RawStatement) AST() *pg_query.Node { return r.stmt }

// Parse splits and parses a simple-query string. An empty or comment-only
// string yields no statements.
func Parse(query string) ([]*RawStatement, error) {
	tree, err := parseTree(query)
	if err != nil {
		return nil, convertParseError(query, err)
	}
	if err := checkPG15Numbers(query); err != nil {
		return nil, err
	}
	out := make([]*RawStatement, 0, len(tree.Stmts))
	for _, rs := range tree.Stmts {
		start := int(rs.StmtLocation)
		end := len(query)
		if rs.StmtLen > 0 {
			end = start + int(rs.StmtLen)
		}
		if start > len(query) {
			start = len(query)
		}
		if end > len(query) {
			end = len(query)
		}
		out = append(out, &RawStatement{query: query, start: start, end: end, stmt: rs.Stmt})
	}
	return out, nil
}

// convertParseError maps a pg_query error to a 42601 with PostgreSQL's
// cursor position. libpg_query already reports the cursor as PostgreSQL's
// scanner does (1-based, counted in characters of the whole string).
func convertParseError(query string, err error) error {
	if e, ok := err.(*pgerr.Error); ok {
		return e // parseTree's own errors
	}
	var pe *pgparser.Error
	if !errors.As(err, &pe) {
		return pgerr.Wrap(err, pgerr.SyntaxError, "%s", err.Error())
	}
	code := pgerr.SyntaxError
	msg := pe.Message
	switch {
	case strings.HasPrefix(msg, "unterminated quoted string"),
		strings.HasPrefix(msg, "unterminated quoted identifier"),
		strings.HasPrefix(msg, "unterminated /* comment"),
		strings.HasPrefix(msg, "syntax error"),
		strings.HasPrefix(msg, "zero-length delimited identifier"):
		code = pgerr.SyntaxError
	case strings.Contains(msg, "not supported"):
		code = pgerr.FeatureNotSupported
	case strings.HasPrefix(msg, "precision for type float must be"):
		code = pgerr.InvalidParameterValue // the grammar's float(p) check
	}
	msg = pg15JunkText(query, msg, pe.Cursorpos)
	e := pgerr.Wrap(err, code, "%s", msg)
	if msg == "invalid Unicode escape" {
		// The scanner's (E'\u...') is 22025; U&'...' decoding's
		// (str_udeescape) is a syntax error. Each has its own hint.
		if pe.Filename == "scan.l" {
			e = pgerr.Wrap(err, "22025", "%s", msg).WithHint(`Unicode escapes must be \uXXXX or \UXXXXXXXX.`)
		} else {
			e = e.WithHint(`Unicode escapes must be \XXXX or \+XXXXXX.`)
		}
	}
	if pe.Cursorpos > 0 {
		pos := pe.Cursorpos
		if n := utf8.RuneCountInString(query); pos > n+1 {
			pos = n + 1
		}
		e = e.WithPosition(pos)
	}
	return e
}

// charPos converts a byte offset into the full query into PostgreSQL's
// 1-based character position (0 when unknown).
func charPos(query string, loc int32) int {
	if loc < 0 {
		return 0
	}
	l := int(loc)
	if l > len(query) {
		l = len(query)
	}
	return utf8.RuneCountInString(query[:l]) + 1
}

// pg15JunkText widens the quoted text of pg_query's (PostgreSQL 16)
// "trailing junk" errors to PostgreSQL 15's: 16's junk rules end at the
// first identifier character ("123a", one byte of a multibyte letter), 15's
// take the whole identifier stuck to the number ("123abc", "$1abc").
func pg15JunkText(query, msg string, cursor int) string {
	var prefix string
	for _, p := range []string{"trailing junk after numeric literal at or near \"", "trailing junk after parameter at or near \""} {
		if strings.HasPrefix(msg, p) && strings.HasSuffix(msg, "\"") {
			prefix = p
		}
	}
	if prefix == "" || cursor <= 0 {
		return msg
	}
	junk := msg[len(prefix) : len(msg)-1]
	off := 0 // byte offset of the cursor's character
	for n := 1; n < cursor && off < len(query); n++ {
		_, size := utf8.DecodeRuneInString(query[off:])
		off += size
	}
	end := off + len(junk)
	if junk == "" || end > len(query) || query[off:end] != junk || !identStart(junk[len(junk)-1]) {
		return msg
	}
	for end < len(query) && (identStart(query[end]) || query[end] >= '0' && query[end] <= '9' || query[end] == '$') {
		end++
	}
	return prefix + query[off:end] + "\""
}

// identStart is scan.l's ident_start, a byte at a time.
func identStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// checkPG15Numbers rejects the numeric literals pg_query's (PostgreSQL 16)
// scanner reads but PostgreSQL 15's does not: 1_000, 0x1F, 0o17, 0b101.
// PostgreSQL 15 fails the whole query string with its scanner's error.
func checkPG15Numbers(query string) error {
	maybe := false
	for i := 0; i+1 < len(query) && !maybe; i++ {
		c, d := query[i], query[i+1]
		maybe = c >= '0' && c <= '9' && (d == '_' || c == '0' && strings.IndexByte("xXoObB", d) >= 0) ||
			c == '$' && d >= '0' && d <= '9' // $1a: 16's scanner reads a parameter and an alias
	}
	if !maybe {
		return nil
	}
	sr, err := pg_query.Scan(query)
	if err != nil {
		return nil // the parse succeeded; leave errors to it
	}
	identChar := func(c byte) bool {
		return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
	}
	digits := func(i int) int {
		for i < len(query) && query[i] >= '0' && query[i] <= '9' {
			i++
		}
		return i
	}
	for _, tok := range sr.Tokens {
		start, end := int(tok.Start), int(tok.End)
		switch tok.Token {
		case pg_query.Token_PARAM:
			if end < len(query) && identChar(query[end]) {
				for end < len(query) && identChar(query[end]) {
					end++
				}
				return pgerr.New(pgerr.SyntaxError, "trailing junk after parameter at or near \"%s\"", query[start:end]).
					WithPosition(charPos(query, tok.Start))
			}
			continue
		case pg_query.Token_ICONST, pg_query.Token_FCONST:
		default:
			continue
		}
		text := query[start:end]
		if !strings.Contains(text, "_") && !(len(text) > 1 && text[0] == '0' && strings.IndexByte("xXoObB", text[1]) >= 0) {
			continue
		}
		// PostgreSQL 15's number (digits, fraction, exponent), then the
		// identifier characters stuck to it.
		i := digits(start)
		if i < len(query) && query[i] == '.' {
			i = digits(i + 1)
		}
		if i+1 < len(query) && (query[i] == 'e' || query[i] == 'E') {
			j := i + 1
			if query[j] == '+' || query[j] == '-' {
				j++
			}
			if k := digits(j); k > j {
				i = k
			}
		}
		for i < len(query) && identChar(query[i]) {
			i++
		}
		return pgerr.New(pgerr.SyntaxError, "trailing junk after numeric literal at or near \"%s\"", query[start:i]).
			WithPosition(charPos(query, tok.Start))
	}
	return nil
}
