package types

// jsonb input that is already jsonb_out's text. jsonb_in builds, normalizes
// and prints a tree; when the input is exactly what that would print, the
// print is the input, so one lexer pass that checks the canonical form
// (canonicalJSONB) replaces the three. Canonical means: no white space but
// one blank after each ',' and ':'; object keys strictly increasing in
// jsonb's key order (by length, then bytes: so no key repeats); numbers as
// numeric_out prints them (no exponent, no negative zero); strings escaped
// as escape_json escapes them. Anything else, including every error, takes
// the tree path.

// canonicalMaxDepth bounds the nesting the fast path follows; deeper input
// takes the tree path (and its stack-depth error).
const canonicalMaxDepth = 1000

// canonicalJSONB reports whether s is the jsonb_out text of a valid jsonb
// value.
func canonicalJSONB(s string) bool {
	c := canonScan{l: jsonLexer{in: s, deescape: true}}
	if c.l.lex() != nil || c.l.tokStart != 0 {
		return false
	}
	return c.value(0) && c.l.tok == tokEnd
}

type canonScan struct{ l jsonLexer }

// next lexes the following token, which must come after exactly gap.
func (c *canonScan) next(gap string) bool {
	prev := c.l.tokEnd
	if c.l.lex() != nil {
		return false
	}
	return c.l.in[prev:c.l.tokStart] == gap
}

// value checks the value at the current token and lexes the token after
// it (which must follow with no white space).
func (c *canonScan) value(depth int) bool {
	switch c.l.tok {
	case tokString:
		return canonicalJSONString(c.l.token()) && c.next("")
	case tokNumber:
		return canonicalJSONNumber(c.l.token()) && c.next("")
	case tokTrue, tokFalse, tokNull:
		return c.next("")
	case tokArrayStart:
		if depth >= canonicalMaxDepth || !c.next("") {
			return false
		}
		if c.l.tok == tokArrayEnd {
			return c.next("")
		}
		for {
			if !c.value(depth + 1) {
				return false
			}
			switch c.l.tok {
			case tokArrayEnd:
				return c.next("")
			case tokComma:
				if !c.next(" ") {
					return false
				}
			default:
				return false
			}
		}
	case tokObjectStart:
		if depth >= canonicalMaxDepth || !c.next("") {
			return false
		}
		if c.l.tok == tokObjectEnd {
			return c.next("")
		}
		prevKey, first := "", true
		for {
			if c.l.tok != tokString || !canonicalJSONString(c.l.token()) {
				return false
			}
			key := c.l.strval
			if !first && compareJSONBKeys(prevKey, key) >= 0 {
				return false
			}
			prevKey, first = key, false
			if !c.next("") || c.l.tok != tokColon || !c.next(" ") || !c.value(depth+1) {
				return false
			}
			switch c.l.tok {
			case tokObjectEnd:
				return c.next("")
			case tokComma:
				if !c.next(" ") {
					return false
				}
			default:
				return false
			}
		}
	}
	return false
}

// canonicalJSONString reports whether the string token tok (quotes
// included, valid JSON) is escape_json's text of its characters.
func canonicalJSONString(tok string) bool {
	for i := 1; i < len(tok)-1; i++ {
		if tok[i] != '\\' {
			continue
		}
		switch tok[i+1] {
		case '"', '\\', 'b', 'f', 'n', 'r', 't':
			i++
		case 'u':
			// escape_json writes \u00xx (lower-case hex) for the control
			// characters without a short escape, and nothing else.
			if i+5 >= len(tok) || tok[i+2] != '0' || tok[i+3] != '0' {
				return false
			}
			h, l := hexValue(tok[i+4]), hexValue(tok[i+5])
			if h < 0 || l < 0 {
				return false
			}
			ch := byte(h<<4 | l)
			if ch >= 0x20 || ch == '\b' || ch == '\f' || ch == '\n' || ch == '\r' || ch == '\t' || hex2(ch) != tok[i+4:i+6] {
				return false
			}
			i += 5
		default:
			return false
		}
	}
	return true
}

// canonicalJSONNumber reports whether the number token tok (valid JSON)
// is numeric_out's text of its value: no exponent and no negative zero
// (numeric keeps the written scale, so trailing zeros stay).
func canonicalJSONNumber(tok string) bool {
	if len(tok) > 1000 {
		return false // numeric_in's limits are the tree path's to check
	}
	neg := tok[0] == '-'
	zero := true
	for i := 0; i < len(tok); i++ {
		switch c := tok[i]; {
		case c == 'e' || c == 'E':
			return false
		case c >= '1' && c <= '9':
			zero = false
		}
	}
	return !(neg && zero)
}
