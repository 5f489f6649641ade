package types

import (
	"strings"

	"github.com/joind/joind/pgerr"
)

// parseIdent is parse_ident(str, strict) (misc.c): a qualified name split
// into its identifiers, quoted ones unquoted ("" an embedded quote), bare
// ones downcased (ASCII only, as downcase_identifier in UTF-8) and never
// truncated. With strict false, text after the last identifier is ignored.
func parseIdent(qualname string, strict bool) ([]string, error) {
	invalid := func(detail string) error {
		e := pgerr.New(pgerr.InvalidParameterValue, "string is not a valid identifier: \"%s\"", qualname)
		if detail != "" {
			e = e.WithDetail("%s", detail)
		}
		return e
	}
	var parts []string
	s := qualname
	i := skipScannerSpace(s, 0)
	afterDot := false
	for {
		missing := true
		switch {
		case i < len(s) && s[i] == '"':
			var b strings.Builder
			j := i + 1
			for {
				k := strings.IndexByte(s[j:], '"')
				if k < 0 {
					return nil, invalid("String has unclosed double quotes.")
				}
				b.WriteString(s[j : j+k])
				j += k + 1
				if j < len(s) && s[j] == '"' {
					b.WriteByte('"')
					j++
					continue
				}
				break
			}
			if b.Len() == 0 {
				return nil, invalid("Quoted identifier must not be empty.")
			}
			parts = append(parts, b.String())
			i, missing = j, false
		case i < len(s) && isIdentStart(s[i]):
			j := i + 1
			for j < len(s) && isIdentCont(s[j]) {
				j++
			}
			parts = append(parts, asciiLower(s[i:j]))
			i, missing = j, false
		}
		if missing {
			switch {
			case i < len(s) && s[i] == '.':
				return nil, invalid("No valid identifier before \".\".")
			case afterDot:
				return nil, invalid("No valid identifier after \".\".")
			}
			return nil, invalid("")
		}
		i = skipScannerSpace(s, i)
		switch {
		case i < len(s) && s[i] == '.':
			afterDot = true
			i = skipScannerSpace(s, i+1)
			continue
		case i >= len(s):
			return parts, nil
		}
		if strict {
			return nil, invalid("")
		}
		return parts, nil
	}
}

// skipScannerSpace skips scanner_isspace's characters from i.
func skipScannerSpace(s string, i int) int {
	for i < len(s) && strings.IndexByte(" \t\n\r\f", s[i]) >= 0 {
		i++
	}
	return i
}

func isIdentStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

func isIdentCont(c byte) bool { return isIdentStart(c) || c >= '0' && c <= '9' || c == '$' }

func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

func registerParseIdent() {
	fn := func(_ *EvalContext, a []Value) (Value, error) {
		strict := len(a) < 2 || a[1].I != 0
		parts, err := parseIdent(a[0].S, strict)
		if err != nil {
			return Value{}, err
		}
		elems := make([]Value, len(parts))
		for i, p := range parts {
			elems[i] = Value{S: p}
		}
		return arrayValue(NewArray(elems)), nil
	}
	regFn("parse_ident", []ID{Text}, textArrayID, fn)
	regFn("parse_ident", []ID{Text, Bool}, textArrayID, fn).withParams([]string{"str", "strict"}, BoolValue(true))
}
