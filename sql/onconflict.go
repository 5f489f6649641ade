package sql

import (
	"github.com/apache/arrow-go/v18/arrow"
	pg_query "github.com/pganalyze/pg_query_go/v5"
	"google.golang.org/protobuf/proto"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// INSERT ... ON CONFLICT: the arbiter indexes, as PostgreSQL infers them
// (its infer_arbiter_indexes), and the action.

// OnConflict is an INSERT's ON CONFLICT clause.
type OnConflict struct {
	// Update is DO UPDATE (else DO NOTHING).
	Update bool
	// Arbiters are the unique indexes a proposed row may conflict with;
	// empty for DO NOTHING without a target: every unique index.
	Arbiters []storage.IndexDef
	// DO UPDATE: Set scans Rows (per conflicting proposed row, the
	// existing row's RowID, the existing row, then the proposed row as
	// EXCLUDED) and yields, for the rows the WHERE clause keeps, the RowID,
	// the new row (table order, column types), then the RETURNING columns
	// over the new row.
	Set  *Query
	Rows *ConflictRows
	// unmatched: the inference columns match no unique index.
	unmatched bool
}

// ConflictRows is the input of an ON CONFLICT DO UPDATE's Set query, set
// by the executor before it runs the query.
type ConflictRows struct {
	storage.Table
	cols []storage.ColumnDef
	recs []arrow.Record
}

// SetRows sets the rows Set reads.
func (c *ConflictRows) SetRows(recs []arrow.Record) { c.recs = recs }

func (c *ConflictRows) Columns() []storage.ColumnDef { return c.cols }
func (c *ConflictRows) Snapshot() []arrow.Record     { return c.recs }
func (c *ConflictRows) Stats() storage.Stats {
	var n int64
	for _, x := range c.recs {
		n += x.NumRows()
	}
	return storage.Stats{Rows: n}
}

func (b *binder) bindOnConflict(oc *pg_query.OnConflictClause, tbl storage.Table) (*OnConflict, error) {
	out := &OnConflict{Update: oc.Action == pg_query.OnConflictAction_ONCONFLICT_UPDATE}
	inf := oc.Infer
	if out.Update && inf == nil {
		return nil, b.errAt(pgerr.New(pgerr.SyntaxError, "ON CONFLICT DO UPDATE requires inference specification or constraint name").
			WithHint("For example, ON CONFLICT (column_name)."), oc.Location)
	}
	if inf != nil {
		idx := storage.IndexesOf(tbl)
		if inf.Conname != "" {
			found := false
			for _, c := range storage.ConstraintsOf(tbl) {
				if c.Name != inf.Conname {
					continue
				}
				found = true
				if c.Kind != storage.ConPrimary && c.Kind != storage.ConUnique {
					return nil, pgerr.New(pgerr.WrongObjectType, "constraint in ON CONFLICT clause has no associated index")
				}
				for _, d := range idx {
					if d.Name == c.Name {
						out.Arbiters = append(out.Arbiters, d)
					}
				}
			}
			if !found {
				return nil, pgerr.New(pgerr.UndefinedObject, "constraint \"%s\" for table \"%s\" does not exist", inf.Conname, storage.BareName(tbl.Name()))
			}
		} else {
			var cols []string
			for _, n := range inf.IndexElems {
				el := n.GetIndexElem()
				if el == nil || el.Name == "" || len(el.Collation) > 0 || len(el.Opclass) > 0 {
					return nil, b.errAt(pgerr.New(pgerr.FeatureNotSupported, "ON CONFLICT inference by expressions, collations or operator classes is not supported"), inf.Location)
				}
				found := false
				for _, d := range tbl.Columns() {
					found = found || d.Name == el.Name
				}
				if !found {
					return nil, b.errAt(pgerr.New(pgerr.UndefinedColumn, "column \"%s\" does not exist", el.Name), inf.Location)
				}
				cols = append(cols, el.Name)
			}
			// Every unique index on exactly these columns (joind's
			// indexes are never partial, so an inference WHERE clause is
			// implied by each).
			for _, d := range idx {
				if d.Unique && sameSet(dedup(d.Cols), dedup(cols)) {
					out.Arbiters = append(out.Arbiters, d)
				}
			}
			out.unmatched = len(out.Arbiters) == 0
		}
	}
	return out, nil
}

// errUnmatched is PostgreSQL's planner-time refusal of an inference
// specification no unique index matches; it comes after every parse-time
// error of the statement (DO UPDATE's SET and WHERE included).
func (oc *OnConflict) errUnmatched() error {
	if oc.unmatched {
		return pgerr.New(pgerr.InvalidColumnReference, "there is no unique or exclusion constraint matching the ON CONFLICT specification")
	}
	return nil
}

// bindDoUpdate binds DO UPDATE SET ... [WHERE ...] and the RETURNING list
// over the updated row (the Set query of oc).
func (b *binder) bindDoUpdate(is *pg_query.InsertStmt, oc *OnConflict, tbl storage.Table, ctes *cteEnv) error {
	name := tbl.Name()
	if is.Relation.Alias != nil {
		name = is.Relation.Alias.Aliasname
	}
	defs := tbl.Columns()
	rows := &ConflictRows{Table: tbl}
	rows.cols = append([]storage.ColumnDef{{Name: "ctid", Type: types.Int8Type}}, defs...)
	rows.cols = append(rows.cols, defs...)
	scan := &plan.Scan{Table: rows, Alias: name}
	rowID := plan.Column{ID: b.ids.Next(), Name: "ctid", Type: types.Int8Type, NotNull: true}
	scan.Cols, scan.Ordinals = []plan.Column{rowID}, []int{0}
	item := func(alias string, first int, origin bool) *nsItem {
		// EXCLUDED is no stored row: it has no system columns.
		it := &nsItem{name: alias, relVisible: true, colsVisible: true, stored: origin}
		for i, d := range defs {
			c := plan.Column{ID: b.ids.Next(), Name: d.Name, Table: alias, Type: d.Type, NotNull: d.NotNull, AttNum: int16(i + 1)}
			if origin {
				b.markOrigin(c.ID, tbl, i)
			}
			scan.Cols = append(scan.Cols, c)
			scan.Ordinals = append(scan.Ordinals, first+i)
			it.cols = append(it.cols, nsColumn{name: d.Name, table: alias, notNull: d.NotNull, expr: &plan.ColRef{ID: c.ID, T: c.Type, Name: d.Name}})
			b.colTable[c.ID], b.colName[c.ID] = alias, d.Name
		}
		return it
	}
	target := item(name, 1, true)
	excluded := item("excluded", 1+len(defs), false)
	s := &scope{items: []*nsItem{target, excluded}, ctes: ctes}
	var node plan.Node = scan
	t := &dmlTarget{table: tbl, scan: scan, item: target, rowID: rowID}
	s.exprKind = "UPDATE"
	row, err := b.bindSetList(s, t, is.OnConflictClause.TargetList) // update.go
	if err != nil {
		return err
	}
	if w := is.OnConflictClause.WhereClause; w != nil {
		s.agg, s.exprKind = nil, "WHERE"
		e, err := b.bindExpr(s, w)
		if err != nil {
			return err
		}
		if e, err = b.coerceToBool(e, "WHERE"); err != nil {
			return err
		}
		node = &plan.Filter{Input: node, Pred: e}
	}
	p := passThrough(node)
	newCols := make([]plan.Column, len(defs))
	notNull := make([]bool, len(defs))
	for i, d := range defs {
		newCols[i] = plan.Column{ID: b.ids.Next(), Name: d.Name, Type: d.Type}
		notNull[i] = d.NotNull
		b.markOrigin(newCols[i].ID, tbl, i)
		p.Exprs = append(p.Exprs, row[i])
		p.Cols = append(p.Cols, newCols[i])
	}
	ns := &scope{items: []*nsItem{rowItem(name, newCols, notNull)}, ctes: ctes}
	top, ret, err := b.bindReturning(ns, p, is.ReturningList)
	if err != nil {
		return err
	}
	out := selectCols(top, append(append([]plan.Column{rowID}, newCols...), ret...), b.ids)
	oc.Set, oc.Rows = &Query{Plan: out, IDs: b.ids, Names: colNames(out.Cols)}, rows
	return nil
}

func dedup(s []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range s {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// bindInsertOnConflict binds the INSERT without its clause, then the clause
// against the target table.
func (b *binder) bindInsertOnConflict(is *pg_query.InsertStmt) (Statement, error) {
	if hasModifyingCTE(is.WithClause) { // modifyingwith.go
		return nil, pgerr.New(pgerr.FeatureNotSupported, "data-modifying statements in the WITH of INSERT ... ON CONFLICT are not supported")
	}
	plain := proto.Clone(is).(*pg_query.InsertStmt)
	plain.OnConflictClause = nil
	st, err := b.bindInsert(plain)
	if err != nil {
		return nil, err
	}
	ins := st.(*Insert)
	if ins.Iceberg != nil {
		return nil, errIcebergOnConflict(ins.Table) // iceberg.go
	}
	if ins.OnConflict, err = b.bindOnConflict(is.OnConflictClause, ins.Table); err != nil {
		return nil, err
	}
	if ins.OnConflict.Update {
		b.noteUpdatedCols(is.Relation, is.OnConflictClause.TargetList)
		// The statement's WITH queries, for SET and WHERE (all SELECTs:
		// data-modifying ones are refused above, so binding them twice is
		// safe), after those it sees as a data-modifying WITH query itself.
		ws := b.dmlScope()
		if err := b.bindWith(ws, is.WithClause); err != nil {
			return nil, err
		}
		if err := b.bindDoUpdate(is, ins.OnConflict, ins.Table, ws.ctes); err != nil {
			return nil, err
		}
	}
	if err := ins.OnConflict.errUnmatched(); err != nil {
		return nil, err
	}
	return ins, nil
}
