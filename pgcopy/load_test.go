package pgcopy

import (
	"bytes"
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"
	"time"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// TestCopyFastPathMatches loads random text and CSV input twice, with and
// without the fast record path, and requires the same batches or the same
// error (message, detail, CONTEXT line): the fast path may only decline.
func TestCopyFastPathMatches(t *testing.T) {
	cols := []storage.ColumnDef{
		{Name: "a", Type: types.Type{ID: types.Int8, Typmod: -1}},
		{Name: "b", Type: types.Type{ID: types.Int4, Typmod: -1}},
		{Name: "c", Type: types.Type{ID: types.Text, Typmod: -1}},
		{Name: "d", Type: types.Type{ID: types.Int2, Typmod: -1}, NotNull: true},
		{Name: "e", Type: types.Type{ID: types.Varchar, Typmod: 3 + 4}},
	}
	queries := []string{
		"COPY t FROM STDIN (FORMAT csv)",
		"COPY t FROM STDIN (FORMAT csv, HEADER)",
		"COPY t FROM STDIN (FORMAT csv, NULL '0')",
		"COPY t FROM STDIN (FORMAT csv, FORCE_NOT_NULL (c, e), FORCE_NULL (e))",
		"COPY t FROM STDIN",
		"COPY t (c, a, d) FROM STDIN (FORMAT csv, DELIMITER '|')",
		"COPY t (d, b) FROM STDIN (DELIMITER ',')",
	}
	// Field pieces that stress every rule the fast path must leave alone.
	pieces := []string{"0", "7", "-3", "+4", "99999999999", "2147483648", "-32769", "32767",
		"123456789012345678", "1234567890123456789", "", " 5", "5 ", "ab", "x", "\"", "\"q,\"",
		"\\N", "\\t", "a\\", "\r", "N", "-", "abcd", "é", "1e3"}
	type copyCase struct {
		cols []storage.ColumnDef
		q    string
	}
	var cases []copyCase
	for _, q := range queries {
		cases = append(cases, copyCase{cols, q})
	}
	// One text column: a line "\." would be a plain record but for the
	// end marker rule.
	cases = append(cases, copyCase{cols[2:3], "COPY t FROM STDIN (FORMAT csv)"})
	r := rand.New(rand.NewSource(7))
	for _, cc := range cases {
		q := cc.q
		x := copyStmtFor(t, cc.cols, q)
		delim := x.Delimiter
		for trial := 0; trial < 300; trial++ {
			var in strings.Builder
			rows := 1 + r.Intn(12)
			for i := 0; i < rows; i++ {
				if r.Intn(25) == 0 {
					in.WriteString("\\.\n") // the end marker: the rest is ignored
					continue
				}
				nf := len(x.Columns)
				if r.Intn(10) == 0 {
					nf += r.Intn(3) - 1
				}
				for f := 0; f < nf; f++ {
					if f > 0 {
						in.WriteString(delim)
					}
					in.WriteString(pieces[r.Intn(len(pieces))])
					if r.Intn(4) == 0 {
						in.WriteString(pieces[r.Intn(len(pieces))])
					}
				}
				if r.Intn(15) == 0 {
					in.WriteString("\r")
				}
				if i < rows-1 || r.Intn(2) == 0 {
					in.WriteString("\n")
				}
			}
			data := in.String()
			fast := loadForTest(t, x, data, true)
			slow := loadForTest(t, x, data, false)
			if fast != slow {
				t.Fatalf("%s\ninput %q\nfast: %s\nslow: %s", q, data, fast, slow)
			}
		}
	}
}

// loadForTest loads data and describes the result: the batches' values or
// the error with its code, detail and CONTEXT.
func loadForTest(t *testing.T, x *sql.Copy, data string, fast bool) string {
	t.Helper()
	l := NewLoader(x, noDefaults(x), &types.Format{DateStyle: "ISO, MDY"}, time.Time{}, 3, 2)
	l.noFast = !fast
	recs, rows, err := l.Load(context.Background(), bytes.NewReader([]byte(data)))
	if err != nil {
		e := pgerr.As(err)
		return fmt.Sprintf("error %s: %s (%s) [%s]", e.Code, e.Message, e.Detail, e.Where)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d rows", rows)
	for _, rec := range recs {
		for c := 0; c < int(rec.NumCols()); c++ {
			fmt.Fprintf(&b, " %v", rec.Column(c))
		}
		b.WriteString(";")
	}
	return b.String()
}

// TestSplitRecord splits records as PostgreSQL's CopyReadAttributesText
// and CopyReadAttributesCSV do: escapes resolved, NULL by the raw field,
// quoted CSV fields (a line break inside one too) never NULL.
func TestSplitRecord(t *testing.T) {
	cols := []storage.ColumnDef{
		{Name: "a", Type: types.TextType}, {Name: "b", Type: types.TextType}, {Name: "c", Type: types.TextType},
	}
	for _, c := range []struct {
		query, in string
		want      []string
	}{
		{"COPY t FROM STDIN", "a\tb\tc\n", []string{`["a" "b" "c"]`}},
		{"COPY t FROM STDIN", "\\N\t\tx\r\n", []string{`[NULL "" "x"]`}},
		{"COPY t FROM STDIN", `tab\there	nl\nx`, []string{`["tab\there" "nl\nx"]`}},
		{"COPY t FROM STDIN", `\\N	\x41\101\q\x`, []string{`["\\N" "AAqx"]`}},
		{"COPY t FROM STDIN", "\n", []string{`[""]`}},
		{"COPY t FROM STDIN", "a\\\tb\n", []string{`["a\tb"]`}},
		{"COPY t FROM STDIN (FORMAT csv)", "1,\"a,b\",\n2,\"multi\nline\",\"\"\n3,\"q\"\"q\",x\r\n4,\"open\n", []string{
			`["1" "a,b" NULL]`, `["2" "multi\nline" ""]`, `["3" "q\"q" "x"]`, "error: unterminated CSV quoted field",
		}},
		{"COPY t FROM STDIN (FORMAT csv, FORCE_NOT_NULL (a), FORCE_NULL (b))", ",\"\",\n", []string{`["" NULL NULL]`}},
	} {
		x := copyStmtFor(t, cols, c.query)
		p := newChunkParser(NewLoader(x, noDefaults(x), nil, time.Time{}, 10, 1))
		buf := []byte(c.in)
		var got []string
		for pos := 0; pos < len(buf); {
			next, err := p.splitRecord(buf, pos)
			if err != nil {
				got = append(got, "error: "+err.Error())
				break
			}
			var fs []string
			for i, f := range p.fields {
				v := p.val(i)
				if f.null {
					fs = append(fs, "NULL")
				} else {
					fs = append(fs, fmt.Sprintf("%q", v))
				}
			}
			got = append(got, "["+strings.Join(fs, " ")+"]")
			pos = next
		}
		if fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("%s %q:\ngot  %q\nwant %q", c.query, c.in, got, c.want)
		}
	}
}

// TestCopyErrorsLikePostgres: inputs with several problems report the one
// PostgreSQL 15 reports, on the line it names (each want is \copy of the
// same bytes on the oracle). Line breaks inside quoted CSV fields count as
// lines, of the kind the data's line ends are, except in the first record.
func TestCopyErrorsLikePostgres(t *testing.T) {
	strict := []storage.ColumnDef{
		{Name: "a", Type: types.Int4Type},
		{Name: "b", Type: types.Int4Type, NotNull: true},
		{Name: "c", Type: types.Type{ID: types.Varchar, Typmod: 2 + 4}},
	}
	loose := []storage.ColumnDef{
		{Name: "a", Type: types.TextType}, {Name: "b", Type: types.Int4Type}, {Name: "c", Type: types.TextType},
	}
	enc := []storage.ColumnDef{
		{Name: "a", Type: types.Int4Type}, {Name: "b", Type: types.TextType}, {Name: "c", Type: types.Int4Type},
	}
	for _, c := range []struct {
		cols        []storage.ColumnDef
		query, data string
		want        string
	}{
		// Escapes that make a NUL or bad UTF-8 fail as the line is split,
		// before any other check.
		{enc, "COPY t FROM STDIN", "1\tab\\0c\t3\n", `error 22021: invalid byte sequence for encoding "UTF8": 0x00 () [COPY t, line 1: "1	ab\0c	3"]`},
		{enc, "COPY t FROM STDIN", "x\tab\\x00c\t3\n", `error 22021: invalid byte sequence for encoding "UTF8": 0x00 () [COPY t, line 1: "x	ab\x00c	3"]`},
		{enc, "COPY t FROM STDIN", "1\tab\\xffc\t3\r\n", `error 22021: invalid byte sequence for encoding "UTF8": 0xff () [COPY t, line 1: "1	ab\xffc	3"]`},
		{enc, "COPY t FROM STDIN", "1\tab\\0c\t3\t4\n", `error 22021: invalid byte sequence for encoding "UTF8": 0x00 () [COPY t, line 1: "1	ab\0c	3	4"]`},
		{enc, "COPY t FROM STDIN", "1\t\\0\n", `error 22021: invalid byte sequence for encoding "UTF8": 0x00 () [COPY t, line 1: "1	\0"]`},
		{enc, "COPY t FROM STDIN", "1\tab\\xc3\\xa9\t3\n", "1 rows"},
		{strict, "COPY t FROM STDIN", "x\t\\N\tabc\textra\n", `error 22P04: extra data after last expected column () [COPY t, line 1: "x	\N	abc	extra"]`},
		{strict, "COPY t FROM STDIN", "x\n", `error 22P02: invalid input syntax for type integer: "x" () [COPY t, line 1, column a: "x"]`},
		{strict, "COPY t FROM STDIN", "1\tx\tabc\n", `error 22P02: invalid input syntax for type integer: "x" () [COPY t, line 1, column b: "x"]`},
		{strict, "COPY t FROM STDIN", "1\t\\N\tabc\n", `error 22001: value too long for type character varying(2) () [COPY t, line 1, column c: "abc"]`},
		{strict, "COPY t FROM STDIN", "1\t\\N\n", `error 22P04: missing data for column "c" () [COPY t, line 1: "1	\N"]`},
		{strict, "COPY t FROM STDIN", "1\t2\tab\n2\n", `error 22P04: missing data for column "b" () [COPY t, line 2: "2"]`},
		{strict, "COPY t FROM STDIN (FORMAT csv)", "x,,abc,1\n", `error 22P04: extra data after last expected column () [COPY t, line 1: "x,,abc,1"]`},
		{strict, "COPY t FROM STDIN (FORMAT csv)", "1,,\n", `error 23502: null value in column "b" of relation "t" violates not-null constraint (Failing row contains (1, null, null).) [COPY t, line 1: "1,,"]`},
		{strict, "COPY t FROM STDIN (FORMAT csv)", "1,\"\",\n", `error 22P02: invalid input syntax for type integer: "" () [COPY t, line 1, column b: ""]`},
		{strict, "COPY t FROM STDIN (FORMAT csv)", "1,2,\"abc\nd\"\n", "error 22001: value too long for type character varying(2) () [COPY t, line 1, column c: \"abc\nd\"]"},
		{strict, "COPY t FROM STDIN (FORMAT csv)", "1,\"2,3\n", "error 22P04: unterminated CSV quoted field () [COPY t, line 1: \"1,\"2,3\n\"]"},
		{strict, "COPY t FROM STDIN (FORMAT csv)", "1,\"2,3\r\n", "error 22P04: unterminated CSV quoted field () [COPY t, line 2: \"1,\"2,3\r\n\"]"},
		{strict, "COPY t FROM STDIN (FORMAT csv, HEADER)", "a,b,c\n1,2,3\nq,2,3\n", `error 22P02: invalid input syntax for type integer: "q" () [COPY t, line 3, column a: "q"]`},
		{strict, "COPY t FROM STDIN (FORMAT csv, HEADER)", "a,\"b\n1,2,3\n", "0 rows"},
		{strict, "COPY t FROM STDIN (FORMAT csv, HEADER)", "a,\"b\n1,2,3\n\"\n4,5,6\n", "1 rows"},
		{loose, "COPY t FROM STDIN (FORMAT csv)", "1,2,ab\n\"3\n4\",x,ab\n", `error 22P02: invalid input syntax for type integer: "x" () [COPY t, line 3, column b: "x"]`},
		{loose, "COPY t FROM STDIN (FORMAT csv)", "1,2,ab\n\"3\n4\",5,ab\n6,y,z\n", `error 22P02: invalid input syntax for type integer: "y" () [COPY t, line 4, column b: "y"]`},
		{loose, "COPY t FROM STDIN (FORMAT csv)", "\"3\n4\",5,ab\n6,y,z\n", `error 22P02: invalid input syntax for type integer: "y" () [COPY t, line 2, column b: "y"]`},
		{loose, "COPY t FROM STDIN (FORMAT csv)", "1,2,3\r\n\"3\r\n4\",5,ab\r\n6,y,z\r\n", `error 22P02: invalid input syntax for type integer: "y" () [COPY t, line 4, column b: "y"]`},
		{loose, "COPY t FROM STDIN (FORMAT csv)", "1,2,\"a\"\r\n\"3\r\n4\",5,\"ab\"\r\n6,y,\"z\"\r\n", `error 22P02: invalid input syntax for type integer: "y" () [COPY t, line 4, column b: "y"]`},
		{loose, "COPY t FROM STDIN (FORMAT csv)", "1,2,\"a\"\n\"3\r\n4\",5,\"ab\"\n6,y,\"z\"\n", `error 22P02: invalid input syntax for type integer: "y" () [COPY t, line 4, column b: "y"]`},
		{loose, "COPY t FROM STDIN (FORMAT csv, HEADER)", "\"h\r\nx\",b,c\r\n\"3\r\n4\",5,ab\r\n6,y,z\r\n", `error 22P02: invalid input syntax for type integer: "y" () [COPY t, line 5, column b: "y"]`},
		{loose, "COPY t FROM STDIN (FORMAT csv, HEADER)", "\"h\nx\",b,c\n\"3\n4\",5,ab\n6,y,z\n", `error 22P02: invalid input syntax for type integer: "y" () [COPY t, line 4, column b: "y"]`},
		{loose, "COPY t FROM STDIN (FORMAT csv)", "\"a\rb\",1,2\n\"3\n4\",5,ab\n6,y,z\n", `error 22P02: invalid input syntax for type integer: "y" () [COPY t, line 5, column b: "y"]`},
		{loose, "COPY t FROM STDIN (FORMAT csv)", "\"a\nb\",1,2\n\"3\n4\xff\",5,ab\n6,y,z\n", `error 22021: invalid byte sequence for encoding "UTF8": 0xff () [COPY t, line 3]`},
		{loose, "COPY t FROM STDIN (FORMAT csv)", "\"a\nb\",1,2\n\"3\n4\",5,ab\n6,7,8,9\n", `error 22P04: extra data after last expected column () [COPY t, line 4: "6,7,8,9"]`},
		{loose, "COPY t FROM STDIN (FORMAT csv)", "\"a\nb\",1,2\n\"3\n4\",5,ab\n6,7,\"\n", "error 22P04: unterminated CSV quoted field () [COPY t, line 5: \"6,7,\"\n\"]"},
	} {
		x := copyStmtFor(t, c.cols, c.query)
		for _, fast := range []bool{true, false} {
			if got := loadForTest(t, x, c.data, fast); !strings.HasPrefix(got, c.want) {
				t.Errorf("%s %q (fast %v):\ngot  %q\nwant %q", c.query, c.data, fast, got, c.want)
			}
		}
	}
}
