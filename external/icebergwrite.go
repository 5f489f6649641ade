package external

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/iceberg-go"
	icebergio "github.com/apache/iceberg-go/io"
	"github.com/apache/iceberg-go/table"
	"github.com/google/uuid"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// Appends to an Iceberg table (INSERT into an Iceberg foreign table).
// iceberg-go writes the Parquet data files, the manifest, the manifest
// list and the snapshot; the commit is joind's: the new metadata file is
// written under a name no directory reader takes for a version
// (NNNNN-joind-<uuid>.metadata.json) and becomes the table's current
// state only when joind's transaction commits the foreign table's
// metadata_file option naming it (sql.IcebergMetadataOption). Every file
// is fsynced (and its directory) before the append returns, so a commit
// of joind's never names a file a crash can lose; a crash or ROLLBACK
// before it leaves unreferenced files and the table as it was.

// syncFS is the local file system, every file written fsynced on close.
type syncFS struct{ icebergio.LocalFS }

// syncFile fsyncs the file and its directory as it closes.
type syncFile struct{ *os.File }

func (f syncFile) Close() error {
	if err := f.File.Sync(); err != nil {
		f.File.Close()
		return err
	}
	if err := f.File.Close(); err != nil {
		return err
	}
	return syncDir(filepath.Dir(f.File.Name()))
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

func (s syncFS) Create(name string) (icebergio.FileWriter, error) {
	w, err := s.LocalFS.Create(name)
	if err != nil {
		return nil, err
	}
	if f, ok := w.(*os.File); ok {
		return syncFile{f}, nil
	}
	return w, nil
}

func (s syncFS) WriteFile(name string, p []byte) error {
	w, err := s.Create(name)
	if err != nil {
		return err
	}
	if _, err := w.Write(p); err != nil {
		w.Close()
		return err
	}
	return w.Close()
}

// stagingCatalog is the catalog iceberg-go commits an append through: it
// checks the commit's requirements against the metadata the append
// started from and writes the new metadata file, which joind's commit
// then publishes.
type stagingCatalog struct {
	base      table.Metadata
	dir       string // the metadata directory
	committed string // the metadata file written
}

func (c *stagingCatalog) LoadTable(context.Context, table.Identifier) (*table.Table, error) {
	return nil, errors.New("the Iceberg table changed during the append")
}

func (c *stagingCatalog) CommitTable(ctx context.Context, ident table.Identifier, reqs []table.Requirement, updates []table.Update) (table.Metadata, string, error) {
	for _, r := range reqs {
		if err := r.Validate(c.base); err != nil {
			return nil, "", err
		}
	}
	n := 1
	for range c.base.PreviousFiles() {
		n++
	}
	loc := JoinLocation(c.dir, fmt.Sprintf("%05d-joind-%s.metadata.json", n, uuid.New()))
	meta, err := table.UpdateTableMetadata(c.base, updates, loc)
	if err != nil {
		return nil, "", err
	}
	data, err := json.Marshal(meta)
	if err != nil {
		return nil, "", err
	}
	if err := writeLocation(ctx, loc, data); err != nil {
		return nil, "", err
	}
	c.committed = loc
	return meta, loc, nil
}

// AppendIceberg appends recs (rows of the foreign table's columns cols)
// to the Iceberg table whose current metadata file is path, as one new
// snapshot, and returns the metadata file that describes it. A column of
// the table's schema the foreign table lacks is NULL; the table's data
// directory must be under copy_dirs.
func AppendIceberg(ctx context.Context, dirs []string, path string, cols []storage.ColumnDef, recs []arrow.Record) (string, error) {
	tbl, cat, err := openIcebergWrite(ctx, dirs, path)
	if err != nil {
		return "", err
	}
	rec, err := icebergRows(ctx, tbl, false, cols, recs)
	if err != nil {
		return "", err
	}
	defer rec.Release()
	at := array.NewTableFromRecords(rec.Schema(), []arrow.Record{rec})
	defer at.Release()
	txn := tbl.NewTransaction()
	if err := txn.AppendTable(ctx, at, max(rec.NumRows(), 1), nil); err != nil {
		return "", icebergError(path, err)
	}
	return commitIceberg(ctx, path, txn, cat)
}

// openIcebergWrite loads the Iceberg table whose current metadata file is
// path for a write committed through a staging catalog; its data
// directory must be under copy_dirs.
func openIcebergWrite(ctx context.Context, dirs []string, path string) (*table.Table, *stagingCatalog, error) {
	cat := &stagingCatalog{dir: LocationDir(path)}
	tbl, err := table.NewFromLocation(ctx, table.Identifier{"joind", LocationBase(path)}, path, locationFS(path), cat)
	if err != nil {
		return nil, nil, icebergError(path, err)
	}
	cat.base = tbl.Metadata()
	if err := CheckIcebergLocation(tbl.Location()); err != nil {
		return nil, nil, err
	}
	if _, err := ResolveLocation(dirs, JoinLocation(strings.TrimPrefix(tbl.Location(), "file://"), "data")); err != nil {
		return nil, nil, err
	}
	return tbl, cat, nil
}

// commitIceberg commits txn through cat and returns the metadata file it
// wrote (which joind's commit then publishes).
func commitIceberg(ctx context.Context, path string, txn *table.Transaction, cat *stagingCatalog) (string, error) {
	if _, err := txn.Commit(ctx); err != nil {
		return "", icebergError(path, err)
	}
	if cat.committed == "" {
		return "", pgerr.New(pgerr.InternalError, "Iceberg write to \"%s\" committed no metadata", path)
	}
	return cat.committed, nil
}

// icebergRows is recs (rows of the foreign table's columns cols) as one
// record of tbl's current schema (its Arrow schema, with field IDs when
// fieldIDs): a column of the schema the foreign table lacks is NULL, a
// NULL in a required field 23502.
func icebergRows(ctx context.Context, tbl *table.Table, fieldIDs bool, cols []storage.ColumnDef, recs []arrow.Record) (arrow.Record, error) {
	asch, err := table.SchemaToArrowSchema(tbl.Schema(), nil, fieldIDs, false)
	if err != nil {
		return nil, icebergError(tbl.MetadataLocation(), err)
	}
	var total int64
	for _, r := range recs {
		total += r.NumRows()
	}
	arrs := make([]arrow.Array, asch.NumFields())
	defer func() {
		for _, a := range arrs {
			if a != nil {
				a.Release()
			}
		}
	}()
	for i, f := range asch.Fields() {
		k := -1
		for j, c := range cols {
			if c.Name == f.Name {
				k = j
			}
		}
		var a arrow.Array
		if k < 0 {
			a = array.MakeArrayOfNull(memory.DefaultAllocator, f.Type, int(total))
		} else if a, err = icebergColumn(ctx, recs, k, f.Type); err != nil {
			return nil, err
		}
		arrs[i] = a
		if !f.Nullable && a.NullN() > 0 {
			return nil, pgerr.New(pgerr.NotNullViolation, "null value in column \"%s\" violates the Iceberg table's required field", f.Name)
		}
	}
	return array.NewRecord(asch, arrs, total), nil
}

// icebergColumn is column k of recs as one array of the Iceberg field's
// Arrow type.
func icebergColumn(ctx context.Context, recs []arrow.Record, k int, want arrow.DataType) (arrow.Array, error) {
	parts := make([]arrow.Array, 0, len(recs))
	for _, r := range recs {
		parts = append(parts, r.Column(k))
	}
	var a arrow.Array
	var err error
	if len(parts) == 1 {
		a = parts[0]
		a.Retain()
	} else if a, err = array.Concatenate(parts, memory.DefaultAllocator); err != nil {
		return nil, pgerr.Wrap(err, pgerr.InternalError, "concatenating rows for Iceberg: %v", err)
	}
	if arrow.TypeEqual(a.DataType(), want) {
		return a, nil
	}
	defer a.Release()
	if out, ok := widenDecimal(a, want); ok {
		return out, nil
	}
	out, err := compute.CastArray(ctx, a, compute.SafeCastOptions(want))
	if err != nil {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "cannot write %s values as the Iceberg type %s: %v", a.DataType(), want, err)
	}
	return out, nil
}

