package types

import (
	"crypto/md5"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/binary"
	"encoding/hex"
	"math"
	"math/bits"
	"strings"
	"unicode/utf8"

	"github.com/joind/joind/pgerr"
)

// bytea is a string of arbitrary bytes held in Value.S. Its text forms are
// PostgreSQL's: output in hex (\x0a0b) or, with bytea_output = escape,
// printable ASCII with \ooo octal escapes; input in either form.

// appendBytea is byteaout.
func appendBytea(dst []byte, b string, escape bool) []byte {
	if !escape {
		dst = append(dst, '\\', 'x')
		return hex.AppendEncode(dst, []byte(b))
	}
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case c == '\\':
			dst = append(dst, '\\', '\\')
		case c < 0x20 || c > 0x7e:
			dst = append(dst, '\\', '0'+c>>6, '0'+(c>>3)&7, '0'+c&7)
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

// parseBytea is byteain: \x followed by hex digit pairs, or the escape form.
func parseBytea(s string) (string, error) {
	if strings.HasPrefix(s, `\x`) {
		return hexDecode(s[2:])
	}
	return escapeDecode(s)
}

func hexValue(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// hexDecode is hex_decode: pairs of hex digits, blanks between pairs.
func hexDecode(s string) (string, error) {
	out := make([]byte, 0, len(s)/2)
	for i := 0; i < len(s); {
		c := s[i]
		if c == ' ' || c == '\n' || c == '\t' || c == '\r' {
			i++
			continue
		}
		hi := hexValue(c)
		if hi < 0 {
			return "", errHexDigit(s[i:])
		}
		i++
		if i >= len(s) {
			return "", pgerr.New(pgerr.InvalidParameterValue, "invalid hexadecimal data: odd number of digits")
		}
		lo := hexValue(s[i])
		if lo < 0 {
			return "", errHexDigit(s[i:])
		}
		i++
		out = append(out, byte(hi<<4|lo))
	}
	return string(out), nil
}

func errHexDigit(rest string) error {
	_, n := utf8.DecodeRuneInString(rest)
	return pgerr.New(pgerr.InvalidParameterValue, "invalid hexadecimal digit: \"%s\"", rest[:n])
}

func isOctal(c byte) bool { return c >= '0' && c <= '7' }

// escapeDecode is byteain's (and decode(..., 'escape')'s) escape form: \\
// is a backslash, \ooo (first digit 0-3) an octal byte, anything else itself.
func escapeDecode(s string) (string, error) {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); {
		if s[i] != '\\' {
			out = append(out, s[i])
			i++
			continue
		}
		switch {
		case i+3 < len(s)+0 && s[i+1] >= '0' && s[i+1] <= '3' && isOctal(s[i+2]) && isOctal(s[i+3]):
			out = append(out, (s[i+1]-'0')<<6|(s[i+2]-'0')<<3|(s[i+3]-'0'))
			i += 4
		case i+1 < len(s) && s[i+1] == '\\':
			out = append(out, '\\')
			i += 2
		default:
			return "", pgerr.New(pgerr.InvalidTextRepresentation, "invalid input syntax for type bytea")
		}
	}
	return string(out), nil
}

// escapeEncode is encode(..., 'escape'): NUL and bytes with the high bit
// set as \ooo, a backslash doubled.
func escapeEncode(b string) string {
	var out []byte
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case c == 0 || c >= 0x80:
			out = append(out, '\\', '0'+c>>6, '0'+(c>>3)&7, '0'+c&7)
		case c == '\\':
			out = append(out, '\\', '\\')
		default:
			out = append(out, c)
		}
	}
	return string(out)
}

const base64Chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

// base64Encode is pg_base64_encode: a newline after every 76 characters.
func base64Encode(b string) string {
	var out []byte
	lineStart := 0
	buf, pos := uint32(0), 2
	for i := 0; i < len(b); i++ {
		buf |= uint32(b[i]) << (uint(pos) << 3)
		pos--
		if pos < 0 {
			out = append(out, base64Chars[buf>>18&0x3f], base64Chars[buf>>12&0x3f], base64Chars[buf>>6&0x3f], base64Chars[buf&0x3f])
			pos, buf = 2, 0
		}
		if len(out)-lineStart >= 76 {
			out = append(out, '\n')
			lineStart = len(out)
		}
	}
	if pos != 2 {
		out = append(out, base64Chars[buf>>18&0x3f], base64Chars[buf>>12&0x3f])
		if pos == 0 {
			out = append(out, base64Chars[buf>>6&0x3f])
		} else {
			out = append(out, '=')
		}
		out = append(out, '=')
	}
	return string(out)
}

