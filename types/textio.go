package types

import (
	"errors"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/joind/joind/pgerr"
)

// Format holds the session settings that change text output.
type Format struct {
	DateStyle        string // "ISO, MDY" when empty
	IntervalStyle    string // "postgres" when empty
	ExtraFloatDigits int    // PostgreSQL's default is 1 (shortest round-trip)
	// TimeZone is the session TimeZone: timestamptz output is shown in it
	// and zone-less timestamptz input is read in it (nil = UTC).
	TimeZone *time.Location
	// ByteaOutput is bytea_output: "hex" (the default, also when empty) or "escape".
	ByteaOutput string
	// Enums is the session's transaction's own changes to enum types (nil:
	// none), which enum input and output read before the registry.
	Enums EnumView
	// Reg reads and prints the reg* types' names (regtypes.go); nil: they
	// print as numbers.
	Reg RegCatalog
}

// DefaultFormat is PostgreSQL's default output settings.
var DefaultFormat = Format{DateStyle: "ISO, MDY", IntervalStyle: "postgres", ExtraFloatDigits: 1}

func (f *Format) orDefault() *Format {
	if f == nil {
		return &DefaultFormat
	}
	return f
}

// FormatText appends PostgreSQL's text output of v (of type t) to dst.
// v must not be NULL (the caller writes NULL its own way).
func FormatText(dst []byte, v Value, t Type, f *Format) []byte {
	f = f.orDefault()
	switch t.ID {
	case Bool:
		if v.I != 0 {
			return append(dst, 't')
		}
		return append(dst, 'f')
	case Int2, Int4, Int8:
		return strconv.AppendInt(dst, v.I, 10)
	case Float4:
		return appendFloat(dst, v.F, 32, f.ExtraFloatDigits)
	case Float8:
		return appendFloat(dst, v.F, 64, f.ExtraFloatDigits)
	case Numeric:
		return appendNumeric(dst, v.Num)
	case Char:
		dst = append(dst, v.S...)
		if n := t.CharLen(); n > 0 {
			for l := utf8.RuneCountInString(v.S); l < n; l++ {
				dst = append(dst, ' ')
			}
		}
		return dst
	case Date:
		return appendDate(dst, v.I, parseDateStyle(f.DateStyle))
	case Timestamp:
		return appendTimestamp(dst, v.I, parseDateStyle(f.DateStyle))
	case TimestampTZ:
		return appendTimestampTZ(dst, v.I, parseDateStyle(f.DateStyle), f.TimeZone)
	case Interval:
		return appendInterval(dst, v.Iv, f.IntervalStyle)
	case Array:
		if IsVector(t) {
			return appendVector(dst, v.Arr) // vectors.go
		}
		return appendArrayOut(dst, v.Arr, t.ElemType(), f)
	case Bytea:
		return appendBytea(dst, v.S, f.ByteaOutput == "escape")
	case Time:
		return appendTime(dst, v.I)
	case TimeTZ:
		return appendTimeTZ(dst, v.I)
	case Enum:
		return formatEnum(dst, v, t, f)
	case InternalChar:
		return appendInternalChar(dst, v.S)
	case Inet, Cidr:
		return appendInet(dst, v.S, t.ID == Cidr) // network.go
	case MacAddr, MacAddr8:
		return appendMacaddr(dst, v.S) // network_mac.go
	case Point:
		return appendPoint(dst, v, f.ExtraFloatDigits) // point.go
	case Record:
		if t.UserOID != 0 {
			return formatComposite(dst, v, t, f) // composite.go
		}
	}
	if IsOIDKind(t.ID) {
		return appendOIDKind(dst, v, t, f)
	}
	if _, ok := xidKinds[t.ID]; ok {
		return appendXidKind(dst, v, t)
	}
	return append(dst, v.S...)
}

// TextOf is FormatText into a new string with default settings.
func TextOf(v Value, t Type) string {
	if v.Null {
		return ""
	}
	return string(FormatText(nil, v, t, nil))
}

