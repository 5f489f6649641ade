package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v5"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/joind/joind/pgcatalog"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/storage"
)

// Views over altered tables. A view is stored SQL text bound at each use
// (views.go), where PostgreSQL stores a parse tree that names columns by
// attnum; two things follow. What columns a view depends on is found by
// binding its text and collecting the stored columns it references
// (ColumnUse: every column a `*` expands to counts, as in PostgreSQL).
// And a rename of a table, view or column the view reads rewrites its
// text so it still means what it meant: each reference to the relation
// becomes a subquery giving the columns under the names the view was
// written against, `(SELECT a, new_b AS b FROM new_t) AS t`; a view
// reading `*` is frozen the same way before ADD COLUMN, so it keeps its
// columns (PostgreSQL expands `*` when the view is created).

// ColumnUse is a stored column a statement references.
type ColumnUse struct {
	Table  uint32 // the table's OID (pgcatalog.RelationOID)
	Attnum int16
}

// noteColumnUse records the stored columns behind e (colUse).
func (b *binder) noteColumnUse(e plan.Expr) {
	if b.colUse == nil || e == nil {
		return
	}
	plan.Walk(e, func(x plan.Expr) bool {
		if ref, ok := x.(*plan.ColRef); ok {
			if o, ok := b.colOrigin[ref.ID]; ok && o.TableOID != 0 {
				b.colUse[ColumnUse{Table: o.TableOID, Attnum: o.AttNum}] = true
			}
		}
		return true
	})
}

// ViewUses reports whether view v references column attnum of tbl, binding
// its text against cat.
func (a *AlterTable) ViewUses(cat storage.Catalog, v storage.View, tbl storage.Table, attnum int16) (bool, error) {
	used, err := viewColumnUse(cat, a.opts, v)
	return used[ColumnUse{Table: pgcatalog.RelationOID(tbl), Attnum: attnum}], err
}

// UsedColumns reports, by column position, which columns of tbl view v
// references (binding its text against cat).
func (r *Rename) UsedColumns(cat storage.Catalog, v storage.View, tbl storage.Table) ([]bool, error) {
	return usedColumns(cat, r.opts, v, tbl)
}

// UsedColumns is Rename.UsedColumns for ALTER ... SET SCHEMA.
func (x *SetSchema) UsedColumns(cat storage.Catalog, v storage.View, tbl storage.Table) ([]bool, error) {
	return usedColumns(cat, x.opts, v, tbl)
}

func usedColumns(cat storage.Catalog, opts *BindOptions, v storage.View, tbl storage.Table) ([]bool, error) {
	used, err := viewColumnUse(cat, opts, v)
	if err != nil {
		return nil, err
	}
	out := make([]bool, len(tbl.Columns()))
	for i, c := range tbl.Columns() {
		out[i] = used[ColumnUse{Table: pgcatalog.RelationOID(tbl), Attnum: attnumOf(c, i)}]
	}
	return out, nil
}

// viewColumnUse binds view v's text against cat and returns the stored
// columns it references.
func viewColumnUse(cat storage.Catalog, opts *BindOptions, v storage.View) (map[ColumnUse]bool, error) {
	raws, err := Parse(v.SQL)
	if err != nil || len(raws) != 1 || raws[0].stmt.GetSelectStmt() == nil {
		return nil, pgerr.New(pgerr.InternalError, "view \"%s\" has an unreadable definition", v.Name)
	}
	b := newBinder(v.SQL, cat, opts)
	b.colUse = map[ColumnUse]bool{}
	b.expanding = []string{v.Name}
	if _, _, err := b.bindSelect(raws[0].stmt.GetSelectStmt(), nil, nil, true); err != nil {
		return nil, withoutPosition(err)
	}
	return b.colUse, nil
}

