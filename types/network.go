package types

import (
	"strconv"
	"strings"

	"github.com/joind/joind/pgerr"
)

// inet and cidr (PostgreSQL's network.c): an IPv4 or IPv6 address with a
// netmask length. Value.S holds a key whose bytewise order is network_cmp's,
// so Compare, hashing, sorting and grouping need nothing of their own:
//
//	family (4 or 6) · the address with its host bits cleared · mask length · the address
//
// network_cmp orders by family (IPv4 first), then by the common bits of the
// network parts, then by mask length, then by the whole address. Comparing
// the masked addresses bytewise agrees with comparing them over the shorter
// mask: where they differ within it they differ there first, and where they
// agree the shorter mask's zeroes sort first, as its smaller length does.
// A cidr is the same key with no host bits set.

// inetAddr is an inet or cidr value unpacked.
type inetAddr struct {
	v6   bool
	bits int
	ip   [16]byte // IPv4 uses the first 4 bytes
}

func (a inetAddr) size() int {
	if a.v6 {
		return 16
	}
	return 4
}

func (a inetAddr) maxBits() int { return a.size() * 8 }

// masked is the address with every bit past bits cleared.
func (a inetAddr) masked(bits int) [16]byte {
	var out [16]byte
	for i := 0; i < a.size(); i++ {
		switch {
		case bits >= 8:
			out[i] = a.ip[i]
			bits -= 8
		case bits > 0:
			out[i] = a.ip[i] &^ (0xff >> bits)
			bits = 0
		}
	}
	return out
}

// key is the Value.S of a.
func (a inetAddr) key() string {
	n := a.size()
	b := make([]byte, 0, 2+2*n)
	if a.v6 {
		b = append(b, 6)
	} else {
		b = append(b, 4)
	}
	m := a.masked(a.bits)
	b = append(b, m[:n]...)
	b = append(b, byte(a.bits))
	b = append(b, a.ip[:n]...)
	return string(b)
}

func (a inetAddr) value() Value { return Value{S: a.key()} }

// decodeInet unpacks a key made by inetAddr.key.
func decodeInet(s string) inetAddr {
	var a inetAddr
	if len(s) == 0 {
		return a
	}
	a.v6 = s[0] == 6
	n := a.size()
	if len(s) < 2+2*n {
		return a
	}
	a.bits = int(s[1+n])
	copy(a.ip[:n], s[2+n:])
	return a
}

// InetKey is the Value.S of an inet or cidr given as PostgreSQL's binary
// fields (network_recv): IPv6 when v6, its mask length and address bytes.
func InetKey(v6 bool, bits int, addr []byte) string {
	a := inetAddr{v6: v6, bits: bits}
	copy(a.ip[:], addr)
	return a.key()
}

// InetFields is an inet or cidr key's binary fields (network_send): IPv6
// or not, the mask length, the address bytes.
func InetFields(s string) (v6 bool, bits int, addr []byte) {
	a := decodeInet(s)
	return a.v6, a.bits, append([]byte(nil), a.ip[:a.size()]...)
}

// InetMaskOK reports whether no bit past the mask is set (addressOK): a
// cidr's condition.
func InetMaskOK(s string) bool {
	a := decodeInet(s)
	return a.masked(a.bits) == a.ip
}

// IsNetworkID reports inet, cidr, macaddr and macaddr8, whose Value.S is a
// binary key, not their text.
func IsNetworkID(id ID) bool { return id == Inet || id == Cidr || id == MacAddr || id == MacAddr8 }

// IsBinaryStringID reports the string-backed types whose Value.S is a
// binary form, not their text: the network types and point.
func IsBinaryStringID(id ID) bool { return IsNetworkID(id) || id == Point }

func networkTypeName(id ID) string {
	switch id {
	case Inet:
		return "inet"
	case Cidr:
		return "cidr"
	case MacAddr:
		return "macaddr"
	}
	return "macaddr8"
}

