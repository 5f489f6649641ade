package sql

import (
	"sort"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v5"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/joind/joind/pgcatalog"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/storage"
)

// CREATE SCHEMA, DROP SCHEMA and ALTER SCHEMA: the binder checks names and
// roles as PostgreSQL's schemacmds.c does; commands/schema.go runs them.

// CreateSchema is CREATE SCHEMA [IF NOT EXISTS] name [AUTHORIZATION role]
// [elements].
type CreateSchema struct {
	Name        string
	Owner       string // role name ("" = the session user)
	IfNotExists bool
	Exists      bool // the name is taken (IF NOT EXISTS: a NOTICE; else 42P06)
	// Elements is the number of schema elements; BindElement binds the
	// i-th in catalog cat (where the schema and the earlier elements now
	// exist), with the new schema first on the search path as PostgreSQL
	// runs them.
	Elements    int
	BindElement func(cat storage.Catalog, i int) (Statement, error)
}

// DropSchema is DROP SCHEMA [IF EXISTS] names [CASCADE | RESTRICT].
type DropSchema struct {
	Names    []string // the existing schemas named
	Missing  []string // named schemas that do not exist (IF EXISTS: NOTICEs)
	Cascade  bool
	RelName  RelName // names relations in messages
	IfExists bool
}

// AlterSchema is ALTER SCHEMA name RENAME TO new / OWNER TO role.
type AlterSchema struct {
	Schema storage.Schema // the schema as it will be
	Rename bool
	Old    string // its name before
}

func (*CreateSchema) statement() {}
func (*DropSchema) statement()   {}
func (*AlterSchema) statement()  {}

// reservedSchemaName is CREATE SCHEMA's and RENAME's check of the pg_ prefix.
func reservedSchemaName(name string) error {
	if strings.HasPrefix(name, "pg_") {
		return pgerr.New("42939", "unacceptable schema name \"%s\"", name).
			WithDetail("The prefix \"pg_\" is reserved for system schemas.")
	}
	return nil
}

// roleName resolves a role specification to an existing role's name.
func (b *binder) roleName(rs *pg_query.RoleSpec) (string, error) {
	snap := b.snapshot()
	switch rs.Roletype {
	case pg_query.RoleSpecType_ROLESPEC_CURRENT_USER, pg_query.RoleSpecType_ROLESPEC_SESSION_USER,
		pg_query.RoleSpecType_ROLESPEC_CURRENT_ROLE:
		return b.roleSpecName(rs), nil
	case pg_query.RoleSpecType_ROLESPEC_PUBLIC:
		return "", pgerr.New(pgerr.UndefinedObject, "role \"public\" does not exist")
	}
	if _, ok := snap.RoleOID(rs.Rolename); !ok {
		return "", pgerr.New(pgerr.UndefinedObject, "role \"%s\" does not exist", rs.Rolename)
	}
	return rs.Rolename, nil
}

func (b *binder) bindCreateSchema(cs *pg_query.CreateSchemaStmt) (Statement, error) {
	out := &CreateSchema{Name: cs.Schemaname, IfNotExists: cs.IfNotExists}
	if cs.Authrole != nil {
		owner, err := b.roleName(cs.Authrole)
		if err != nil {
			return nil, err
		}
		out.Owner = owner
		if out.Name == "" {
			out.Name = owner
		}
	}
	// As CreateSchemaCommand: the reserved prefix first, then IF NOT
	// EXISTS.
	if err := reservedSchemaName(out.Name); err != nil {
		return nil, err
	}
	if _, taken := b.snapshot().NamespaceByName(out.Name); taken {
		out.Exists = true
		if cs.IfNotExists {
			return out, nil
		}
	}
	if out.Exists {
		return nil, pgerr.New("42P06", "schema \"%s\" already exists", out.Name)
	}
	// An element may name only the schema being created.
	for _, el := range cs.SchemaElts {
		var rv *pg_query.RangeVar
		switch x := el.GetNode().(type) {
		case *pg_query.Node_CreateStmt:
			rv = x.CreateStmt.Relation
		case *pg_query.Node_ViewStmt:
			rv = x.ViewStmt.View
		case *pg_query.Node_IndexStmt:
			rv = x.IndexStmt.Relation
		case *pg_query.Node_CreateSeqStmt:
			rv = x.CreateSeqStmt.Sequence
		}
		if rv != nil && rv.Schemaname != "" && rv.Schemaname != out.Name {
			return nil, pgerr.New("42P15", "CREATE specifies a schema (%s) different from the one being created (%s)",
				rv.Schemaname, out.Name)
		}
	}
	out.Elements = len(cs.SchemaElts)
	// PostgreSQL runs the elements by kind, whatever their order
	// (transformCreateSchemaStmt): sequences, tables, views, indexes,
	// triggers, grants.
	elts := append([]*pg_query.Node(nil), cs.SchemaElts...)
	sort.SliceStable(elts, func(i, j int) bool { return elementRank(elts[i]) < elementRank(elts[j]) })
	query, opts := b.query, b.opts
	path := pgcatalog.QuoteIdentifier(out.Name) + ", " + b.snapshot().SearchPathText()
	out.BindElement = func(cat storage.Catalog, i int) (Statement, error) {
		eb := newBinder(query, cat, opts)
		eb.searchPath = path
		return eb.bindStatement(elts[i])
	}
	return out, nil
}

