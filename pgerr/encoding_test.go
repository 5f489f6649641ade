package pgerr

import "testing"

// The messages are PostgreSQL 15's for the same bytes in a query string.
func TestCheckUTF8(t *testing.T) {
	for in, want := range map[string]string{
		"plain":              "",
		"héllo €𝄞":           "",
		"a\xff":              `invalid byte sequence for encoding "UTF8": 0xff`,
		"a\x00b":             `invalid byte sequence for encoding "UTF8": 0x00`,
		"'\xe2\x82'":         `invalid byte sequence for encoding "UTF8": 0xe2 0x82 0x27`,
		"'a\xc3'":            `invalid byte sequence for encoding "UTF8": 0xc3 0x27`,
		"\xed\xa0\x80":       `invalid byte sequence for encoding "UTF8": 0xed 0xa0 0x80`, // a surrogate
		"x\xe2\x82":          `invalid byte sequence for encoding "UTF8": 0xe2 0x82`,      // cut short at the end
		"\xf4\x90\x80\x80 z": `invalid byte sequence for encoding "UTF8": 0xf4 0x90 0x80 0x80`,
	} {
		err := CheckUTF8([]byte(in))
		if err2 := CheckUTF8String(in); (err == nil) != (err2 == nil) {
			t.Errorf("%q: CheckUTF8 %v, CheckUTF8String %v", in, err, err2)
		}
		got := ""
		if err != nil {
			if Code(err) != CharacterNotInRepertoire {
				t.Errorf("%q: code %s", in, Code(err))
			}
			got = err.Error()
		}
		if got != want {
			t.Errorf("%q: got %q, want %q", in, got, want)
		}
	}
}
