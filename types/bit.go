package types

import (
	"math"
	"strings"
	"unicode/utf8"

	"github.com/joind/joind/pgerr"
)

// bit(n) and bit varying(n), as PostgreSQL's varbit.c.
//
// A bit string is held in Value.S as its text: one '0' or '1' byte per bit.
// That is its output with no work, its length is len(S), and the bytewise
// order of that text is bit_cmp's (memcmp of the zero-padded bytes, then the
// shorter string first), so sorting, hashing, grouping and joins treat bit
// columns as the string columns they are stored as (Arrow String).
//
// The typmod of bit(n) and bit varying(n) is n itself (no +4, unlike
// varchar), as PostgreSQL's bittypmodin.

const (
	// varbitMaxLen is VARBITMAXLEN, the most bits a bit string may have.
	varbitMaxLen = math.MaxInt32 - 8 + 1
	// maxBitTypmod is MaxAttrSize * BITS_PER_BYTE, the largest n of bit(n).
	maxBitTypmod                = 10485760 * 8
	errStringDataLengthMismatch = "22026"
	errSubstringError           = "22011"
)

// bitTypmodIn is anybit_typmodin: typename is "bit" or "varbit".
func bitTypmodIn(typmods []int32, typename string) (int32, error) {
	if len(typmods) != 1 {
		return 0, pgerr.New(pgerr.InvalidParameterValue, "invalid type modifier")
	}
	n := typmods[0]
	if n < 1 {
		return 0, pgerr.New(pgerr.InvalidParameterValue, "length for type %s must be at least 1", typename)
	}
	if n > maxBitTypmod {
		return 0, pgerr.New(pgerr.InvalidParameterValue, "length for type %s cannot exceed %d", typename, maxBitTypmod)
	}
	return n, nil
}

// BitOf is bit(n); VarBitOf is bit varying(n).
func BitOf(n int) Type    { return Type{ID: Bit, Typmod: int32(n)} }
func VarBitOf(n int) Type { return Type{ID: VarBit, Typmod: int32(n)} }

// parseBitString is bit_in (varying false) and varbit_in (varying true): a
// string of binary digits, optionally after a 'b', or of hexadecimal digits
// after an 'x'. A typmod > 0 is bit(n)'s exact length or bit varying(n)'s
// maximum, checked before the digits, as PostgreSQL does.
func parseBitString(in string, typmod int32, varying bool) (string, error) {
	hex := false
	digits := in
	if in != "" {
		switch in[0] {
		case 'b', 'B':
			digits = in[1:]
		case 'x', 'X':
			hex = true
			digits = in[1:]
		}
	}
	bitlen := len(digits)
	if hex {
		if len(digits) > varbitMaxLen/4 {
			return "", pgerr.New(pgerr.ProgramLimitExceeded, "bit string length exceeds the maximum allowed (%d)", varbitMaxLen)
		}
		bitlen = 4 * len(digits)
	}
	if typmod > 0 {
		if !varying && bitlen != int(typmod) {
			return "", errBitLength(bitlen, typmod)
		}
		if varying && bitlen > int(typmod) {
			return "", errVarbitTooLong(typmod)
		}
	}
	if !hex {
		for i := 0; i < len(digits); i++ {
			if c := digits[i]; c != '0' && c != '1' {
				return "", pgerr.New(pgerr.InvalidTextRepresentation, "\"%s\" is not a valid binary digit", firstChar(digits[i:]))
			}
		}
		return digits, nil
	}
	var b strings.Builder
	b.Grow(bitlen)
	for i := 0; i < len(digits); i++ {
		v := hexValue(digits[i])
		if v < 0 {
			return "", pgerr.New(pgerr.InvalidTextRepresentation, "\"%s\" is not a valid hexadecimal digit", firstChar(digits[i:]))
		}
		for k := 3; k >= 0; k-- {
			b.WriteByte('0' + byte(v>>k&1))
		}
	}
	return b.String(), nil
}

// firstChar is the first (UTF-8) character of s, as pg_mblen quotes it.
func firstChar(s string) string {
	_, n := utf8.DecodeRuneInString(s)
	return s[:n]
}

