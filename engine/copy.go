package engine

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/joind/joind/operators"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
	"github.com/joind/joind/wire"
)

// copyStmt runs COPY FROM STDIN / TO STDOUT over the client's copy channel,
// or COPY FROM/TO a server-side file (copy_file.go).
func (s *session) copyStmt(ctx context.Context, x *sql.Copy, ectx *types.EvalContext, w wire.ResultWriter) (string, error) {
	if x.Filename != "" {
		if x.From {
			return s.copyFromFile(ctx, x, ectx)
		}
		return s.copyToFile(ctx, x, ectx)
	}
	ch, ok := w.(wire.CopyChannel)
	if !ok {
		return "", pgerr.New(pgerr.FeatureNotSupported, "COPY is not supported in this context")
	}
	if x.From {
		return s.copyFrom(ctx, x, ectx, ch)
	}
	return s.copyTo(ctx, x, ectx, ch)
}

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

// copyFrom loads the client's rows: a bad row fails the statement and
// nothing is loaded. The omitted columns' defaults are prepared (and may
// fail) before the client is asked for data, as in PostgreSQL.
func (s *session) copyFrom(ctx context.Context, x *sql.Copy, ectx *types.EvalContext, ch wire.CopyChannel) (string, error) {
	dflt, err := newCopyDefaults(ctx, x, ectx)
	if err != nil {
		return "", err
	}
	var format int16
	if x.Format == "binary" || x.Format == "parquet" {
		format = 1
	}
	if _, err := s.fire(evCopyStart, nil); err != nil {
		return "", err
	}
	r, err := ch.CopyIn(format, len(x.Columns))
	if err == nil {
		var tag string
		if tag, err = s.copyFromReader(ctx, x, dflt, ectx, r, nil); err == nil {
			_, err = s.fire(evCopyDone, nil)
			return tag, err
		}
	}
	_, _ = s.fire(evCopyFail, nil)
	return "", err
}

