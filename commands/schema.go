package commands

import (
	"context"
	"fmt"
	"sort"
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
	if _, err := schemas(cat).CreateSchema(ctx, x.Name, x.Owner); err != nil {
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

// dropObject is a relation DROP SCHEMA removes, and what it was reached
// from (for "depends on").
type dropObject struct {
	key, kind string
	oid       uint32
	from      string // "schema s", "table t", "view v"
}

// schemaDrops lists what dropping the schemas with these ids removes, in
// the order PostgreSQL's findDependentObjects and reportDependentObjects
// report it: each object's dependents (its relations for a schema, the
// views reading it for a relation) visited newest first, depth first, an
// object listed after its dependents, the whole list then read backwards.
func schemaDrops(cat *Catalog, names []string, name sql.RelName) []dropObject {
	type node struct {
		key, kind string
		oid       uint32
	}
	views := cat.Views()
	var rels []node
	for _, t := range cat.Txn.Tables() {
		oid := uint32(0)
		if o, ok := t.(interface{ ObjectID() uint32 }); ok {
			oid = o.ObjectID()
		}
		rels = append(rels, node{t.Name(), "table", oid})
	}
	for _, v := range views {
		rels = append(rels, node{v.Name, "view", storage.FirstUserOID + 1 + 2*uint32(v.ID)})
	}
	newestFirst := func(ns []node) []node {
		sort.Slice(ns, func(i, j int) bool { return ns[i].oid > ns[j].oid })
		return ns
	}
	readers := func(key string) []node {
		var out []node
		for _, v := range views {
			for _, d := range v.Deps {
				if d == key {
					out = append(out, node{v.Name, "view", storage.FirstUserOID + 1 + 2*uint32(v.ID)})
					break
				}
			}
		}
		return newestFirst(out)
	}
	seen := map[string]bool{}
	var post []dropObject
	var visit func(n node, from string)
	visit = func(n node, from string) {
		if seen[n.key] {
			return
		}
		seen[n.key] = true
		for _, r := range readers(n.key) {
			visit(r, n.kind+" "+name(n.key))
		}
		post = append(post, dropObject{key: n.key, kind: n.kind, oid: n.oid, from: from})
	}
	for _, sname := range names {
		sc, ok := schemas(cat).LookupSchema(sname)
		if !ok {
			continue
		}
		var members []node
		for _, r := range rels {
			if id, _ := storage.SplitKey(r.key); id == sc.ID {
				members = append(members, r)
			}
		}
		for _, m := range newestFirst(members) {
			visit(m, "schema "+sname)
		}
	}
	out := make([]dropObject, len(post))
	for i, o := range post {
		out[len(post)-1-i] = o
	}
	return out
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
		if _, ok := schemas(cat).LookupSchema(name); !ok {
			return "", pgerr.New("3F000", "schema \"%s\" does not exist", name)
		}
	}
	drops := schemaDrops(cat, x.Names, x.RelName)
	lines := make([]string, len(drops))
	for i, d := range drops {
		if x.Cascade {
			lines[i] = fmt.Sprintf("drop cascades to %s %s", d.kind, x.RelName(d.key))
		} else {
			lines[i] = fmt.Sprintf("%s %s depends on %s", d.kind, x.RelName(d.key), d.from)
		}
	}
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
		if d.kind == "view" {
			err = cat.DropView(ctx, d.key)
		} else {
			err = cat.Txn.Drop(ctx, d.key)
		}
		if err != nil {
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
	return "ALTER SCHEMA", schemas(cat).AlterSchema(ctx, x.Schema)
}