func errBitLength(bitlen int, typmod int32) error {
	return pgerr.New(errStringDataLengthMismatch, "bit string length %d does not match type bit(%d)", bitlen, typmod)
}

func errVarbitTooLong(typmod int32) error {
	return pgerr.New(pgerr.StringDataRightTrunc, "bit string too long for type bit varying(%d)", typmod)
}

// coerceBit is the length coercion bit(bit, int, bool) to bit(n) and
// varbit(varbit, int, bool) to bit varying(n): an implicit or assignment
// cast fails on a wrong length, an explicit one zero-pads or truncates.
func coerceBit(s string, to Type, explicit bool) (string, error) {
	n := int(to.Typmod)
	if n <= 0 {
		return s, nil
	}
	if to.ID == VarBit {
		if n >= len(s) {
			return s, nil
		}
		if !explicit {
			return "", errVarbitTooLong(to.Typmod)
		}
		return s[:n], nil
	}
	if n == len(s) {
		return s, nil
	}
	if !explicit {
		return "", errBitLength(len(s), to.Typmod)
	}
	if n < len(s) {
		return s[:n], nil
	}
	return s + strings.Repeat("0", n-len(s)), nil
}

// castBit is the casts of bit strings: between bit and bit varying
// (binary-coercible, then the length coercion), int4/int8 to bit(n)
// (bitfromint4/8) and bit to int4/int8 (bittoint4/8). ok is false when
// neither side is a bit string.
func castBit(v Value, from, to Type, explicit bool) (Value, bool, error) {
	fromBit := from.ID == Bit || from.ID == VarBit
	toBit := to.ID == Bit || to.ID == VarBit
	switch {
	case fromBit && toBit:
		s, err := coerceBit(v.S, to, explicit)
		return Value{S: s}, true, err
	case toBit && to.ID == Bit && (from.ID == Int4 || from.ID == Int8):
		width := 32
		if from.ID == Int8 {
			width = 64
		}
		return Value{S: bitFromInt(v.I, width, to.Typmod)}, true, nil
	case from.ID == Bit && (to.ID == Int4 || to.ID == Int8):
		i, err := bitToInt(v.S, to.ID)
		return Value{I: i}, true, err
	}
	return Value{}, false, nil
}

// bitFromInt is bitfromint4/bitfromint8: the low n bits of a (n = typmod,
// 1 when none), sign-extended beyond the integer's width.
func bitFromInt(a int64, width int, typmod int32) string {
	n := int(typmod)
	if n <= 0 || n > varbitMaxLen {
		n = 1
	}
	out := make([]byte, n)
	for i := range out {
		pos := n - 1 - i // bit position from the least significant end
		bit := a < 0     // beyond the width: the sign
		if pos < width {
			bit = a>>uint(pos)&1 != 0
		}
		out[i] = '0'
		if bit {
			out[i] = '1'
		}
	}
	return string(out)
}

// bitToInt is bittoint4/bittoint8: the bits as an unsigned number of the
// integer's width, which must hold them.
func bitToInt(s string, id ID) (int64, error) {
	width := 32
	if id == Int8 {
		width = 64
	}
	if len(s) > width {
		return 0, errIntOutOfRange(id)
	}
	var u uint64
	for i := 0; i < len(s); i++ {
		u = u<<1 | uint64(s[i]-'0')
	}
	if id == Int4 {
		return int64(int32(uint32(u))), nil
	}
	return int64(u), nil
}

// BitBytes is bit_send/varbit_send's payload after the bit count: the bits,
// most significant first, zero-padded to whole bytes.
func BitBytes(s string) []byte {
	out := make([]byte, (len(s)+7)/8)
	for i := 0; i < len(s); i++ {
		if s[i] == '1' {
			out[i/8] |= 0x80 >> uint(i%8)
		}
	}
	return out
}

