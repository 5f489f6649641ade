package pgcopy

// Native fuzz targets for the input joind takes in bytes from clients: the
// text/CSV and binary COPY FROM parsers and the binary parameter decoder.
// `go test ./pgcopy` runs their seeds and testdata/fuzz/<Name>/ (the
// regression corpus: every input that once crashed or misbehaved); to
// search for new inputs run one at a time, e.g.
//
//	go test ./pgcopy -run '^$' -fuzz '^FuzzCopyText$' -fuzztime 5m
//
// (.ci/run runs each for a few seconds.) A failing input is written to
// testdata/fuzz/<Name>/; fix the code and commit it there.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// fuzzCopyColumns is the table COPY fuzzing loads: every kind of column the
// loader treats differently (fast integers and text, the generic path of
// each other type, typmods, NOT NULL).
var fuzzCopyColumns = []storage.ColumnDef{
	{Name: "a", Type: types.Type{ID: types.Int8, Typmod: -1}},
	{Name: "b", Type: types.Type{ID: types.Int4, Typmod: -1}},
	{Name: "c", Type: types.Type{ID: types.Text, Typmod: -1}},
	{Name: "d", Type: types.Type{ID: types.Int2, Typmod: -1}, NotNull: true},
	{Name: "e", Type: types.Type{ID: types.Varchar, Typmod: 3 + 4}},
	{Name: "f", Type: types.Type{ID: types.Numeric, Typmod: (6<<16 | 2) + 4}},
	{Name: "g", Type: types.DateType},
	{Name: "h", Type: types.TimestampType},
	{Name: "i", Type: types.BoolType},
	{Name: "j", Type: types.Float8Type},
	{Name: "k", Type: types.IntervalType},
	{Name: "l", Type: types.Type{ID: types.Char, Typmod: 2 + 4}},
	{Name: "m", Type: types.TimestampTZType},
	{Name: "n", Type: types.Float4Type},
}

// fuzzCopyQueries are the COPY options the text/CSV target picks from (by
// the input's first byte).
var fuzzCopyQueries = []string{
	"COPY t FROM STDIN",
	"COPY t FROM STDIN (FORMAT csv)",
	"COPY t FROM STDIN (FORMAT csv, HEADER)",
	"COPY t FROM STDIN (FORMAT csv, NULL '0', QUOTE '''', ESCAPE '\\')",
	"COPY t FROM STDIN (FORMAT csv, FORCE_NOT_NULL (c, e), FORCE_NULL (e, f))",
	"COPY t (c, a, d) FROM STDIN (FORMAT csv, DELIMITER '|')",
	"COPY t (d, b) FROM STDIN (DELIMITER ',', NULL 'x')",
	"COPY t (a, b, d) FROM STDIN",
	"COPY t (c) FROM STDIN (FORMAT csv)",
	"COPY t (d, c, f, g, h) FROM STDIN (FORMAT text, HEADER)",
}

// copyErrorCodes are the SQLSTATEs a bad COPY input may fail with:
// PostgreSQL's for bad input of each type, bad COPY format, encoding, NOT
// NULL and length; anything else (XX000 above all) is a bug.
var copyErrorCodes = map[string]bool{
	"22P02": true, "22P04": true, "22003": true, "22007": true, "22008": true,
	"22021": true, "22001": true, "23502": true, "22P03": true, "08P01": true,
	"22015": true, // interval field value out of range
	"22009": true, // invalid time zone displacement value
	"22023": true, // time zone "x" not recognized: PostgreSQL's code for an unknown zone in datetime input
	"22025": true, // invalid escape sequence
	"0A000": true, // an interval beyond joind's range is refused (never answered differently)
}

// FuzzCopyText loads arbitrary bytes with the text/CSV loader twice, with
// and without its fast scan of plain records: both must give the same rows or the
// same error (code, message, detail, CONTEXT), and an error must be one of
// copyErrorCodes with a CONTEXT line.
func FuzzCopyText(f *testing.F) {
	stmts := make([]*sql.Copy, len(fuzzCopyQueries))
	for i, q := range fuzzCopyQueries {
		stmts[i] = copyStmtFor(f, fuzzCopyColumns, q)
	}
	row := "1\t2\tthree\t4\tabc\t1234.56\t2024-02-29\t2024-01-02 03:04:05.123456\tt\t1.5e300\t1 day 02:00\tab\t2024-01-02 03:04:05+02\t-0.5"
	seeds := []string{
		row + "\n" + row + "\n",
		"9223372036854775807\t-2147483648\t\\N\t-32768\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N\n\\.\n",
		"1,2,\"a,b\",3,xy,-0.01,1999-01-08,epoch,false,NaN,-1 mon,\"\",infinity,Infinity\n",
		"id,n,s\n1,2,\"multi\nline\",4,,,,,,,,,,\r\n",
		"x|1|7\n\"q\"\"q\"|2|8\n",
		"32768,1\n1,x\n",
		"1\t2\n",
		"1\t2\t3\t4\t5\t6\t7\t8\t9\t10\t11\t12\t13\t14\t15\n",
		"\\x41\\101\\n\\\\\t\\N\n",
		"1\t2\tb\xffad\t3\n",
		"1,2,3,,,,,,,,,,,\n",
		"0,1,,0\n",
		"\"open\n",
	}
	for i, s := range seeds {
		f.Add(byte(i), []byte(s))
	}
	f.Fuzz(func(t *testing.T, sel byte, data []byte) {
		x := stmts[int(sel)%len(stmts)]
		fast, fastErr := fuzzLoad(x, data, true)
		slow, slowErr := fuzzLoad(x, data, false)
		if fast != slow {
			t.Fatalf("%s\ninput %q\nfast scan: %s\nwithout: %s", x.Table.Name(), data, fast, slow)
		}
		for _, err := range []error{fastErr, slowErr} {
			if err != nil {
				checkCopyError(t, err, data)
			}
		}
	})
}

