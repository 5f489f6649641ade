package sql

import (
	"context"
	"strconv"
	"strings"

	"github.com/joind/joind/external"
	"github.com/joind/joind/pgcatalog"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/storage"
)

// Apache Iceberg tables as foreign tables (docs/iceberg.md): CREATE
// EXTENSION iceberg brings the wrapper of that name, CREATE SERVER s
// FOREIGN DATA WRAPPER iceberg a server, and CREATE FOREIGN TABLE t
// [(columns) | ()] SERVER s OPTIONS (location 'dir or metadata file')
// attaches a table; with no columns, t takes the current schema's. A scan
// reads the table's current snapshot (external.IcebergTable); INSERT
// appends a snapshot (commands/iceberg.go).

// Iceberg is the name of joind's Iceberg extension and its wrapper.
const Iceberg = "iceberg"

// IcebergMetadataOption is the option naming the metadata file joind's
// own appends committed: once set, it (not the directory's newest
// version) is the table's current state.
const IcebergMetadataOption = "metadata_file"

// icebergTableOptions are an Iceberg foreign table's options.
var icebergTableOptions = []string{"location", IcebergMetadataOption, IcebergSnapshotOption, IcebergPartitionOption}

// IcebergPartitionOption is the partition spec of a table joind creates:
// comma-separated columns and transforms of them (external.ParsePartitionBy).
const IcebergPartitionOption = "partition_by"

// IcebergPartitionBy is the partition_by option's value ("": none).
func IcebergPartitionBy(opts []storage.ForeignOption) string {
	for _, o := range opts {
		if o.Name == IcebergPartitionOption {
			return o.Value
		}
	}
	return ""
}

// IcebergSnapshotOption names the snapshot a foreign table reads (time
// travel): it is read-only then.
const IcebergSnapshotOption = "snapshot_id"

// IcebergSnapshotID is the snapshot_id option's value (0: none).
func IcebergSnapshotID(opts []storage.ForeignOption) (int64, error) {
	for _, o := range opts {
		if o.Name == IcebergSnapshotOption {
			n, err := strconv.ParseInt(o.Value, 10, 64)
			if err != nil || n == 0 {
				return 0, pgerr.New(pgerr.InvalidParameterValue, "invalid value for option \"snapshot_id\": \"%s\"", o.Value)
			}
			return n, nil
		}
	}
	return 0, nil
}

// IsIcebergServer reports whether server name is an Iceberg server.
func IsIcebergServer(cat storage.Catalog, name string) bool {
	srv, ok := LookupForeign(cat, 's', name)
	return ok && srv.Wrapper == Iceberg
}

// checkIcebergOptions checks an Iceberg foreign table's options as a
// validator would: known names, location given.
func checkIcebergOptions(opts []storage.ForeignOption) error {
	loc := false
	for _, o := range opts {
		valid := false
		for _, v := range icebergTableOptions {
			valid = valid || v == o.Name
		}
		if !valid {
			return pgerr.New(codeFdwInvalidOption, "invalid option \"%s\"", o.Name).
				WithHint("Valid options in this context are: %s", strings.Join(icebergTableOptions, ", "))
		}
		loc = loc || o.Name == "location"
	}
	if _, err := IcebergSnapshotID(opts); err != nil {
		return err
	}
	if !loc {
		return pgerr.New(codeFdwInvalidHandle, "location is required for iceberg foreign tables")
	}
	return nil
}

// IcebergMetadataPath is the metadata file an Iceberg foreign table of
// options opts reads now: the one joind last committed, else the newest
// of its location.
func IcebergMetadataPath(dirs []string, opts []storage.ForeignOption) (string, error) {
	loc, meta := icebergOptions(opts)
	if meta != "" {
		return external.ResolveLocation(dirs, meta)
	}
	return external.IcebergMetadataFile(dirs, loc)
}

func icebergOptions(opts []storage.ForeignOption) (location, metadataFile string) {
	for _, o := range opts {
		switch o.Name {
		case "location":
			location = o.Value
		case IcebergMetadataOption:
			metadataFile = o.Value
		}
	}
	return location, metadataFile
}

// IcebergHolder is the foreign table whose metadata_file is the current
// state of the Iceberg table tbl reads, and tbl's definition as it is to
// be read: several foreign tables may follow one table directory, and
// joind's appends through any of them move one pointer, kept on the
// first of them (by OID) that has one, else on tbl. A table attached at
// a metadata file is its own holder.
func IcebergHolder(cat storage.Catalog, dirs []string, tbl storage.Table) (storage.Table, *storage.ForeignTableDef, error) {
	def := storage.ForeignDefOf(tbl)
	loc, meta := icebergOptions(def.Options)
	if id, _ := IcebergSnapshotID(def.Options); meta != "" || id != 0 || strings.HasSuffix(loc, ".json") {
		return tbl, def, nil
	}
	key, err := external.ResolveLocation(dirs, loc)
	if err != nil {
		return nil, nil, err
	}
	var holder storage.Table
	var hdef *storage.ForeignTableDef
	for _, t := range cat.Tables() {
		d := storage.ForeignDefOf(t)
		if d == nil || !IsIcebergServer(cat, d.Server) {
			continue
		}
		l, m := icebergOptions(d.Options)
		if m == "" || strings.HasSuffix(l, ".json") {
			continue
		}
		if k, err := external.ResolveLocation(dirs, l); err != nil || k != key {
			continue
		}
		if holder == nil || pgcatalog.RelationOID(t) < pgcatalog.RelationOID(holder) {
			holder, hdef = t, d
		}
	}
	if holder == nil {
		return tbl, def, nil
	}
	return holder, hdef, nil
}

