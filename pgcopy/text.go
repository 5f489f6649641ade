package pgcopy

import (
	"bytes"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/joind/joind/commands"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// Batches calls f on each batch of the rows COPY TO writes, in order
// (the engine runs the query's operators behind it).
type Batches func(f func(arrow.Record) error) error

// copyLoadError is a COPY FROM error with PostgreSQL's CONTEXT line.
func copyLoadError(err error, table string, line int, col string, raw string) error {
	where := fmt.Sprintf("COPY %s, line %d", table, line)
	if col != "" {
		where += fmt.Sprintf(", column %s: \"%s\"", col, clipContext(raw))
	} else if raw != "" {
		where += fmt.Sprintf(": \"%s\"", clipContext(raw))
	}
	e := pgerr.As(err)
	if e.Where != "" {
		where = e.Where + "\n" + where // the input function's own context comes first (json's)
	}
	return e.WithWhere(where)
}

// clipContext shortens a quoted value as PostgreSQL's CONTEXT does.
func clipContext(s string) string {
	if len(s) > 100 {
		return s[:100] + "..."
	}
	return s
}

// checkNotNull returns PostgreSQL's 23502 error for a row with a NULL in a
// NOT NULL column.
func checkNotNull(x *sql.Copy, row []types.Value, f *types.Format) error {
	for c, d := range x.Table.Columns() {
		if d.NotNull && row[c].Null {
			return commands.NotNullRowError(x.Table, c, row, f)
		}
	}
	return nil
}

// WriteText writes the rows of rows in x's text or CSV format, one Write
// per row (one CopyData message each, as PostgreSQL sends them); f is the
// session's output format.
func WriteText(x *sql.Copy, rows Batches, cols []plan.Column, f *types.Format, out io.Writer) (int64, error) {
	csv := x.Format == "csv"
	var buf, val []byte
	if x.Header {
		buf = buf[:0]
		for i, name := range x.Query.Names {
			if i > 0 {
				buf = append(buf, x.Delimiter...)
			}
			if csv {
				buf = appendCSVField(buf, []byte(name), x, i, false)
			} else {
				buf = appendTextField(buf, []byte(name), x.Delimiter[0])
			}
		}
		buf = append(buf, '\n')
		if _, err := out.Write(buf); err != nil {
			return 0, err
		}
	}
	var n int64
	err := rows(func(rec arrow.Record) error {
		for r := 0; r < int(rec.NumRows()); r++ {
			buf = buf[:0]
			for c, col := range cols {
				if c > 0 {
					buf = append(buf, x.Delimiter...)
				}
				v := types.GetValue(rec.Column(c), col.Type, r)
				if v.Null {
					buf = append(buf, x.Null...)
					continue
				}
				val = types.FormatText(val[:0], v, col.Type, f)
				if csv {
					buf = appendCSVField(buf, val, x, c, true)
				} else {
					buf = appendTextField(buf, val, x.Delimiter[0])
				}
			}
			buf = append(buf, '\n')
			if _, err := out.Write(buf); err != nil {
				return err
			}
			n++
		}
		return nil
	})
	return n, err
}

// appendTextField escapes a value for the text format.
func appendTextField(dst, v []byte, delim byte) []byte {
	for _, ch := range v {
		switch ch {
		case '\\':
			dst = append(dst, '\\', '\\')
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
		case '\t':
			dst = append(dst, '\\', 't')
		case '\b':
			dst = append(dst, '\\', 'b')
		case '\f':
			dst = append(dst, '\\', 'f')
		case '\v':
			dst = append(dst, '\\', 'v')
		default:
			if ch == delim {
				dst = append(dst, '\\')
			}
			dst = append(dst, ch)
		}
	}
	return dst
}

// appendCSVField quotes a value for CSV when it must be (it holds the
// delimiter, quote, a line break, equals the NULL string, or is forced).
func appendCSVField(dst, v []byte, x *sql.Copy, col int, isValue bool) []byte {
	q, e := x.Quote[0], x.Escape[0]
	need := (col < len(x.ForceQuote) && x.ForceQuote[col] && isValue) ||
		bytes.IndexByte(v, x.Delimiter[0]) >= 0 || bytes.IndexByte(v, q) >= 0 ||
		bytes.IndexByte(v, '\n') >= 0 || bytes.IndexByte(v, '\r') >= 0 ||
		string(v) == x.Null || (len(v) == 2 && v[0] == '\\' && v[1] == '.')
	if !need {
		return append(dst, v...)
	}
	dst = append(dst, q)
	for _, ch := range v {
		if ch == q || ch == e {
			dst = append(dst, e)
		}
		dst = append(dst, ch)
	}
	return append(dst, q)
}

// CodeBadCopyFormat is SQLSTATE bad_copy_file_format.
const CodeBadCopyFormat = "22P04"
