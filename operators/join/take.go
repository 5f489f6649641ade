package join

import (
	"math"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/joind/joind/operators/spill"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// take gathers rows idx of arr (of SQL type t) into a new array; an index
// of -1 yields NULL (the padding side of an outer join).
func take(arr arrow.Array, t types.Type, idx []int32) arrow.Array {
	mem := memory.DefaultAllocator
	switch a := arr.(type) {
	case *array.Int64:
		return takeFixed(a, idx, a.Int64Values())
	case *array.Int32:
		return takeFixed(a, idx, a.Int32Values())
	case *array.Int16:
		return takeFixed(a, idx, a.Int16Values())
	case *array.Float64:
		return takeFixed(a, idx, a.Float64Values())
	case *array.Float32:
		return takeFixed(a, idx, a.Float32Values())
	case *array.Date32:
		return takeFixed(a, idx, a.Date32Values())
	case *array.Timestamp:
		return takeFixed(a, idx, a.TimestampValues())
	case *array.Decimal64:
		return takeFixed(a, idx, a.Values())
	case *array.String:
		if out := takeString(a, idx); out != nil {
			return out
		}
		b := array.NewStringBuilder(mem)
		b.Reserve(len(idx))
		for _, i := range idx {
			if i < 0 || a.IsNull(int(i)) {
				b.AppendNull()
			} else {
				b.Append(a.Value(int(i)))
			}
		}
		return b.NewArray()
	case *array.Boolean:
		b := array.NewBooleanBuilder(mem)
		b.Reserve(len(idx))
		for _, i := range idx {
			if i < 0 || a.IsNull(int(i)) {
				b.AppendNull()
			} else {
				b.Append(a.Value(int(i)))
			}
		}
		return b.NewArray()
	}
	// Generic path (timestamps, intervals): per value.
	b := array.NewBuilder(mem, arr.DataType())
	b.Reserve(len(idx))
	for _, i := range idx {
		if i < 0 {
			b.AppendNull()
			continue
		}
		types.AppendValue(b, t, types.GetValue(arr, t, int(i)))
	}
	return b.NewArray()
}

// takeNulls returns the validity bitmap of a gather (nil when no output row
// is NULL) and the NULL count: output row j is NULL when idx[j] < 0 or
// input row idx[j] is NULL.
func takeNulls(a arrow.Array, idx []int32) ([]byte, int) {
	var valid []byte
	nulls := 0
	hasNulls := a.NullN() > 0
	for j, i := range idx {
		if i >= 0 && (!hasNulls || a.IsValid(int(i))) {
			continue
		}
		if valid == nil {
			valid = make([]byte, bitutil.BytesForBits(int64(len(idx))))
			bitutil.SetBitsTo(valid, 0, int64(len(idx)), true)
		}
		bitutil.ClearBit(valid, j)
		nulls++
	}
	return valid, nulls
}

func bufferOrNil(b []byte) *memory.Buffer {
	if b == nil {
		return nil
	}
	return memory.NewBufferBytes(b)
}

// takeFixed gathers a fixed-width column straight into Go memory (no
// builder): one pass for the values, one for NULLs only if there are any.
func takeFixed[T any](a arrow.Array, idx []int32, vals []T) arrow.Array {
	n := len(idx)
	out := make([]T, n)
	valid, nulls := takeNulls(a, idx)
	if nulls == 0 {
		for j, i := range idx {
			out[j] = vals[i]
		}
	} else {
		for j, i := range idx {
			if i >= 0 {
				out[j] = vals[i] // a NULL slot's value is never read
			}
		}
	}
	var zero T
	raw := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(out))), n*int(unsafe.Sizeof(zero)))
	data := array.NewData(a.DataType(), n, []*memory.Buffer{bufferOrNil(valid), memory.NewBufferBytes(raw)}, nil, nulls, 0)
	return array.MakeFromData(data)
}

// takeString gathers a string column with exact-size offsets and data
// buffers, reading the input's offsets directly; nil if the result would
// overflow 32-bit offsets.
func takeString(a *array.String, idx []int32) arrow.Array {
	n := len(idx)
	valid, nulls := takeNulls(a, idx)
	in := a.ValueOffsets() // absolute positions in raw
	var raw []byte
	if b := a.Data().Buffers()[2]; b != nil {
		raw = b.Bytes()
	}
	offs := make([]int32, n+1)
	total := 0
	for j, i := range idx {
		if i >= 0 && (nulls == 0 || bitutil.BitIsSet(valid, j)) {
			total += int(in[i+1] - in[i])
			if total > math.MaxInt32 {
				return nil
			}
		}
		offs[j+1] = int32(total)
	}
	buf := make([]byte, total)
	for j, i := range idx {
		lo, hi := offs[j], offs[j+1]
		if hi == lo {
			continue
		}
		src := raw[in[i]:in[i+1]]
		dst := buf[lo:hi]
		if len(src) <= 16 {
			for k := range dst { // short values: cheaper than a memmove call
				dst[k] = src[k]
			}
		} else {
			copy(dst, src)
		}
	}
	rawOffs := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(offs))), 4*(n+1))
	data := array.NewData(a.DataType(), n, []*memory.Buffer{bufferOrNil(valid), memory.NewBufferBytes(rawOffs), memory.NewBufferBytes(buf)}, nil, nulls, 0)
	return array.MakeFromData(data)
}

// nullArray is n NULLs of type t.
func nullArray(t types.Type, n int) arrow.Array {
	b := array.NewBuilder(memory.DefaultAllocator, t.ArrowType())
	b.AppendNulls(n)
	return b.NewArray()
}

// schemaOf is the Arrow schema of columns.
func schemaOf(cols []plan.Column) *arrow.Schema {
	fs := make([]arrow.Field, len(cols))
	for i, c := range cols {
		fs[i] = arrow.Field{Name: c.Name, Type: c.Type.ArrowType(), Nullable: true}
	}
	return arrow.NewSchema(fs, nil)
}

// concat joins the batches of one side into one column array per column
// (the build side is addressed by a single row id).
// Columns with need[c] false are left nil.
func concat(recs []arrow.Record, cols []plan.Column, need []bool) ([]arrow.Array, int, error) {
	out := make([]arrow.Array, len(cols))
	n := 0
	for _, r := range recs {
		n += int(r.NumRows())
	}
	for c := range cols {
		if !need[c] {
			continue
		}
		if len(recs) == 1 {
			out[c] = recs[0].Column(c)
			continue
		}
		if len(recs) == 0 {
			out[c] = nullArray(cols[c].Type, 0)
			continue
		}
		parts := make([]arrow.Array, len(recs))
		for i, r := range recs {
			parts[i] = r.Column(c)
		}
		a, err := array.Concatenate(parts, memory.DefaultAllocator)
		if err != nil {
			return nil, 0, err
		}
		out[c] = a
	}
	return out, n, nil
}

// recordBytes is the memory a batch's rows take (spill.RecordBytes: of a
// slice, its part of the buffers).
func recordBytes(r arrow.Record) int64 { return spill.RecordBytes(r) }
