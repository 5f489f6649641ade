package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/joind/joind/pgcatalog"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
)

// Queries over catalogs joind keeps empty (the psql shim of
// pgcatalog/shim_psql_describe.go): when a SELECT fails to bind with an
// unsupported-feature error and pgcatalog says every row it could produce
// would have to come from an inner join with an always-empty system
// catalog, its answer is known without binding it: no rows.
// catalogFallback returns that answer (its columns named as PostgreSQL
// names them, typed text).

// catalogFallback replaces a failed top-level SELECT over an empty catalog
// by an empty result; any other outcome is returned unchanged.
func (b *binder) catalogFallback(n *pg_query.Node, st Statement, err error) (Statement, error) {
	if err == nil {
		return st, nil
	}
	sel := n.GetSelectStmt()
	switch pgerr.Code(err) {
	case pgerr.FeatureNotSupported, pgerr.UndefinedFunction, pgerr.UndefinedObject, pgerr.CannotCoerce, pgerr.DatatypeMismatch, "3F000":
	default:
		return nil, err
	}
	if sel == nil || !b.snapshot().EmptyAnswer(sel) {
		return nil, err
	}
	first := sel
	for first.Op != pg_query.SetOperation_SETOP_NONE && first.Larg != nil {
		first = first.Larg
	}
	var cols []string
	for _, t := range first.TargetList {
		rt := t.GetResTarget()
		name := rt.Name
		if name == "" {
			name = figureColname(rt.Val)
		}
		if name == "" {
			name = "?column?"
		}
		if rt.Val.GetColumnRef() != nil && len(rt.Val.GetColumnRef().Fields) > 0 && rt.Val.GetColumnRef().Fields[len(rt.Val.GetColumnRef().Fields)-1].GetAStar() != nil {
			return nil, err
		}
		cols = append(cols, "NULL::text AS "+`"`+strings.ReplaceAll(name, `"`, `""`)+`"`)
	}
	text := "SELECT " + strings.Join(cols, ", ") + " WHERE false"
	raws, perr := Parse(text)
	if perr != nil || len(raws) != 1 {
		return nil, err
	}
	sub := newBinder(text, b.cat, b.opts)
	q, qerr := sub.bindQueryStmt(raws[0].stmt.GetSelectStmt())
	if qerr != nil {
		return nil, err
	}
	return q, nil
}

// bindKeywords binds pg_get_keywords() in FROM (pgcatalog.Keywords).
func (b *binder) bindKeywords(s *scope, rf *pg_query.RangeFunction) (plan.Node, []*nsItem, *scope, error) {
	cols := pgcatalog.KeywordColumns
	tbl := pgcatalog.Keywords()
	alias := "pg_get_keywords"
	var colAliases []*pg_query.Node
	if rf.Alias != nil {
		alias, colAliases = rf.Alias.Aliasname, rf.Alias.Colnames
	}
	if len(colAliases) > len(cols) {
		return nil, nil, nil, pgerr.New(pgerr.InvalidColumnReference, "table \"%s\" has %d columns available but %d columns specified",
			alias, len(cols), len(colAliases))
	}
	s.rtes = append(s.rtes, rteInfo{alias: alias})
	scan := &plan.Scan{Table: tbl, Alias: alias}
	it := &nsItem{name: alias, relVisible: true, colsVisible: true}
	for i, d := range cols {
		cname := d.Name
		if i < len(colAliases) {
			cname = colAliases[i].GetString_().GetSval()
		}
		c := plan.Column{ID: b.ids.Next(), Name: cname, Table: alias, Type: d.Type}
		scan.Cols = append(scan.Cols, c)
		scan.Ordinals = append(scan.Ordinals, i)
		it.cols = append(it.cols, nsColumn{name: cname, table: alias, expr: &plan.ColRef{ID: c.ID, T: c.Type, Name: cname}})
		b.colTable[c.ID], b.colName[c.ID] = alias, cname
	}
	return scan, []*nsItem{it}, &scope{}, nil
}
