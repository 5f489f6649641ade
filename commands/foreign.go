package commands

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/joind/joind/external"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql"
	"github.com/joind/joind/storage"
)

// file_fdw's objects (sql/foreign.go): the extension, servers and foreign
// tables, and their dependencies — a server on its extension's wrapper, a
// foreign table on its server.

func createForeignObject(ctx context.Context, s Session, x *sql.CreateForeignObject) (string, error) {
	cat := s.Catalog()
	tag := "CREATE SERVER"
	what := "server"
	if x.Object.Kind == 'e' {
		tag, what = "CREATE EXTENSION", "extension"
	}
	if _, ok := sql.LookupForeign(cat, x.Object.Kind, x.Object.Name); ok {
		if x.IfNotExists {
			return tag, s.Notice(&pgerr.Error{Severity: "NOTICE", Code: "42710",
				Message: fmt.Sprintf("%s \"%s\" already exists, skipping", what, x.Object.Name)})
		}
	}
	_, err := cat.Txn.CreateForeignObject(ctx, x.Object)
	return tag, err
}

func createForeignTable(ctx context.Context, s Session, x *sql.CreateForeignTable) (string, error) {
	cat := s.Catalog()
	ct := x.Table
	if relationExists(cat, ct.Name, false) && ct.IfNotExists {
		return "CREATE FOREIGN TABLE", s.Notice(&pgerr.Error{Severity: "NOTICE", Code: "42P07",
			Message: fmt.Sprintf("relation %q already exists, skipping", storage.BareName(ct.Name))})
	}
	if relationExists(cat, ct.Name, false) || hasSequence(cat, ct.Name) {
		return "", pgerr.New(pgerr.DuplicateTable, "relation %q already exists", storage.BareName(ct.Name))
	}
	if err := createConstrained(ctx, cat, ct); err != nil {
		return "", err
	}
	tb, ok := cat.Txn.Lookup(ct.Name)
	if !ok {
		return "", pgerr.New(pgerr.InternalError, "foreign table %q vanished", ct.Name)
	}
	if x.IcebergCreate != "" {
		// An empty table: left behind harmlessly if the transaction
		// rolls back.
		if err := external.CreateIceberg(x.IcebergCreate, tb.Columns(), sql.IcebergPartitionBy(x.Def.Options)); err != nil {
			return "", err
		}
	}
	return "CREATE FOREIGN TABLE", cat.Txn.SetForeign(ctx, tb, x.Def)
}

// foreignTablesOf are the keys of the foreign tables of the servers named.
func foreignTablesOf(cat *Catalog, servers map[string]bool) []string {
	var out []string
	for _, tb := range cat.Txn.Tables() {
		if d := storage.ForeignDefOf(tb); d != nil && servers[d.Server] {
			out = append(out, tb.Name())
		}
	}
	sort.Slice(out, func(i, j int) bool {
		a, _ := cat.Txn.Lookup(out[i])
		b, _ := cat.Txn.Lookup(out[j])
		return tableOID(a) < tableOID(b)
	})
	return out
}