// base64Decode is pg_base64_decode: blanks ignored, '=' padding.
func base64Decode(s string) (string, error) {
	var out []byte
	buf, pos, end := uint32(0), 0, 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' {
			continue
		}
		var v int
		if c == '=' {
			if end == 0 {
				switch pos {
				case 2:
					end = 1
				case 3:
					end = 2
				default:
					return "", pgerr.New(pgerr.InvalidParameterValue, "unexpected \"=\" while decoding base64 sequence")
				}
			}
		} else {
			v = strings.IndexByte(base64Chars, c)
			if v < 0 {
				_, n := utf8.DecodeRuneInString(s[i:])
				return "", pgerr.New(pgerr.InvalidParameterValue, "invalid symbol \"%s\" found while decoding base64 sequence", s[i:i+n])
			}
		}
		buf = buf<<6 + uint32(v)
		pos++
		if pos == 4 {
			out = append(out, byte(buf>>16))
			if end == 0 || end > 1 {
				out = append(out, byte(buf>>8))
			}
			if end == 0 || end > 2 {
				out = append(out, byte(buf))
			}
			buf, pos = 0, 0
		}
	}
	if pos != 0 {
		return "", pgerr.New(pgerr.InvalidParameterValue, "invalid base64 end sequence").
			WithHint("Input data is missing padding, is truncated, or is otherwise corrupted.")
	}
	return string(out), nil
}

func errUnknownEncoding(name string) error {
	return pgerr.New(pgerr.InvalidParameterValue, "unrecognized encoding: \"%s\"", name)
}

// conversionEncoding is the encoding convert_to/convert_from name, by
// pg_char_to_encoding's normalisation (case and punctuation ignored):
// "utf8" (no conversion, also sql_ascii) or "latin1"; the other encodings
// PostgreSQL has are not supported.
func conversionEncoding(name, role string) (string, error) {
	var b strings.Builder
	for _, r := range strings.ToLower(name) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	switch b.String() {
	case "utf8", "unicode", "sqlascii":
		return "utf8", nil
	case "latin1", "iso88591":
		return "latin1", nil
	}
	for _, known := range []string{"latin2", "latin3", "latin4", "latin5", "latin6", "latin7", "latin8", "latin9", "latin10",
		"win1250", "win1251", "win1252", "win866", "win874", "koi8r", "koi8u", "eucjp", "euccn", "euckr", "euctw",
		"sjis", "big5", "gbk", "uhc", "gb18030", "johab", "mulecinternal", "iso88595", "iso88596", "iso88597", "iso88598"} {
		if b.String() == known {
			return "", pgerr.New(pgerr.FeatureNotSupported, "conversion between UTF8 and %s is not supported", strings.ToUpper(name))
		}
	}
	return "", pgerr.New(pgerr.InvalidParameterValue, "invalid %s encoding name \"%s\"", role, name)
}

// toLatin1 is utf8_to_iso8859_1.
func toLatin1(s string) (string, error) {
	out := make([]byte, 0, len(s))
	for i, r := range s {
		if r > 0xff {
			_, n := utf8.DecodeRuneInString(s[i:])
			var seq []string
			for _, c := range []byte(s[i : i+n]) {
				seq = append(seq, "0x"+hex.EncodeToString([]byte{c}))
			}
			return "", pgerr.New("22P05", "character with byte sequence %s in encoding \"UTF8\" has no equivalent in encoding \"LATIN1\"", strings.Join(seq, " "))
		}
		out = append(out, byte(r))
	}
	return string(out), nil
}

// fromLatin1 is iso8859_1_to_utf8 (a NUL byte is refused, as there).
func fromLatin1(s string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == 0 {
			return "", pgerr.New(pgerr.CharacterNotInRepertoire, "invalid byte sequence for encoding \"LATIN1\": 0x00")
		}
		b.WriteRune(rune(s[i]))
	}
	return b.String(), nil
}