// parseInet is network_in: IPv6 when the text has a colon, else IPv4; an
// inet's IPv4 needs all four octets, a cidr's may be abbreviated (its mask
// then implied by the address class) and must have no host bits set.
func parseInet(s string, cidr bool) (inetAddr, error) {
	var a inetAddr
	var bits int
	if strings.IndexByte(s, ':') >= 0 {
		a.v6 = true
		bits = ptonIPv6(s, &a.ip)
	} else if cidr {
		bits = ptonCidrIPv4(s, &a.ip)
	} else {
		bits = ptonInetIPv4(s, &a.ip)
	}
	name := "inet"
	if cidr {
		name = "cidr"
	}
	if bits < 0 || bits > a.maxBits() {
		return a, pgerr.New(pgerr.InvalidTextRepresentation, "invalid input syntax for type %s: \"%s\"", name, s)
	}
	a.bits = bits
	if cidr && a.masked(bits) != a.ip {
		return a, pgerr.New(pgerr.InvalidTextRepresentation, "invalid cidr value: \"%s\"", s).
			WithDetail("Value has bits set to right of mask.")
	}
	return a, nil
}

// cstr reads a Go string as the C string PostgreSQL's parsers walk: 0 past the end.
type cstr struct {
	s string
	i int
}

func (c *cstr) at(k int) byte {
	if c.i+k < len(c.s) {
		return c.s[c.i+k]
	}
	return 0
}

func (c *cstr) next() byte { ch := c.at(0); c.i++; return ch }

// readOctet reads the decimal octet starting with digit ch into dst[*n]
// and returns the byte after it; ok is false past 255 or four octets.
func readOctet(c *cstr, ch byte, dst *[16]byte, n *int) (next byte, ok bool) {
	tmp := 0
	for {
		if tmp = tmp*10 + int(ch-'0'); tmp > 255 {
			return 0, false
		}
		if ch = c.next(); !isDigit(ch) {
			break
		}
	}
	if *n >= 4 {
		return 0, false
	}
	dst[*n] = byte(tmp)
	*n++
	return ch, true
}

// readIPv4Mask reads what follows an IPv4 address's octets (ch, the byte
// after the last): nothing (bits -1) or "/n", n at most 32, ending the
// text; ok is false for anything else.
func readIPv4Mask(c *cstr, ch byte, octets int) (bits int, ok bool) {
	if ch == '/' && isDigit(c.at(0)) && octets > 0 {
		for ch = c.next(); ; {
			if bits = bits*10 + int(ch-'0'); bits > 1000 {
				bits = 1000 // only "too large" matters past here
			}
			if ch = c.next(); !isDigit(ch) {
				break
			}
		}
		return bits, ch == 0 && bits <= 32
	}
	return -1, ch == 0
}

// ptonCidrIPv4 is inet_cidr_pton_ipv4: hex ("0x0a01") or dotted decimal
// with fewer than four octets allowed, the mask classful when not given.
// -1 for bad input.
func ptonCidrIPv4(s string, dst *[16]byte) int {
	c := &cstr{s: s}
	n := 0 // octets written
	ch := c.next()
	if ch == '0' && (c.at(0) == 'x' || c.at(0) == 'X') && hexValue(c.at(1)) >= 0 {
		c.next()
		dirty, tmp := 0, 0
		for {
			ch = c.next()
			if ch == 0 || hexValue(ch) < 0 {
				break
			}
			if dirty == 0 {
				tmp = hexValue(ch)
			} else {
				tmp = tmp<<4 | hexValue(ch)
			}
			if dirty++; dirty == 2 {
				if n >= 4 {
					return -1
				}
				dst[n] = byte(tmp)
				n++
				dirty = 0
			}
		}
		if dirty != 0 {
			if n >= 4 {
				return -1
			}
			dst[n] = byte(tmp << 4)
			n++
		}
	} else if isDigit(ch) {
		for {
			var ok bool
			if ch, ok = readOctet(c, ch, dst, &n); !ok {
				return -1
			}
			if ch == 0 || ch == '/' {
				break
			}
			if ch != '.' {
				return -1
			}
			ch = c.next()
			if !isDigit(ch) {
				return -1
			}
		}
	} else {
		return -1
	}
	bits, ok := readIPv4Mask(c, ch, n)
	if !ok || n == 0 {
		return -1
	}
	if bits == -1 {
		switch first := dst[0]; {
		case first >= 240: // class E
			bits = 32
		case first >= 224: // class D
			bits = 8
		case first >= 192: // class C
			bits = 24
		case first >= 128: // class B
			bits = 16
		default: // class A
			bits = 8
		}
		if bits < n*8 {
			bits = n * 8
		}
		if bits == 8 && dst[0] == 224 {
			bits = 4
		}
	}
	for bits > n*8 {
		if n >= 4 {
			return -1
		}
		dst[n] = 0
		n++
	}
	return bits
}

