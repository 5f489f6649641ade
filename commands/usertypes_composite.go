package commands

import (
	"context"
	"fmt"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql"
	"github.com/joind/joind/storage"
)

// CREATE TYPE name AS (...) and ALTER TYPE ... ATTRIBUTE (typecmds.c's
// DefineCompositeType, tablecmds.c's ATExecAddColumn and friends over a
// relkind 'c' relation). A stored value of the type is its record text:
// a value written before ADD ATTRIBUTE reads with the new attributes NULL
// (types/composite.go), so adding needs no rewrite; dropping or retyping
// an attribute of a type a column stores would, and joind refuses it as
// PostgreSQL refuses retyping.

func createComposite(ctx context.Context, s Session, x *sql.CreateComposite) (string, error) {
	u := storage.UserType{Schema: x.Schema, Name: x.Name, Kind: 'c', Attrs: x.Attrs}
	if _, err := s.Catalog().Txn.CreateType(ctx, u); err != nil {
		return "", err
	}
	return "CREATE TYPE", nil
}

func alterComposite(ctx context.Context, s Session, x *sql.AlterComposite) (string, error) {
	cat := s.Catalog()
	old := x.Type.Attrs
	appendOnly := len(x.Attrs) >= len(old)
	for i := 0; appendOnly && i < len(old); i++ {
		appendOnly = old[i] == x.Attrs[i]
	}
	renameOnly := len(x.Attrs) == len(old)
	for i := 0; renameOnly && i < len(old); i++ {
		renameOnly = old[i].Type == x.Attrs[i].Type
	}
	if !appendOnly && !renameOnly {
		if cols := columnsOfType(cat, x.Type); len(cols) > 0 {
			c := cols[0]
			return "", pgerr.New(pgerr.FeatureNotSupported, "cannot alter type \"%s\" because column \"%s.%s\" uses it",
				x.Type.Name, storage.BareName(c.table.Name()), c.column)
		}
	}
	u := x.Type
	u.Attrs = x.Attrs
	if _, err := cat.Txn.AlterType(ctx, u); err != nil {
		return "", err
	}
	return "ALTER TYPE", nil
}

// compositesUsing are the composite types with an attribute of type u (or
// u[]), each with that attribute's name.
func compositesUsing(cat *Catalog, u storage.UserType) (deps []storage.UserType, attrs []string) {
	for _, c := range cat.Txn.UserTypes() {
		if c.Kind != 'c' {
			continue
		}
		for _, a := range c.Attrs {
			if a.Type.UserOID == u.OID() || a.Type.Domain == u.OID() {
				deps, attrs = append(deps, c), append(attrs, a.Name)
			}
		}
	}
	return deps, attrs
}

// compositeDependencyLines are DROP TYPE's DETAIL lines for the composite
// types with an attribute of type u.
func compositeDependencyLines(cat *Catalog, u storage.UserType, cascade bool) []string {
	deps, attrs := compositesUsing(cat, u)
	var lines []string
	for i, d := range deps {
		if cascade {
			lines = append(lines, fmt.Sprintf("drop cascades to column %s of composite type %s", attrs[i], d.Name))
		} else {
			lines = append(lines, fmt.Sprintf("column %s of composite type %s depends on type %s", attrs[i], d.Name, u.Name))
		}
	}
	return lines
}

// dropCompositeAttrs drops, for DROP TYPE u CASCADE, the attributes of
// composite types that are of type u.
func dropCompositeAttrs(ctx context.Context, cat *Catalog, u storage.UserType) error {
	deps, _ := compositesUsing(cat, u)
	seen := map[uint64]bool{}
	for _, d := range deps {
		if seen[d.ID] {
			continue
		}
		seen[d.ID] = true
		var keep []storage.CompositeAttr
		for _, a := range d.Attrs {
			if a.Type.UserOID != u.OID() && a.Type.Domain != u.OID() {
				keep = append(keep, a)
			}
		}
		d.Attrs = keep
		if _, err := cat.Txn.AlterType(ctx, d); err != nil {
			return err
		}
	}
	return nil
}
