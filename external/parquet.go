package external

import (
	"context"
	"errors"
	"io"
	"math"
	"os"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/apache/arrow-go/v18/parquet/schema"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// codeBadFile is bad_copy_file_format, the SQLSTATE COPY gives a file it
// cannot parse; read_parquet uses it for the same fault.
const codeBadFile = "22P04"

// codeFileChanged is object_not_in_prerequisite_state: the file a plan
// described is no longer the file on disk.
const codeFileChanged = "55000"

// readBatchRows is how many rows a unit is decoded in at a time.
const readBatchRows = 64 << 10

// ParquetTable is a Parquet file as a read-only table (read_parquet): one
// column per top-level field, of the joind type NaturalType gives, and one
// unit per row group, with the row group's statistics. It holds the file's
// metadata as of OpenParquet; a scan that finds the file changed since
// (size or modification time) fails rather than read another file's rows.
type ParquetTable struct {
	path    string
	size    int64
	modTime time.Time
	cols    []storage.ColumnDef
	src     []types.Type // what each column's Arrow values hold (ParquetSourceType)
	leaves  []int        // each column's Parquet leaf index
	units   []storage.Segment
	rows    int64
}

var _ storage.External = (*ParquetTable)(nil)

// OpenParquet reads the footer of the Parquet file at path (already
// resolved against copy_dirs) and describes it as a table.
func OpenParquet(path string) (*ParquetTable, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, FileError(err, path, "open")
	}
	pr, err := file.OpenParquetFile(path, false)
	if err != nil {
		return nil, notParquet(path, err)
	}
	defer pr.Close()
	fr, err := pqarrow.NewFileReader(pr, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
	if err != nil {
		return nil, notParquet(path, err)
	}
	t := &ParquetTable{path: path, size: st.Size(), modTime: st.ModTime()}
	seen := map[string]bool{}
	var arrowTypes []arrow.DataType
	for _, f := range fr.Manifest.Fields {
		name := f.Field.Name
		if !f.IsLeaf() {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "Parquet column \"%s\" of file \"%s\" is nested (%s), which read_parquet cannot read", name, path, f.Field.Type)
		}
		jt, ok := NaturalType(f.Field.Type)
		if !ok && f.Field.Type.ID() == arrow.FIXED_SIZE_BINARY &&
			pr.MetaData().Schema.Column(f.ColIndex).ConvertedType() == schema.ConvertedTypes.Interval {
			// Parquet's INTERVAL (months, days, milliseconds), which
			// pqarrow leaves as 12 bytes.
			jt, ok = types.IntervalType, true
		}
		if !ok {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "Parquet column \"%s\" of file \"%s\" has type %s, which read_parquet cannot read", name, path, f.Field.Type)
		}
		if seen[name] {
			return nil, pgerr.New(pgerr.DuplicateColumn, "Parquet file \"%s\" has two columns named \"%s\"", path, name)
		}
		seen[name] = true
		src, _ := ParquetSourceType(f.Field.Type, jt)
		t.cols = append(t.cols, storage.ColumnDef{Name: name, Type: jt, Attnum: int16(len(t.cols) + 1)})
		t.src = append(t.src, src)
		t.leaves = append(t.leaves, f.ColIndex)
		arrowTypes = append(arrowTypes, f.Field.Type)
	}
	md := pr.MetaData()
	for g := 0; g < md.NumRowGroups(); g++ {
		rg := md.RowGroup(g)
		u := storage.Segment{ID: uint64(g), Rows: rg.NumRows(), Columns: make([]storage.ColumnStats, len(t.cols))}
		for c := range t.cols {
			u.Columns[c] = unitStats(rg, t.leaves[c], arrowTypes[c])
		}
		t.units = append(t.units, u)
		t.rows += u.Rows
	}
	return t, nil
}

func notParquet(path string, err error) error {
	return pgerr.New(codeBadFile, "file \"%s\" is not a Parquet file: %v", path, err)
}

