package pgcopy

// PostgreSQL's binary formats of values (the typsend/typrecv of each type):
// the extended protocol's binary parameters and result columns, and the
// fields of binary COPY. Not in wire, which must not know SQL types.

import (
	"encoding/binary"
	"errors"
	"math"
	"strings"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/types"
)

const (
	// Offsets between joind's epoch (1970-01-01) and PostgreSQL's (2000-01-01).
	pgEpochDays   = 10957
	pgEpochMicros = pgEpochDays * 86400 * 1000000
)

// AppendBinary appends the binary send format of v (not NULL) of type t.
func AppendBinary(dst []byte, v types.Value, t types.Type) []byte {
	switch t.ID {
	case types.Array:
		return appendArrayBinary(dst, v, t) // arraybinary.go
	case types.Bool:
		if v.I != 0 {
			return append(dst, 1)
		}
		return append(dst, 0)
	case types.Int2:
		return binary.BigEndian.AppendUint16(dst, uint16(int16(v.I)))
	case types.Int4:
		return binary.BigEndian.AppendUint32(dst, uint32(int32(v.I)))
	case types.Int8:
		return binary.BigEndian.AppendUint64(dst, uint64(v.I))
	case types.Float4:
		return binary.BigEndian.AppendUint32(dst, math.Float32bits(float32(v.F)))
	case types.Float8:
		return binary.BigEndian.AppendUint64(dst, math.Float64bits(v.F))
	case types.Numeric:
		return appendNumericBinary(dst, types.NumericString(v.Num))
	case types.Date:
		d := v.I
		if d != math.MinInt32 && d != math.MaxInt32 {
			d -= pgEpochDays
		}
		return binary.BigEndian.AppendUint32(dst, uint32(int32(d)))
	case types.Timestamp, types.TimestampTZ:
		ts := v.I
		if ts != math.MinInt64 && ts != math.MaxInt64 {
			ts -= pgEpochMicros
		}
		return binary.BigEndian.AppendUint64(dst, uint64(ts))
	case types.Time:
		return binary.BigEndian.AppendUint64(dst, uint64(v.I))
	case types.TimeTZ:
		us, zone := types.TimeTZParts(v.I)
		return binary.BigEndian.AppendUint32(binary.BigEndian.AppendUint64(dst, uint64(us)), uint32(zone))
	case types.Interval:
		dst = binary.BigEndian.AppendUint64(dst, uint64(v.Iv.Micros))
		dst = binary.BigEndian.AppendUint32(dst, uint32(v.Iv.Days))
		return binary.BigEndian.AppendUint32(dst, uint32(v.Iv.Months))
	case types.Record:
		return appendRecordBinary(dst, v, t) // record.go
	case types.Bytea:
		return append(dst, v.S...)
	case types.UUID:
		return append(dst, types.UUIDBytes(v.S)...)
	case types.Inet, types.Cidr:
		// network_send: family (PGSQL_AF_INET 2, PGSQL_AF_INET6 3), mask
		// length, is_cidr, address length, the address.
		v6, bits, addr := types.InetFields(v.S)
		fam := byte(2)
		if v6 {
			fam = 3
		}
		isCidr := byte(0)
		if t.ID == types.Cidr {
			isCidr = 1
		}
		dst = append(dst, fam, byte(bits), isCidr, byte(len(addr)))
		return append(dst, addr...)
	case types.MacAddr, types.MacAddr8:
		return append(dst, v.S...) // macaddr_send / macaddr8_send: the bytes
	case types.Point:
		// point_send: x and y as network-order float8s.
		x, y := types.PointXY(v)
		dst = binary.BigEndian.AppendUint64(dst, math.Float64bits(x))
		return binary.BigEndian.AppendUint64(dst, math.Float64bits(y))
	case types.InternalChar:
		// charsend: the byte, also the zero byte.
		if v.S == "" {
			return append(dst, 0)
		}
		return append(dst, v.S[0])
	case types.Bit, types.VarBit:
		// bit_send / varbit_send: the bit count, then the bits in bytes.
		dst = binary.BigEndian.AppendUint32(dst, uint32(len(v.S)))
		return append(dst, types.BitBytes(v.S)...)
	case types.JSONB, types.JSONPath:
		// jsonb_send, jsonpath_send: the format version (1), then the text.
		return append(append(dst, 1), v.S...)
	}
	if types.IsOIDKind(t.ID) || t.ID == types.Xid {
		return binary.BigEndian.AppendUint32(dst, uint32(v.I)) // oidsend, every reg* type's send, xidsend
	}
	if t.ID == types.Xid8 || t.ID == types.PgLSN {
		return binary.BigEndian.AppendUint64(dst, types.WordBits(v, t.ID)) // xid8send, pg_lsn_send
	}
	// text, varchar, bpchar, name, json, unknown: the characters themselves.
	return types.FormatText(dst, v, t, nil)
}