// ptonInetIPv4 is inet_net_pton_ipv4: four dotted decimal octets, or
// fewer with a "/n" that does not overspecify them.
func ptonInetIPv4(s string, dst *[16]byte) int {
	c := &cstr{s: s}
	n := 0
	var ch byte
	for {
		ch = c.next()
		if !isDigit(ch) {
			break
		}
		var ok bool
		if ch, ok = readOctet(c, ch, dst, &n); !ok {
			return -1
		}
		if ch == 0 || ch == '/' {
			break
		}
		if ch != '.' {
			return -1
		}
	}
	bits, ok := readIPv4Mask(c, ch, n)
	if !ok {
		return -1
	}
	if bits == -1 {
		if n != 4 {
			return -1
		}
		bits = 32
	}
	if n == 0 || bits/8 > n {
		return -1
	}
	for ; n < 4; n++ {
		dst[n] = 0
	}
	return bits
}

// getMaskBits is getbits: the decimal mask of an IPv6 address, no
// leading zeros, at most 128; -1 when bad.
func getMaskBits(s string) int {
	if s == "" {
		return -1
	}
	val := 0
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) || (i > 0 && val == 0) {
			return -1
		}
		if val = val*10 + int(s[i]-'0'); val > 128 {
			return -1
		}
	}
	return val
}

// getEmbeddedIPv4 is getv4: the dotted quad ending an IPv6 address
// (no leading zeros), maybe followed by "/n". ok false when bad.
func getEmbeddedIPv4(s string, dst []byte, bits *int) bool {
	n, val, digits := 0, 0, 0
	for i := 0; i < len(s); i++ {
		ch := s[i]
		if isDigit(ch) {
			if digits > 0 && val == 0 {
				return false
			}
			digits++
			if val = val*10 + int(ch-'0'); val > 255 {
				return false
			}
			continue
		}
		if ch == '.' || ch == '/' {
			if n > 3 {
				return false
			}
			dst[n] = byte(val)
			n++
			if ch == '/' {
				b := getMaskBits(s[i+1:])
				if b < 0 {
					return false
				}
				*bits = b
				return true
			}
			val, digits = 0, 0
			continue
		}
		return false
	}
	if digits == 0 || n > 3 {
		return false
	}
	dst[n] = byte(val)
	return true
}

