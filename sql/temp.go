package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/storage"
)

// Temporary tables. A session's temporary tables live in its own schema,
// pg_temp, which PostgreSQL searches first unless search_path places it
// (names.go): pg_temp.x is only the temporary one, s.x only a permanent one. The engine binds with a TempCatalog
// that keeps the two apart; a plain storage.Catalog has no temporary
// tables. Views read permanent tables only (PostgreSQL binds a view's
// names when it is created; a view over a temporary table would itself be
// temporary, which joind does not do).

// TempCatalog is a catalog with the session's temporary tables in front.
type TempCatalog interface {
	storage.Catalog
	// LookupIn finds a temporary table (schema "pg_temp") or a permanent
	// one by storage key (any other schema: the binder resolved it).
	LookupIn(schema, name string) (storage.Table, bool)
	// IsTemp reports whether t is one of the session's temporary tables.
	IsTemp(t storage.Table) bool
}

// OnCommit is a temporary table's ON COMMIT action.
type OnCommit uint8

const (
	PreserveRows OnCommit = iota
	DeleteRows
	DropOnCommit
)

// tempTarget reads CREATE [TEMP] TABLE's persistence and ON COMMIT clause.
func (b *binder) tempTarget(rv *pg_query.RangeVar, oc pg_query.OnCommitAction) (bool, OnCommit, error) {
	temp := rv.Relpersistence == "t" || rv.Schemaname == "pg_temp" || rv.Schemaname == "" && b.snapshot().SearchPath().CreateTemp
	if temp && rv.Schemaname != "" && rv.Schemaname != "pg_temp" {
		return false, 0, b.errAt(pgerr.New("42P16", "cannot create temporary relation in non-temporary schema"), rv.Location)
	}
	var action OnCommit
	switch oc {
	case pg_query.OnCommitAction_ONCOMMIT_DELETE_ROWS:
		action = DeleteRows
	case pg_query.OnCommitAction_ONCOMMIT_DROP:
		action = DropOnCommit
	}
	if !temp && oc != pg_query.OnCommitAction_ONCOMMIT_NOOP && oc != pg_query.OnCommitAction_ON_COMMIT_ACTION_UNDEFINED {
		return false, 0, pgerr.New("42P16", "ON COMMIT can only be used on temporary tables")
	}
	return temp, action, nil
}

// lookupStored finds a table (temporary or stored, not a view or system
// relation) by schema ("" = the search path) and name, through the one
// resolver (names.go); the table's Name() is its storage key.
// relationKey is the storage key of the table or view rv names (a
// temporary table's bare name, temp set); "" when there is none.
func (b *binder) relationKey(rv *pg_query.RangeVar) (key string, temp bool) {
	r, err := b.resolveRelation(rv)
	if err != nil || r.kind != relTable && r.kind != relView {
		return "", false
	}
	if r.temp {
		return rv.Relname, true
	}
	return r.key, false
}

func (b *binder) lookupStored(schema, name string) (storage.Table, bool) {
	r, err := b.resolveRelation(&pg_query.RangeVar{Schemaname: schema, Relname: name, Location: -1})
	if err != nil || r.kind != relTable {
		return nil, false
	}
	return r.table, true
}
