package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

func (b *binder) bindInsert(is *pg_query.InsertStmt) (Statement, error) {
	if is.OnConflictClause != nil {
		return b.bindInsertOnConflict(is) // onconflict.go
	}
	ws := b.dmlScope()
	if err := b.bindWith(ws, is.WithClause); err != nil {
		return nil, err
	}
	tbl, err := b.lookupTable(is.Relation)
	if err != nil {
		if verr := b.notATable(is.Relation, "insert"); verr != nil {
			return nil, verr
		}
		return nil, err
	}
	insPerm := len(b.perms)
	b.notePermRV(is.Relation, storage.PrivInsert)
	if len(is.ReturningList) > 0 {
		b.notePermRV(is.Relation, storage.PrivSelect)
	}
	if b.icebergAppend(tbl) == nil { // iceberg.go
		if err := foreignWriteErr(tbl, "insert"); err != nil {
			return nil, err
		}
	}
	defs := tbl.Columns()
	// Target columns, in the order the statement lists them.
	var targets []int
	var tlocs []int32
	var tind [][]*pg_query.Node // a target's subscripts (array.go)
	if len(is.Cols) == 0 {
		for i := range defs {
			targets = append(targets, i)
			tlocs = append(tlocs, -1)
		}
	} else {
		seen, whole := map[int]bool{}, map[int]bool{}
		for _, cn := range is.Cols {
			rt := cn.GetResTarget()
			tind = append(tind, rt.Indirection)
			idx := -1
			for i, d := range defs {
				if d.Name == rt.Name {
					idx = i
				}
			}
			if idx < 0 {
				return nil, b.errAt(pgerr.New(pgerr.UndefinedColumn, "column \"%s\" of relation \"%s\" does not exist", rt.Name, storage.BareName(tbl.Name())), rt.Location)
			}
			// Assignments to subfields or elements of one column merge
			// (checkInsertTargets: only a whole-column target conflicts).
			if whole[idx] || seen[idx] && len(rt.Indirection) == 0 {
				return nil, b.errAt(pgerr.New(pgerr.DuplicateColumn, "column \"%s\" specified more than once", rt.Name), rt.Location)
			}
			seen[idx], whole[idx] = true, len(rt.Indirection) == 0
			targets = append(targets, idx)
			tlocs = append(tlocs, rt.Location)
		}
	}
	// inserted makes INSERT's privilege one on the first n targets, the
	// columns given values (PostgreSQL's insertedCols).
	inserted := func(n int) {
		if insPerm < len(b.perms) && b.perms[insPerm].Priv == storage.PrivInsert {
			var cols []int16
			for _, ti := range targets[:min(n, len(targets))] {
				cols = append(cols, attnumOf(defs[ti], ti))
			}
			b.perms[insPerm].Cols, b.perms[insPerm].colsKnown = cols, true
		}
	}
	// fill builds a full table row from the values given for targets.
	fill := func(given []plan.Expr) ([]plan.Expr, error) {
		row := make([]plan.Expr, len(defs))
		for i, ti := range targets {
			row[ti] = given[i]
		}
		for i := range row {
			if row[i] == nil {
				d, err := b.bindDefault(defs[i])
				if err != nil {
					return nil, err
				}
				row[i] = d
			}
		}
		return row, nil
	}
	out := &plan.Values{}
	for _, d := range defs {
		out.Cols = append(out.Cols, plan.Column{ID: b.ids.Next(), Name: d.Name, Type: d.Type})
	}
	sel := is.SelectStmt.GetSelectStmt()
	switch {
	case sel == nil:
		// DEFAULT VALUES
		targets = nil
		inserted(0)
		row, err := fill(nil)
		if err != nil {
			return nil, err
		}
		out.Rows = [][]plan.Expr{row}
	case len(sel.ValuesLists) > 0 && sel.Op == pg_query.SetOperation_SETOP_NONE && len(sel.SortClause) == 0 &&
		sel.LimitCount == nil && sel.LimitOffset == nil && sel.WithClause == nil:
		s := &scope{exprKind: "VALUES", ctes: ws.ctes, setFuncsAllowed: len(sel.ValuesLists) == 1}
		inserted(len(sel.ValuesLists[0].GetList().GetItems()))
		for _, ln := range sel.ValuesLists {
			items := ln.GetList().GetItems()
			if len(items) > len(targets) {
				return nil, b.errAt(pgerr.New(pgerr.SyntaxError, "INSERT has more expressions than target columns"), nodeLocation(items[len(targets)]))
			}
			if len(items) < len(targets) && len(is.Cols) > 0 {
				return nil, b.errAt(pgerr.New(pgerr.SyntaxError, "INSERT has more target columns than expressions"), tlocs[len(items)])
			}
			given := make([]plan.Expr, len(targets))
			for i, it := range items {
				d := defs[targets[i]]
				useDefault, err := identityInsert(d, is.Override)
				if err != nil && it.GetSetToDefault() == nil {
					return nil, err
				}
				if it.GetSetToDefault() != nil || useDefault {
					e, err := b.bindDefault(d)
					if err != nil {
						return nil, err
					}
					given[i] = e
					continue
				}
				e, err := b.bindExpr(s, it)
				if err != nil {
					return nil, err
				}
				if i < len(tind) && len(tind[i]) > 0 {
					var base plan.Expr = &plan.Const{Val: types.NullValue, T: d.Type}
					for j := i - 1; j >= 0; j-- {
						if targets[j] == targets[i] && given[j] != nil {
							base = given[j] // an earlier subfield of the same column
							break
						}
					}
					if given[i], err = b.bindArrayAssign(s, base, d.Type, d.Name, tind[i], e, tlocs[i]); err != nil {
						return nil, err
					}
					continue
				}
				if given[i], err = b.coerceAssign(e, d.Type, d.Name, nodeLocation(it)); err != nil {
					return nil, err
				}
			}
			row, err := fill(given)
			if err != nil {
				return nil, err
			}
			if lastSetFunc(row...) != nil {
				return b.insertReturning(is, tbl, b.insertSetRow(row, out.Cols), ws.ctes)
			}
			out.Rows = append(out.Rows, row)
		}
	default:
		for i, ind := range tind {
			if len(ind) > 0 {
				return nil, b.errAt(pgerr.New(pgerr.FeatureNotSupported, "subfield assignment is not supported"), tlocs[i])
			}
		}
		// As in PostgreSQL, unknown literals of the SELECT list take the
		// target columns' types instead of text.
		q, _, err := b.bindSelect(sel, nil, ws.ctes, false)
		if err != nil {
			return nil, err
		}
		if p, ok := q.node.(*plan.Project); ok {
			for i := range p.Exprs {
				if p.Cols[i].Type.ID != types.Unknown {
					continue
				}
				var e plan.Expr = p.Exprs[i]
				if i < len(targets) {
					d := defs[targets[i]]
					if e, err = b.coerceAssign(e, d.Type, d.Name, q.locs[i]); err != nil {
						return nil, err
					}
				} else {
					e = b.resolveUnknown(e)
				}
				p.Exprs[i], p.Cols[i].Type = e, e.Type()
			}
		}
		cols := q.node.Columns()
		inserted(len(cols))
		if len(cols) > len(targets) {
			return nil, b.errAt(pgerr.New(pgerr.SyntaxError, "INSERT has more expressions than target columns"), q.locs[len(targets)])
		}
		if len(cols) < len(targets) && len(is.Cols) > 0 {
			return nil, b.errAt(pgerr.New(pgerr.SyntaxError, "INSERT has more target columns than expressions"), tlocs[len(cols)])
		}
		given := make([]plan.Expr, len(targets))
		for i, c := range cols {
			d := defs[targets[i]]
			if useDefault, err := identityInsert(d, is.Override); err != nil {
				return nil, err
			} else if useDefault {
				if given[i], err = b.bindDefault(d); err != nil {
					return nil, err
				}
				continue
			}
			var ref plan.Expr = &plan.ColRef{ID: c.ID, T: c.Type, Name: c.Name}
			if given[i], err = b.coerceAssign(ref, d.Type, d.Name, q.locs[i]); err != nil {
				return nil, err
			}
		}
		row, err := fill(given)
		if err != nil {
			return nil, err
		}
		p := &plan.Project{Input: q.node, Exprs: row}
		for _, c := range out.Cols {
			c.ID = b.ids.Next()
			p.Cols = append(p.Cols, c)
		}
		return b.insertReturning(is, tbl, p, ws.ctes)
	}
	return b.insertReturning(is, tbl, out, ws.ctes)
}

