package storage

import (
	"fmt"
	"runtime"
	"strconv"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Lightweight encodings of a segment file's columns (issue 18). Each column
// of a segment is written in the encoding its data favours, chosen once for
// the whole segment (the file has one schema), and zstd compresses the
// encoded buffers on top:
//
//   - dictionary: a text column with few distinct values is an Arrow
//     dictionary array, one dictionary for the segment (an Arrow IPC file
//     allows one per field) and int8/int16 codes;
//   - run-length: an integer-like column whose equal values come in long
//     runs (sorted or repetitive data) is an Arrow run-end encoded array;
//   - frame of reference: another integer-like column (int2/int4/int8,
//     date, timestamp, time, numeric up to 18 digits as its scaled int64) is
//     value − base in the narrowest unsigned width that holds the segment's
//     range, base in the field's metadata.
//
// The field's metadata names the encoding (encKey); a field without it is
// the column's plain Arrow type, so files written before encodings read as
// they always did. Reading decodes a file's batches back to the plain
// layout the operators scan.
const (
	encKey  = "joind.encoding"
	baseKey = "joind.base"

	encDictName = "dictionary"
	encRLEName  = "rle"
	encFORName  = "for"
)

// Thresholds: an encoding must pay for itself before zstd sees it.
const (
	maxDictSize = 1 << 15 // int16 codes at most
	minRunLen   = 8       // average rows per run for run-length encoding
)

// colEncoding is one column's encoding in one segment.
type colEncoding struct {
	name  string         // "" (plain), encDictName, encRLEName, encFORName
	base  int64          // frame of reference
	code  arrow.DataType // frame of reference: the unsigned code type; dictionary: the index type
	dict  *array.String  // dictionary: the segment's distinct values
	index map[string]int // dictionary: value → code
}

// intWidth is the byte width of an Arrow type held as a signed integer
// (0: not one).
func intWidth(t arrow.DataType) int {
	switch t.ID() {
	case arrow.INT16:
		return 2
	case arrow.INT32, arrow.DATE32:
		return 4
	case arrow.INT64, arrow.TIMESTAMP, arrow.TIME64, arrow.DECIMAL64:
		return 8
	}
	return 0
}

// intReader returns a reader of an integer-like array's values.
func intReader(a arrow.Array, width int) func(i int) int64 {
	d := a.Data()
	b := d.Buffers()[1].Bytes()
	off := d.Offset()
	switch width {
	case 2:
		v := arrow.Int16Traits.CastFromBytes(b)[off:]
		return func(i int) int64 { return int64(v[i]) }
	case 4:
		v := arrow.Int32Traits.CastFromBytes(b)[off:]
		return func(i int) int64 { return int64(v[i]) }
	}
	v := arrow.Int64Traits.CastFromBytes(b)[off:]
	return func(i int) int64 { return v[i] }
}

// chooseEncoding picks column c's encoding from the segment's batches.
func chooseEncoding(recs []arrow.Record, c int, t arrow.DataType) colEncoding {
	if w := intWidth(t); w > 0 {
		return chooseIntEncoding(recs, c, w)
	}
	if arrow.TypeEqual(t, arrow.BinaryTypes.String) {
		return chooseDictionary(recs, c)
	}
	return colEncoding{}
}

func chooseIntEncoding(recs []arrow.Record, c, w int) colEncoding {
	var rows, runs int64
	var lo, hi int64
	seen := false
	for _, r := range recs {
		a := r.Column(c)
		at := intReader(a, w)
		n := a.Len()
		rows += int64(n)
		for i := 0; i < n; i++ {
			null := a.IsNull(i)
			// A run starts at each batch's first row and wherever the
			// value or its nullness changes.
			if i == 0 || null != a.IsNull(i-1) || (!null && at(i) != at(i-1)) {
				runs++
			}
			if null {
				continue
			}
			v := at(i)
			if !seen || v < lo {
				lo = v
			}
			if !seen || v > hi {
				hi = v
			}
			seen = true
		}
	}
	if rows == 0 {
		return colEncoding{}
	}
	if runs*minRunLen <= rows {
		return colEncoding{name: encRLEName}
	}
	if !seen {
		return colEncoding{}
	}
	span := uint64(hi) - uint64(lo)
	var code arrow.DataType
	switch {
	case span <= 0xff && w > 1:
		code = arrow.PrimitiveTypes.Uint8
	case span <= 0xffff && w > 2:
		code = arrow.PrimitiveTypes.Uint16
	case span <= 0xffffffff && w > 4:
		code = arrow.PrimitiveTypes.Uint32
	default:
		return colEncoding{}
	}
	return colEncoding{name: encFORName, base: lo, code: code}
}

func chooseDictionary(recs []arrow.Record, c int) colEncoding {
	index := map[string]int{}
	var vals []string
	var rows int
	for _, r := range recs {
		a := r.Column(c).(*array.String)
		rows += a.Len() - a.NullN()
		for i := 0; i < a.Len(); i++ {
			if a.IsNull(i) {
				continue
			}
			s := a.Value(i)
			if _, ok := index[s]; !ok {
				if len(vals) == maxDictSize {
					return colEncoding{}
				}
				s = string([]byte(s)) // not the batch's bytes: the dictionary outlives them
				index[s] = len(vals)
				vals = append(vals, s)
			}
		}
	}
	if len(vals) == 0 || len(vals)*2 > rows {
		return colEncoding{}
	}
	b := array.NewStringBuilder(memory.DefaultAllocator)
	defer b.Release()
	b.AppendValues(vals, nil)
	code := arrow.DataType(arrow.PrimitiveTypes.Int16)
	if len(vals) <= 128 {
		code = arrow.PrimitiveTypes.Int8
	}
	return colEncoding{name: encDictName, code: code, dict: b.NewStringArray(), index: index}
}

// field is the encoded column's field in the file's schema.
func (e colEncoding) field(f arrow.Field) arrow.Field {
	switch e.name {
	case encDictName:
		f.Type = &arrow.DictionaryType{IndexType: e.code, ValueType: f.Type}
		f.Metadata = arrow.NewMetadata([]string{encKey}, []string{e.name})
	case encRLEName:
		f.Type = arrow.RunEndEncodedOf(arrow.PrimitiveTypes.Int32, f.Type)
		f.Metadata = arrow.NewMetadata([]string{encKey}, []string{e.name})
	case encFORName:
		f.Type = e.code
		f.Metadata = arrow.NewMetadata([]string{encKey, baseKey}, []string{e.name, strconv.FormatInt(e.base, 10)})
	}
	return f
}

// encode is array a in encoding e.
func (e colEncoding) encode(a arrow.Array, t arrow.DataType) arrow.Array {
	switch e.name {
	case encDictName:
		return e.encodeDict(a.(*array.String))
	case encRLEName:
		return encodeRuns(a, intWidth(t))
	case encFORName:
		return e.encodeFOR(a, intWidth(t))
	}
	return a
}

func (e colEncoding) encodeDict(a *array.String) arrow.Array {
	n := a.Len()
	w := e.code.(arrow.FixedWidthDataType).BitWidth() / 8
	buf := make([]byte, n*w)
	codes8 := arrow.Int8Traits.CastFromBytes(buf)
	codes16 := arrow.Int16Traits.CastFromBytes(buf)
	for i := 0; i < n; i++ {
		if a.IsNull(i) {
			continue
		}
		k := e.index[a.Value(i)]
		if w == 1 {
			codes8[i] = int8(k)
		} else {
			codes16[i] = int16(k)
		}
	}
	idx := array.MakeFromData(array.NewData(e.code, n, []*memory.Buffer{validity(a), memory.NewBufferBytes(buf)}, nil, a.NullN(), 0))
	typ := &arrow.DictionaryType{IndexType: e.code, ValueType: arrow.BinaryTypes.String}
	return array.NewDictionaryArray(typ, idx, e.dict)
}

func (e colEncoding) encodeFOR(a arrow.Array, w int) arrow.Array {
	n := a.Len()
	at := intReader(a, w)
	cw := e.code.(arrow.FixedWidthDataType).BitWidth() / 8
	buf := make([]byte, n*cw)
	c8, c16, c32 := buf, arrow.Uint16Traits.CastFromBytes(buf), arrow.Uint32Traits.CastFromBytes(buf)
	for i := 0; i < n; i++ {
		if a.IsNull(i) {
			continue
		}
		d := uint64(at(i)) - uint64(e.base)
		switch cw {
		case 1:
			c8[i] = uint8(d)
		case 2:
			c16[i] = uint16(d)
		default:
			c32[i] = uint32(d)
		}
	}
	return array.MakeFromData(array.NewData(e.code, n, []*memory.Buffer{validity(a), memory.NewBufferBytes(buf)}, nil, a.NullN(), 0))
}

// validity is a's validity bitmap starting at its first row (nil: no
// NULLs).
func validity(a arrow.Array) *memory.Buffer {
	if a.NullN() == 0 {
		return nil
	}
	d := a.Data()
	if d.Offset() == 0 {
		return d.Buffers()[0]
	}
	bits := make([]byte, bitutil.BytesForBits(int64(a.Len())))
	bitutil.CopyBitmap(d.Buffers()[0].Bytes(), d.Offset(), a.Len(), bits, 0)
	return memory.NewBufferBytes(bits)
}

// encodeRuns is a as a run-end encoded array of int32 run ends.
func encodeRuns(a arrow.Array, w int) arrow.Array {
	n := a.Len()
	at := intReader(a, w)
	var ends []int32
	var vals []int64
	var valid []bool
	for i := 0; i < n; i++ {
		null := a.IsNull(i)
		if i == 0 || null != a.IsNull(i-1) || (!null && at(i) != at(i-1)) {
			ends = append(ends, 0)
			v := int64(0)
			if !null {
				v = at(i)
			}
			vals = append(vals, v)
			valid = append(valid, !null)
		}
		ends[len(ends)-1] = int32(i + 1)
	}
	values := intArray(a.DataType(), w, vals, valid)
	re := array.NewInt32Data(array.NewData(arrow.PrimitiveTypes.Int32, len(ends),
		[]*memory.Buffer{nil, memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(ends))}, nil, 0, 0))
	return array.NewRunEndEncodedArray(re, values, n, 0)
}

