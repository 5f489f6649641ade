package commands

import (
	"context"
	"fmt"
	"strconv"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql"
	"github.com/joind/joind/storage"
)

// CREATE INDEX, DROP INDEX, REINDEX and ALTER INDEX ... RENAME, as
// PostgreSQL's src/backend/commands/indexcmds.c: an index lives in the
// catalog of its table (a temporary table's in the session's).

// lookupIndex finds an index by relation key (the binder resolved the
// name: sql's indexKey), a temporary table's first.
func (c *Catalog) lookupIndex(name string) (*storage.Txn, storage.Table, storage.IndexDef, bool) {
	if t := c.temp(); t != nil {
		if tb, d, ok := t.LookupIndex(name); ok {
			return t, tb, d, true
		}
	}
	tb, d, ok := c.Txn.LookupIndex(name)
	return c.Txn, tb, d, ok
}

// relationExists reports whether the relation key name is a table, view,
// sequence or index.
func (c *Catalog) relationExists(name string) bool {
	if _, ok := c.Lookup(name); ok {
		return true
	}
	if _, ok := c.LookupView(name); ok {
		return true
	}
	if hasSequence(c, name) {
		return true
	}
	_, _, _, ok := c.lookupIndex(name)
	return ok
}

// ChooseRelationName is PostgreSQL's ChooseRelationName: name1_name2_label
// (name2 may be ""), the longer of name1 and name2 shortened to fit 63
// bytes, with label numbered label1, label2, ... until no relation has
// the name in the schema of the relation keyed like.
func (c *Catalog) ChooseRelationName(like, name1, name2, label string) string {
	sid, _ := storage.SplitKey(like)
	mod := label
	for pass := 1; ; pass++ {
		name := sql.MakeObjectName(name1, name2, mod)
		if !c.relationExists(storage.TableKey(sid, name)) {
			return name
		}
		mod = label + strconv.Itoa(pass)
	}
}

func createIndex(ctx context.Context, s Session, st *sql.CreateIndex) (string, error) {
	const tag = "CREATE INDEX"
	c := s.Catalog()
	if !c.IsTemp(st.Table) {
		if err := checkOwner(s, relOID(s, st.Table.Name()), "table", storage.BareName(st.Table.Name())); err != nil { // roles.go
			return "", err
		}
	}
	name := st.Name
	if name == "" {
		name = c.ChooseRelationName(st.Table.Name(), storage.BareName(st.Table.Name()), sql.NameAddition(st.Cols), "idx")
	} else if st.IfNotExists && c.relationExists(storage.IndexKey(st.Table.Name(), storage.IndexDef{Name: name})) {
		return tag, s.Notice(notice(pgerr.DuplicateTable, "relation \"%s\" already exists, skipping", name))
	}
	_, err := c.txnOf(st.Table).CreateIndex(ctx, st.Table, storage.IndexDef{Name: name, Cols: st.Cols, Unique: st.Unique, Method: st.Method})
	return tag, err
}

func dropIndex(ctx context.Context, s Session, st *sql.DropIndex) (string, error) {
	const tag = "DROP INDEX"
	c := s.Catalog()
	for _, key := range st.Names {
		name := storage.BareName(key)
		txn, tb, d, ok := c.lookupIndex(key)
		if !ok {
			if _, isTable := c.Lookup(key); isTable {
				return "", pgerr.New(pgerr.WrongObjectType, "\"%s\" is not an index", name).WithHint("Use DROP TABLE to remove a table.")
			}
			if _, isView := c.LookupView(key); isView {
				return "", pgerr.New(pgerr.WrongObjectType, "\"%s\" is not an index", name).WithHint("Use DROP VIEW to remove a view.")
			}
			if st.IfExists {
				if err := s.Notice(notice("00000", "index \"%s\" does not exist, skipping", name)); err != nil {
					return "", err
				}
				continue
			}
			return "", pgerr.New(pgerr.UndefinedObject, "index \"%s\" does not exist", name)
		}
		if d.Constraint {
			return "", pgerr.New("2BP01", "cannot drop index %s because constraint %s on table %s requires it", name, name, storage.BareName(tb.Name())).
				WithHint("You can drop constraint %s on table %s instead.", name, storage.BareName(tb.Name()))
		}
		if err := txn.DropIndex(ctx, key); err != nil {
			return "", err
		}
	}
	return tag, nil
}

func reindex(s Session, st *sql.Reindex) (string, error) {
	c := s.Catalog()
	tb := st.Table
	if tb == nil {
		_, t, _, ok := c.lookupIndex(st.Index)
		if !ok {
			if _, isTable := c.Lookup(st.Index); isTable {
				return "", pgerr.New(pgerr.WrongObjectType, "\"%s\" is not an index", storage.BareName(st.Index))
			}
			return "", pgerr.New(pgerr.UndefinedTable, "relation \"%s\" does not exist", storage.BareName(st.Index))
		}
		tb = t
	}
	c.txnOf(tb).Reindex(tb)
	return "REINDEX", nil
}

func alterIndexRename(ctx context.Context, s Session, st *sql.AlterIndexRename) (string, error) {
	const tag = "ALTER INDEX"
	c := s.Catalog()
	name := storage.BareName(st.Name)
	txn, tb, d, ok := c.lookupIndex(st.Name)
	if !ok {
		if _, isTable := c.Lookup(st.Name); isTable {
			return "", pgerr.New(pgerr.FeatureNotSupported, "ALTER INDEX of table \"%s\" is not supported; use ALTER TABLE", name)
		}
		if st.IfExists {
			return tag, s.Notice(notice("00000", "relation \"%s\" does not exist, skipping", name))
		}
		return "", pgerr.New(pgerr.UndefinedTable, "relation \"%s\" does not exist", name)
	}
	if d.Constraint {
		return "", pgerr.New(pgerr.FeatureNotSupported, "renaming the index of constraint \"%s\" is not supported", name)
	}
	if st.To != name && c.relationExists(storage.IndexKey(tb.Name(), storage.IndexDef{Name: st.To})) {
		return "", pgerr.New(pgerr.DuplicateTable, "relation \"%s\" already exists", st.To)
	}
	return tag, txn.RenameIndex(ctx, st.Name, st.To)
}

// notice is a NOTICE with SQLSTATE code.
func notice(code, format string, args ...any) *pgerr.Error {
	return &pgerr.Error{Severity: "NOTICE", Code: code, Message: fmt.Sprintf(format, args...)}
}
