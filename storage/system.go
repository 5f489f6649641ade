package storage

import (
	"hash/fnv"
	"sort"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/joind/joind/settings"
	"github.com/joind/joind/types"
)

// System catalogs. Clients (psql's \d, JDBC/ODBC metadata, BI tools) read
// pg_catalog and information_schema; joind has no such tables on disk, so
// each is a read-only Table computed on the fly from a Catalog when a
// statement looks it up. Columns of PostgreSQL types joind lacks are
// approximated: oid/regproc-like ids are int8, name and "char" are text,
// arrays and pg_node_tree are text (NULL unless stated).

// Well-known object ids, as PostgreSQL 15 assigns them.
const (
	OIDNamespacePgToast    = 99
	OIDNamespacePgCatalog  = 11
	OIDNamespacePublic     = 2200
	OIDNamespaceInfoSchema = 13207
	// The session's temporary schema and its toast schema. PostgreSQL
	// numbers them by backend slot (pg_temp_3 for the first client of a
	// quiet cluster); joind gives every session the same.
	OIDNamespaceTemp      = 1<<31 - 1
	OIDNamespaceToastTemp = 1<<31 - 2
	OIDBootstrapUser      = 10   // the session user owns everything
	OIDDatabaseOwnerRole  = 6171 // pg_database_owner, owner of public
	OIDDatabase           = 5
	OIDAmHeap             = 2
	OIDAmBtree            = 403
	OIDAmHash             = 405
	OIDCollationDefault   = 100
	OIDCollationC         = 950
	OIDCollationPOSIX     = 951
	OIDTablespaceDefault  = 1663
	OIDTablespaceGlobal   = 1664
	// FirstUserOID is PostgreSQL's FirstNormalObjectId: user relations
	// get OIDs from here.
	FirstUserOID = 16384
)

// SystemEnv is what the system catalogs need from the session.
type SystemEnv struct {
	User     string // session user: owner of every object
	Database string // current database name
	// Settings lists the session's settings (nil: pg_settings is empty).
	Settings func() []settings.Row
	// FormatDefault renders a stored DEFAULT text as pg_get_expr shows it
	// for a column of type t (nil: the text unchanged).
	FormatDefault func(def string, t types.Type) string
	// ViewColumns gives a view's column definitions (nil or an error:
	// the view is listed without columns).
	ViewColumns func(v View) ([]ColumnDef, error)
}

func (e *SystemEnv) user() string {
	if e == nil || e.User == "" {
		return "joind"
	}
	return e.User
}

func (e *SystemEnv) database() string {
	if e == nil || e.Database == "" {
		return "joind"
	}
	return e.Database
}

// tableOID is implemented by tables that know their stable object id.
type tableOID interface{ ObjectID() uint32 }

// ObjectID is the table's OID: derived from its storage id, stable for the
// table's life (even ids for tables, odd for views: disjoint).
func (tt *txnTable) ObjectID() uint32 { return FirstUserOID + 2*uint32(tt.id) }

// ObjectID of an in-memory table: a hash of its name (no ids are kept).
func (t *memTable) ObjectID() uint32 { return nameOID(t.name) }

func nameOID(name string) uint32 {
	h := fnv.New32a()
	h.Write([]byte(name))
	return FirstUserOID + 2*(h.Sum32()%(1<<29))
}

// RelationOID is the OID of a user or system table (0 if unknown).
func RelationOID(t Table) uint32 {
	switch x := t.(type) {
	case *systemTable:
		return x.def.oid
	case tableOID:
		return x.ObjectID()
	}
	return 0
}

// ViewOID is the OID of a view.
func ViewOID(v View) uint32 { return FirstUserOID + 1 + 2*uint32(v.ID) }

// Relation is one entry of pg_class.
type Relation struct {
	OID       uint32
	Name      string
	Namespace uint32 // OID of its schema
	Schema    string
	Kind      byte // 'r' table, 'v' view
	Columns   []ColumnDef
	Rows      int64 // estimated (-1: unknown)
	View      *View // for a user view
	Temp      bool  // a temporary table of the session
}