// intArray is an integer-like array of type t (byte width w) holding vals,
// NULL where valid is false (valid nil: none).
func intArray(t arrow.DataType, w int, vals []int64, valid []bool) arrow.Array {
	n := len(vals)
	buf := make([]byte, n*w)
	switch w {
	case 2:
		v := arrow.Int16Traits.CastFromBytes(buf)
		for i, x := range vals {
			v[i] = int16(x)
		}
	case 4:
		v := arrow.Int32Traits.CastFromBytes(buf)
		for i, x := range vals {
			v[i] = int32(x)
		}
	default:
		copy(arrow.Int64Traits.CastFromBytes(buf), vals)
	}
	var bits *memory.Buffer
	nulls := 0
	if valid != nil {
		bm := make([]byte, bitutil.BytesForBits(int64(n)))
		for i, ok := range valid {
			if ok {
				bitutil.SetBit(bm, i)
			} else {
				nulls++
			}
		}
		if nulls > 0 {
			bits = memory.NewBufferBytes(bm)
		}
	}
	return array.MakeFromData(array.NewData(t, n, []*memory.Buffer{bits, memory.NewBufferBytes(buf)}, nil, nulls, 0))
}

// encodeSegment chooses each column's encoding from recs and returns the
// file's schema and the batches to write. Columns are encoded in parallel.
func encodeSegment(recs []arrow.Record, cols []ColumnDef) (*arrow.Schema, []arrow.Record) {
	plain := arrowSchema(cols)
	fields := plain.Fields()
	out := make([][]arrow.Array, len(recs))
	for i := range out {
		out[i] = make([]arrow.Array, len(cols))
	}
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for c := range cols {
		wg.Add(1)
		sem <- struct{}{}
		go func(c int) {
			defer func() { <-sem; wg.Done() }()
			t := fields[c].Type
			e := chooseEncoding(recs, c, t)
			fields[c] = e.field(fields[c])
			for i, r := range recs {
				out[i][c] = e.encode(r.Column(c), t)
			}
		}(c)
	}
	wg.Wait()
	sc := arrow.NewSchema(fields, nil)
	enc := make([]arrow.Record, len(recs))
	for i, r := range recs {
		enc[i] = array.NewRecord(sc, out[i], r.NumRows())
	}
	return sc, enc
}

