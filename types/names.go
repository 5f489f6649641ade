package types

import (
	"fmt"
	"strings"

	"github.com/joind/joind/pgerr"
)

// Type categories (pg_type.typcategory) used by overload resolution.
const (
	catBool       = 'B'
	catNumeric    = 'N'
	catString     = 'S'
	catDateTime   = 'D'
	catTimespan   = 'T'
	catUnknown    = 'X'
	catPseudo     = 'P'
	catArray      = 'A'
	catUser       = 'U'
	catEnum       = 'E'
	catBitString  = 'V'
	catInternal   = 'Z'
	catNetwork    = 'I'
	catGeometric  = 'G'
	catInvalid    = 0
	maxNumPrec    = 1000
	maxNumScale   = 1000
	minNumScale   = -1000
	maxVarcharLen = 10485760
)

// Category returns PostgreSQL's type category letter of t.
func (t Type) Category() byte { return idCategory(t.ID) }

func idCategory(id ID) byte {
	switch id {
	case Bool:
		return catBool
	case Int2, Int4, Int8, Float4, Float8, Numeric:
		return catNumeric
	case Text, Varchar, Char, Name:
		return catString
	case Date, Timestamp, TimestampTZ, Time, TimeTZ:
		return catDateTime
	case Interval:
		return catTimespan
	case Unknown:
		return catUnknown
	case idAnyNonArray, Record:
		return catPseudo
	case Array:
		return catArray
	case Bytea, UUID:
		return catUser
	case JSON, JSONB, JSONPath:
		return catUser
	case Enum:
		return catEnum
	case Bit, VarBit:
		return catBitString
	case InternalChar:
		return catInternal
	case Inet, Cidr:
		return catNetwork
	case MacAddr, MacAddr8:
		return catUser
	case Point:
		return catGeometric
	}
	if IsOIDKind(id) {
		return catNumeric
	}
	if _, ok := xidKinds[id]; ok {
		return catUser
	}
	return catInvalid
}

// IsPreferred reports whether t is the preferred type of its category
// (float8, text, interval, bool), which overload resolution favours.
func (t Type) IsPreferred() bool { return idPreferred(t.ID) }

func idPreferred(id ID) bool {
	switch id {
	case Float8, Text, Interval, Bool, TimestampTZ, VarBit, Oid, Inet:
		return true
	}
	return false
}

// NumericTypmod encodes numeric(precision, scale) the way PostgreSQL does.
func NumericTypmod(precision, scale int) int32 {
	return int32((precision<<16)|(scale&0x7ff)) + 4
}

// NumericPrecScale decodes a numeric typmod; ok is false for -1.
func NumericPrecScale(typmod int32) (precision, scale int, ok bool) {
	if typmod < 4 {
		return 0, 0, false
	}
	tm := typmod - 4
	precision = int((tm >> 16) & 0xffff)
	// scale is an 11-bit signed field (PostgreSQL 15 allows negative scales).
	scale = int(((tm & 0x7ff) ^ 1024) - 1024)
	return precision, scale, true
}

// CharLen returns n of varchar(n)/char(n), or -1 when unconstrained.
func (t Type) CharLen() int {
	if (t.ID == Varchar || t.ID == Char) && t.Typmod >= 4 {
		return int(t.Typmod - 4)
	}
	return -1
}

// VarcharOf returns varchar(n); CharOf returns character(n); NumericOf numeric(p,s).
func VarcharOf(n int) Type { return Type{ID: Varchar, Typmod: int32(n) + 4} }
func CharOf(n int) Type    { return Type{ID: Char, Typmod: int32(n) + 4} }
func NumericOf(precision, scale int) Type {
	return Type{ID: Numeric, Typmod: NumericTypmod(precision, scale)}
}

