package types

import (
	"github.com/joind/joind/pgerr"
)

// macaddr and macaddr8 (PostgreSQL's mac.c, mac8.c): Value.S holds the 6
// or 8 bytes, whose bytewise order is macaddr_cmp's and macaddr8_cmp's.

// macaddrFormats are macaddr_in's sscanf patterns, tried in order: 'x' is
// a hex number (sscanf's %x), '2' one of at most two characters (%2x), any
// other byte itself.
var macaddrFormats = []string{
	"x:x:x:x:x:x", "x-x-x-x-x-x", "222:222", "222-222", "22.22.22", "22-22-22", "222222",
}

// scanHex is sscanf's %x (width 0: unlimited) at s[i:]: white space, a
// sign, a 0x prefix, hex digits. ok is false when no digit was read.
func scanHex(s string, i, width int) (val uint64, next int, ok bool) {
	for i < len(s) && isCSpace(s[i]) {
		i++
	}
	start := i
	room := func() bool { return width == 0 || i-start < width }
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') && room() {
		neg = s[i] == '-'
		i++
	}
	if i+1 < len(s) && s[i] == '0' && (s[i+1] == 'x' || s[i+1] == 'X') && (width == 0 || i+2-start < width) && hexValue(byteAt(s, i+2)) >= 0 {
		i += 2
	}
	digits := 0
	for i < len(s) && room() && hexValue(s[i]) >= 0 {
		if val < 1<<36 {
			val = val<<4 | uint64(hexValue(s[i]))
		}
		i++
		digits++
	}
	if neg {
		val = uint64(uint32(-int64(val)))
	}
	return val, i, digits > 0
}

func byteAt(s string, i int) byte {
	if i < len(s) {
		return s[i]
	}
	return 0
}

// scanMacFormat matches s against one of macaddrFormats as sscanf does,
// then demands that only white space follow (its trailing %1s).
func scanMacFormat(s, format string) ([6]uint64, bool) {
	var out [6]uint64
	i, n := 0, 0
	for k := 0; k < len(format); k++ {
		switch f := format[k]; f {
		case 'x', '2':
			w := 0
			if f == '2' {
				w = 2
			}
			v, next, ok := scanHex(s, i, w)
			if !ok {
				return out, false
			}
			out[n], n, i = v, n+1, next
		default:
			if i >= len(s) || s[i] != f {
				return out, false
			}
			i++
		}
	}
	for ; i < len(s); i++ {
		if !isCSpace(s[i]) {
			return out, false
		}
	}
	return out, true
}

// parseMacaddr is macaddr_in.
func parseMacaddr(s string) (string, error) {
	for _, f := range macaddrFormats {
		if v, ok := scanMacFormat(s, f); ok {
			b := make([]byte, 6)
			for i, x := range v {
				if x > 255 {
					return "", pgerr.New(pgerr.NumericValueOutOfRange, "invalid octet value in \"macaddr\" value: \"%s\"", s)
				}
				b[i] = byte(x)
			}
			return string(b), nil
		}
	}
	return "", pgerr.New(pgerr.InvalidTextRepresentation, "invalid input syntax for type %s: \"%s\"", "macaddr", s)
}

// parseMacaddr8 is macaddr8_in: 6 or 8 pairs of hex digits, each maybe
// followed by one separator (':', '-' or '.', the same throughout); a
// 6-byte address becomes EUI-64 with FF:FE in its middle.
func parseMacaddr8(s string) (string, error) {
	fail := pgerr.New(pgerr.InvalidTextRepresentation, "invalid input syntax for type %s: \"%s\"", "macaddr8", s)
	var b [8]byte
	i, count := 0, 0
	var spacer byte
	for i < len(s) && isCSpace(s[i]) {
		i++
	}
	for i+1 < len(s) {
		if count == 8 {
			return "", fail // trailing garbage
		}
		hi, lo := hexValue(s[i]), hexValue(s[i+1])
		if hi < 0 || lo < 0 {
			return "", fail
		}
		b[count] = byte(hi<<4 | lo)
		count++
		i += 2
		if c := byteAt(s, i); c == ':' || c == '-' || c == '.' {
			if spacer == 0 {
				spacer = c
			} else if spacer != c {
				return "", fail
			}
			i++
		}
		if (count == 6 || count == 8) && i < len(s) && isCSpace(s[i]) {
			for i < len(s) && isCSpace(s[i]) {
				i++
			}
			if i < len(s) {
				return "", fail
			}
		}
	}
	switch count {
	case 6:
		return macToMac8(string(b[:6])), nil
	case 8:
		return string(b[:]), nil
	}
	return "", fail
}