// pgShortest is the shortest decimal (in strconv's 'e' form) that
// PostgreSQL's Ryu prints: unlike strconv, it never accepts a decimal lying
// exactly on the rounding boundary between two floats (acceptBounds is
// false unless STRICTLY_SHORTEST), so 1e23::float8 is 9.999999999999999e+22
// and 3e10::float4 is 3.0000001e+10.
func pgShortest(f float64, bits int) string {
	if bits == 32 {
		f = float64(float32(f))
	}
	e := strconv.FormatFloat(f, 'e', -1, bits)
	for onBoundary(e, f, bits) {
		k := strings.IndexByte(e, 'e')
		n := strings.Count(e[:k], "") - 1 - strings.Count(e[:k], ".") - strings.Count(e[:k], "-")
		// one more significant digit, correctly rounded, until it
		// round-trips without relying on the tie
		for {
			e = strconv.FormatFloat(f, 'e', n, bits)
			if g, err := strconv.ParseFloat(e, bits); err == nil && g == f {
				break
			}
			n++
		}
	}
	return e
}

// onBoundary reports whether the decimal e is exactly halfway between f
// and its neighbouring float (only a dyadic decimal can be).
func onBoundary(e string, f float64, bits int) bool {
	k := strings.IndexByte(e, 'e')
	mant := strings.TrimPrefix(e[:k], "-")
	exp, _ := strconv.Atoi(e[k+1:])
	digits := strings.Replace(mant, ".", "", 1)
	scale := exp - (len(digits) - 1) // value = digits × 10^scale
	if scale < 0 {
		if -scale > 27 {
			return false
		}
		d, err := strconv.ParseUint(digits, 10, 64)
		p5 := uint64(1)
		for i := 0; i < -scale; i++ {
			p5 *= 5
		}
		if err != nil || d%p5 != 0 {
			return false // not dyadic: cannot be a midpoint of floats
		}
	}
	r, ok := new(big.Rat).SetString(e)
	if !ok {
		return false
	}
	x := new(big.Rat).SetFloat64(f)
	dir := math.Inf(1)
	if r.Cmp(x) < 0 {
		dir = math.Inf(-1)
	} else if r.Cmp(x) == 0 {
		return false
	}
	var next float64
	if bits == 32 {
		next = float64(math.Nextafter32(float32(f), float32(dir)))
	} else {
		next = math.Nextafter(f, dir)
	}
	if math.IsInf(next, 0) {
		return false
	}
	mid := new(big.Rat).Add(x, new(big.Rat).SetFloat64(next))
	mid.Quo(mid, big.NewRat(2, 1))
	return r.Cmp(mid) == 0
}

// appendFixed writes the 'e'-form significand mant (d.ddd, maybe signed)
// with decimal exponent exp in positional notation.
func appendFixed(dst []byte, mant string, exp int) []byte {
	if mant[0] == '-' {
		dst = append(dst, '-')
		mant = mant[1:]
	}
	digits := strings.Replace(mant, ".", "", 1)
	point := exp + 1 // digits before the point
	switch {
	case point <= 0:
		dst = append(dst, "0."...)
		for i := 0; i < -point; i++ {
			dst = append(dst, '0')
		}
		return append(dst, digits...)
	case point >= len(digits):
		dst = append(dst, digits...)
		for i := len(digits); i < point; i++ {
			dst = append(dst, '0')
		}
		return dst
	}
	dst = append(dst, digits[:point]...)
	dst = append(dst, '.')
	return append(dst, digits[point:]...)
}

// appendFloat is float4out/float8out.
func appendFloat(dst []byte, f float64, bits int, efd int) []byte {
	switch {
	case math.IsNaN(f):
		return append(dst, "NaN"...)
	case math.IsInf(f, 1):
		return append(dst, "Infinity"...)
	case math.IsInf(f, -1):
		return append(dst, "-Infinity"...)
	}
	digits := 15
	if bits == 32 {
		digits = 6
	}
	if efd > 0 {
		// Shortest round-trip digits, scientific outside PostgreSQL's range.
		e := pgShortest(f, bits)
		k := strings.LastIndexByte(e, 'e')
		exp, _ := strconv.Atoi(e[k+1:])
		if exp < -4 || exp >= digits {
			return append(dst, e...)
		}
		return appendFixed(dst, e[:k], exp)
	}
	p := digits + efd
	if p < 1 {
		p = 1
	}
	return strconv.AppendFloat(dst, f, 'g', p, bits)
}

