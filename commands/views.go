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
	if _, isTable := cat.LookupIn("public", x.View.Name); isTable {
		if x.Replace {
			return "", pgerr.New(pgerr.WrongObjectType, "\"%s\" is not a view", name)
		}
		return "", pgerr.New(pgerr.DuplicateTable, "relation \"%s\" already exists", name)
	}
	if old, ok := cat.LookupView(x.View.Name); ok {
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
	}
	return "CREATE VIEW", cat.CreateView(ctx, x.View, x.Replace)
}

func dropView(ctx context.Context, s Session, x *sql.DropView) (string, error) {
	cat := s.Catalog()
	var present []string
	for _, t := range x.Targets {
		if t.IsView {
			present = append(present, t.Key)
			continue
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

// dependentsOf lists the views that read the named relations, directly or
// through other views, depth first as PostgreSQL reports them; the named
// relations themselves are not listed.
func dependentsOf(cat storage.Catalog, names []string) []dependent {
	views := cat.Views()
	sort.Slice(views, func(i, j int) bool { return views[i].ID < views[j].ID })
	isView := map[string]bool{}
	for _, v := range views {
		isView[v.Name] = true
	}
	seen := map[string]bool{}
	for _, n := range names {
		seen[n] = true
	}
	var out []dependent
	var visit func(name string)
	visit = func(name string) {
		kind := "table"
		if isView[name] {
			kind = "view"
		}
		for _, v := range views {
			if seen[v.Name] {
				continue
			}
			for _, d := range v.Deps {
				if d == name {
					seen[v.Name] = true
					out = append(out, dependent{view: v.Name, on: name, kind: kind})
					visit(v.Name)
					break
				}
			}
		}
	}
	for _, n := range names {
		visit(n)
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
