package sql

import (
	"strconv"
	"strings"
	"time"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/joind/joind/external"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// Foreign tables, contrib file_fdw's way: CREATE EXTENSION file_fdw,
// CREATE SERVER s FOREIGN DATA WRAPPER file_fdw, CREATE FOREIGN TABLE t
// (...) SERVER s OPTIONS (filename '...', format 'csv', ...). The options
// are checked as file_fdw_validator checks them, COPY's through
// copyOptions (the one COPY option check); every scan reads the file as
// COPY FROM would (pgcopy's parser, through OpenCopyFile). format
// 'parquet' is joind's own: the file is read by external.ParquetTable.

// CreateForeignObject is CREATE EXTENSION file_fdw or CREATE SERVER.
type CreateForeignObject struct {
	Object      storage.ForeignObject
	IfNotExists bool
}

// CreateForeignTable is CREATE FOREIGN TABLE: the table (no constraints
// but NOT NULL) and its server and options.
type CreateForeignTable struct {
	Table *CreateTable
	Def   *storage.ForeignTableDef
	// IcebergCreate is the directory of a new Iceberg table to create
	// (iceberg.go): "" attaches the one there.
	IcebergCreate string
}

// DropForeignObject is DROP EXTENSION / DROP SERVER (Kind 'e' / 's').
type DropForeignObject struct {
	Kind     byte
	Names    []string
	IfExists bool
	Cascade  bool
}

// DropForeignTable is DROP FOREIGN TABLE: DROP TABLE's targets, each a
// foreign table.
type DropForeignTable struct {
	DropTable
}

func (*CreateForeignObject) statement() {}
func (*CreateForeignTable) statement()  {}
func (*DropForeignObject) statement()   {}
func (*DropForeignTable) statement()    {}

// OpenCopyFile reads a text or CSV file as COPY FROM x would, as a
// read-only table named name: package pgcopy sets it (pgcopy imports sql),
// so that COPY's one parser reads foreign tables too.
var OpenCopyFile func(x *Copy, path string, f *types.Format, now time.Time) (storage.External, error)

const (
	codeFdwInvalidOption      = "HV00D"
	codeFdwOptionNameNotFound = "HV00J"
	codeFdwInvalidHandle      = "HV002"
)

// fileFdwTableOptions are file_fdw's options of a foreign table, in the
// order its hint lists them.
var fileFdwTableOptions = []string{"filename", "program", "format", "header", "delimiter", "quote", "escape", "null", "encoding"}

// ForeignCatalogOf is cat's foreign objects (nil: a catalog without).
func ForeignCatalogOf(cat storage.Catalog) storage.ForeignCatalog {
	fc, _ := cat.(storage.ForeignCatalog)
	return fc
}

// LookupForeign finds the extension or server of that kind and name.
func LookupForeign(cat storage.Catalog, kind byte, name string) (storage.ForeignObject, bool) {
	if fc := ForeignCatalogOf(cat); fc != nil {
		for _, o := range fc.ForeignObjects() {
			if o.Kind == kind && o.Name == name {
				return o, true
			}
		}
	}
	return storage.ForeignObject{}, false
}

func bindCreateFileFdw(x *pg_query.CreateExtensionStmt) (Statement, error) {
	return &CreateForeignObject{Object: storage.ForeignObject{Kind: 'e', Name: x.Extname}, IfNotExists: x.IfNotExists}, nil
}

func (b *binder) bindCreateServer(x *pg_query.CreateForeignServerStmt) (Statement, error) {
	if _, ok := LookupForeign(b.cat, 'e', x.Fdwname); !ok || (x.Fdwname != "file_fdw" && x.Fdwname != Iceberg) {
		return nil, pgerr.New(pgerr.UndefinedObject, "foreign-data wrapper \"%s\" does not exist", x.Fdwname)
	}
	opts, err := foreignOptions(x.Options)
	if err != nil {
		return nil, err
	}
	if len(opts) > 0 {
		return nil, pgerr.New(codeFdwInvalidOption, "invalid option \"%s\"", opts[0].Name).
			WithHint("There are no valid options in this context.")
	}
	return &CreateForeignObject{Object: storage.ForeignObject{Kind: 's', Name: x.Servername, Wrapper: x.Fdwname}, IfNotExists: x.IfNotExists}, nil
}

// foreignOptions are OPTIONS (...) as written; a name given twice is
// transformGenericOptions' 42710.
func foreignOptions(nodes []*pg_query.Node) ([]storage.ForeignOption, error) {
	var out []storage.ForeignOption
	seen := map[string]bool{}
	for _, n := range nodes {
		d := n.GetDefElem()
		if d == nil {
			continue
		}
		if d.Defaction != pg_query.DefElemAction_DEFELEM_UNSPEC {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "OPTIONS (ADD/SET/DROP ...) is not supported here")
		}
		if seen[d.Defname] {
			return nil, pgerr.New("42710", "option \"%s\" provided more than once", d.Defname)
		}
		seen[d.Defname] = true
		out = append(out, storage.ForeignOption{Name: d.Defname, Value: defElemString(d)})
	}
	return out, nil
}