// ParseText converts PostgreSQL text input to a value of type t, with
// PostgreSQL's accepted syntaxes and error messages. Dates are read in MDY
// order; use ParseTextFormat for another DateStyle.
func ParseText(s string, t Type) (Value, error) { return ParseTextFormat(s, t, nil, time.Time{}) }

// ParseTextFormat is ParseText with the session's DateStyle (for the field
// order of ambiguous dates) and statement time (for 'now', 'today').
func ParseTextFormat(s string, t Type, f *Format, now time.Time) (Value, error) {
	switch t.ID {
	case Array:
		if IsVector(t) {
			return parseVector(s, t) // vectors.go
		}
		return parseArray(s, t, f, now)
	case Unknown, Text:
		return Value{S: s}, nil
	case Varchar, Char, Name:
		return coerceString(s, t, false)
	case Bytea:
		b, err := parseBytea(s)
		return Value{S: b}, err
	case UUID:
		u, err := parseUUID(s)
		return Value{S: u}, err
	case Bit, VarBit:
		b, err := parseBitString(s, t.Typmod, t.ID == VarBit)
		return Value{S: b}, err
	case InternalChar:
		return Value{S: parseInternalChar(s)}, nil
	case Inet, Cidr:
		a, err := parseInet(s, t.ID == Cidr)
		return a.value(), err
	case MacAddr:
		m, err := parseMacaddr(s)
		return Value{S: m}, err
	case MacAddr8:
		m, err := parseMacaddr8(s)
		return Value{S: m}, err
	case Point:
		return parsePoint(s)
	case JSON:
		return parseJSONInput(s)
	case JSONB:
		return parseJSONBInput(s)
	case JSONPath:
		return parseJSONPathInput(s)
	case Enum:
		return parseEnum(s, t, f)
	case Bool:
		b, ok := parseBool(s)
		if !ok {
			return Value{}, pgerr.New(pgerr.InvalidTextRepresentation, "invalid input syntax for type boolean: \"%s\"", s)
		}
		return BoolValue(b), nil
	case Int2, Int4, Int8:
		i, err := parseInt(s, t.ID)
		return Value{I: i}, err
	case Float4, Float8:
		fl, err := parseFloat(s, t.ID)
		return Value{F: fl}, err
	case Numeric:
		d, err := parseNumeric(s)
		if err != nil {
			return Value{}, err
		}
		d, err = applyNumericTypmod(d, t.Typmod)
		if err != nil {
			return Value{}, err
		}
		return Value{Num: d}, nil
	case Date:
		return parseDate(s, parseDateStyle(f.orDefault().DateStyle).order, now, f.orDefault().TimeZone)
	case Timestamp:
		v, err := parseTimestamp(s, parseDateStyle(f.orDefault().DateStyle).order, now, f.orDefault().TimeZone)
		if err != nil {
			return v, err
		}
		v.I = roundTimestamp(v.I, t.Typmod)
		return v, nil
	case TimestampTZ:
		fo := f.orDefault()
		v, err := parseTimestampTZ(s, parseDateStyle(fo.DateStyle).order, now, fo.TimeZone)
		if err != nil {
			return v, err
		}
		v.I = roundTimestamp(v.I, t.Typmod)
		return v, nil
	case Interval:
		iv, err := parseInterval(s, t.Typmod, strings.EqualFold(f.orDefault().IntervalStyle, "sql_standard"))
		return Value{Iv: iv}, err
	case Record:
		return parseRecord(s, t, f)
	case Time:
		fo := f.orDefault()
		return parseTime(s, t.Typmod, parseDateStyle(fo.DateStyle).order, now, fo.TimeZone)
	case TimeTZ:
		fo := f.orDefault()
		return parseTimeTZ(s, t.Typmod, parseDateStyle(fo.DateStyle).order, now, fo.TimeZone)
	}
	if IsOIDKind(t.ID) {
		return parseOIDKind(s, t, f)
	}
	if _, ok := xidKinds[t.ID]; ok {
		return parseXidKind(s, t)
	}
	return Value{}, pgerr.New(pgerr.FeatureNotSupported, "cannot read input for type %s", t.SQLName())
}

// ParseTextCtx is ParseTextFormat with a session's EvalContext: its
// Format, TimeZone and statement time. ctx may be nil.
func ParseTextCtx(ctx *EvalContext, s string, t Type) (Value, error) {
	if ctx == nil {
		return ParseText(s, t)
	}
	return ParseTextFormat(s, t, ctxFormat(ctx), ctx.Now)
}