// TempSchema and TempToastSchema name the session's temporary schemas.
const (
	TempSchema      = "pg_temp_3"
	TempToastSchema = "pg_toast_temp_3"
)

// TempLister is implemented by a catalog that holds a session's temporary
// tables as well (the engine's); has says the session has a temporary
// schema (it made a temporary table).
type TempLister interface {
	TempTables() (tables []Table, has bool)
}

// TempTablesOf lists cat's temporary tables (none for a plain catalog).
func TempTablesOf(cat Catalog) ([]Table, bool) {
	if tl, ok := cat.(TempLister); ok {
		return tl.TempTables()
	}
	return nil, false
}

// Relations lists the user tables and views of cat, then the system
// relations, each with its OID.
func Relations(cat Catalog, env *SystemEnv) []Relation {
	var out []Relation
	temps, _ := TempTablesOf(cat)
	for _, t := range temps {
		out = append(out, Relation{OID: RelationOID(t), Name: t.Name(), Namespace: OIDNamespaceTemp, Schema: TempSchema,
			Kind: 'r', Columns: t.Columns(), Rows: t.Stats().Rows, Temp: true})
	}
	for _, t := range cat.Tables() {
		out = append(out, Relation{OID: RelationOID(t), Name: t.Name(), Namespace: OIDNamespacePublic, Schema: "public",
			Kind: 'r', Columns: t.Columns(), Rows: t.Stats().Rows})
	}
	for _, v := range cat.Views() {
		v := v
		r := Relation{OID: ViewOID(v), Name: v.Name, Namespace: OIDNamespacePublic, Schema: "public", Kind: 'v', Rows: 0, View: &v}
		if env != nil && env.ViewColumns != nil {
			if cols, err := env.ViewColumns(v); err == nil {
				r.Columns = cols
			}
		}
		out = append(out, r)
	}
	for _, d := range systemDefs {
		out = append(out, Relation{OID: d.oid, Name: d.name, Namespace: schemaOID(d.schema), Schema: d.schema,
			Kind: d.kind, Columns: d.cols, Rows: -1})
	}
	return out
}

// RelationByOID finds a relation (user or system) by OID.
func RelationByOID(cat Catalog, env *SystemEnv, oid uint32) (Relation, bool) {
	for _, r := range Relations(cat, env) {
		if r.OID == oid {
			return r, true
		}
	}
	return Relation{}, false
}

// RelationByName finds a relation by schema ("" = search path: the
// temporary schema, pg_catalog, then public) and name, as ::regclass does.
func RelationByName(cat Catalog, env *SystemEnv, schema, name string) (Relation, bool) {
	if schema == "pg_temp" {
		schema = TempSchema
	}
	for _, pass := range []string{TempSchema, "pg_catalog", "public", "information_schema"} {
		if schema != "" && pass != schema || schema == "" && pass == "information_schema" {
			continue
		}
		for _, r := range Relations(cat, env) {
			if r.Schema == pass && r.Name == name {
				return r, true
			}
		}
	}
	return Relation{}, false
}

func schemaOID(s string) uint32 {
	switch s {
	case "pg_catalog":
		return OIDNamespacePgCatalog
	case "information_schema":
		return OIDNamespaceInfoSchema
	case TempSchema:
		return OIDNamespaceTemp
	}
	return OIDNamespacePublic
}

// SchemaName is the name of the schema with the given OID ("" if none).
func SchemaName(oid uint32) string {
	switch oid {
	case OIDNamespacePgCatalog:
		return "pg_catalog"
	case OIDNamespacePublic:
		return "public"
	case OIDNamespaceInfoSchema:
		return "information_schema"
	case OIDNamespaceTemp:
		return TempSchema
	case OIDNamespaceToastTemp:
		return TempToastSchema
	}
	return ""
}

// SchemaOID is the OID of a schema by name.
func SchemaOID(name string) (uint32, bool) {
	switch name {
	case "pg_catalog", "public", "information_schema", TempSchema:
		return schemaOID(name), true
	case TempToastSchema:
		return OIDNamespaceToastTemp, true
	}
	return 0, false
}

