package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// MERGE (PostgreSQL 15): MERGE INTO target USING source ON cond, then
// WHEN [NOT] MATCHED [AND cond] THEN UPDATE SET / DELETE / INSERT / DO
// NOTHING clauses, the first whose kind and condition fit a row acting.

// MergeKind is what a WHEN clause does.
type MergeKind uint8

const (
	MergeNothing MergeKind = iota
	MergeUpdate
	MergeDelete
	MergeInsert
)

// Merge is a bound MERGE. Source is source LEFT JOIN target ON cond with,
// per joined row: the number of the WHEN clause that acts (int4; 0 when
// none does), the target row's RowID (NULL when not matched), and the
// row to append (one column per table column; the new row of an UPDATE or
// the inserted row, NULLs otherwise). Actions[k-1] is clause k's kind.
type Merge struct {
	Table   storage.Table
	Source  *Query
	Actions []MergeKind
}

func (*Merge) statement() {}

func (b *binder) bindMerge(ms *pg_query.MergeStmt) (Statement, error) {
	// A clause after an unconditional one of its kind could never act.
	var terminal [2]bool
	for _, wn := range ms.MergeWhenClauses {
		wc := wn.GetMergeWhenClause()
		k := 0
		if wc.Matched {
			k = 1
		}
		if terminal[k] {
			return nil, pgerr.New(pgerr.SyntaxError, "unreachable WHEN clause specified after unconditional WHEN clause")
		}
		terminal[k] = wc.Condition == nil
	}
	if ms.WithClause != nil && ms.WithClause.Recursive {
		return nil, pgerr.New(pgerr.SyntaxError, "WITH RECURSIVE is not supported for MERGE statement")
	}
	s := &scope{}
	if err := b.bindWith(s, ms.WithClause); err != nil {
		return nil, err
	}
	t, err := b.bindDMLTarget(s, ms.Relation, "merge")
	if err != nil {
		return nil, err
	}
	// The target's privileges come first (PostgreSQL checks its range
	// table entry before the source's).
	b.noteReadCols(ms.Relation)
	for _, wn := range ms.MergeWhenClauses {
		switch wc := wn.GetMergeWhenClause(); wc.CommandType {
		case pg_query.CmdType_CMD_UPDATE:
			b.noteUpdatedCols(ms.Relation, wc.TargetList)
		case pg_query.CmdType_CMD_DELETE:
			b.notePermRV(ms.Relation, storage.PrivDelete)
		case pg_query.CmdType_CMD_INSERT:
			b.noteInsertedCols(ms.Relation, wc.TargetList, len(wc.Values))
		}
	}
	src, srcItems, _, err := b.bindFromItem(s, ms.SourceRelation, nil)
	if err != nil {
		return nil, err
	}
	if err := checkNameConflicts([]*nsItem{t.item}, srcItems); err != nil {
		return nil, pgerr.New(pgerr.DuplicateAlias, "name \"%s\" specified more than once", t.item.name).
			WithDetail("The name is used both as MERGE target table and data source.")
	}
	// The target's columns are NULL where no target row matched.
	tItem := *t.item
	tItem.cols = append([]nsColumn(nil), t.item.cols...)
	for i := range tItem.cols {
		tItem.cols[i].notNull = false
	}
	s.items = append([]*nsItem{&tItem}, srcItems...)
	s.agg, s.exprKind = nil, "JOIN conditions"
	on, err := b.bindExpr(s, ms.JoinCondition)
	if err != nil {
		return nil, err
	}
	if on, err = b.coerceToBool(on, "JOIN/ON"); err != nil {
		return nil, err
	}
	join := &plan.Join{Type: plan.LeftJoin, Left: src, Right: t.scan, On: on}
	matched := &plan.IsNull{Arg: &plan.ColRef{ID: t.rowID.ID, T: t.rowID.Type, Name: t.rowID.Name}, Negate: true}

	defs := t.table.Columns()
	// Source-only scope of NOT MATCHED clauses: naming the target there is
	// PostgreSQL's "invalid reference to FROM-clause entry".
	srcScope := &scope{items: srcItems, rtes: s.rtes, ctes: s.ctes}
	var whens []plan.When
	var kinds []MergeKind
	var rows [][]plan.Expr // per clause: the row it appends (nil: none)
	for i, wn := range ms.MergeWhenClauses {
		wc := wn.GetMergeWhenClause()
		ws := s
		if !wc.Matched {
			ws = srcScope
		}
		cond := plan.Expr(matched)
		if !wc.Matched {
			cond = &plan.Not{Arg: matched}
		}
		if wc.Condition != nil {
			ws.agg, ws.exprKind = nil, "MERGE WHEN conditions"
			c, err := b.bindExpr(ws, wc.Condition)
			if err != nil {
				return nil, err
			}
			if c, err = b.coerceToBool(c, "WHERE"); err != nil {
				return nil, err
			}
			cond = &plan.And{Args: []plan.Expr{cond, c}}
		}
		var kind MergeKind
		var row []plan.Expr
		switch wc.CommandType {
		case pg_query.CmdType_CMD_UPDATE:
			kind = MergeUpdate
			s.exprKind = "UPDATE"
			mt := *t
			mt.item = &tItem
			if row, err = b.bindSetList(s, &mt, wc.TargetList); err != nil {
				return nil, err
			}
		case pg_query.CmdType_CMD_DELETE:
			kind = MergeDelete
		case pg_query.CmdType_CMD_INSERT:
			kind = MergeInsert
			if wc.Override != pg_query.OverridingKind_OVERRIDING_NOT_SET && wc.Override != pg_query.OverridingKind_OVERRIDING_KIND_UNDEFINED {
				return nil, pgerr.New(pgerr.FeatureNotSupported, "OVERRIDING in MERGE is not supported")
			}
			srcScope.exprKind = "VALUES"
			if row, err = b.bindMergeInsert(srcScope, t.table, wc); err != nil {
				return nil, err
			}
		case pg_query.CmdType_CMD_NOTHING:
			kind = MergeNothing
		default:
			return nil, pgerr.New(pgerr.FeatureNotSupported, "this MERGE action is not supported")
		}
		whens = append(whens, plan.When{Cond: cond, Result: &plan.Const{Val: types.IntValue(int64(i + 1)), T: types.Int4Type}})
		kinds = append(kinds, kind)
		rows = append(rows, row)
	}
	// The acting clause, computed once per row; the appended row reads it.
	p1 := passThrough(join)
	action := plan.Column{ID: b.ids.Next(), Name: "action", Type: types.Int4Type}
	p1.Exprs = append(p1.Exprs, &plan.Case{Whens: whens, Else: &plan.Const{Val: types.IntValue(0), T: types.Int4Type}, T: types.Int4Type})
	p1.Cols = append(p1.Cols, action)
	actRef := &plan.ColRef{ID: action.ID, T: action.Type, Name: action.Name}
	p2 := &plan.Project{Input: p1}
	p2.Exprs = append(p2.Exprs, actRef, &plan.ColRef{ID: t.rowID.ID, T: t.rowID.Type, Name: t.rowID.Name})
	p2.Cols = append(p2.Cols, plan.Column{ID: b.ids.Next(), Name: "action", Type: types.Int4Type},
		plan.Column{ID: b.ids.Next(), Name: "ctid", Type: types.Int8Type})
	for c, d := range defs {
		var arms []plan.When
		for k, row := range rows {
			if row == nil {
				continue
			}
			eq, err := b.operator("=", actRef, &plan.Const{Val: types.IntValue(int64(k + 1)), T: types.Int4Type}, -1)
			if err != nil {
				return nil, err
			}
			arms = append(arms, plan.When{Cond: eq, Result: row[c]})
		}
		var e plan.Expr = &plan.Const{Val: types.NullValue, T: d.Type}
		if len(arms) > 0 {
			e = &plan.Case{Whens: arms, Else: e, T: d.Type}
		}
		p2.Exprs = append(p2.Exprs, e)
		p2.Cols = append(p2.Cols, plan.Column{ID: b.ids.Next(), Name: d.Name, Type: d.Type})
	}
	return &Merge{Table: t.table, Source: &Query{Plan: p2, IDs: b.ids, Names: colNames(p2.Cols)}, Actions: kinds}, nil
}

