package external

import (
	"context"
	"errors"
	"regexp"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// Apache Iceberg tables (format v1/v2) read through iceberg-go: the
// metadata file names the current snapshot, its manifests the data files
// (and delete files) of that snapshot. One unit per data file, with the
// manifest's per-column NULL counts and bounds (and an identity
// partition's value) as the unit's statistics, so a filter skips whole
// files from the metadata alone; iceberg-go's ReadTasks reads a unit's
// columns by field ID (schema evolution: a renamed column keeps its
// values, a column added later is NULL in older files) with the file's
// position and equality deletes applied.

// IcebergTable is one snapshot of an Iceberg table as a read-only table.
type IcebergTable struct {
	name     string
	metadata string // the metadata file read
	tbl      *table.Table
	schema   *iceberg.Schema    // the snapshot's rows'
	scanOpts []table.ScanOption // the snapshot's (none: the current one)
	tasks    []table.FileScanTask
	cols     []storage.ColumnDef
	fields   []iceberg.NestedField // each column's Iceberg field
	units    []storage.Segment
	rows     int64
}

var _ storage.External = (*IcebergTable)(nil)

// metadataVersion matches the metadata file names Iceberg writers give:
// vN.metadata.json (the Hadoop layout, iceberg-go's and DuckDB's) and
// NNNNN-uuid.metadata.json (catalogs'), optionally .gz-compressed.
var metadataVersion = regexp.MustCompile(`^(?:v([0-9]+)|([0-9]{5,})-[0-9a-fA-F-]{36})(?:\.gz)?\.metadata\.json$`)

// IcebergMetadataFile is the metadata file of location (resolved under
// copy_dirs, a path or an object URI): location itself when it names a
// metadata file, else the current one of the table directory location:
// the version metadata/version-hint.text names, or the highest-numbered
// metadata file.
func IcebergMetadataFile(dirs []string, location string) (string, error) {
	ctx := context.Background()
	if err := CheckIcebergLocation(location); err != nil {
		return "", err
	}
	p, err := ResolveLocation(dirs, location)
	if err != nil {
		return "", err
	}
	isDir, err := statLocation(ctx, p)
	if err != nil {
		return "", err
	}
	if !isDir {
		return p, nil
	}
	dir := JoinLocation(p, "metadata")
	if hint, err := readLocation(ctx, JoinLocation(dir, "version-hint.text")); err == nil {
		name := JoinLocation(dir, "v"+strings.TrimSpace(string(hint))+".metadata.json")
		if ok, _ := LocationExists(ctx, name); ok {
			return name, nil
		}
	}
	names, err := listLocation(ctx, dir)
	if err != nil || len(names) == 0 {
		return "", pgerr.New(codeUndefinedFile, "\"%s\" is not an Iceberg table: it has no metadata directory", p)
	}
	best, bestN := "", int64(-1)
	for _, name := range names {
		m := metadataVersion.FindStringSubmatch(name)
		if m == nil {
			continue
		}
		n, _ := strconv.ParseInt(m[1]+m[2], 10, 64)
		if n > bestN {
			best, bestN = name, n
		}
	}
	if best == "" {
		return "", pgerr.New(codeUndefinedFile, "\"%s\" is not an Iceberg table: no metadata file in %s", p, dir)
	}
	return JoinLocation(dir, best), nil
}

// CheckIcebergLocation refuses a location in a store joind cannot reach:
// a scheme other than file:// and the object stores' (s3://).
func CheckIcebergLocation(location string) error {
	if scheme, _, ok := strings.Cut(location, "://"); ok && !strings.EqualFold(scheme, "file") && !IsObjectURI(location) {
		return pgerr.New(pgerr.FeatureNotSupported, "Iceberg location \"%s\": object storage (%s://) is not supported", location, scheme).
			WithHint("Name a local directory or an s3:// location under copy_dirs.")
	}
	return nil
}

// icebergError is an iceberg-go failure reading table name's metadata.
func icebergError(path string, err error) error {
	if pe := pgerr.As(err); pe != nil && pe.Code != pgerr.InternalError {
		return err
	}
	return pgerr.Wrap(err, codeBadFile, "could not read Iceberg table \"%s\": %v", path, err)
}

// LoadIceberg reads the metadata file at path (IcebergMetadataFile's).
func LoadIceberg(ctx context.Context, path string) (*table.Table, error) {
	tbl, err := table.NewFromLocation(ctx, table.Identifier{"joind", LocationBase(path)}, path, locationFS(path), nil)
	if err != nil {
		return nil, icebergError(path, err)
	}
	return tbl, nil
}

// IcebergSnapshot is the snapshot a scan of tbl reads (id 0: the current
// one; nil when the table has none) and the schema its rows have: a past
// snapshot's own (time travel), else the current schema.
func IcebergSnapshot(tbl *table.Table, id int64) (*table.Snapshot, *iceberg.Schema, error) {
	if id == 0 {
		return tbl.CurrentSnapshot(), tbl.Schema(), nil
	}
	snap := tbl.SnapshotByID(id)
	if snap == nil {
		return nil, nil, pgerr.New(pgerr.InvalidParameterValue, "Iceberg table \"%s\" has no snapshot %d", tbl.MetadataLocation(), id)
	}
	if snap.SchemaID != nil {
		if sc, ok := tbl.Schemas()[*snap.SchemaID]; ok {
			return snap, sc, nil
		}
	}
	return snap, tbl.Schema(), nil
}

// IcebergColumns are the columns of schema sc, typed as Parquet's
// (NaturalType of the Arrow type Iceberg gives the field); nested and
// other unreadable types are 0A000.
func IcebergColumns(sc *iceberg.Schema) ([]storage.ColumnDef, []iceberg.NestedField, error) {
	var cols []storage.ColumnDef
	var fields []iceberg.NestedField
	for _, f := range sc.Fields() {
		at, err := table.TypeToArrowType(f.Type, false, false)
		jt, ok := types.Type{}, false
		if err == nil {
			jt, ok = NaturalType(at)
		}
		if !ok {
			return nil, nil, pgerr.New(pgerr.FeatureNotSupported, "Iceberg column \"%s\" has type %s, which joind cannot read", f.Name, f.Type)
		}
		cols = append(cols, storage.ColumnDef{Name: f.Name, Type: jt, Attnum: int16(len(cols) + 1)})
		fields = append(fields, f)
	}
	return cols, fields, nil
}

// OpenIceberg plans a scan of snapshot snapshotID (0: the current one)
// of the Iceberg table whose metadata file is path, as the table name of
// columns cols (nil: the schema's): each column is the schema's field of
// its name and must have its type. Every data and delete file must be
// under copy_dirs.
func OpenIceberg(ctx context.Context, dirs []string, path, name string, cols []storage.ColumnDef, snapshotID int64) (*IcebergTable, error) {
	tbl, err := LoadIceberg(ctx, path)
	if err != nil {
		return nil, err
	}
	snap, schema, err := IcebergSnapshot(tbl, snapshotID)
	if err != nil {
		return nil, err
	}
	all, fields, err := IcebergColumns(schema)
	if err != nil {
		return nil, err
	}
	t := &IcebergTable{name: name, metadata: path, tbl: tbl, schema: schema, cols: all, fields: fields}
	if cols != nil {
		t.cols, t.fields = cols, make([]iceberg.NestedField, len(cols))
		for i, c := range cols {
			k := -1
			for j, a := range all {
				if a.Name == c.Name {
					k = j
				}
			}
			if k < 0 {
				return nil, pgerr.New(pgerr.UndefinedColumn, "column \"%s\" of foreign table \"%s\" is not in Iceberg table \"%s\"", c.Name, name, path).
					WithDetail("The table has %s.", describeColumns(all))
			}
			if all[k].Type != c.Type {
				return nil, pgerr.New(pgerr.DatatypeMismatch, "column \"%s\" of foreign table \"%s\" is %s but the Iceberg column is %s", c.Name, name, c.Type.SQLName(), all[k].Type.SQLName())
			}
			t.fields[i] = fields[k]
		}
	}
	if snap != nil {
		if snapshotID != 0 {
			t.scanOpts = []table.ScanOption{table.WithSnapshotID(snapshotID)}
		}
		sc := tbl.Scan(t.scanOpts...)
		defer sc.Close()
		if t.tasks, err = sc.PlanFiles(ctx); err != nil {
			return nil, icebergError(path, err)
		}
	}
	for _, task := range t.tasks {
		for _, f := range append(append([]iceberg.DataFile{task.File}, task.DeleteFiles...), task.EqualityDeleteFiles...) {
			if _, err := ResolveLocation(dirs, f.FilePath()); err != nil {
				return nil, err
			}
		}
		if len(task.DeletionVectorFiles) > 0 {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "Iceberg deletion vectors (format v3) are not supported")
		}
		u := storage.Segment{ID: uint64(len(t.units)), Rows: task.File.Count(), Columns: make([]storage.ColumnStats, len(t.cols))}
		for c := range t.cols {
			u.Columns[c] = t.fileStats(task.File, c)
		}
		t.units = append(t.units, u)
		t.rows += u.Rows
	}
	return t, nil
}

