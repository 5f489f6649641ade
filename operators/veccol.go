package operators

import (
	"sync"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/joind/joind/types"
)

// Typed column access for kernels: a reader per argument and a writer for
// the result, chosen once per batch, so the per-row work is a slice index
// instead of GetValue's and AppendValue's type switches and string copies.

// reader returns row i of a column as a Value (NullValue when NULL). Text
// is not copied: a kernel's values live only while it runs.
type reader func(i int) types.Value

func readerOf(v vec, t types.Type) reader {
	if v.isConst() {
		c := v.c
		return func(int) types.Value { return c }
	}
	nulls := v.arr.NullN() > 0
	arr := v.arr
	switch a := v.arr.(type) {
	case *array.Int64:
		vals := a.Int64Values()
		return func(i int) types.Value {
			if nulls && arr.IsNull(i) {
				return types.NullValue
			}
			return types.Value{I: vals[i]}
		}
	case *array.Int32:
		vals := a.Int32Values()
		return func(i int) types.Value {
			if nulls && arr.IsNull(i) {
				return types.NullValue
			}
			return types.Value{I: int64(vals[i])}
		}
	case *array.Int16:
		vals := a.Int16Values()
		return func(i int) types.Value {
			if nulls && arr.IsNull(i) {
				return types.NullValue
			}
			return types.Value{I: int64(vals[i])}
		}
	case *array.Date32:
		vals := a.Date32Values()
		return func(i int) types.Value {
			if nulls && arr.IsNull(i) {
				return types.NullValue
			}
			return types.Value{I: int64(vals[i])}
		}
	case *array.Timestamp:
		vals := a.TimestampValues()
		return func(i int) types.Value {
			if nulls && arr.IsNull(i) {
				return types.NullValue
			}
			return types.Value{I: int64(vals[i])}
		}
	case *array.Float64:
		vals := a.Float64Values()
		return func(i int) types.Value {
			if nulls && arr.IsNull(i) {
				return types.NullValue
			}
			return types.Value{F: vals[i]}
		}
	case *array.String:
		if t.ID == types.Numeric {
			break
		}
		return func(i int) types.Value {
			if nulls && arr.IsNull(i) {
				return types.NullValue
			}
			return types.Value{S: a.Value(i)}
		}
	}
	return func(i int) types.Value { return types.GetValue(arr, t, i) }
}

// writer accumulates a result column of one type.
type writer interface {
	add(v types.Value) // v is not NULL
	null()
	array() arrow.Array
}

func newWriter(t types.Type, n int) writer {
	switch t.ID {
	case types.Bool:
		return &boolWriter{vals: make([]bool, 0, n), valid: newValidity(n)}
	case types.Int2, types.Int4, types.Int8, types.Date, types.Timestamp, types.TimestampTZ, types.Time, types.TimeTZ:
		return &intWriter{t: t, vals: make([]int64, 0, n), valid: newValidity(n)}
	case types.Float8:
		return &floatWriter{vals: make([]float64, 0, n), valid: newValidity(n)}
	case types.Text, types.Varchar, types.Char, types.Name, types.Unknown:
		b := array.NewStringBuilder(mem)
		b.Reserve(n)
		return &stringWriter{b: b}
	}
	return &builderWriter{t: t, b: newBuilder(t, n)}
}

// validityBits is a validity bitmap built row by row.
type validityBits struct {
	bits  []byte
	n     int
	nulls int
}

func newValidity(n int) *validityBits {
	return &validityBits{bits: make([]byte, bitutil.BytesForBits(int64(n)))}
}

func (v *validityBits) set(ok bool) {
	if v.n>>3 >= len(v.bits) {
		v.bits = append(v.bits, 0)
	}
	if ok {
		bitutil.SetBit(v.bits, v.n)
	} else {
		v.nulls++
	}
	v.n++
}

func (v *validityBits) buffer() *memory.Buffer {
	if v.nulls == 0 {
		return nil
	}
	return memory.NewBufferBytes(v.bits)
}

type boolWriter struct {
	vals  []bool
	valid *validityBits
}