// Numeric sign words of the binary format.
const (
	numericPos  = 0x0000
	numericNeg  = 0x4000
	numericNaN  = 0xC000
	numericPInf = 0xD000
	numericNInf = 0xF000
)

// appendNumericBinary encodes a numeric given in PostgreSQL's text form:
// ndigits, weight, sign, dscale, then base-10000 digits.
func appendNumericBinary(dst []byte, s string) []byte {
	head := func(ndigits, weight int, sign uint16, dscale int) []byte {
		dst = binary.BigEndian.AppendUint16(dst, uint16(ndigits))
		dst = binary.BigEndian.AppendUint16(dst, uint16(int16(weight)))
		dst = binary.BigEndian.AppendUint16(dst, sign)
		return binary.BigEndian.AppendUint16(dst, uint16(dscale))
	}
	switch s {
	case "NaN":
		return head(0, 0, numericNaN, 0)
	case "Infinity":
		return head(0, 0, numericPInf, 0x20) // dscale bits as PostgreSQL 15 sends them
	case "-Infinity":
		return head(0, 0, numericNInf, 0x20)
	}
	sign := uint16(numericPos)
	if strings.HasPrefix(s, "-") {
		sign, s = numericNeg, s[1:]
	}
	intPart, frac, _ := strings.Cut(s, ".")
	dscale := len(frac)
	intPart = strings.TrimLeft(intPart, "0")
	// Align both parts to whole base-10000 digits.
	if r := len(intPart) % 4; r != 0 {
		intPart = strings.Repeat("0", 4-r) + intPart
	}
	if r := len(frac) % 4; r != 0 {
		frac += strings.Repeat("0", 4-r)
	}
	all := intPart + frac
	groups := make([]uint16, 0, len(all)/4)
	for i := 0; i < len(all); i += 4 {
		var g uint16
		for _, ch := range all[i : i+4] {
			g = g*10 + uint16(ch-'0')
		}
		groups = append(groups, g)
	}
	weight := len(intPart)/4 - 1
	for len(groups) > 0 && groups[0] == 0 {
		groups = groups[1:]
		weight--
	}
	for len(groups) > 0 && groups[len(groups)-1] == 0 {
		groups = groups[:len(groups)-1]
	}
	if len(groups) == 0 {
		return head(0, 0, numericPos, dscale)
	}
	dst = head(len(groups), weight, sign, dscale)
	for _, g := range groups {
		dst = binary.BigEndian.AppendUint16(dst, g)
	}
	return dst
}

