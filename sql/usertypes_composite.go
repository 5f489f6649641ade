package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// Composite types: CREATE TYPE name AS (attr type, ...) and ALTER TYPE
// name ADD / DROP / ALTER / RENAME ATTRIBUTE (PostgreSQL's
// DefineCompositeType and the OBJECT_TYPE paths of ALTER TABLE);
// commands/usertypes_composite.go changes the catalog. A value of the type
// is a record (types/compositetype.go).

// CreateComposite is CREATE TYPE name AS (attrs).
type CreateComposite struct {
	Schema uint64
	Name   string
	Attrs  []storage.CompositeAttr
}

// AlterComposite is ALTER TYPE name with attribute actions, applied in
// order to the type's attributes: Attrs is the result.
type AlterComposite struct {
	Type  storage.UserType
	Attrs []storage.CompositeAttr
	// Cascade is ALTER TYPE ... CASCADE: the change may reach typed tables
	// (joind has none) and stored columns of the type.
	Cascade bool
}

func (*CreateComposite) statement() {}
func (*AlterComposite) statement()  {}

func (b *binder) bindCreateComposite(ct *pg_query.CompositeTypeStmt) (Statement, error) {
	rv := &pg_query.RangeVar{Schemaname: ct.Typevar.Schemaname, Relname: ct.Typevar.Relname, Location: -1}
	key, temp, err := b.createTarget(rv)
	if err != nil {
		return nil, err
	}
	if temp {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "types in schema pg_temp are not supported")
	}
	schema, name := storage.SplitKey(key)
	out := &CreateComposite{Schema: schema, Name: name}
	seen := map[string]bool{}
	for _, n := range ct.Coldeflist {
		cd := n.GetColumnDef()
		if seen[cd.Colname] {
			return nil, pgerr.New(pgerr.DuplicateColumn, "column \"%s\" specified more than once", cd.Colname)
		}
		seen[cd.Colname] = true
		a, err := b.compositeAttr(cd)
		if err != nil {
			return nil, err
		}
		out.Attrs = append(out.Attrs, a)
	}
	return out, nil
}

// compositeAttr is one attribute definition of CREATE TYPE or ALTER TYPE
// ADD ATTRIBUTE; only a name and a type (PostgreSQL's grammar takes no
// constraints there, COLLATE aside).
func (b *binder) compositeAttr(cd *pg_query.ColumnDef) (storage.CompositeAttr, error) {
	if names := nameParts(cd.TypeName.Names); names[len(names)-1] == "record" && len(cd.TypeName.ArrayBounds) == 0 {
		return storage.CompositeAttr{}, pgerr.New("42P16", "column \"%s\" has pseudo-type record", cd.Colname)
	}
	t, err := b.typeFromName(cd.TypeName)
	if err != nil {
		return storage.CompositeAttr{}, err
	}
	if err := checkColumnType(cd.Colname, t); err != nil {
		return storage.CompositeAttr{}, err
	}
	if cd.CollClause != nil {
		return storage.CompositeAttr{}, pgerr.New(pgerr.FeatureNotSupported, "COLLATE on a composite type's attribute is not supported")
	}
	return storage.CompositeAttr{Name: cd.Colname, Type: t}, nil
}

// bindAlterComposite is ALTER TYPE name ADD / DROP / ALTER ATTRIBUTE, the
// AlterTableStmt of OBJECT_TYPE.
func (b *binder) bindAlterComposite(as *pg_query.AlterTableStmt) (Statement, error) {
	names := []string{as.Relation.Relname}
	if as.Relation.Schemaname != "" {
		names = []string{as.Relation.Schemaname, as.Relation.Relname}
	}
	u, ok := b.lookupUserType(names)
	if !ok {
		if as.MissingOk {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "ALTER TYPE IF EXISTS is not supported")
		}
		// ALTER TABLE's path in PostgreSQL: the type's relation.
		return nil, pgerr.New(pgerr.UndefinedTable, "relation \"%s\" does not exist", typeDisplayName(names))
	}
	if u.Kind != 'c' {
		return nil, pgerr.New(pgerr.WrongObjectType, "%s is not a composite type", u.Name)
	}
	out := &AlterComposite{Type: u, Attrs: append([]storage.CompositeAttr(nil), u.Attrs...)}
	find := func(name string) int {
		for i, a := range out.Attrs {
			if a.Name == name {
				return i
			}
		}
		return -1
	}
	var dropped []string
	for _, n := range as.Cmds {
		c := n.GetAlterTableCmd()
		if c.Behavior == pg_query.DropBehavior_DROP_CASCADE {
			out.Cascade = true
		}
		switch c.Subtype {
		case pg_query.AlterTableType_AT_AddColumn:
			cd := c.Def.GetColumnDef()
			if find(cd.Colname) >= 0 {
				if c.MissingOk {
					continue // PostgreSQL NOTICEs; joind has no NOTICE path here
				}
				return nil, pgerr.New(pgerr.DuplicateColumn, "column \"%s\" of relation \"%s\" already exists", cd.Colname, u.Name)
			}
			a, err := b.compositeAttr(cd)
			if err != nil {
				return nil, err
			}
			out.Attrs = append(out.Attrs, a)
		case pg_query.AlterTableType_AT_DropColumn:
			i := find(c.Name)
			if i < 0 {
				if c.MissingOk {
					continue
				}
				return nil, pgerr.New(pgerr.UndefinedColumn, "column \"%s\" of relation \"%s\" does not exist", c.Name, u.Name)
			}
			out.Attrs = append(out.Attrs[:i:i], out.Attrs[i+1:]...)
			dropped = append(dropped, c.Name)
		case pg_query.AlterTableType_AT_AlterColumnType:
			i := find(c.Name)
			if i < 0 {
				return nil, pgerr.New(pgerr.UndefinedColumn, "column \"%s\" of relation \"%s\" does not exist", c.Name, u.Name)
			}
			cd := c.Def.GetColumnDef()
			cd.Colname = c.Name
			a, err := b.compositeAttr(cd)
			if err != nil {
				return nil, err
			}
			out.Attrs[i] = a
		default:
			return nil, pgerr.New(pgerr.FeatureNotSupported, "this form of ALTER TYPE is not supported")
		}
	}
	if err := b.recheckCompositeDomains(u, out.Attrs, dropped); err != nil {
		return nil, err
	}
	return out, nil
}