// insertReturning is the Insert of the rows src yields, followed by the
// RETURNING columns computed over them.
func (b *binder) insertReturning(is *pg_query.InsertStmt, tbl storageTable, src plan.Node, ctes *cteEnv) (Statement, error) {
	name := tbl.Name()
	if is.Relation.Alias != nil {
		name = is.Relation.Alias.Aliasname
	}
	defs := tbl.Columns()
	notNull := make([]bool, len(defs))
	for i, d := range defs {
		notNull[i] = d.NotNull
	}
	rowCols := src.Columns()
	for i, c := range rowCols {
		b.markOrigin(c.ID, tbl, i)
	}
	iceberg := b.icebergAppend(tbl) // iceberg.go
	s := &scope{items: []*nsItem{rowItem(name, rowCols, notNull)}, ctes: ctes}
	top, ret, err := b.bindReturning(s, src, is.ReturningList)
	if err != nil {
		return nil, err
	}
	if ret == nil {
		return &Insert{Table: tbl, Source: &Query{Plan: src, IDs: b.ids, Names: colNames(rowCols)}, Iceberg: iceberg}, nil
	}
	out := selectCols(top, append(append([]plan.Column{}, rowCols...), ret...), b.ids)
	return &Insert{Table: tbl, Source: &Query{Plan: out, IDs: b.ids, Names: colNames(out.Cols)}, Returning: out.Cols[len(rowCols):], Iceberg: iceberg}, nil
}

func colNames(cols []plan.Column) []string {
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = c.Name
	}
	return out
}
