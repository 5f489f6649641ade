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
