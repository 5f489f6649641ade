package external

import (
	"context"
	"errors"
	"io"
	"math"
	"os"
	"strings"
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

// ParquetTable is one or more Parquet files of the same columns as a
// read-only table (read_parquet): one column per top-level field, of the
// joind type NaturalType gives, and one unit per row group, with the row
// group's statistics, file after file. It holds the files' metadata as of
// OpenParquet; a scan that finds a file changed since (size or
// modification time) fails rather than read another file's rows.
type ParquetTable struct {
	source    string // what the query named (a file or a pattern), resolved
	files     []parquetFile
	cols      []storage.ColumnDef
	units     []storage.Segment
	unitFile  []int // the file of each unit
	unitGroup []int // its row group in that file
	rows      int64
}

// parquetFile is one file of a ParquetTable.
type parquetFile struct {
	path    string
	size    int64
	modTime time.Time
	src     []types.Type // what each column's Arrow values hold (ParquetSourceType)
	leaves  []int        // each column's Parquet leaf index
}

var _ storage.External = (*ParquetTable)(nil)

// OpenParquet reads the footers of the Parquet files at paths (already
// resolved against copy_dirs; source names them for EXPLAIN) and
// describes them as one table. Every file must have the first one's
// columns, by name and type, in the same order.
func OpenParquet(source string, paths []string) (*ParquetTable, error) {
	t := &ParquetTable{source: source}
	for k, path := range paths {
		f, cols, units, err := openParquetFile(path)
		if err != nil {
			return nil, err
		}
		if k == 0 {
			t.cols = cols
		} else if !sameColumns(t.cols, cols) {
			return nil, pgerr.New(pgerr.DatatypeMismatch, "Parquet file \"%s\" does not have the columns of \"%s\"", path, paths[0]).
				WithDetail("%s has %s; %s has %s.", paths[0], describeColumns(t.cols), path, describeColumns(cols))
		}
		for g, u := range units {
			u.ID = uint64(len(t.units))
			t.units = append(t.units, u)
			t.unitFile = append(t.unitFile, k)
			t.unitGroup = append(t.unitGroup, g)
			t.rows += u.Rows
		}
		t.files = append(t.files, f)
	}
	return t, nil
}

func sameColumns(a, b []storage.ColumnDef) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Name != b[i].Name || a[i].Type != b[i].Type {
			return false
		}
	}
	return true
}