// fuzzLoad loads data and describes the outcome: each row's values, or the
// error with its code, detail and CONTEXT.
func fuzzLoad(x *sql.Copy, data []byte, fast bool) (string, error) {
	l := NewLoader(x, noDefaults(x), &types.Format{DateStyle: "ISO, MDY"}, time.Time{}, 3, 2)
	l.noFast = !fast
	recs, rows, err := l.Load(context.Background(), bytes.NewReader(data))
	if err != nil {
		e := pgerr.As(err)
		return fmt.Sprintf("error %s: %s (%s) [%s]", e.Code, e.Message, e.Detail, e.Where), err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d rows:", rows)
	defs := x.Table.Columns()
	f := &types.Format{DateStyle: "ISO, MDY"}
	for _, rec := range recs {
		for r := 0; r < int(rec.NumRows()); r++ {
			b.WriteString(" (")
			for c, d := range defs {
				v := types.GetValue(rec.Column(c), d.Type, r)
				if c > 0 {
					b.WriteByte(',')
				}
				if v.Null {
					b.WriteString("NULL")
					continue
				}
				txt := types.FormatText(nil, v, d.Type, f)
				if pgerr.CheckUTF8(txt) != nil {
					// PostgreSQL checks the input's encoding.
					return "", fmt.Errorf("loaded text that is not UTF-8: %q", txt)
				}
				fmt.Fprintf(&b, "%q", txt)
			}
			b.WriteString(")")
		}
	}
	return b.String(), nil
}

// checkCopyError requires err to be a pgerr with an expected SQLSTATE and,
// except for header errors, PostgreSQL's CONTEXT line.
func checkCopyError(t *testing.T, err error, data []byte) {
	t.Helper()
	var pe *pgerr.Error
	if !errors.As(err, &pe) {
		t.Fatalf("input %q: error %T %v is not a pgerr.Error", data, err, err)
	}
	if !copyErrorCodes[pe.Code] {
		t.Fatalf("input %q: unexpected SQLSTATE %s: %s", data, pe.Code, pe.Message)
	}
	if pe.Where != "" && !strings.HasPrefix(pe.Where, "COPY t, line ") {
		t.Fatalf("input %q: CONTEXT %q", data, pe.Where)
	}
}

// FuzzCopyBinary loads arbitrary bytes as binary COPY data into the
// fuzzCopyColumns table: the outcome is rows or one of copyErrorCodes, and
// the memory allocated is bounded by the input's size, whatever its length
// words claim.
func FuzzCopyBinary(f *testing.F) {
	x := copyStmtFor(f, fuzzCopyColumns, "COPY t FROM STDIN (FORMAT binary)")
	sub := copyStmtFor(f, fuzzCopyColumns, "COPY t (d, c, f) FROM STDIN (FORMAT binary)")
	hdr := []byte(binaryCopySignature + "\x00\x00\x00\x00\x00\x00\x00\x00")
	field := func(b []byte, v []byte) []byte {
		if v == nil {
			return binary.BigEndian.AppendUint32(b, math.MaxUint32)
		}
		return append(binary.BigEndian.AppendUint32(b, uint32(len(v))), v...)
	}
	// A full row, as AppendBinary (COPY TO's encoder) writes each type.
	fmtv := &types.Format{DateStyle: "ISO, MDY"}
	full := binary.BigEndian.AppendUint16(append([]byte(nil), hdr...), uint16(len(fuzzCopyColumns)))
	for _, d := range fuzzCopyColumns {
		v, err := types.ParseTextFormat(map[types.ID]string{
			types.Int8: "-9000000000", types.Int4: "7", types.Text: "héllo", types.Int2: "-2",
			types.Varchar: "abc", types.Numeric: "-1234.5", types.Date: "1999-12-31",
			types.Timestamp: "2000-01-01 00:00:00.000001", types.Bool: "true", types.Float8: "-0.25",
			types.Interval: "-1 year 2 days 00:00:03", types.Char: "x", types.TimestampTZ: "infinity",
			types.Float4: "3.5",
		}[d.Type.ID], d.Type, fmtv, time.Now())
		if err != nil {
			f.Fatalf("%s: %v", d.Name, err)
		}
		full = field(full, AppendBinary(nil, v, d.Type))
	}
	trailer := []byte{0xff, 0xff}
	nulls := binary.BigEndian.AppendUint16(append([]byte(nil), hdr...), 3)
	nulls = field(field(field(nulls, []byte{0, 1}), nil), nil)
	for _, seed := range [][]byte{
		append(append([]byte(nil), full...), trailer...),
		append(append(append([]byte(nil), full...), full[len(hdr):]...), trailer...),
		nulls,
		append(append([]byte(nil), hdr...), 0, 14, 0x7f, 0xff, 0xff, 0xff, 'a'),
		append(append([]byte(nil), hdr...), 0xff, 0xff, 'z'),
		[]byte(binaryCopySignature + "\x00\x01\x00\x00\x00\x00\x00\x00"),
		[]byte(binaryCopySignature + "\x00\x00\x00\x00\x00\x00\x00\x10abc"),
		hdr[:11],
		{},
	} {
		f.Add(false, seed)
		f.Add(true, seed)
	}
	// The encoder's own rows must load (COPY TO's output is COPY FROM's input).
	load := func(cx *sql.Copy, data []byte) (int64, []array.Builder, error) {
		defs := cx.Table.Columns()
		builders := make([]array.Builder, len(defs))
		for i, d := range defs {
			builders[i] = array.NewBuilder(memory.DefaultAllocator, d.Type.ArrowType())
		}
		rows, err := readBinary(context.Background(), cx, bufio.NewReaderSize(bytes.NewReader(data), 64<<10), noDefaults(cx), fmtv, builders)
		return rows, builders, err
	}
	if rows, _, err := load(x, append(append(append([]byte(nil), full...), full[len(hdr):]...), trailer...)); rows != 2 || err != nil {
		f.Fatalf("two encoded rows loaded as %d rows, %v", rows, err)
	}
	f.Fuzz(func(t *testing.T, subset bool, data []byte) {
		cx := x
		if subset {
			cx = sub
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		rows, builders, err := load(cx, data)
		runtime.ReadMemStats(&after)
		// 64 KiB read buffer, builders, and per field a decoded value: a
		// numeric's weight may claim 32767 base-10000 words from 8 bytes,
		// whose scaling to a decimal coefficient allocates up to ~26 MiB of
		// transient garbage (bounded per field, not held).
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 48<<20+uint64(len(data))*4096 {
			t.Fatalf("input of %d bytes allocated %d bytes", len(data), alloc)
		}
		if err != nil {
			checkCopyError(t, err, data)
			return
		}
		if rows < 0 || int(rows) > len(data)/2 {
			t.Fatalf("input of %d bytes loaded %d rows", len(data), rows)
		}
		for i, b := range builders {
			if b.Len() != int(rows) {
				t.Fatalf("column %d has %d values for %d rows", i, b.Len(), rows)
			}
		}
	})
}

// binaryFuzzTypes are the types a binary value is decoded as: every type
// typeForOID maps a parameter OID to, and typmods COPY columns carry.
var binaryFuzzTypes = []types.Type{
	types.BoolType, types.Int2Type, types.Int4Type, types.Int8Type, types.Float4Type,
	types.Float8Type, types.NumericType, types.TextType, types.VarcharType, types.CharType,
	types.DateType, types.TimestampType, types.TimestampTZType, types.IntervalType,
	types.UnknownType,
	{ID: types.Numeric, Typmod: (5<<16 | 2) + 4}, {ID: types.Varchar, Typmod: 3 + 4},
}

// FuzzBinaryParam decodes arbitrary bytes as each type's binary format (a
// Bind parameter with format 1): the result is a value or one of the errors
// PostgreSQL's receive functions raise, never a panic; re-encoding a value
// with AppendBinary and decoding it again is stable, and gives back the
// input itself where PostgreSQL's format has one spelling per value.
func FuzzBinaryParam(f *testing.F) {
	for i, t := range binaryFuzzTypes {
		var seeds [][]byte
		switch t.ID {
		case types.Bool:
			seeds = [][]byte{{1}, {0}, {2}, {}}
		case types.Int2:
			seeds = [][]byte{{0x80, 0}, {0, 1, 2}}
		case types.Int4, types.Float4:
			seeds = [][]byte{{0, 0, 0, 42}, {0x7f, 0xc0, 0, 0}, {0, 0, 1}}
		case types.Int8, types.Float8:
			seeds = [][]byte{{0x80, 0, 0, 0, 0, 0, 0, 0}, {0x3f, 0xf0, 0, 0, 0, 0, 0, 0}}
		case types.Numeric:
			seeds = [][]byte{appendNumericBinary(nil, "-1234.5678"), appendNumericBinary(nil, "0.0001"),
				appendNumericBinary(nil, "NaN"), {0, 1, 0x7f, 0xff, 0, 0, 0, 0, 0, 1}, {0, 2, 0, 0, 0, 0, 0, 0, 0, 1}}
		case types.Date:
			seeds = [][]byte{{0, 0, 0, 0}, {0x7f, 0xff, 0xff, 0xff}, {0x80, 0, 0, 1}}
		case types.Timestamp, types.TimestampTZ:
			seeds = [][]byte{{0, 0, 0, 0, 0, 0, 0, 1}, {0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, {0xfd, 0, 0, 0, 0, 0, 0, 0}}
		case types.Interval:
			seeds = [][]byte{make([]byte, 16), make([]byte, 15)}
		default:
			seeds = [][]byte{[]byte("héllo"), []byte("a\xff"), []byte("a\x00b"), []byte("abcd "), {}}
		}
		for _, s := range seeds {
			f.Add(byte(i), s)
		}
	}
	f.Fuzz(func(t *testing.T, sel byte, data []byte) {
		typ := binaryFuzzTypes[int(sel)%len(binaryFuzzTypes)]
		v, err := DecodeBinary(data, typ)
		if err != nil {
			if err == ErrBinaryTrailing {
				return
			}
			var pe *pgerr.Error
			if !errors.As(err, &pe) {
				t.Fatalf("%v %x: error %T %v is not a pgerr.Error", typ, data, err, err)
			}
			switch pe.Code {
			// 0A000: an interval beyond joind's range (a time part over
			// 2562047 hours) is refused, never answered differently.
			case "08P01", "22P03", "22008", "22003", "22021", "22001", "0A000":
			default:
				t.Fatalf("%v %x: unexpected SQLSTATE %s: %s", typ, data, pe.Code, pe.Message)
			}
			return
		}
		// The value is one of the type's: its text output reads back as
		// itself, and text is valid UTF-8 (textrecv checks it).
		txt := types.FormatText(nil, v, typ, &types.Format{DateStyle: "ISO, MDY"})
		if typ.ID == types.Text || typ.ID == types.Varchar || typ.ID == types.Char || typ.ID == types.Unknown {
			if err := pgerr.CheckUTF8(txt); err != nil {
				t.Fatalf("%v %x decoded to text that is not UTF-8: %q", typ, data, txt)
			}
		}
		back, err := types.ParseTextFormat(string(txt), typ, &types.Format{DateStyle: "ISO, MDY"}, time.Now())
		if err != nil {
			t.Fatalf("%v %x decoded to %+v, whose text %q does not read back: %v", typ, data, v, txt, err)
		}
		if again := types.FormatText(nil, back, typ, &types.Format{DateStyle: "ISO, MDY"}); !bytes.Equal(again, txt) {
			t.Fatalf("%v %x: text %q reads back as %q", typ, data, txt, again)
		}
		enc := AppendBinary(nil, v, typ)
		v2, err := DecodeBinary(enc, typ)
		if err != nil {
			t.Fatalf("%v %x decoded to %+v, whose encoding %x does not decode: %v", typ, data, v, enc, err)
		}
		if enc2 := AppendBinary(nil, v2, typ); !bytes.Equal(enc, enc2) {
			t.Fatalf("%v %x: encoding is not stable: %x then %x", typ, data, enc, enc2)
		}
		if canonicalBinary(typ, data) && !bytes.Equal(enc, data) {
			t.Fatalf("%v: %x decoded to %+v and encoded back as %x", typ, data, v, enc)
		}
	})
}

// canonicalBinary reports whether PostgreSQL's binary format of t has
// exactly one spelling for the value in b, so that decoding and encoding
// must give b back. Not canonical: bool bytes other than 0 and 1 (any
// non-zero is true), NaN payloads (joind keeps float4 as float64, which may
// quiet a signalling NaN), numerics (leading/trailing zero digits, digits
// beyond dscale) and typmod-constrained types.
func canonicalBinary(t types.Type, b []byte) bool {
	if t.Typmod >= 0 {
		return false
	}
	switch t.ID {
	case types.Bool:
		return len(b) == 1 && b[0] <= 1
	case types.Float4:
		return !math.IsNaN(float64(math.Float32frombits(binary.BigEndian.Uint32(b))))
	case types.Float8:
		return !math.IsNaN(math.Float64frombits(binary.BigEndian.Uint64(b)))
	case types.Numeric:
		return false
	}
	return true
}
