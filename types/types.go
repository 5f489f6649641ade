package types

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/cockroachdb/apd/v3"
)

// ID names one of joind's SQL types.
type ID uint8

// The supported SQL types. Unknown is the type of an untyped string literal
// (PostgreSQL's "unknown") and of a bare NULL before resolution.
const (
	Unknown ID = iota
	Bool
	Int2
	Int4
	Int8
	Float4
	Float8
	Numeric
	Text
	Varchar
	Char // bpchar: blank-padded character(n)
	Date
	Timestamp
	Interval
	// TimestampTZ is timestamp with time zone: an instant, stored as UTC.
	TimestampTZ
	// Name is PostgreSQL's name: a string of at most NAMEDATALEN-1 (63)
	// bytes, compared in the C collation (name.go).
	Name
	// Void is the result type of functions that return nothing
	// (pg_sleep): its one value prints as the empty string (void.go).
	Void
	// Record is a row value: record, or a composite type (composite.go).
	Record
	// Array is an array whose elements are of type Type.Elem (array.go).
	Array
	// Bytea is a byte string (bytea.go): the raw bytes in Value.S.
	Bytea
	// UUID is a 128-bit identifier (uuid.go): Value.S holds its canonical
	// lowercase hyphenated text, whose bytewise order is uuid_cmp's.
	UUID
	// Time is time without time zone: µs since midnight, 0..24:00:00 (time.go).
	Time
	// TimeTZ is time with time zone: a time of day and its UTC offset,
	// packed into one int64 that orders as PostgreSQL's timetz_cmp (timetz.go).
	TimeTZ
	// JSON is json: its input text, validated (json.go).
	JSON
	// JSONB is jsonb: normalized JSON text (json.go).
	JSONB
	// JSONPath is jsonpath: its canonical text, jsonpath_out's (jsonpath.go).
	JSONPath
	// Enum is an enum type (enum.go): Type.UserOID names which; Value.S
	// holds the label's order key.
	Enum
	// Bit is bit(n), a fixed-length bit string; VarBit is bit varying(n)
	// (bit.go): Value.S holds one '0' or '1' byte per bit.
	Bit
	VarBit
	// InternalChar is "char", the one-byte internal type (charbyte.go):
	// Value.S holds the byte, "" for the zero byte.
	InternalChar
	// Oid and the reg* types are object identifiers (regtypes.go):
	// Value.I holds the unsigned 32-bit OID. They stay contiguous
	// (IsOIDKind tests the range).
	Oid
	RegClass
	RegType
	RegProc
	RegProcedure
	RegOper
	RegOperator
	RegNamespace
	RegRole
	// Xid and Xid8 are transaction ids (32- and 64-bit), PgLSN a position
	// in the write-ahead log (xid.go): Value.I holds the unsigned number.
	Xid
	Xid8
	PgLSN
	// Inet and Cidr are IP addresses with a netmask length; MacAddr and
	// MacAddr8 are MAC addresses (network.go, network_mac.go): Value.S
	// holds a binary key whose bytewise order is PostgreSQL's.
	Inet
	Cidr
	MacAddr
	MacAddr8
	// Point is the geometric point (point.go): Value.S holds its two
	// float8s as PostgreSQL's in-memory image.
	Point
)

// Type is a SQL type with its modifier. Typmod follows PostgreSQL's encoding
// (-1 = none; varchar(n)/char(n): n+4; numeric(p,s): ((p<<16)|s)+4), so it can
// be sent unchanged in RowDescription.
type Type struct {
	ID     ID
	Typmod int32 // of an array type: its element's (as atttypmod)
	// Elem is an array type's element type (ID == Array); Unknown otherwise.
	Elem ID
	// UserOID is the pg_type OID of a user-defined type: of an enum
	// (ID Enum) or a composite type (ID Record, compositetype.go), or of
	// an array of those its element's; 0 otherwise.
	UserOID uint32
	// Domain is the pg_type OID of the domain whose base type this is
	// (domain.go); 0 for a type that is no domain.
	Domain uint32
	// ElemDomain is, of an array of a domain (posint[]), the element
	// domain's OID (Elem is then its base type's ID); 0 otherwise.
	ElemDomain uint32
}