// bindMergeInsert binds a WHEN NOT MATCHED THEN INSERT [(cols)] VALUES
// (...) | DEFAULT VALUES: the inserted row, one expression per column.
func (b *binder) bindMergeInsert(s *scope, tbl storage.Table, wc *pg_query.MergeWhenClause) ([]plan.Expr, error) {
	defs := tbl.Columns()
	var targets []int
	if len(wc.TargetList) == 0 {
		for i := range defs {
			targets = append(targets, i)
		}
	} else {
		seen := map[int]bool{}
		for _, n := range wc.TargetList {
			rt := n.GetResTarget()
			idx := -1
			for i, d := range defs {
				if d.Name == rt.Name {
					idx = i
				}
			}
			if idx < 0 {
				return nil, b.errAt(pgerr.New(pgerr.UndefinedColumn, "column \"%s\" of relation \"%s\" does not exist", rt.Name, storage.BareName(tbl.Name())), rt.Location)
			}
			if len(rt.Indirection) > 0 {
				return nil, b.errAt(pgerr.New(pgerr.FeatureNotSupported, "subfield assignment is not supported"), rt.Location)
			}
			if seen[idx] {
				return nil, b.errAt(pgerr.New(pgerr.DuplicateColumn, "column \"%s\" specified more than once", rt.Name), rt.Location)
			}
			seen[idx] = true
			targets = append(targets, idx)
		}
	}
	row := make([]plan.Expr, len(defs))
	if len(wc.Values) > len(targets) {
		return nil, b.errAt(pgerr.New(pgerr.SyntaxError, "INSERT has more expressions than target columns"), nodeLocation(wc.Values[len(targets)]))
	}
	if len(wc.Values) > 0 && len(wc.Values) < len(targets) && len(wc.TargetList) > 0 {
		return nil, b.errAt(pgerr.New(pgerr.SyntaxError, "INSERT has more target columns than expressions"),
			wc.TargetList[len(wc.Values)].GetResTarget().Location)
	}
	for i, v := range wc.Values {
		d := defs[targets[i]]
		if v.GetSetToDefault() != nil {
			continue
		}
		e, err := b.bindExpr(s, v)
		if err != nil {
			return nil, err
		}
		if row[targets[i]], err = b.coerceAssign(e, d.Type, d.Name, nodeLocation(v)); err != nil {
			return nil, err
		}
	}
	for i := range row {
		if row[i] == nil {
			e, err := b.bindDefault(defs[i])
			if err != nil {
				return nil, err
			}
			row[i] = e
		}
	}
	return row, nil
}
