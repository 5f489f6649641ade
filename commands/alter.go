package commands

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// ALTER TABLE and ALTER TABLE / VIEW ... RENAME, as PostgreSQL's
// tablecmds.c runs them: the subcommands one after another, each bound
// against the table as the earlier ones left it (sql.AlterTable.Step) and
// applied to the statement's transaction, so the statement lands whole or
// not at all. Definition changes that keep the rows are metadata-only
// (storage.Txn.Alter); ALTER TYPE and a volatile DEFAULT rewrite the table
// (storage.Txn.Rewrite: new segments, one manifest).

func alterTable(ctx context.Context, s Session, x *sql.AlterTable) (string, error) {
	cat := s.Catalog()
	if x.Missing {
		return x.Tag, s.Notice(&pgerr.Error{Severity: "NOTICE", Code: "00000",
			Message: fmt.Sprintf("relation \"%s\" does not exist, skipping", x.Name)})
	}
	if !x.Temp {
		if err := checkOwner(s, relOID(s, x.Key), strings.ToLower(strings.TrimPrefix(x.Tag, "ALTER ")), storage.BareName(x.Key)); err != nil { // roles.go
			return "", err
		}
	}
	for i := range x.Cmds {
		step, err := x.Step(cat, i)
		if err != nil {
			return "", err
		}
		tb, ok := cat.lookupKey(x.Key, x.Temp)
		if !ok {
			return "", pgerr.New(pgerr.UndefinedTable, "relation \"%s\" does not exist", x.Name)
		}
		if err := alterStep(ctx, s, x, tb, step); err != nil {
			return "", err
		}
	}
	return x.Tag, nil
}

// alterStep runs one subcommand on tb: one function per kind.
func alterStep(ctx context.Context, s Session, x *sql.AlterTable, tb storage.Table, step sql.AlterStep) error {
	switch st := step.(type) {
	case *sql.AddColumn:
		return addColumn(ctx, s, tb, st)
	case *sql.DropColumn:
		return dropColumn(ctx, s, x, tb, st)
	case *sql.AlterColumnType:
		return alterColumnType(ctx, s, x, tb, st)
	case *sql.SetDefault:
		return setDefault(ctx, s, tb, st)
	case *sql.SetNotNull:
		return setNotNull(ctx, s, tb, st)
	case *sql.KeepOwner:
		if x.Temp {
			return nil
		}
		return changeOwner(s, relOID(s, x.Key), strings.ToLower(strings.TrimPrefix(x.Tag, "ALTER ")), x.Name, st.Role) // roles.go
	case *sql.AddConstraint:
		return addConstraint(ctx, s, tb, st) // constraint.go
	case *sql.SetForeignOptions:
		return s.Catalog().Txn.SetForeign(ctx, tb, st.Def) // foreign.go
	case *sql.DropConstraint:
		return dropConstraint(ctx, s, tb, st)
	}
	return pgerr.New(pgerr.InternalError, "unknown ALTER TABLE step %T", step)
}

// lookupKey finds the table the binder resolved: by storage key, or a
// temporary one by name.
func (c *Catalog) lookupKey(key string, temp bool) (storage.Table, bool) {
	if key == "" {
		return nil, false
	}
	if temp {
		return c.LookupIn("pg_temp", key)
	}
	return c.LookupIn("public", key)
}

// columns returns a copy of tb's columns (the caller edits it) and the
// index of column name (-1: none).
func columns(tb storage.Table, name string) ([]storage.ColumnDef, int) {
	cols := append([]storage.ColumnDef(nil), tb.Columns()...)
	for i, c := range cols {
		if c.Name == name {
			return cols, i
		}
	}
	return cols, -1
}