// ptonIPv6 is inet_cidr_pton_ipv6 (an inet's and a cidr's IPv6 alike):
// groups of up to four hex digits, one "::", an optional trailing dotted
// quad, an optional "/n" (128 when absent).
func ptonIPv6(s string, dst *[16]byte) int {
	var tmp [16]byte
	tp := 0
	colon := -1
	i := 0
	if i < len(s) && s[i] == ':' {
		i++
		if i >= len(s) || s[i] != ':' {
			return -1
		}
	}
	curtok := i
	sawDigit := false
	val, digits := 0, 0
	bits := -1
	for i < len(s) {
		ch := s[i]
		i++
		if h := hexValue(ch); h >= 0 {
			val = val<<4 | h
			if digits++; digits > 4 {
				return -1
			}
			sawDigit = true
			continue
		}
		if ch == ':' {
			curtok = i
			if !sawDigit {
				if colon >= 0 {
					return -1
				}
				colon = tp
				continue
			} else if i >= len(s) {
				return -1
			}
			if tp+2 > 16 {
				return -1
			}
			tmp[tp], tmp[tp+1] = byte(val>>8), byte(val)
			tp += 2
			sawDigit, digits, val = false, 0, 0
			continue
		}
		if ch == '.' && tp+4 <= 16 && getEmbeddedIPv4(s[curtok:], tmp[tp:tp+4], &bits) {
			tp += 4
			sawDigit = false
			break
		}
		if ch == '/' {
			if b := getMaskBits(s[i:]); b >= 0 {
				bits = b
				break
			}
		}
		return -1
	}
	if sawDigit {
		if tp+2 > 16 {
			return -1
		}
		tmp[tp], tmp[tp+1] = byte(val>>8), byte(val)
		tp += 2
	}
	if bits == -1 {
		bits = 128
	}
	if colon >= 0 {
		if tp == 16 {
			return -1
		}
		n := tp - colon
		for k := 1; k <= n; k++ {
			tmp[16-k] = tmp[colon+n-k]
			tmp[colon+n-k] = 0
		}
		tp = 16
	}
	if tp != 16 {
		return -1
	}
	*dst = tmp
	return bits
}

// ntop is pg_inet_net_ntop: every octet (IPv4) or the shortest IPv6 form,
// then "/bits" unless bits is the whole address (or -1).
func (a inetAddr) ntop(bits int) string {
	var b []byte
	if !a.v6 {
		for i := 0; i < 4; i++ {
			if i > 0 {
				b = append(b, '.')
			}
			b = strconv.AppendUint(b, uint64(a.ip[i]), 10)
		}
		if bits != 32 {
			b = append(b, '/')
			b = strconv.AppendInt(b, int64(bits), 10)
		}
		return string(b)
	}
	var words [8]int
	for i := 0; i < 16; i++ {
		words[i/2] |= int(a.ip[i]) << ((1 - i%2) * 8)
	}
	// The longest run of zero words (the first of equal ones), at least two.
	bestBase, bestLen, curBase, curLen := -1, 0, -1, 0
	for i := 0; i < 8; i++ {
		if words[i] == 0 {
			if curBase == -1 {
				curBase, curLen = i, 1
			} else {
				curLen++
			}
			continue
		}
		if curBase != -1 {
			if bestBase == -1 || curLen > bestLen {
				bestBase, bestLen = curBase, curLen
			}
			curBase = -1
		}
	}
	if curBase != -1 && (bestBase == -1 || curLen > bestLen) {
		bestBase, bestLen = curBase, curLen
	}
	if bestBase != -1 && bestLen < 2 {
		bestBase = -1
	}
	for i := 0; i < 8; i++ {
		if bestBase != -1 && i >= bestBase && i < bestBase+bestLen {
			if i == bestBase {
				b = append(b, ':')
			}
			continue
		}
		if i != 0 {
			b = append(b, ':')
		}
		// An IPv4-compatible or -mapped address ends in a dotted quad.
		if i == 6 && bestBase == 0 && (bestLen == 6 || (bestLen == 7 && words[7] != 1) || (bestLen == 5 && words[5] == 0xffff)) {
			for k := 12; k < 16; k++ {
				if k > 12 {
					b = append(b, '.')
				}
				b = strconv.AppendUint(b, uint64(a.ip[k]), 10)
			}
			break
		}
		b = strconv.AppendInt(b, int64(words[i]), 16)
	}
	if bestBase != -1 && bestBase+bestLen == 8 {
		b = append(b, ':')
	}
	if bits != -1 && bits != 128 {
		b = append(b, '/')
		b = strconv.AppendInt(b, int64(bits), 10)
	}
	return string(b)
}

