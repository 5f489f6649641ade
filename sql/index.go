package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/storage"
)

// CreateIndex is CREATE [UNIQUE] INDEX [CONCURRENTLY] [IF NOT EXISTS]
// [name] ON table [USING method] (columns). The command chooses the name
// when none is given (PostgreSQL's ChooseIndexName).
type CreateIndex struct {
	Table        storage.Table
	Name         string // "" = generated
	Cols         []string
	Unique       bool
	Method       string // storage.MethodBtree or MethodHash
	IfNotExists  bool
	Concurrently bool
}

// DropIndex is DROP INDEX [CONCURRENTLY] [IF EXISTS] names [CASCADE | RESTRICT].
type DropIndex struct {
	Names    []string
	IfExists bool
	Cascade  bool
}

// Reindex is REINDEX INDEX name or REINDEX TABLE name.
type Reindex struct {
	Index string        // REINDEX INDEX
	Table storage.Table // REINDEX TABLE
}

// AlterIndexRename is ALTER INDEX [IF EXISTS] name RENAME TO new.
type AlterIndexRename struct {
	Name, To string
	IfExists bool
}

func (*CreateIndex) statement()      {}
func (*DropIndex) statement()        {}
func (*Reindex) statement()          {}
func (*AlterIndexRename) statement() {}

func (b *binder) bindCreateIndex(st *pg_query.IndexStmt) (Statement, error) {
	if _, err := b.tableName(st.Relation); err != nil {
		return nil, err
	}
	tbl, err := b.lookupTable(st.Relation)
	if err != nil {
		if _, isView := b.cat.LookupView(st.Relation.Relname); isView {
			return nil, pgerr.New(pgerr.WrongObjectType, "cannot create index on relation \"%s\"", st.Relation.Relname).
				WithDetail("This operation is not supported for views.")
		}
		return nil, withoutPosition(err)
	}
	method := strings.ToLower(st.AccessMethod)
	switch method {
	case storage.MethodBtree, storage.MethodHash:
	case "gin", "gist", "spgist", "brin":
		return nil, pgerr.New(pgerr.FeatureNotSupported, "access method \"%s\" is not supported", method)
	default:
		return nil, pgerr.New(pgerr.UndefinedObject, "access method \"%s\" does not exist", method)
	}
	switch {
	case st.WhereClause != nil:
		return nil, pgerr.New(pgerr.FeatureNotSupported, "partial indexes are not supported")
	case len(st.IndexIncludingParams) > 0:
		return nil, pgerr.New(pgerr.FeatureNotSupported, "INCLUDE columns of an index are not supported")
	case st.NullsNotDistinct:
		return nil, pgerr.New(pgerr.FeatureNotSupported, "NULLS NOT DISTINCT is not supported")
	case len(st.Options) > 0:
		return nil, pgerr.New(pgerr.FeatureNotSupported, "index storage parameters are not supported")
	case st.TableSpace != "":
		return nil, pgerr.New(pgerr.FeatureNotSupported, "tablespaces are not supported")
	}
	out := &CreateIndex{Table: tbl, Name: st.Idxname, Unique: st.Unique, Method: method,
		IfNotExists: st.IfNotExists, Concurrently: st.Concurrent}
	for _, p := range st.IndexParams {
		el := p.GetIndexElem()
		switch {
		case el.Expr != nil:
			return nil, pgerr.New(pgerr.FeatureNotSupported, "indexes on expressions are not supported")
		case len(el.Collation) > 0 || len(el.Opclass) > 0 || len(el.Opclassopts) > 0:
			return nil, pgerr.New(pgerr.FeatureNotSupported, "index operator classes and collations are not supported")
		case el.Ordering != pg_query.SortByDir_SORTBY_DEFAULT || el.NullsOrdering != pg_query.SortByNulls_SORTBY_NULLS_DEFAULT:
			return nil, pgerr.New(pgerr.FeatureNotSupported, "index column ordering options are not supported")
		}
		found := false
		for _, c := range tbl.Columns() {
			if c.Name == el.Name {
				found = true
			}
		}
		if !found {
			return nil, pgerr.New(pgerr.UndefinedColumn, "column \"%s\" does not exist", el.Name)
		}
		out.Cols = append(out.Cols, el.Name)
	}
	if method == storage.MethodHash {
		if out.Unique {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "access method \"hash\" does not support unique indexes")
		}
		if len(out.Cols) > 1 {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "access method \"hash\" does not support multicolumn indexes")
		}
	}
	return out, nil
}

// bindDropIndex binds DROP INDEX (bindDrop's OBJECT_INDEX).
func (b *binder) bindDropIndex(ds *pg_query.DropStmt) (Statement, error) {
	out := &DropIndex{IfExists: ds.MissingOk, Cascade: ds.Behavior == pg_query.DropBehavior_DROP_CASCADE}
	for _, o := range ds.Objects {
		name, err := b.indexName(o.GetList().GetItems())
		if err != nil {
			if ds.MissingOk && pgerr.Code(err) == "3F000" {
				continue
			}
			return nil, err
		}
		out.Names = append(out.Names, name)
	}
	return out, nil
}

// indexName is a possibly qualified index name's relation name.
func (b *binder) indexName(items []*pg_query.Node) (string, error) {
	var parts []string
	for _, p := range items {
		parts = append(parts, p.GetString_().GetSval())
	}
	switch len(parts) {
	case 1:
	case 2:
		if parts[0] != "public" && parts[0] != "pg_temp" {
			return "", pgerr.New("3F000", "schema \"%s\" does not exist", parts[0])
		}
	default:
		return "", pgerr.New(pgerr.SyntaxError, "improper qualified name (too many dotted names): %s", strings.Join(parts, "."))
	}
	return parts[len(parts)-1], nil
}

func (b *binder) bindReindex(st *pg_query.ReindexStmt) (Statement, error) {
	if len(st.Params) > 0 {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "REINDEX options are not supported")
	}
	switch st.Kind {
	case pg_query.ReindexObjectType_REINDEX_OBJECT_INDEX:
		return &Reindex{Index: st.Relation.Relname}, nil
	case pg_query.ReindexObjectType_REINDEX_OBJECT_TABLE:
		tbl, err := b.lookupTable(st.Relation)
		if err != nil {
			return nil, withoutPosition(err)
		}
		return &Reindex{Table: tbl}, nil
	}
	return nil, pgerr.New(pgerr.FeatureNotSupported, "REINDEX %s is not supported",
		strings.TrimPrefix(st.Kind.String(), "REINDEX_OBJECT_"))
}

func (b *binder) bindAlterIndexRename(rs *pg_query.RenameStmt) (Statement, error) {
	if rs.RenameType != pg_query.ObjectType_OBJECT_INDEX {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "ALTER ... RENAME is not supported")
	}
	return &AlterIndexRename{Name: rs.Relation.Relname, To: rs.Newname, IfExists: rs.MissingOk}, nil
}
