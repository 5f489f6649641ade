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
	tree, err := pg_query.Parse(query)
	if err != nil {
		return nil, convertParseError(query, err)
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
	e := pgerr.Wrap(err, code, "%s", msg)
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