func (b *binder) bindCreateForeignTable(x *pg_query.CreateForeignTableStmt) (Statement, error) {
	base := x.BaseStmt
	if base == nil {
		return nil, pgerr.New(pgerr.InternalError, "CREATE FOREIGN TABLE without a table")
	}
	if len(base.InhRelations) > 0 || base.Partbound != nil {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "CREATE FOREIGN TABLE ... INHERITS or PARTITION OF is not supported")
	}
	srv, ok := LookupForeign(b.cat, 's', x.Servername)
	if !ok {
		return nil, pgerr.New(pgerr.UndefinedObject, "server \"%s\" does not exist", x.Servername)
	}
	def := &storage.ForeignTableDef{Server: srv.Name}
	var err error
	if def.Options, err = foreignOptions(x.Options); err != nil {
		return nil, err
	}
	var colNames []string
	for _, e := range base.TableElts {
		cd := e.GetColumnDef()
		if cd == nil {
			continue
		}
		colNames = append(colNames, cd.Colname)
		opts, err := foreignOptions(cd.Fdwoptions)
		if err != nil {
			return nil, err
		}
		for _, o := range opts {
			if o.Name != "force_not_null" && o.Name != "force_null" {
				return nil, pgerr.New(codeFdwInvalidOption, "invalid option \"%s\"", o.Name).
					WithHint("Valid options in this context are: force_not_null, force_null")
			}
			if _, err := parseFdwBool(o); err != nil {
				return nil, err
			}
		}
		if len(opts) > 0 {
			cd.Fdwoptions = nil
			if def.ColumnOptions == nil {
				def.ColumnOptions = map[string][]storage.ForeignOption{}
			}
			def.ColumnOptions[cd.Colname] = opts
		}
	}
	var icebergCols []storage.ColumnDef
	create := ""
	if srv.Wrapper == Iceberg { // iceberg.go
		if err := checkIcebergOptions(def.Options); err != nil {
			return nil, err
		}
		if len(def.ColumnOptions) > 0 {
			return nil, pgerr.New(codeFdwInvalidOption, "invalid option \"force_not_null\"").
				WithHint("There are no valid options in this context.")
		}
		if len(colNames) == 0 {
			if icebergCols, err = b.icebergColumns(def.Options); err != nil {
				return nil, err
			}
		} else if create, err = b.icebergCreate(def.Options); err != nil {
			return nil, err
		}
		if create == "" && IcebergPartitionBy(def.Options) != "" {
			return nil, pgerr.New(codeFdwInvalidOption, "option \"partition_by\" applies only to a table CREATE FOREIGN TABLE creates").
				WithHint("The Iceberg table at this location exists; its partition spec is its own.")
		}
	} else if _, err := b.foreignCopy(&storage.ForeignTableDef{Server: def.Server, Options: def.Options}, colNames); err != nil {
		// The column options are checked at scan time, as file_fdw's
		// validator leaves them to COPY.
		return nil, err
	}
	st, err := b.bindCreateTable(base)
	if err != nil {
		return nil, err
	}
	ct, ok := st.(*CreateTable)
	if !ok {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "CREATE FOREIGN TABLE of this form is not supported")
	}
	if ct.Temp {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "foreign tables cannot be temporary")
	}
	for _, c := range ct.Constraints {
		if c.Kind != storage.ConCheck {
			return nil, pgerr.New(pgerr.WrongObjectType, "primary key, unique and foreign key constraints are not supported on foreign tables")
		}
	}
	if len(ct.Sequences) > 0 {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "serial and identity columns are not supported on foreign tables")
	}
	if icebergCols != nil {
		ct.Columns = icebergCols
	}
	return &CreateForeignTable{Table: ct, Def: def, IcebergCreate: create}, nil
}