func (w *boolWriter) add(v types.Value) { w.vals = append(w.vals, v.I != 0); w.valid.set(true) }
func (w *boolWriter) null()             { w.vals = append(w.vals, false); w.valid.set(false) }
func (w *boolWriter) array() arrow.Array {
	n := len(w.vals)
	bits := make([]byte, bitutil.BytesForBits(int64(n)))
	for i, b := range w.vals {
		if b {
			bitutil.SetBit(bits, i)
		}
	}
	data := array.NewData(arrow.FixedWidthTypes.Boolean, n, []*memory.Buffer{w.valid.buffer(), memory.NewBufferBytes(bits)}, nil, w.valid.nulls, 0)
	return array.NewBooleanData(data)
}

type intWriter struct {
	t     types.Type
	vals  []int64
	valid *validityBits
}

func (w *intWriter) add(v types.Value) { w.vals = append(w.vals, v.I); w.valid.set(true) }
func (w *intWriter) null()             { w.vals = append(w.vals, 0); w.valid.set(false) }
func (w *intWriter) array() arrow.Array {
	return fixedArray(w.t, w.vals, w.valid.buffer(), w.valid.nulls)
}

type floatWriter struct {
	vals  []float64
	valid *validityBits
}

func (w *floatWriter) add(v types.Value) { w.vals = append(w.vals, v.F); w.valid.set(true) }
func (w *floatWriter) null()             { w.vals = append(w.vals, 0); w.valid.set(false) }
func (w *floatWriter) array() arrow.Array {
	data := array.NewData(arrow.PrimitiveTypes.Float64, len(w.vals), []*memory.Buffer{w.valid.buffer(), memory.NewBufferBytes(arrow.Float64Traits.CastToBytes(w.vals))}, nil, w.valid.nulls, 0)
	return array.MakeFromData(data)
}

type stringWriter struct{ b *array.StringBuilder }

func (w *stringWriter) add(v types.Value) { w.b.Append(v.S) }
func (w *stringWriter) null()             { w.b.AppendNull() }
func (w *stringWriter) array() arrow.Array {
	return w.b.NewArray()
}

type builderWriter struct {
	t types.Type
	b array.Builder
}

func (w *builderWriter) add(v types.Value) { types.AppendValue(w.b, w.t, v) }
func (w *builderWriter) null()             { w.b.AppendNull() }
func (w *builderWriter) array() arrow.Array {
	return w.b.NewArray()
}

// fixedArray is an integer-like array of type t (int2/4/8, date,
// timestamp[tz]) holding vals, with an optional validity buffer.
func fixedArray(t types.Type, vals []int64, valid *memory.Buffer, nulls int) arrow.Array {
	var buf []byte
	switch t.ID {
	case types.Int2:
		nv := make([]int16, len(vals))
		for i, v := range vals {
			nv[i] = int16(v)
		}
		buf = arrow.Int16Traits.CastToBytes(nv)
	case types.Int4, types.Date:
		nv := make([]int32, len(vals))
		for i, v := range vals {
			nv[i] = int32(v)
		}
		buf = arrow.Int32Traits.CastToBytes(nv)
	default:
		buf = arrow.Int64Traits.CastToBytes(vals)
	}
	data := array.NewData(t.ArrowType(), len(vals), []*memory.Buffer{valid, memory.NewBufferBytes(buf)}, nil, nulls, 0)
	return array.MakeFromData(data)
}