// icebergType is the Iceberg type a joind column of type t is stored as.
func icebergType(t types.Type) (iceberg.Type, bool) {
	switch t.ID {
	case types.Bool:
		return iceberg.PrimitiveTypes.Bool, true
	case types.Int4:
		return iceberg.PrimitiveTypes.Int32, true
	case types.Int8:
		return iceberg.PrimitiveTypes.Int64, true
	case types.Float4:
		return iceberg.PrimitiveTypes.Float32, true
	case types.Float8:
		return iceberg.PrimitiveTypes.Float64, true
	case types.Text:
		return iceberg.PrimitiveTypes.String, true
	case types.Bytea:
		return iceberg.PrimitiveTypes.Binary, true
	case types.Date:
		return iceberg.PrimitiveTypes.Date, true
	case types.Timestamp:
		return iceberg.PrimitiveTypes.Timestamp, true
	case types.TimestampTZ:
		return iceberg.PrimitiveTypes.TimestampTz, true
	case types.Numeric:
		if p, s, ok := types.NumericPrecScale(t.Typmod); ok && p <= 38 {
			return iceberg.DecimalTypeOf(p, s), true
		}
	}
	return nil, false
}

// CreateIceberg creates an empty Iceberg (format v2) table
// of columns cols at location dir (a directory or an object prefix,
// resolved under copy_dirs), in the
// Hadoop layout every Iceberg reader takes: metadata/v1.metadata.json and
// version-hint.text; partitionBy is its partition spec, the partition_by
// option (ParsePartitionBy: columns and transforms of them). A type Iceberg has no equal of
// (smallint among them: it would read back as integer) is 0A000.
func CreateIceberg(dir string, cols []storage.ColumnDef, partitionBy string) error {
	fields := make([]iceberg.NestedField, len(cols))
	for i, c := range cols {
		if c.Type.ID == types.Int2 {
			return pgerr.New(pgerr.FeatureNotSupported, "column \"%s\": Iceberg has no smallint; declare it integer", c.Name)
		}
		it, ok := icebergType(c.Type)
		if !ok {
			return pgerr.New(pgerr.FeatureNotSupported, "column \"%s\" of type %s cannot be stored in an Iceberg table", c.Name, c.Type.SQLName())
		}
		fields[i] = iceberg.NestedField{ID: i + 1, Name: c.Name, Type: it, Required: c.NotNull}
	}
	spec := iceberg.UnpartitionedSpec
	if partitionBy != "" {
		terms, err := ParsePartitionBy(partitionBy)
		if err != nil {
			return err
		}
		s, err := partitionSpec(terms, cols, fields)
		if err != nil {
			return err
		}
		spec = &s
	}
	meta, err := table.NewMetadata(iceberg.NewSchema(0, fields...), spec, table.UnsortedSortOrder, dir,
		iceberg.Properties{"format-version": "2"})
	if err != nil && partitionBy != "" {
		// iceberg-go's validation of the spec: redundant transforms of
		// one column (day and hour), ...
		return pgerr.New(pgerr.InvalidParameterValue, "invalid value for option \"partition_by\": %v", err)
	}
	if err != nil {
		return icebergError(dir, err)
	}
	data, err := json.Marshal(meta)
	if err != nil {
		return icebergError(dir, err)
	}
	// version-hint.text last: until it is there, the directory holds no table.
	md := JoinLocation(dir, "metadata")
	ctx := context.Background()
	if err := writeLocation(ctx, JoinLocation(md, "v1.metadata.json"), data); err != nil {
		return err
	}
	if err := writeLocation(ctx, JoinLocation(md, "version-hint.text"), []byte("1")); err != nil {
		return err
	}
	if IsObjectURI(dir) {
		return nil
	}
	return syncDir(dir)
}

// widenDecimal is a decimal32/decimal64 array (joind's numeric(p,s) of
// few digits) as the decimal128 Iceberg's Arrow schema has, which arrow's
// cast kernels do not convert to.
func widenDecimal(a arrow.Array, want arrow.DataType) (arrow.Array, bool) {
	wt, ok := want.(*arrow.Decimal128Type)
	if !ok {
		return nil, false
	}
	var at func(i int) int64
	switch x := a.(type) {
	case *array.Decimal64:
		at = func(i int) int64 { return int64(x.Value(i)) }
	case *array.Decimal32:
		at = func(i int) int64 { return int64(x.Value(i)) }
	default:
		return nil, false
	}
	if a.DataType().(arrow.DecimalType).GetScale() != wt.Scale {
		return nil, false
	}
	b := array.NewDecimal128Builder(memory.DefaultAllocator, wt)
	defer b.Release()
	for i := 0; i < a.Len(); i++ {
		if a.IsNull(i) {
			b.AppendNull()
		} else {
			b.Append(decimal128.FromI64(at(i)))
		}
	}
	return b.NewArray(), true
}