// BitFromBytes is bit_recv/varbit_recv: nbits bits from b (the pad bits
// of the last byte are ignored). typmod is the target's (bit(n): exact
// length, bit varying(n): maximum; <= 0: none).
func BitFromBytes(nbits int32, b []byte, t Type) (Value, error) {
	if nbits < 0 || nbits > varbitMaxLen {
		return Value{}, pgerr.New("22P03", "invalid length in external bit string")
	}
	if t.Typmod > 0 {
		if t.ID == Bit && nbits != t.Typmod {
			return Value{}, errBitLength(int(nbits), t.Typmod)
		}
		if t.ID == VarBit && nbits > t.Typmod {
			return Value{}, errVarbitTooLong(t.Typmod)
		}
	}
	if int64(len(b)) < (int64(nbits)+7)/8 {
		return Value{}, pgerr.New(pgerr.ProtocolViolation, "insufficient data left in message")
	}
	out := make([]byte, nbits)
	for i := range out {
		out[i] = '0' + b[i/8]>>uint(7-i%8)&1
	}
	return Value{S: string(out)}, nil
}

func bitBinary(op byte, a, b string) (string, error) {
	if len(a) != len(b) {
		name := map[byte]string{'&': "AND", '|': "OR", '#': "XOR"}[op]
		return "", pgerr.New(errStringDataLengthMismatch, "cannot %s bit strings of different sizes", name)
	}
	out := make([]byte, len(a))
	for i := range out {
		x, y := a[i] == '1', b[i] == '1'
		var r bool
		switch op {
		case '&':
			r = x && y
		case '|':
			r = x || y
		default:
			r = x != y
		}
		out[i] = '0'
		if r {
			out[i] = '1'
		}
	}
	return string(out), nil
}

func bitNot(s string) string {
	out := []byte(s)
	for i, c := range out {
		out[i] = '0' + '1' - c
	}
	return string(out)
}

// bitShift is bitshiftleft (left true) and bitshiftright: the length stays,
// vacated positions are zeros, a negative count shifts the other way.
func bitShift(s string, n int64, left bool) string {
	if n < 0 {
		if n < -varbitMaxLen {
			n = -varbitMaxLen
		}
		n, left = -n, !left
	}
	if n >= int64(len(s)) {
		return strings.Repeat("0", len(s))
	}
	zeros := strings.Repeat("0", int(n))
	if left {
		return s[n:] + zeros
	}
	return zeros + s[:int64(len(s))-n]
}

func bitConcat(a, b string) (string, error) {
	if len(a) > varbitMaxLen-len(b) {
		return "", pgerr.New(pgerr.ProgramLimitExceeded, "bit string length exceeds the maximum allowed (%d)", varbitMaxLen)
	}
	return a + b, nil
}

// bitSubstring is bitsubstring: 1-based start, length l (hasLen false: to
// the end), clamped to the string; a negative length is an error.
func bitSubstring(s string, start, l int64, hasLen bool) (string, error) {
	bitlen := int64(len(s))
	s1 := max(start, 1)
	var e1 int64
	switch {
	case !hasLen:
		e1 = bitlen + 1
	case l < 0:
		return "", pgerr.New(errSubstringError, "negative substring length not allowed")
	case start+l > math.MaxInt32:
		// start + l overflows int4: the substring runs to the end.
		e1 = bitlen + 1
	default:
		e1 = min(start+l, bitlen+1)
	}
	if s1 > bitlen || e1 <= s1 {
		return "", nil
	}
	return s[s1-1 : e1-1], nil
}

// bitOverlay is bit_overlay: t1 with sl bits from position sp replaced by t2.
func bitOverlay(t1, t2 string, sp, sl int64) (string, error) {
	if sp <= 0 {
		return "", pgerr.New(errSubstringError, "negative substring length not allowed")
	}
	end := sp + sl
	if end > math.MaxInt32 || end < math.MinInt32 {
		return "", pgerr.New(pgerr.NumericValueOutOfRange, "integer out of range")
	}
	s1, err := bitSubstring(t1, 1, sp-1, true)
	if err != nil {
		return "", err
	}
	s2, _ := bitSubstring(t1, end, 0, false)
	r, err := bitConcat(s1, t2)
	if err != nil {
		return "", err
	}
	return bitConcat(r, s2)
}