// numericTextFromBinary decodes the binary numeric format to text, reading
// its fields in numeric_recv's order so that a short value and a bad field
// fail as PostgreSQL's do. Digits hidden by dscale are dropped, as
// numeric_recv truncates them.
func numericTextFromBinary(b []byte) (string, error) {
	if len(b) < 4 {
		return "", errBinaryShort()
	}
	ndigits := int(binary.BigEndian.Uint16(b))
	weight := int(int16(binary.BigEndian.Uint16(b[2:])))
	if len(b) < 6 {
		return "", errBinaryShort()
	}
	sign := binary.BigEndian.Uint16(b[4:])
	switch sign {
	case numericPos, numericNeg, numericNaN, numericPInf, numericNInf:
	default:
		return "", pgerr.New(CodeInvalidBinary, "invalid sign in external \"numeric\" value")
	}
	if len(b) < 8 {
		return "", errBinaryShort()
	}
	dscale := int(binary.BigEndian.Uint16(b[6:]))
	if dscale > 0x3FFF { // NUMERIC_DSCALE_MASK
		return "", pgerr.New(CodeInvalidBinary, "invalid scale in external \"numeric\" value")
	}
	for i := 0; i < ndigits; i++ {
		if len(b) < 8+2*i+2 {
			return "", errBinaryShort()
		}
		if binary.BigEndian.Uint16(b[8+2*i:]) > 9999 {
			return "", pgerr.New(CodeInvalidBinary, "invalid digit in external \"numeric\" value")
		}
	}
	if len(b) > 8+2*ndigits {
		return "", ErrBinaryTrailing
	}
	switch sign {
	case numericNaN:
		return "NaN", nil
	case numericPInf:
		return "Infinity", nil
	case numericNInf:
		return "-Infinity", nil
	}
	digit := func(pos int) int { // base-10000 digit of weight pos
		i := weight - pos
		if i < 0 || i >= ndigits {
			return 0
		}
		return int(binary.BigEndian.Uint16(b[8+2*i:]))
	}
	var sb strings.Builder
	if sign == numericNeg {
		sb.WriteByte('-')
	}
	if weight < 0 {
		sb.WriteByte('0')
	} else {
		for pos := weight; pos >= 0; pos-- {
			if pos == weight {
				sb.WriteString(itoa(digit(pos)))
			} else {
				sb.WriteString(pad4(digit(pos)))
			}
		}
	}
	if dscale > 0 {
		var fb strings.Builder
		for pos := -1; fb.Len() < dscale; pos-- {
			fb.WriteString(pad4(digit(pos)))
		}
		sb.WriteByte('.')
		sb.WriteString(fb.String()[:dscale])
	}
	return sb.String(), nil
}

func itoa(d int) string {
	var buf [8]byte
	i := len(buf)
	for {
		i--
		buf[i] = byte('0' + d%10)
		d /= 10
		if d == 0 {
			return string(buf[i:])
		}
	}
}

func pad4(d int) string {
	return string([]byte{byte('0' + d/1000%10), byte('0' + d/100%10), byte('0' + d/10%10), byte('0' + d%10)})
}

// CodeInvalidBinary is SQLSTATE invalid_binary_representation.
const CodeInvalidBinary = "22P03"

// ErrBinaryTrailing is a binary value longer than its type's format: the
// caller words it for its context, as PostgreSQL does ("incorrect binary
// data format in bind parameter N" for Bind, "incorrect binary data format"
// for COPY), both 22P03.
var ErrBinaryTrailing = errors.New("incorrect binary data format")

// errBinaryShort is a binary value shorter than its type's format:
// PostgreSQL's receive functions then read past the value's end, which is
// pq_getmsg*'s protocol violation.
func errBinaryShort() error {
	return pgerr.New(pgerr.ProtocolViolation, "insufficient data left in message")
}

// The ranges of PostgreSQL's date_recv and timestamp_recv (IS_VALID_DATE,
// IS_VALID_TIMESTAMP), in days and microseconds since 2000-01-01.
const (
	pgMinDate      = -2451545                   // DATETIME_MIN_JULIAN - POSTGRES_EPOCH_JDATE
	pgEndDate      = 2147483494 - 2451545       // DATE_END_JULIAN - POSTGRES_EPOCH_JDATE
	pgMinTimestamp = int64(-211813488000000000) // MIN_TIMESTAMP
)