func describeColumns(cols []storage.ColumnDef) string {
	parts := make([]string, len(cols))
	for i, c := range cols {
		parts[i] = c.Name + " " + c.Type.SQLName()
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// openParquetFile reads one file's footer: its columns and row groups.
func openParquetFile(path string) (parquetFile, []storage.ColumnDef, []storage.Segment, error) {
	f := parquetFile{path: path}
	st, err := os.Stat(path)
	if err != nil {
		return f, nil, nil, FileError(err, path, "open")
	}
	f.size, f.modTime = st.Size(), st.ModTime()
	pr, err := file.OpenParquetFile(path, false)
	if err != nil {
		return f, nil, nil, notParquet(path, err)
	}
	defer pr.Close()
	fr, err := pqarrow.NewFileReader(pr, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
	if err != nil {
		return f, nil, nil, notParquet(path, err)
	}
	var cols []storage.ColumnDef
	seen := map[string]bool{}
	var arrowTypes []arrow.DataType
	for _, fld := range fr.Manifest.Fields {
		name := fld.Field.Name
		if !fld.IsLeaf() {
			return f, nil, nil, pgerr.New(pgerr.FeatureNotSupported, "Parquet column \"%s\" of file \"%s\" is nested (%s), which read_parquet cannot read", name, path, fld.Field.Type)
		}
		jt, ok := NaturalType(fld.Field.Type)
		if !ok && fld.Field.Type.ID() == arrow.FIXED_SIZE_BINARY &&
			pr.MetaData().Schema.Column(fld.ColIndex).ConvertedType() == schema.ConvertedTypes.Interval {
			// Parquet's INTERVAL (months, days, milliseconds), which
			// pqarrow leaves as 12 bytes.
			jt, ok = types.IntervalType, true
		}
		if !ok {
			return f, nil, nil, pgerr.New(pgerr.FeatureNotSupported, "Parquet column \"%s\" of file \"%s\" has type %s, which read_parquet cannot read", name, path, fld.Field.Type)
		}
		if seen[name] {
			return f, nil, nil, pgerr.New(pgerr.DuplicateColumn, "Parquet file \"%s\" has two columns named \"%s\"", path, name)
		}
		seen[name] = true
		src, _ := ParquetSourceType(fld.Field.Type, jt)
		cols = append(cols, storage.ColumnDef{Name: name, Type: jt, Attnum: int16(len(cols) + 1)})
		f.src = append(f.src, src)
		f.leaves = append(f.leaves, fld.ColIndex)
		arrowTypes = append(arrowTypes, fld.Field.Type)
	}
	var units []storage.Segment
	md := pr.MetaData()
	for g := 0; g < md.NumRowGroups(); g++ {
		rg := md.RowGroup(g)
		u := storage.Segment{Rows: rg.NumRows(), Columns: make([]storage.ColumnStats, len(cols))}
		for c := range cols {
			u.Columns[c] = unitStats(rg, f.leaves[c], arrowTypes[c])
		}
		units = append(units, u)
	}
	return f, cols, units, nil
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
func (t *ParquetTable) Source() string               { return t.source }

// Stats are the row count and, where every row group kept them, the
// columns' NULL counts.
func (t *ParquetTable) Stats() storage.Stats { return unitsStats(t.rows, len(t.cols), t.units) }

// unitsStats is an External's statistics: rows, and each column's NULL
// count summed over the units where every unit knows it.
func unitsStats(rows int64, ncols int, units []storage.Segment) storage.Stats {
	st := storage.Stats{Rows: rows}
	nulls := make([]int64, ncols)
	for _, u := range units {
		for c, cs := range u.Columns {
			if cs.Nulls < 0 || nulls[c] < 0 {
				nulls[c] = -1
				continue
			}
			nulls[c] += cs.Nulls
		}
	}
	for _, n := range nulls {
		if n < 0 {
			return st
		}
	}
	st.Nulls = nulls
	return st
}

// Snapshot reads every row group in full.
func (t *ParquetTable) Snapshot() []arrow.Record { return readAll(t) }

// readAll reads every unit of t in full, every column (Snapshot, for
// callers that take a table's batches whole; scans read units).
func readAll(t storage.External) []arrow.Record {
	var out []arrow.Record
	for u := range t.Units() {
		recs, err := t.ReadUnit(context.Background(), u, allOrdinals(len(t.Columns())))
		if err != nil {
			panic(err) // Snapshot cannot fail; scans use ReadUnit
		}
		out = append(out, recs...)
	}
	return out
}

// ReadUnit reads columns ordinals of unit i (a row group of one file),
// converted to their joind types, in batches of at most readBatchRows.
func (t *ParquetTable) ReadUnit(ctx context.Context, i int, ordinals []int) ([]arrow.Record, error) {
	f := &t.files[t.unitFile[i]]
	st, err := os.Stat(f.path)
	if err != nil {
		return nil, FileError(err, f.path, "open")
	}
	if st.Size() != f.size || !st.ModTime().Equal(f.modTime) {
		return nil, pgerr.New(codeFileChanged, "Parquet file \"%s\" changed while the query read it", f.path)
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
	pr, err := file.OpenParquetFile(f.path, false)
	if err != nil {
		return nil, notParquet(f.path, err)
	}
	defer pr.Close()
	fr, err := pqarrow.NewFileReader(pr, pqarrow.ArrowReadProperties{BatchSize: readBatchRows}, memory.DefaultAllocator)
	if err != nil {
		return nil, notParquet(f.path, err)
	}
	leaves := make([]int, len(ordinals))
	for k, o := range ordinals {
		leaves[k] = f.leaves[o]
	}
	rr, err := fr.GetRecordReader(ctx, leaves, []int{t.unitGroup[i]})
	if err != nil {
		return nil, notParquet(f.path, err)
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
				return nil, notParquet(f.path, errors.New("column "+t.cols[o].Name+" missing from a row group"))
			}
			a, err := ConvertParquetColumn(in.Column(idx[0]), f.src[o], t.cols[o], nil, nil, "read_parquet column %s")
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
		return nil, notParquet(f.path, err)
	}
	return out, nil
}