// fileStats is column c's statistics in data file df from its manifest
// entry: the NULL count, and bounds where Iceberg's order is joind's
// (integers, dates, timestamps; as unitStats keeps Parquet's), else the
// value of an identity partition on the column.
func (t *IcebergTable) fileStats(df iceberg.DataFile, c int) storage.ColumnStats {
	f := t.fields[c]
	cs := storage.ColumnStats{Nulls: -1}
	if n, ok := df.NullValueCounts()[f.ID]; ok {
		cs.Nulls = n
	}
	lo, okLo := boundValue(f.Type, df.LowerBoundValues()[f.ID])
	hi, okHi := boundValue(f.Type, df.UpperBoundValues()[f.ID])
	if okLo && okHi {
		cs.HasMinMax, cs.Min, cs.Max = true, lo, hi
		return cs
	}
	spec := t.tbl.Metadata().PartitionSpecByID(int(df.SpecID()))
	if spec == nil {
		return cs
	}
	for _, pf := range spec.FieldsBySourceID(f.ID) {
		if _, ok := pf.Transform.(iceberg.IdentityTransform); !ok {
			continue
		}
		v, ok := partitionValue(df.Partition()[pf.FieldID])
		if ok {
			cs.HasMinMax, cs.Min, cs.Max = true, v, v
		}
	}
	return cs
}

