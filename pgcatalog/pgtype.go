package pgcatalog

import (
	"sort"

	"github.com/joind/joind/types"
)

// SystemType is one row of pg_type.
type SystemType struct {
	OID       uint32
	Name      string // typname
	T         types.Type
	Len       int16
	Category  byte
	Align     byte
	In, Out   string // typinput / typoutput procedure names
	Preferd   bool
	Collation uint32 // typcollation: default for the collatable types, C for name, 0 for the rest
	// Elem is an array type's element type (typelem), Array a base type's
	// array type (typarray); 0 when none.
	Elem, Array uint32
}

// SystemTypes lists the types joind supports with PostgreSQL's OIDs.
var SystemTypes = func() []SystemType {
	var out []SystemType
	for _, t := range []types.Type{types.BoolType, types.Int2Type, types.Int4Type, types.Int8Type,
		types.TextType, types.Float4Type, types.Float8Type, types.CharType, types.VarcharType,
		types.DateType, types.TimestampType, types.TimestampTZType, types.IntervalType, types.NumericType, types.NameType, types.ByteaType, types.UUIDType,
		types.TimeType, types.TimeTZType, types.JSONType, types.JSONBType, types.JSONPathType} {
		st := SystemType{OID: t.OID(), Name: t.PgTypeName(), T: t, Len: t.Size(), Category: t.Category(), Preferd: t.IsPreferred()}
		switch st.Len {
		case 1, 64: // bool; name (a char array)
			st.Align = 'c'
		case 2:
			st.Align = 's'
		case 8, 12, 16:
			st.Align = 'd'
		default:
			st.Align = 'i'
		}
		if t.ID == types.UUID {
			st.Align = 'c'
		}
		switch t.ID {
		case types.Numeric, types.Date, types.Timestamp, types.TimestampTZ, types.Interval, types.UUID, types.Time, types.TimeTZ, types.JSON, types.JSONB, types.JSONPath:
			st.In, st.Out = st.Name+"_in", st.Name+"_out"
		default:
			st.In, st.Out = st.Name+"in", st.Name+"out"
		}
		switch {
		case t.ID == types.Name:
			st.Collation = OIDCollationC // name's collation is C (PostgreSQL 12+)
		case t.Category() == 'S':
			st.Collation = OIDCollationDefault
		}
		st.Array = types.ArrayOID(t.ID)
		out = append(out, st, arraySystemType(st))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].OID < out[j].OID })
	return out
}()

// arraySystemType is the pg_type row of elem's array type (_int4, ...):
// variable length, category A, aligned as its element when that is
// double-aligned, array_in/array_out.
func arraySystemType(elem SystemType) SystemType {
	t := types.ArrayOf(elem.T)
	st := SystemType{OID: t.OID(), Name: t.PgTypeName(), T: t, Len: -1, Category: t.Category(), Align: 'i',
		In: "array_in", Out: "array_out", Collation: elem.Collation, Elem: elem.OID}
	if elem.Align == 'd' {
		st.Align = 'd'
	}
	return st
}

// TypeByOID finds a supported type by OID.
func TypeByOID(oid uint32) (SystemType, bool) {
	for _, t := range SystemTypes {
		if t.OID == oid {
			return t, true
		}
	}
	return userSystemType(oid) // usertypes.go
}

// FormatType is format_type(oid, typmod); base (typmod NULL) omits the
// modifiers and, like PostgreSQL, names bpchar "character" only with one.
func FormatType(oid uint32, typmod int32, base bool) string {
	st, ok := TypeByOID(oid)
	if !ok {
		return "???"
	}
	t := st.T
	if base {
		if t.ID == types.Char {
			return "bpchar"
		}
		return t.BaseSQLName()
	}
	t.Typmod = typmod
	if t.ID == types.Char && typmod < 0 {
		return "bpchar"
	}
	return t.SQLName()
}