func byteaIndexError(n int64, size int64) error {
	return pgerr.New("2202E", "index %d out of valid range, 0..%d", n, size-1)
}

// registerSendFuncs registers the binary send functions of the fixed
// layouts (float4send(real) → bytea ...), which the regression files use
// to show bit patterns.
func registerSendFuncs() {
	send := func(name string, id ID, enc func(Value) []byte) {
		regFn(name, []ID{id}, Bytea, func(_ *EvalContext, a []Value) (Value, error) { return Value{S: string(enc(a[0]))}, nil })
	}
	send("int2send", Int2, func(v Value) []byte { return binary.BigEndian.AppendUint16(nil, uint16(v.I)) })
	send("int4send", Int4, func(v Value) []byte { return binary.BigEndian.AppendUint32(nil, uint32(v.I)) })
	send("int8send", Int8, func(v Value) []byte { return binary.BigEndian.AppendUint64(nil, uint64(v.I)) })
	send("float4send", Float4, func(v Value) []byte {
		return binary.BigEndian.AppendUint32(nil, math.Float32bits(float32(v.F)))
	})
	send("float8send", Float8, func(v Value) []byte {
		if math.IsNaN(v.F) {
			return binary.BigEndian.AppendUint64(nil, 0x7ff8000000000000) // float8in's NaN (Go's has a low bit set)
		}
		return binary.BigEndian.AppendUint64(nil, math.Float64bits(v.F))
	})
	send("boolsend", Bool, func(v Value) []byte { return []byte{byte(v.I)} })
	send("textsend", Text, func(v Value) []byte { return []byte(v.S) })
	send("byteasend", Bytea, func(v Value) []byte { return []byte(v.S) })
	send("uuid_send", UUID, func(v Value) []byte { return UUIDBytes(v.S) })
}