func parseFdwBool(o storage.ForeignOption) (bool, error) {
	switch strings.ToLower(o.Value) {
	case "true", "on", "yes", "1", "t", "y":
		return true, nil
	case "false", "off", "no", "0", "f", "n":
		return false, nil
	}
	return false, pgerr.New(pgerr.SyntaxError, "%s requires a Boolean value", o.Name)
}

// foreignCopy checks def's options as file_fdw_validator does and gives
// the COPY FROM its scans are; the filename is the Copy's Filename.
func (b *binder) foreignCopy(def *storage.ForeignTableDef, cols []string) (*Copy, error) {
	c := &Copy{From: true, Format: "text"}
	var copyOpts []*pg_query.Node
	var program bool
	for _, o := range def.Options {
		valid := false
		for _, v := range fileFdwTableOptions {
			valid = valid || v == o.Name
		}
		if !valid {
			return nil, pgerr.New(codeFdwInvalidOption, "invalid option \"%s\"", o.Name).
				WithHint("Valid options in this context are: %s", strings.Join(fileFdwTableOptions, ", "))
		}
		switch o.Name {
		case "filename", "program":
			if c.Filename != "" || program {
				return nil, pgerr.New(pgerr.SyntaxError, "conflicting or redundant options")
			}
			if o.Name == "program" {
				program = true
			} else {
				c.Filename = o.Value
			}
			continue
		}
		copyOpts = append(copyOpts, stringDefElem(o.Name, o.Value))
	}
	force := map[string][]*pg_query.Node{}
	for _, name := range cols {
		for _, o := range def.ColumnOptions[name] {
			if on, _ := parseFdwBool(o); on {
				force[o.Name] = append(force[o.Name], pg_query.MakeStrNode(name))
			}
		}
	}
	for _, k := range []string{"force_not_null", "force_null"} {
		if len(force[k]) > 0 {
			copyOpts = append(copyOpts, pg_query.MakeSimpleDefElemNode(k, pg_query.MakeListNode(force[k]), -1))
		}
	}
	if err := b.copyOptions(c, copyOpts, cols); err != nil {
		return nil, pgerr.As(err).WithPosition(0)
	}
	if c.Filename == "" && !program {
		return nil, pgerr.New(codeFdwInvalidHandle, "either filename or program is required for file_fdw foreign tables")
	}
	if program {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "file_fdw's program option is not supported by joind").
			WithHint("Name a file under copy_dirs with the filename option.")
	}
	return c, nil
}

func stringDefElem(name, value string) *pg_query.Node {
	return pg_query.MakeSimpleDefElemNode(name, pg_query.MakeStrNode(value), -1)
}

