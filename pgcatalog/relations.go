package pgcatalog

import (
	"strconv"
	"sync"

	"github.com/joind/joind/activity"
	"github.com/joind/joind/settings"
	"github.com/joind/joind/stats"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// Env is what the catalogs need from the session.
type Env struct {
	User string // session user's name
	// CurrentRole is current_user's name, Role and SessionRole the OIDs of
	// current_user and session_user (0: the bootstrap superuser).
	CurrentRole       string
	Role, SessionRole uint32
	Database          string // current database name
	// Settings are the session's settings (nil: pg_settings is empty).
	Settings *settings.Values
	// Objects are the session's cursors and prepared statements (nil:
	// pg_cursors and pg_prepared_statements are empty).
	Objects SessionObjects
	// SearchPath, when set, is the search path instead of the session's
	// search_path setting (CREATE SCHEMA's elements).
	SearchPath string
	// Views gives a view's column definitions (nil: views are listed
	// without columns). Binding a view's query is package sql's work.
	Views ViewColumner
	// Activity is the server's live backends (pg_stat_activity,
	// pg_cancel_backend; nil: none), BackendPID this session's process id.
	Activity   *activity.Registry
	BackendPID int32
	// Stats are the server's cumulative statistics (pg_stat_statements,
	// pg_stat_*_tables, ...; nil: all zero).
	Stats *stats.Server
}

// ViewColumner derives a view's output columns by binding its query.
type ViewColumner interface {
	ViewColumns(v storage.View) ([]storage.ColumnDef, error)
}

// TempLister is implemented by a catalog that holds a session's temporary
// tables as well (the engine's); has says the session has a temporary
// schema (it made a temporary table).
type TempLister interface {
	TempTables() (tables []storage.Table, has bool)
}

// Snapshot is the catalog as one statement sees it: the statement's
// catalog (its transaction) and the session. Every system relation and
// catalog function of the statement reads the same Snapshot; its relation
// list is computed once.
type Snapshot struct {
	cat storage.Catalog
	env Env

	once sync.Once
	rels []Relation

	pathOnce sync.Once
	path     *SearchPath // namespace.go
}

// NewSnapshot describes cat to the catalogs of one statement.
func NewSnapshot(cat storage.Catalog, env Env) *Snapshot {
	return &Snapshot{cat: cat, env: env}
}

// Catalog is the statement's catalog.
func (s *Snapshot) Catalog() storage.Catalog { return s.cat }

func (s *Snapshot) user() string {
	if s.env.User == "" {
		return "joind"
	}
	return s.env.User
}

func (s *Snapshot) database() string {
	if s.env.Database == "" {
		return "joind"
	}
	return s.env.Database
}

// TempTables lists the session's temporary tables (none for a plain
// catalog); has says the session has a temporary schema.
func (s *Snapshot) TempTables() ([]storage.Table, bool) {
	if tl, ok := s.cat.(TempLister); ok {
		return tl.TempTables()
	}
	return nil, false
}

// Relation is one entry of pg_class.
type Relation struct {
	OID       uint32
	Name      string
	Namespace uint32 // OID of its schema
	Schema    string
	Kind      byte // 'r' table, 'v' view
	Columns   []storage.ColumnDef
	Rows      int64             // estimated (-1: unknown)
	View      *storage.View     // for a user view
	Temp      bool              // a temporary table of the session
	Index     *IndexRel         // for an index (indexes.go)
	HasIndex  bool              // a table with indexes (relhasindex)
	Seq       *storage.Sequence // for a sequence (Kind 'S')
	// Dropped are a table's dropped columns (storage.Attributed), which
	// pg_attribute lists with attisdropped.
	Dropped []storage.ColumnDef
	// Comment is COMMENT ON TABLE / VIEW's text (a column's is its
	// ColumnDef's).
	Comment string
	// Type is pg_class.reltype: a composite type's OID (Kind 'c').
	Type uint32
	// Bytes is a table's bytes in the data directory (dbsize.go).
	Bytes int64
	// Foreign is a foreign table's server and options (Kind 'f').
	Foreign *storage.ForeignTableDef
}

// Attnum is the attnum of r's column i.
func (r Relation) Attnum(i int) int16 {
	if a := r.Columns[i].Attnum; a != 0 {
		return a
	}
	return int16(i + 1)
}

func tableComment(t storage.Table) string {
	if c, ok := t.(storage.Commented); ok {
		return c.Comment()
	}
	return ""
}

func droppedColumns(t storage.Table) []storage.ColumnDef {
	if a, ok := t.(storage.Attributed); ok {
		return a.DroppedColumns()
	}
	return nil
}

// Relations lists the temporary tables, the user tables and views, then
// the system relations, each with its OID.
func (s *Snapshot) Relations() []Relation {
	s.once.Do(func() { s.rels = s.relations() })
	return s.rels
}

func (s *Snapshot) relations() []Relation {
	var out []Relation
	temps, _ := s.TempTables()
	for _, t := range temps {
		out = append(out, Relation{OID: RelationOID(t), Name: t.Name(), Namespace: OIDNamespaceTemp, Schema: TempSchema,
			Kind: 'r', Columns: t.Columns(), Rows: t.Stats().Rows, Temp: true, Dropped: droppedColumns(t), Comment: tableComment(t), Bytes: tableBytes(t)})
	}
	perm := s.cat.Tables()
	for _, t := range perm {
		ns, name := s.namespaceOfKey(t.Name())
		out = append(out, Relation{OID: RelationOID(t), Name: name, Namespace: ns.OID, Schema: ns.Name,
			Kind: relKind(t), Columns: t.Columns(), Rows: t.Stats().Rows, Dropped: droppedColumns(t), Comment: tableComment(t), Bytes: tableBytes(t),
			Foreign: storage.ForeignDefOf(t)})
	}
	out = withIndexes(out, append(temps, perm...))
	for _, v := range s.cat.Views() {
		v := v
		ns, name := s.namespaceOfKey(v.Name)
		r := Relation{OID: ViewOID(v), Name: name, Namespace: ns.OID, Schema: ns.Name, Kind: 'v', Rows: 0, View: &v, Comment: v.Comment}
		if s.env.Views != nil {
			if cols, err := s.env.Views.ViewColumns(v); err == nil {
				r.Columns = cols
				for i := range r.Columns {
					if i < len(v.ColumnComments) {
						r.Columns[i].Comment = v.ColumnComments[i]
					}
				}
			}
		}
		if rt := rowTypeOf(r); rt.ok {
			registerRowType(r, rt) // usertypes_composite.go
		}
		out = append(out, r)
	}
	out = append(out, s.sequenceRelations()...)
	out = append(out, s.compositeRelations()...) // usertypes_composite.go
	sys := systemRelations()
	registerSystemRowTypes.Do(func() {
		for _, r := range sys {
			if rt := rowTypeOf(r); rt.ok {
				registerRowType(r, rt) // usertypes_composite.go
			}
		}
	})
	return append(out, sys...)
}

var registerSystemRowTypes sync.Once

func systemRelations() []Relation {
	var out []Relation
	for _, d := range defs {
		out = append(out, Relation{OID: d.OID, Name: d.Name, Namespace: schemaOID(d.Schema), Schema: d.Schema,
			Kind: d.Kind, Columns: d.Cols, Rows: -1})
	}
	return out
}

// RelationByOID finds a relation (user or system) by OID.
func (s *Snapshot) RelationByOID(oid uint32) (Relation, bool) {
	for _, r := range s.Relations() {
		if r.OID == oid {
			return r, true
		}
	}
	return Relation{}, false
}

// RelationByName finds a relation by schema ("" = the search path) and
// name, as ::regclass does.
func (s *Snapshot) RelationByName(schema, name string) (Relation, bool) {
	var path []Namespace
	if schema == "" {
		path = s.SearchPath().Schemas
	} else if ns, ok := s.NamespaceByName(schema); ok {
		path = []Namespace{ns}
	}
	for _, ns := range path {
		for _, r := range s.Relations() {
			if r.Namespace == ns.OID && r.Name == name {
				return r, true
			}
		}
	}
	return Relation{}, false
}

// RoleName is pg_get_userbyid: the session user for the bootstrap
// superuser, the built-in role names, else "unknown (OID=n)".
func (s *Snapshot) RoleName(oid uint32) string {
	if r, ok := s.Auth().RoleByOID(oid); ok {
		return r.Name
	}
	switch oid {
	case OIDBootstrapUser:
		return s.user()
	case OIDDatabaseOwnerRole:
		return "pg_database_owner"
	}
	return "unknown (OID=" + strconv.FormatInt(int64(oid), 10) + ")"
}

// RoleOID is the OID of a role by name (the session user or a built-in role).
func (s *Snapshot) RoleOID(name string) (uint32, bool) {
	if r, ok := s.Auth().RoleByName(name); ok {
		return r.OID, true
	}
	if _, ok := s.Auth().RoleByOID(OIDBootstrapUser); ok && name == s.user() {
		return 0, false // the session user is a stored role, found above
	}
	switch name {
	case s.user():
		return OIDBootstrapUser, true
	case "pg_database_owner":
		return OIDDatabaseOwnerRole, true
	}
	return 0, false
}

// viewDef is a view's stored text as pg_get_viewdef prints a query it
// cannot deparse (ruleutils_query.go).
func viewDef(v storage.View) string { return " " + v.SQL + ";" }

// viewDefValue is pg_get_viewdef of relation oid: NULL for a relation
// that is no view, or none.
func (s *Snapshot) viewDefValue(oid uint32, pretty bool) types.Value {
	r, ok := s.RelationByOID(oid)
	if !ok || r.View == nil {
		return types.NullValue
	}
	return types.TextValue(s.ViewDef(*r.View, pretty))
}

// OIDPgClass is pg_class's OID: pg_description's classoid for relations.
const OIDPgClass = 1259

// OIDPgProc is pg_proc's OID (pg_description.classoid of a function).
const OIDPgProc = 1255

// OIDPgExtension is pg_extension's OID (pg_description.classoid).
const OIDPgExtension = 3079

// description is the COMMENT ON text of relation oid (subid 0) or of its
// column numbered subid; NULL if none.
func (s *Snapshot) description(oid uint32, subid int64) types.Value {
	r, ok := s.RelationByOID(oid)
	if !ok {
		return types.NullValue
	}
	if subid == 0 {
		if r.Comment != "" {
			return types.TextValue(r.Comment)
		}
		return types.NullValue
	}
	for i, c := range r.Columns {
		if int64(r.Attnum(i)) == subid && c.Comment != "" {
			return types.TextValue(c.Comment)
		}
	}
	return types.NullValue
}
