package types

import (
	"strconv"
	"strings"

	"github.com/joind/joind/pgerr"
)

// int2vector and oidvector: the catalogs' one-dimensional arrays of int2
// and oid (pg_index.indkey, pg_proc.proargtypes). PostgreSQL stores them
// as arrays whose lower bound is 0, subscripts them as arrays and coerces
// them to int2[] and oid[] by relabelling; only their text form differs:
// the elements separated by spaces. joind makes them array types
// (ID Array) marked by UserOID, their pg_type OID, so every array path
// (subscripts, = ANY, array_length, casts to other arrays) takes them.

// The vector types' pg_type OIDs.
const (
	OIDInt2Vector uint32 = 22
	OIDOidVector  uint32 = 30
)

// Int2VectorType and OidVectorType are the vector types.
var (
	Int2VectorType = Type{ID: Array, Elem: Int2, Typmod: -1, UserOID: OIDInt2Vector}
	OidVectorType  = Type{ID: Array, Elem: Oid, Typmod: -1, UserOID: OIDOidVector}
)

// IsVector reports whether t is int2vector or oidvector.
func IsVector(t Type) bool {
	return t.ID == Array && (t.Elem == Int2 && t.UserOID == OIDInt2Vector || t.Elem == Oid && t.UserOID == OIDOidVector)
}

// Arrays of vectors (int2vector[], oidvector[]) are ArrayOf a vector
// type: ID and Elem Array, UserOID the vector's OID, each element a
// vector value. PostgreSQL treats the vectors as scalars there: ARRAY[v],
// ARRAY(SELECT v ...) and array_agg(v) do not stack them into one more
// dimension (StacksArrays).
const (
	OIDInt2VectorArray uint32 = 1006
	OIDOidVectorArray  uint32 = 1013
)

func isVectorOID(oid uint32) bool { return oid == OIDInt2Vector || oid == OIDOidVector }

// vectorOfOID is the vector type of OID oid.
func vectorOfOID(oid uint32) Type {
	if oid == OIDInt2Vector {
		return Int2VectorType
	}
	return OidVectorType
}

// vectorArrayOID is pg_type.typarray of the vector type of OID oid.
func vectorArrayOID(oid uint32) uint32 {
	if oid == OIDInt2Vector {
		return OIDInt2VectorArray
	}
	return OIDOidVectorArray
}

// StacksArrays reports whether values of t, gathered into an array
// (ARRAY[...], ARRAY(subquery), array_agg), stack into one more dimension:
// t is an array type other than a vector.
func StacksArrays(t Type) bool { return t.ID == Array && !IsVector(t) }

// vectorName is a vector type's typname (and format_type name).
func vectorName(t Type) string {
	if t.Elem == Int2 {
		return "int2vector"
	}
	return "oidvector"
}

// NewVector is a vector of elems: lower bound 0, as int2vectorin builds.
func NewVector(elems []Value) *ArrayValue {
	if len(elems) == 0 {
		return &ArrayValue{}
	}
	return &ArrayValue{Dims: []int32{int32(len(elems))}, Lbound: []int32{0}, Elems: elems}
}

// CheckVector is check_valid_oidvector (and int2vector's twin): a value
// of a vector type must have one dimension and no NULLs; ARRAY[]::oidvector
// or ARRAY[1,NULL]::int2vector have not (42804).
func CheckVector(a *ArrayValue, t Type) error {
	ok := a != nil && len(a.Dims) == 1
	if ok {
		for _, e := range a.Elems {
			ok = ok && !e.Null
		}
	}
	if !ok {
		return pgerr.New(pgerr.DatatypeMismatch, "array is not a valid %s", vectorName(t))
	}
	return nil
}

// parseVector is int2vectorin/oidvectorin: elements separated by blanks.
func parseVector(s string, t Type) (Value, error) {
	var elems []Value
	for _, f := range strings.Fields(s) {
		var v Value
		var err error
		if t.Elem == Int2 {
			v.I, err = parseInt(f, Int2)
		} else {
			v.I, err = parseOIDText(f)
		}
		if err != nil {
			return Value{}, err
		}
		elems = append(elems, v)
	}
	return Value{Arr: NewVector(elems)}, nil
}

// appendVector is int2vectorout/oidvectorout.
func appendVector(dst []byte, a *ArrayValue) []byte {
	for i, e := range a.Elems {
		if i > 0 {
			dst = append(dst, ' ')
		}
		dst = strconv.AppendInt(dst, e.I, 10)
	}
	return dst
}

// resolveVectorOperator is oidvector's comparisons (oidvectoreq, ...,
// oidvectorge) and int2vector's = (int2vectoreq): an unknown literal on
// the other side is read as the vector, as PostgreSQL's exact match
// does; ok is false for any other operator.
func resolveVectorOperator(name string, left, right Type) (*Overload, bool) {
	switch {
	case IsVector(left) && right.ID == Unknown:
		right = left
	case left.ID == Unknown && IsVector(right):
		left = right
	}
	if !IsVector(left) || left != right || left.Elem == Int2 && name != "=" {
		return nil, false
	}
	test := comparisonTest(name)
	if test == nil {
		return nil, false
	}
	t := left
	return &Overload{Name: name, Args: []Type{t, t}, Result: BoolType, Strict: true, Leakproof: true,
		Eval: func(_ *EvalContext, args []Value) (Value, error) {
			return BoolValue(test(Compare(args[0], args[1], t))), nil
		}}, true
}
