package commands

import (
	"context"
	"fmt"
	"strings"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql"
	"github.com/joind/joind/storage"
)

// CREATE SCHEMA, DROP SCHEMA and ALTER SCHEMA (PostgreSQL's schemacmds.c).
// A schema's relations are the stored tables and views whose storage key
// carries its id (storage.TableKey); dropping it drops them (CASCADE) or
// refuses with their list (RESTRICT), as PostgreSQL's dependency code
// reports it.

func schemas(cat *Catalog) storage.SchemaCatalog { return cat.Txn }

func createSchema(ctx context.Context, s Session, x *sql.CreateSchema) (string, error) {
	if x.Exists {
		return "CREATE SCHEMA", s.Notice(&pgerr.Error{Severity: "NOTICE", Code: "42P06",
			Message: fmt.Sprintf("schema \"%s\" already exists, skipping", x.Name)})
	}
	cat := s.Catalog()
	if err := checkCreateSchema(s); err != nil { // roles.go
		return "", err
	}
	owner := x.Owner
	if owner == "" && s.Roles().Current != storage.OIDBootstrapRole {
		owner = s.Roles().CurrentName
	}
	sc, err := schemas(cat).CreateSchema(ctx, x.Name, owner)
	if err != nil {
		return "", err
	}
	if err := recordSchemaOwner(s, sc); err != nil {
		return "", err
	}
	if err := applySchemaDefaults(s, sc); err != nil { // roles.go
		return "", err
	}
	for i := 0; i < x.Elements; i++ {
		st, err := x.BindElement(cat, i)
		if err != nil {
			return "", err
		}
		if _, ok, err := Execute(ctx, s, st); err != nil || !ok {
			if err == nil {
				err = pgerr.New(pgerr.FeatureNotSupported, "this CREATE SCHEMA element is not supported")
			}
			return "", err
		}
	}
	return "CREATE SCHEMA", nil
}

// schemaDrops lists what dropping the schemas removes, in PostgreSQL's
// order (dropOrder): a schema's dependents are its relations, a
// relation's the views reading it.
func schemaDrops(cat *Catalog, names []string) []depObject {
	views := cat.Views()
	var rels []depObject
	for _, t := range cat.Txn.Tables() {
		rels = append(rels, depObject{key: t.Name(), kind: "table", oid: tableOID(t)})
	}
	for _, v := range views {
		rels = append(rels, depObject{key: v.Name, kind: "view", oid: viewOID(v)})
	}
	// A sequence a table of the schema owns goes with its table
	// (PostgreSQL's auto dependency), unlisted.
	for _, d := range seqCatalog(cat).Sequences() {
		if d.Temp {
			continue
		}
		if sid, _ := storage.SplitKey(d.Name); d.OwnedTable != "" {
			if tid, _ := storage.SplitKey(d.OwnedTable); tid == sid {
				continue
			}
		}
		rels = append(rels, depObject{key: d.Name, kind: "sequence", oid: d.ObjectID()})
	}
	readers := readersOf(views)
	ids := map[string]uint64{}
	var roots []depObject
	for _, name := range names {
		if sc, ok := schemas(cat).LookupSchema(name); ok {
			ids[name] = sc.ID
			roots = append(roots, depObject{key: name, kind: "schema"})
		}
	}
	return dropOrder(roots, func(o depObject) []depObject {
		if o.kind != "schema" {
			return readers(o)
		}
		var out []depObject
		for _, r := range rels {
			if id, _ := storage.SplitKey(r.key); id == ids[o.key] {
				out = append(out, r)
			}
		}
		return out
	})
}