// elementRank is the place of a schema element's kind in the order
// PostgreSQL runs them.
func elementRank(n *pg_query.Node) int {
	switch n.GetNode().(type) {
	case *pg_query.Node_CreateSeqStmt:
		return 0
	case *pg_query.Node_CreateStmt:
		return 1
	case *pg_query.Node_ViewStmt:
		return 2
	case *pg_query.Node_IndexStmt:
		return 3
	case *pg_query.Node_CreateTrigStmt:
		return 4
	}
	return 5
}

func (b *binder) bindDropSchema(ds *pg_query.DropStmt) (Statement, error) {
	out := &DropSchema{Cascade: ds.Behavior == pg_query.DropBehavior_DROP_CASCADE, RelName: b.relNamer(), IfExists: ds.MissingOk}
	for _, o := range ds.Objects {
		name := o.GetString_().GetSval()
		ns, ok := b.snapshot().NamespaceByName(name)
		switch {
		case !ok:
			if !ds.MissingOk {
				return nil, pgerr.New("3F000", "schema \"%s\" does not exist", name)
			}
			out.Missing = append(out.Missing, name)
			continue
		case ns.Kind == pgcatalog.NsCatalog || ns.Kind == pgcatalog.NsToast:
			return nil, pgerr.New("2BP01", "cannot drop schema %s because it is required by the database system", name)
		case ns.Kind != pgcatalog.NsUser || ns.ID == storage.PublicSchemaID:
			// public's and information_schema's relations are not
			// schema-keyed objects joind can drop with them.
			return nil, pgerr.New(pgerr.FeatureNotSupported, "dropping schema %s is not supported", name)
		}
		out.Names = append(out.Names, name)
	}
	return out, nil
}

// bindRenameSchema is ALTER SCHEMA name RENAME TO new.
func (b *binder) bindRenameSchema(rs *pg_query.RenameStmt) (Statement, error) {
	s, err := b.userSchema(rs.Subname)
	if err != nil {
		return nil, err
	}
	if _, taken := b.snapshot().NamespaceByName(rs.Newname); taken || rs.Newname == "pg_temp" {
		return nil, pgerr.New("42P06", "schema \"%s\" already exists", rs.Newname)
	}
	if err := reservedSchemaName(rs.Newname); err != nil {
		return nil, err
	}
	out := &AlterSchema{Schema: s, Rename: true, Old: s.Name}
	out.Schema.Name = rs.Newname
	return out, nil
}

// bindSchemaOwner is ALTER SCHEMA name OWNER TO role.
func (b *binder) bindSchemaOwner(as *pg_query.AlterOwnerStmt) (Statement, error) {
	name := as.Object.GetString_().GetSval()
	owner, err := b.roleName(as.Newowner)
	if err != nil {
		return nil, err
	}
	ns, ok := b.snapshot().NamespaceByName(name)
	if ok && (ns.Kind != pgcatalog.NsUser || ns.ID == storage.PublicSchemaID) {
		if o, _ := b.snapshot().RoleOID(owner); o == ns.Owner {
			return &NoOp{Tag: "ALTER SCHEMA"}, nil // PostgreSQL: no change, no error
		}
		return nil, pgerr.New(pgerr.FeatureNotSupported, "changing the owner of schema %s is not supported", name)
	}
	s, err := b.userSchema(name)
	if err != nil {
		return nil, err
	}
	out := &AlterSchema{Schema: s, Old: s.Name}
	out.Schema.Owner = owner
	return out, nil
}

// userSchema finds a created schema by name for ALTER SCHEMA.
func (b *binder) userSchema(name string) (storage.Schema, error) {
	ns, ok := b.snapshot().NamespaceByName(name)
	if !ok {
		return storage.Schema{}, pgerr.New("3F000", "schema \"%s\" does not exist", name)
	}
	sc, isSC := b.cat.(storage.SchemaCatalog)
	if ns.Kind != pgcatalog.NsUser || ns.ID == storage.PublicSchemaID || !isSC {
		return storage.Schema{}, pgerr.New(pgerr.FeatureNotSupported, "altering schema %s is not supported", name)
	}
	s, _ := sc.SchemaByID(ns.ID)
	return s, nil
}

// RenameSchemaInView is a stored view query (storage.View.SQL) with its
// references to schema old renamed to new, for ALTER SCHEMA ... RENAME: a
// view's text names every relation outside public schema-qualified
// (qualifyStored), and must go on reading the same relations.
func RenameSchemaInView(text, old, new string) (string, error) {
	tree, err := pg_query.Parse(text)
	if err != nil {
		return "", pgerr.Wrap(err, pgerr.InternalError, "cannot read a view's stored query: %v", err)
	}
	walkProto(tree.ProtoReflect(), func(m protoreflect.Message) {
		switch x := m.Interface().(type) {
		case *pg_query.RangeVar:
			if x.Schemaname == old {
				x.Schemaname = new
			}
		case *pg_query.ColumnRef:
			// schema.table.column
			if len(x.Fields) == 3 && x.Fields[0].GetString_().GetSval() == old {
				x.Fields[0].GetString_().Sval = new
			}
		}
	})
	out, err := pg_query.Deparse(tree)
	if err != nil {
		return "", pgerr.Wrap(err, pgerr.InternalError, "cannot store a view's query: %v", err)
	}
	return out, nil
}