// cidrNtop is pg_inet_cidr_ntop, abbrev(cidr): only the octets (IPv4) or
// words (IPv6) the mask covers, always with "/bits".
func (a inetAddr) cidrNtop() string {
	var b []byte
	bits := a.bits
	if !a.v6 {
		if bits == 0 {
			b = append(b, '0')
		}
		k := 0
		for n := bits / 8; n > 0; n-- {
			b = strconv.AppendUint(b, uint64(a.ip[k]), 10)
			k++
			if n > 1 {
				b = append(b, '.')
			}
		}
		if r := bits % 8; r > 0 {
			if len(b) > 0 {
				b = append(b, '.')
			}
			m := byte(((1 << r) - 1) << (8 - r))
			b = strconv.AppendUint(b, uint64(a.ip[k]&m), 10)
		}
		return string(b) + "/" + strconv.Itoa(bits)
	}
	if bits == 0 {
		return "::/0"
	}
	s := a.masked(bits)
	words := (bits + 15) / 16
	if words == 1 {
		words = 2
	}
	zeroS, zeroL, tmpS, tmpL := 0, 0, 0, 0
	for i := 0; i < words*2; i += 2 {
		if s[i]|s[i+1] == 0 {
			if tmpL == 0 {
				tmpS = i / 2
			}
			tmpL++
		} else if tmpL != 0 && zeroL < tmpL {
			zeroS, zeroL, tmpL = tmpS, tmpL, 0
		}
	}
	if tmpL != 0 && zeroL < tmpL {
		zeroS, zeroL = tmpS, tmpL
	}
	isV4 := zeroL != words && zeroS == 0 && (zeroL == 6 || (zeroL == 5 && s[10] == 0xff && s[11] == 0xff) ||
		(zeroL == 7 && s[14] != 0 && s[15] != 1))
	k := 0
	for p := 0; p < words; p++ {
		if zeroL != 0 && p >= zeroS && p < zeroS+zeroL {
			if p == zeroS {
				b = append(b, ':')
			}
			if p == words-1 {
				b = append(b, ':')
			}
			k += 2
			continue
		}
		if isV4 && p > 5 {
			if p == 6 {
				b = append(b, ':')
			} else {
				b = append(b, '.')
			}
			b = strconv.AppendUint(b, uint64(s[k]), 10)
			k++
			if p != 7 || bits > 120 {
				b = append(b, '.')
				b = strconv.AppendUint(b, uint64(s[k]), 10)
				k++
			}
			continue
		}
		if len(b) > 0 {
			b = append(b, ':')
		}
		b = strconv.AppendInt(b, int64(s[k])*256+int64(s[k+1]), 16)
		k += 2
	}
	return string(b) + "/" + strconv.Itoa(bits)
}

// appendInet is inet_out and cidr_out: a cidr always shows its mask.
func appendInet(dst []byte, s string, cidr bool) []byte {
	a := decodeInet(s)
	out := a.ntop(a.bits)
	dst = append(dst, out...)
	if cidr && strings.IndexByte(out, '/') < 0 {
		dst = append(dst, '/')
		dst = strconv.AppendInt(dst, int64(a.bits), 10)
	}
	return dst
}

// networkShow is network_show, the casts of inet and cidr to text and
// text(inet): the whole address, always with its mask.
func networkShow(s string) string {
	a := decodeInet(s)
	return a.ntop(a.maxBits()) + "/" + strconv.Itoa(a.bits)
}

// withMask is cidr_set_masklen_internal: a with mask bits and no host bits.
func (a inetAddr) withMask(bits int) inetAddr {
	return inetAddr{v6: a.v6, bits: bits, ip: a.masked(bits)}
}

