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

// schemaMember is a relation of a schema being dropped.
type schemaMember struct {
	key  string
	kind string // "table" or "view"
	oid  uint32 // creation order (PostgreSQL lists dependents by it)
}

// membersOf lists the relations of the schemas with these ids in creation
// order.
func membersOf(cat *Catalog, ids map[uint64]bool) []schemaMember {
	var out []schemaMember
	for _, t := range cat.Txn.Tables() {
		if id, _ := storage.SplitKey(t.Name()); ids[id] {
			oid := uint32(0)
			if o, ok := t.(interface{ ObjectID() uint32 }); ok {
				oid = o.ObjectID()
			}
			out = append(out, schemaMember{key: t.Name(), kind: "table", oid: oid})
		}
	}
	for _, v := range cat.Views() {
		if id, _ := storage.SplitKey(v.Name); ids[id] {
			out = append(out, schemaMember{key: v.Name, kind: "view", oid: storage.FirstUserOID + 1 + 2*uint32(v.ID)})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].oid < out[j].oid })
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
	ids := map[uint64]bool{}
	for _, name := range x.Names {
		sc, ok := schemas(cat).LookupSchema(name)
		if !ok {
			return "", pgerr.New("3F000", "schema \"%s\" does not exist", name)
		}
		ids[sc.ID] = true
	}
	members := membersOf(cat, ids)
	// Everything that goes: the schemas' relations, then the views
	// elsewhere that read them.
	var lines []string
	var keys []string
	inSchema := map[string]bool{}
	for _, m := range members {
		inSchema[m.key] = true
		keys = append(keys, m.key)
	}
	schemaOf := func(key string) string {
		id, _ := storage.SplitKey(key)
		sc, _ := schemas(cat).SchemaByID(id)
		return sc.Name
	}
	var outside []dependent
	for _, d := range dependentsOf(cat, keys) {
		if !inSchema[d.view] {
			outside = append(outside, d)
		}
	}
	for _, m := range members {
		if x.Cascade {
			lines = append(lines, fmt.Sprintf("drop cascades to %s %s", m.kind, x.RelName(m.key)))
		} else {
			lines = append(lines, fmt.Sprintf("%s %s depends on schema %s", m.kind, x.RelName(m.key), schemaOf(m.key)))
		}
	}
	for _, d := range outside {
		if x.Cascade {
			lines = append(lines, "drop cascades to view "+x.RelName(d.view))
		} else {
			lines = append(lines, fmt.Sprintf("view %s depends on %s %s", x.RelName(d.view), d.kind, x.RelName(d.on)))
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
	// Views first (the outside ones read the schemas' relations), then
	// the tables, then the schemas.
	for i := len(outside) - 1; i >= 0; i-- {
		if err := cat.DropView(ctx, outside[i].view); err != nil {
			return "", err
		}
	}
	for i := len(members) - 1; i >= 0; i-- {
		if members[i].kind == "view" {
			if err := cat.DropView(ctx, members[i].key); err != nil {
				return "", err
			}
		}
	}
	for _, m := range members {
		if m.kind == "table" {
			if err := cat.Txn.Drop(ctx, m.key); err != nil {
				return "", err
			}
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
		// A view keeps its query as text with other schemas' names
		// qualified: renaming a schema one reads would break it.
		for _, v := range cat.Views() {
			for _, d := range v.Deps {
				if id, _ := storage.SplitKey(d); id == x.Schema.ID {
					return "", pgerr.New(pgerr.FeatureNotSupported, "cannot rename schema %s: view %s reads its relations by name",
						x.Old, storage.BareName(v.Name))
				}
			}
		}
	}
	return "ALTER SCHEMA", schemas(cat).AlterSchema(ctx, x.Schema)
}