// unitStats is the statistics of column c (of Arrow type at) in row
// group rg. Bounds are kept only where the file's order is joind's:
// signed integers, dates and timestamps. Floats are left out (Parquet's
// bounds omit NaN, which PostgreSQL orders above every number), and so are
// strings and decimals, whose bounds a writer may truncate or order
// otherwise. Without a NULL count nothing is known (Nulls -1).
func unitStats(rg *metadata.RowGroupMetaData, leaf int, at arrow.DataType) storage.ColumnStats {
	unknown := storage.ColumnStats{Nulls: -1}
	cc, err := rg.ColumnChunk(leaf)
	if err != nil {
		return unknown
	}
	ts, err := cc.Statistics()
	if err != nil || ts == nil || !ts.HasNullCount() {
		return unknown
	}
	cs := storage.ColumnStats{Nulls: ts.NullCount()}
	if !ts.HasMinMax() {
		return cs
	}
	mul, div := int64(1), int64(1)
	switch at.ID() {
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64, arrow.DATE32:
	case arrow.TIMESTAMP:
		switch at.(*arrow.TimestampType).Unit {
		case arrow.Second:
			mul = 1_000_000
		case arrow.Millisecond:
			mul = 1_000
		case arrow.Nanosecond:
			div = 1_000
		}
	default:
		return cs
	}
	var lo, hi int64
	switch s := ts.(type) {
	case *metadata.Int32Statistics:
		lo, hi = int64(s.Min()), int64(s.Max())
	case *metadata.Int64Statistics:
		lo, hi = s.Min(), s.Max()
	default:
		return cs
	}
	if mul != 1 {
		if lo < math.MinInt64/mul || hi > math.MaxInt64/mul {
			return cs
		}
		lo, hi = lo*mul, hi*mul
	}
	if div != 1 {
		// Rounding outward keeps the bounds true of the converted values
		// (ParquetSourceType truncates nanoseconds toward zero).
		lo, hi = floorDiv(lo, div), -floorDiv(-hi, div)
	}
	cs.HasMinMax, cs.Min, cs.Max = true, types.Value{I: lo}, types.Value{I: hi}
	return cs
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && (a < 0) {
		q--
	}
	return q
}

// NaturalType is the joind type read_parquet gives a column of Arrow type
// dt (as pqarrow reads it from Parquet); ok is false for types it cannot
// read (nested, unsigned 64-bit aside, fixed-size binary, ...).
func NaturalType(dt arrow.DataType) (types.Type, bool) {
	switch dt.ID() {
	case arrow.BOOL:
		return types.BoolType, true
	case arrow.INT8, arrow.UINT8, arrow.INT16:
		return types.Int2Type, true
	case arrow.UINT16, arrow.INT32:
		return types.Int4Type, true
	case arrow.UINT32, arrow.INT64, arrow.UINT64:
		// uint64 values past bigint's range fail as they are read.
		return types.Int8Type, true
	case arrow.FLOAT16, arrow.FLOAT32:
		return types.Float4Type, true
	case arrow.FLOAT64:
		return types.Float8Type, true
	case arrow.STRING, arrow.LARGE_STRING:
		return types.TextType, true
	case arrow.BINARY, arrow.LARGE_BINARY:
		return types.ByteaType, true
	case arrow.DECIMAL128, arrow.DECIMAL256:
		d := dt.(arrow.DecimalType)
		if d.GetScale() < 0 || d.GetScale() > d.GetPrecision() {
			return types.NumericType, true
		}
		return types.Type{ID: types.Numeric, Typmod: types.NumericTypmod(int(d.GetPrecision()), int(d.GetScale()))}, true
	case arrow.DATE32, arrow.DATE64:
		return types.DateType, true
	case arrow.TIMESTAMP:
		if dt.(*arrow.TimestampType).TimeZone != "" {
			return types.TimestampTZType, true
		}
		return types.TimestampType, true
	case arrow.INTERVAL_MONTH_DAY_NANO:
		return types.IntervalType, true
	}
	return types.Type{}, false
}

func (t *ParquetTable) Name() string                 { return "read_parquet" }
func (t *ParquetTable) Columns() []storage.ColumnDef { return t.cols }
func (t *ParquetTable) Units() []storage.Segment     { return t.units }
func (t *ParquetTable) Source() string               { return t.path }

