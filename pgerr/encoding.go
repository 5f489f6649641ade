package pgerr

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// CharacterNotInRepertoire is the SQLSTATE of text that is not valid in the
// server encoding.
const CharacterNotInRepertoire = "22021"

// CheckUTF8 is PostgreSQL's check of text arriving from a client in UTF8
// (pg_verify_mbstr): invalid UTF-8 or a NUL byte is 22021, naming the bytes
// of the first bad character as report_invalid_encoding does. Every layer
// that takes text from the wire (query strings, parameters, COPY data) uses
// it, so they all refuse the same bytes with the same words.
func CheckUTF8(b []byte) error {
	if i := InvalidUTF8At(b); i >= 0 {
		return InvalidEncoding(b[i:])
	}
	return nil
}

// CheckUTF8String is CheckUTF8 of a string.
func CheckUTF8String(s string) error {
	if utf8.ValidString(s) && strings.IndexByte(s, 0) < 0 {
		return nil // the common case, without a copy
	}
	return CheckUTF8([]byte(s))
}

// InvalidUTF8At returns the offset of the first byte of b that starts an
// invalid UTF-8 sequence or is NUL, or -1 if there is none.
func InvalidUTF8At(b []byte) int {
	for i := 0; i < len(b); {
		if c := b[i]; c != 0 && c < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if b[i] == 0 || r == utf8.RuneError && size == 1 {
			return i
		}
		i += size
	}
	return -1
}

// InvalidEncoding is the 22021 error for the bad character at the start of
// b: up to as many bytes as its first byte announces (pg_utf_mblen).
func InvalidEncoding(b []byte) error {
	n := 1
	if len(b) > 0 {
		switch c := b[0]; {
		case c&0xe0 == 0xc0:
			n = 2
		case c&0xf0 == 0xe0:
			n = 3
		case c&0xf8 == 0xf0:
			n = 4
		}
	}
	n = min(n, len(b))
	hex := make([]string, n)
	for j := range hex {
		hex[j] = fmt.Sprintf("0x%02x", b[j])
	}
	return New(CharacterNotInRepertoire, "invalid byte sequence for encoding \"UTF8\": %s", strings.Join(hex, " "))
}
