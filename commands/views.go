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

// CREATE VIEW / DROP VIEW, and the dependency rules DROP TABLE shares with
// DROP VIEW: a view records the relations its query reads; dropping one of
// them fails with 2BP01 (RESTRICT) or drops the views too (CASCADE).

const (
	codeDependentObjects       = "2BP01"
	codeInvalidTableDefinition = "42P16"
)

func createView(ctx context.Context, s Session, x *sql.CreateView) (string, error) {
	cat := s.Catalog()
	name := storage.BareName(x.View.Name)
	if err := checkCreateInKey(s, x.View.Name); err != nil { // roles.go
		return "", err
	}
	if _, isTable := cat.LookupIn("public", x.View.Name); isTable {
		if x.Replace {
			return "", pgerr.New(pgerr.WrongObjectType, "\"%s\" is not a view", name)
		}
		return "", pgerr.New(pgerr.DuplicateTable, "relation \"%s\" already exists", name)
	}
	old, existed := cat.LookupView(x.View.Name)
	if existed {
		if !x.Replace {
			return "", pgerr.New(pgerr.DuplicateTable, "relation \"%s\" already exists", name)
		}
		// CREATE OR REPLACE may only add columns at the end.
		if len(x.View.Columns) < len(old.Columns) {
			return "", pgerr.New(codeInvalidTableDefinition, "cannot drop columns from view")
		}
		for i, c := range old.Columns {
			if x.View.Columns[i] != c {
				return "", pgerr.New(codeInvalidTableDefinition, "cannot change name of view column \"%s\" to \"%s\"", c, x.View.Columns[i]).
					WithHint("Use ALTER VIEW ... RENAME COLUMN ... to change name of view column instead.")
			}
		}
		// The comments stay, as PostgreSQL's pg_description rows do.
		x.View.Comment, x.View.ColumnComments = old.Comment, old.ColumnComments
		if err := checkOwner(s, relOID(s, x.View.Name), "view", name); err != nil { // roles.go
			return "", err
		}
	}
	if err := cat.CreateView(ctx, x.View, x.Replace); err != nil {
		return "", err
	}
	if existed {
		return "CREATE VIEW", nil
	}
	return "CREATE VIEW", recordOwner(s, relOID(s, x.View.Name), x.View.Name)
}

func dropView(ctx context.Context, s Session, x *sql.DropView) (string, error) {
	cat := s.Catalog()
	var present []string
	for _, t := range x.Targets {
		if t.IsView {
			if err := checkOwner(s, relOID(s, t.Key), "view", storage.BareName(t.Key)); err != nil { // roles.go
				return "", err
			}
			present = append(present, t.Key)
			continue
		}
		if t.IsSeq {
			return "", pgerr.New(pgerr.WrongObjectType, "\"%s\" is not a view", t.Name).WithHint("Use DROP SEQUENCE to remove a sequence.")
		}
		if t.Key != "" {
			return "", pgerr.New(pgerr.WrongObjectType, "\"%s\" is not a view", t.Name).WithHint("Use DROP TABLE to remove a table.")
		}
		if err := dropMissing(s, x.IfExists, "view", t); err != nil {
			return "", err
		}
	}
	if err := dropDependents(ctx, s, "view", present, x.Cascade, x.RelName); err != nil {
		return "", err
	}
	for _, name := range present {
		if err := cat.DropView(ctx, name); err != nil {
			return "", err
		}
	}
	return "DROP VIEW", nil
}

// dependent is a view that depends on relation on (of kind "table" or "view").
type dependent struct{ view, on, kind string }

// depObject is an object a DROP removes and the object it was reached
// from (its referenced object).
type depObject struct {
	key, kind string // kind "table", "view", "sequence" or "schema"
	oid       uint32 // creation order
	fromKey   string
	fromKind  string
}