// Stats are the row count and, where every row group kept them, the
// columns' NULL counts and bounds.
func (t *ParquetTable) Stats() storage.Stats {
	st := storage.Stats{Rows: t.rows}
	nulls := make([]int64, len(t.cols))
	for _, u := range t.units {
		for c, cs := range u.Columns {
			if cs.Nulls < 0 || nulls[c] < 0 {
				nulls[c] = -1
				continue
			}
			nulls[c] += cs.Nulls
		}
	}
	known := true
	for _, n := range nulls {
		known = known && n >= 0
	}
	if known {
		st.Nulls = nulls
	}
	return st
}

// Snapshot reads every row group in full (for callers that take a table's
// batches whole; scans read units).
func (t *ParquetTable) Snapshot() []arrow.Record {
	ords := make([]int, len(t.cols))
	for i := range ords {
		ords[i] = i
	}
	var out []arrow.Record
	for u := range t.units {
		recs, err := t.ReadUnit(context.Background(), u, ords)
		if err != nil {
			panic(err) // Snapshot cannot fail; scans use ReadUnit
		}
		out = append(out, recs...)
	}
	return out
}

// ReadUnit reads columns ordinals of row group i, converted to their joind
// types, in batches of at most readBatchRows.
func (t *ParquetTable) ReadUnit(ctx context.Context, i int, ordinals []int) ([]arrow.Record, error) {
	st, err := os.Stat(t.path)
	if err != nil {
		return nil, FileError(err, t.path, "open")
	}
	if st.Size() != t.size || !st.ModTime().Equal(t.modTime) {
		return nil, pgerr.New(codeFileChanged, "Parquet file \"%s\" changed while the query read it", t.path)
	}
	fields := make([]arrow.Field, len(ordinals))
	for k, o := range ordinals {
		fields[k] = arrow.Field{Name: t.cols[o].Name, Type: t.cols[o].Type.ArrowType(), Nullable: true}
	}
	schema := arrow.NewSchema(fields, nil)
	if len(ordinals) == 0 {
		// No column is needed (count(*)): the row group's row count is.
		var out []arrow.Record
		for n := t.units[i].Rows; n > 0; n -= readBatchRows {
			out = append(out, array.NewRecord(schema, nil, min(n, readBatchRows)))
		}
		return out, nil
	}
	pr, err := file.OpenParquetFile(t.path, false)
	if err != nil {
		return nil, notParquet(t.path, err)
	}
	defer pr.Close()
	fr, err := pqarrow.NewFileReader(pr, pqarrow.ArrowReadProperties{BatchSize: readBatchRows}, memory.DefaultAllocator)
	if err != nil {
		return nil, notParquet(t.path, err)
	}
	leaves := make([]int, len(ordinals))
	for k, o := range ordinals {
		leaves[k] = t.leaves[o]
	}
	rr, err := fr.GetRecordReader(ctx, leaves, []int{i})
	if err != nil {
		return nil, notParquet(t.path, err)
	}
	defer rr.Release()
	var out []arrow.Record
	for rr.Next() {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		in := rr.RecordBatch()
		arrs := make([]arrow.Array, len(ordinals))
		for k, o := range ordinals {
			idx := in.Schema().FieldIndices(t.cols[o].Name)
			if len(idx) != 1 {
				return nil, notParquet(t.path, errors.New("column "+t.cols[o].Name+" missing from a row group"))
			}
			a, err := ConvertParquetColumn(in.Column(idx[0]), t.src[o], t.cols[o], nil, nil, "read_parquet column %s")
			if err != nil {
				return nil, err
			}
			if a == in.Column(idx[0]) {
				a.Retain() // the batch is released below; the column lives on
			}
			arrs[k] = a
		}
		out = append(out, array.NewRecord(schema, arrs, in.NumRows()))
		for _, a := range arrs {
			a.Release() // NewRecord retained them
		}
	}
	if err := rr.Err(); err != nil && !errors.Is(err, io.EOF) {
		return nil, notParquet(t.path, err)
	}
	return out, nil
}