// Convenience values for unmodified types.
var (
	UnknownType   = Type{ID: Unknown, Typmod: -1}
	BoolType      = Type{ID: Bool, Typmod: -1}
	Int2Type      = Type{ID: Int2, Typmod: -1}
	Int4Type      = Type{ID: Int4, Typmod: -1}
	Int8Type      = Type{ID: Int8, Typmod: -1}
	Float4Type    = Type{ID: Float4, Typmod: -1}
	Float8Type    = Type{ID: Float8, Typmod: -1}
	NumericType   = Type{ID: Numeric, Typmod: -1}
	TextType      = Type{ID: Text, Typmod: -1}
	VarcharType   = Type{ID: Varchar, Typmod: -1}
	CharType      = Type{ID: Char, Typmod: -1}
	DateType      = Type{ID: Date, Typmod: -1}
	TimestampType = Type{ID: Timestamp, Typmod: -1}
	IntervalType  = Type{ID: Interval, Typmod: -1}
	// TimestampTZType is timestamp with time zone.
	TimestampTZType = Type{ID: TimestampTZ, Typmod: -1}
	NameType        = Type{ID: Name, Typmod: -1}
	VoidType        = Type{ID: Void, Typmod: -1}
	ByteaType       = Type{ID: Bytea, Typmod: -1}
	UUIDType        = Type{ID: UUID, Typmod: -1}
	TimeType        = Type{ID: Time, Typmod: -1}
	TimeTZType      = Type{ID: TimeTZ, Typmod: -1}
	JSONType        = Type{ID: JSON, Typmod: -1}
	JSONBType       = Type{ID: JSONB, Typmod: -1}
	JSONPathType    = Type{ID: JSONPath, Typmod: -1}
	BitType         = Type{ID: Bit, Typmod: -1}
	VarBitType      = Type{ID: VarBit, Typmod: -1}
	// InternalCharType is "char".
	InternalCharType = Type{ID: InternalChar, Typmod: -1}
	InetType         = Type{ID: Inet, Typmod: -1}
	CidrType         = Type{ID: Cidr, Typmod: -1}
	MacAddrType      = Type{ID: MacAddr, Typmod: -1}
	MacAddr8Type     = Type{ID: MacAddr8, Typmod: -1}
	PointType        = Type{ID: Point, Typmod: -1}
)

// PostgreSQL type OIDs, as sent in RowDescription and ParameterDescription.
const (
	OIDBool        uint32 = 16
	OIDBytea       uint32 = 17
	OIDName        uint32 = 19
	OIDInt8        uint32 = 20
	OIDInt2        uint32 = 21
	OIDInt4        uint32 = 23
	OIDText        uint32 = 25
	OIDFloat4      uint32 = 700
	OIDFloat8      uint32 = 701
	OIDUnknown     uint32 = 705
	OIDBpchar      uint32 = 1042
	OIDVarchar     uint32 = 1043
	OIDVoid        uint32 = 2278
	OIDDate        uint32 = 1082
	OIDTime        uint32 = 1083
	OIDTimestamp   uint32 = 1114
	OIDTimestampTZ uint32 = 1184
	OIDInterval    uint32 = 1186
	OIDTimeTZ      uint32 = 1266
	OIDNumeric     uint32 = 1700
	OIDUUID        uint32 = 2950
	OIDJSON        uint32 = 114
	OIDJSONB       uint32 = 3802
	OIDJSONPath    uint32 = 4072
	OIDBit         uint32 = 1560
	OIDVarBit      uint32 = 1562
	OIDChar        uint32 = 18
	OIDInet        uint32 = 869
	OIDCidr        uint32 = 650
	OIDMacAddr     uint32 = 829
	OIDMacAddr8    uint32 = 774
	OIDPoint       uint32 = 600
)