// boundValue decodes an Iceberg single-value serialization (a manifest's
// bound) of a column of type typ, for the types whose order is joind's.
func boundValue(typ iceberg.Type, b []byte) (types.Value, bool) {
	if b == nil {
		return types.Value{}, false
	}
	switch typ.(type) {
	case iceberg.Int32Type, iceberg.Int64Type, iceberg.DateType, iceberg.TimestampType, iceberg.TimestampTzType:
	default:
		return types.Value{}, false
	}
	if _, long := typ.(iceberg.Int64Type); long && len(b) == 4 {
		typ = iceberg.PrimitiveTypes.Int32 // written before int was promoted to long
	}
	lit, err := iceberg.LiteralFromBytes(typ, b)
	if err != nil {
		return types.Value{}, false
	}
	return partitionValue(lit.Any())
}

// partitionValue is an identity partition's value (or a decoded bound)
// as a joind value, for the integer-like types.
func partitionValue(v any) (types.Value, bool) {
	switch x := v.(type) {
	case int32:
		return types.Value{I: int64(x)}, true
	case int64:
		return types.Value{I: x}, true
	case iceberg.Date:
		return types.Value{I: int64(x)}, true
	case iceberg.Timestamp:
		return types.Value{I: int64(x)}, true
	}
	return types.Value{}, false
}

func (t *IcebergTable) Name() string                 { return t.name }
func (t *IcebergTable) Columns() []storage.ColumnDef { return t.cols }
func (t *IcebergTable) Units() []storage.Segment     { return t.units }
func (t *IcebergTable) Source() string               { return t.metadata }