// RoleName is pg_get_userbyid: the session user for the bootstrap
// superuser, the built-in role names, else "unknown (OID=n)".
func RoleName(env *SystemEnv, oid uint32) string {
	switch oid {
	case OIDBootstrapUser:
		return env.user()
	case OIDDatabaseOwnerRole:
		return "pg_database_owner"
	}
	return "unknown (OID=" + itoa(int64(oid)) + ")"
}

// RoleOID is the OID of a role by name (the session user or a built-in role).
func RoleOID(env *SystemEnv, name string) (uint32, bool) {
	switch name {
	case env.user():
		return OIDBootstrapUser, true
	case "pg_database_owner":
		return OIDDatabaseOwnerRole, true
	}
	return 0, false
}

func itoa(i int64) string { return strconv.FormatInt(i, 10) }

// SystemType is one row of pg_type.
type SystemType struct {
	OID      uint32
	Name     string // typname
	T        types.Type
	Len      int16
	Category byte
	Align    byte
	In, Out  string // typinput / typoutput procedure names
	Preferd  bool
	Collate  bool // collatable (typcollation = 100)
}

// SystemTypes lists the types joind supports with PostgreSQL's OIDs.
var SystemTypes = func() []SystemType {
	var out []SystemType
	for _, t := range []types.Type{types.BoolType, types.Int2Type, types.Int4Type, types.Int8Type,
		types.TextType, types.Float4Type, types.Float8Type, types.CharType, types.VarcharType,
		types.DateType, types.TimestampType, types.TimestampTZType, types.IntervalType, types.NumericType} {
		st := SystemType{OID: t.OID(), Name: t.PgTypeName(), T: t, Len: t.Size(), Category: t.Category(), Preferd: t.IsPreferred()}
		switch st.Len {
		case 1:
			st.Align = 'c'
		case 2:
			st.Align = 's'
		case 8, 16:
			st.Align = 'd'
		default:
			st.Align = 'i'
		}
		switch t.ID {
		case types.Numeric, types.Date, types.Timestamp, types.TimestampTZ, types.Interval:
			st.In, st.Out = st.Name+"_in", st.Name+"_out"
		default:
			st.In, st.Out = st.Name+"in", st.Name+"out"
		}
		st.Collate = t.Category() == 'S'
		out = append(out, st)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].OID < out[j].OID })
	return out
}()

// TypeByOID finds a supported type by OID.
func TypeByOID(oid uint32) (SystemType, bool) {
	for _, t := range SystemTypes {
		if t.OID == oid {
			return t, true
		}
	}
	return SystemType{}, false
}

// IsSystemName reports whether an unqualified relation name is a system
// catalog: PostgreSQL searches pg_catalog before the user's schemas.
func IsSystemName(name string) bool {
	d := systemByName["pg_catalog."+name]
	return d != nil
}

// SystemTable returns the system relation schema.name ("" = pg_catalog),
// computed now from cat; ok is false if there is none.
func SystemTable(cat Catalog, schema, name string, env *SystemEnv) (Table, bool) {
	if schema == "" {
		schema = "pg_catalog"
	}
	d := systemByName[schema+"."+name]
	if d == nil {
		return nil, false
	}
	return &systemTable{def: d, cat: cat, env: env}, true
}

// systemTable is a system relation over a catalog; its rows are computed
// at the first Snapshot and kept, so a statement sees one state.
type systemTable struct {
	def  *systemDef
	cat  Catalog
	env  *SystemEnv
	recs []arrow.Record
}

func (t *systemTable) Name() string         { return t.def.name }
func (t *systemTable) Columns() []ColumnDef { return t.def.cols }
func (t *systemTable) Snapshot() []arrow.Record {
	if t.recs == nil {
		t.recs = []arrow.Record{buildRecord(t.def.cols, t.def.rows(&sysCtx{cat: t.cat, env: t.env}))}
	}
	return t.recs
}
func (t *systemTable) Stats() Stats {
	var n int64
	for _, r := range t.Snapshot() {
		n += r.NumRows()
	}
	return Stats{Rows: n}
}

// ObjectID is the system relation's PostgreSQL OID.
func (t *systemTable) ObjectID() uint32 { return t.def.oid }

