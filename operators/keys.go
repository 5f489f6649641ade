package operators

import (
	"encoding/binary"
	"math"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/cockroachdb/apd/v3"
	"github.com/joind/joind/types"
)

// Grouping keys (GROUP BY, DISTINCT, set operations) are encoded into byte
// strings that are equal exactly when the SQL values are "not distinct":
// NULL equals NULL, 1.0 equals 1.00, -0 equals 0, 'a ' equals 'a' for char(n),
// and intervals compare by their total span as in PostgreSQL. The encoded
// string is the key of a Go map.

// appendKey appends the encoding of row i of arr (type t) to buf.
func appendKey(buf []byte, arr arrow.Array, t types.Type, i int) []byte {
	if arr.IsNull(i) {
		return append(buf, 0)
	}
	buf = append(buf, 1)
	switch a := arr.(type) {
	case *array.Int64:
		return binary.LittleEndian.AppendUint64(buf, uint64(a.Value(i)))
	case *array.Int32:
		return binary.LittleEndian.AppendUint64(buf, uint64(int64(a.Value(i))))
	case *array.Int16:
		return binary.LittleEndian.AppendUint64(buf, uint64(int64(a.Value(i))))
	case *array.Date32:
		return binary.LittleEndian.AppendUint64(buf, uint64(int64(a.Value(i))))
	case *array.Timestamp:
		return binary.LittleEndian.AppendUint64(buf, uint64(a.Value(i)))
	case *array.Boolean:
		if a.Value(i) {
			return append(buf, 1)
		}
		return append(buf, 0)
	case *array.Float64:
		return appendFloatKey(buf, a.Value(i))
	case *array.Float32:
		return appendFloatKey(buf, float64(a.Value(i)))
	case *array.MonthDayNanoInterval:
		v := a.Value(i)
		// PostgreSQL's interval equality: a month is 30 days, a day 24 hours.
		days := int64(v.Months)*30 + int64(v.Days)
		micros := v.Nanoseconds / 1000
		days += micros / 86400e6
		micros %= 86400e6
		if micros < 0 {
			micros += 86400e6
			days--
		}
		buf = binary.LittleEndian.AppendUint64(buf, uint64(days))
		return binary.LittleEndian.AppendUint64(buf, uint64(micros))
	case *array.String:
		s := a.Value(i)
		switch t.ID {
		case types.Numeric:
			s = canonicalNumeric(types.GetValue(arr, t, i))
		case types.Char:
			s = strings.TrimRight(s, " ")
		}
		buf = binary.LittleEndian.AppendUint32(buf, uint32(len(s)))
		return append(buf, s...)
	}
	panic("operators: unsupported key column")
}

func appendFloatKey(buf []byte, f float64) []byte {
	switch {
	case f == 0:
		f = 0
	case f != f:
		return append(buf, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff)
	}
	return binary.LittleEndian.AppendUint64(buf, math.Float64bits(f))
}

// canonicalNumeric is a numeric's text without trailing fractional zeros.
func canonicalNumeric(v types.Value) string {
	if v.Num.Form != 0 {
		return v.Num.String() // NaN, Infinity
	}
	var d apd.Decimal
	d.Reduce(v.Num)
	if d.IsZero() {
		return "0"
	}
	return d.Text('f')
}

// rowKeys encodes the keys of every row of a batch into one buffer;
// offsets[i]:offsets[i+1] is row i's key.
func rowKeys(arrs []arrow.Array, ts []types.Type, n int, buf []byte, offsets []int) ([]byte, []int) {
	buf = buf[:0]
	offsets = append(offsets[:0], 0)
	for i := 0; i < n; i++ {
		for k, a := range arrs {
			buf = appendKey(buf, a, ts[k], i)
		}
		offsets = append(offsets, len(buf))
	}
	return buf, offsets
}
