package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/joind/joind/pgcatalog"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
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
	if err := foreignWriteErr(tbl, "index"); err != nil { // foreign.go
		return nil, err
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
			if c.Name != el.Name {
				continue
			}
			found = true
			if err := checkOpclass(c.Type, method); err != nil {
				return nil, err
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

// checkOpclass is the check that key type t has a default operator class
// of index method: a btree needs an ordering, a hash index equality.
func checkOpclass(t types.Type, method string) error {
	ok := types.HasOrdering(t)
	if method == storage.MethodHash {
		ok = types.HasEquality(t)
	}
	if ok {
		return nil
	}
	return pgerr.New(pgerr.UndefinedObject, "data type %s has no default operator class for access method \"%s\"", t.SQLName(), method).
		WithHint("You must specify an operator class for the index or define a default operator class for the data type.")
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

// indexName is a possibly qualified index name's relation key (indexKey).
func (b *binder) indexName(items []*pg_query.Node) (string, error) {
	var parts []string
	for _, p := range items {
		parts = append(parts, p.GetString_().GetSval())
	}
	switch len(parts) {
	case 1:
		return b.indexKey("", parts[0])
	case 2:
		return b.indexKey(parts[0], parts[1])
	}
	return "", pgerr.New(pgerr.SyntaxError, "improper qualified name (too many dotted names): %s", strings.Join(parts, "."))
}

// indexKey resolves an index name as every relation name is (over the
// search path, or in the schema named): the key of the index found (a
// temporary table's index: its bare name). A name no index has resolves
// like any relation (so DROP INDEX of a table can say so), else to its
// key in the schema named, or the bare name; messages show BareName.
func (b *binder) indexKey(schema, name string) (string, error) {
	var path []pgcatalog.Namespace
	if schema == "pg_temp" {
		return name, nil
	} else if schema == "" {
		path = b.lookupPath()
	} else if ns, ok := b.snapshot().NamespaceByName(schema); ok {
		path = []pgcatalog.Namespace{ns}
	} else {
		return "", pgerr.New("3F000", "schema \"%s\" does not exist", schema)
	}
	has := func(tables []storage.Table, key string) bool {
		for _, t := range tables {
			for _, d := range storage.IndexesOf(t) {
				if storage.IndexKey(t.Name(), d) == key {
					return true
				}
			}
		}
		return false
	}
	for _, ns := range path {
		switch ns.Kind {
		case pgcatalog.NsTemp:
			if temps, _ := b.snapshot().TempTables(); has(temps, name) {
				return name, nil
			}
		case pgcatalog.NsUser:
			if key := ns.Key(name); has(b.cat.Tables(), key) {
				return key, nil
			}
		}
	}
	rv := &pg_query.RangeVar{Schemaname: schema, Relname: name, Location: -1}
	if r, err := b.resolveRelation(rv); err == nil && r.key != "" {
		return r.key, nil
	}
	if len(path) == 1 && path[0].Kind == pgcatalog.NsUser {
		return path[0].Key(name), nil
	}
	return name, nil
}

func (b *binder) bindReindex(st *pg_query.ReindexStmt) (Statement, error) {
	if len(st.Params) > 0 {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "REINDEX options are not supported")
	}
	switch st.Kind {
	case pg_query.ReindexObjectType_REINDEX_OBJECT_INDEX:
		key, err := b.indexKey(st.Relation.Schemaname, st.Relation.Relname)
		if err != nil {
			return nil, err
		}
		return &Reindex{Index: key}, nil
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
	key, err := b.indexKey(rs.Relation.Schemaname, rs.Relation.Relname)
	if err != nil {
		return nil, err
	}
	return &AlterIndexRename{Name: key, To: rs.Newname, IfExists: rs.MissingOk}, nil
}