// DecodeBinary decodes a value in PostgreSQL's binary format (a Bind
// parameter or a binary COPY field) as type t, as t's typreceive does:
// a short value is 08P01, a long one ErrBinaryTrailing, a bad one the
// type's own error.
func DecodeBinary(b []byte, t types.Type) (types.Value, error) {
	want := func(n int) error {
		switch {
		case len(b) < n:
			return errBinaryShort()
		case len(b) > n:
			return ErrBinaryTrailing
		}
		return nil
	}
	switch t.ID {
	case types.Array:
		return decodeArrayBinary(b, t) // arraybinary.go
	case types.Bool:
		if err := want(1); err != nil {
			return types.Value{}, err
		}
		return types.BoolValue(b[0] != 0), nil
	case types.Int2:
		if err := want(2); err != nil {
			return types.Value{}, err
		}
		return types.IntValue(int64(int16(binary.BigEndian.Uint16(b)))), nil
	case types.Int4:
		if err := want(4); err != nil {
			return types.Value{}, err
		}
		return types.IntValue(int64(int32(binary.BigEndian.Uint32(b)))), nil
	case types.Int8:
		if err := want(8); err != nil {
			return types.Value{}, err
		}
		return types.IntValue(int64(binary.BigEndian.Uint64(b))), nil
	case types.Xid8, types.PgLSN: // xid8recv, pg_lsn_recv
		if err := want(8); err != nil {
			return types.Value{}, err
		}
		return types.WordValue(binary.BigEndian.Uint64(b), t.ID), nil
	case types.Oid, types.RegClass, types.RegType, types.RegProc, types.RegProcedure, types.RegOper,
		types.RegOperator, types.RegNamespace, types.RegRole, types.Xid:
		if err := want(4); err != nil {
			return types.Value{}, err
		}
		return types.IntValue(int64(binary.BigEndian.Uint32(b))), nil // oidrecv
	case types.Float4:
		if err := want(4); err != nil {
			return types.Value{}, err
		}
		return types.FloatValue(float64(math.Float32frombits(binary.BigEndian.Uint32(b)))), nil
	case types.Float8:
		if err := want(8); err != nil {
			return types.Value{}, err
		}
		return types.FloatValue(math.Float64frombits(binary.BigEndian.Uint64(b))), nil
	case types.Numeric:
		s, err := numericTextFromBinary(b)
		if err != nil {
			return types.Value{}, err
		}
		v, err := types.ParseText(s, t)
		if err != nil && pgerr.Code(err) == pgerr.InvalidTextRepresentation {
			// The digits are well formed, so only their number can be
			// refused (PostgreSQL's own limit is far above joind's).
			return types.Value{}, pgerr.New(pgerr.NumericValueOutOfRange, "value overflows numeric format")
		}
		return v, err
	case types.Date:
		if err := want(4); err != nil {
			return types.Value{}, err
		}
		d := int64(int32(binary.BigEndian.Uint32(b)))
		switch {
		case d == math.MinInt32 || d == math.MaxInt32: // -infinity, infinity
		case d < pgMinDate || d >= pgEndDate:
			return types.Value{}, pgerr.New(pgerr.DatetimeFieldOverflow, "date out of range")
		default:
			d += pgEpochDays
		}
		return types.IntValue(d), nil
	case types.Timestamp, types.TimestampTZ:
		if err := want(8); err != nil {
			return types.Value{}, err
		}
		ts := int64(binary.BigEndian.Uint64(b))
		if ts != math.MinInt64 && ts != math.MaxInt64 {
			// PostgreSQL's upper bound is a little above what joind's
			// microseconds since 1970 can hold: that part is refused too.
			if ts < pgMinTimestamp || ts >= math.MaxInt64-pgEpochMicros {
				return types.Value{}, pgerr.New(pgerr.DatetimeFieldOverflow, "timestamp out of range")
			}
			ts += pgEpochMicros
		}
		return types.IntValue(ts), nil
	case types.Time:
		if err := want(8); err != nil {
			return types.Value{}, err
		}
		us := int64(binary.BigEndian.Uint64(b))
		if _, err := types.TimeTZFromParts(us, 0); err != nil {
			return types.Value{}, err
		}
		return types.IntValue(us), nil
	case types.TimeTZ:
		if err := want(12); err != nil {
			return types.Value{}, err
		}
		p, err := types.TimeTZFromParts(int64(binary.BigEndian.Uint64(b)), int32(binary.BigEndian.Uint32(b[8:])))
		return types.IntValue(p), err
	case types.Interval:
		if err := want(16); err != nil {
			return types.Value{}, err
		}
		iv := types.IntervalValue{
			Micros: int64(binary.BigEndian.Uint64(b)),
			Days:   int32(binary.BigEndian.Uint32(b[8:])),
			Months: int32(binary.BigEndian.Uint32(b[12:])),
		}
		return types.Value{Iv: iv}, nil
	case types.JSONB:
		if len(b) == 0 || b[0] != 1 {
			v := 0
			if len(b) > 0 {
				v = int(b[0])
			}
			return types.Value{}, pgerr.New(pgerr.InternalError, "unsupported jsonb version number %d", v)
		}
		b = b[1:]
	case types.JSONPath:
		if len(b) == 0 || b[0] != 1 {
			v := 0
			if len(b) > 0 {
				v = int(b[0])
			}
			return types.Value{}, pgerr.New(pgerr.InternalError, "unsupported jsonpath version number: %d", v)
		}
		b = b[1:]
	}
	switch t.ID {
	case types.Bytea:
		return types.Value{S: string(b)}, nil // bytearecv
	case types.UUID:
		if len(b) != 16 {
			return types.Value{}, pgerr.New("08P01", "insufficient data left in message")
		}
		return types.Value{S: types.UUIDFromBytes(b)}, nil
	case types.Inet, types.Cidr:
		return decodeInetBinary(b, t.ID == types.Cidr)
	case types.MacAddr:
		if len(b) < 6 {
			return types.Value{}, pgerr.New("08P01", "no data left in message")
		}
		return types.Value{S: string(b[:6])}, nil
	case types.Point:
		if len(b) < 16 {
			return types.Value{}, pgerr.New("08P01", "insufficient data left in message")
		}
		return types.PointValue(math.Float64frombits(binary.BigEndian.Uint64(b[:8])), math.Float64frombits(binary.BigEndian.Uint64(b[8:16]))), nil
	case types.MacAddr8:
		// macaddr8_recv takes a 6-byte EUI-48 too, adding FF:FE.
		switch {
		case len(b) == 6:
			return types.Value{S: string(b[:3]) + "\xff\xfe" + string(b[3:])}, nil
		case len(b) < 8:
			return types.Value{}, pgerr.New("08P01", "no data left in message")
		}
		return types.Value{S: string(b[:8])}, nil
	case types.InternalChar:
		if len(b) < 1 {
			return types.Value{}, pgerr.New("08P01", "no data left in message")
		}
		if b[0] == 0 {
			return types.Value{}, nil
		}
		return types.Value{S: string(b[:1])}, nil
	case types.Bit, types.VarBit:
		if len(b) < 4 {
			return types.Value{}, pgerr.New("08P01", "insufficient data left in message")
		}
		return types.BitFromBytes(int32(binary.BigEndian.Uint32(b)), b[4:], t)
	}
	// text, varchar, bpchar, name, unknown: the characters themselves (textrecv).
	if err := pgerr.CheckUTF8(b); err != nil {
		return types.Value{}, err
	}
	if t.ID == types.Name && len(b) >= int(t.Size()) {
		// namerecv refuses what namein would truncate.
		return types.Value{}, pgerr.New(pgerr.NameTooLong, "identifier too long").
			WithDetail("Identifier must be less than %d characters.", t.Size())
	}
	return types.ParseText(string(b), t)
}

