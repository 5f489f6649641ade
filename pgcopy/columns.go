package pgcopy

import (
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/joind/joind/types"
)

// colAcc accumulates one column of the current batch.
type colAcc struct {
	t     types.Type
	kind  int
	valid []byte // validity bitmap, one bit per row
	nulls int
	i64   []int64
	i32   []int32
	i16   []int16
	offs  []int32
	data  []byte
	b     array.Builder // kindGeneric
}

const (
	kindGeneric = iota
	kindInt64
	kindInt32
	kindInt16
	kindText
)

func newColAcc(t types.Type) *colAcc {
	a := &colAcc{t: t}
	switch t.ID {
	case types.Int8:
		a.kind = kindInt64
	case types.Int4:
		a.kind = kindInt32
	case types.Int2:
		a.kind = kindInt16
	case types.Text, types.Unknown:
		a.kind = kindText
		a.offs = []int32{0}
	default:
		a.b = array.NewBuilder(memory.DefaultAllocator, t.ArrowType())
	}
	return a
}

// setValid records row n's validity. Rows are recorded in order, and the
// bitmap exists only from the first NULL on (finish needs none without
// NULLs), so the common all-valid column costs one branch per value.
func (a *colAcc) setValid(n int, ok bool) {
	if a.nulls == 0 {
		if ok {
			return
		}
		// First NULL: every row before it was valid.
		a.valid = a.valid[:0]
		for i := 0; i < n>>3; i++ {
			a.valid = append(a.valid, 0xFF)
		}
		a.valid = append(a.valid, byte(1)<<(n&7)-1)
		a.nulls = 1
		return
	}
	if n>>3 >= len(a.valid) {
		a.valid = append(a.valid, 0)
	}
	if ok {
		a.valid[n>>3] |= 1 << (n & 7)
	} else {
		a.nulls++
	}
}

func (a *colAcc) appendNull(n int) {
	a.setValid(n, false)
	switch a.kind {
	case kindInt64:
		a.i64 = append(a.i64, 0)
	case kindInt32:
		a.i32 = append(a.i32, 0)
	case kindInt16:
		a.i16 = append(a.i16, 0)
	case kindText:
		a.offs = append(a.offs, int32(len(a.data)))
	default:
		a.b.AppendNull()
	}
}

// appendValue appends a parsed Value (the slow path and omitted columns).
func (a *colAcc) appendValue(n int, v types.Value) {
	if v.Null {
		a.appendNull(n)
		return
	}
	a.setValid(n, true)
	switch a.kind {
	case kindInt64:
		a.i64 = append(a.i64, v.I)
	case kindInt32:
		a.i32 = append(a.i32, int32(v.I))
	case kindInt16:
		a.i16 = append(a.i16, int16(v.I))
	case kindText:
		a.data = append(a.data, v.S...)
		a.offs = append(a.offs, int32(len(a.data)))
	default:
		types.AppendValue(a.b, a.t, v)
	}
}

// appendField parses one field's text into the column; row n.
func (a *colAcc) appendField(n int, b []byte, l *Loader) error {
	switch a.kind {
	case kindText:
		a.setValid(n, true)
		a.data = append(a.data, b...)
		a.offs = append(a.offs, int32(len(a.data)))
		return nil
	case kindInt64, kindInt32, kindInt16:
		if v, ok := parseDecimalInt(b); ok {
			switch {
			case a.kind == kindInt64:
				a.setValid(n, true)
				a.i64 = append(a.i64, v)
				return nil
			case a.kind == kindInt32 && v >= -1<<31 && v < 1<<31:
				a.setValid(n, true)
				a.i32 = append(a.i32, int32(v))
				return nil
			case a.kind == kindInt16 && v >= -1<<15 && v < 1<<15:
				a.setValid(n, true)
				a.i16 = append(a.i16, int16(v))
				return nil
			}
		}
	}
	// Everything else goes through the type's own input function (it
	// copies what it keeps, so the field may alias the chunk).
	v, err := types.ParseTextFormat(unsafe.String(unsafe.SliceData(b), len(b)), a.t, l.f, l.now)
	if err != nil {
		return err
	}
	a.appendValue(n, v)
	return nil
}

// parseDecimalInt reads an optionally signed run of at most 18 digits: the
// common case, which cannot overflow int64. Anything else (spaces, longer
// numbers, junk) returns false and takes the exact path.
func parseDecimalInt(b []byte) (int64, bool) {
	neg := false
	if len(b) > 0 && (b[0] == '-' || b[0] == '+') {
		neg = b[0] == '-'
		b = b[1:]
	}
	if len(b) == 0 || len(b) > 18 {
		return 0, false
	}
	var v int64
	for _, c := range b {
		d := c - '0'
		if d > 9 {
			return 0, false
		}
		v = v*10 + int64(d)
	}
	if neg {
		v = -v
	}
	return v, true
}

// finish turns the accumulated rows into an array and resets the column.
func (a *colAcc) finish(rows int) arrow.Array {
	var validity *memory.Buffer
	if a.nulls > 0 {
		validity = memory.NewBufferBytes(a.valid[:bitutil.BytesForBits(int64(rows))])
	}
	var data arrow.ArrayData
	switch a.kind {
	case kindInt64:
		data = array.NewData(arrow.PrimitiveTypes.Int64, rows, []*memory.Buffer{validity, memory.NewBufferBytes(arrow.Int64Traits.CastToBytes(a.i64))}, nil, a.nulls, 0)
		a.i64 = make([]int64, 0, rows)
	case kindInt32:
		data = array.NewData(arrow.PrimitiveTypes.Int32, rows, []*memory.Buffer{validity, memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(a.i32))}, nil, a.nulls, 0)
		a.i32 = make([]int32, 0, rows)
	case kindInt16:
		data = array.NewData(arrow.PrimitiveTypes.Int16, rows, []*memory.Buffer{validity, memory.NewBufferBytes(arrow.Int16Traits.CastToBytes(a.i16))}, nil, a.nulls, 0)
		a.i16 = make([]int16, 0, rows)
	case kindText:
		data = array.NewData(arrow.BinaryTypes.String, rows, []*memory.Buffer{validity, memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(a.offs)), memory.NewBufferBytes(a.data)}, nil, a.nulls, 0)
		a.offs = append(make([]int32, 0, rows+1), 0)
		a.data = make([]byte, 0, len(a.data)+len(a.data)/8)
	default:
		a.nulls, a.valid = 0, a.valid[:0]
		return a.b.NewArray()
	}
	a.nulls = 0
	a.valid = make([]byte, 0, len(a.valid))
	return array.MakeFromData(data)
}

func (a *colAcc) reset() {
	a.nulls, a.valid = 0, a.valid[:0]
	a.i64, a.i32, a.i16 = a.i64[:0], a.i32[:0], a.i16[:0]
	if a.kind == kindText {
		a.offs, a.data = append(a.offs[:0], 0), a.data[:0]
	}
	if a.b != nil {
		a.b = array.NewBuilder(memory.DefaultAllocator, a.t.ArrowType())
	}
}
