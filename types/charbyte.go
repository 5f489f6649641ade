package types

import (
	"github.com/joind/joind/pgerr"
)

// "char" (OID 18), PostgreSQL's one-byte internal type (char.c): Value.S
// holds the byte itself, or "" for the zero byte, so the bytewise order of
// S is charlt's unsigned-byte order. Text I/O and the casts to and from the
// string types share charin's and charout's rules: a four-character
// backslash-octal escape is one byte, otherwise the first byte counts, and
// a byte with the high bit set prints as \ooo.

// parseInternalChar is charin (and text_char).
func parseInternalChar(s string) string {
	if len(s) == 4 && s[0] == '\\' && isOctal(s[1]) && isOctal(s[2]) && isOctal(s[3]) {
		b := byte((s[1]-'0')<<6 + (s[2]-'0')<<3 + (s[3] - '0'))
		return charByteString(b)
	}
	if s == "" {
		return ""
	}
	return charByteString(s[0])
}

func charByteString(b byte) string {
	if b == 0 {
		return ""
	}
	return string([]byte{b})
}

// appendInternalChar is charout (and char_text).
func appendInternalChar(dst []byte, s string) []byte {
	if s == "" {
		return dst
	}
	b := s[0]
	if b&0x80 != 0 {
		return append(dst, '\\', '0'+b>>6, '0'+(b>>3)&7, '0'+b&7)
	}
	return append(dst, b)
}

// charCastContext is pg_cast's rows for "char": to text implicit, to and
// from bpchar, varchar and text by assignment, to and from int4 explicit.
func charCastContext(from, to ID) byte {
	switch {
	case from == InternalChar && to == Text:
		return 'i'
	case from == InternalChar && (to == Char || to == Varchar),
		(from == Text || from == Char || from == Varchar) && to == InternalChar:
		return 'a'
	case from == InternalChar && to == Int4, from == Int4 && to == InternalChar:
		return 'e'
	}
	return 0
}

// castInternalChar is the int4 casts of "char": chartoi4 reads the byte as
// a signed char, i4tochar refuses what a signed char cannot hold.
func castInternalChar(v Value, from, to Type) (Value, bool, error) {
	switch {
	case from.ID == InternalChar && to.ID == Int4:
		var b byte
		if v.S != "" {
			b = v.S[0]
		}
		return Value{I: int64(int8(b))}, true, nil
	case from.ID == Int4 && to.ID == InternalChar:
		if v.I < -128 || v.I > 127 {
			return Value{}, true, pgerr.New(pgerr.NumericValueOutOfRange, "\"char\" out of range")
		}
		return Value{S: charByteString(byte(int8(v.I)))}, true, nil
	}
	return Value{}, false, nil
}

func registerInternalCharFuncs() {
	for _, op := range cmpOps {
		regOp(op, []ID{InternalChar, InternalChar}, Bool, cmpEval(op, InternalCharType))
	}
}
