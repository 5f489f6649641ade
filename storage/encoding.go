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
//     (value − base) / step, base the segment's least value and step the
//     values' common difference (whole quantities of a numeric(15,2) are
//     multiples of 100), bit-packed in as many bits as the segment's range
//     needs — except an ascending column, whose codes fill whole unsigned
//     slots, which zstd compresses better than packed ones. The packed bits
//     start at the buffer's first byte; the rest of the array's n slots is
//     zero, so the array keeps Arrow's length rules and zstd stores the
//     zeros in a few bytes.
//
// Before encoding, consecutive batches are gathered into batches of at
// least fileBatchRows rows (rebatch): both the encodings and zstd do better
// on long buffers.
//
// The field's metadata names the encoding (encKey); a field without it is
// the column's plain Arrow type, so files written before encodings read as
// they always did. A file's batches are read as lazyRecords
// (encoding_lazy.go): each encoded column is decoded back to its plain Arrow
// form the first time it is used.
const (
	encKey  = "joind.encoding"
	baseKey = "joind.base"
	stepKey = "joind.step"
	bitsKey = "joind.bits"

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
	step  uint64         // frame of reference: value = base + code*step
	bits  int            // frame of reference: bits per code
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
	var lo, hi, last int64
	seen, sorted := false, true
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
			if seen && v < last {
				sorted = false
			}
			last = v
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
	// The step is the values' common difference (numeric quantities are
	// often whole multiples of 10^scale).
	var step uint64
	for _, r := range recs {
		a := r.Column(c)
		at := intReader(a, w)
		for i := 0; i < a.Len() && step != 1; i++ {
			if a.IsValid(i) {
				step = gcd(step, uint64(at(i))-uint64(lo))
			}
		}
	}
	if step == 0 {
		step = 1
	}
	bits, cbits := bitLen((uint64(hi)-uint64(lo))/step), 0
	if bits >= w*8 {
		return colEncoding{}
	}
	var code arrow.DataType
	switch {
	case bits <= 8:
		code, cbits = arrow.PrimitiveTypes.Uint8, 8
	case bits <= 16:
		code, cbits = arrow.PrimitiveTypes.Uint16, 16
	case bits <= 32:
		code, cbits = arrow.PrimitiveTypes.Uint32, 32
	default:
		code, cbits = arrow.PrimitiveTypes.Uint64, 64
	}
	if sorted {
		// Ascending codes in whole slots, which zstd compresses far
		// better than the same codes packed across byte boundaries.
		bits = cbits
	}
	return colEncoding{name: encFORName, base: lo, step: step, bits: bits, code: code}
}

func gcd(a, b uint64) uint64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

func bitLen(x uint64) int {
	n := 0
	for ; x != 0; x >>= 1 {
		n++
	}
	return n
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
		f.Metadata = arrow.NewMetadata([]string{encKey, baseKey, stepKey, bitsKey},
			[]string{e.name, strconv.FormatInt(e.base, 10), strconv.FormatUint(e.step, 10), strconv.Itoa(e.bits)})
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

// encodeFOR packs the codes (value − base) / step, e.bits each, from the
// buffer's first byte; the rest of the code type's n slots stays zero, which
// zstd stores in a few bytes (the array keeps Arrow's length rules).
func (e colEncoding) encodeFOR(a arrow.Array, w int) arrow.Array {
	n := a.Len()
	at := intReader(a, w)
	cw := e.code.(arrow.FixedWidthDataType).BitWidth() / 8
	buf := make([]byte, n*cw+8)
	var acc uint64 // bits not yet stored, the lowest first
	have, pos := 0, 0
	for i := 0; i < n; i++ {
		var code uint64
		if a.IsValid(i) {
			code = (uint64(at(i)) - uint64(e.base)) / e.step
		}
		acc |= code << have
		if have+e.bits >= 64 {
			putUint64(buf[pos:], acc)
			pos += 8
			used := 64 - have // bits of code stored
			acc = 0
			if used < e.bits {
				acc = code >> used
			}
			have = e.bits - used
		} else {
			have += e.bits
		}
	}
	putUint64(buf[pos:], acc)
	return array.MakeFromData(array.NewData(e.code, n, []*memory.Buffer{validity(a), memory.NewBufferBytes(buf[:n*cw])}, nil, a.NullN(), 0))
}

func putUint64(b []byte, v uint64) {
	for i := 0; i < 8 && i < len(b); i++ {
		b[i] = byte(v >> (8 * i))
	}
}

func getUint64(b []byte) uint64 {
	var v uint64
	for i := 0; i < 8 && i < len(b); i++ {
		v |= uint64(b[i]) << (8 * i)
	}
	return v
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
	bm := make([]byte, bitutil.BytesForBits(int64(n))) // the runs' validity
	nulls := 0
	for i := 0; i < n; i++ {
		null := a.IsNull(i)
		if i == 0 || null != a.IsNull(i-1) || (!null && at(i) != at(i-1)) {
			v := int64(0)
			if null {
				nulls++
			} else {
				v = at(i)
				bitutil.SetBit(bm, len(vals))
			}
			ends = append(ends, 0)
			vals = append(vals, v)
		}
		ends[len(ends)-1] = int32(i + 1)
	}
	values := intArray(a.DataType(), w, vals, bitmap(bm, nulls), nulls)
	re := array.NewInt32Data(array.NewData(arrow.PrimitiveTypes.Int32, len(ends),
		[]*memory.Buffer{nil, memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(ends))}, nil, 0, 0))
	return array.NewRunEndEncodedArray(re, values, n, 0)
}

