package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/storage"
)

// DELETE (the statement type is beside Update in update.go).

func (b *binder) bindDelete(ds *pg_query.DeleteStmt) (Statement, error) {
	s := b.dmlScope()
	if err := b.bindWith(s, ds.WithClause); err != nil {
		return nil, err
	}
	t, err := b.bindDMLTarget(s, ds.Relation, "delete")
	if err != nil {
		return nil, err
	}
	if mentionsColumns(append([]*pg_query.Node{ds.WhereClause}, ds.ReturningList...)...) {
		b.notePermRV(ds.Relation, storage.PrivSelect)
	}
	node, items, err := b.joinFromItems(s, t.scan, []*nsItem{t.item}, ds.UsingClause)
	if err != nil {
		return nil, err
	}
	s.items = items
	if node, err = b.bindDMLWhere(s, t, node, ds.WhereClause); err != nil {
		return nil, err
	}
	top, ret, err := b.bindReturning(s, node, ds.ReturningList)
	if err != nil {
		return nil, err
	}
	out := selectCols(top, append([]plan.Column{t.rowID}, ret...), b.ids)
	del := &Delete{Table: t.table, Source: &Query{Plan: out, IDs: b.ids, Names: colNames(out.Cols)}, Repeats: len(ds.UsingClause) > 0, Iceberg: t.iceberg}
	if ret != nil {
		del.Returning = out.Cols[1:]
	}
	return del, nil
}
