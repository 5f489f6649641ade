package types

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// GetValue reads row i of arr as a Value of type t. arr must have t's Arrow
// type (Type.ArrowType). It is the generic, per-row path; hot loops should
// read the typed arrays directly.
func GetValue(arr arrow.Array, t Type, i int) Value {
	if arr.IsNull(i) {
		return NullValue
	}
	switch a := arr.(type) {
	case *array.LargeBinary:
		return DecodeArray(a.Value(i), t)
	case *array.Boolean:
		return BoolValue(a.Value(i))
	case *array.Int16:
		return Value{I: int64(a.Value(i))}
	case *array.Int32:
		return Value{I: int64(a.Value(i))}
	case *array.Int64:
		return Value{I: a.Value(i)}
	case *array.Float32:
		return Value{F: float64(a.Value(i))}
	case *array.Float64:
		return Value{F: a.Value(i)}
	case *array.Date32:
		return Value{I: int64(a.Value(i))}
	case *array.Timestamp:
		return Value{I: int64(a.Value(i))}
	case *array.MonthDayNanoInterval:
		v := a.Value(i)
		return Value{Iv: IntervalValue{Months: v.Months, Days: v.Days, Micros: v.Nanoseconds}} // µs (types.go)
	case *array.Decimal64, *array.Decimal128, *array.Binary:
		return Value{Num: getNumeric(arr, i)}
	case *array.String:
		if t.ID == Numeric {
			return Value{Num: getNumeric(arr, i)} // a segment of manifest format 1
		}
		s := a.Value(i)
		// Copy: the array's buffer must not be pinned by long-lived values.
		return Value{S: string([]byte(s))}
	}
	panic(fmt.Sprintf("types: GetValue on unsupported array %T", arr))
}

// AppendValue appends v (of type t) to b, a builder of t's Arrow type.
func AppendValue(b array.Builder, t Type, v Value) {
	if v.Null {
		b.AppendNull()
		return
	}
	switch bb := b.(type) {
	case *array.BinaryBuilder:
		if t.ID == Array { // LargeBinary's builder is a BinaryBuilder too
			bb.Append(EncodeArray(v, t))
			return
		}
		appendNumericTo(b, v.Num)
	case *array.BooleanBuilder:
		bb.Append(v.I != 0)
	case *array.Int16Builder:
		bb.Append(int16(v.I))
	case *array.Int32Builder:
		bb.Append(int32(v.I))
	case *array.Int64Builder:
		bb.Append(v.I)
	case *array.Float32Builder:
		bb.Append(float32(v.F))
	case *array.Float64Builder:
		bb.Append(v.F)
	case *array.Date32Builder:
		bb.Append(arrow.Date32(v.I))
	case *array.TimestampBuilder:
		bb.Append(arrow.Timestamp(v.I))
	case *array.MonthDayNanoIntervalBuilder:
		bb.Append(arrow.MonthDayNanoInterval{Months: v.Iv.Months, Days: v.Iv.Days, Nanoseconds: v.Iv.Micros}) // µs (types.go)
	case *array.Decimal64Builder, *array.Decimal128Builder:
		appendNumericTo(b, v.Num)
	case *array.StringBuilder:
		if t.ID == Numeric {
			appendNumericTo(b, v.Num)
			return
		}
		bb.Append(v.S)
	default:
		panic(fmt.Sprintf("types: AppendValue on unsupported builder %T", b))
	}
}