// FromTypeName resolves a type name as pg_query's TypeName gives it
// (names such as ["pg_catalog","int4"] or ["varchar"], the integer typmods,
// and the number of array bounds) to a Type.
func FromTypeName(names []string, typmods []int32, arrayBounds int) (Type, error) {
	if len(names) == 0 {
		return Type{}, pgerr.New(pgerr.SyntaxError, "empty type name")
	}
	n := names
	if len(n) == 2 && strings.EqualFold(n[0], "pg_catalog") {
		n = n[1:]
	}
	full := strings.Join(names, ".")
	if len(n) != 1 {
		return Type{}, pgerr.New(pgerr.UndefinedObject, "type \"%s\" does not exist", full)
	}
	name := strings.ToLower(n[0])
	var id ID
	switch name {
	case "bool", "boolean":
		id = Bool
	case "int2", "smallint":
		id = Int2
	case "int4", "int", "integer":
		id = Int4
	case "int8", "bigint":
		id = Int8
	case "float4", "real":
		id = Float4
	case "float8", "double precision":
		id = Float8
	case "float":
		// float(p): 1..24 is real, 25..53 double precision (the grammar
		// normally does this itself).
		id = Float8
		if len(typmods) == 1 {
			p := typmods[0]
			if p < 1 {
				return Type{}, pgerr.New(pgerr.InvalidParameterValue, "precision for type float must be at least 1 bit")
			}
			if p > 53 {
				return Type{}, pgerr.New(pgerr.InvalidParameterValue, "precision for type float must be less than 54 bits")
			}
			if p <= 24 {
				id = Float4
			}
			typmods = nil
		}
	case "numeric", "decimal":
		id = Numeric
	case "text":
		id = Text
	case "varchar", "character varying":
		id = Varchar
	case "bpchar", "character":
		id = Char
	case "char":
		// Only a quoted "char" arrives here (the grammar turns CHAR into
		// bpchar): PostgreSQL's one-byte "char" type.
		id = InternalChar
	case "date":
		id = Date
	case "timestamp", "timestamp without time zone":
		id = Timestamp
	case "interval":
		id = Interval
	case "unknown":
		id = Unknown
	case "name":
		id = Name
	case "json":
		id = JSON
	case "jsonb":
		id = JSONB
	case "jsonpath":
		id = JSONPath
	case "bytea":
		id = Bytea
	case "uuid":
		id = UUID
	case "xid":
		id = Xid
	case "xid8":
		id = Xid8
	case "pg_lsn":
		id = PgLSN
	case "timestamptz", "timestamp with time zone":
		id = TimestampTZ
	case "time", "time without time zone":
		id = Time
	case "timetz", "time with time zone":
		id = TimeTZ
	case "bit":
		id = Bit
	case "varbit", "bit varying":
		id = VarBit
	case "inet":
		id = Inet
	case "cidr":
		id = Cidr
	case "macaddr":
		id = MacAddr
	case "macaddr8":
		id = MacAddr8
	case "point":
		id = Point
	case
		// Other PostgreSQL built-in types: they exist there, so "does not exist" would be wrong.
		"money", "xml", "line",
		"lseg", "box", "path", "polygon", "circle", "tsvector", "tsquery",
		"int4range", "int8range", "numrange", "daterange", "tsrange", "tstzrange", "cid", "tid":
		return Type{}, pgerr.New(pgerr.FeatureNotSupported, "type %s is not supported", name)
	case "record":
		id = Record // typmod -1: a record of unknown fields (NULL::record)
	case "int2vector", "oidvector":
		if len(typmods) > 0 {
			full := name
			if arrayBounds > 0 {
				full += "[]"
			}
			return Type{}, pgerr.New(pgerr.SyntaxError, "type modifier is not allowed for type \"%s\"", full)
		}
		v := OidVectorType
		if name == "int2vector" {
			v = Int2VectorType
		}
		if arrayBounds > 0 {
			return ArrayOf(v), nil // vectors.go: int2vector[]
		}
		return v, nil
	default:
		if rt, ok := RegTypeByName(name); ok {
			id = rt.ID
			break
		}
		// _int4 and friends: PostgreSQL's names of the array types.
		if strings.HasPrefix(name, "_") {
			if et, err := FromTypeName([]string{name[1:]}, typmods, 0); err == nil && arrayElemOK(et.ID) {
				return ArrayOf(et), nil
			}
		}
		return Type{}, pgerr.New(pgerr.UndefinedObject, "type \"%s\" does not exist", full)
	}
	if arrayBounds > 0 {
		et, err := FromTypeName(names, typmods, 0)
		if err != nil {
			return et, err
		}
		if !arrayElemOK(et.ID) {
			// Never drop the brackets silently.
			return Type{}, pgerr.New(pgerr.FeatureNotSupported, "type %s[] is not supported", et.BaseSQLName())
		}
		return ArrayOf(et), nil
	}
	t := Type{ID: id, Typmod: -1}
	if len(typmods) == 0 {
		return t, nil
	}
	switch id {
	case Varchar, Char:
		if len(typmods) != 1 {
			return Type{}, pgerr.New(pgerr.InvalidParameterValue, "invalid type modifier")
		}
		short := "varchar"
		if id == Char {
			short = "char"
		}
		if typmods[0] < 1 {
			return Type{}, pgerr.New(pgerr.InvalidParameterValue, "length for type %s must be at least 1", short)
		}
		if typmods[0] > maxVarcharLen {
			return Type{}, pgerr.New(pgerr.InvalidParameterValue, "length for type %s cannot exceed %d", short, maxVarcharLen)
		}
		t.Typmod = typmods[0] + 4
	case Numeric:
		if len(typmods) > 2 {
			return Type{}, pgerr.New(pgerr.InvalidParameterValue, "invalid NUMERIC type modifier")
		}
		p := int(typmods[0])
		s := 0
		if len(typmods) == 2 {
			s = int(typmods[1])
		}
		if p < 1 || p > maxNumPrec {
			return Type{}, pgerr.New(pgerr.InvalidParameterValue, "NUMERIC precision %d must be between 1 and %d", p, maxNumPrec)
		}
		if s < minNumScale || s > maxNumScale {
			return Type{}, pgerr.New(pgerr.InvalidParameterValue, "NUMERIC scale %d must be between %d and %d", s, minNumScale, maxNumScale)
		}
		t.Typmod = NumericTypmod(p, s)
	case Timestamp, TimestampTZ:
		if len(typmods) != 1 {
			return Type{}, pgerr.New(pgerr.InvalidParameterValue, "invalid type modifier")
		}
		p := typmods[0]
		if p < 0 {
			tz := ""
			if id == TimestampTZ {
				tz = " WITH TIME ZONE"
			}
			return Type{}, pgerr.New(pgerr.InvalidParameterValue, "TIMESTAMP(%d)%s precision must not be negative", p, tz)
		}
		if p > 6 {
			p = 6 // PostgreSQL warns and reduces to the maximum
		}
		t.Typmod = p
	case Time, TimeTZ:
		p, err := timeTypmodIn(typmods, id == TimeTZ)
		if err != nil {
			return Type{}, err
		}
		t.Typmod = p
	case Interval:
		tm, err := intervalTypmodIn(typmods)
		if err != nil {
			return Type{}, err
		}
		t.Typmod = tm
	case Bit, VarBit:
		tm, err := bitTypmodIn(typmods, t.PgTypeName())
		if err != nil {
			return Type{}, err
		}
		t.Typmod = tm
	default:
		return Type{}, pgerr.New(pgerr.SyntaxError, "type modifier is not allowed for type \"%s\"", full) // the name as written, as TypeNameToString
	}
	return t, nil
}

