package join

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// take gathers rows idx of arr (of SQL type t) into a new array; an index
// of -1 yields NULL (the padding side of an outer join).
func take(arr arrow.Array, t types.Type, idx []int32) arrow.Array {
	mem := memory.DefaultAllocator
	switch a := arr.(type) {
	case *array.Int64:
		return takePrim(a, idx, a.Int64Values(), array.NewInt64Builder(mem))
	case *array.Int32:
		return takePrim(a, idx, a.Int32Values(), array.NewInt32Builder(mem))
	case *array.Int16:
		return takePrim(a, idx, a.Int16Values(), array.NewInt16Builder(mem))
	case *array.Float64:
		return takePrim(a, idx, a.Float64Values(), array.NewFloat64Builder(mem))
	case *array.Float32:
		return takePrim(a, idx, a.Float32Values(), array.NewFloat32Builder(mem))
	case *array.Date32:
		return takePrim(a, idx, a.Date32Values(), array.NewDate32Builder(mem))
	case *array.String:
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

type primBuilder[T any] interface {
	array.Builder
	Append(T)
	UnsafeAppend(T)
}

func takePrim[T any](a arrow.Array, idx []int32, vals []T, b primBuilder[T]) arrow.Array {
	b.Reserve(len(idx))
	if a.NullN() == 0 {
		for _, i := range idx {
			if i < 0 {
				b.AppendNull()
			} else {
				b.UnsafeAppend(vals[i])
			}
		}
		return b.NewArray()
	}
	for _, i := range idx {
		if i < 0 || a.IsNull(int(i)) {
			b.AppendNull()
		} else {
			b.UnsafeAppend(vals[i])
		}
	}
	return b.NewArray()
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
func concat(recs []arrow.Record, cols []plan.Column) ([]arrow.Array, int, error) {
	out := make([]arrow.Array, len(cols))
	n := 0
	for _, r := range recs {
		n += int(r.NumRows())
	}
	for c := range cols {
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

// recordBytes is the memory held by a batch's buffers.
func recordBytes(r arrow.Record) int64 {
	var n int64
	for _, c := range r.Columns() {
		n += arrayBytes(c.Data())
	}
	return n
}

func arrayBytes(d arrow.ArrayData) int64 {
	var n int64
	for _, b := range d.Buffers() {
		if b != nil {
			n += int64(b.Len())
		}
	}
	for _, c := range d.Children() {
		n += arrayBytes(c)
	}
	return n
}
