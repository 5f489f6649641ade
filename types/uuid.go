package types

import (
	"crypto/rand"
	"encoding/hex"

	"github.com/joind/joind/pgerr"
)

// A uuid is held as its canonical text (8-4-4-4-12 lowercase hex digits):
// output needs no work, and the bytewise order of that text is uuid_cmp's
// memcmp order of the 16 bytes.

// parseUUID is string_to_uuid: 32 hex digits, optionally in braces, with
// an optional hyphen after any group of four digits.
func parseUUID(s string) (string, error) {
	var b [16]byte
	src := s
	braces := len(src) > 0 && src[0] == '{'
	if braces {
		src = src[1:]
	}
	for i := 0; i < 16; i++ {
		if len(src) < 2 {
			return "", errUUIDSyntax(s)
		}
		hi, lo := hexValue(src[0]), hexValue(src[1])
		if hi < 0 || lo < 0 {
			return "", errUUIDSyntax(s)
		}
		b[i] = byte(hi<<4 | lo)
		src = src[2:]
		if len(src) > 0 && src[0] == '-' && i%2 == 1 && i < 15 {
			src = src[1:]
		}
	}
	if braces {
		if len(src) == 0 || src[0] != '}' {
			return "", errUUIDSyntax(s)
		}
		src = src[1:]
	}
	if src != "" {
		return "", errUUIDSyntax(s)
	}
	return UUIDFromBytes(b[:]), nil
}

func errUUIDSyntax(s string) error {
	return pgerr.New(pgerr.InvalidTextRepresentation, "invalid input syntax for type uuid: \"%s\"", s)
}

// UUIDFromBytes is the canonical text of 16 bytes (uuid_out).
func UUIDFromBytes(b []byte) string {
	var out [36]byte
	j := 0
	for i, c := range b {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			out[j] = '-'
			j++
		}
		hex.Encode(out[j:j+2], []byte{c})
		j += 2
	}
	return string(out[:])
}

// UUIDBytes is the 16 bytes of a uuid's canonical text (uuid_send).
func UUIDBytes(s string) []byte {
	out := make([]byte, 0, 16)
	for i := 0; i+1 < len(s); {
		if s[i] == '-' {
			i++
			continue
		}
		out = append(out, byte(hexValue(s[i])<<4|hexValue(s[i+1])))
		i += 2
	}
	return out
}

func registerUUIDFuncs() {
	for _, op := range cmpOps {
		regOp(op, []ID{UUID, UUID}, Bool, cmpEval(op, UUIDType))
	}
	g := regFn("gen_random_uuid", nil, UUID, func(_ *EvalContext, _ []Value) (Value, error) {
		var b [16]byte
		_, _ = rand.Read(b[:])
		b[6] = b[6]&0x0f | 0x40 // version 4
		b[8] = b[8]&0x3f | 0x80 // RFC 4122 variant
		return Value{S: UUIDFromBytes(b[:])}, nil
	})
	g.volatile = true
}