func registerByteaFuncs() {
	registerSendFuncs()
	registerByteaMore()
	for _, op := range cmpOps {
		regOp(op, []ID{Bytea, Bytea}, Bool, cmpEval(op, ByteaType))
	}
	regOp("||", []ID{Bytea, Bytea}, Bytea, func(_ *EvalContext, a []Value) (Value, error) {
		return Value{S: a[0].S + a[1].S}, nil
	})
	for _, op := range []struct {
		name string
		neg  bool
	}{{"~~", false}, {"!~~", true}} {
		neg := op.neg
		regOp(op.name, []ID{Bytea, Bytea}, Bool, func(_ *EvalContext, a []Value) (Value, error) {
			m, err := likeMatch(a[0].S, a[1].S, false)
			return BoolValue(m != neg), err
		})
	}
	octets := func(_ *EvalContext, a []Value) (Value, error) { return Value{I: int64(len(a[0].S))}, nil }
	regFn("length", []ID{Bytea}, Int4, octets)
	regFn("octet_length", []ID{Bytea}, Int4, octets)
	regFn("bit_length", []ID{Bytea}, Int4, func(_ *EvalContext, a []Value) (Value, error) { return Value{I: 8 * int64(len(a[0].S))}, nil })
	for _, n := range []string{"substr", "substring"} {
		regFn(n, []ID{Bytea, Int4}, Bytea, func(_ *EvalContext, a []Value) (Value, error) {
			s, err := substrBytes(a[0].S, a[1].I, 0, false)
			return Value{S: s}, err
		})
		regFn(n, []ID{Bytea, Int4, Int4}, Bytea, func(_ *EvalContext, a []Value) (Value, error) {
			s, err := substrBytes(a[0].S, a[1].I, a[2].I, true)
			return Value{S: s}, err
		})
	}
	regFn("position", []ID{Bytea, Bytea}, Int4, func(_ *EvalContext, a []Value) (Value, error) {
		return Value{I: int64(strings.Index(a[0].S, a[1].S) + 1)}, nil
	})
	overlay := func(_ *EvalContext, a []Value) (Value, error) {
		n := int64(len(a[1].S))
		if len(a) > 3 {
			n = a[3].I
		}
		s, err := overlayBytes(a[0].S, a[1].S, a[2].I, n)
		return Value{S: s}, err
	}
	regFn("overlay", []ID{Bytea, Bytea, Int4}, Bytea, overlay)
	regFn("overlay", []ID{Bytea, Bytea, Int4, Int4}, Bytea, overlay)
	regFn("get_byte", []ID{Bytea, Int4}, Int4, func(_ *EvalContext, a []Value) (Value, error) {
		if a[1].I < 0 || a[1].I >= int64(len(a[0].S)) {
			return Value{}, byteaIndexError(a[1].I, int64(len(a[0].S)))
		}
		return Value{I: int64(a[0].S[a[1].I])}, nil
	})
	regFn("set_byte", []ID{Bytea, Int4, Int4}, Bytea, func(_ *EvalContext, a []Value) (Value, error) {
		if a[1].I < 0 || a[1].I >= int64(len(a[0].S)) {
			return Value{}, byteaIndexError(a[1].I, int64(len(a[0].S)))
		}
		b := []byte(a[0].S)
		b[a[1].I] = byte(a[2].I)
		return Value{S: string(b)}, nil
	})
	regFn("get_bit", []ID{Bytea, Int8}, Int4, func(_ *EvalContext, a []Value) (Value, error) {
		bits := 8 * int64(len(a[0].S))
		if a[1].I < 0 || a[1].I >= bits {
			return Value{}, byteaIndexError(a[1].I, bits)
		}
		return Value{I: int64(a[0].S[a[1].I/8]>>(a[1].I%8)) & 1}, nil
	})
	regFn("set_bit", []ID{Bytea, Int8, Int4}, Bytea, func(_ *EvalContext, a []Value) (Value, error) {
		bits := 8 * int64(len(a[0].S))
		if a[1].I < 0 || a[1].I >= bits {
			return Value{}, byteaIndexError(a[1].I, bits)
		}
		if a[2].I != 0 && a[2].I != 1 {
			return Value{}, pgerr.New(pgerr.InvalidParameterValue, "new bit must be 0 or 1")
		}
		b := []byte(a[0].S)
		mask := byte(1) << (a[1].I % 8)
		if a[2].I == 1 {
			b[a[1].I/8] |= mask
		} else {
			b[a[1].I/8] &^= mask
		}
		return Value{S: string(b)}, nil
	})
	for _, t := range []struct {
		name        string
		left, right bool
	}{{"btrim", true, true}, {"ltrim", true, false}, {"rtrim", false, true}} {
		t := t
		regFn(t.name, []ID{Bytea, Bytea}, Bytea, func(_ *EvalContext, a []Value) (Value, error) {
			return Value{S: trimBytes(a[0].S, a[1].S, t.left, t.right)}, nil
		})
	}
	regFn("md5", []ID{Bytea}, Text, func(_ *EvalContext, a []Value) (Value, error) {
		sum := md5.Sum([]byte(a[0].S))
		return Value{S: hex.EncodeToString(sum[:])}, nil
	})
	for _, h := range []struct {
		name string
		sum  func([]byte) []byte
	}{
		{"sha224", func(b []byte) []byte { s := sha256.Sum224(b); return s[:] }},
		{"sha256", func(b []byte) []byte { s := sha256.Sum256(b); return s[:] }},
		{"sha384", func(b []byte) []byte { s := sha512.Sum384(b); return s[:] }},
		{"sha512", func(b []byte) []byte { s := sha512.Sum512(b); return s[:] }},
	} {
		h := h
		regFn(h.name, []ID{Bytea}, Bytea, func(_ *EvalContext, a []Value) (Value, error) {
			return Value{S: string(h.sum([]byte(a[0].S)))}, nil
		})
	}
	regFn("encode", []ID{Bytea, Text}, Text, func(_ *EvalContext, a []Value) (Value, error) {
		switch strings.ToLower(a[1].S) {
		case "hex":
			return Value{S: hex.EncodeToString([]byte(a[0].S))}, nil
		case "base64":
			return Value{S: base64Encode(a[0].S)}, nil
		case "escape":
			return Value{S: escapeEncode(a[0].S)}, nil
		}
		return Value{}, errUnknownEncoding(a[1].S)
	})
	regFn("decode", []ID{Text, Text}, Bytea, func(_ *EvalContext, a []Value) (Value, error) {
		var s string
		var err error
		switch strings.ToLower(a[1].S) {
		case "hex":
			s, err = hexDecode(a[0].S)
		case "base64":
			s, err = base64Decode(a[0].S)
		case "escape":
			s, err = escapeDecode(a[0].S)
		default:
			err = errUnknownEncoding(a[1].S)
		}
		return Value{S: s}, err
	})
	regFn("convert_to", []ID{Text, Name}, Bytea, func(_ *EvalContext, a []Value) (Value, error) {
		enc, err := conversionEncoding(a[1].S, "destination")
		if err != nil || enc == "utf8" {
			return Value{S: a[0].S}, err
		}
		s, err := toLatin1(a[0].S)
		return Value{S: s}, err
	})
	regFn("convert_from", []ID{Bytea, Name}, Text, func(_ *EvalContext, a []Value) (Value, error) {
		enc, err := conversionEncoding(a[1].S, "source")
		if err != nil {
			return Value{}, err
		}
		if enc == "latin1" {
			s, err := fromLatin1(a[0].S)
			return Value{S: s}, err
		}
		// pg_verifymbstr: the bytes must be valid UTF8
		return Value{S: a[0].S}, pgerr.CheckUTF8String(a[0].S)
	})
}