func addColumn(ctx context.Context, s Session, tb storage.Table, st *sql.AddColumn) error {
	cat := s.Catalog()
	if st.Exists {
		return s.Notice(&pgerr.Error{Severity: "NOTICE", Code: "42701",
			Message: fmt.Sprintf("column \"%s\" of relation \"%s\" already exists, skipping", st.Column.Name, storage.BareName(tb.Name()))})
	}
	cols, _ := columns(tb, "")
	def := st.Column
	def.Attnum = 0 // a new column
	if err := freezeStarViews(ctx, cat, tb); err != nil {
		return err
	}
	txn := cat.txnOf(tb)
	if st.Rows != nil && !hasRows(tb) {
		// No stored row takes the value: nothing to compute (a NOT NULL
		// domain's NULL default fails only on rows, as in PostgreSQL).
		st.Rows = nil
		st.Value = nil
	}
	if st.Rows != nil {
		if err := checkRowTypeUnused(cat, tb); err != nil { // usertypes_composite.go
			return err
		}
		recs, err := s.Collect(ctx, st.Rows)
		if err != nil {
			return err
		}
		if err := txn.Rewrite(ctx, tb, tb.Name(), append(cols, def), recs); err != nil {
			return err
		}
	} else {
		if st.Value != nil {
			recs, err := s.Collect(ctx, st.Value)
			if err != nil {
				return err
			}
			if len(recs) == 0 || recs[0].NumRows() != 1 {
				return pgerr.New(pgerr.InternalError, "the DEFAULT of column \"%s\" gave no value", def.Name)
			}
			if v := types.GetValue(recs[0].Column(0), def.Type, 0); !v.Null {
				def.Missing = &v
				if err := checkRowTypeUnused(cat, tb); err != nil { // usertypes_composite.go
					return err
				}
			}
		}
		if err := txn.Alter(ctx, tb, tb.Name(), append(cols, def)); err != nil {
			return err
		}
	}
	if def.NotNull {
		return checkNotNull(cat, tb, tb.Name(), def.Name)
	}
	return nil
}

// checkNotNull fails with PostgreSQL's 23502 if column col of table name
// (in the transaction holding of: the table before the change) holds a
// NULL.
func checkNotNull(cat *Catalog, of storage.Table, name, col string) error {
	txn := cat.txnOf(of)
	tb, ok := txn.Lookup(name)
	if !ok {
		return pgerr.New(pgerr.UndefinedTable, "relation \"%s\" does not exist", name)
	}
	if err := txn.Err(); err != nil {
		return err
	}
	_, ord := columns(tb, col)
	for _, r := range tb.Snapshot() {
		if r.Column(ord).NullN() > 0 {
			return pgerr.New(pgerr.NotNullViolation, "column \"%s\" of relation \"%s\" contains null values", col, name)
		}
	}
	return nil
}

// viewsOn lists the views that read relation name directly.
func viewsOn(cat *Catalog, name string) []storage.View {
	var out []storage.View
	for _, v := range cat.Views() {
		for _, d := range v.Deps {
			if d == name {
				out = append(out, v)
				break
			}
		}
	}
	return out
}

// viewsUsing lists the views that read column attnum of tb.
func viewsUsing(cat *Catalog, x *sql.AlterTable, tb storage.Table, attnum int16) ([]storage.View, error) {
	if cat.IsTemp(tb) {
		return nil, nil // views never read temporary tables
	}
	var out []storage.View
	views := viewsOn(cat, tb.Name())
	sort.Slice(views, func(i, j int) bool { return views[i].ID < views[j].ID })
	for _, v := range views {
		uses, err := x.ViewUses(cat, v, tb, attnum)
		if err != nil {
			return nil, err
		}
		if uses {
			out = append(out, v)
		}
	}
	return out, nil
}

