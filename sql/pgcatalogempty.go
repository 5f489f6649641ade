package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// Queries over catalogs joind keeps empty. psql's \d runs queries over
// pg_policy, pg_statistic_ext and pg_publication* that use arrays
// (`= ANY (polroles)`, `ARRAY(SELECT ...)`, `prattrs[s]`, `int2[]`), which
// joind cannot bind. When such a SELECT fails to bind with an
// unsupported-feature error and every row it could produce would have to
// come from an inner join with an always-empty system catalog, its answer
// is known without binding it: no rows. catalogFallback returns that
// answer (its columns named as PostgreSQL names them, typed text).

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
	if sel == nil || !b.alwaysEmpty(sel) {
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

// alwaysEmpty reports whether sel returns no rows because it inner-joins
// an always-empty system catalog (and has no aggregate, grouping or
// VALUES that could make a row out of nothing).
func (b *binder) alwaysEmpty(sel *pg_query.SelectStmt) bool {
	switch sel.Op {
	case pg_query.SetOperation_SETOP_UNION:
		return sel.Larg != nil && sel.Rarg != nil && b.alwaysEmpty(sel.Larg) && b.alwaysEmpty(sel.Rarg)
	case pg_query.SetOperation_SETOP_INTERSECT:
		return sel.Larg != nil && sel.Rarg != nil && (b.alwaysEmpty(sel.Larg) || b.alwaysEmpty(sel.Rarg))
	case pg_query.SetOperation_SETOP_EXCEPT:
		return sel.Larg != nil && b.alwaysEmpty(sel.Larg)
	}
	if sel.WithClause != nil || len(sel.ValuesLists) > 0 || len(sel.GroupClause) > 0 || sel.HavingClause != nil {
		return false
	}
	for _, t := range sel.TargetList {
		if hasAggregateCall(t) {
			return false
		}
	}
	for _, f := range sel.FromClause {
		if b.emptyFromItem(f) {
			return true
		}
	}
	return false
}

func (b *binder) emptyFromItem(n *pg_query.Node) bool {
	switch x := n.GetNode().(type) {
	case *pg_query.Node_RangeVar:
		rv := x.RangeVar
		if rv.Schemaname != "" && rv.Schemaname != "pg_catalog" && rv.Schemaname != "information_schema" {
			return false
		}
		if rv.Schemaname == "" {
			if _, isView := b.cat.LookupView(rv.Relname); isView {
				return false
			}
		}
		t, ok := b.systemTable(rv.Schemaname, rv.Relname)
		return ok && storage.SystemAlwaysEmpty(t)
	case *pg_query.Node_RangeSubselect:
		sub := x.RangeSubselect.Subquery.GetSelectStmt()
		return sub != nil && !x.RangeSubselect.Lateral && b.alwaysEmpty(sub)
	case *pg_query.Node_JoinExpr:
		j := x.JoinExpr
		switch j.Jointype {
		case pg_query.JoinType_JOIN_INNER:
			return b.emptyFromItem(j.Larg) || b.emptyFromItem(j.Rarg)
		case pg_query.JoinType_JOIN_LEFT:
			return b.emptyFromItem(j.Larg)
		case pg_query.JoinType_JOIN_RIGHT:
			return b.emptyFromItem(j.Rarg)
		case pg_query.JoinType_JOIN_FULL:
			return b.emptyFromItem(j.Larg) && b.emptyFromItem(j.Rarg)
		}
	}
	return false
}

// hasAggregateCall reports whether an aggregate is called anywhere in n
// (outside subqueries, which have their own level).
func hasAggregateCall(n *pg_query.Node) bool {
	found := false
	var walk func(m *pg_query.Node)
	walk = func(m *pg_query.Node) {
		if m == nil || found {
			return
		}
		switch x := m.GetNode().(type) {
		case *pg_query.Node_FuncCall:
			if x.FuncCall.AggStar || isAggregateName(funcName(x.FuncCall.Funcname)) {
				found = true
				return
			}
			for _, a := range x.FuncCall.Args {
				walk(a)
			}
		case *pg_query.Node_ResTarget:
			walk(x.ResTarget.Val)
		case *pg_query.Node_AExpr:
			walk(x.AExpr.Lexpr)
			walk(x.AExpr.Rexpr)
		case *pg_query.Node_TypeCast:
			walk(x.TypeCast.Arg)
		case *pg_query.Node_BoolExpr:
			for _, a := range x.BoolExpr.Args {
				walk(a)
			}
		case *pg_query.Node_CaseExpr:
			walk(x.CaseExpr.Arg)
			walk(x.CaseExpr.Defresult)
			for _, w := range x.CaseExpr.Args {
				walk(w.GetCaseWhen().GetExpr())
				walk(w.GetCaseWhen().GetResult())
			}
		case *pg_query.Node_CoalesceExpr:
			for _, a := range x.CoalesceExpr.Args {
				walk(a)
			}
		}
	}
	walk(n)
	return found
}

// bindKeywords binds pg_get_keywords() in FROM: PostgreSQL's reserved key
// words (catcode 'R'); joind does not list the unreserved ones.
func (b *binder) bindKeywords(s *scope, rf *pg_query.RangeFunction) (plan.Node, []*nsItem, *scope, error) {
	cols := []storage.ColumnDef{
		{Name: "word", Type: types.TextType}, {Name: "catcode", Type: types.TextType},
		{Name: "barelabel", Type: types.BoolType}, {Name: "catdesc", Type: types.TextType},
		{Name: "baredesc", Type: types.TextType},
	}
	var rows [][]types.Value
	for _, w := range reservedKeywords {
		bare := true
		switch w {
		case "analyse", "analyze", "as", "create", "do", "else", "end", "except", "fetch", "from", "grant", "group",
			"having", "intersect", "into", "limit", "offset", "on", "order", "returning", "select", "then", "to",
			"union", "using", "when", "where", "window", "with", "array", "collate", "constraint", "for", "variadic":
			bare = false
		}
		bd := "can be bare label"
		if !bare {
			bd = "requires AS"
		}
		rows = append(rows, []types.Value{types.TextValue(w), types.TextValue("R"), types.BoolValue(bare),
			types.TextValue("reserved"), types.TextValue(bd)})
	}
	tbl := storage.NewStaticTable("pg_get_keywords", cols, rows)
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