// checkEncodedField reports whether field f of a file is column type want
// in one of the encodings (or plain).
func checkEncodedField(f arrow.Field, want arrow.DataType) error {
	name, _ := f.Metadata.GetValue(encKey)
	ok := false
	switch name {
	case "":
		ok = arrow.TypeEqual(f.Type, want)
	case encDictName:
		dt, isDict := f.Type.(*arrow.DictionaryType)
		ok = isDict && arrow.TypeEqual(dt.ValueType, want) && arrow.IsInteger(dt.IndexType.ID())
	case encRLEName:
		rt, isRLE := f.Type.(*arrow.RunEndEncodedType)
		ok = isRLE && arrow.TypeEqual(rt.Encoded(), want) && rt.RunEnds().ID() == arrow.INT32 && intWidth(want) > 0
	case encFORName:
		_, err := strconv.ParseInt(baseOf(f), 10, 64)
		id := f.Type.ID()
		ok = err == nil && intWidth(want) > 0 && (id == arrow.UINT8 || id == arrow.UINT16 || id == arrow.UINT32)
	default:
		return fmt.Errorf("column %s has unknown encoding %q", f.Name, name)
	}
	if !ok {
		return fmt.Errorf("column %s has Arrow type %s (encoding %q), want %s", f.Name, f.Type, name, want)
	}
	return nil
}