// foreignScanTable is what a scan of tbl reads: tbl itself, or for a
// foreign table the file its options name, read now for its layout
// (Parquet's footer) and at scan time for its rows.
func (b *binder) foreignScanTable(tbl storage.Table) (storage.Table, error) {
	def := storage.ForeignDefOf(tbl)
	if def == nil {
		return tbl, nil
	}
	if IsIcebergServer(b.cat, def.Server) {
		return b.icebergScanTable(tbl, def) // iceberg.go
	}
	defs := tbl.Columns()
	names := make([]string, len(defs))
	for i, d := range defs {
		names[i] = d.Name
	}
	c, err := b.foreignCopy(def, names)
	if err != nil {
		return nil, err
	}
	dirs := b.fileDirs() // iceberg.go
	name := storage.BareName(tbl.Name())
	if c.Format == "parquet" {
		// As read_parquet: a file, or every file a pattern matches.
		paths, err := external.ResolvePattern(dirs, c.Filename)
		if err != nil {
			return nil, err
		}
		source := paths[0]
		if len(paths) > 1 {
			source = c.Filename + " (" + strconv.Itoa(len(paths)) + " files)"
		}
		pt, err := external.OpenParquet(source, paths)
		if err != nil {
			return nil, err
		}
		return external.Rename(pt, name, defs)
	}
	path, err := external.ResolvePath(dirs, c.Filename)
	if err != nil {
		return nil, err
	}
	if OpenCopyFile == nil {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "foreign tables cannot be read here (no COPY reader linked)")
	}
	c.Table = tbl
	for i := range defs {
		c.Columns = append(c.Columns, i)
	}
	f := &types.Format{}
	now := time.Now()
	if b.opts != nil && b.opts.EvalContext != nil {
		if b.opts.EvalContext.Format != nil {
			f = b.opts.EvalContext.Format
		}
		if !b.opts.EvalContext.Now.IsZero() {
			now = b.opts.EvalContext.Now
		}
	}
	return OpenCopyFile(c, path, f, now)
}

func (b *binder) bindDropForeign(ds *pg_query.DropStmt) (Statement, error) {
	out := &DropForeignObject{Kind: 's', IfExists: ds.MissingOk, Cascade: ds.Behavior == pg_query.DropBehavior_DROP_CASCADE}
	if ds.RemoveType == pg_query.ObjectType_OBJECT_EXTENSION {
		out.Kind = 'e'
	}
	for _, o := range ds.Objects {
		out.Names = append(out.Names, o.GetString_().GetSval())
	}
	return out, nil
}

// foreignWriteErr is CheckValidResultRel's error for a write (what:
// "insert", "update", "delete", "merge") to a foreign table, and
// PostgreSQL's for TRUNCATE, COPY TO and CREATE INDEX ("truncate", "copy
// to", "index"); nil when tbl is not one.
func foreignWriteErr(tbl storage.Table, what string) error {
	if storage.ForeignDefOf(tbl) == nil {
		return nil
	}
	name := storage.BareName(tbl.Name())
	switch what {
	case "insert":
		return pgerr.New(pgerr.FeatureNotSupported, "cannot insert into foreign table \"%s\"", name)
	case "update":
		return pgerr.New(pgerr.FeatureNotSupported, "cannot update foreign table \"%s\"", name)
	case "delete":
		return pgerr.New(pgerr.FeatureNotSupported, "cannot delete from foreign table \"%s\"", name)
	case "truncate":
		return pgerr.New(pgerr.FeatureNotSupported, "cannot truncate foreign table \"%s\"", name)
	case "copy to":
		return pgerr.New(pgerr.WrongObjectType, "cannot copy from foreign table \"%s\"", name).
			WithHint("Try the COPY (SELECT ...) TO variant.")
	case "index":
		return pgerr.New(pgerr.WrongObjectType, "cannot create index on relation \"%s\"", name).
			WithDetail("This operation is not supported for foreign tables.")
	}
	return pgerr.New(pgerr.FeatureNotSupported, "cannot execute MERGE on relation \"%s\"", name).
		WithDetail("This operation is not supported for foreign tables.")
}