// decodeInetBinary is network_recv: family, mask length, is_cidr (read
// but ignored), address length, address; a cidr must have no host bits.
func decodeInetBinary(b []byte, cidr bool) (types.Value, error) {
	name := "inet"
	if cidr {
		name = "cidr"
	}
	if len(b) < 2 {
		return types.Value{}, pgerr.New("08P01", "no data left in message")
	}
	if b[0] != 2 && b[0] != 3 {
		return types.Value{}, pgerr.New("22P03", "invalid address family in external \"%s\" value", name)
	}
	size := 4
	if b[0] == 3 {
		size = 16
	}
	if int(b[1]) > size*8 {
		return types.Value{}, pgerr.New("22P03", "invalid bits in external \"%s\" value", name)
	}
	if len(b) < 4 {
		return types.Value{}, pgerr.New("08P01", "no data left in message")
	}
	if int(b[3]) != size {
		return types.Value{}, pgerr.New("22P03", "invalid length in external \"%s\" value", name)
	}
	if len(b) < 4+size {
		return types.Value{}, pgerr.New("08P01", "no data left in message")
	}
	key := types.InetKey(size == 16, int(b[1]), b[4:4+size])
	if cidr && !types.InetMaskOK(key) {
		return types.Value{}, pgerr.New("22P03", "invalid external \"cidr\" value").
			WithDetail("Value has bits set to right of mask.")
	}
	return types.Value{S: key}, nil
}