// OID returns the PostgreSQL type OID of t.
func (t Type) OID() uint32 {
	switch t.ID {
	case Array:
		if t.ElemDomain != 0 {
			return domainArrayOID(t.ElemDomain) // domain.go
		}
		if t.Elem == Enum {
			return enumArrayOID(t.ElemType())
		}
		if IsVector(t) {
			return t.UserOID // vectors.go
		}
		if t.Elem == Array {
			return vectorArrayOID(t.UserOID) // vectors.go
		}
		if t.Elem == Record && t.UserOID != 0 {
			return compositeArrayOID(t.ElemType())
		}
		return ArrayOID(t.Elem)
	case Enum:
		return t.UserOID
	case Bool:
		return OIDBool
	case Int2:
		return OIDInt2
	case Int4:
		return OIDInt4
	case Int8:
		return OIDInt8
	case Float4:
		return OIDFloat4
	case Float8:
		return OIDFloat8
	case Numeric:
		return OIDNumeric
	case Text:
		return OIDText
	case Varchar:
		return OIDVarchar
	case Char:
		return OIDBpchar
	case Date:
		return OIDDate
	case Timestamp:
		return OIDTimestamp
	case TimestampTZ:
		return OIDTimestampTZ
	case Interval:
		return OIDInterval
	case Name:
		return OIDName
	case Void:
		return OIDVoid
	case Record:
		if t.UserOID != 0 {
			return t.UserOID // a composite type (compositetype.go)
		}
		return OIDRecord
	case Bytea:
		return OIDBytea
	case UUID:
		return OIDUUID
	case Time:
		return OIDTime
	case TimeTZ:
		return OIDTimeTZ
	case JSON:
		return OIDJSON
	case JSONB:
		return OIDJSONB
	case JSONPath:
		return OIDJSONPath
	case Bit:
		return OIDBit
	case VarBit:
		return OIDVarBit
	case InternalChar:
		return OIDChar
	case Inet:
		return OIDInet
	case Cidr:
		return OIDCidr
	case MacAddr:
		return OIDMacAddr
	case MacAddr8:
		return OIDMacAddr8
	case Point:
		return OIDPoint
	}
	if IsOIDKind(t.ID) {
		return oidKinds[t.ID].oid
	}
	if k, ok := xidKinds[t.ID]; ok {
		return k.oid
	}
	// An unresolved literal reaches the client as text, as in PostgreSQL.
	return OIDText
}

// Size is the typlen reported in RowDescription (-1 for variable width).
func (t Type) Size() int16 {
	switch t.ID {
	case Bool, InternalChar:
		return 1
	case Int2:
		return 2
	case Int4, Float4, Date, Void:
		return 4
	case Int8, Float8, Timestamp, TimestampTZ, Time, MacAddr8:
		return 8
	case MacAddr:
		return 6
	case Interval, UUID, Point:
		return 16
	case TimeTZ:
		return 12
	case Name:
		return nameDataLen
	}
	if IsOIDKind(t.ID) {
		return 4
	}
	if k, ok := xidKinds[t.ID]; ok {
		return k.len
	}
	return -1
}

