package pgcopy

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/joind/joind/external"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// COPY ... (FORMAT parquet), through arrow-go's pqarrow. Column mapping,
// joind → Parquet (COPY TO):
//
//	boolean, smallint, integer, bigint   BOOLEAN, INT32 (INT(16)), INT32, INT64
//	real, double precision               FLOAT, DOUBLE
//	numeric(p,s), p ≤ 38, 0 ≤ s ≤ p      DECIMAL(p,s)
//	numeric otherwise (and NaN-free or not) STRING (PostgreSQL's text form)
//	text, varchar, char                  STRING
//	date                                 DATE
//	timestamp                            TIMESTAMP(MICROS, not adjusted to UTC)
//	timestamptz                          TIMESTAMP(MICROS, adjusted to UTC)
//	interval                             STRING (PostgreSQL's text form: pqarrow
//	                                     cannot write month_day_nano)
//	inet, cidr, macaddr, macaddr8        STRING (PostgreSQL's text form)
//
// COPY FROM matches the file's columns to the target columns by name (extra
// file columns are ignored) and converts with PostgreSQL's assignment casts:
// any integer, float, decimal, string, date, timestamp (any unit; a zone
// means timestamptz), month_day_nano or Parquet INTERVAL column loads into
// a column its type casts to; strings load through the target type's text
// input; binary columns load into bytea. Nested columns are refused naming
// the column.

// parquetOutType is the Arrow type joind writes for t.
func parquetOutType(t types.Type) arrow.DataType {
	switch t.ID {
	case types.Numeric:
		if p, sc, ok := types.NumericPrecScale(t.Typmod); ok && p <= 38 && sc >= 0 && sc <= p {
			return &arrow.Decimal128Type{Precision: int32(p), Scale: int32(sc)}
		}
		return arrow.BinaryTypes.String
	case types.Interval:
		return arrow.BinaryTypes.String
	}
	return t.ArrowType()
}

// WriteParquet writes the rows of rows as one Parquet file to w; f is the
// session's output format (for columns written as text).
func WriteParquet(x *sql.Copy, rows Batches, cols []plan.Column, f *types.Format, w io.Writer) (int64, error) {
	fields := make([]arrow.Field, len(cols))
	for c, col := range cols {
		fields[c] = arrow.Field{Name: x.Query.Names[c], Type: parquetOutType(col.Type), Nullable: true}
	}
	schema := arrow.NewSchema(fields, nil)
	props := parquet.NewWriterProperties(
		parquet.WithCompression(compress.Codecs.Snappy),
		parquet.WithMaxRowGroupLength(1<<20),
		parquet.WithCreatedBy("joind"))
	fw, err := pqarrow.NewFileWriter(schema, w, props, pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()))
	if err != nil {
		return 0, pgerr.Wrap(err, pgerr.InternalError, "parquet: %v", err)
	}
	var n int64
	err = rows(func(rec arrow.Record) error {
		arrs := make([]arrow.Array, len(cols))
		for c, col := range cols {
			a, err := toParquetArray(rec.Column(c), col.Type, fields[c], f)
			if err != nil {
				return err
			}
			arrs[c] = a
		}
		out := array.NewRecord(schema, arrs, rec.NumRows())
		n += rec.NumRows()
		return fw.WriteBuffered(out)
	})
	if err != nil {
		fw.Close()
		return 0, err
	}
	if err := fw.Close(); err != nil {
		return 0, err
	}
	return n, nil
}

// toParquetArray converts one column of a batch to its Parquet Arrow type.
func toParquetArray(arr arrow.Array, t types.Type, field arrow.Field, f *types.Format) (arrow.Array, error) {
	if arrow.TypeEqual(arr.DataType(), field.Type) && !types.IsBinaryStringID(t.ID) {
		return arr, nil // the stored form is the written one (a network key is not: its text is)
	}
	b := array.NewBuilder(memory.DefaultAllocator, field.Type)
	var buf []byte
	for i := 0; i < arr.Len(); i++ {
		if arr.IsNull(i) {
			b.AppendNull()
			continue
		}
		switch bb := b.(type) {
		case *array.Decimal128Builder:
			s := types.NumericString(types.GetValue(arr, t, i).Num)
			dt := field.Type.(*arrow.Decimal128Type)
			num, err := decimal128.FromString(s, dt.Precision, dt.Scale)
			if err != nil {
				return nil, pgerr.New(pgerr.InvalidParameterValue, "cannot write numeric value %s of column \"%s\" as Parquet decimal(%d,%d)", s, field.Name, dt.Precision, dt.Scale)
			}
			bb.Append(num)
		case *array.StringBuilder:
			buf = types.FormatText(buf[:0], types.GetValue(arr, t, i), t, f)
			bb.BinaryBuilder.Append(buf)
		default:
			return nil, pgerr.New(pgerr.InternalError, "parquet: cannot write %s as %s", arr.DataType(), field.Type)
		}
	}
	return b.NewArray(), nil
}