// networkCastContext is pg_cast's rows between the network types: cidr to
// inet is binary-coercible, inet to cidr by assignment (cidr()), macaddr
// and macaddr8 implicit both ways.
func networkCastContext(from, to ID) byte {
	switch {
	case from == Cidr && to == Inet, from == MacAddr && to == MacAddr8, from == MacAddr8 && to == MacAddr:
		return 'i'
	case from == Inet && to == Cidr:
		return 'a'
	}
	return 0
}

// castNetwork performs the casts of networkCastContext and the casts of
// inet and cidr to the character types (network_show, not the output
// function); ok is false for other casts.
func castNetwork(v Value, from, to Type, explicit bool) (Value, bool, error) {
	switch {
	case from.ID == to.ID && IsNetworkID(from.ID), from.ID == Cidr && to.ID == Inet:
		return v, true, nil
	case from.ID == Inet && to.ID == Cidr:
		a := decodeInet(v.S)
		return a.withMask(a.bits).value(), true, nil
	case (from.ID == Inet || from.ID == Cidr) && (to.ID == Text || to.ID == Varchar || to.ID == Char):
		r, err := coerceString(networkShow(v.S), to, explicit)
		return r, true, err
	case from.ID == MacAddr && to.ID == MacAddr8:
		return Value{S: macToMac8(v.S)}, true, nil
	case from.ID == MacAddr8 && to.ID == MacAddr:
		r, err := mac8ToMac(v.S)
		return Value{S: r}, true, err
	}
	return Value{}, false, nil
}

func inetFn(f func(a inetAddr) (Value, error)) evalFn {
	return func(_ *EvalContext, args []Value) (Value, error) { return f(decodeInet(args[0].S)) }
}

func inet2Fn(f func(a, b inetAddr) (Value, error)) evalFn {
	return func(_ *EvalContext, args []Value) (Value, error) {
		return f(decodeInet(args[0].S), decodeInet(args[1].S))
	}
}

// bitsEqual is bitncmp(a, b, n) == 0: the first n bits agree.
func bitsEqual(a, b inetAddr, n int) bool { return a.masked(n) == b.masked(n) }

// commonBits is bitncommon: how many leading bits, at most n, agree.
func commonBits(a, b inetAddr, n int) int {
	k := 0
	for k < n {
		byteI, bit := k/8, 7-k%8
		if (a.ip[byteI]>>bit)&1 != (b.ip[byteI]>>bit)&1 {
			break
		}
		k++
	}
	return k
}

// inetPlus is internal_inetpl: the address plus addend, the mask kept;
// "result is out of range" when it leaves the family's addresses.
func inetPlus(a inetAddr, addend int64) (Value, error) {
	r := inetAddr{v6: a.v6, bits: a.bits}
	carry := 0
	for nb := a.size() - 1; nb >= 0; nb-- {
		carry = int(a.ip[nb]) + int(addend&0xff) + carry
		r.ip[nb] = byte(carry)
		carry >>= 8
		addend &^= 0xff
		addend /= 0x100
	}
	if !((addend == 0 && carry == 0) || (addend == -1 && carry == 1)) {
		return Value{}, pgerr.New(pgerr.NumericValueOutOfRange, "result is out of range")
	}
	return r.value(), nil
}

// inetMinus is inetmi: the difference of two addresses as a bigint.
func inetMinus(a, b inetAddr) (Value, error) {
	if a.v6 != b.v6 {
		return Value{}, pgerr.New(pgerr.InvalidParameterValue, "cannot subtract inet values of different sizes")
	}
	var res int64
	carry, k := 1, 0
	for nb := a.size() - 1; nb >= 0; nb-- {
		carry = int(a.ip[nb]) + int(^b.ip[nb]) + carry
		lobyte := carry & 0xff
		if k < 8 {
			res |= int64(lobyte) << (k * 8)
		} else if (res < 0 && lobyte != 0xff) || (res >= 0 && lobyte != 0) {
			return Value{}, pgerr.New(pgerr.NumericValueOutOfRange, "result is out of range")
		}
		carry >>= 8
		k++
	}
	if carry == 0 && k < 8 {
		res |= int64(^uint64(0) << (k * 8))
	}
	return Value{I: res}, nil
}

