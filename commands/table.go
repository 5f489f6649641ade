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
	if relationExists(cat, x.Name, x.Temp) && x.IfNotExists {
		return "CREATE TABLE", s.Notice(&pgerr.Error{Severity: "NOTICE", Code: "42P07",
			Message: fmt.Sprintf("relation %q already exists, skipping", x.Name)})
	}
	if relationExists(cat, x.Name, x.Temp) || !x.Temp && hasSequence(cat, x.Name) {
		return "", pgerr.New(pgerr.DuplicateTable, "relation %q already exists", x.Name)
	}
	if err := createOwnedSequences(ctx, cat, x.Sequences, x.Columns); err != nil {
		return "", err
	}
	return "CREATE TABLE", createConstrained(ctx, cat, x)
}

// relationExists reports whether the schema a new table goes to (pg_temp
// or public) has a relation of that name.
func relationExists(cat *Catalog, name string, temp bool) bool {
	if temp {
		_, ok := cat.LookupIn("pg_temp", name)
		return ok
	}
	_, ok := cat.LookupIn("public", name)
	return ok
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
				Message: fmt.Sprintf("relation %q already exists, skipping", x.Name)})
		}
		return "", pgerr.New(pgerr.DuplicateTable, "relation %q already exists", x.Name)
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
	cat := s.Catalog()
	// Each name goes to the schema it names, or the first on the search
	// path that has it: pg_temp, then public.
	type target struct {
		name string
		temp bool
	}
	var present []target
	var permanent []string
	for i, name := range x.Names {
		schema := ""
		if i < len(x.Schemas) {
			schema = x.Schemas[i]
		}
		_, isTemp := cat.LookupIn("pg_temp", name)
		if schema == "public" || schema == "pg_catalog" || (schema == "" && !isTemp) {
			if err := notATable(cat.Txn, name); err != nil {
				return "", err
			}
		}
		if isTemp && schema != "public" && schema != "pg_catalog" {
			present = append(present, target{name, true})
			continue
		}
		if schema != "pg_temp" {
			if _, ok := cat.LookupIn("public", name); ok {
				present = append(present, target{name, false})
				permanent = append(permanent, name)
				continue
			}
		}
		if !x.IfExists {
			return "", pgerr.New(pgerr.UndefinedTable, "table %q does not exist", name)
		}
		if err := s.Notice(&pgerr.Error{Severity: "NOTICE", Code: "00000",
			Message: fmt.Sprintf("table %q does not exist, skipping", name)}); err != nil {
			return "", err
		}
	}
	// Foreign keys of other tables (constraint.go), then views, depend
	// on permanent tables only.
	if err := dropForeignKeys(ctx, s, permanent, x.Cascade); err != nil {
		return "", err
	}
	if err := dropDependents(ctx, s, "table", permanent, x.Cascade); err != nil {
		return "", err
	}
	for _, t := range present {
		var err error
		if t.temp {
			if err = cat.temp().Drop(ctx, t.name); err == nil {
				err = dropOwnedSequences(ctx, cat, t.name, true)
			}
		} else {
			if err = cat.Txn.Drop(ctx, t.name); err == nil {
				err = dropOwnedSequences(ctx, cat, t.name, false)
			}
		}
		if err != nil {
			return "", err
		}
	}
	return "DROP TABLE", nil
}
