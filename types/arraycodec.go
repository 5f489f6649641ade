package types

import (
	"encoding/binary"
	"math"
	"strings"
)

// An array column stores each datum as bytes (Arrow LargeBinary), in
// joind's own compact form, read back only by decodeArray:
//
//	uvarint ndims; per dimension: uvarint length, varint lower bound;
//	per element: byte 0 (NULL) or 1, then the element:
//	  integer-like (bool, ints, date, timestamps, time, timetz): varint
//	  float4/float8: 8 bytes, IEEE bits little-endian
//	  numeric: uvarint length + its text (numeric_out, exact)
//	  interval: varint months, varint days, varint µs
//	  string types: uvarint length + bytes
//
// The form is private to joind (segments, spill files, hash keys never
// compare it bytewise); clients see array_out or array_send.

func encodeArray(dst []byte, a *ArrayValue, et Type) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(a.Dims)))
	for d := range a.Dims {
		dst = binary.AppendUvarint(dst, uint64(a.Dims[d]))
		dst = binary.AppendVarint(dst, int64(a.Lbound[d]))
	}
	for _, v := range a.Elems {
		if v.Null {
			dst = append(dst, 0)
			continue
		}
		dst = append(dst, 1)
		dst = encodeElem(dst, v, et)
	}
	return dst
}

func encodeElem(dst []byte, v Value, et Type) []byte {
	switch et.ID {
	case Bool, Int2, Int4, Int8, Date, Timestamp, TimestampTZ, Time, TimeTZ:
		return binary.AppendVarint(dst, v.I)
	case Float4, Float8:
		return binary.LittleEndian.AppendUint64(dst, math.Float64bits(v.F))
	case Numeric:
		s := appendNumeric(nil, v.Num)
		dst = binary.AppendUvarint(dst, uint64(len(s)))
		return append(dst, s...)
	case Interval:
		dst = binary.AppendVarint(dst, int64(v.Iv.Months))
		dst = binary.AppendVarint(dst, int64(v.Iv.Days))
		return binary.AppendVarint(dst, v.Iv.Micros)
	case Array:
		inner := encodeArray(nil, v.Arr, et.ElemType())
		dst = binary.AppendUvarint(dst, uint64(len(inner)))
		return append(dst, inner...)
	}
	if IsWordKind(et.ID) || et.ID == Time || et.ID == TimeTZ {
		return binary.AppendVarint(dst, v.I)
	}
	dst = binary.AppendUvarint(dst, uint64(len(v.S)))
	return append(dst, v.S...)
}

// decodeArray reads encodeArray's bytes.
func decodeArray(b []byte, et Type) *ArrayValue {
	p := 0
	uv := func() uint64 {
		x, n := binary.Uvarint(b[p:])
		p += n
		return x
	}
	sv := func() int64 {
		x, n := binary.Varint(b[p:])
		p += n
		return x
	}
	nd := int(uv())
	a := &ArrayValue{}
	if nd == 0 {
		return a
	}
	a.Dims, a.Lbound = make([]int32, nd), make([]int32, nd)
	n := 1
	for d := 0; d < nd; d++ {
		a.Dims[d] = int32(uv())
		a.Lbound[d] = int32(sv())
		n *= int(a.Dims[d])
	}
	a.Elems = make([]Value, n)
	for i := range a.Elems {
		if b[p] == 0 {
			p++
			a.Elems[i] = NullValue
			continue
		}
		p++
		var v Value
		switch et.ID {
		case Bool, Int2, Int4, Int8, Date, Timestamp, TimestampTZ, Time, TimeTZ:
			v.I = sv()
		case Float4, Float8:
			v.F = math.Float64frombits(binary.LittleEndian.Uint64(b[p:]))
			p += 8
		case Numeric:
			l := int(uv())
			v.Num, _ = parseNumeric(string(b[p : p+l]))
			p += l
		case Interval:
			v.Iv.Months = int32(sv())
			v.Iv.Days = int32(sv())
			v.Iv.Micros = sv()
		case Array:
			l := int(uv())
			v.Arr = decodeArray(b[p:p+l], et.ElemType())
			p += l
		case Oid, RegClass, RegType, RegProc, RegProcedure, RegOper, RegOperator, RegNamespace, RegRole, Xid, Xid8, PgLSN:
			v.I = sv()
		default:
			l := int(uv())
			v.S = string(b[p : p+l])
			p += l
		}
		a.Elems[i] = v
	}
	return a
}

// EncodeArray is the stored form of a non-NULL array of type t.
func EncodeArray(v Value, t Type) []byte { return encodeArray(nil, v.Arr, t.ElemType()) }

// DecodeArray reads a stored array of type t.
func DecodeArray(b []byte, t Type) Value { return Value{Arr: decodeArray(b, t.ElemType())} }

// AppendArrayKey appends a form of a non-NULL array of type t that is
// equal for arrays Compare calls equal (numeric 1.0 = 1.00, char(n)
// without trailing blanks, -0 = 0): grouping and join keys.
func AppendArrayKey(dst []byte, v Value, t Type) []byte {
	et := t.ElemType()
	a := v.Arr
	norm := &ArrayValue{Dims: a.Dims, Lbound: a.Lbound, Elems: make([]Value, len(a.Elems))}
	for i, e := range a.Elems {
		switch {
		case e.Null:
		case et.ID == Numeric:
			var r = *e.Num
			r.Reduce(e.Num)
			e = Value{Num: &r}
		case et.ID == Char:
			e = Value{S: strings.TrimRight(e.S, " ")}
		case et.ID == Float4 || et.ID == Float8:
			if e.F == 0 {
				e = Value{F: 0}
			} else if math.IsNaN(e.F) {
				e = Value{F: math.NaN()}
			}
		case et.ID == Record:
			e = Value{S: RecordKey(e.S, et)}
		case et.ID == Interval:
			d, us := intervalSpan(e.Iv)
			e = Value{Iv: IntervalValue{Days: int32(d), Micros: us}}
		}
		norm.Elems[i] = e
	}
	return encodeArray(dst, norm, et)
}
