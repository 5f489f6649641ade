package operators

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// mem is the allocator of every array operators build: Go memory, so nothing
// needs Release (see the Stream contract).
var mem = memory.DefaultAllocator

// newBuilder returns a builder for columns of SQL type t.
func newBuilder(t types.Type, capacity int) array.Builder {
	b := array.NewBuilder(mem, t.ArrowType())
	if capacity > 0 {
		b.Reserve(capacity)
	}
	return b
}

// batch is the input of expression evaluation: a set of equal-length columns,
// possibly a lazily taken subset (idx) of a parent's rows. Lazy CASE, AND, OR
// and COALESCE evaluate their later arguments over such subsets, and only the
// columns an argument reads are ever copied.
type batch struct {
	n    int
	src  []arrow.Array // the parent's columns
	idx  []int         // rows of src; nil means all of src's rows
	cols []arrow.Array // materialized columns (cache)
	// pos maps rows of this batch to rows of the root batch (nil = identity);
	// correlated subqueries use it to read outer values.
	pos []int
}

func newBatch(cols []arrow.Array, n int) *batch {
	return &batch{n: n, src: cols} // all of src's rows: col reads src, no cache
}

// col returns column i of the batch.
func (b *batch) col(i int) arrow.Array {
	if b.idx == nil {
		return b.src[i]
	}
	if b.cols == nil {
		b.cols = make([]arrow.Array, len(b.src))
	}
	if c := b.cols[i]; c != nil {
		return c
	}
	var c arrow.Array
	if b.idx == nil {
		c = b.src[i]
	} else {
		c = takeArray(b.src[i], b.idx)
	}
	b.cols[i] = c
	return c
}

// sub returns the batch of rows rows (indices into b).
func (b *batch) sub(rows []int) *batch {
	if len(rows) == b.n {
		return b // rows are always ascending and distinct: all of them
	}
	idx := rows
	if b.idx != nil {
		idx = make([]int, len(rows))
		for k, r := range rows {
			idx[k] = b.idx[r]
		}
	}
	pos := rows
	if b.pos != nil {
		pos = make([]int, len(rows))
		for k, r := range rows {
			pos[k] = b.pos[r]
		}
	}
	return &batch{n: len(rows), src: b.src, idx: idx, cols: make([]arrow.Array, len(b.src)), pos: pos}
}

// vec is the result of evaluating an expression over a batch: an array, or a
// constant broadcast to every row (arr == nil).
type vec struct {
	arr arrow.Array
	c   types.Value
}

func constVec(v types.Value) vec { return vec{c: v} }

func (v vec) isConst() bool { return v.arr == nil }

func (v vec) isNull(i int) bool {
	if v.arr == nil {
		return v.c.Null
	}
	return v.arr.IsNull(i)
}

func (v vec) get(t types.Type, i int) types.Value {
	if v.arr == nil {
		return v.c
	}
	return types.GetValue(v.arr, t, i)
}

// materialize returns v as an array of n rows of type t.
func (v vec) materialize(t types.Type, n int) arrow.Array {
	if v.arr != nil {
		if t.ID == types.Numeric {
			return types.ConformNumeric(v.arr, t) // a kernel's form → t's
		}
		return v.arr
	}
	return repeatValue(t, v.c, n)
}

// repeatValue builds an array holding v n times.
func repeatValue(t types.Type, v types.Value, n int) arrow.Array {
	if v.Null {
		return array.MakeArrayOfNull(mem, t.ArrowType(), n)
	}
	switch t.ArrowType().ID() {
	case arrow.INT64:
		vals := make([]int64, n)
		for i := range vals {
			vals[i] = v.I
		}
		b := array.NewInt64Builder(mem)
		b.AppendValues(vals, nil)
		return b.NewArray()
	case arrow.BOOL:
		b := array.NewBooleanBuilder(mem)
		b.Reserve(n)
		for i := 0; i < n; i++ {
			b.UnsafeAppend(v.I != 0)
		}
		return b.NewArray()
	}
	b := newBuilder(t, n)
	for i := 0; i < n; i++ {
		types.AppendValue(b, t, v)
	}
	return b.NewArray()
}

// takeArray copies rows idx of arr into a new array.
func takeArray(arr arrow.Array, idx []int) arrow.Array {
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
	case *array.Timestamp:
		return takePrim(a, idx, a.TimestampValues(), array.NewTimestampBuilder(mem, a.DataType().(*arrow.TimestampType)))
	case *array.MonthDayNanoInterval:
		return takePrim(a, idx, a.MonthDayNanoIntervalValues(), array.NewMonthDayNanoIntervalBuilder(mem))
	case *array.Boolean:
		b := array.NewBooleanBuilder(mem)
		b.Reserve(len(idx))
		hasNulls := a.NullN() > 0
		for _, i := range idx {
			if hasNulls && a.IsNull(i) {
				b.UnsafeAppendBoolToBitmap(false)
				continue
			}
			b.UnsafeAppend(a.Value(i))
		}
		return b.NewArray()
	case *array.String:
		b := array.NewStringBuilder(mem)
		b.Reserve(len(idx))
		size := 0
		for _, i := range idx {
			size += a.ValueLen(i)
		}
		b.ReserveData(size)
		hasNulls := a.NullN() > 0
		for _, i := range idx {
			if hasNulls && a.IsNull(i) {
				b.AppendNull()
				continue
			}
			b.Append(a.Value(i))
		}
		return b.NewArray()
	case *array.Null:
		return array.NewNull(len(idx))
	case *array.Decimal64, *array.Decimal128, *array.Binary:
		return takeNumeric(arr, idx)
	case *array.LargeBinary:
		return takeLargeBinary(a, idx) // arrayvec.go
	}
	panic(fmt.Sprintf("operators: take on unsupported array %T", arr))
}

