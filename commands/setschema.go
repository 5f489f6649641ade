package commands

import (
	"context"
	"fmt"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql"
	"github.com/joind/joind/storage"
)

// ALTER TABLE / VIEW / SEQUENCE ... SET SCHEMA: a relation's schema is
// part of its storage key (storage.TableKey), so moving it is a rename of
// the key, with what a rename of the relation carries along: the
// constraints naming it, the views reading it (their text names it
// schema-qualified, qualifyStored) and the sequences its columns own,
// which move to the new schema with it as in PostgreSQL.

func setSchema(ctx context.Context, s Session, x *sql.SetSchema) (string, error) {
	if x.Missing {
		return x.Tag, s.Notice(&pgerr.Error{Severity: "NOTICE", Code: "00000",
			Message: fmt.Sprintf("relation \"%s\" does not exist, skipping", x.Name)})
	}
	cat := s.Catalog()
	sid, bare := storage.SplitKey(x.Key)
	if sid == x.SchemaID {
		return x.Tag, nil // already there: PostgreSQL does nothing
	}
	key := storage.TableKey(x.SchemaID, bare)
	if err := relationFree(cat, key, bare, x.SchemaName); err != nil {
		return "", err
	}
	switch x.Kind {
	case 'v':
		return x.Tag, moveView(ctx, cat, x.Key, key)
	case 'S':
		def, ok := seqCatalog(cat).LookupSequence(x.Key)
		if !ok {
			return "", pgerr.New(pgerr.UndefinedTable, "relation \"%s\" does not exist", x.Name)
		}
		def.Name = key
		return x.Tag, seqCatalog(cat).AlterSequence(ctx, x.Key, def, nil)
	}
	tb, ok := cat.lookupKey(x.Key, false)
	if !ok {
		return "", pgerr.New(pgerr.UndefinedTable, "relation \"%s\" does not exist", x.Name)
	}
	cols := tb.Columns()
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = c.Name
	}
	used := map[string][]bool{}
	for _, v := range viewsOn(cat, tb.Name()) {
		u, err := x.UsedColumns(cat, v, tb)
		if err != nil {
			return "", err
		}
		used[v.Name] = u
	}
	if err := cat.Txn.Alter(ctx, tb, key, cols); err != nil {
		return "", err
	}
	if err := renameInConstraints(ctx, cat, cat.Txn, x.Key, key, names, names); err != nil { // constraint.go
		return "", err
	}
	if err := followOwnedSequences(ctx, cat, x.Key, key, false, "", "", &x.SchemaID); err != nil {
		return "", err
	}
	return x.Tag, rewriteViews(ctx, cat, x.Key, key, names, names, used)
}

// relationFree refuses a key another relation (table, view or sequence)
// of the target schema already has.
func relationFree(cat *Catalog, key, bare, schema string) error {
	_, table := cat.LookupIn("public", key)
	_, view := cat.LookupView(key)
	if table || view || hasSequence(cat, key) {
		return pgerr.New(pgerr.DuplicateTable, "relation \"%s\" already exists in schema \"%s\"", bare, schema)
	}
	return nil
}

// moveView renames view key from to to, rewriting the views that read it.
func moveView(ctx context.Context, cat *Catalog, from, to string) error {
	v, ok := cat.LookupView(from)
	if !ok {
		return pgerr.New(pgerr.UndefinedTable, "relation \"%s\" does not exist", storage.BareName(from))
	}
	if err := cat.Txn.RenameView(ctx, from, to); err != nil {
		return err
	}
	return rewriteViews(ctx, cat, from, to, v.Columns, v.Columns, nil)
}

// followOwnedSequences keeps the sequences owned by table's columns owned
// after the table became newTable (RENAME, SET SCHEMA) and column col
// became newCol (RENAME COLUMN; col "" for none); with schema set they
// move to that schema too.
func followOwnedSequences(ctx context.Context, cat *Catalog, table, newTable string, temp bool, col, newCol string, schema *uint64) error {
	sc := seqCatalog(cat)
	for _, def := range sc.Sequences() {
		if def.OwnedTable != table || def.Temp != temp {
			continue
		}
		name := def.Name
		def.OwnedTable = newTable
		if col != "" && def.OwnedColumn == col {
			def.OwnedColumn = newCol
		}
		if schema != nil {
			_, bare := storage.SplitKey(def.Name)
			def.Name = storage.TableKey(*schema, bare)
		}
		if err := sc.AlterSequence(ctx, name, def, nil); err != nil {
			return err
		}
	}
	return nil
}
