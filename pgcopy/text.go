package pgcopy

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
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
	return pgerr.As(err).WithWhere(where)
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
	defs := x.Table.Columns()
	for c, d := range defs {
		if d.NotNull && row[c].Null {
			vals := make([]string, len(defs))
			for k, dk := range defs {
				if row[k].Null {
					vals[k] = "null"
				} else {
					vals[k] = string(types.FormatText(nil, row[k], dk.Type, f))
				}
			}
			return pgerr.New(pgerr.NotNullViolation, "null value in column \"%s\" of relation \"%s\" violates not-null constraint",
				d.Name, x.Table.Name()).WithDetail("Failing row contains (%s).", strings.Join(vals, ", "))
		}
	}
	return nil
}

// readCopyRow reads one row: its raw line (for error context), its fields
// de-escaped, and which fields are NULL. It returns io.EOF at the end of data.
func readCopyRow(br *bufio.Reader, x *sql.Copy, csv bool) (raw string, fields []string, nulls []bool, err error) {
	line, err := readLine(br)
	if err != nil {
		return "", nil, nil, err
	}
	if !csv {
		fields, nulls, err = splitTextRow(line, x.Delimiter[0], x.Null)
		return line, fields, nulls, err
	}
	return readCSVRow(br, line, x)
}

// readLine reads a line without its terminator (\n or \r\n); io.EOF only
// when nothing is left.
func readLine(br *bufio.Reader) (string, error) {
	line, err := br.ReadString('\n')
	if err != nil {
		if err == io.EOF && line != "" {
			err = nil
		} else {
			return "", err
		}
	}
	line = strings.TrimSuffix(line, "\n")
	line = strings.TrimSuffix(line, "\r")
	return line, nil
}

// splitTextRow splits a text-format line and resolves its backslash escapes.
// A field equal to the NULL string (before de-escaping) is NULL.
func splitTextRow(line string, delim byte, null string) ([]string, []bool, error) {
	var fields []string
	var nulls []bool
	var cur strings.Builder
	start := 0
	flush := func(end int) {
		rawField := line[start:end]
		fields = append(fields, cur.String())
		nulls = append(nulls, rawField == null)
		cur.Reset()
	}
	for i := 0; i < len(line); i++ {
		ch := line[i]
		switch {
		case ch == delim:
			flush(i)
			start = i + 1
		case ch == '\\' && i+1 < len(line):
			i++
			e := line[i]
			switch e {
			case 'b':
				cur.WriteByte('\b')
			case 'f':
				cur.WriteByte('\f')
			case 'n':
				cur.WriteByte('\n')
			case 'r':
				cur.WriteByte('\r')
			case 't':
				cur.WriteByte('\t')
			case 'v':
				cur.WriteByte('\v')
			case 'x':
				j := i + 1
				for j < len(line) && j < i+3 && isHex(line[j]) {
					j++
				}
				if j == i+1 {
					cur.WriteByte('x')
					continue
				}
				v, _ := strconv.ParseUint(line[i+1:j], 16, 8)
				cur.WriteByte(byte(v))
				i = j - 1
			case '0', '1', '2', '3', '4', '5', '6', '7':
				j := i
				for j < len(line) && j < i+3 && line[j] >= '0' && line[j] <= '7' {
					j++
				}
				v, _ := strconv.ParseUint(line[i:j], 8, 16)
				cur.WriteByte(byte(v))
				i = j - 1
			default:
				cur.WriteByte(e)
			}
		default:
			cur.WriteByte(ch)
		}
	}
	flush(len(line))
	return fields, nulls, nil
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// readCSVRow parses a CSV row starting with line; a quoted field may span
// further lines. An unquoted field equal to the NULL string is NULL (unless
// FORCE_NOT_NULL); a quoted one is NULL only under FORCE_NULL.
func readCSVRow(br *bufio.Reader, line string, x *sql.Copy) (string, []string, []bool, error) {
	delim, quote, esc := x.Delimiter[0], x.Quote[0], x.Escape[0]
	raw := line
	var fields []string
	var nulls []bool
	var cur strings.Builder
	quotedField := false
	col := 0
	i := 0
	end := func() {
		v := cur.String()
		isNull := !quotedField && v == x.Null
		if col < len(x.ForceNotNull) && x.ForceNotNull[col] {
			isNull = false
		}
		if quotedField && col < len(x.ForceNull) && x.ForceNull[col] && v == x.Null {
			isNull = true
		}
		fields = append(fields, v)
		nulls = append(nulls, isNull)
		cur.Reset()
		quotedField = false
		col++
	}
	for {
		if i >= len(line) {
			end()
			return raw, fields, nulls, nil
		}
		ch := line[i]
		switch {
		case ch == delim:
			end()
			i++
		case ch == quote:
			quotedField = true
			i++
			for {
				if i >= len(line) {
					// The quoted field continues on the next line.
					next, err := readLine(br)
					if err != nil {
						if err == io.EOF {
							return raw, nil, nil, pgerr.New(CodeBadCopyFormat, "unterminated CSV quoted field")
						}
						return raw, nil, nil, err
					}
					cur.WriteByte('\n')
					raw += "\n" + next
					line, i = next, 0
					continue
				}
				c := line[i]
				if c == esc && i+1 < len(line) && (line[i+1] == quote || line[i+1] == esc) && !(esc == quote && line[i+1] != quote) {
					cur.WriteByte(line[i+1])
					i += 2
					continue
				}
				if c == quote {
					i++
					break
				}
				cur.WriteByte(c)
				i++
			}
		default:
			cur.WriteByte(ch)
			i++
		}
	}
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
