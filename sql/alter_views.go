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
	raws, err := Parse(v.SQL)
	if err != nil || len(raws) != 1 || raws[0].stmt.GetSelectStmt() == nil {
		return false, pgerr.New(pgerr.InternalError, "view \"%s\" has an unreadable definition", v.Name)
	}
	b := newBinder(v.SQL, cat, a.opts)
	b.colUse = map[ColumnUse]bool{}
	b.expanding = []string{v.Name}
	if _, _, err := b.bindSelect(raws[0].stmt.GetSelectStmt(), nil, nil, true); err != nil {
		return false, withoutPosition(err)
	}
	return b.colUse[ColumnUse{Table: pgcatalog.RelationOID(tbl), Attnum: attnum}], nil
}

// RenameInView rewrites view v for a change of relation rel (a table or a
// view): rel becomes newRel and its columns, named before (in order) when
// the view was bound, are named after. With the same names on both sides
// the view is rewritten only if it reads `*` (ADD COLUMN). changed is
// false when v needed no rewrite.
func RenameInView(v storage.View, rel, newRel string, before, after []string) (out storage.View, changed bool, err error) {
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
			if rv := x.GetRangeVar(); rv != nil && rv.Relname == rel && (rv.Schemaname == "" || rv.Schemaname == "public") {
				refs = append(refs, x)
			}
		case *pg_query.A_Star:
			star = true
		case *pg_query.CommonTableExpr:
			shadowed = shadowed || x.Ctename == rel
		}
	})
	if len(refs) == 0 || !renamed && !star {
		return v, false, nil
	}
	if shadowed {
		return v, false, pgerr.New(pgerr.FeatureNotSupported, "cannot rewrite view \"%s\": a WITH query of it is named \"%s\"", v.Name, rel)
	}
	for _, n := range refs {
		rv := n.GetRangeVar()
		alias := rv.Alias
		if alias == nil {
			alias = &pg_query.Alias{Aliasname: rv.Relname}
		}
		sel := &pg_query.SelectStmt{LimitOption: pg_query.LimitOption_LIMIT_OPTION_DEFAULT, Op: pg_query.SetOperation_SETOP_NONE,
			FromClause: []*pg_query.Node{{Node: &pg_query.Node_RangeVar{RangeVar: &pg_query.RangeVar{Relname: newRel, Inh: true, Relpersistence: "p", Location: -1}}}}}
		for i := range before {
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
