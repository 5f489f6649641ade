package types

import (
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
)

// ArrayValue is a PostgreSQL array datum: an n-dimensional, row-major
// block of elements with a lower bound per dimension. A zero-dimensional
// array (no Dims) is the empty array '{}'. Like every Value it is
// immutable once built.
type ArrayValue struct {
	Dims   []int32 // length of each dimension, outermost first
	Lbound []int32 // lower bound of each dimension (1 unless given)
	Elems  []Value // len = product of Dims; NULL elements are Null Values
}

// maxArrayDims is PostgreSQL's MAXDIM.
const maxArrayDims = 6

// ArrayOf is the array type of elements of type elem (elem[]).
func ArrayOf(elem Type) Type {
	return Type{ID: Array, Typmod: elem.Typmod, Elem: elem.ID, UserOID: elem.UserOID}
}

// ElemType is an array type's element type.
func (t Type) ElemType() Type {
	if IsVector(t) {
		return Type{ID: t.Elem, Typmod: -1} // vectors.go
	}
	if t.Elem == Array {
		return vectorOfOID(t.UserOID) // int2vector[], oidvector[]: vectors.go
	}
	return Type{ID: t.Elem, Typmod: t.Typmod, UserOID: t.UserOID, Domain: t.ElemDomain}
}

// arrayElemOK reports whether joind has an array type of elements id.
func arrayElemOK(id ID) bool { _, ok := arrayOIDs[id]; return ok || id == Enum }

// arrayOIDs is pg_type.typarray of each base type.
var arrayOIDs = map[ID]uint32{
	Bool: 1000, Name: 1003, Int2: 1005, Int4: 1007, Text: 1009, Char: 1014, Varchar: 1015,
	Int8: 1016, Float4: 1021, Float8: 1022, Timestamp: 1115, Date: 1182, TimestampTZ: 1185,
	Interval: 1187, Numeric: 1231, Record: OIDRecordArray, Bytea: 1001,
	JSON: 199, JSONB: 3807,
	Time: 1183, TimeTZ: 1270, UUID: 2951, JSONPath: 4073,
	Bit: 1561, VarBit: 1563, InternalChar: 1002,
	Inet: 1041, Cidr: 651, MacAddr: 1040, MacAddr8: 775,
	Point: 1017,
}

// ArrayOID is the OID of the array type over elements of type elem, 0
// when joind has none.
func ArrayOID(elem ID) uint32 { return arrayOIDs[elem] }

// ArrayTypeByOID is the array type whose pg_type OID is oid.
func ArrayTypeByOID(oid uint32) (Type, bool) {
	if t, ok := enumTypeByOID(oid); ok && t.ID == Array {
		return t, true
	}
	if t, ok := compositeTypeByOID(oid); ok && t.ID == Array {
		return t, true
	}
	if t, ok := domainArrayByOID(oid); ok { // domain.go
		return t, true
	}
	for id, o := range arrayOIDs {
		if o == oid {
			return ArrayOf(Type{ID: id, Typmod: -1}), true
		}
	}
	switch oid {
	case OIDInt2VectorArray:
		return ArrayOf(Int2VectorType), true // vectors.go
	case OIDOidVectorArray:
		return ArrayOf(OidVectorType), true
	}
	return Type{}, false
}

// arrayArrowType is the Arrow type of an array column: each datum in
// joind's own binary form (arraycodec.go). LargeBinary, not Binary, so no
// code path that reads Binary as numeric can take an array for one.
var arrayArrowType = arrow.BinaryTypes.LargeBinary

// NewArray builds a one-dimensional array (lower bound 1) of elems; no
// elements make the empty array.
func NewArray(elems []Value) *ArrayValue {
	if len(elems) == 0 {
		return &ArrayValue{}
	}
	// one allocation for the array and its one dimension: ARRAY[...]
	// builds an array per row
	x := &struct {
		a          ArrayValue
		dims, lbnd [1]int32
	}{dims: [1]int32{int32(len(elems))}, lbnd: [1]int32{1}}
	x.a = ArrayValue{Dims: x.dims[:], Lbound: x.lbnd[:], Elems: elems}
	return &x.a
}

// NDims is the number of dimensions (0 for an empty array).
func (a *ArrayValue) NDims() int { return len(a.Dims) }

