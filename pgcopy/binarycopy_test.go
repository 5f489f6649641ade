package pgcopy

import (
	"bufio"
	"context"
	"encoding/binary"
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// TestCopyBinaryLikePostgres loads binary COPY data into t (a int, b text).
// Each want is what PostgreSQL 15 answers to \copy t FROM file (FORMAT
// binary) of the same bytes: rows loaded, or the error and its CONTEXT.
func TestCopyBinaryLikePostgres(t *testing.T) {
	x := copyStmtFor(t, []storage.ColumnDef{
		{Name: "a", Type: types.Int4Type},
		{Name: "b", Type: types.TextType},
	}, "COPY t FROM STDIN (FORMAT binary)")
	sig := binaryCopySignature
	hdr := sig + "\x00\x00\x00\x00\x00\x00\x00\x00"
	i32 := func(v int32) string { return string(binary.BigEndian.AppendUint32(nil, uint32(v))) }
	i16 := func(v int16) string { return string(binary.BigEndian.AppendUint16(nil, uint16(v))) }
	row := func(fields ...string) string {
		out := i16(int16(len(fields)))
		for _, f := range fields {
			out += i32(int32(len(f))) + f
		}
		return out
	}
	for _, c := range []struct{ name, data, want string }{
		{"empty", "", "22P04: COPY file signature not recognized []"},
		{"bad signature", "PGCOPX\n\xff\r\n\x00" + i32(0) + i32(0), "22P04: COPY file signature not recognized []"},
		{"signature only", sig, "22P04: invalid COPY file header (missing flags) []"},
		{"no length", sig + i32(0), "22P04: invalid COPY file header (missing length) []"},
		{"WITH OIDS", sig + i32(1<<16) + i32(0), "22P04: invalid COPY file header (WITH OIDS) []"},
		{"critical flag", sig + i32(1<<17) + i32(0), "22P04: unrecognized critical flags in COPY file header []"},
		{"negative extension", sig + i32(0) + i32(-1), "22P04: invalid COPY file header (missing length) []"},
		{"short extension", sig + i32(0) + i32(100) + "abc", "22P04: invalid COPY file header (wrong length) []"},
		{"one stray byte", hdr + "\x00", "0 rows"},
		{"no trailer", hdr + row(i32(1), "x"), "1 rows"},
		{"trailer", hdr + row(i32(1), "x") + "\xff\xff", "1 rows"},
		{"data after trailer", hdr + row(i32(1), "x") + "\xff\xff" + "z", "22P04: received copy data after EOF marker [COPY t, line 2]"},
		{"field count", hdr + row(i32(1)), "22P04: row field count is 1, expected 2 [COPY t, line 1]"},
		{"field size", hdr + i16(2) + i32(-2), "22P04: invalid field size [COPY t, line 1, column a]"},
		{"huge field size", hdr + i16(2) + i32(0x7fffffff) + "abc", "22P04: unexpected EOF in COPY data [COPY t, line 1, column a]"},
		{"short int4", hdr + row("\x00\x00\x01", "x"), "08P01: insufficient data left in message [COPY t, line 1, column a]"},
		{"long int4", hdr + row("\x00\x00\x00\x01\x02", "x"), "22P03: incorrect binary data format [COPY t, line 1, column a]"},
		{"mid field", hdr + i16(2) + i32(4) + "\x00", "22P04: unexpected EOF in COPY data [COPY t, line 1, column a]"},
		{"bad UTF-8", hdr + row(i32(1), "a\xff"), `22021: invalid byte sequence for encoding "UTF8": 0xff [COPY t, line 1, column b]`},
	} {
		builders := []array.Builder{
			array.NewBuilder(memory.DefaultAllocator, types.Int4Type.ArrowType()),
			array.NewBuilder(memory.DefaultAllocator, types.TextType.ArrowType()),
		}
		rows, err := readBinary(context.Background(), x, bufio.NewReader(strings.NewReader(c.data)), noDefaults(x), &types.Format{DateStyle: "ISO, MDY"}, builders)
		got := fmt.Sprintf("%d rows", rows)
		if err != nil {
			e := pgerr.As(err)
			got = fmt.Sprintf("%s: %s [%s]", e.Code, e.Message, e.Where)
		}
		if got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}

// TestCopyTextInvalidUTF8: as PostgreSQL 15, the rows before a record with
// bad UTF-8 are checked first, and that record fails with 22021 and a
// CONTEXT line without its text (\copy of the same bytes on the oracle).
func TestCopyTextInvalidUTF8(t *testing.T) {
	cols := []storage.ColumnDef{{Name: "a", Type: types.Int4Type}, {Name: "b", Type: types.TextType}}
	for _, c := range []struct{ query, data, want string }{
		{"COPY t FROM STDIN", "1\tok\n2\tb\xffad\n3\tx\n", `error 22021: invalid byte sequence for encoding "UTF8": 0xff () [COPY t, line 2]`},
		{"COPY t FROM STDIN (FORMAT csv)", "1,ok\n2,\"b\xff\nad\"\n", `error 22021: invalid byte sequence for encoding "UTF8": 0xff () [COPY t, line 2]`},
		{"COPY t FROM STDIN", "x\tok\n2\tb\xffad\n", `error 22P02: invalid input syntax for type integer: "x" () [COPY t, line 1, column a: "x"]`},
		{"COPY t FROM STDIN", "1\tok\n\\.\n2\tb\xffad\n", "1 rows"},
	} {
		x := copyStmtFor(t, cols, c.query)
		for _, fast := range []bool{true, false} {
			if got := loadForTest(t, x, c.data, fast); !strings.HasPrefix(got, c.want) {
				t.Errorf("%s %q (fast %v): got %q, want %q", c.query, c.data, fast, got, c.want)
			}
		}
	}
}