// SetForeignOptions is ALTER FOREIGN TABLE's OPTIONS (ADD/SET/DROP ...),
// of the table or of a column: the table's new foreign definition.
type SetForeignOptions struct {
	Def *storage.ForeignTableDef
}

func (*SetForeignOptions) alterStep() {}

// alterForeignOptions applies OPTIONS (...) as transformGenericOptions
// does and checks the result as file_fdw's validator does.
func (b *binder) alterForeignOptions(tbl storage.Table, c *pg_query.AlterTableCmd) (AlterStep, error) {
	old := storage.ForeignDefOf(tbl)
	if old == nil {
		return nil, pgerr.New(pgerr.WrongObjectType, "\"%s\" is not a foreign table", storage.BareName(tbl.Name()))
	}
	def := &storage.ForeignTableDef{Server: old.Server, Options: old.Options, ColumnOptions: map[string][]storage.ForeignOption{}}
	for k, v := range old.ColumnOptions {
		def.ColumnOptions[k] = v
	}
	cur := &def.Options
	var colOpts []storage.ForeignOption
	if c.Subtype == pg_query.AlterTableType_AT_AlterColumnGenericOptions {
		if _, ok := columnIndex(tbl, c.Name); !ok {
			return nil, pgerr.New(pgerr.UndefinedColumn, "column \"%s\" of relation \"%s\" does not exist", c.Name, storage.BareName(tbl.Name()))
		}
		colOpts = def.ColumnOptions[c.Name]
		cur = &colOpts
	}
	opts := append([]storage.ForeignOption(nil), (*cur)...)
	find := func(name string) int {
		for i, o := range opts {
			if o.Name == name {
				return i
			}
		}
		return -1
	}
	for _, n := range c.Def.GetList().GetItems() {
		d := n.GetDefElem()
		if d == nil {
			continue
		}
		i := find(d.Defname)
		switch d.Defaction {
		case pg_query.DefElemAction_DEFELEM_SET:
			if i < 0 {
				return nil, pgerr.New(pgerr.UndefinedObject, "option \"%s\" not found", d.Defname)
			}
			opts[i].Value = defElemString(d)
		case pg_query.DefElemAction_DEFELEM_DROP:
			if i < 0 {
				return nil, pgerr.New(pgerr.UndefinedObject, "option \"%s\" not found", d.Defname)
			}
			opts = append(opts[:i:i], opts[i+1:]...)
		default:
			if i >= 0 {
				return nil, pgerr.New("42710", "option \"%s\" provided more than once", d.Defname)
			}
			opts = append(opts, storage.ForeignOption{Name: d.Defname, Value: defElemString(d)})
		}
	}
	if c.Subtype == pg_query.AlterTableType_AT_AlterColumnGenericOptions {
		for _, o := range opts {
			if o.Name != "force_not_null" && o.Name != "force_null" {
				return nil, pgerr.New(codeFdwInvalidOption, "invalid option \"%s\"", o.Name).
					WithHint("Valid options in this context are: force_not_null, force_null")
			}
			if _, err := parseFdwBool(o); err != nil {
				return nil, err
			}
		}
		if len(opts) == 0 {
			delete(def.ColumnOptions, c.Name)
		} else {
			def.ColumnOptions[c.Name] = opts
		}
	} else {
		def.Options = opts
		var names []string
		for _, d := range tbl.Columns() {
			names = append(names, d.Name)
		}
		if IsIcebergServer(b.cat, def.Server) {
			if err := checkIcebergOptions(def.Options); err != nil {
				return nil, err
			}
		} else if _, err := b.foreignCopy(&storage.ForeignTableDef{Server: def.Server, Options: def.Options}, names); err != nil {
			return nil, err
		}
	}
	if len(def.ColumnOptions) == 0 {
		def.ColumnOptions = nil
	}
	return &SetForeignOptions{Def: def}, nil
}
