package sql

import (
	"fmt"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/joind/joind/pgcatalog"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// UPDATE and the target-table part DELETE and MERGE share.

// target is the table an UPDATE, DELETE or MERGE writes, as bound into
// its statement's scope: a Scan that also yields each row's RowID.
type dmlTarget struct {
	table   storage.Table
	scan    *plan.Scan
	item    *nsItem
	rowID   plan.Column
	iceberg *IcebergChange // an Iceberg table's change (iceberg.go)
}

// bindDMLTarget binds the target table of UPDATE/DELETE/MERGE (what names
// the statement for errors) into s.
func (b *binder) bindDMLTarget(s *scope, rv *pg_query.RangeVar, what string) (*dmlTarget, error) {
	if _, ok := b.catalogTable(rv.Schemaname, rv.Relname); ok {
		return nil, b.errAt(pgerr.New(pgerr.FeatureNotSupported, "writing to a system catalog is not supported"), rv.Location)
	}
	tbl, err := b.lookupTable(rv)
	if err != nil {
		if verr := b.notATable(rv, what); verr != nil {
			return nil, verr
		}
		return nil, err
	}
	iceberg := (what == "update" || what == "delete") && b.isIcebergTable(tbl) // iceberg.go
	if err := foreignWriteErr(tbl, what); err != nil && !iceberg {
		return nil, err
	}
	// The target is a table even where a WITH query has its name.
	ctes := s.ctes
	s.ctes = nil
	saved := b.noScanPerm
	b.noScanPerm = true
	node, items, err := b.bindRangeVar(s, rv)
	b.noScanPerm = saved
	s.ctes = ctes
	switch what {
	case "update": // UPDATE's columns: noteUpdatedCols
	case "delete":
		b.notePermRV(rv, storage.PrivDelete)
	default: // MERGE: each action's (bindMerge)
	}
	if err != nil {
		return nil, err
	}
	scan, ok := node.(*plan.Scan)
	if !ok || len(items) != 1 {
		return nil, b.errAt(pgerr.New(pgerr.WrongObjectType, "\"%s\" is not a table", rv.Relname), rv.Location)
	}
	scan.RowID = plan.Column{ID: b.ids.Next(), Name: "ctid", Type: types.Int8Type, NotNull: true}
	t := &dmlTarget{table: tbl, scan: scan, item: items[0], rowID: scan.RowID}
	if iceberg {
		if t.iceberg, err = b.icebergChange(tbl, scan.Table, what); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// bindDMLWhere binds the WHERE clause of UPDATE/DELETE over input.
func (b *binder) bindDMLWhere(s *scope, t *dmlTarget, input plan.Node, where *pg_query.Node) (plan.Node, error) {
	if where == nil {
		return input, nil
	}
	if c := where.GetCurrentOfExpr(); c != nil {
		return b.bindCurrentOf(input, t, c) // cursor.go
	}
	s.agg, s.exprKind = nil, "WHERE"
	e, err := b.bindExpr(s, where)
	if err != nil {
		return nil, err
	}
	if e, err = b.coerceToBool(e, "WHERE"); err != nil {
		return nil, err
	}
	return &plan.Filter{Input: input, Pred: e}, nil
}

// Update is UPDATE table SET ... [FROM ...] [WHERE ...] [RETURNING ...].
// Source yields, per target row to update, its RowID, then the new row
// (one column per table column, in table order, cast to the column
// types), then the RETURNING columns. With FROM a row may come more than
// once (Repeats): PostgreSQL updates it once, with the first match.
type Update struct {
	Table     storage.Table
	Source    *Query
	Returning []plan.Column
	Repeats   bool
	Iceberg   *IcebergChange // set: Table is an Iceberg foreign table
}

// Delete is DELETE FROM table [USING ...] [WHERE ...] [RETURNING ...].
// Source yields, per row to delete, its RowID then the RETURNING columns
// (over the old row); with USING a row may come more than once (Repeats).
type Delete struct {
	Table     storage.Table
	Source    *Query
	Returning []plan.Column
	Repeats   bool
	Iceberg   *IcebergChange // set: Table is an Iceberg foreign table
}

func (*Update) statement() {}
func (*Delete) statement() {}

func (b *binder) bindUpdate(us *pg_query.UpdateStmt) (Statement, error) {
	s := b.dmlScope()
	if err := b.bindWith(s, us.WithClause); err != nil {
		return nil, err
	}
	t, err := b.bindDMLTarget(s, us.Relation, "update")
	if err != nil {
		return nil, err
	}
	if mentionsColumns(append([]*pg_query.Node{us.WhereClause}, append(us.TargetList, us.ReturningList...)...)...) {
		b.notePermRV(us.Relation, storage.PrivSelect)
	}
	b.noteUpdatedCols(us.Relation, us.TargetList)
	node, items, err := b.joinFromItems(s, t.scan, []*nsItem{t.item}, us.FromClause)
	if err != nil {
		return nil, err
	}
	s.items = items
	if node, err = b.bindDMLWhere(s, t, node, us.WhereClause); err != nil {
		return nil, err
	}
	s.exprKind = "UPDATE"
	row, err := b.bindSetList(s, t, us.TargetList)
	if err != nil {
		return nil, err
	}
	// The new row, computed once: RETURNING reads these columns.
	p := passThrough(node)
	defs := t.table.Columns()
	newCols := make([]plan.Column, len(defs))
	notNull := make([]bool, len(defs))
	for i, d := range defs {
		newCols[i] = plan.Column{ID: b.ids.Next(), Name: d.Name, Type: d.Type}
		notNull[i] = d.NotNull
		b.markOrigin(newCols[i].ID, t.table, i)
		p.Exprs = append(p.Exprs, row[i])
		p.Cols = append(p.Cols, newCols[i])
	}
	ns := &scope{items: replaceItem(items, t.item, rowItem(t.item.name, newCols, notNull)), ctes: s.ctes, rtes: s.rtes}
	top, ret, err := b.bindReturning(ns, p, us.ReturningList)
	if err != nil {
		return nil, err
	}
	out := selectCols(top, append(append([]plan.Column{t.rowID}, newCols...), ret...), b.ids)
	up := &Update{Table: t.table, Source: &Query{Plan: out, IDs: b.ids, Names: colNames(out.Cols)}, Repeats: len(us.FromClause) > 0, Iceberg: t.iceberg}
	if ret != nil {
		up.Returning = out.Cols[1+len(defs):]
	}
	return up, nil
}

// markOrigin records column i of table t as the origin of column id: a
// RETURNING column that reads it is described with the table's OID and
// attribute number, as PostgreSQL describes it.
func (b *binder) markOrigin(id plan.ColumnID, t storage.Table, i int) {
	b.colOrigin[id] = plan.Column{TableOID: pgcatalog.RelationOID(t), AttNum: int16(i + 1)}
}

// replaceItem is items with old replaced by repl.
func replaceItem(items []*nsItem, old, repl *nsItem) []*nsItem {
	out := make([]*nsItem, len(items))
	for i, it := range items {
		out[i] = it
		if it == old {
			out[i] = repl
		}
	}
	return out
}

// selectCols is a Project over n yielding cols (columns of n) under new IDs.
func selectCols(n plan.Node, cols []plan.Column, ids *plan.IDAllocator) *plan.Project {
	p := &plan.Project{Input: n}
	for _, c := range cols {
		p.Exprs = append(p.Exprs, &plan.ColRef{ID: c.ID, T: c.Type, Name: c.Name})
		nc := c
		nc.ID = ids.Next()
		p.Cols = append(p.Cols, nc)
	}
	return p
}

// bindSetList binds UPDATE's SET list (and MERGE's UPDATE SET) in s, whose
// items show the old row: the new row, one expression per table column.
func (b *binder) bindSetList(s *scope, t *dmlTarget, list []*pg_query.Node) ([]plan.Expr, error) {
	defs := t.table.Columns()
	row := make([]plan.Expr, len(defs))
	for i := range defs {
		c := t.item.cols[i]
		row[i] = c.expr
	}
	assigned := make([]bool, len(defs))
	for _, n := range list {
		rt := n.GetResTarget()
		idx := -1
		for i, d := range defs {
			if d.Name == rt.Name {
				idx = i
			}
		}
		if idx < 0 {
			return nil, b.errAt(pgerr.New(pgerr.UndefinedColumn, "column \"%s\" of relation \"%s\" does not exist", rt.Name, storage.BareName(t.table.Name())), rt.Location)
		}
		if len(rt.Indirection) > 0 {
			// d[...] = x over the column's value so far (array.go).
			e, err := b.bindExpr(s, rt.Val)
			if err != nil {
				return nil, err
			}
			if row[idx], err = b.bindArrayAssign(s, row[idx], defs[idx].Type, rt.Name, rt.Indirection, e, rt.Location); err != nil {
				return nil, err
			}
			assigned[idx] = true
			continue
		}
		if assigned[idx] {
			return nil, pgerr.New(pgerr.SyntaxError, "multiple assignments to same column \"%s\"", rt.Name)
		}
		assigned[idx] = true
		d := defs[idx]
		val := rt.Val
		if ma := val.GetMultiAssignRef(); ma != nil {
			var err error
			if val, err = b.multiAssignSource(s, ma); err != nil {
				return nil, err
			}
		}
		if val.GetSetToDefault() != nil {
			e, err := b.bindDefault(d)
			if err != nil {
				return nil, err
			}
			row[idx] = e
			continue
		}
		e, err := b.bindExpr(s, val)
		if err != nil {
			return nil, err
		}
		if row[idx], err = b.coerceAssign(e, d.Type, d.Name, nodeLocation(val)); err != nil {
			return nil, err
		}
	}
	return row, nil
}

// multiAssignSource is the expression that gives one column of
// SET (a, b, ...) = source: the ROW's element, or a scalar subquery
// reading that column of the sub-SELECT (each column its own subquery over
// the same sub-SELECT, which yields at most one row).
func (b *binder) multiAssignSource(s *scope, ma *pg_query.MultiAssignRef) (*pg_query.Node, error) {
	src := ma.Source
	if row := src.GetRowExpr(); row != nil {
		// ROW(x.*, ...) expands x's columns, as PostgreSQL does here.
		var args []*pg_query.Node
		for _, a := range row.Args {
			cr := a.GetColumnRef()
			if cr == nil || !isStar(cr) {
				args = append(args, a)
				continue
			}
			if len(cr.Fields) != 2 {
				return nil, b.errAt(pgerr.New(pgerr.FeatureNotSupported, "ROW(*) in a multiple-column UPDATE item is not supported"), cr.Location)
			}
			ts, err := b.expandStar(s, cr)
			if err != nil {
				return nil, err
			}
			for _, t := range ts {
				args = append(args, &pg_query.Node{Node: &pg_query.Node_ColumnRef{ColumnRef: &pg_query.ColumnRef{
					Fields: []*pg_query.Node{cr.Fields[0], pg_query.MakeStrNode(t.name)}, Location: cr.Location}}})
			}
		}
		if len(args) != int(ma.Ncolumns) {
			return nil, b.errAt(pgerr.New(pgerr.SyntaxError, "number of columns does not match number of values"), row.Location)
		}
		return args[ma.Colno-1], nil
	}
	sl := src.GetSubLink()
	if sl == nil || (sl.SubLinkType != pg_query.SubLinkType_EXPR_SUBLINK && sl.SubLinkType != pg_query.SubLinkType_MULTIEXPR_SUBLINK) {
		return nil, b.errAt(pgerr.New(pgerr.FeatureNotSupported, "source for a multiple-column UPDATE item must be a sub-SELECT or ROW() expression"), nodeLocation(src))
	}
	if ma.Colno == 1 {
		// Checked once, at the first column.
		q, _, err := b.bindSelect(sl.Subselect.GetSelectStmt(), s, s.ctes, true)
		if err != nil {
			return nil, err
		}
		if len(q.node.Columns()) != int(ma.Ncolumns) {
			return nil, b.errAt(pgerr.New(pgerr.SyntaxError, "number of columns does not match number of values"), sl.Location)
		}
	}
	// SELECT multiassign.cK FROM (sub-SELECT) AS multiassign(c1, ..., cN)
	alias := &pg_query.Alias{Aliasname: "multiassign"}
	for i := 1; i <= int(ma.Ncolumns); i++ {
		alias.Colnames = append(alias.Colnames, pg_query.MakeStrNode(fmt.Sprintf("c%d", i)))
	}
	col := &pg_query.Node{Node: &pg_query.Node_ColumnRef{ColumnRef: &pg_query.ColumnRef{
		Fields: []*pg_query.Node{pg_query.MakeStrNode("multiassign"), pg_query.MakeStrNode(fmt.Sprintf("c%d", ma.Colno))}, Location: sl.Location}}}
	one := &pg_query.SelectStmt{
		TargetList: []*pg_query.Node{{Node: &pg_query.Node_ResTarget{ResTarget: &pg_query.ResTarget{Val: col, Location: sl.Location}}}},
		FromClause: []*pg_query.Node{{Node: &pg_query.Node_RangeSubselect{RangeSubselect: &pg_query.RangeSubselect{
			Subquery: sl.Subselect, Alias: alias}}}},
		Op: pg_query.SetOperation_SETOP_NONE,
	}
	return &pg_query.Node{Node: &pg_query.Node_SubLink{SubLink: &pg_query.SubLink{
		SubLinkType: pg_query.SubLinkType_EXPR_SUBLINK,
		Subselect:   &pg_query.Node{Node: &pg_query.Node_SelectStmt{SelectStmt: one}},
		Location:    sl.Location,
	}}}, nil
}
