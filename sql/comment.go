package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// Comment is COMMENT ON TABLE / VIEW / COLUMN name IS 'text' | NULL; the
// text is kept with the object (storage) and read from pg_description.
type Comment struct {
	Table  string // the table or view
	Schema string // as written
	Key    string // the relation's storage key as resolved (a temporary table's bare name)
	Temp   bool
	View   bool   // the relation is a view
	Column string // "" for the relation itself
	Text   string // "" removes the comment (IS NULL or IS '')
}

func (*Comment) statement() {}

// CommentType is COMMENT ON TYPE / DOMAIN name, or ON CONSTRAINT c ON
// DOMAIN name, IS 'text' | NULL; the text is kept with the type.
type CommentType struct {
	Type       storage.UserType
	Constraint int    // the domain constraint's index in Type.Checks; -1 for the type
	Text       string // "" removes the comment
}

func (*CommentType) statement() {}

// bindCommentType binds COMMENT ON TYPE / DOMAIN / CONSTRAINT ... ON DOMAIN.
func (b *binder) bindCommentType(cs *pg_query.CommentStmt) (Statement, error) {
	tn, con := cs.Object.GetTypeName(), ""
	if l := cs.Object.GetList(); l != nil && len(l.Items) == 2 {
		tn, con = l.Items[0].GetTypeName(), l.Items[1].GetString_().GetSval()
	}
	if tn == nil {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "COMMENT ON %s of this name is not supported", objectTypeName(cs.Objtype))
	}
	names := nameParts(tn.Names)
	u, ok := b.lookupUserType(names)
	if !ok {
		if _, err := types.FromTypeName(names, nil, 0); err == nil {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "COMMENT ON a built-in type is not supported")
		}
		return nil, errNoType(names)
	}
	if cs.Objtype != pg_query.ObjectType_OBJECT_TYPE && u.Kind != 'd' {
		return nil, pgerr.New(pgerr.WrongObjectType, "\"%s\" is not a domain", u.Name)
	}
	out := &CommentType{Type: u, Constraint: -1, Text: cs.Comment}
	if cs.Objtype == pg_query.ObjectType_OBJECT_DOMCONSTRAINT {
		for i, c := range u.Checks {
			if c.Name == con {
				out.Constraint = i
			}
		}
		if out.Constraint < 0 {
			return nil, pgerr.New(pgerr.UndefinedObject, "constraint \"%s\" for domain %s does not exist", con, u.Name)
		}
	}
	return out, nil
}

func (b *binder) bindComment(cs *pg_query.CommentStmt) (Statement, error) {
	var names []string
	if l := cs.Object.GetList(); l != nil {
		for _, n := range l.Items {
			names = append(names, n.GetString_().GetSval())
		}
	}
	c := &Comment{Text: cs.Comment}
	switch cs.Objtype {
	case pg_query.ObjectType_OBJECT_SEQUENCE:
		return b.bindCommentOnSequence(cs, names) // sequence.go
	case pg_query.ObjectType_OBJECT_TYPE, pg_query.ObjectType_OBJECT_DOMAIN, pg_query.ObjectType_OBJECT_DOMCONSTRAINT:
		return b.bindCommentType(cs)
	case pg_query.ObjectType_OBJECT_TABLE, pg_query.ObjectType_OBJECT_VIEW:
	case pg_query.ObjectType_OBJECT_COLUMN:
		if len(names) < 2 {
			return nil, pgerr.New(pgerr.SyntaxError, "column name must be qualified")
		}
		c.Column, names = names[len(names)-1], names[:len(names)-1]
	default:
		return nil, pgerr.New(pgerr.FeatureNotSupported, "COMMENT ON %s is not supported", objectTypeName(cs.Objtype))
	}
	rv := commentTarget(names)
	if _, err := b.tableName(rv); err != nil {
		return nil, withoutPosition(err)
	}
	c.Table, c.Schema = rv.Relname, rv.Schemaname
	c.Key, c.Temp = b.relationKey(rv)
	tbl, isTable := b.lookupStored(rv.Schemaname, rv.Relname)
	var cols []string
	if isTable {
		for _, d := range tbl.Columns() {
			cols = append(cols, d.Name)
		}
	} else if v, ok := b.cat.LookupView(c.Key); ok && c.Key != "" {
		c.View, cols = true, v.Columns
	} else {
		if _, err := b.lookupTable(rv); err != nil {
			return nil, withoutPosition(err)
		}
		// A system catalog: PostgreSQL keeps a superuser's comment on it.
		return nil, pgerr.New(pgerr.FeatureNotSupported, "COMMENT ON a system catalog is not supported")
	}
	switch {
	case cs.Objtype == pg_query.ObjectType_OBJECT_TABLE && c.View:
		return nil, pgerr.New(pgerr.WrongObjectType, "\"%s\" is not a table", c.Table)
	case cs.Objtype == pg_query.ObjectType_OBJECT_VIEW && !c.View:
		return nil, pgerr.New(pgerr.WrongObjectType, "\"%s\" is not a view", c.Table)
	}
	if c.Column != "" {
		found := false
		for _, n := range cols {
			found = found || n == c.Column
		}
		if !found {
			return nil, pgerr.New(pgerr.UndefinedColumn, "column \"%s\" of relation \"%s\" does not exist", c.Column, c.Table)
		}
	}
	return c, nil
}

// commentTarget is the relation a COMMENT's dotted name names.
func commentTarget(names []string) *pg_query.RangeVar {
	rv := &pg_query.RangeVar{Relname: names[len(names)-1], Inh: true, Relpersistence: "p", Location: -1}
	if len(names) > 1 {
		rv.Schemaname = names[len(names)-2]
	}
	if len(names) > 2 {
		rv.Catalogname = names[len(names)-3]
	}
	return rv
}
