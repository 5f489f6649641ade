package types

import (
	"strconv"
	"strings"

	"github.com/joind/joind/pgerr"
)

// The object-identifier types: oid and its aliases regclass, regtype,
// regproc, regprocedure, regoper, regoperator, regnamespace and regrole.
// A value is an unsigned 32-bit OID held in Value.I (0..4294967295), so
// every int64 path (Arrow Int64 columns, sort, hash, min/max) handles
// them, and they order as oidlt does (unsigned).
//
// oid's text form is the number. A reg* type's text form names the object
// (regclassout: the relation, schema-qualified when the search path does
// not find it); its input looks the name up. Both need the catalog, which
// this leaf package cannot see: the session gives it in Format.Reg
// (package pgcatalog implements RegCatalog over a catalog snapshot). With
// no catalog a reg* value prints as its number and only numeric input is
// read, as PostgreSQL's bootstrap mode does.

// RegCatalog is a reg* type's input and output functions over a catalog.
type RegCatalog interface {
	// RegIn is the OID the name s denotes for reg* type id (errors as
	// regclassin's and its kin's).
	RegIn(id ID, s string) (uint32, error)
	// RegOut is the text of OID oid as reg* type id prints it.
	RegOut(id ID, oid uint32) string
}

// Convenience values of the object-identifier types.
var (
	OidType          = Type{ID: Oid, Typmod: -1}
	RegClassType     = Type{ID: RegClass, Typmod: -1}
	RegTypeType      = Type{ID: RegType, Typmod: -1}
	RegProcType      = Type{ID: RegProc, Typmod: -1}
	RegProcedureType = Type{ID: RegProcedure, Typmod: -1}
	RegOperType      = Type{ID: RegOper, Typmod: -1}
	RegOperatorType  = Type{ID: RegOperator, Typmod: -1}
	RegNamespaceType = Type{ID: RegNamespace, Typmod: -1}
	RegRoleType      = Type{ID: RegRole, Typmod: -1}
)

// oidKinds is each object-identifier type's pg_type OID, typname and the
// OID of its array type.
var oidKinds = map[ID]struct {
	oid, array uint32
	name       string
}{
	Oid:          {26, 1028, "oid"},
	RegProc:      {24, 1008, "regproc"},
	RegProcedure: {2202, 2207, "regprocedure"},
	RegOper:      {2203, 2208, "regoper"},
	RegOperator:  {2204, 2209, "regoperator"},
	RegClass:     {2205, 2210, "regclass"},
	RegType:      {2206, 2211, "regtype"},
	RegNamespace: {4089, 4090, "regnamespace"},
	RegRole:      {4096, 4097, "regrole"},
}

// IsOIDKind reports whether id is oid or one of the reg* types.
func IsOIDKind(id ID) bool { return id >= Oid && id <= RegRole }

// IsRegKind reports whether id is one of the reg* types.
func IsRegKind(id ID) bool { return id != Oid && IsOIDKind(id) }

// RegTypeByName is the object-identifier type named name ("oid",
// "regclass", ...).
func RegTypeByName(name string) (Type, bool) {
	for id, k := range oidKinds {
		if k.name == name {
			return Type{ID: id, Typmod: -1}, true
		}
	}
	return Type{}, false
}

// parseOIDText is oidin: an unsigned 32-bit number, or a negative one down
// to -2^31 read as its two's complement (strtoul's behaviour PostgreSQL
// keeps), blanks around it allowed.
func parseOIDText(s string) (int64, error) {
	in := strings.TrimSpace(s)
	n, err := strconv.ParseInt(in, 10, 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return 0, pgerr.New(pgerr.NumericValueOutOfRange, "value \"%s\" is out of range for type oid", s)
		}
		return 0, pgerr.New(pgerr.InvalidTextRepresentation, "invalid input syntax for type oid: \"%s\"", s)
	}
	if n < -2147483648 || n > 4294967295 {
		return 0, pgerr.New(pgerr.NumericValueOutOfRange, "value \"%s\" is out of range for type oid", s)
	}
	return int64(uint32(n)), nil
}