// substrBytes is bytea_substr: 1-based start, optional length.
func substrBytes(s string, start, n int64, hasLen bool) (string, error) {
	if hasLen && n < 0 {
		return "", pgerr.New("22011", "negative substring length not allowed")
	}
	end := int64(len(s)) + 1
	if hasLen {
		end = start + n
		if start > 0 && end < start { // overflow
			end = int64(len(s)) + 1
		}
	}
	start = max(start, 1)
	end = min(end, int64(len(s))+1)
	if start >= end {
		return "", nil
	}
	return s[start-1 : end-1], nil
}

// overlayBytes is byteaoverlay: s with n bytes from position from replaced.
func overlayBytes(s, repl string, from, n int64) (string, error) {
	if from < 1 {
		// bytea_substr(s, 1, from - 1) refuses it
		return "", pgerr.New("22011", "negative substring length not allowed")
	}
	head, err := substrBytes(s, 1, from-1, true)
	if err != nil {
		return "", err
	}
	tail, _ := substrBytes(s, from+n, 0, false)
	return head + repl + tail, nil
}

// trimBytes is byteatrim/bytealtrim/byteartrim: drop bytes in set.
func trimBytes(s, set string, left, right bool) string {
	in := func(c byte) bool { return strings.IndexByte(set, c) >= 0 }
	i, j := 0, len(s)
	if left {
		for i < j && in(s[i]) {
			i++
		}
	}
	if right {
		for j > i && in(s[j-1]) {
			j--
		}
	}
	return s[i:j]
}

// likeEscapeBytes is like_escape_bytea: LikeEscape over bytes.
func likeEscapeBytes(pattern, esc string) (string, error) {
	if len(esc) > 1 {
		return "", pgerr.New(pgerr.InvalidEscapeSequence, "invalid escape string").
			WithHint("Escape string must be empty or one character.")
	}
	if esc == `\` {
		return pattern, nil
	}
	var b []byte
	afterEsc := false
	for i := 0; i < len(pattern); i++ {
		c := pattern[i]
		switch {
		case afterEsc:
			b = append(b, '\\', c)
			afterEsc = false
		case esc != "" && c == esc[0]:
			afterEsc = true
		case c == '\\':
			b = append(b, '\\', '\\')
		default:
			b = append(b, c)
		}
	}
	if afterEsc {
		return "", pgerr.New(pgerr.InvalidEscapeSequence, "LIKE pattern must not end with escape character")
	}
	return string(b), nil
}

func registerByteaMore() {
	regFn("like_escape", []ID{Bytea, Bytea}, Bytea, func(_ *EvalContext, a []Value) (Value, error) {
		s, err := likeEscapeBytes(a[0].S, a[1].S)
		return Value{S: s}, err
	})
	regFn("bit_count", []ID{Bytea}, Int8, func(_ *EvalContext, a []Value) (Value, error) {
		n := 0
		for i := 0; i < len(a[0].S); i++ {
			n += bits.OnesCount8(a[0].S[i])
		}
		return Value{I: int64(n)}, nil
	})
}
