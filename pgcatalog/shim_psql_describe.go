package pgcatalog

import pg_query "github.com/pganalyze/pg_query_go/v5"

// psql's \d NAME runs queries over pg_policy and pg_publication* that use
// arrays (`= any (pol.polroles)`, `ARRAY(SELECT ...)`, `prattrs[s]`,
// `int2[]`), which joind cannot bind. Those catalogs
// are always empty in joind, and every row such a query could produce
// would come from an inner join with one of them: its answer is known
// without binding it, no rows. Package sql answers a SELECT that fails to
// bind with an unsupported-feature error that way when EmptyAnswer says
// so (sql/pgcatalogempty.go).

var (
	_ = registerShim(Shim{
		Client: "psql 15 \\d pc_t (row-level security policies)",
		Setup:  []string{"DROP TABLE IF EXISTS pc_t", "CREATE TABLE pc_t (a int, b text)"},
		OIDOf:  "pc_t",
		Query: `SELECT pol.polname, pol.polpermissive,
  CASE WHEN pol.polroles = '{0}' THEN NULL ELSE pg_catalog.array_to_string(array(select rolname from pg_catalog.pg_roles where oid = any (pol.polroles) order by 1),',') END,
  pg_catalog.pg_get_expr(pol.polqual, pol.polrelid),
  pg_catalog.pg_get_expr(pol.polwithcheck, pol.polrelid),
  CASE pol.polcmd
    WHEN 'r' THEN 'SELECT'
    WHEN 'a' THEN 'INSERT'
    WHEN 'w' THEN 'UPDATE'
    WHEN 'd' THEN 'DELETE'
    END AS cmd
FROM pg_catalog.pg_policy pol
WHERE pol.polrelid = '{oid}' ORDER BY 1;`,
	})
	_ = registerShim(Shim{
		Client: "psql 15 \\d pc_t (publications)",
		Setup:  []string{"DROP TABLE IF EXISTS pc_t", "CREATE TABLE pc_t (a int, b text)"},
		OIDOf:  "pc_t",
		Query: `SELECT pubname
     , NULL
     , NULL
FROM pg_catalog.pg_publication p
     JOIN pg_catalog.pg_publication_namespace pn ON p.oid = pn.pnpubid
     JOIN pg_catalog.pg_class pc ON pc.relnamespace = pn.pnnspid
WHERE pc.oid ='{oid}' and pg_catalog.pg_relation_is_publishable('{oid}')
UNION
SELECT pubname
     , pg_get_expr(pr.prqual, c.oid)
     , (CASE WHEN pr.prattrs IS NOT NULL THEN
         (SELECT string_agg(attname, ', ')
           FROM pg_catalog.generate_series(0, pg_catalog.array_upper(pr.prattrs::pg_catalog.int2[], 1)) s,
                pg_catalog.pg_attribute
          WHERE attrelid = pr.prrelid AND attnum = prattrs[s])
        ELSE NULL END) FROM pg_catalog.pg_publication p
     JOIN pg_catalog.pg_publication_rel pr ON p.oid = pr.prpubid
     JOIN pg_catalog.pg_class c ON c.oid = pr.prrelid
WHERE pr.prrelid = '{oid}'
UNION
SELECT pubname
     , NULL
     , NULL
FROM pg_catalog.pg_publication p
WHERE p.puballtables AND pg_catalog.pg_relation_is_publishable('{oid}')
ORDER BY 1;`,
	})
)

// EmptyAnswer reports whether sel returns no rows because it inner-joins
// a system catalog joind keeps empty (and has no aggregate, grouping or
// VALUES that could make a row out of nothing).
func (s *Snapshot) EmptyAnswer(sel *pg_query.SelectStmt) bool { return s.alwaysEmpty(sel) }

func schemaOr(schema, dflt string) string {
	if schema == "" {
		return dflt
	}
	return schema
}

// alwaysEmpty reports whether sel returns no rows because it inner-joins
// an always-empty system catalog (and has no aggregate, grouping or
// VALUES that could make a row out of nothing).
func (s *Snapshot) alwaysEmpty(sel *pg_query.SelectStmt) bool {
	switch sel.Op {
	case pg_query.SetOperation_SETOP_UNION:
		return sel.Larg != nil && sel.Rarg != nil && s.alwaysEmpty(sel.Larg) && s.alwaysEmpty(sel.Rarg)
	case pg_query.SetOperation_SETOP_INTERSECT:
		return sel.Larg != nil && sel.Rarg != nil && (s.alwaysEmpty(sel.Larg) || s.alwaysEmpty(sel.Rarg))
	case pg_query.SetOperation_SETOP_EXCEPT:
		return sel.Larg != nil && s.alwaysEmpty(sel.Larg)
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
		if s.emptyFromItem(f) {
			return true
		}
	}
	return false
}

func (s *Snapshot) emptyFromItem(n *pg_query.Node) bool {
	switch x := n.GetNode().(type) {
	case *pg_query.Node_RangeVar:
		rv := x.RangeVar
		if rv.Schemaname != "" && rv.Schemaname != "pg_catalog" && rv.Schemaname != "information_schema" {
			return false
		}
		if rv.Schemaname == "" {
			// The search path may find a user relation first.
			if r, ok := s.RelationByName("", rv.Relname); ok && r.Namespace != OIDNamespacePgCatalog {
				return false
			}
		}
		d := byName[schemaOr(rv.Schemaname, "pg_catalog")+"."+rv.Relname]
		return d != nil && d.rows == nil
	case *pg_query.Node_RangeSubselect:
		sub := x.RangeSubselect.Subquery.GetSelectStmt()
		return sub != nil && !x.RangeSubselect.Lateral && s.alwaysEmpty(sub)
	case *pg_query.Node_JoinExpr:
		j := x.JoinExpr
		switch j.Jointype {
		case pg_query.JoinType_JOIN_INNER:
			return s.emptyFromItem(j.Larg) || s.emptyFromItem(j.Rarg)
		case pg_query.JoinType_JOIN_LEFT:
			return s.emptyFromItem(j.Larg)
		case pg_query.JoinType_JOIN_RIGHT:
			return s.emptyFromItem(j.Rarg)
		case pg_query.JoinType_JOIN_FULL:
			return s.emptyFromItem(j.Larg) && s.emptyFromItem(j.Rarg)
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
			if x.FuncCall.AggStar || IsAggregateName(x.FuncCall.Funcname[len(x.FuncCall.Funcname)-1].GetString_().GetSval()) {
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