// appendMacaddr is macaddr_out and macaddr8_out: lowercase hex pairs
// joined by colons.
func appendMacaddr(dst []byte, s string) []byte {
	const hexDigits = "0123456789abcdef"
	for i := 0; i < len(s); i++ {
		if i > 0 {
			dst = append(dst, ':')
		}
		dst = append(dst, hexDigits[s[i]>>4], hexDigits[s[i]&15])
	}
	return dst
}

// macToMac8 is macaddrtomacaddr8: FF:FE between the OUI and the rest.
func macToMac8(s string) string {
	return s[:3] + "\xff\xfe" + s[3:]
}

// mac8ToMac is macaddr8tomacaddr: only an address with FF:FE in its
// 4th and 5th bytes has a 6-byte form.
func mac8ToMac(s string) (string, error) {
	if s[3] != 0xff || s[4] != 0xfe {
		return "", pgerr.New(pgerr.NumericValueOutOfRange, "macaddr8 data out of range to convert to macaddr").
			WithHint("Only addresses that have FF and FE as values in the 4th and 5th bytes from the left, for example xx:xx:xx:ff:fe:xx:xx:xx, are eligible to be converted from macaddr8 to macaddr.")
	}
	return s[:3] + s[5:], nil
}

func macBytewise(f func(x, y byte) byte) evalFn {
	return func(_ *EvalContext, a []Value) (Value, error) {
		b := []byte(a[0].S)
		for i := range b {
			b[i] = f(b[i], a[1].S[i])
		}
		return Value{S: string(b)}, nil
	}
}

func registerMacFuncs() {
	for _, id := range []ID{MacAddr, MacAddr8} {
		t := Type{ID: id, Typmod: -1}
		// macaddr_cmp answers -1, 0 or 1 (network_cmp's magnitudes are
		// memcmp's and mask differences: it stays out).
		regFn(networkTypeName(id)+"_cmp", []ID{id, id}, Int4, func(_ *EvalContext, a []Value) (Value, error) {
			return IntValue(int64(Compare(a[0], a[1], t))), nil
		})
		regOp("~", []ID{id}, id, func(_ *EvalContext, a []Value) (Value, error) {
			b := []byte(a[0].S)
			for i := range b {
				b[i] = ^b[i]
			}
			return Value{S: string(b)}, nil
		})
		regOp("&", []ID{id, id}, id, macBytewise(func(x, y byte) byte { return x & y }))
		regOp("|", []ID{id, id}, id, macBytewise(func(x, y byte) byte { return x | y }))
		// trunc keeps the manufacturer's part (the OUI), zeroing the rest.
		regFn("trunc", []ID{id}, id, func(_ *EvalContext, a []Value) (Value, error) {
			return Value{S: a[0].S[:3] + string(make([]byte, len(a[0].S)-3))}, nil
		})
	}
	regFn("macaddr8_set7bit", []ID{MacAddr8}, MacAddr8, func(_ *EvalContext, a []Value) (Value, error) {
		return Value{S: string([]byte{a[0].S[0] | 0x02}) + a[0].S[1:]}, nil
	})
	regFn("macaddr8", []ID{MacAddr}, MacAddr8, func(_ *EvalContext, a []Value) (Value, error) {
		return Value{S: macToMac8(a[0].S)}, nil
	})
	regFn("macaddr", []ID{MacAddr8}, MacAddr, func(_ *EvalContext, a []Value) (Value, error) {
		s, err := mac8ToMac(a[0].S)
		return Value{S: s}, err
	})
}