// rowKernel evaluates fn row by row through its Eval, but reads and writes
// the columns directly: the kernel of every overload whose arithmetic is
// not worth repeating here (date/interval arithmetic, extract, date_trunc,
// substring). Being fn.Eval itself, it is exact by construction.
func rowKernel(fn *types.Overload, ctx *types.EvalContext) fastFunc {
	m := &memo{}
	return func(argv []vec, n int) (arrow.Array, bool, error) {
		if arr, ok, err := m.kernel(fn, ctx, argv, n); ok || err != nil {
			return arr, ok, err
		}
		rd := make([]reader, len(argv))
		for k, v := range argv {
			rd[k] = readerOf(v, fn.Args[k])
		}
		w := newWriter(fn.Result, n)
		vals := make([]types.Value, len(argv))
	rows:
		for i := 0; i < n; i++ {
			for k := range rd {
				vals[k] = rd[k](i)
				if vals[k].Null {
					w.null()
					continue rows
				}
			}
			r, err := fn.Eval(ctx, vals)
			if err != nil {
				return nil, true, err
			}
			if r.Null {
				w.null()
				continue
			}
			w.add(r)
		}
		return w.array(), true, nil
	}
}

// memo is the cache of one call site's memoKernel: the results of fn by
// its one varying integer-like argument. Each batch takes a map from the
// pool and returns it, so a partition keeps its map across batches without
// sharing it; a map that fills up while missing most lookups (a column of
// mostly distinct values) switches memoization off for the call site.
type memo struct {
	pool sync.Pool
	off  atomic.Bool
}

type memoResult struct {
	v   types.Value
	err error
}

// memoCap bounds a partition's cache (a variable for the tests).
var memoCap = 16384

// memoKernel is rowKernel for a call whose only non-constant argument is an
// integer-like column (extract(year from d), date_trunc('month', ts),
// d + interval '1 month'): dates repeat, so each distinct value is computed
// once per partition. fn is not volatile (pickFast) and ctx is fixed, so
// equal arguments give equal results (and errors). ok=false when the shape
// does not fit.
func (m *memo) kernel(fn *types.Overload, ctx *types.EvalContext, argv []vec, n int) (arrow.Array, bool, error) {
	if m.off.Load() {
		return nil, false, nil
	}
	col := -1
	for k, v := range argv {
		if v.isConst() {
			if v.c.Null {
				return nil, false, nil
			}
			continue
		}
		if col >= 0 {
			return nil, false, nil
		}
		col = k
	}
	if col < 0 {
		return nil, false, nil
	}
	c, ok := asInt64s(argv[col])
	if !ok {
		return nil, false, nil
	}
	vals := make([]types.Value, len(argv))
	for k, v := range argv {
		vals[k] = v.c
	}
	cache, _ := m.pool.Get().(map[int64]memoResult)
	if cache == nil {
		cache = make(map[int64]memoResult, 256)
	}
	defer m.pool.Put(cache)
	misses := 0
	w := newWriter(fn.Result, n)
	nulls := c.arr.NullN() > 0
	for i, x := range c.vals {
		if nulls && c.arr.IsNull(i) {
			w.null()
			continue
		}
		r, seen := cache[x]
		if !seen {
			misses++
			vals[col] = types.Value{I: x}
			r.v, r.err = fn.Eval(ctx, vals)
			if len(cache) < memoCap {
				cache[x] = r
			}
		}
		if r.err != nil {
			return nil, true, r.err
		}
		if r.v.Null {
			w.null()
			continue
		}
		w.add(r.v)
	}
	if len(cache) >= memoCap && misses > n/2 {
		m.off.Store(true)
	}
	return w.array(), true, nil
}

// registerRow registers rowKernel for each signature.
func registerRow(name string, sigs ...[]types.ID) {
	for _, s := range sigs {
		registerKernel(name, s, func(fn *types.Overload, ctx *types.EvalContext) fastFunc {
			return rowKernel(fn, ctx)
		})
	}
}

// fixedArrayValid is fixedArray with validity as bools (nil: all valid).
func fixedArrayValid(t types.Type, vals []int64, valid []bool) arrow.Array {
	if valid == nil {
		return fixedArray(t, vals, nil, 0)
	}
	bits := make([]byte, bitutil.BytesForBits(int64(len(vals))))
	nulls := 0
	for i, ok := range valid {
		if ok {
			bitutil.SetBit(bits, i)
		} else {
			nulls++
		}
	}
	if nulls == 0 {
		return fixedArray(t, vals, nil, 0)
	}
	return fixedArray(t, vals, memory.NewBufferBytes(bits), nulls)
}