// BaseSQLName is PostgreSQL's format_type_be: the type name without its
// modifier, as error messages show it ("integer", "character varying").
func (t Type) BaseSQLName() string {
	if t.Domain != 0 {
		return domainName(t)
	}
	if IsVector(t) {
		return vectorName(t)
	}
	switch t.ID {
	case Array:
		return t.ElemType().BaseSQLName() + "[]"
	case Unknown:
		return "unknown"
	case Bool:
		return "boolean"
	case Int2:
		return "smallint"
	case Int4:
		return "integer"
	case Int8:
		return "bigint"
	case Float4:
		return "real"
	case Float8:
		return "double precision"
	case Numeric:
		return "numeric"
	case Text:
		return "text"
	case Varchar:
		return "character varying"
	case Char:
		return "character"
	case Date:
		return "date"
	case Timestamp:
		return "timestamp without time zone"
	case TimestampTZ:
		return "timestamp with time zone"
	case Interval:
		return "interval"
	case Name:
		return "name"
	case Void:
		return "void"
	case Bytea:
		return "bytea"
	case UUID:
		return "uuid"
	case Time:
		return "time without time zone"
	case TimeTZ:
		return "time with time zone"
	case JSON:
		return "json"
	case JSONB:
		return "jsonb"
	case JSONPath:
		return "jsonpath"
	case Enum:
		return enumName(t)
	case Bit:
		return "bit"
	case VarBit:
		return "bit varying"
	case InternalChar:
		return `"char"`
	case Inet, Cidr, MacAddr, MacAddr8:
		return networkTypeName(t.ID)
	case Point:
		return "point"
	case idAnyNonArray:
		return "anynonarray"
	case Record:
		return recordName(t)
	}
	if IsOIDKind(t.ID) {
		return oidKinds[t.ID].name
	}
	if k, ok := xidKinds[t.ID]; ok {
		return k.name
	}
	return fmt.Sprintf("type%d", t.ID)
}

