package sql

import (
	"strconv"

	pg_query "github.com/pganalyze/pg_query_go/v5"
)

func strconvItoa(i int64) string { return strconv.FormatInt(i, 10) }

// figureColname is PostgreSQL's FigureColname: the implicit name of an
// output column.
func figureColname(n *pg_query.Node) string {
	name, strength := figureColnameInner(n)
	if strength == 0 {
		return "?column?"
	}
	return name
}

// figureColnameInner returns a name and its strength: 0 none, 1 a fallback
// (type name, "case"), 2 a real name.
func figureColnameInner(n *pg_query.Node) (string, int) {
	switch x := n.GetNode().(type) {
	case *pg_query.Node_ColumnRef:
		f := x.ColumnRef.Fields
		if len(f) > 0 {
			if s := f[len(f)-1].GetString_(); s != nil {
				return s.Sval, 2
			}
		}
	case *pg_query.Node_AIndirection:
		for i := len(x.AIndirection.Indirection) - 1; i >= 0; i-- {
			if s := x.AIndirection.Indirection[i].GetString_(); s != nil {
				return s.Sval, 2
			}
		}
		return figureColnameInner(x.AIndirection.Arg)
	case *pg_query.Node_FuncCall:
		return funcName(x.FuncCall.Funcname), 2
	case *pg_query.Node_AExpr:
		if x.AExpr.Kind == pg_query.A_Expr_Kind_AEXPR_NULLIF {
			return "nullif", 2
		}
	case *pg_query.Node_TypeCast:
		if name, s := figureColnameInner(x.TypeCast.Arg); s > 1 {
			return name, s
		}
		tn := x.TypeCast.TypeName
		if len(tn.Names) > 0 {
			return tn.Names[len(tn.Names)-1].GetString_().GetSval(), 1
		}
	case *pg_query.Node_CollateClause:
		return figureColnameInner(x.CollateClause.Arg)
	case *pg_query.Node_SubLink:
		switch x.SubLink.SubLinkType {
		case pg_query.SubLinkType_EXISTS_SUBLINK:
			return "exists", 2
		case pg_query.SubLinkType_ARRAY_SUBLINK:
			return "array", 2
		case pg_query.SubLinkType_EXPR_SUBLINK, pg_query.SubLinkType_MULTIEXPR_SUBLINK:
			sel := x.SubLink.Subselect.GetSelectStmt()
			for sel != nil && sel.Larg != nil {
				sel = sel.Larg
			}
			if sel != nil && len(sel.ValuesLists) > 0 {
				return "column1", 2
			}
			if sel != nil && len(sel.TargetList) > 0 {
				rt := sel.TargetList[0].GetResTarget()
				if rt.Name != "" {
					return rt.Name, 2
				}
				return figureColnameInner(rt.Val)
			}
		}
	case *pg_query.Node_CaseExpr:
		if x.CaseExpr.Defresult != nil {
			if name, s := figureColnameInner(x.CaseExpr.Defresult); s > 1 {
				return name, s
			}
		}
		return "case", 1
	case *pg_query.Node_AArrayExpr:
		return "array", 2
	case *pg_query.Node_RowExpr:
		return "row", 2
	case *pg_query.Node_CoalesceExpr:
		return "coalesce", 2
	case *pg_query.Node_MinMaxExpr:
		if x.MinMaxExpr.Op == pg_query.MinMaxOp_IS_GREATEST {
			return "greatest", 2
		}
		return "least", 2
	case *pg_query.Node_SqlvalueFunction:
		return sqlValueFunctionName(x.SqlvalueFunction.Op), 2
	case *pg_query.Node_GroupingFunc:
		return "grouping", 2
	}
	return "", 0
}