// bitmap is a validity buffer of bm, nil when there are no NULLs.
func bitmap(bm []byte, nulls int) *memory.Buffer {
	if nulls == 0 {
		return nil
	}
	return memory.NewBufferBytes(bm)
}

// intArray is an integer-like array of type t (byte width w) holding vals,
// with validity bitmap bits (nil: no NULLs) and nulls NULLs.
func intArray(t arrow.DataType, w int, vals []int64, bits *memory.Buffer, nulls int) arrow.Array {
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
	sc := arrow.NewSchema(fields, &segmentMetadata)
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
		_, step, bits, err := forParams(f)
		ft, fixed := f.Type.(arrow.FixedWidthDataType)
		id := f.Type.ID()
		ok = err == nil && step > 0 && fixed && bits >= 0 && bits <= ft.BitWidth() && intWidth(want) > 0 &&
			(id == arrow.UINT8 || id == arrow.UINT16 || id == arrow.UINT32 || id == arrow.UINT64)
	default:
		return fmt.Errorf("column %s has unknown encoding %q", f.Name, name)
	}
	if !ok {
		return fmt.Errorf("column %s has Arrow type %s (encoding %q), want %s", f.Name, f.Type, name, want)
	}
	return nil
}

// forParams reads a frame-of-reference field's base, step and bits.
func forParams(f arrow.Field) (base int64, step uint64, bits int, err error) {
	get := func(k string) string { v, _ := f.Metadata.GetValue(k); return v }
	if base, err = strconv.ParseInt(get(baseKey), 10, 64); err != nil {
		return
	}
	if step, err = strconv.ParseUint(get(stepKey), 10, 64); err != nil {
		return
	}
	bits, err = strconv.Atoi(get(bitsKey))
	return
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

// decodeColumn is a (field f of a file) as plain type t.
func decodeColumn(a arrow.Array, f arrow.Field, t arrow.DataType) arrow.Array {
	name, _ := f.Metadata.GetValue(encKey)
	switch name {
	case encDictName:
		return decodeDict(a.(*array.Dictionary))
	case encRLEName:
		return decodeRuns(a.(*array.RunEndEncoded), t)
	case encFORName:
		base, step, bits, _ := forParams(f)
		return decodeFOR(a, base, step, bits, t)
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

func decodeFOR(a arrow.Array, base int64, step uint64, bits int, t arrow.DataType) arrow.Array {
	n := a.Len()
	d := a.Data()
	cw := a.DataType().(arrow.FixedWidthDataType).BitWidth() / 8
	packed := d.Buffers()[1].Bytes()[d.Offset()*cw:]
	vals := make([]int64, n)
	mask := uint64(1)<<bits - 1
	if bits == 64 {
		mask = ^uint64(0)
	}
	for i := range vals {
		bit := i * bits
		at := bit >> 3
		sh := bit & 7
		code := getUint64(packed[at:]) >> sh
		if sh+bits > 64 {
			code |= uint64(packed[at+8]) << (64 - sh)
		}
		vals[i] = int64(uint64(base) + (code&mask)*step)
	}
	return intArray(t, intWidth(t), vals, validity(a), a.NullN())
}

func decodeRuns(a *array.RunEndEncoded, t arrow.DataType) arrow.Array {
	w := intWidth(t)
	n := a.Len()
	ends := a.RunEndsArr().(*array.Int32).Int32Values()
	values := a.Values()
	at := intReader(values, w)
	vals := make([]int64, n)
	bm := make([]byte, bitutil.BytesForBits(int64(n)))
	nulls := 0
	// The file's arrays start at offset 0: run r covers [ends[r-1], ends[r]).
	from := 0
	for r, end := range ends {
		to := min(int(end), n)
		v := at(r)
		for i := from; i < to; i++ {
			vals[i] = v
		}
		if values.IsValid(r) {
			bitutil.SetBitsTo(bm, int64(from), int64(to-from), true)
		} else {
			nulls += to - from
		}
		from = to
	}
	return intArray(t, w, vals, bitmap(bm, nulls), nulls)
}

// fileBatchRows is the least number of rows rebatch gathers into one batch
// of a file: zstd and the encodings do better on longer buffers than on
// COPY's or INSERT's batches.
const fileBatchRows = 1 << 16

// rebatch concatenates consecutive batches of recs into batches of at least
// fileBatchRows rows (the last may be shorter); a row keeps its offset in
// the segment.
func rebatch(recs []arrow.Record) ([]arrow.Record, error) {
	var out, group []arrow.Record
	var n int64
	flush := func() error {
		switch len(group) {
		case 0:
			return nil
		case 1:
			out = append(out, group[0])
		default:
			cols := make([]arrow.Array, group[0].NumCols())
			for c := range cols {
				parts := make([]arrow.Array, len(group))
				for i, r := range group {
					parts[i] = r.Column(c)
				}
				a, err := array.Concatenate(parts, memory.DefaultAllocator)
				if err != nil {
					return err
				}
				cols[c] = a
			}
			out = append(out, array.NewRecord(group[0].Schema(), cols, n))
		}
		group, n = group[:0], 0
		return nil
	}
	for _, r := range recs {
		group = append(group, r)
		if n += r.NumRows(); n >= fileBatchRows {
			if err := flush(); err != nil {
				return nil, err
			}
		}
	}
	return out, flush()
}