// ArrowType is the Arrow type of a column of t. Storage and operators use it:
//
//	bool→Boolean, int2/4/8→Int16/32/64, float4/8→Float32/64,
//	numeric→Decimal64/Decimal128/Binary by typmod (decimal.go), text/varchar/char/name→String,
//	date→Date32 (days since 1970-01-01), timestamp→Timestamp(µs, no zone),
//	timestamptz→Timestamp(µs, zone "UTC"): the same physical layout as
//	timestamp (so every *array.Timestamp code path reads both), marked as an
//	instant for Arrow consumers; the types.ID, not the Arrow type, tells the
//	two apart inside joind,
//	interval→MonthDayNanoInterval holding PostgreSQL's MICROseconds in the
//	nanoseconds field (so the time part has PostgreSQL's full int64 range;
//	storage converts segments written before, which held nanoseconds, and
//	values from outside, such as Parquet files, are converted as they come in),
//	time→Int64 (µs since midnight), timetz→Int64 (the packed key of timetz.go),
//	so every int64 path (sort, hash, keys, min/max) handles both.
func (t Type) ArrowType() arrow.DataType {
	switch t.ID {
	case Bool:
		return arrow.FixedWidthTypes.Boolean
	case Int2:
		return arrow.PrimitiveTypes.Int16
	case Int4:
		return arrow.PrimitiveTypes.Int32
	case Int8, Time, TimeTZ:
		return arrow.PrimitiveTypes.Int64
	case Float4:
		return arrow.PrimitiveTypes.Float32
	case Float8:
		return arrow.PrimitiveTypes.Float64
	case Date:
		return arrow.FixedWidthTypes.Date32
	case Timestamp:
		return &arrow.TimestampType{Unit: arrow.Microsecond}
	case TimestampTZ:
		return &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}
	case Interval:
		return arrow.FixedWidthTypes.MonthDayNanoInterval
	case Numeric:
		return numericArrowType(t.Typmod)
	case Array:
		return arrayArrowType
	}
	if IsWordKind(t.ID) {
		return arrow.PrimitiveTypes.Int64 // the OID, xid or LSN, unsigned, in an int64
	}
	return arrow.BinaryTypes.String
}

// Value is one SQL datum. Which field holds the datum depends on the Type the
// value is used with; a Value does not carry its type. Values are immutable:
// never modify a Value's Num in place.
//
//	Bool:             I (0 or 1)
//	Int2/Int4/Int8:   I
//	Float4/Float8:    F
//	Numeric:          Num (never nil for a non-NULL numeric; NaN allowed)
//	Text/Varchar/Char/Name/Unknown: S
//	Bytea:            S (the bytes, any values)
//	UUID:             S (canonical text: 8-4-4-4-12 lowercase hex digits)
//	Date:             I (days since 1970-01-01; ±infinity as math.MinInt32/MaxInt32)
//	Timestamp:        I (µs since 1970-01-01 00:00:00; ±infinity as math.MinInt64/MaxInt64)
//	TimestampTZ:      I (µs since 1970-01-01 00:00:00 UTC; ±infinity as for Timestamp)
//	Interval:         Iv
//	Array:            Arr (never nil for a non-NULL array)
//	Time:             I (µs since midnight, 0..86400000000)
//	TimeTZ:           I (packTimeTZ(time, zone): see timetz.go)
//	Bit/VarBit:       S (one '0' or '1' byte per bit: see bit.go)
//	InternalChar:     S (the one byte of a "char"; "" for the zero byte)
//	Inet/Cidr:        S (family, network bits, mask length, address: see network.go)
//	MacAddr/MacAddr8: S (the 6 or 8 bytes)
//	Point:            S (x and y, little-endian float8s: see point.go)
type Value struct {
	Null bool
	I    int64
	F    float64
	S    string
	Num  *apd.Decimal
	Iv   IntervalValue
	Arr  *ArrayValue
}

// IntervalValue is PostgreSQL's interval: months, days and microseconds kept apart.
type IntervalValue struct {
	Months int32
	Days   int32
	Micros int64
}

// NullValue is the SQL NULL.
var NullValue = Value{Null: true}

// Convenience constructors.
func IntValue(i int64) Value     { return Value{I: i} }
func FloatValue(f float64) Value { return Value{F: f} }
func TextValue(s string) Value   { return Value{S: s} }
func BoolValue(b bool) Value {
	if b {
		return Value{I: 1}
	}
	return Value{}
}

// String is for debugging only; use FormatText for client output.
func (v Value) String() string {
	if v.Null {
		return "NULL"
	}
	return fmt.Sprintf("%+v", struct {
		I int64
		F float64
		S string
	}{v.I, v.F, v.S})
}
