package types

// Stored jsonb is its normalized text, which always parses and has unique
// object keys. -> and ->> by key on it need only the one member, so they
// scan the top-level object with the lexer instead of building the whole
// tree (and parsing every number as numeric) per row. The span of a member
// in normalized text is that member's own normalized printing, because
// jsonb output is compositional.

// jsonbMember is what a key lookup on stored jsonb found.
type jsonbMember struct {
	span string    // the member's normalized text
	tok  jsonToken // its first token: tokString, tokNumber, tokObjectStart, ...
	str  string    // a string member's characters
}

// jsonbObjectField looks key up among the top-level members of stored jsonb
// text s. ok is false when s is not an object (or, defensively, when it
// does not lex), found whether the key is there.
func jsonbObjectField(s, key string) (m jsonbMember, found, ok bool) {
	l := jsonLexer{in: s, deescape: true}
	if l.lex() != nil || l.tok != tokObjectStart {
		return m, false, false
	}
	for {
		if l.lex() != nil {
			return m, false, false
		}
		if l.tok == tokObjectEnd {
			return m, false, true
		}
		if l.tok != tokString {
			return m, false, false
		}
		k := l.strval
		if l.lex() != nil || l.tok != tokColon || l.lex() != nil {
			return m, false, false
		}
		start, tok, str := l.tokStart, l.tok, l.strval
		if tok == tokObjectStart || tok == tokArrayStart {
			if !l.skipNested() {
				return m, false, false
			}
		}
		if k == key {
			return jsonbMember{span: s[start:l.tokEnd], tok: tok, str: str}, true, true
		}
		if l.lex() != nil {
			return m, false, false
		}
		if l.tok == tokObjectEnd {
			return m, false, true
		}
		if l.tok != tokComma {
			return m, false, false
		}
	}
}

// skipNested lexes from an opening bracket (the current token) to its
// matching close, leaving that as the current token.
func (l *jsonLexer) skipNested() bool {
	depth := 1
	for depth > 0 {
		if l.lex() != nil {
			return false
		}
		switch l.tok {
		case tokObjectStart, tokArrayStart:
			depth++
		case tokObjectEnd, tokArrayEnd:
			depth--
		case tokEnd, tokInvalid:
			return false
		}
	}
	return true
}

// jsonbFieldByKey is jsonb -> key (text false) or ->> key (text true) on
// stored jsonb text; handled is false when the scan cannot answer and the
// caller must use the tree.
func jsonbFieldByKey(doc, key string, text bool) (v Value, handled bool) {
	m, found, ok := jsonbObjectField(doc, key)
	if !ok {
		return Value{}, false
	}
	switch {
	case !found:
		return NullValue, true
	case text && m.tok == tokString:
		return Value{S: m.str}, true
	case text && m.tok == tokNull:
		return NullValue, true
	}
	return Value{S: m.span}, true
}
