package commands

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql"
	"github.com/joind/joind/storage"
)

// CREATE TABLE, CREATE TABLE AS and DROP TABLE, permanent and temporary.

func createTable(ctx context.Context, s Session, x *sql.CreateTable) (string, error) {
	cat := s.Catalog()
	if !x.Temp {
		if err := checkCreateInKey(s, x.Name); err != nil { // roles.go
			return "", err
		}
	}
	if relationExists(cat, x.Name, x.Temp) && x.IfNotExists {
		return "CREATE TABLE", s.Notice(&pgerr.Error{Severity: "NOTICE", Code: "42P07",
			Message: fmt.Sprintf("relation %q already exists, skipping", storage.BareName(x.Name))})
	}
	if relationExists(cat, x.Name, x.Temp) || !x.Temp && hasSequence(cat, x.Name) {
		return "", pgerr.New(pgerr.DuplicateTable, "relation %q already exists", storage.BareName(x.Name))
	}
	if err := createOwnedSequences(ctx, cat, x.Sequences, x.Columns); err != nil {
		return "", err
	}
	if err := createConstrained(ctx, cat, x); err != nil {
		return "", err
	}
	if !x.Temp {
		if t, ok := cat.Txn.Lookup(x.Name); ok {
			if o, ok := t.(interface{ ObjectID() uint32 }); ok {
				for _, sq := range x.Sequences {
					if def, ok := seqCatalog(cat).LookupSequence(sq.Name); ok {
						if err := recordSequenceOwner(s, def); err != nil {
							return "", err
						}
					}
				}
				return "CREATE TABLE", recordOwner(s, o.ObjectID(), x.Name)
			}
		}
	}
	return "CREATE TABLE", nil
}

// relationExists reports whether the schema a new table goes to (pg_temp,
// or the schema of its storage key) has a table or view of that name.
func relationExists(cat *Catalog, name string, temp bool) bool {
	if temp {
		_, ok := cat.LookupIn("pg_temp", name)
		return ok
	}
	if _, ok := cat.LookupIn("public", name); ok {
		return true
	}
	_, isView := cat.LookupView(name) // tables and views share a namespace
	return isView
}

// createIn creates a permanent or a temporary table.
func createIn(ctx context.Context, cat *Catalog, name string, cols []storage.ColumnDef, temp bool, oc sql.OnCommit) (storage.Table, error) {
	if temp {
		return cat.tt.create(ctx, name, cols, oc)
	}
	return cat.Create(ctx, name, cols)
}

func createTableAs(ctx context.Context, s Session, x *sql.CreateTableAs) (string, error) {
	cat := s.Catalog()
	if relationExists(cat, x.Name, x.Temp) {
		if x.IfNotExists {
			return "CREATE TABLE AS", s.Notice(&pgerr.Error{Severity: "NOTICE", Code: "42P07",
				Message: fmt.Sprintf("relation %q already exists, skipping", storage.BareName(x.Name))})
		}
		return "", pgerr.New(pgerr.DuplicateTable, "relation %q already exists", storage.BareName(x.Name))
	}
	var recs []arrow.Record
	if !x.WithNoData {
		var err error
		if recs, err = s.Collect(ctx, x.Query); err != nil {
			return "", err
		}
	}
	t, err := createIn(ctx, cat, x.Name, x.Columns, x.Temp, x.OnCommit)
	if err != nil {
		return "", err
	}
	if x.WithNoData {
		return "CREATE TABLE AS", nil
	}
	n, err := AppendRecords(ctx, cat, t, recs, s.Format())
	if err != nil {
		// The statement's transaction is discarded: no table is left behind.
		return "", err
	}
	return fmt.Sprintf("SELECT %d", n), nil
}

func dropTable(ctx context.Context, s Session, x *sql.DropTable) (string, error) {
	return dropRelations(ctx, s, x, "table", "DROP TABLE")
}

// dropRelations is DROP TABLE and DROP FOREIGN TABLE (kind "foreign
// table", foreign.go).
func dropRelations(ctx context.Context, s Session, x *sql.DropTable, kind, tag string) (string, error) {
	cat := s.Catalog()
	// The binder resolved each name on the search path.
	var present []sql.DropTarget
	var permanent, temporary []string
	for _, t := range x.Targets {
		if t.IsView {
			return "", pgerr.New(pgerr.WrongObjectType, "\"%s\" is not a table", t.Name).WithHint("Use DROP VIEW to remove a view.")
		}
		if t.IsSeq {
			return "", pgerr.New(pgerr.WrongObjectType, "\"%s\" is not a table", t.Name).WithHint("Use DROP SEQUENCE to remove a sequence.")
		}
		if err := foreignDropKindErr(cat, t, kind == "foreign table"); err != nil {
			return "", err
		}
		if t.Key != "" && !t.Temp {
			if tb, ok := cat.Txn.Lookup(t.Key); ok {
				if o, ok := tb.(interface{ ObjectID() uint32 }); ok {
					if err := checkOwner(s, o.ObjectID(), "table", storage.BareName(t.Key)); err != nil {
						return "", err
					}
				}
			}
		}
		if t.Key != "" {
			present = append(present, t)
			if !t.Temp {
				permanent = append(permanent, t.Key)
			} else {
				temporary = append(temporary, t.Key)
			}
			continue
		}
		if err := dropMissing(s, x.IfExists, kind, t); err != nil {
			return "", err
		}
	}
	// Foreign keys of other tables (constraint.go) depend on tables of
	// their kind (temporary or permanent), views on permanent tables only.
	if err := dropForeignKeys(ctx, s, permanent, false, x.Cascade, x.RelName); err != nil {
		return "", err
	}
	if err := dropForeignKeys(ctx, s, temporary, true, x.Cascade, x.RelName); err != nil {
		return "", err
	}
	if err := dropDependents(ctx, s, kind, permanent, x.Cascade, x.RelName); err != nil {
		return "", err
	}
	for _, t := range present {
		var err error
		if t.Temp {
			if err = cat.temp().Drop(ctx, t.Key); err == nil {
				err = dropOwnedSequences(ctx, cat, t.Key, true)
			}
		} else {
			if err = cat.Txn.Drop(ctx, t.Key); err == nil {
				err = dropOwnedSequences(ctx, cat, t.Key, false)
			}
		}
		if err != nil {
			return "", err
		}
	}
	return tag, nil
}

// dropMissing is DROP's answer for a name no relation has: 42P01, or with
// IF EXISTS a NOTICE (naming the missing schema when that is the reason).
func dropMissing(s Session, ifExists bool, kind string, t sql.DropTarget) error {
	if !ifExists {
		if kind == "foreign table" {
			return pgerr.New(pgerr.UndefinedObject, "%s %q does not exist", kind, t.Name)
		}
		return pgerr.New(pgerr.UndefinedTable, "%s %q does not exist", kind, t.Name)
	}
	msg := fmt.Sprintf("%s %q does not exist, skipping", kind, t.Name)
	if t.NoSchema != "" {
		msg = fmt.Sprintf("schema %q does not exist, skipping", t.NoSchema)
	}
	return s.Notice(&pgerr.Error{Severity: "NOTICE", Code: "00000", Message: msg})
}

// tableOID is a stored table's OID (0 for one without: a system table).
func tableOID(t storage.Table) uint32 {
	if o, ok := t.(interface{ ObjectID() uint32 }); ok {
		return o.ObjectID()
	}
	return 0
}