// bitPosition is bitposition: the 1-based position of sub in s, 0 when
// absent; an empty sub is at 1 of a non-empty s.
func bitPosition(s, sub string) int64 {
	if len(s) == 0 || len(sub) > len(s) {
		return 0
	}
	return int64(strings.Index(s, sub) + 1)
}

func errBitIndex(n int64, bitlen int) error {
	return pgerr.New(pgerr.ArraySubscriptError, "bit index %d out of valid range (0..%d)", n, bitlen-1)
}

// bitCmp is bit_cmp's value, not only its sign: memcmp of the packed bytes,
// which glibc answers with the difference of the first differing bytes
// (bitcmp(B'1111', B'0110') is 0xF0-0x60 = 144), then -1 or 1 for the
// shorter or longer string.
func bitCmp(a, b string) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i += 8 {
		x, y := packBitByte(a, i), packBitByte(b, i)
		if x != y {
			return int(x) - int(y)
		}
	}
	switch {
	case len(a) < len(b):
		return -1
	case len(a) > len(b):
		return 1
	}
	return 0
}

// packBitByte is the byte holding bits i..i+7 of the text bit string s,
// zero-padded past its end.
func packBitByte(s string, i int) byte {
	var b byte
	for j := 0; j < 8; j++ {
		b <<= 1
		if i+j < len(s) && s[i+j] == '1' {
			b |= 1
		}
	}
	return b
}

func registerBitFuncs() {
	for _, id := range []ID{Bit, VarBit} {
		t := Type{ID: id, Typmod: -1}
		for _, op := range cmpOps {
			regOp(op, []ID{id, id}, Bool, cmpEval(op, t))
		}
		id := id
		regFn(map[ID]string{Bit: "bitcmp", VarBit: "varbitcmp"}[id], []ID{id, id}, Int4, func(_ *EvalContext, a []Value) (Value, error) {
			return Value{I: int64(bitCmp(a[0].S, a[1].S))}, nil
		})
	}
	for _, op := range []byte{'&', '|', '#'} {
		op := op
		regOp(string(op), []ID{Bit, Bit}, Bit, func(_ *EvalContext, a []Value) (Value, error) {
			s, err := bitBinary(op, a[0].S, a[1].S)
			return Value{S: s}, err
		})
	}
	regOp("~", []ID{Bit}, Bit, func(_ *EvalContext, a []Value) (Value, error) {
		return Value{S: bitNot(a[0].S)}, nil
	})
	regOp("<<", []ID{Bit, Int4}, Bit, func(_ *EvalContext, a []Value) (Value, error) {
		return Value{S: bitShift(a[0].S, a[1].I, true)}, nil
	})
	regOp(">>", []ID{Bit, Int4}, Bit, func(_ *EvalContext, a []Value) (Value, error) {
		return Value{S: bitShift(a[0].S, a[1].I, false)}, nil
	})
	regOp("||", []ID{VarBit, VarBit}, VarBit, func(_ *EvalContext, a []Value) (Value, error) {
		s, err := bitConcat(a[0].S, a[1].S)
		return Value{S: s}, err
	})
	length := func(_ *EvalContext, a []Value) (Value, error) { return Value{I: int64(len(a[0].S))}, nil }
	regFn("length", []ID{Bit}, Int4, length)
	regFn("bit_length", []ID{Bit}, Int4, length)
	regFn("octet_length", []ID{Bit}, Int4, func(_ *EvalContext, a []Value) (Value, error) {
		return Value{I: int64((len(a[0].S) + 7) / 8)}, nil
	})
	regFn("bit_count", []ID{Bit}, Int8, func(_ *EvalContext, a []Value) (Value, error) {
		return Value{I: int64(strings.Count(a[0].S, "1"))}, nil
	})
	regFn("position", []ID{Bit, Bit}, Int4, func(_ *EvalContext, a []Value) (Value, error) {
		return Value{I: bitPosition(a[0].S, a[1].S)}, nil
	})
	regFn("substring", []ID{Bit, Int4, Int4}, Bit, func(_ *EvalContext, a []Value) (Value, error) {
		s, err := bitSubstring(a[0].S, a[1].I, a[2].I, true)
		return Value{S: s}, err
	})
	regFn("substring", []ID{Bit, Int4}, Bit, func(_ *EvalContext, a []Value) (Value, error) {
		s, err := bitSubstring(a[0].S, a[1].I, 0, false)
		return Value{S: s}, err
	})
	regFn("overlay", []ID{Bit, Bit, Int4, Int4}, Bit, func(_ *EvalContext, a []Value) (Value, error) {
		s, err := bitOverlay(a[0].S, a[1].S, a[2].I, a[3].I)
		return Value{S: s}, err
	})
	regFn("overlay", []ID{Bit, Bit, Int4}, Bit, func(_ *EvalContext, a []Value) (Value, error) {
		s, err := bitOverlay(a[0].S, a[1].S, a[2].I, int64(len(a[1].S)))
		return Value{S: s}, err
	})
	regFn("get_bit", []ID{Bit, Int4}, Int4, func(_ *EvalContext, a []Value) (Value, error) {
		s, n := a[0].S, a[1].I
		if n < 0 || n >= int64(len(s)) {
			return Value{}, errBitIndex(n, len(s))
		}
		return Value{I: int64(s[n] - '0')}, nil
	})
	regFn("set_bit", []ID{Bit, Int4, Int4}, Bit, func(_ *EvalContext, a []Value) (Value, error) {
		s, n, nb := a[0].S, a[1].I, a[2].I
		if n < 0 || n >= int64(len(s)) {
			return Value{}, errBitIndex(n, len(s))
		}
		if nb != 0 && nb != 1 {
			return Value{}, pgerr.New(pgerr.InvalidParameterValue, "new bit must be 0 or 1")
		}
		b := []byte(s)
		b[n] = '0' + byte(nb)
		return Value{S: string(b)}, nil
	})
	send := func(v Value) []byte {
		var hdr [4]byte
		n := uint32(len(v.S))
		hdr[0], hdr[1], hdr[2], hdr[3] = byte(n>>24), byte(n>>16), byte(n>>8), byte(n)
		return append(hdr[:], BitBytes(v.S)...)
	}
	for name, id := range map[string]ID{"bit_send": Bit, "varbit_send": VarBit} {
		id := id
		regFn(name, []ID{id}, Bytea, func(_ *EvalContext, a []Value) (Value, error) { return Value{S: string(send(a[0]))}, nil })
	}
	for name, op := range map[string]byte{"bit_and": '&', "bit_or": '|', "bit_xor": '#'} {
		op := op
		regAgg(name, []ID{Bit}, Bit, func() Accumulator { return &bitStringAcc{op: op} })
	}
}

