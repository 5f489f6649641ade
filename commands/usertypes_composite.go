package commands

import (
	"context"
	"fmt"
	"sort"

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
// u[]).
func compositesUsing(cat *Catalog, u storage.UserType) []storage.UserType {
	var deps []storage.UserType
	for _, c := range cat.Txn.UserTypes() {
		if c.Kind != 'c' {
			continue
		}
		for _, a := range c.Attrs {
			if a.Type.UserOID == u.OID() || a.Type.Domain == u.OID() {
				deps = append(deps, c)
				break
			}
		}
	}
	return deps
}

// dependentLine is one DETAIL line of DROP TYPE, with the object address
// PostgreSQL orders it by: its reports list a type's dependents by OID
// ascending, a relation's columns last first (findDependentObjects sorts
// them OID descending, subId ascending; reportDependentObjects walks back).
type dependentLine struct {
	oid   uint32
	subID int
	text  string
}

func sortDependents(ls []dependentLine) []string {
	sort.SliceStable(ls, func(i, j int) bool {
		if ls[i].oid != ls[j].oid {
			return ls[i].oid < ls[j].oid
		}
		return ls[i].subID > ls[j].subID
	})
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = l.text
	}
	return out
}

// columnDependent is the line of a table column of type u (or u[], found
// through the array type, whose OID then orders it).
func columnDependent(u storage.UserType, c typeColumn, text string) dependentLine {
	l := dependentLine{text: text}
	if c.array {
		l.oid = u.ArrayOID()
	} else if x, ok := c.table.(interface{ ObjectID() uint32 }); ok {
		l.oid = x.ObjectID()
	}
	for i, col := range c.table.Columns() {
		if col.Name == c.column {
			l.subID = i + 1
		}
	}
	return l
}

// compositeDependents are DROP TYPE's DETAIL lines for the composite types
// with an attribute of type u.
func compositeDependents(cat *Catalog, u storage.UserType, cascade bool) []dependentLine {
	var out []dependentLine
	for _, c := range cat.Txn.UserTypes() {
		if c.Kind != 'c' {
			continue
		}
		for i, a := range c.Attrs {
			if a.Type.UserOID != u.OID() && a.Type.Domain != u.OID() {
				continue
			}
			l := dependentLine{oid: c.RelOID(), subID: i + 1,
				text: fmt.Sprintf("column %s of composite type %s depends on type %s", a.Name, c.Name, u.Name)}
			if cascade {
				l.text = fmt.Sprintf("drop cascades to column %s of composite type %s", a.Name, c.Name)
			}
			out = append(out, l)
		}
	}
	return out
}

// dropCompositeAttrs drops, for DROP TYPE u CASCADE, the attributes of
// composite types that are of type u.
func dropCompositeAttrs(ctx context.Context, cat *Catalog, u storage.UserType) error {
	for _, d := range compositesUsing(cat, u) {
		if cols := columnsOfType(cat, d); len(cols) > 0 {
			// Its stored values would keep the dropped field.
			return pgerr.New(pgerr.FeatureNotSupported, "cannot drop attributes of composite type %s because column \"%s.%s\" uses it",
				d.Name, storage.BareName(cols[0].table.Name()), cols[0].column)
		}
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

// checkRowTypeUnused refuses an ALTER TABLE that would have to rewrite
// stored values of tb's row type (ADD COLUMN with a non-NULL default), as
// PostgreSQL's find_composite_type_dependencies.
func checkRowTypeUnused(cat *Catalog, tb storage.Table) error {
	x, ok := tb.(interface{ ObjectID() uint32 })
	if !ok {
		return nil
	}
	rt := storage.RowTypeOID(x.ObjectID())
	temps, _ := cat.TempTables()
	for _, other := range append(temps, cat.Txn.Tables()...) {
		for _, c := range other.Columns() {
			if c.Type.UserOID == rt {
				return pgerr.New(pgerr.FeatureNotSupported, "cannot alter table \"%s\" because column \"%s.%s\" uses its row type",
					storage.BareName(tb.Name()), storage.BareName(other.Name()), c.Name)
			}
		}
	}
	return nil
}