// SQLName is PostgreSQL's format_type with the modifier:
// "character varying(10)", "numeric(10,2)", "timestamp(3) without time zone".
func (t Type) SQLName() string {
	if t.Domain != 0 {
		return domainName(t)
	}
	if IsVector(t) {
		return vectorName(t)
	}
	switch t.ID {
	case Array:
		return t.ElemType().SQLName() + "[]"
	case Varchar, Char:
		if n := t.CharLen(); n >= 0 {
			return fmt.Sprintf("%s(%d)", t.BaseSQLName(), n)
		}
		if t.ID == Char {
			return "bpchar"
		}
	case Numeric:
		if p, s, ok := NumericPrecScale(t.Typmod); ok {
			return fmt.Sprintf("numeric(%d,%d)", p, s)
		}
	case Timestamp, TimestampTZ, Time, TimeTZ:
		// "timestamp(3) without time zone": the precision after the first word
		if t.Typmod >= 0 {
			base := t.BaseSQLName()
			sp := strings.IndexByte(base, ' ')
			return fmt.Sprintf("%s(%d)%s", base[:sp], t.Typmod, base[sp:])
		}
	case Interval:
		return "interval" + intervalTypmodOut(t.Typmod)
	case Bit, VarBit:
		if t.Typmod >= 0 {
			return fmt.Sprintf("%s(%d)", t.BaseSQLName(), t.Typmod)
		}
		if t.ID == Bit {
			// bit without a length is not BIT, which means bit(1): quoted.
			return `"bit"`
		}
	}
	return t.BaseSQLName()
}

// PgTypeName is the pg_type.typname of t ("int4", "varchar", ...), as
// pg_typeof and catalog queries show it.
func (t Type) PgTypeName() string {
	if t.Domain != 0 {
		return domainName(t)
	}
	if IsVector(t) {
		return vectorName(t)
	}
	switch t.ID {
	case Array:
		return "_" + t.ElemType().PgTypeName()
	case Bool:
		return "bool"
	case Int2:
		return "int2"
	case Int4:
		return "int4"
	case Int8:
		return "int8"
	case Float4:
		return "float4"
	case Float8:
		return "float8"
	case Numeric:
		return "numeric"
	case Text:
		return "text"
	case Varchar:
		return "varchar"
	case Char:
		return "bpchar"
	case Date:
		return "date"
	case Timestamp:
		return "timestamp"
	case TimestampTZ:
		return "timestamptz"
	case Interval:
		return "interval"
	case Name:
		return "name"
	case Record:
		return recordName(t)
	case Bytea:
		return "bytea"
	case UUID:
		return "uuid"
	case Time:
		return "time"
	case TimeTZ:
		return "timetz"
	case JSON:
		return "json"
	case JSONB:
		return "jsonb"
	case JSONPath:
		return "jsonpath"
	case Enum:
		return enumName(t)
	case Bit:
		return "bit"
	case VarBit:
		return "varbit"
	case InternalChar:
		return "char"
	case Inet, Cidr, MacAddr, MacAddr8:
		return networkTypeName(t.ID)
	case Point:
		return "point"
	}
	if IsOIDKind(t.ID) {
		return oidKinds[t.ID].name
	}
	if k, ok := xidKinds[t.ID]; ok {
		return k.name
	}
	return "unknown"
}