// bitStringAcc is bit_and / bit_or / bit_xor over bit strings (bitand,
// bitor, bitxor as transition functions: strings of different lengths fail).
type bitStringAcc struct {
	op   byte
	have bool
	v    string
}

func (a *bitStringAcc) Add(args []Value) error {
	if args[0].Null {
		return nil
	}
	return a.fold(args[0].S)
}

func (a *bitStringAcc) fold(s string) error {
	if !a.have {
		a.v, a.have = s, true
		return nil
	}
	r, err := bitBinary(a.op, a.v, s)
	a.v = r
	return err
}

func (a *bitStringAcc) Merge(o Accumulator) error {
	b, ok := o.(*bitStringAcc)
	if !ok {
		return errAggMerge()
	}
	if b.have {
		return a.fold(b.v)
	}
	return nil
}

func (a *bitStringAcc) Result() (Value, error) {
	if !a.have {
		return NullValue, nil
	}
	return Value{S: a.v}, nil
}

// bitCastContext is pg_cast's rows for bit strings: bit and bit varying
// are binary-coercible both ways (implicit), int4/int8 and bit convert
// explicitly.
func bitCastContext(from, to ID) byte {
	switch {
	case from == Bit && to == VarBit, from == VarBit && to == Bit:
		return 'i'
	case (from == Int4 || from == Int8) && to == Bit, from == Bit && (to == Int4 || to == Int8):
		return 'e'
	}
	return 0
}