func baseOf(f arrow.Field) string {
	v, _ := f.Metadata.GetValue(baseKey)
	return v
}

// encoded reports whether a file's schema has an encoded column.
func encoded(sc *arrow.Schema) bool {
	for _, f := range sc.Fields() {
		if f.HasMetadata() {
			if _, ok := f.Metadata.GetValue(encKey); ok {
				return true
			}
		}
	}
	return false
}

// decodeRecord is batch r of a file with schema sc laid out as cols, every
// column in its plain Arrow form.
func decodeRecord(r arrow.Record, sc *arrow.Schema, cols []ColumnDef) arrow.Record {
	out := make([]arrow.Array, len(cols))
	for i, c := range cols {
		out[i] = decodeColumn(r.Column(i), sc.Field(i), c.Type.ArrowType())
	}
	return array.NewRecord(arrowSchema(cols), out, r.NumRows())
}

// decodeColumn is a (field f of a file) as plain type t.
func decodeColumn(a arrow.Array, f arrow.Field, t arrow.DataType) arrow.Array {
	name, _ := f.Metadata.GetValue(encKey)
	switch name {
	case encDictName:
		return decodeDict(a.(*array.Dictionary))
	case encRLEName:
		return decodeRuns(a.(*array.RunEndEncoded), t)
	case encFORName:
		base, _ := strconv.ParseInt(baseOf(f), 10, 64)
		return decodeFOR(a, base, t)
	}
	return a
}

func decodeDict(a *array.Dictionary) arrow.Array {
	dict := a.Dictionary().(*array.String)
	idx := a.Indices()
	at := intCodes(idx)
	n := a.Len()
	size := 0
	for i := 0; i < n; i++ {
		if idx.IsValid(i) {
			size += dict.ValueLen(at(i))
		}
	}
	offs := make([]int32, n+1)
	data := make([]byte, 0, size)
	for i := 0; i < n; i++ {
		if idx.IsValid(i) {
			data = append(data, dict.Value(at(i))...)
		}
		offs[i+1] = int32(len(data))
	}
	return array.NewStringData(array.NewData(arrow.BinaryTypes.String, n,
		[]*memory.Buffer{validity(idx), memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(offs)), memory.NewBufferBytes(data)}, nil, idx.NullN(), 0))
}

// intCodes reads a dictionary's signed integer indices.
func intCodes(idx arrow.Array) func(i int) int {
	switch x := idx.(type) {
	case *array.Int8:
		return func(i int) int { return int(x.Value(i)) }
	case *array.Int16:
		return func(i int) int { return int(x.Value(i)) }
	case *array.Int32:
		return func(i int) int { return int(x.Value(i)) }
	}
	x := idx.(*array.Int64)
	return func(i int) int { return int(x.Value(i)) }
}

func decodeFOR(a arrow.Array, base int64, t arrow.DataType) arrow.Array {
	n := a.Len()
	vals := make([]int64, n)
	switch x := a.(type) {
	case *array.Uint8:
		for i, c := range x.Uint8Values() {
			vals[i] = base + int64(c)
		}
	case *array.Uint16:
		for i, c := range x.Uint16Values() {
			vals[i] = base + int64(c)
		}
	case *array.Uint32:
		for i, c := range x.Uint32Values() {
			vals[i] = base + int64(c)
		}
	}
	out := intArray(t, intWidth(t), vals, nil)
	if a.NullN() == 0 {
		return out
	}
	d := out.Data()
	return array.MakeFromData(array.NewData(t, n, []*memory.Buffer{validity(a), d.Buffers()[1]}, nil, a.NullN(), 0))
}

func decodeRuns(a *array.RunEndEncoded, t arrow.DataType) arrow.Array {
	w := intWidth(t)
	n := a.Len()
	ends := a.RunEndsArr().(*array.Int32).Int32Values()
	values := a.Values()
	at := intReader(values, w)
	vals := make([]int64, n)
	var valid []bool
	if values.NullN() > 0 {
		valid = make([]bool, n)
	}
	// The file's arrays start at offset 0: run r covers [ends[r-1], ends[r]).
	from := 0
	for r, end := range ends {
		v, ok := at(r), values.IsValid(r)
		for i := from; i < int(end) && i < n; i++ {
			vals[i] = v
			if valid != nil {
				valid[i] = ok
			}
		}
		from = int(end)
	}
	return intArray(t, w, vals, valid)
}