func dropColumn(ctx context.Context, s Session, x *sql.AlterTable, tb storage.Table, st *sql.DropColumn) error {
	cat := s.Catalog()
	if st.Missing {
		return s.Notice(&pgerr.Error{Severity: "NOTICE", Code: "00000",
			Message: fmt.Sprintf("column \"%s\" of relation \"%s\" does not exist, skipping", st.Column, storage.BareName(tb.Name()))})
	}
	cols, ord := columns(tb, st.Column)
	users, err := viewsUsing(cat, x, tb, cols[ord].Attnum)
	if err != nil {
		return err
	}
	if len(users) > 0 {
		what := fmt.Sprintf("column %s of table %s", st.Column, storage.BareName(tb.Name()))
		if !st.Cascade {
			// Each dependent view, then the views over it, depth first.
			var lines []string
			for _, u := range users {
				lines = append(lines, fmt.Sprintf("view %s depends on %s", u.Name, what))
				for _, d := range dependentsOf(cat, []string{u.Name}) {
					lines = append(lines, fmt.Sprintf("view %s depends on %s %s", d.view, d.kind, d.on))
				}
			}
			return pgerr.New(codeDependentObjects, "cannot drop %s because other objects depend on it", what).
				WithDetail("%s", strings.Join(lines, "\n")).
				WithHint("Use DROP ... CASCADE to drop the dependent objects too.")
		}
		if err := cascadeViews(ctx, s, users); err != nil {
			return err
		}
	}
	if err := dropColumnConstraints(ctx, s, tb, st.Column, st.Cascade); err != nil { // constraint.go
		return err
	}
	// PostgreSQL drops the indexes on the column with it.
	if err := cat.txnOf(tb).DropIndexesOn(ctx, tb, st.Column); err != nil {
		return err
	}
	if o, ok := tb.(interface{ ObjectID() uint32 }); ok {
		oid, attnum := o.ObjectID(), cols[ord].Attnum
		if attnum == 0 {
			attnum = int16(ord + 1)
		}
		// The column's privileges go with it (pg_attribute.attacl).
		if err := authOf(s).AlterAuth(func(a *storage.Auth) error { a.ForgetColumn(oid, attnum); return nil }); err != nil {
			return err
		}
	}
	return cat.txnOf(tb).Alter(ctx, tb, tb.Name(), append(cols[:ord], cols[ord+1:]...))
}

// cascadeViews drops views and the views that depend on them, with
// PostgreSQL's notice.
func cascadeViews(ctx context.Context, s Session, views []storage.View) error {
	cat := s.Catalog()
	var all []dependent
	seen := map[string]bool{}
	for _, v := range views {
		for _, d := range append([]dependent{{view: v.Name}}, dependentsOf(cat, []string{v.Name})...) {
			if !seen[d.view] {
				seen[d.view] = true
				all = append(all, d)
			}
		}
	}
	n := &pgerr.Error{Severity: "NOTICE", Code: "00000"}
	if len(all) == 1 {
		n.Message = "drop cascades to view " + all[0].view
	} else {
		n.Message = fmt.Sprintf("drop cascades to %d other objects", len(all))
		for i, d := range all {
			if i > 0 {
				n.Detail += "\n"
			}
			n.Detail += "drop cascades to view " + d.view
		}
	}
	if err := s.Notice(n); err != nil {
		return err
	}
	for i := len(all) - 1; i >= 0; i-- {
		if err := cat.DropView(ctx, all[i].view); err != nil {
			return err
		}
	}
	return nil
}

func alterColumnType(ctx context.Context, s Session, x *sql.AlterTable, tb storage.Table, st *sql.AlterColumnType) error {
	cat := s.Catalog()
	cols, ord := columns(tb, st.Column)
	users, err := viewsUsing(cat, x, tb, cols[ord].Attnum)
	if err != nil {
		return err
	}
	if len(users) > 0 {
		return pgerr.New(pgerr.FeatureNotSupported, "cannot alter type of a column used by a view or rule").
			WithDetail("rule _RETURN on view %s depends on column \"%s\"", users[0].Name, st.Column)
	}
	recs, err := s.Collect(ctx, st.Rows)
	if err != nil {
		return err
	}
	cols[ord].Type = st.Type
	txn := cat.txnOf(tb)
	if err := txn.Rewrite(ctx, tb, tb.Name(), cols, recs); err != nil {
		return err
	}
	// PostgreSQL rebuilds the indexes on the column: a unique one fails
	// on keys the new type makes equal.
	if now, ok := txn.Lookup(tb.Name()); ok {
		for _, d := range storage.IndexesOf(now) {
			if d.Unique && slices.Contains(d.Cols, st.Column) {
				if err := txn.CheckKeyUnique(now, d.Name, d.Cols); err != nil {
					return err
				}
			}
		}
	}
	if cols[ord].NotNull {
		return checkNotNull(cat, tb, tb.Name(), st.Column)
	}
	return nil
}

