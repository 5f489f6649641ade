package external

import (
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/cockroachdb/apd/v3"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// Parquet values as joind's: the one conversion COPY ... (FORMAT parquet)
// and read_parquet share.

// ParquetSourceType is the joind type whose values an Arrow column read
// from Parquet holds (Unknown for an all-NULL column).
func ParquetSourceType(dt arrow.DataType, target types.Type) (types.Type, bool) {
	switch dt.ID() {
	case arrow.NULL:
		return types.Type{ID: types.Unknown, Typmod: -1}, true
	case arrow.BOOL:
		return types.Type{ID: types.Bool, Typmod: -1}, true
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64, arrow.UINT8, arrow.UINT16, arrow.UINT32, arrow.UINT64:
		return types.Type{ID: types.Int8, Typmod: -1}, true
	case arrow.FLOAT16, arrow.FLOAT32, arrow.FLOAT64:
		return types.Type{ID: types.Float8, Typmod: -1}, true
	case arrow.STRING, arrow.LARGE_STRING:
		return types.Type{ID: types.Text, Typmod: -1}, true
	case arrow.BINARY, arrow.LARGE_BINARY:
		return types.Type{ID: types.Bytea, Typmod: -1}, true
	case arrow.DECIMAL128, arrow.DECIMAL256:
		return types.Type{ID: types.Numeric, Typmod: -1}, true
	case arrow.DATE32, arrow.DATE64:
		return types.Type{ID: types.Date, Typmod: -1}, true
	case arrow.TIMESTAMP:
		if dt.(*arrow.TimestampType).TimeZone != "" {
			return types.Type{ID: types.TimestampTZ, Typmod: -1}, true
		}
		return types.Type{ID: types.Timestamp, Typmod: -1}, true
	case arrow.INTERVAL_MONTH_DAY_NANO:
		return types.Type{ID: types.Interval, Typmod: -1}, true
	case arrow.FIXED_SIZE_BINARY:
		// Parquet's INTERVAL: months, days, milliseconds (uint32 LE each).
		if dt.(*arrow.FixedSizeBinaryType).ByteWidth == 12 && target.ID == types.Interval {
			return types.Type{ID: types.Interval, Typmod: -1}, true
		}
	}
	return types.Type{}, false
}

// parquetValue reads row i of arr as a value of type st.
func parquetValue(arr arrow.Array, st types.Type, i int) (types.Value, error) {
	if arr.IsNull(i) {
		return types.NullValue, nil
	}
	switch a := arr.(type) {
	case *array.Boolean:
		return types.BoolValue(a.Value(i)), nil
	case *array.Int8:
		return types.Value{I: int64(a.Value(i))}, nil
	case *array.Int16:
		return types.Value{I: int64(a.Value(i))}, nil
	case *array.Int32:
		return types.Value{I: int64(a.Value(i))}, nil
	case *array.Int64:
		return types.Value{I: a.Value(i)}, nil
	case *array.Uint8:
		return types.Value{I: int64(a.Value(i))}, nil
	case *array.Uint16:
		return types.Value{I: int64(a.Value(i))}, nil
	case *array.Uint32:
		return types.Value{I: int64(a.Value(i))}, nil
	case *array.Uint64:
		if a.Value(i) > math.MaxInt64 {
			return types.Value{}, pgerr.New(pgerr.NumericValueOutOfRange, "bigint out of range")
		}
		return types.Value{I: int64(a.Value(i))}, nil
	case *array.Float16:
		return types.Value{F: float64(a.Value(i).Float32())}, nil
	case *array.Float32:
		return types.Value{F: float64(a.Value(i))}, nil
	case *array.Float64:
		return types.Value{F: a.Value(i)}, nil
	case *array.String:
		return types.Value{S: a.Value(i)}, nil
	case *array.LargeString:
		return types.Value{S: a.Value(i)}, nil
	case *array.Binary:
		return types.Value{S: string(a.Value(i))}, nil
	case *array.LargeBinary:
		return types.Value{S: string(a.Value(i))}, nil
	case *array.Decimal128:
		return decimalValue(a.Value(i).ToString(a.DataType().(*arrow.Decimal128Type).Scale))
	case *array.Decimal256:
		return decimalValue(a.Value(i).ToString(a.DataType().(*arrow.Decimal256Type).Scale))
	case *array.Date32:
		return types.Value{I: int64(a.Value(i))}, nil
	case *array.Date64:
		return types.Value{I: int64(a.Value(i)) / 86_400_000}, nil
	case *array.Timestamp:
		v := int64(a.Value(i))
		switch a.DataType().(*arrow.TimestampType).Unit {
		case arrow.Second:
			v *= 1_000_000
		case arrow.Millisecond:
			v *= 1_000
		case arrow.Nanosecond:
			v /= 1_000
		}
		return types.Value{I: v}, nil
	case *array.MonthDayNanoInterval:
		v := a.Value(i)
		return types.Value{Iv: types.IntervalValue{Months: v.Months, Days: v.Days, Micros: v.Nanoseconds / 1000}}, nil
	case *array.FixedSizeBinary:
		b := a.Value(i)
		le := func(o int) int64 {
			return int64(uint32(b[o]) | uint32(b[o+1])<<8 | uint32(b[o+2])<<16 | uint32(b[o+3])<<24)
		}
		return types.Value{Iv: types.IntervalValue{Months: int32(le(0)), Days: int32(le(4)), Micros: le(8) * 1000}}, nil
	}
	return types.Value{}, pgerr.New(pgerr.FeatureNotSupported, "cannot read Parquet %s", arr.DataType())
}

func decimalValue(s string) (types.Value, error) {
	d, _, err := apd.NewFromString(s)
	if err != nil {
		return types.Value{}, pgerr.New(pgerr.InvalidTextRepresentation, "invalid input syntax for type numeric: \"%s\"", s)
	}
	return types.Value{Num: d}, nil
}

// ConvertParquetColumn converts a file column to the table column's Arrow
// array: as is when the types agree exactly, else value by value; where
// words the error context ("COPY column %s").
func ConvertParquetColumn(arr arrow.Array, st types.Type, d storage.ColumnDef, f *types.Format, ectx *types.EvalContext, where string) (arrow.Array, error) {
	want := d.Type.ArrowType()
	plain := d.Type.Typmod < 0 || d.Type.ID == types.Text
	// A network or point value is stored as binary, not the file's text.
	// A file's month_day_nano holds nanoseconds, joind's microseconds.
	if plain && d.Type.ID != types.Numeric && d.Type.ID != types.Interval && !types.IsBinaryStringID(d.Type.ID) && arrow.TypeEqual(arr.DataType(), want) {
		return arr, nil
	}
	if out, ok := decimalAsIs(arr, want); ok {
		return out, nil
	}
	b := array.NewBuilder(memory.DefaultAllocator, want)
	for i := 0; i < arr.Len(); i++ {
		v, err := parquetValue(arr, st, i)
		if err == nil && !v.Null && (st.ID != d.Type.ID || !plain) {
			if st.ID == types.Text {
				v, err = types.ParseTextFormat(v.S, d.Type, f, ectx.Now)
			} else {
				v, err = types.CastValue(ectx, v, st, d.Type, false)
			}
		}
		if err != nil {
			return nil, pgerr.As(err).WithWhere(fmt.Sprintf(where, d.Name))
		}
		types.AppendValue(b, d.Type, v)
	}
	return b.NewArray(), nil
}

// decimalAsIs converts a Parquet DECIMAL(p,s) column read as Decimal128 to
// joind's Decimal64 layout of numeric(p,s), p <= 18, without going through
// values: the unscaled integers are the same, and p <= 18 digits fit in an
// int64. ok is false for any other pair of types.
func decimalAsIs(arr arrow.Array, want arrow.DataType) (arrow.Array, bool) {
	src, ok := arr.(*array.Decimal128)
	w, ok2 := want.(*arrow.Decimal64Type)
	if !ok || !ok2 {
		return nil, false
	}
	st := src.DataType().(*arrow.Decimal128Type)
	if st.Scale != w.Scale || st.Precision > w.Precision {
		return nil, false
	}
	b := array.NewDecimal64Builder(memory.DefaultAllocator, w)
	b.Reserve(src.Len())
	for i := 0; i < src.Len(); i++ {
		if src.IsValid(i) {
			// |v| < 10^18: the low word is the value (two's complement).
			b.UnsafeAppend(decimal.Decimal64(int64(src.Value(i).LowBits())))
		} else {
			b.UnsafeAppendBoolToBitmap(false)
		}
	}
	return b.NewArray(), true
}
