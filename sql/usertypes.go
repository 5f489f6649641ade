package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/joind/joind/pgcatalog"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// User-defined types: CREATE TYPE ... AS ENUM, ALTER TYPE ... ADD VALUE /
// RENAME VALUE and DROP TYPE (PostgreSQL's typecmds.c and pg_enum.c); the
// binder resolves names, commands/usertypes.go changes the catalog
// (storage.TypeCatalog). A type name in any other statement resolves to
// a user type after the built-in names (typeFromName, lookupUserType).

// CreateEnum is CREATE TYPE name AS ENUM (labels).
type CreateEnum struct {
	Schema uint64 // the creation schema's storage id
	Name   string
	Labels []string
}

// AlterEnum is ALTER TYPE name ADD VALUE [IF NOT EXISTS] new [BEFORE |
// AFTER neighbor], or ALTER TYPE name RENAME VALUE old TO new.
type AlterEnum struct {
	Type        storage.UserType
	Old         string // RENAME VALUE's label; "" for ADD VALUE
	New         string
	Neighbor    string
	After       bool
	IfNotExists bool
}

// DropType is DROP TYPE [IF EXISTS] names [CASCADE | RESTRICT].
type DropType struct {
	Domain   bool // DROP DOMAIN
	Types    []storage.UserType
	Missing  []string // named types that do not exist (IF EXISTS: NOTICEs)
	Cascade  bool
	IfExists bool
}

// RenameType is ALTER TYPE name RENAME TO new.
type RenameType struct {
	Type   storage.UserType
	New    string
	Domain bool // ALTER DOMAIN ... RENAME TO
}

func (*RenameType) statement() {}
func (*CreateEnum) statement() {}
func (*AlterEnum) statement()  {}
func (*DropType) statement()   {}

// typeCatalog is the catalog's user types (nil: a catalog without any).
func (b *binder) typeCatalog() storage.TypeCatalog {
	tc, _ := b.cat.(storage.TypeCatalog)
	return tc
}

// lookupUserType finds the user type [schema.]name over the search path.
func (b *binder) lookupUserType(names []string) (storage.UserType, bool) {
	tc := b.typeCatalog()
	if tc == nil || len(names) == 0 || len(names) > 3 {
		return storage.UserType{}, false
	}
	var path []pgcatalog.Namespace
	switch len(names) {
	case 1:
		path = b.lookupPath()
	default:
		if ns, ok := b.snapshot().NamespaceByName(names[len(names)-2]); ok {
			path = []pgcatalog.Namespace{ns}
		}
	}
	for _, ns := range path {
		if ns.Kind != pgcatalog.NsUser {
			continue
		}
		if u, ok := tc.LookupType(ns.ID, names[len(names)-1]); ok {
			return u, true
		}
	}
	return storage.UserType{}, false
}

// userTypeFromName resolves a type name that is no built-in one to a user
// type (an array of it with array bounds); false when none has the name.
func (b *binder) userTypeFromName(names []string, mods int, arrayDims int, loc int32) (types.Type, bool, error) {
	u, ok := b.lookupUserType(names)
	if !ok {
		return types.Type{}, false, nil
	}
	if mods > 0 {
		return types.Type{}, true, b.errAt(pgerr.New(pgerr.SyntaxError, "type modifier is not allowed for type \"%s\"", u.Name), loc)
	}
	t := u.Type()
	if arrayDims > 0 && u.Kind == 'd' {
		if t.ID == types.Array {
			// An array's element is no array: a domain over one cannot be kept.
			return types.Type{}, true, b.errAt(pgerr.New(pgerr.FeatureNotSupported, "arrays of domains over arrays are not supported"), loc)
		}
		return types.DomainArrayOf(t), true, nil
	}
	if arrayDims > 0 {
		t = types.ArrayOf(t)
	}
	return t, true, nil
}

// typeDisplayName is a type name as the statement wrote it.
func typeDisplayName(names []string) string { return strings.Join(names, ".") }