// Stats are the written row count (deletes not subtracted) and, where
// every file's manifest entry kept them, the columns' NULL counts.
func (t *IcebergTable) Stats() storage.Stats { return unitsStats(t.rows, len(t.cols), t.units) }

// Snapshot reads every data file in full.
func (t *IcebergTable) Snapshot() []arrow.Record { return readAll(t) }

// presentField is what a read of columns ordinals of data file df adds
// so that it reads at least one column the file has: iceberg-go reads no
// rows from a file that has none of the columns asked for (a count(*), or
// only columns added since the file was written), though the rows are
// there. It adds a column the manifest counts values of, or without such
// metrics every column of the schema.
func (t *IcebergTable) presentField(df iceberg.DataFile, ordinals []int) []string {
	counts := df.ValueCounts()
	for _, o := range ordinals {
		if _, ok := counts[t.fields[o].ID]; ok {
			return nil
		}
	}
	var all []string
	for _, f := range t.schema.Fields() {
		if _, ok := counts[f.ID]; ok {
			return []string{f.Name}
		}
		all = append(all, f.Name)
	}
	return all
}

// ReadUnit reads columns ordinals of data file i, its deletes applied.
func (t *IcebergTable) ReadUnit(ctx context.Context, i int, ordinals []int) ([]arrow.Record, error) {
	return t.readTask(ctx, t.tasks[i], t.units[i].Rows, ordinals)
}

// readTask reads columns ordinals of task's data file (of rows rows), the
// task's deletes applied.
func (t *IcebergTable) readTask(ctx context.Context, task table.FileScanTask, rows int64, ordinals []int) ([]arrow.Record, error) {
	fields := make([]arrow.Field, len(ordinals))
	for k, o := range ordinals {
		fields[k] = arrow.Field{Name: t.cols[o].Name, Type: t.cols[o].Type.ArrowType(), Nullable: true}
	}
	schema := arrow.NewSchema(fields, nil)
	noDeletes := len(task.DeleteFiles) == 0 && len(task.EqualityDeleteFiles) == 0
	if len(ordinals) == 0 && noDeletes {
		// count(*): the manifest's row count is the file's.
		var out []arrow.Record
		for n := rows; n > 0; n -= readBatchRows {
			out = append(out, array.NewRecord(schema, nil, min(n, readBatchRows)))
		}
		return out, nil
	}
	names := make([]string, 0, len(ordinals))
	for _, o := range ordinals {
		names = append(names, t.fields[o].Name)
	}
	names = append(names, t.presentField(task.File, ordinals)...)
	sc := t.tbl.Scan(append([]table.ScanOption{table.WithSelectedFields(names...)}, t.scanOpts...)...)
	defer sc.Close()
	_, it, err := sc.ReadTasks(ctx, []table.FileScanTask{task})
	if err != nil {
		return nil, icebergError(task.File.FilePath(), err)
	}
	var out []arrow.Record
	for in, err := range it {
		if err != nil {
			return nil, icebergError(task.File.FilePath(), err)
		}
		arrs := make([]arrow.Array, len(ordinals))
		for k, o := range ordinals {
			idx := in.Schema().FieldIndices(t.fields[o].Name)
			if len(idx) != 1 {
				in.Release()
				return nil, icebergError(task.File.FilePath(), errors.New("column "+t.fields[o].Name+" missing from the scan"))
			}
			col := in.Column(idx[0])
			src, ok := ParquetSourceType(col.DataType(), t.cols[o].Type)
			if !ok {
				in.Release()
				return nil, pgerr.New(pgerr.FeatureNotSupported, "Iceberg column \"%s\" read as %s, which joind cannot convert", t.cols[o].Name, col.DataType())
			}
			a, err := ConvertParquetColumn(col, src, t.cols[o], nil, nil, "Iceberg column %s")
			if err != nil {
				in.Release()
				return nil, err
			}
			if a == col {
				a.Retain()
			}
			arrs[k] = a
		}
		out = append(out, array.NewRecord(schema, arrs, in.NumRows()))
		for _, a := range arrs {
			a.Release()
		}
		in.Release()
	}
	return out, nil
}