// fileDirs are the session's copy_dirs, which server-side files must be
// under.
func (b *binder) fileDirs() []string {
	if b.opts != nil && b.opts.Session != nil {
		return b.opts.Session.FileDirs
	}
	return nil
}

// icebergColumns are the columns of the Iceberg table opts name, for a
// CREATE FOREIGN TABLE that lists none.
func (b *binder) icebergColumns(opts []storage.ForeignOption) ([]storage.ColumnDef, error) {
	path, err := IcebergMetadataPath(b.fileDirs(), opts)
	if err != nil {
		return nil, err
	}
	tbl, err := external.LoadIceberg(context.Background(), path)
	if err != nil {
		return nil, err
	}
	id, err := IcebergSnapshotID(opts)
	if err != nil {
		return nil, err
	}
	_, schema, err := external.IcebergSnapshot(tbl, id)
	if err != nil {
		return nil, err
	}
	cols, _, err := external.IcebergColumns(schema)
	return cols, err
}

// icebergScanTable is the snapshot of Iceberg foreign table tbl a scan
// reads.
func (b *binder) icebergScanTable(tbl storage.Table, def *storage.ForeignTableDef) (storage.Table, error) {
	dirs := b.fileDirs()
	_, hdef, err := IcebergHolder(b.cat, dirs, tbl)
	if err != nil {
		return nil, err
	}
	path, err := IcebergMetadataPath(dirs, hdef.Options)
	if err != nil {
		return nil, err
	}
	id, err := IcebergSnapshotID(def.Options)
	if err != nil {
		return nil, err
	}
	return external.OpenIceberg(context.Background(), dirs, path, storage.BareName(tbl.Name()), tbl.Columns(), id)
}

// IcebergAppend is an INSERT's append to an Iceberg foreign table: the
// copy_dirs its files must be under. The metadata file appended to is
// looked up as the INSERT runs (the transaction's current one).
type IcebergAppend struct {
	Dirs []string
}

// icebergAppend is the append an INSERT into tbl is, nil when tbl is not
// an Iceberg foreign table.
func (b *binder) icebergAppend(tbl storage.Table) *IcebergAppend {
	def := storage.ForeignDefOf(tbl)
	if def == nil || !IsIcebergServer(b.cat, def.Server) {
		return nil
	}
	return &IcebergAppend{Dirs: b.fileDirs()}
}

// errIcebergOnConflict refuses ON CONFLICT, which needs keys an Iceberg
// table has none of.
func errIcebergOnConflict(tbl storage.Table) error {
	return pgerr.New(pgerr.FeatureNotSupported, "INSERT ... ON CONFLICT into the Iceberg table \"%s\" is not supported", storage.BareName(tbl.Name()))
}

// icebergCreate is the directory a CREATE FOREIGN TABLE of declared
// columns creates its Iceberg table in: its location when nothing is
// there yet ("" when a table is there to attach).
func (b *binder) icebergCreate(opts []storage.ForeignOption) (string, error) {
	for _, o := range opts {
		if o.Name == IcebergMetadataOption {
			return "", nil
		}
	}
	for _, o := range opts {
		if o.Name == "location" {
			if err := external.CheckIcebergLocation(o.Value); err != nil {
				return "", err
			}
			p, err := external.ResolveLocation(b.fileDirs(), o.Value)
			if err != nil {
				return "", err
			}
			if ok, err := external.LocationExists(context.Background(), p); err != nil {
				return "", err
			} else if !ok {
				return p, nil
			}
		}
	}
	return "", nil
}

// isIcebergTable reports whether tbl is an Iceberg foreign table.
func (b *binder) isIcebergTable(tbl storage.Table) bool {
	def := storage.ForeignDefOf(tbl)
	return def != nil && IsIcebergServer(b.cat, def.Server)
}

// IcebergChange is a DELETE's or UPDATE's change to an Iceberg foreign
// table (merge-on-read: position deletes, and UPDATE's new rows): the
// snapshot the statement's scan read, whose RowIDs name its rows, and
// the copy_dirs its files must be under.
type IcebergChange struct {
	Dirs    []string
	Scanned *external.IcebergTable
}

// icebergChange is the change a DELETE or UPDATE (what) of Iceberg
// foreign table tbl makes, scan the snapshot its scan reads.
func (b *binder) icebergChange(tbl, scan storage.Table, what string) (*IcebergChange, error) {
	it, ok := scan.(*external.IcebergTable)
	if !ok {
		return nil, foreignWriteErr(tbl, what)
	}
	if id, _ := IcebergSnapshotID(storage.ForeignDefOf(tbl).Options); id != 0 {
		verb := what
		if what == "delete" {
			verb = "delete from"
		}
		return nil, pgerr.New(pgerr.FeatureNotSupported, "cannot %s foreign table \"%s\": it reads Iceberg snapshot %d", verb, storage.BareName(tbl.Name()), id).
			WithHint("Write through a foreign table without the snapshot_id option.")
	}
	return &IcebergChange{Dirs: b.fileDirs(), Scanned: it}, nil
}