// appendArrayOut is array_out: '{...}' with nested braces per dimension, a
// "[lo:hi]..." decoration when some lower bound is not 1, NULL elements
// as NULL and elements quoted when they must be.
func appendArrayOut(dst []byte, a *ArrayValue, et Type, f *Format) []byte {
	if len(a.Dims) == 0 {
		return append(dst, "{}"...)
	}
	for _, lb := range a.Lbound {
		if lb != 1 {
			dst = append(appendArrayDims(dst, a), '=')
			break
		}
	}
	k := 0
	var elem []byte
	var rec func(d int)
	rec = func(d int) {
		dst = append(dst, '{')
		for i := int32(0); i < a.Dims[d]; i++ {
			if i > 0 {
				dst = append(dst, ',')
			}
			if d+1 < len(a.Dims) {
				rec(d + 1)
				continue
			}
			v := a.Elems[k]
			k++
			if v.Null {
				dst = append(dst, "NULL"...)
				continue
			}
			elem = FormatText(elem[:0], v, et, f)
			dst = appendArrayElem(dst, elem)
		}
		dst = append(dst, '}')
	}
	rec(0)
	return dst
}

// appendArrayDims is array_dims's text: "[lo:hi]" per dimension.
func appendArrayDims(dst []byte, a *ArrayValue) []byte {
	for d := range a.Dims {
		dst = append(dst, '[')
		dst = appendInt32(dst, a.Lbound[d])
		dst = append(dst, ':')
		dst = appendInt32(dst, a.Lbound[d]+a.Dims[d]-1)
		dst = append(dst, ']')
	}
	return dst
}

func appendInt32(dst []byte, i int32) []byte { return strconv.AppendInt(dst, int64(i), 10) }

// appendArrayElem writes one element's text as array_out does: in double
// quotes, with " and \ backslashed, when it is empty, is NULL in any case,
// or holds a brace, quote, backslash, the delimiter or white space.
func appendArrayElem(dst, s []byte) []byte {
	need := len(s) == 0 || (len(s) == 4 && strings.EqualFold(string(s), "NULL"))
	for _, c := range s {
		if need {
			break
		}
		switch c {
		case '{', '}', '"', '\\', ',':
			need = true
		default:
			need = arrayIsSpace(c)
		}
	}
	if !need {
		return append(dst, s...)
	}
	dst = append(dst, '"')
	for _, c := range s {
		if c == '"' || c == '\\' {
			dst = append(dst, '\\')
		}
		dst = append(dst, c)
	}
	return append(dst, '"')
}

// arrayIsSpace is array_isspace: the ASCII white space array I/O skips.
func arrayIsSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// compareArrays is btarraycmp: element by element (a NULL element sorts
// after every value, NULLs equal), then the element count, the number of
// dimensions, and each dimension's length and lower bound.
func compareArrays(a, b *ArrayValue, et Type) int {
	n := min(len(a.Elems), len(b.Elems))
	for i := 0; i < n; i++ {
		x, y := a.Elems[i], b.Elems[i]
		switch {
		case x.Null && y.Null:
			continue
		case x.Null:
			return 1
		case y.Null:
			return -1
		}
		if c := Compare(x, y, et); c != 0 {
			return c
		}
	}
	if c := cmpInt(int64(len(a.Elems)), int64(len(b.Elems))); c != 0 {
		return c
	}
	if c := cmpInt(int64(len(a.Dims)), int64(len(b.Dims))); c != 0 {
		return c
	}
	for d := range a.Dims {
		if c := cmpInt(int64(a.Dims[d]), int64(b.Dims[d])); c != 0 {
			return c
		}
		if c := cmpInt(int64(a.Lbound[d]), int64(b.Lbound[d])); c != 0 {
			return c
		}
	}
	return 0
}

// hashArray hashes consistently with compareArrays.
func hashArray(a *ArrayValue, et Type) uint64 {
	h := uint64(fnvOffset)
	for d := range a.Dims {
		h = mix64(h ^ uint64(a.Dims[d])<<32 ^ uint64(uint32(a.Lbound[d])))
	}
	for _, v := range a.Elems {
		e := uint64(0x5bd1e995)
		if !v.Null {
			e = Hash(v, et)
		}
		h = mix64(h*fnvPrime ^ e)
	}
	return h
}
