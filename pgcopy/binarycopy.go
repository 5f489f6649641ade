package pgcopy

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// binaryCopySignature starts a binary COPY stream.
const binaryCopySignature = "PGCOPY\n\xff\r\n\x00"

// LoadBinary reads PostgreSQL's binary COPY format: a header, then per
// row a 16-bit field count and length-prefixed fields (-1 = NULL), ending
// with a count of -1 or the end of the data. The checks, their order and
// their wording are CopyFrom's (ReceiveCopyBinaryHeader, NextCopyFrom,
// CopyReadBinaryAttribute); header errors have no CONTEXT line, row errors
// name the line and, for a field, the column but not its bytes.
// It returns the rows as one batch (none for no rows).
func LoadBinary(ctx context.Context, x *sql.Copy, r io.Reader, dflt *Defaults, f *types.Format) ([]arrow.Record, int64, error) {
	defs := x.Table.Columns()
	builders := make([]array.Builder, len(defs))
	for i, d := range defs {
		builders[i] = array.NewBuilder(memory.DefaultAllocator, d.Type.ArrowType())
	}
	rows, err := readBinary(ctx, x, bufio.NewReaderSize(r, 64<<10), dflt, f, builders)
	if err != nil || rows == 0 {
		return nil, 0, err
	}
	cols := make([]arrow.Array, len(defs))
	for c := range defs {
		cols[c] = builders[c].NewArray()
	}
	return []arrow.Record{array.NewRecord(arrowSchemaOf(defs), cols, rows)}, rows, nil
}

// readBinary is LoadBinary into builders, one per table column.
func readBinary(ctx context.Context, x *sql.Copy, br *bufio.Reader, dflt *Defaults, f *types.Format, builders []array.Builder) (int64, error) {
	defs := x.Table.Columns()
	name := storage.BareName(x.Table.Name())
	bad := func(msg string) error { return pgerr.New(CodeBadCopyFormat, "%s", msg) }
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
			v, err := DecodeBinary(field.Bytes(), defs[c].Type)
			if err == ErrBinaryTrailing {
				err = pgerr.New(CodeInvalidBinary, "incorrect binary data format")
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

// WriteBinary writes the rows of rows in the binary COPY format, one Write
// per row.
func WriteBinary(rows Batches, cols []plan.Column, out io.Writer) (int64, error) {
	buf := append([]byte(binaryCopySignature), 0, 0, 0, 0, 0, 0, 0, 0)
	var n int64
	err := rows(func(rec arrow.Record) error {
		for r := 0; r < int(rec.NumRows()); r++ {
			buf = binary.BigEndian.AppendUint16(buf, uint16(len(cols)))
			for c, col := range cols {
				v := types.GetValue(rec.Column(c), col.Type, r)
				if v.Null {
					buf = binary.BigEndian.AppendUint32(buf, 0xFFFFFFFF)
					continue
				}
				at := len(buf)
				buf = AppendBinary(append(buf, 0, 0, 0, 0), v, col.Type)
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