func dropSchema(ctx context.Context, s Session, x *sql.DropSchema) (string, error) {
	cat := s.Catalog()
	for _, name := range x.Missing {
		if err := s.Notice(&pgerr.Error{Severity: "NOTICE", Code: "00000",
			Message: fmt.Sprintf("schema \"%s\" does not exist, skipping", name)}); err != nil {
			return "", err
		}
	}
	for _, name := range x.Names {
		sc, ok := schemas(cat).LookupSchema(name)
		if !ok {
			return "", pgerr.New("3F000", "schema \"%s\" does not exist", name)
		}
		if err := checkSchemaOwner(s, sc); err != nil { // roles.go
			return "", err
		}
	}
	drops := schemaDrops(cat, x.Names)
	lines := make([]string, len(drops))
	for i, d := range drops {
		if x.Cascade {
			lines[i] = fmt.Sprintf("drop cascades to %s %s", d.kind, x.RelName(d.key))
		} else {
			from := d.fromKey // a schema's name
			if d.fromKind != "schema" {
				from = x.RelName(d.fromKey)
			}
			lines[i] = fmt.Sprintf("%s %s depends on %s %s", d.kind, x.RelName(d.key), d.fromKind, from)
		}
	}
	funcs, flines := schemaFunctions(cat, x.Names, x.Cascade) // function.go
	lines = append(lines, flines...)
	if len(lines) > 0 && !x.Cascade {
		msg := "cannot drop desired object(s) because other objects depend on them"
		if len(x.Names) == 1 {
			msg = fmt.Sprintf("cannot drop schema %s because other objects depend on it", x.Names[0])
		}
		return "", pgerr.New(codeDependentObjects, "%s", msg).WithDetail("%s", strings.Join(lines, "\n")).
			WithHint("Use DROP ... CASCADE to drop the dependent objects too.")
	}
	if len(lines) > 0 {
		n := &pgerr.Error{Severity: "NOTICE", Code: "00000", Message: lines[0]}
		if len(lines) > 1 {
			n.Message = fmt.Sprintf("drop cascades to %d other objects", len(lines))
			n.Detail = strings.Join(lines, "\n")
		}
		if err := s.Notice(n); err != nil {
			return "", err
		}
	}
	for _, d := range drops {
		var err error
		switch d.kind {
		case "view":
			err = cat.DropView(ctx, d.key)
		case "sequence":
			err = seqCatalog(cat).DropSequence(ctx, d.key)
		default:
			if err = cat.Txn.Drop(ctx, d.key); err == nil {
				err = dropOwnedSequences(ctx, cat, d.key, false)
			}
		}
		if err != nil {
			return "", err
		}
	}
	for _, f := range funcs {
		if err := cat.Txn.DropFunction(ctx, f.ID); err != nil {
			return "", err
		}
	}
	for _, name := range x.Names {
		if err := schemas(cat).DropSchema(ctx, name); err != nil {
			return "", err
		}
	}
	return "DROP SCHEMA", nil
}

func alterSchema(ctx context.Context, s Session, x *sql.AlterSchema) (string, error) {
	cat := s.Catalog()
	if x.Rename {
		// A view's stored query names its relations outside public with
		// their schema: the views reading this schema's relations are
		// rewritten to the new name (keeping their place: OR REPLACE).
		for _, v := range cat.Views() {
			reads := false
			for _, d := range v.Deps {
				if id, _ := storage.SplitKey(d); id == x.Schema.ID {
					reads = true
				}
			}
			if !reads {
				continue
			}
			text, err := sql.RenameSchemaInView(v.SQL, x.Old, x.Schema.Name)
			if err != nil {
				return "", err
			}
			v.SQL = text
			if err := cat.CreateView(ctx, v, true); err != nil {
				return "", err
			}
		}
	}
	if old, ok := schemas(cat).SchemaByID(x.Schema.ID); ok {
		if err := checkSchemaOwner(s, old); err != nil { // roles.go
			return "", err
		}
	}
	if err := schemas(cat).AlterSchema(ctx, x.Schema); err != nil {
		return "", err
	}
	return "ALTER SCHEMA", recordSchemaOwner(s, x.Schema)
}