// copyFromReader loads r in x's format. file is the open server-side file
// (Parquet reads it at random), nil for STDIN.
func (s *session) copyFromReader(ctx context.Context, x *sql.Copy, dflt *copyDefaults, ectx *types.EvalContext, r io.Reader, file *os.File) (string, error) {
	var recs []arrow.Record
	var rows int64
	var err error
	switch x.Format {
	case "binary":
		defs := x.Table.Columns()
		builders := make([]array.Builder, len(defs))
		for i, d := range defs {
			builders[i] = array.NewBuilder(memory.DefaultAllocator, d.Type.ArrowType())
		}
		if rows, err = s.copyFromBinary(ctx, x, bufio.NewReaderSize(r, 64<<10), dflt, builders); err != nil {
			return "", err
		}
		return s.finishCopyFrom(ctx, x, builders, rows)
	case "parquet":
		recs, rows, err = s.copyFromParquet(ctx, x, dflt, ectx, r, file)
	default:
		l := newCopyLoader(x, dflt, s.format(), ectx.Now, s.eng.opts.BatchSize, s.copyWorkers())
		recs, rows, err = l.load(ctx, r)
	}
	if err != nil {
		return "", err
	}
	for _, rec := range recs {
		if err := s.cur.Append(ctx, x.Table, rec); err != nil {
			return "", err
		}
	}
	return fmt.Sprintf("COPY %d", rows), nil
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

// finishCopyFrom appends the loaded rows as one batch.
func (s *session) finishCopyFrom(ctx context.Context, x *sql.Copy, builders []array.Builder, rows int64) (string, error) {
	defs := x.Table.Columns()
	if rows == 0 {
		return "COPY 0", nil
	}
	cols := make([]arrow.Array, len(defs))
	fields := make([]arrow.Field, len(defs))
	for c, d := range defs {
		cols[c] = builders[c].NewArray()
		fields[c] = arrow.Field{Name: d.Name, Type: d.Type.ArrowType(), Nullable: !d.NotNull}
	}
	rec := array.NewRecord(arrow.NewSchema(fields, nil), cols, rows)
	n, err := s.appendRecords(ctx, x.Table, []arrow.Record{rec})
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("COPY %d", n), nil
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
							return raw, nil, nil, pgerr.New(codeBadCopyFormat, "unterminated CSV quoted field")
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

// copyTo streams a query's rows to the client as COPY data.
func (s *session) copyTo(ctx context.Context, x *sql.Copy, ectx *types.EvalContext, ch wire.CopyChannel) (string, error) {
	p, _, err := s.prepareWith(x.Query, ectx, false, copyOutPartitions(x))
	if err != nil {
		return "", err
	}
	cols := x.Query.Plan.Columns()
	if x.Format == "binary" {
		return s.copyToBinary(ctx, p.op, cols, ch)
	}
	var format int16
	if x.Format == "parquet" {
		format = 1
	}
	out, err := ch.CopyOut(format, len(cols))
	if err != nil {
		return "", err
	}
	var n int64
	if x.Format == "parquet" {
		// CopyData messages of 64 KiB rather than one per Parquet write.
		bw := bufio.NewWriterSize(out, 64<<10)
		if n, err = s.writeParquet(ctx, x, p.op, cols, bw); err == nil {
			err = bw.Flush()
		}
	} else {
		n, err = s.writeCopyText(ctx, x, p.op, cols, out)
	}
	if err != nil {
		return "", err
	}
	if err := out.Close(); err != nil {
		return "", err
	}
	return fmt.Sprintf("COPY %d", n), nil
}

// writeCopyText writes the rows of op in text or CSV format, one Write per
// row (one CopyData message each, as PostgreSQL sends them).
func (s *session) writeCopyText(ctx context.Context, x *sql.Copy, op operators.Operator, cols []plan.Column, out io.Writer) (int64, error) {
	csv := x.Format == "csv"
	f := s.format()
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
	err := forEachBatch(ctx, op, func(rec arrow.Record) error {
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

// codeBadCopyFormat is SQLSTATE bad_copy_file_format.
const codeBadCopyFormat = "22P04"

// binaryCopySignature starts a binary COPY stream.
const binaryCopySignature = "PGCOPY\n\xff\r\n\x00"

// copyFromBinary reads PostgreSQL's binary COPY format: a header, then per
// row a 16-bit field count and length-prefixed fields (-1 = NULL), ending
// with a count of -1 or the end of the data. The checks, their order and
// their wording are CopyFrom's (ReceiveCopyBinaryHeader, NextCopyFrom,
// CopyReadBinaryAttribute); header errors have no CONTEXT line, row errors
// name the line and, for a field, the column but not its bytes.
func (s *session) copyFromBinary(ctx context.Context, x *sql.Copy, br *bufio.Reader, dflt *copyDefaults, builders []array.Builder) (int64, error) {
	defs := x.Table.Columns()
	name := x.Table.Name()
	f := s.format()
	bad := func(msg string) error { return pgerr.New(codeBadCopyFormat, "%s", msg) }
	// read fills b; it returns how much it read and any error that is not
	// the data's end (a CopyFail, a cancel), which ends the COPY as it is.
	read := func(b []byte) (int, error) {
		n, err := io.ReadFull(br, b)
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			err = nil
		}
		return n, err
	}
	var sig [len(binaryCopySignature)]byte
	if n, err := read(sig[:]); err != nil {
		return 0, err
	} else if n < len(sig) || string(sig[:]) != binaryCopySignature {
		return 0, bad("COPY file signature not recognized")
	}
	var word [4]byte
	if n, err := read(word[:]); err != nil {
		return 0, err
	} else if n < 4 {
		return 0, bad("invalid COPY file header (missing flags)")
	}
	flags := binary.BigEndian.Uint32(word[:])
	if flags&(1<<16) != 0 {
		return 0, bad("invalid COPY file header (WITH OIDS)")
	}
	if (flags&^(1<<16))>>16 != 0 {
		return 0, bad("unrecognized critical flags in COPY file header")
	}
	if n, err := read(word[:]); err != nil {
		return 0, err
	} else if n < 4 || int32(binary.BigEndian.Uint32(word[:])) < 0 {
		return 0, bad("invalid COPY file header (missing length)")
	}
	if ext := int64(binary.BigEndian.Uint32(word[:])); ext > 0 {
		if n, err := io.CopyN(io.Discard, br, ext); err != nil && err != io.EOF {
			return 0, err
		} else if n < ext {
			return 0, bad("invalid COPY file header (wrong length)")
		}
	}
	row := make([]types.Value, len(defs))
	var rows int64
	var field bytes.Buffer
	for line := 1; ; line++ {
		rowErr := func(err error) error { return pgerr.As(err).WithWhere(fmt.Sprintf("COPY %s, line %d", name, line)) }
		var cnt [2]byte
		if n, err := read(cnt[:]); err != nil {
			return 0, err
		} else if n < 2 {
			return rows, nil // end of data without a trailer, as PostgreSQL allows
		}
		n := int16(binary.BigEndian.Uint16(cnt[:]))
		if n == -1 {
			// The trailer must end the data.
			if k, err := read(cnt[:1]); err != nil {
				return 0, err
			} else if k > 0 {
				return 0, rowErr(bad("received copy data after EOF marker"))
			}
			return rows, nil
		}
		if int(n) != len(x.Columns) {
			return 0, rowErr(bad(fmt.Sprintf("row field count is %d, expected %d", n, len(x.Columns))))
		}
		copy(row, dflt.fill)
		for _, c := range x.Columns {
			fieldErr := func(err error) error {
				return pgerr.As(err).WithWhere(fmt.Sprintf("COPY %s, line %d, column %s", name, line, defs[c].Name))
			}
			if k, err := read(word[:]); err != nil {
				return 0, err
			} else if k < 4 {
				return 0, fieldErr(bad("unexpected EOF in COPY data"))
			}
			size := int32(binary.BigEndian.Uint32(word[:]))
			if size == -1 {
				row[c] = types.NullValue
				continue
			}
			if size < 0 {
				return 0, fieldErr(bad("invalid field size"))
			}
			// The buffer grows with the bytes that arrive, not with the
			// length word, so a lying length cannot allocate gigabytes.
			field.Reset()
			if k, err := io.CopyN(&field, br, int64(size)); err != nil && err != io.EOF {
				return 0, err
			} else if k < int64(size) {
				return 0, fieldErr(bad("unexpected EOF in COPY data"))
			}
			v, err := decodeBinary(field.Bytes(), defs[c].Type)
			if err == errBinaryTrailing {
				err = pgerr.New(codeInvalidBinary, "incorrect binary data format")
			}
			if err != nil {
				return 0, fieldErr(err)
			}
			if defs[c].Type.Typmod >= 0 {
				// Length and precision limits, as a text value would get.
				if v, err = types.CastValue(nil, v, types.Type{ID: defs[c].Type.ID, Typmod: -1}, defs[c].Type, false); err != nil {
					return 0, fieldErr(err)
				}
			}
			row[c] = v
		}
		if dflt.perRow {
			if err := dflt.row(row); err != nil {
				return 0, rowErr(err)
			}
		}
		if err := checkNotNull(x, row, f); err != nil {
			return 0, rowErr(err)
		}
		for c, d := range defs {
			types.AppendValue(builders[c], d.Type, row[c])
		}
		rows++
		if rows&4095 == 0 {
			if err := ctx.Err(); err != nil {
				return 0, err
			}
		}
	}
}

// copyToBinary writes rows in the binary COPY format.
func (s *session) copyToBinary(ctx context.Context, op operators.Operator, cols []plan.Column, ch wire.CopyChannel) (string, error) {
	out, err := ch.CopyOut(1, len(cols))
	if err != nil {
		return "", err
	}
	n, err := s.writeCopyBinary(ctx, op, cols, out)
	if err != nil {
		return "", err
	}
	if err := out.Close(); err != nil {
		return "", err
	}
	return fmt.Sprintf("COPY %d", n), nil
}

// writeCopyBinary writes the binary COPY format, one Write per row.
func (s *session) writeCopyBinary(ctx context.Context, op operators.Operator, cols []plan.Column, out io.Writer) (int64, error) {
	buf := append([]byte(binaryCopySignature), 0, 0, 0, 0, 0, 0, 0, 0)
	var n int64
	err := forEachBatch(ctx, op, func(rec arrow.Record) error {
		for r := 0; r < int(rec.NumRows()); r++ {
			buf = binary.BigEndian.AppendUint16(buf, uint16(len(cols)))
			for c, col := range cols {
				v := types.GetValue(rec.Column(c), col.Type, r)
				if v.Null {
					buf = binary.BigEndian.AppendUint32(buf, 0xFFFFFFFF)
					continue
				}
				at := len(buf)
				buf = appendBinary(append(buf, 0, 0, 0, 0), v, col.Type)
				binary.BigEndian.PutUint32(buf[at:], uint32(len(buf)-at-4))
			}
			if _, err := out.Write(buf); err != nil {
				return err
			}
			buf = buf[:0]
			n++
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	buf = binary.BigEndian.AppendUint16(buf, 0xFFFF)
	if _, err := out.Write(buf); err != nil {
		return 0, err
	}
	return n, nil
}

// copyOutPartitions is 1 for COPY table TO, whose rows leave in storage
// order as PostgreSQL's do, and the default for COPY (query) TO.
func copyOutPartitions(x *sql.Copy) int {
	if x.Table != nil {
		return 1
	}
	return 0
}