// recheckCompositeDomains binds again, over the attributes attrs, the
// CHECK constraints of the domains over composite type u (directly or
// through other domains), as PostgreSQL rebuilds the expressions that
// depend on an altered attribute: one naming a dropped attribute is a
// dependent object (2BP01; joind does not drop it with CASCADE), one that
// no longer binds is the error.
func (b *binder) recheckCompositeDomains(u storage.UserType, attrs []storage.CompositeAttr, dropped []string) error {
	tc := b.typeCatalog()
	if tc == nil {
		return nil
	}
	desc := types.RecordDesc{}
	for _, a := range attrs {
		desc.Fields, desc.Types = append(desc.Fields, a.Name), append(desc.Types, a.Type)
	}
	row := types.RecordOf(desc)
	for _, d := range tc.UserTypes() {
		if d.Kind != 'd' || len(d.Checks) == 0 {
			continue
		}
		base := d.DomainDesc().Base
		for base.Domain != 0 {
			inner, ok := b.lookupDomain(base.Domain)
			if !ok {
				break
			}
			base = inner.Base
		}
		if base.ID != types.Record || base.UserOID != u.OID() {
			continue
		}
		for _, c := range d.Checks {
			tree, err := pg_query.Parse("SELECT " + c.Expr)
			if err != nil {
				return pgerr.Wrap(err, pgerr.InternalError, "invalid stored domain constraint: %v", err)
			}
			saved := b.domainValue
			b.domainValue = &plan.Const{Val: types.NullValue, T: row}
			_, err = b.bindExpr(&scope{}, tree.Stmts[0].Stmt.GetSelectStmt().TargetList[0].GetResTarget().Val)
			b.domainValue = saved
			if err == nil {
				continue
			}
			if pgerr.Code(err) == pgerr.UndefinedColumn && len(dropped) > 0 {
				return pgerr.New("2BP01", "cannot drop column %s of composite type %s because other objects depend on it", dropped[0], u.Name).
					WithDetail("constraint %s depends on column %s of composite type %s", c.Name, dropped[0], u.Name).
					WithHint("Use DROP ... CASCADE to drop the dependent objects too.")
			}
			return withoutPosition(err)
		}
	}
	return nil
}

// bindRenameAttribute is ALTER TYPE name RENAME ATTRIBUTE old TO new.
func (b *binder) bindRenameAttribute(rs *pg_query.RenameStmt) (Statement, error) {
	names := []string{rs.Relation.Relname}
	if rs.Relation.Schemaname != "" {
		names = []string{rs.Relation.Schemaname, rs.Relation.Relname}
	}
	u, ok := b.lookupUserType(names)
	if !ok {
		return nil, errNoType(names)
	}
	if u.Kind != 'c' {
		return nil, pgerr.New(pgerr.WrongObjectType, "%s is not a composite type", u.Name)
	}
	out := &AlterComposite{Type: u, Attrs: append([]storage.CompositeAttr(nil), u.Attrs...),
		Cascade: rs.Behavior == pg_query.DropBehavior_DROP_CASCADE}
	at := -1
	for i, a := range out.Attrs {
		if a.Name == rs.Subname {
			at = i
		}
		if a.Name == rs.Newname {
			return nil, pgerr.New(pgerr.DuplicateColumn, "column \"%s\" of relation \"%s\" already exists", rs.Newname, u.Name)
		}
	}
	if at < 0 {
		return nil, pgerr.New(pgerr.UndefinedColumn, "column \"%s\" does not exist", rs.Subname)
	}
	out.Attrs[at].Name = rs.Newname
	return out, nil
}