// dropOrder is the order PostgreSQL finds and reports what a DROP of roots
// removes (findDependentObjects, reportDependentObjects): each object's
// dependents visited newest first, depth first, an object recorded after
// its dependents, roots in the order named, the list then read backwards.
// The roots themselves are left out.
func dropOrder(roots []depObject, deps func(depObject) []depObject) []depObject {
	seen := map[string]bool{}
	root := map[string]bool{}
	for _, r := range roots {
		root[r.kind+"\x00"+r.key] = true
	}
	var post []depObject
	var visit func(o depObject)
	visit = func(o depObject) {
		id := o.kind + "\x00" + o.key
		if seen[id] {
			return
		}
		seen[id] = true
		ds := deps(o)
		sort.SliceStable(ds, func(i, j int) bool { return ds[i].oid > ds[j].oid })
		for _, d := range ds {
			d.fromKey, d.fromKind = o.key, o.kind
			visit(d)
		}
		if !root[id] {
			post = append(post, o)
		}
	}
	for _, r := range roots {
		visit(r)
	}
	out := make([]depObject, len(post))
	for i, o := range post {
		out[len(post)-1-i] = o
	}
	return out
}

func viewOID(v storage.View) uint32 { return storage.FirstUserOID + 1 + 2*uint32(v.ID) }

// readersOf returns the function giving the views that read a relation.
func readersOf(views []storage.View) func(depObject) []depObject {
	return func(o depObject) []depObject {
		var out []depObject
		for _, v := range views {
			for _, d := range v.Deps {
				if d == o.key && o.kind != "schema" {
					out = append(out, depObject{key: v.Name, kind: "view", oid: viewOID(v)})
					break
				}
			}
		}
		return out
	}
}

// dependentsOf lists the views that read the named relations, directly or
// through other views, in PostgreSQL's order (dropOrder); the named
// relations themselves are not listed.
func dependentsOf(cat storage.Catalog, names []string) []dependent {
	views := cat.Views()
	kind := map[string]string{}
	for _, v := range views {
		kind[v.Name] = "view"
	}
	if sc, ok := cat.(storage.SequenceCatalog); ok {
		for _, d := range sc.Sequences() {
			kind[d.Name] = "sequence"
		}
	}
	var roots []depObject
	for _, n := range names {
		k := kind[n]
		if k == "" {
			k = "table"
			if tb, ok := cat.Lookup(n); ok && storage.ForeignDefOf(tb) != nil {
				k = "foreign table"
			}
		}
		roots = append(roots, depObject{key: n, kind: k})
	}
	var out []dependent
	for _, d := range dropOrder(roots, readersOf(views)) {
		out = append(out, dependent{view: d.key, on: d.fromKey, kind: d.fromKind})
	}
	return out
}

// dropDependents refuses to drop names while views depend on them, or with
// cascade drops those views (with PostgreSQL's notice). kind names what
// names are ("table" or "view") for the message.
func dropDependents(ctx context.Context, s Session, kind string, names []string, cascade bool, name sql.RelName) error {
	cat := s.Catalog()
	deps := dependentsOf(cat, names)
	if len(deps) == 0 {
		return nil
	}
	if !cascade {
		lines := make([]string, len(deps))
		for i, d := range deps {
			lines[i] = fmt.Sprintf("view %s depends on %s %s", name(d.view), d.kind, name(d.on))
		}
		msg := "cannot drop desired object(s) because other objects depend on them"
		if len(names) == 1 {
			msg = fmt.Sprintf("cannot drop %s %s because other objects depend on it", kind, name(names[0]))
		}
		return pgerr.New(codeDependentObjects, "%s", msg).WithDetail("%s", strings.Join(lines, "\n")).
			WithHint("Use DROP ... CASCADE to drop the dependent objects too.")
	}
	n := &pgerr.Error{Severity: "NOTICE", Code: "00000"}
	if len(deps) == 1 {
		n.Message = "drop cascades to view " + name(deps[0].view)
	} else {
		lines := make([]string, len(deps))
		for i, d := range deps {
			lines[i] = "drop cascades to view " + name(d.view)
		}
		n.Message = fmt.Sprintf("drop cascades to %d other objects", len(deps))
		n.Detail = strings.Join(lines, "\n")
	}
	if err := s.Notice(n); err != nil {
		return err
	}
	for _, d := range deps {
		if err := cat.DropView(ctx, d.view); err != nil {
			return err
		}
	}
	return nil
}
