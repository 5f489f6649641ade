package pgcatalog

import "strings"

// Catalog arrays are text in joind, in PostgreSQL's array syntax
// ("{a,b}"): the array columns of the system catalogs, and
// current_schemas().

// ArrayItems splits a one-dimensional array's text as PostgreSQL's array
// input reads it: unquoted elements are trimmed and an unquoted NULL is
// NULL (nulls[i]). ok is false for anything else (nested braces,
// dimension decorations, empty or malformed elements).
func ArrayItems(s string) (vals []string, nulls []bool, ok bool) {
	s = strings.TrimSpace(s)
	if len(s) < 2 || s[0] != '{' || s[len(s)-1] != '}' {
		return nil, nil, false
	}
	body := s[1 : len(s)-1]
	if strings.TrimSpace(body) == "" {
		return nil, nil, true
	}
	var cur strings.Builder
	inQuote, quoted := false, false
	flush := func() bool {
		v := cur.String()
		if !quoted {
			v = strings.TrimSpace(v)
			if v == "" {
				return false
			}
		}
		vals = append(vals, v)
		nulls = append(nulls, !quoted && strings.EqualFold(v, "NULL"))
		cur.Reset()
		quoted = false
		return true
	}
	for i := 0; i < len(body); i++ {
		c := body[i]
		switch {
		case c == '\\' && i+1 < len(body):
			i++
			cur.WriteByte(body[i])
		case c == '"':
			inQuote, quoted = !inQuote, true
		case inQuote:
			cur.WriteByte(c)
		case c == ',':
			if !flush() {
				return nil, nil, false
			}
		case c == '{' || c == '}':
			return nil, nil, false
		case quoted && c != ' ' && c != '\t':
			return nil, nil, false // text after a closing quote
		case quoted:
		default:
			cur.WriteByte(c)
		}
	}
	if inQuote || !flush() {
		return nil, nil, false
	}
	return vals, nulls, true
}