// LoadParquet reads a Parquet file (fh, or all of r for STDIN) in
// batches of batchSize rows; f is the session's format and ectx the
// statement's (for text input and casts).
func LoadParquet(ctx context.Context, x *sql.Copy, dflt *Defaults, f *types.Format, ectx *types.EvalContext, r io.Reader, fh *os.File, batchSize int) ([]arrow.Record, int64, error) {
	var src parquet.ReaderAtSeeker
	name := x.Filename
	if fh != nil {
		src = fh
	} else {
		data, err := io.ReadAll(r)
		if err != nil {
			return nil, 0, err
		}
		src, name = bytes.NewReader(data), "STDIN"
	}
	pr, err := file.NewParquetReader(src)
	if err != nil {
		return nil, 0, pgerr.New(CodeBadCopyFormat, "COPY file \"%s\" is not a Parquet file: %v", name, err)
	}
	defer pr.Close()
	fr, err := pqarrow.NewFileReader(pr, pqarrow.ArrowReadProperties{Parallel: true, BatchSize: int64(max(batchSize, 1))}, memory.DefaultAllocator)
	if err != nil {
		return nil, 0, pgerr.New(CodeBadCopyFormat, "COPY file \"%s\" is not a Parquet file: %v", name, err)
	}
	fsc, err := fr.Schema()
	if err != nil {
		return nil, 0, pgerr.New(CodeBadCopyFormat, "Parquet file \"%s\": %v", name, err)
	}
	defs := x.Table.Columns()
	// For each listed column: its file column and how to convert it.
	leaves := make([]int, len(x.Columns))
	srcTypes := make([]types.Type, len(x.Columns))
	for i, c := range x.Columns {
		d := defs[c]
		fi := fsc.FieldIndices(d.Name)
		if len(fi) == 0 {
			return nil, 0, pgerr.New(CodeBadCopyFormat, "Parquet file \"%s\" has no column \"%s\"", name, d.Name)
		}
		fld := fsc.Field(fi[0])
		st, ok := external.ParquetSourceType(fld.Type, d.Type)
		leaf := pr.MetaData().Schema.ColumnIndexByName(d.Name)
		if !ok || leaf < 0 {
			return nil, 0, pgerr.New(pgerr.FeatureNotSupported, "Parquet column \"%s\" has type %s, which joind cannot load", d.Name, fld.Type)
		}
		if st.ID != types.Unknown && st.ID != types.Text {
			if _, assign, _ := types.CanCast(st, d.Type); !assign && st.ID != d.Type.ID {
				return nil, 0, pgerr.New(pgerr.DatatypeMismatch, "Parquet column \"%s\" of type %s cannot be loaded into column \"%s\" of type %s",
					d.Name, fld.Type, d.Name, d.Type.SQLName())
			}
		}
		leaves[i], srcTypes[i] = leaf, st
	}
	rr, err := fr.GetRecordReader(ctx, leaves, nil)
	if err != nil {
		return nil, 0, pgerr.New(CodeBadCopyFormat, "Parquet file \"%s\": %v", name, err)
	}
	defer rr.Release()
	schema := arrowSchemaOf(defs)
	var recs []arrow.Record
	var rows int64
	for rr.Next() {
		if err := ctx.Err(); err != nil {
			return nil, 0, err
		}
		in := rr.RecordBatch()
		n := int(in.NumRows())
		arrs := make([]arrow.Array, len(defs))
		for i, c := range x.Columns {
			col := in.Column(in.Schema().FieldIndices(defs[c].Name)[0])
			a, err := external.ConvertParquetColumn(col, srcTypes[i], defs[c], f, ectx, "COPY column %s")
			if err != nil {
				return nil, 0, err
			}
			arrs[c] = a
		}
		vol, err := dflt.batch(n)
		if err != nil {
			return nil, 0, err
		}
		for c, d := range defs {
			switch {
			case arrs[c] != nil:
				continue
			case dflt.errs[c] != nil && n > 0:
				return nil, 0, dflt.errs[c]
			case dflt.volAt[c] >= 0:
				arrs[c] = vol[dflt.volAt[c]]
				continue
			}
			b := array.NewBuilder(memory.DefaultAllocator, d.Type.ArrowType())
			for r := 0; r < n; r++ {
				types.AppendValue(b, d.Type, dflt.fill[c])
			}
			arrs[c] = b.NewArray()
		}
		rec := array.NewRecord(schema, arrs, int64(n))
		for c, d := range defs {
			if d.NotNull && arrs[c].NullN() > 0 {
				return nil, 0, notNullInBatch(x, rec, c, f)
			}
		}
		recs = append(recs, rec)
		rows += int64(n)
	}
	if err := rr.Err(); err != nil && !errors.Is(err, io.EOF) {
		return nil, 0, pgerr.New(CodeBadCopyFormat, "Parquet file \"%s\": %v", name, err)
	}
	return recs, rows, nil
}

// notNullInBatch is checkNotNull's error for the first row of rec with a
// NULL in column c.
func notNullInBatch(x *sql.Copy, rec arrow.Record, c int, f *types.Format) error {
	defs := x.Table.Columns()
	r := 0
	for rec.Column(c).IsValid(r) {
		r++
	}
	row := make([]types.Value, len(defs))
	for k, d := range defs {
		row[k] = types.GetValue(rec.Column(k), d.Type, r)
	}
	return checkNotNull(x, row, f)
}

// arrowSchemaOf is the Arrow schema of a table's batches.
func arrowSchemaOf(defs []storage.ColumnDef) *arrow.Schema {
	fields := make([]arrow.Field, len(defs))
	for c, d := range defs {
		fields[c] = arrow.Field{Name: d.Name, Type: d.Type.ArrowType(), Nullable: !d.NotNull}
	}
	return arrow.NewSchema(fields, nil)
}