func setDefault(ctx context.Context, s Session, tb storage.Table, st *sql.SetDefault) error {
	cols, ord := columns(tb, st.Column)
	cols[ord].Default = st.Default
	return s.Catalog().txnOf(tb).Alter(ctx, tb, tb.Name(), cols)
}

func setNotNull(ctx context.Context, s Session, tb storage.Table, st *sql.SetNotNull) error {
	cat := s.Catalog()
	cols, ord := columns(tb, st.Column)
	if cols[ord].NotNull == st.NotNull {
		return nil
	}
	if st.NotNull {
		if err := checkNotNull(cat, tb, tb.Name(), st.Column); err != nil {
			return err
		}
	}
	cols[ord].NotNull = st.NotNull
	return cat.txnOf(tb).Alter(ctx, tb, tb.Name(), cols)
}

// renameRelation runs ALTER TABLE / VIEW ... RENAME.
func renameRelation(ctx context.Context, s Session, x *sql.Rename) (string, error) {
	cat := s.Catalog()
	if x.Missing {
		return x.Tag, s.Notice(&pgerr.Error{Severity: "NOTICE", Code: "00000",
			Message: fmt.Sprintf("relation \"%s\" does not exist, skipping", x.Name)})
	}
	if !x.Temp {
		kind := "table"
		if x.View {
			kind = "view"
		}
		if err := checkOwner(s, relOID(s, x.Key), kind, storage.BareName(x.Key)); err != nil { // roles.go
			return "", err
		}
	}
	if x.View && x.Column != "" {
		return x.Tag, renameViewColumn(ctx, cat, x.Key, x.Column, x.NewName)
	}
	if x.View {
		return x.Tag, renameView(ctx, cat, x.Key, x.NewName)
	}
	tb, ok := cat.lookupKey(x.Key, x.Temp)
	if !ok {
		return "", pgerr.New(pgerr.UndefinedTable, "relation \"%s\" does not exist", x.Name)
	}
	cols, ord := columns(tb, x.Column)
	before := make([]string, len(cols))
	for i, c := range cols {
		before[i] = c.Name
	}
	// What each view reads of the table, found before the change (the
	// rewritten views depend on those columns only).
	used := map[string][]bool{}
	if !cat.IsTemp(tb) {
		for _, v := range viewsOn(cat, tb.Name()) {
			u, err := x.UsedColumns(cat, v, tb)
			if err != nil {
				return "", err
			}
			used[v.Name] = u
		}
	}
	name := tb.Name()
	if x.Column == "" && x.Temp {
		name = x.NewName
	} else if x.Column == "" {
		// The table stays in its schema.
		sid, _ := storage.SplitKey(name)
		name = storage.TableKey(sid, x.NewName)
	} else {
		cols[ord].Name = x.NewName
		// The indexes keep working on the renamed column.
		if err := cat.txnOf(tb).RenameIndexColumns(ctx, tb, map[string]string{x.Column: x.NewName}); err != nil {
			return "", err
		}
	}
	if err := cat.txnOf(tb).Alter(ctx, tb, name, cols); err != nil {
		return "", err
	}
	after := make([]string, len(cols))
	for i, c := range cols {
		after[i] = c.Name
	}
	if err := renameInConstraints(ctx, cat, cat.txnOf(tb), tb.Name(), name, before, after); err != nil { // constraint.go
		return "", err
	}
	if err := followOwnedSequences(ctx, cat, tb.Name(), name, cat.IsTemp(tb), x.Column, x.NewName, nil); err != nil { // setschema.go
		return "", err
	}
	return x.Tag, rewriteViews(ctx, cat, tb.Name(), name, before, after, used)
}