// errNoType is 42704 for a type name that resolves to nothing.
func errNoType(names []string) *pgerr.Error {
	return pgerr.New(pgerr.UndefinedObject, "type \"%s\" does not exist", typeDisplayName(names))
}

func (b *binder) bindCreateEnum(ce *pg_query.CreateEnumStmt) (Statement, error) {
	schema, name, err := b.createNamed(nameParts(ce.TypeName), "types") // names.go
	if err != nil {
		return nil, err
	}
	out := &CreateEnum{Schema: schema, Name: name}
	for _, v := range ce.Vals {
		l := v.GetString_().GetSval()
		if err := checkEnumLabel(l); err != nil {
			return nil, err
		}
		out.Labels = append(out.Labels, l)
	}
	return out, nil
}

// checkEnumLabel is pg_enum.c's label length rule.
func checkEnumLabel(l string) error {
	if len(l) > 63 || len(l) == 0 {
		return pgerr.New("42602", "invalid enum label \"%s\"", l).WithDetail("Labels must be 63 bytes or less.")
	}
	return nil
}

func (b *binder) bindAlterEnum(ae *pg_query.AlterEnumStmt) (Statement, error) {
	names := nameParts(ae.TypeName)
	u, ok := b.lookupUserType(names)
	if !ok {
		return nil, errNoType(names)
	}
	if u.Kind != 'e' {
		return nil, pgerr.New(pgerr.WrongObjectType, "%s is not an enum", u.Name)
	}
	if ae.OldVal == "" {
		if err := checkEnumLabel(ae.NewVal); err != nil {
			return nil, err
		}
	}
	return &AlterEnum{Type: u, Old: ae.OldVal, New: ae.NewVal, Neighbor: ae.NewValNeighbor, After: ae.NewValIsAfter,
		IfNotExists: ae.SkipIfNewValExists}, nil
}

func (b *binder) bindDropType(ds *pg_query.DropStmt) (Statement, error) {
	out := &DropType{IfExists: ds.MissingOk, Cascade: ds.Behavior == pg_query.DropBehavior_DROP_CASCADE,
		Domain: ds.RemoveType == pg_query.ObjectType_OBJECT_DOMAIN}
	for _, o := range ds.Objects {
		tn := o.GetTypeName()
		if tn == nil {
			return nil, pgerr.New(pgerr.SyntaxError, "DROP TYPE of this name is not supported")
		}
		names := nameParts(tn.Names)
		if u, ok := b.lookupUserType(names); ok {
			if out.Domain && u.Kind != 'd' {
				return nil, pgerr.New(pgerr.WrongObjectType, "\"%s\" is not a domain", u.Name)
			}
			out.Types = append(out.Types, u)
			continue
		}
		if t, err := types.FromTypeName(names, nil, 0); err == nil {
			return nil, pgerr.New("2BP01", "cannot drop type %s because it is required by the database system", t.SQLName())
		}
		if !ds.MissingOk {
			return nil, errNoType(names)
		}
		out.Missing = append(out.Missing, typeDisplayName(names))
	}
	return out, nil
}

func (b *binder) bindRenameType(rs *pg_query.RenameStmt) (Statement, error) {
	var names []string
	if l := rs.Object.GetList(); l != nil {
		names = nameParts(l.Items)
	} else if tn := rs.Object.GetTypeName(); tn != nil {
		names = nameParts(tn.Names)
	}
	u, ok := b.lookupUserType(names)
	if !ok {
		if rs.MissingOk {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "ALTER TYPE IF EXISTS is not supported")
		}
		return nil, errNoType(names)
	}
	domain := rs.RenameType == pg_query.ObjectType_OBJECT_DOMAIN
	if domain && u.Kind != 'd' {
		return nil, pgerr.New(pgerr.WrongObjectType, "%s is not a domain", u.Name)
	}
	return &RenameType{Type: u, New: rs.Newname, Domain: domain}, nil
}