type sysCtx struct {
	cat Catalog
	env *SystemEnv
}

type systemDef struct {
	schema, name string
	oid          uint32
	kind         byte
	cols         []ColumnDef
	rows         func(c *sysCtx) [][]any
	empty        bool // no rows ever
}

var (
	systemDefs   []*systemDef
	systemByName = map[string]*systemDef{}
)

// defSystem registers a system relation. spec lists "name:code" columns:
// o oid (int8), n name (text), t text, c "char" (text), b bool, h int2,
// i int4, l int8, f float4, F float8, z timestamptz.
func defSystem(schema, name string, oid uint32, kind byte, spec string, rows func(c *sysCtx) [][]any) {
	d := &systemDef{schema: schema, name: name, oid: oid, kind: kind, rows: rows}
	for _, f := range strings.Fields(spec) {
		i := strings.LastIndexByte(f, ':')
		var t types.Type
		switch f[i+1:] {
		case "o", "l":
			t = types.Int8Type
		case "n", "t", "c":
			t = types.TextType
		case "b":
			t = types.BoolType
		case "h":
			t = types.Int2Type
		case "i":
			t = types.Int4Type
		case "f":
			t = types.Float4Type
		case "F":
			t = types.Float8Type
		case "z":
			t = types.TimestampTZType
		default:
			panic("storage: bad system column spec " + f)
		}
		d.cols = append(d.cols, ColumnDef{Name: f[:i], Type: t})
	}
	if rows == nil {
		d.rows, d.empty = func(*sysCtx) [][]any { return nil }, true
	}
	systemDefs = append(systemDefs, d)
	systemByName[schema+"."+name] = d
}

func buildRecord(cols []ColumnDef, rows [][]any) arrow.Record {
	fields := make([]arrow.Field, len(cols))
	arrs := make([]arrow.Array, len(cols))
	for c, d := range cols {
		fields[c] = arrow.Field{Name: d.Name, Type: d.Type.ArrowType(), Nullable: true}
		bld := array.NewBuilder(memory.DefaultAllocator, d.Type.ArrowType())
		for _, r := range rows {
			types.AppendValue(bld, d.Type, toValue(r[c]))
		}
		arrs[c] = bld.NewArray()
	}
	return array.NewRecord(arrow.NewSchema(fields, nil), arrs, int64(len(rows)))
}

func toValue(x any) types.Value {
	switch v := x.(type) {
	case nil:
		return types.NullValue
	case int:
		return types.IntValue(int64(v))
	case int16:
		return types.IntValue(int64(v))
	case int32:
		return types.IntValue(int64(v))
	case int64:
		return types.IntValue(v)
	case uint32:
		return types.IntValue(int64(v))
	case float64:
		return types.FloatValue(v)
	case string:
		return types.TextValue(v)
	case byte:
		return types.TextValue(string(v))
	case bool:
		return types.BoolValue(v)
	case types.Value:
		return v
	}
	panic("storage: bad system value")
}

// SystemAlwaysEmpty reports whether t is a system catalog joind keeps
// empty whatever the catalog holds (pg_policy, pg_index, ...).
func SystemAlwaysEmpty(t Table) bool {
	st, ok := t.(*systemTable)
	return ok && st.def.empty
}

// staticTable is a read-only table of constant rows.
type staticTable struct {
	name string
	cols []ColumnDef
	recs []arrow.Record
}

// NewStaticTable returns a read-only table holding rows (values by column).
func NewStaticTable(name string, cols []ColumnDef, rows [][]types.Value) Table {
	anyRows := make([][]any, len(rows))
	for i, r := range rows {
		anyRows[i] = make([]any, len(r))
		for j, v := range r {
			anyRows[i][j] = v
		}
	}
	return &staticTable{name: name, cols: cols, recs: []arrow.Record{buildRecord(cols, anyRows)}}
}

func (t *staticTable) Name() string             { return t.name }
func (t *staticTable) Columns() []ColumnDef     { return t.cols }
func (t *staticTable) Snapshot() []arrow.Record { return t.recs }
func (t *staticTable) Stats() Stats             { return Stats{Rows: t.recs[0].NumRows()} }