// rewriteViews rewrites the views reading relation rel for its change to
// newRel with columns named before → after (sql.RenameInView); used holds
// the columns each view reads (none listed: all).
func rewriteViews(ctx context.Context, cat *Catalog, rel, newRel string, before, after []string, used map[string][]bool) error {
	for _, v := range viewsOn(cat, rel) {
		newSchema := ""
		if sid, _ := storage.SplitKey(rel); rel != newRel {
			if nsid, _ := storage.SplitKey(newRel); nsid != sid {
				newSchema = schemaName(cat, newRel)
			}
		}
		nv, changed, err := sql.RenameInView(v, rel, newRel, schemaName(cat, rel), newSchema, before, after, used[v.Name])
		if err != nil {
			return err
		}
		if changed {
			if err := cat.CreateView(ctx, nv, true); err != nil {
				return err
			}
		}
	}
	return nil
}

// freezeStarViews keeps the views reading tb with `*` at the columns they
// were created with, before a column is added.
func freezeStarViews(ctx context.Context, cat *Catalog, tb storage.Table) error {
	if cat.IsTemp(tb) {
		return nil
	}
	names := make([]string, len(tb.Columns()))
	for i, c := range tb.Columns() {
		names[i] = c.Name
	}
	return rewriteViews(ctx, cat, tb.Name(), tb.Name(), names, names, nil)
}

// schemaName is the name of the schema of the relation keyed key.
func schemaName(cat *Catalog, key string) string {
	sid, _ := storage.SplitKey(key)
	if sid == storage.PublicSchemaID {
		return "public"
	}
	if sc, ok := schemas(cat).SchemaByID(sid); ok {
		return sc.Name
	}
	return ""
}

func renameView(ctx context.Context, cat *Catalog, name, newName string) error {
	v, ok := cat.LookupView(name)
	if !ok {
		return pgerr.New(pgerr.UndefinedTable, "relation \"%s\" does not exist", storage.BareName(name))
	}
	sid, _ := storage.SplitKey(name)
	newName = storage.TableKey(sid, newName)
	if _, taken := cat.Lookup(newName); taken {
		return pgerr.New(pgerr.DuplicateTable, "relation \"%s\" already exists", storage.BareName(newName))
	}
	if err := cat.Txn.RenameView(ctx, name, newName); err != nil {
		return err
	}
	return rewriteViews(ctx, cat, name, newName, v.Columns, v.Columns, nil)
}

// renameViewColumn renames an output column of a view; the views reading
// it are rewritten to keep the name they were written against.
func renameViewColumn(ctx context.Context, cat *Catalog, name, col, newName string) error {
	v, ok := cat.LookupView(name)
	if !ok {
		return pgerr.New(pgerr.UndefinedTable, "relation \"%s\" does not exist", storage.BareName(name))
	}
	nv := v
	nv.Columns = append([]string(nil), v.Columns...)
	for i, c := range nv.Columns {
		if c == col {
			nv.Columns[i] = newName
		}
	}
	if err := cat.CreateView(ctx, nv, true); err != nil {
		return err
	}
	return rewriteViews(ctx, cat, name, name, v.Columns, nv.Columns, nil)
}

// txnOf is the transaction holding tb (temporary or permanent).
func (c *Catalog) txnOf(tb storage.Table) *storage.Txn {
	if c.IsTemp(tb) {
		return c.temp()
	}
	return c.Txn
}

// hasRows reports whether tb has a row its statement sees.
func hasRows(tb storage.Table) bool {
	for _, r := range tb.Snapshot() {
		if r.NumRows() > 0 {
			return true
		}
	}
	return false
}