// parseOIDKind is the input function of an object-identifier type.
func parseOIDKind(s string, t Type, f *Format) (Value, error) {
	if t.ID == Oid {
		n, err := parseOIDText(s)
		return Value{I: n}, err
	}
	// Every reg* input takes a bare number as the OID itself, and "-"
	// as InvalidOid.
	if strings.TrimSpace(s) == "-" {
		return Value{I: 0}, nil
	}
	if in := strings.TrimSpace(s); in != "" && in[0] >= '0' && in[0] <= '9' && strings.Trim(in, "0123456789") == "" {
		n, err := parseOIDText(in)
		return Value{I: n}, err
	}
	if f == nil || f.Reg == nil {
		return Value{}, pgerr.New(pgerr.FeatureNotSupported, "%s input by name needs the catalog", oidKinds[t.ID].name)
	}
	oid, err := f.Reg.RegIn(t.ID, s)
	return Value{I: int64(oid)}, err
}

// appendOIDKind is the output function of an object-identifier type.
func appendOIDKind(dst []byte, v Value, t Type, f *Format) []byte {
	if t.ID != Oid && f != nil && f.Reg != nil {
		return append(dst, f.Reg.RegOut(t.ID, uint32(v.I))...)
	}
	return strconv.AppendInt(dst, v.I, 10)
}

// oidCastContext is pg_cast's rows among the integers, oid and the reg*
// types: binary-coercible implicit casts between oid and each reg* type
// (and regproc and regprocedure), implicit casts from the integers,
// assignment casts to int4 and int8, and text/varchar to regclass
// (implicit). 0 when neither side is an object-identifier type.
func oidCastContext(from, to ID) byte {
	if !IsOIDKind(from) && !IsOIDKind(to) {
		return 0
	}
	switch {
	case IsOIDKind(from) && IsOIDKind(to):
		if from == Oid || to == Oid || from == RegProc && to == RegProcedure || from == RegProcedure && to == RegProc {
			return 'i'
		}
	case IsOIDKind(to):
		switch from {
		case Int2, Int4, Int8:
			return 'i'
		case Text, Varchar:
			if to == RegClass {
				return 'i'
			}
		}
	case to == Int4 || to == Int8:
		return 'a'
	}
	return 0
}

// castOIDKind converts between the integers and the object-identifier
// types; ok is false for any other pair.
func castOIDKind(v Value, from, to Type) (Value, bool, error) {
	switch {
	case IsOIDKind(from.ID) && IsOIDKind(to.ID):
		return v, true, nil
	case IsOIDKind(to.ID) && (from.ID == Int2 || from.ID == Int4):
		return Value{I: int64(uint32(int32(v.I)))}, true, nil // int4 → oid reinterprets the bits
	case IsOIDKind(to.ID) && from.ID == Int8:
		if v.I < 0 || v.I > 4294967295 {
			return Value{}, true, pgerr.New(pgerr.NumericValueOutOfRange, "OID out of range")
		}
		return v, true, nil
	case IsOIDKind(from.ID) && to.ID == Int4:
		return Value{I: int64(int32(uint32(v.I)))}, true, nil
	case IsOIDKind(from.ID) && to.ID == Int8:
		return v, true, nil
	}
	return Value{}, false, nil
}

// registerOIDOps registers oid's comparison operators (oideq, oidlt, ...);
// the reg* types reach them through their implicit casts to oid, as in
// PostgreSQL.
func registerOIDOps() {
	for _, op := range cmpOps {
		regOp(op, []ID{Oid, Oid}, Bool, cmpEval(op, OidType))
	}
}

func init() {
	for id, k := range oidKinds {
		arrayOIDs[id] = k.array
	}
}