type primBuilder[T any] interface {
	array.Builder
	AppendValues(v []T, valid []bool)
}

func takePrim[T any](a arrow.Array, idx []int, vals []T, b primBuilder[T]) arrow.Array {
	out := make([]T, len(idx))
	for k, i := range idx {
		out[k] = vals[i]
	}
	var valid []bool
	if a.NullN() > 0 {
		valid = make([]bool, len(idx))
		for k, i := range idx {
			valid[k] = a.IsValid(i)
		}
	}
	b.AppendValues(out, valid)
	return b.NewArray()
}

// appendFrom appends row i of arr to b (same Arrow type).
func appendFrom(b array.Builder, arr arrow.Array, i int) {
	if arr.IsNull(i) {
		b.AppendNull()
		return
	}
	switch a := arr.(type) {
	case *array.Int64:
		b.(*array.Int64Builder).Append(a.Value(i))
	case *array.Int32:
		b.(*array.Int32Builder).Append(a.Value(i))
	case *array.Int16:
		b.(*array.Int16Builder).Append(a.Value(i))
	case *array.Float64:
		b.(*array.Float64Builder).Append(a.Value(i))
	case *array.Float32:
		b.(*array.Float32Builder).Append(a.Value(i))
	case *array.Boolean:
		b.(*array.BooleanBuilder).Append(a.Value(i))
	case *array.String:
		b.(*array.StringBuilder).Append(a.Value(i))
	case *array.Date32:
		b.(*array.Date32Builder).Append(a.Value(i))
	case *array.Timestamp:
		b.(*array.TimestampBuilder).Append(a.Value(i))
	case *array.MonthDayNanoInterval:
		b.(*array.MonthDayNanoIntervalBuilder).Append(a.Value(i))
	case *array.Decimal64, *array.Decimal128, *array.Binary:
		appendNumericFrom(b, arr, i)
	case *array.LargeBinary:
		b.(*array.BinaryBuilder).Append(a.Value(i))
	default:
		panic(fmt.Sprintf("operators: appendFrom on unsupported array %T", arr))
	}
}

// appendVec appends row i of v (of type t) to b.
func appendVec(b array.Builder, t types.Type, v vec, i int) {
	if v.arr == nil {
		types.AppendValue(b, t, v.c)
		return
	}
	appendFrom(b, v.arr, i)
}

// piece is the result of an expression over a subset of a batch's rows.
type piece struct {
	v    vec
	rows []int // ascending rows of the batch; nil = all
}

// scatter assembles an n-row array of type t from pieces that partition the
// rows; rows covered by no piece are NULL. typed picks scatterTyped's
// slice copies where the type has them.
func scatter(t types.Type, n int, pieces []piece, typed bool) arrow.Array {
	if len(pieces) == 1 && (pieces[0].rows == nil || len(pieces[0].rows) == n) {
		return pieces[0].v.materialize(t, n)
	}
	if typed {
		if arr, ok := scatterTyped(t, n, pieces); ok {
			return arr
		}
	}
	which := make([]int32, n) // piece index + 1; 0 = NULL
	at := make([]int32, n)    // row within that piece
	for p, pc := range pieces {
		for k, r := range pc.rows {
			which[r] = int32(p + 1)
			at[r] = int32(k)
		}
	}
	b := newBuilder(t, n)
	for i := 0; i < n; i++ {
		w := which[i]
		if w == 0 {
			b.AppendNull()
			continue
		}
		appendVec(b, t, pieces[w-1].v, int(at[i]))
	}
	return b.NewArray()
}

// boolArray builds a Boolean array from values and an optional validity.
func boolArray(vals []bool, valid []bool) arrow.Array {
	bits := make([]byte, bitutil.BytesForBits(int64(len(vals))))
	for i, v := range vals {
		if v {
			bitutil.SetBit(bits, i)
		}
	}
	return primitiveArray(arrow.FixedWidthTypes.Boolean, bits, len(vals), valid)
}

// tri is a three-valued truth value.
type tri uint8

const (
	triFalse tri = iota
	triTrue
	triNull
)

// triAt reads row i of a boolean vec.
func triAt(v vec, i int) tri {
	if v.arr == nil {
		if v.c.Null {
			return triNull
		}
		if v.c.I != 0 {
			return triTrue
		}
		return triFalse
	}
	a := v.arr.(*array.Boolean)
	if a.IsNull(i) {
		return triNull
	}
	if a.Value(i) {
		return triTrue
	}
	return triFalse
}

func triArray(st []tri) arrow.Array {
	vals := make([]bool, len(st))
	var valid []bool
	for i, s := range st {
		switch s {
		case triTrue:
			vals[i] = true
		case triNull:
			if valid == nil {
				valid = make([]bool, len(st))
				for j := range valid {
					valid[j] = true
				}
			}
			valid[i] = false
		}
	}
	return boolArray(vals, valid)
}

func triValue(s tri) types.Value {
	switch s {
	case triTrue:
		return types.BoolValue(true)
	case triNull:
		return types.NullValue
	}
	return types.BoolValue(false)
}

// schemaOf is the Arrow schema of batches with columns cs.
func schemaOf(cs []plan.Column) *arrow.Schema {
	fs := make([]arrow.Field, len(cs))
	for i, c := range cs {
		fs[i] = arrow.Field{Name: c.Name, Type: c.Type.ArrowType(), Nullable: !c.NotNull}
	}
	return arrow.NewSchema(fs, nil)
}