// ctxFormat is ctx's Format with the session TimeZone filled in, so that
// casts to and from text see the zone even when the caller set only
// EvalContext.TimeZone.
func ctxFormat(ctx *EvalContext) *Format {
	if ctx == nil {
		return nil
	}
	if ctx.Format != nil && (ctx.Format.TimeZone != nil || ctx.TimeZone == nil) {
		return ctx.Format
	}
	f := *ctx.Format.orDefault()
	f.TimeZone = ctx.TimeZone
	return &f
}

func trimSpace(s string) string {
	return strings.TrimFunc(s, func(r rune) bool {
		return r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\v' || r == '\f'
	})
}

// parseBool is boolin: unique prefixes of true/false/yes/no/on/off, 1/0.
func parseBool(in string) (bool, bool) {
	s := strings.ToLower(trimSpace(in))
	if s == "" {
		return false, false
	}
	prefix := func(word string, min int) bool {
		return len(s) >= min && len(s) <= len(word) && word[:len(s)] == s
	}
	switch {
	case prefix("true", 1), prefix("yes", 1), prefix("on", 2), s == "1":
		return true, true
	case prefix("false", 1), prefix("no", 1), prefix("off", 2), s == "0":
		return false, true
	}
	return false, false
}

func intTypeName(id ID) string {
	switch id {
	case Int2:
		return "smallint"
	case Int8:
		return "bigint"
	}
	return "integer"
}

func errIntOutOfRange(id ID) error {
	return pgerr.New(pgerr.NumericValueOutOfRange, "%s out of range", intTypeName(id))
}

func checkIntRange(i int64, id ID) error {
	switch id {
	case Int2:
		if i < math.MinInt16 || i > math.MaxInt16 {
			return errIntOutOfRange(id)
		}
	case Int4:
		if i < math.MinInt32 || i > math.MaxInt32 {
			return errIntOutOfRange(id)
		}
	}
	return nil
}