func dropForeignObject(ctx context.Context, s Session, x *sql.DropForeignObject) (string, error) {
	cat := s.Catalog()
	tag, what := "DROP SERVER", "server"
	if x.Kind == 'e' {
		tag, what = "DROP EXTENSION", "extension"
	}
	var drop []storage.ForeignObject
	for _, n := range x.Names {
		o, ok := sql.LookupForeign(cat, x.Kind, n)
		if !ok && x.Kind == 'e' && n == "pg_stat_statements" {
			return "", pgerr.New(pgerr.FeatureNotSupported, "extension \"pg_stat_statements\" is built into joind and cannot be dropped")
		}
		if !ok {
			if !x.IfExists {
				return "", pgerr.New(pgerr.UndefinedObject, "%s \"%s\" does not exist", what, n)
			}
			if err := s.Notice(&pgerr.Error{Severity: "NOTICE", Code: "00000",
				Message: fmt.Sprintf("%s \"%s\" does not exist, skipping", what, n)}); err != nil {
				return "", err
			}
			continue
		}
		drop = append(drop, o)
	}
	// What depends on them: an extension's servers, and the servers'
	// foreign tables.
	servers := map[string]bool{}
	var deps []string // "server s" / "foreign table t", in dependency order
	var lines []string
	var dropServers []storage.ForeignObject
	for _, o := range drop {
		if o.Kind == 's' {
			servers[o.Name] = true
			continue
		}
		for _, srv := range cat.Txn.ForeignObjects() {
			if srv.Kind == 's' && srv.Wrapper == o.Name {
				servers[srv.Name] = true
				dropServers = append(dropServers, srv)
				deps = append(deps, "server "+srv.Name)
				lines = append(lines, fmt.Sprintf("server %s depends on foreign-data wrapper %s", srv.Name, o.Name))
			}
		}
	}
	tables := foreignTablesOf(cat, servers)
	var views []string // the views over the tables, in PostgreSQL's order
	seen := map[string]bool{}
	name := storage.BareName
	for _, key := range tables {
		tb, _ := cat.Txn.Lookup(key)
		deps = append(deps, "foreign table "+name(key))
		lines = append(lines, fmt.Sprintf("foreign table %s depends on server %s", name(key), storage.ForeignDefOf(tb).Server))
		for _, d := range dependentsOf(cat, []string{key}) {
			lines = append(lines, fmt.Sprintf("view %s depends on %s %s", name(d.view), d.kind, name(d.on)))
			if !seen[d.view] {
				seen[d.view] = true
				deps = append(deps, "view "+name(d.view))
				views = append(views, d.view)
			}
		}
	}
	if len(deps) > 0 {
		if !x.Cascade {
			msg := "cannot drop desired object(s) because other objects depend on them"
			if len(drop) == 1 {
				msg = fmt.Sprintf("cannot drop %s %s because other objects depend on it", what, drop[0].Name)
			}
			return "", pgerr.New(codeDependentObjects, "%s", msg).WithDetail("%s", strings.Join(lines, "\n")).
				WithHint("Use DROP ... CASCADE to drop the dependent objects too.")
		}
		n := &pgerr.Error{Severity: "NOTICE", Code: "00000"}
		if len(deps) == 1 {
			n.Message = "drop cascades to " + deps[0]
		} else {
			n.Message = fmt.Sprintf("drop cascades to %d other objects", len(deps))
			for i, d := range deps {
				if i > 0 {
					n.Detail += "\n"
				}
				n.Detail += "drop cascades to " + d
			}
		}
		if err := s.Notice(n); err != nil {
			return "", err
		}
		for _, v := range views {
			if err := cat.DropView(ctx, v); err != nil {
				return "", err
			}
		}
		for _, key := range tables {
			if err := cat.Txn.Drop(ctx, key); err != nil {
				return "", err
			}
		}
	}
	for _, o := range append(dropServers, drop...) {
		if err := cat.Txn.DropForeignObject(ctx, o.ID); err != nil {
			return "", err
		}
	}
	return tag, nil
}

// foreignDropKindErr is DROP TABLE's error for a foreign table, and DROP
// FOREIGN TABLE's for a table that is not one (nil when t is of the kind).
func foreignDropKindErr(cat *Catalog, t sql.DropTarget, foreign bool) error {
	if t.Key == "" || t.IsView || t.IsSeq {
		return nil
	}
	var tb storage.Table
	var ok bool
	if t.Temp {
		tb, ok = cat.LookupIn("pg_temp", t.Key)
	} else {
		tb, ok = cat.Txn.Lookup(t.Key)
	}
	if !ok || (storage.ForeignDefOf(tb) != nil) == foreign {
		return nil
	}
	if foreign {
		return pgerr.New(pgerr.WrongObjectType, "\"%s\" is not a foreign table", t.Name).WithHint("Use DROP TABLE to remove a table.")
	}
	return pgerr.New(pgerr.WrongObjectType, "\"%s\" is not a table", t.Name).WithHint("Use DROP FOREIGN TABLE to remove a foreign table.")
}