// RenameInView rewrites view v for a change of relation rel (a table or a
// view): rel becomes newRel and its columns, named before (in order) when
// the view was bound, are named after. With the same names on both sides
// the view is rewritten only if it reads `*` (ADD COLUMN). used (nil: all)
// marks the columns the view reads: only those go into the subquery, so
// the view keeps depending on just them. changed is false when v needed
// no rewrite. rel and newRel are storage keys; schema is the name of
// rel's schema (the view's text qualifies a relation outside public with
// it: qualifyStored), newSchema that of newRel when it moved to another
// (ALTER ... SET SCHEMA; "" when it stays).
func RenameInView(v storage.View, rel, newRel, schema, newSchema string, before, after []string, used []bool) (out storage.View, changed bool, err error) {
	sid, relName := storage.SplitKey(rel)
	newName := storage.BareName(newRel)
	matches := func(rv *pg_query.RangeVar) bool {
		if rv.Relname != relName {
			return false
		}
		if sid == storage.PublicSchemaID {
			return rv.Schemaname == "" || rv.Schemaname == "public"
		}
		return rv.Schemaname == schema
	}
	raws, err := Parse(v.SQL)
	if err != nil || len(raws) != 1 || raws[0].stmt.GetSelectStmt() == nil {
		return v, false, pgerr.New(pgerr.InternalError, "view \"%s\" has an unreadable definition", v.Name)
	}
	stmt := raws[0].stmt
	renamed := rel != newRel
	for i := range before {
		renamed = renamed || before[i] != after[i]
	}
	var refs []*pg_query.Node
	star, shadowed := false, false
	walkProto(stmt.ProtoReflect(), func(m protoreflect.Message) {
		switch x := m.Interface().(type) {
		case *pg_query.Node:
			if rv := x.GetRangeVar(); rv != nil && matches(rv) {
				refs = append(refs, x)
			}
		case *pg_query.A_Star:
			star = true
		case *pg_query.CommonTableExpr:
			shadowed = shadowed || x.Ctename == relName
		}
	})
	if len(refs) == 0 || !renamed && !star {
		return v, false, nil
	}
	if shadowed {
		return v, false, pgerr.New(pgerr.FeatureNotSupported, "cannot rewrite view \"%s\": a WITH query of it is named \"%s\"", storage.BareName(v.Name), relName)
	}
	sameCols := true
	for i := range before {
		sameCols = sameCols && before[i] == after[i]
	}
	for _, n := range refs {
		rv := n.GetRangeVar()
		if sameCols && newName == relName && newSchema != "" {
			// Moved to another schema, same name and columns: the
			// reference is requalified in place (PostgreSQL's view follows
			// the relation and prints it with its new schema).
			rv.Schemaname = newSchema
			continue
		}
		alias := rv.Alias
		if alias == nil {
			alias = &pg_query.Alias{Aliasname: rv.Relname}
		}
		qual := rv.Schemaname
		if newSchema != "" {
			qual = newSchema
		}
		sel := &pg_query.SelectStmt{LimitOption: pg_query.LimitOption_LIMIT_OPTION_DEFAULT, Op: pg_query.SetOperation_SETOP_NONE,
			FromClause: []*pg_query.Node{{Node: &pg_query.Node_RangeVar{RangeVar: &pg_query.RangeVar{Schemaname: qual, Relname: newName, Inh: true, Relpersistence: "p", Location: -1}}}}}
		for i := range before {
			if used != nil && !used[i] && (alias.Colnames == nil || i >= len(alias.Colnames)) {
				continue // (positional column aliases need the columns before them)
			}
			ref := &pg_query.Node{Node: &pg_query.Node_ColumnRef{ColumnRef: &pg_query.ColumnRef{
				Fields: []*pg_query.Node{{Node: &pg_query.Node_String_{String_: &pg_query.String{Sval: after[i]}}}}, Location: -1}}}
			sel.TargetList = append(sel.TargetList, &pg_query.Node{Node: &pg_query.Node_ResTarget{ResTarget: &pg_query.ResTarget{Name: before[i], Val: ref, Location: -1}}})
		}
		n.Node = &pg_query.Node_RangeSubselect{RangeSubselect: &pg_query.RangeSubselect{
			Subquery: &pg_query.Node{Node: &pg_query.Node_SelectStmt{SelectStmt: sel}}, Alias: alias}}
	}
	text, err := pg_query.Deparse(&pg_query.ParseResult{Stmts: []*pg_query.RawStmt{{Stmt: stmt}}})
	if err != nil {
		return v, false, pgerr.Wrap(err, pgerr.InternalError, "cannot store the view's query: %v", err)
	}
	out = v
	out.SQL = text
	out.Deps = nil
	for _, d := range v.Deps {
		if d == rel {
			d = newRel
		}
		out.Deps = append(out.Deps, d)
	}
	return out, true, nil
}