// inetBitwise is inetand / inetor: the bytes combined, the longer mask.
func inetBitwise(word string, f func(x, y byte) byte) evalFn {
	return inet2Fn(func(a, b inetAddr) (Value, error) {
		if a.v6 != b.v6 {
			return Value{}, pgerr.New(pgerr.InvalidParameterValue, "cannot %s inet values of different sizes", word)
		}
		r := inetAddr{v6: a.v6, bits: max(a.bits, b.bits)}
		for i := 0; i < a.size(); i++ {
			r.ip[i] = f(a.ip[i], b.ip[i])
		}
		return r.value(), nil
	})
}

// setMasklen is inet_set_masklen and cidr_set_masklen (-1: the whole address).
func setMasklen(cidr bool) evalFn {
	return func(_ *EvalContext, args []Value) (Value, error) {
		a := decodeInet(args[0].S)
		bits := int(args[1].I)
		if bits == -1 {
			bits = a.maxBits()
		}
		if bits < 0 || bits > a.maxBits() {
			return Value{}, pgerr.New(pgerr.InvalidParameterValue, "invalid mask length: %d", bits)
		}
		if cidr {
			return a.withMask(bits).value(), nil
		}
		a.bits = bits
		return a.value(), nil
	}
}

func registerNetworkFuncs() {
	for _, id := range []ID{Inet, MacAddr, MacAddr8} {
		t := Type{ID: id, Typmod: -1}
		for _, op := range cmpOps {
			regOp(op, []ID{id, id}, Bool, cmpEval(op, t))
		}
	}
	// PostgreSQL 15 has min and max over inet only.
	regAgg("min", []ID{Inet}, Inet, func() Accumulator { return &minMaxAcc{t: InetType} })
	regAgg("max", []ID{Inet}, Inet, func() Accumulator { return &minMaxAcc{t: InetType, max: true} })

	contain := func(name string, f func(a, b inetAddr) bool) {
		regOp(name, []ID{Inet, Inet}, Bool, inet2Fn(func(a, b inetAddr) (Value, error) {
			return BoolValue(a.v6 == b.v6 && f(a, b)), nil
		}))
	}
	contain("<<", func(a, b inetAddr) bool { return a.bits > b.bits && bitsEqual(a, b, b.bits) })
	contain("<<=", func(a, b inetAddr) bool { return a.bits >= b.bits && bitsEqual(a, b, b.bits) })
	contain(">>", func(a, b inetAddr) bool { return a.bits < b.bits && bitsEqual(a, b, a.bits) })
	contain(">>=", func(a, b inetAddr) bool { return a.bits <= b.bits && bitsEqual(a, b, a.bits) })
	contain("&&", func(a, b inetAddr) bool { return bitsEqual(a, b, min(a.bits, b.bits)) })

	regOp("~", []ID{Inet}, Inet, inetFn(func(a inetAddr) (Value, error) {
		for i := range a.ip {
			a.ip[i] = ^a.ip[i]
		}
		return a.value(), nil
	}))
	regOp("&", []ID{Inet, Inet}, Inet, inetBitwise("AND", func(x, y byte) byte { return x & y }))
	regOp("|", []ID{Inet, Inet}, Inet, inetBitwise("OR", func(x, y byte) byte { return x | y }))
	regOp("+", []ID{Inet, Int8}, Inet, func(_ *EvalContext, a []Value) (Value, error) {
		return inetPlus(decodeInet(a[0].S), a[1].I)
	})
	regOp("+", []ID{Int8, Inet}, Inet, func(_ *EvalContext, a []Value) (Value, error) {
		return inetPlus(decodeInet(a[1].S), a[0].I)
	})
	regOp("-", []ID{Inet, Int8}, Inet, func(_ *EvalContext, a []Value) (Value, error) {
		return inetPlus(decodeInet(a[0].S), -a[1].I)
	})
	regOp("-", []ID{Inet, Inet}, Int8, inet2Fn(inetMinus))

	regFn("abbrev", []ID{Inet}, Text, inetFn(func(a inetAddr) (Value, error) { return TextValue(a.ntop(a.bits)), nil }))
	regFn("abbrev", []ID{Cidr}, Text, inetFn(func(a inetAddr) (Value, error) { return TextValue(a.cidrNtop()), nil }))
	regFn("broadcast", []ID{Inet}, Inet, inetFn(func(a inetAddr) (Value, error) {
		for i := 0; i < a.size(); i++ {
			a.ip[i] |= ^netmaskByte(a.bits, i)
		}
		return a.value(), nil
	}))
	regFn("family", []ID{Inet}, Int4, inetFn(func(a inetAddr) (Value, error) {
		if a.v6 {
			return IntValue(6), nil
		}
		return IntValue(4), nil
	}))
	regFn("host", []ID{Inet}, Text, inetFn(func(a inetAddr) (Value, error) { return TextValue(a.ntop(a.maxBits())), nil }))
	regFn("text", []ID{Inet}, Text, func(_ *EvalContext, a []Value) (Value, error) { return TextValue(networkShow(a[0].S)), nil })
	regFn("masklen", []ID{Inet}, Int4, inetFn(func(a inetAddr) (Value, error) { return IntValue(int64(a.bits)), nil }))
	regFn("netmask", []ID{Inet}, Inet, inetFn(func(a inetAddr) (Value, error) {
		r := inetAddr{v6: a.v6, bits: a.maxBits()}
		for i := 0; i < a.size(); i++ {
			r.ip[i] = netmaskByte(a.bits, i)
		}
		return r.value(), nil
	}))
	regFn("hostmask", []ID{Inet}, Inet, inetFn(func(a inetAddr) (Value, error) {
		r := inetAddr{v6: a.v6, bits: a.maxBits()}
		for i := 0; i < a.size(); i++ {
			r.ip[i] = ^netmaskByte(a.bits, i)
		}
		return r.value(), nil
	}))
	regFn("network", []ID{Inet}, Cidr, inetFn(func(a inetAddr) (Value, error) { return a.withMask(a.bits).value(), nil }))
	regFn("cidr", []ID{Inet}, Cidr, inetFn(func(a inetAddr) (Value, error) { return a.withMask(a.bits).value(), nil }))
	regFn("set_masklen", []ID{Inet, Int4}, Inet, setMasklen(false))
	regFn("set_masklen", []ID{Cidr, Int4}, Cidr, setMasklen(true))
	regFn("inet_same_family", []ID{Inet, Inet}, Bool, inet2Fn(func(a, b inetAddr) (Value, error) {
		return BoolValue(a.v6 == b.v6), nil
	}))
	regFn("inet_merge", []ID{Inet, Inet}, Cidr, inet2Fn(func(a, b inetAddr) (Value, error) {
		if a.v6 != b.v6 {
			return Value{}, pgerr.New(pgerr.InvalidParameterValue, "cannot merge addresses from different families")
		}
		return a.withMask(commonBits(a, b, min(a.bits, b.bits))).value(), nil
	}))
	registerMacFuncs() // network_mac.go
}

// netmaskByte is byte i of the netmask of a mask length.
func netmaskByte(bits, i int) byte {
	switch rest := bits - 8*i; {
	case rest >= 8:
		return 0xff
	case rest <= 0:
		return 0
	default:
		return ^byte(0xff >> rest)
	}
}