// parseInt is int2in/int4in/int8in (PostgreSQL 15: decimal digits only).
func parseInt(in string, id ID) (int64, error) {
	s := trimSpace(in)
	name := intTypeName(id)
	body := s
	if body != "" && (body[0] == '+' || body[0] == '-') {
		body = body[1:]
	}
	if body == "" {
		return 0, pgerr.New(pgerr.InvalidTextRepresentation, "invalid input syntax for type %s: \"%s\"", name, in)
	}
	for i := 0; i < len(body); i++ {
		if !isDigit(body[i]) {
			return 0, pgerr.New(pgerr.InvalidTextRepresentation, "invalid input syntax for type %s: \"%s\"", name, in)
		}
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err == nil {
		err = checkIntRange(v, id)
	}
	if err != nil {
		return 0, pgerr.New(pgerr.NumericValueOutOfRange, "value \"%s\" is out of range for type %s", in, name)
	}
	return v, nil
}

// parseFloat is float4in/float8in.
func parseFloat(in string, id ID) (float64, error) {
	name := "double precision"
	bits := 64
	if id == Float4 {
		name, bits = "real", 32
	}
	s := trimSpace(in)
	syntax := func() error {
		return pgerr.New(pgerr.InvalidTextRepresentation, "invalid input syntax for type %s: \"%s\"", name, in)
	}
	switch strings.ToLower(s) {
	case "nan", "+nan", "-nan":
		return math.NaN(), nil
	case "infinity", "+infinity", "inf", "+inf":
		return math.Inf(1), nil
	case "-infinity", "-inf":
		return math.Inf(-1), nil
	case "":
		return 0, syntax()
	}
	// strtod's syntax: decimal, hexadecimal ("0x1.8p3") and nan(chars);
	// Go's parser takes underscores and other spellings, so check first.
	i := 0
	if s[0] == '+' || s[0] == '-' {
		i++
	}
	if isStrtodNaN(s[i:]) {
		return math.NaN(), nil
	}
	if len(s) > i+1 && s[i] == '0' && (s[i+1] == 'x' || s[i+1] == 'X') {
		return parseHexFloat(in, s, i+2, bits, name, syntax)
	}
	i, nd := scanMantissa(s, i)
	if nd == 0 {
		return 0, syntax()
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		j := i
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		if i == j {
			return 0, syntax()
		}
	}
	if i != len(s) {
		return 0, syntax()
	}
	f, err := strconv.ParseFloat(s, bits)
	outOfRange := pgerr.New(pgerr.NumericValueOutOfRange, "\"%s\" is out of range for type %s", in, name)
	if err != nil {
		return 0, outOfRange
	}
	if f == 0 && strings.IndexAny(strings.SplitN(strings.ToLower(s), "e", 2)[0], "123456789") >= 0 {
		return 0, outOfRange // underflow
	}
	return f, nil
}

// isStrtodNaN reports whether s is strtod's "nan(n-char-sequence)".
func isStrtodNaN(s string) bool {
	if len(s) < 5 || !strings.EqualFold(s[:4], "nan(") || s[len(s)-1] != ')' {
		return false
	}
	for _, c := range []byte(s[4 : len(s)-1]) {
		if !(isDigit(c) || c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return true
}

// parseHexFloat reads strtod's hexadecimal form after the "0x" at s[i:]:
// hex digits with an optional point, then an optional binary exponent.
func parseHexFloat(in, s string, i, bits int, name string, syntax func() error) (float64, error) {
	isHex := func(c byte) bool { return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }
	start, nd, nonzero := i, 0, false
	for ; i < len(s) && (isHex(s[i]) || s[i] == '.'); i++ {
		if s[i] == '.' {
			if strings.IndexByte(s[start:i], '.') >= 0 {
				break
			}
			continue
		}
		nd++
		nonzero = nonzero || s[i] != '0'
	}
	if nd == 0 {
		return 0, syntax() // strtod reads the "0" and leaves "x..." as junk
	}
	mant := s[:i]
	exp := "p0"
	if k := scanExponent(s, i, 'p'); k > i {
		exp, i = s[i:k], k
	}
	if i != len(s) {
		return 0, syntax()
	}
	f, err := strconv.ParseFloat(mant+exp, bits)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, syntax()
	}
	if err != nil || f == 0 && nonzero {
		return 0, pgerr.New(pgerr.NumericValueOutOfRange, "\"%s\" is out of range for type %s", in, name)
	}
	return f, nil
}

// coerceString applies varchar(n)/char(n) length rules. explicit casts
// truncate; input and implicit/assignment coercions fail unless only
// blanks would be cut.
func coerceString(s string, t Type, explicit bool) (Value, error) {
	if t.ID == Name {
		return Value{S: clipName(s)}, nil
	}
	n := t.CharLen()
	if n < 0 {
		return Value{S: s}, nil
	}
	l := utf8.RuneCountInString(s)
	if l > n {
		cut := byteOffsetOfRune(s, n)
		if !explicit {
			for i := cut; i < len(s); i++ {
				if s[i] != ' ' {
					return Value{}, pgerr.New(pgerr.StringDataRightTrunc, "value too long for type %s", t.SQLName())
				}
			}
		}
		s = s[:cut]
		l = n
	}
	if t.ID == Char && l < n {
		s += strings.Repeat(" ", n-l)
	}
	return Value{S: s}, nil
}

func byteOffsetOfRune(s string, n int) int {
	i := 0
	for k := 0; k < n && i < len(s); k++ {
		_, sz := utf8.DecodeRuneInString(s[i:])
		i += sz
	}
	return i
}

// scanMantissa reads strtod's decimal mantissa (digits, a point, digits)
// from s[i:], returning where it ends and how many digits it has.
func scanMantissa(s string, i int) (end, digits int) {
	for i < len(s) && isDigit(s[i]) {
		i++
		digits++
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && isDigit(s[i]) {
			i++
			digits++
		}
	}
	return i, digits
}

// scanExponent is where strtod's exponent at s[i:] ends: the mark (e or
// p, either case), an optional sign and at least one digit; i when there
// is no such exponent.
func scanExponent(s string, i int, mark byte) int {
	if i >= len(s) || (s[i] != mark && s[i] != mark-'a'+'A') {
		return i
	}
	j := i + 1
	if j < len(s) && (s[j] == '+' || s[j] == '-') {
		j++
	}
	k := j
	for k < len(s) && isDigit(s[k]) {
		k++
	}
	if k == j {
		return i
	}
	return k
}
