package sql

import (
	"fmt"
	"strings"

	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// FormatPlan renders a logical plan as an indented tree, one node per line,
// with column IDs (#n) so references can be followed. It is for tests and
// debugging; the format is not stable API.
func FormatPlan(n plan.Node) string {
	var sb strings.Builder
	f := &planFormatter{sb: &sb, subs: map[*plan.Subquery]int{}}
	f.node(n, 0)
	return sb.String()
}

// planFormatter numbers subqueries in order of appearance, so the output
// is deterministic.
type planFormatter struct {
	sb   *strings.Builder
	subs map[*plan.Subquery]int
}

func (f *planFormatter) subID(sq *plan.Subquery) int {
	id, ok := f.subs[sq]
	if !ok {
		id = len(f.subs) + 1
		f.subs[sq] = id
	}
	return id
}

func (f *planFormatter) node(n plan.Node, depth int) {
	sb := f.sb
	FormatExpr := func(e plan.Expr) string { return formatExpr(e, f) }
	formatExprs := func(es []plan.Expr) string { return formatExprList(es, f) }
	ind := strings.Repeat("  ", depth)
	sb.WriteString(ind)
	switch x := n.(type) {
	case *plan.Scan:
		fmt.Fprintf(sb, "Scan %s", x.Table.Name())
		if x.Alias != x.Table.Name() {
			fmt.Fprintf(sb, " AS %s", x.Alias)
		}
		fmt.Fprintf(sb, " %s", formatCols(x.Cols))
	case *plan.Values:
		fmt.Fprintf(sb, "Values %s", formatCols(x.Cols))
		for _, r := range x.Rows {
			fmt.Fprintf(sb, " (%s)", formatExprs(r))
		}
	case *plan.FunctionScan:
		fmt.Fprintf(sb, "FunctionScan %s(%s) %s", x.Name, formatExprs(x.Args), formatCols(x.Cols))
	case *plan.CTEScan:
		fmt.Fprintf(sb, "CTEScan %s %s\n", x.CTE.Name, formatCols(x.Cols))
		f.node(x.CTE.Plan, depth+1)
		return
	case *plan.Filter:
		fmt.Fprintf(sb, "Filter %s", FormatExpr(x.Pred))
	case *plan.Project:
		parts := make([]string, len(x.Exprs))
		for i, e := range x.Exprs {
			parts[i] = fmt.Sprintf("%s=%s", formatCol(x.Cols[i]), FormatExpr(e))
		}
		fmt.Fprintf(sb, "Project %s", strings.Join(parts, ", "))
	case *plan.Join:
		fmt.Fprintf(sb, "Join %s", joinTypeName(x.Type))
		if x.NullAware {
			sb.WriteString(" null-aware")
		}
		if x.On != nil {
			fmt.Fprintf(sb, " on %s", FormatExpr(x.On))
		}
		if x.Mark != nil {
			fmt.Fprintf(sb, " mark %s", formatCol(*x.Mark))
		}
	case *plan.Apply:
		fmt.Fprintf(sb, "Apply %s", joinTypeName(x.Type))
		if x.On != nil {
			fmt.Fprintf(sb, " on %s", FormatExpr(x.On))
		}
		refs := make([]string, len(x.OuterRefs))
		for i, id := range x.OuterRefs {
			refs[i] = fmt.Sprintf("#%d", id)
		}
		fmt.Fprintf(sb, " outer=[%s]", strings.Join(refs, ", "))
	case *plan.Aggregate:
		fmt.Fprintf(sb, "Aggregate group=[%s] aggs=[", formatExprs(x.GroupBy))
		for i, a := range x.Aggs {
			if i > 0 {
				sb.WriteString(", ")
			}
			sb.WriteString(formatAgg(a, f))
		}
		fmt.Fprintf(sb, "] %s", formatCols(x.Cols))
	case *plan.Sort:
		parts := make([]string, len(x.Keys))
		for i, k := range x.Keys {
			s := FormatExpr(k.Expr)
			if k.Desc {
				s += " DESC"
			}
			if k.NullsFirst {
				s += " NULLS FIRST"
			} else {
				s += " NULLS LAST"
			}
			parts[i] = s
		}
		fmt.Fprintf(sb, "Sort %s", strings.Join(parts, ", "))
	case *plan.Limit:
		sb.WriteString("Limit")
		if x.Count != nil {
			fmt.Fprintf(sb, " count=%s", FormatExpr(x.Count))
		}
		if x.Offset != nil {
			fmt.Fprintf(sb, " offset=%s", FormatExpr(x.Offset))
		}
	case *plan.Distinct:
		sb.WriteString("Distinct")
	case *plan.SetOp:
		op := [...]string{"Union", "Intersect", "Except"}[x.Op]
		if x.All {
			op += " All"
		}
		fmt.Fprintf(sb, "%s %s", op, formatCols(x.Cols))
	default:
		fmt.Fprintf(sb, "%T", n)
	}
	sb.WriteByte('\n')
	for _, c := range n.Children() {
		f.node(c, depth+1)
	}
	// Subquery plans hang below the node that uses them.
	for _, e := range nodeExprs(n) {
		plan.Walk(e, func(x plan.Expr) bool {
			if sq, ok := x.(*plan.Subquery); ok {
				fmt.Fprintf(sb, "%s  [subquery %d]\n", ind, f.subID(sq))
				f.node(sq.Plan, depth+2)
			}
			return true
		})
	}
}

// nodeExprs lists the expressions a node evaluates.
func nodeExprs(n plan.Node) []plan.Expr {
	switch x := n.(type) {
	case *plan.Filter:
		return []plan.Expr{x.Pred}
	case *plan.Project:
		return x.Exprs
	case *plan.Join:
		if x.On != nil {
			return []plan.Expr{x.On}
		}
	case *plan.Apply:
		if x.On != nil {
			return []plan.Expr{x.On}
		}
	case *plan.Aggregate:
		out := append([]plan.Expr{}, x.GroupBy...)
		for _, a := range x.Aggs {
			out = append(out, a.Args...)
			if a.Filter != nil {
				out = append(out, a.Filter)
			}
		}
		return out
	case *plan.FunctionScan:
		return x.Args
	case *plan.Values:
		var out []plan.Expr
		for _, r := range x.Rows {
			out = append(out, r...)
		}
		return out
	case *plan.Sort:
		var out []plan.Expr
		for _, k := range x.Keys {
			out = append(out, k.Expr)
		}
		return out
	}
	return nil
}

func joinTypeName(t plan.JoinType) string {
	return [...]string{"inner", "left", "right", "full", "cross", "semi", "anti", "mark"}[t]
}

func formatCol(c plan.Column) string {
	s := fmt.Sprintf("#%d:%s:%s", c.ID, c.Name, shortType(c.Type))
	if c.NotNull {
		s += "!"
	}
	return s
}

func formatCols(cs []plan.Column) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = formatCol(c)
	}
	return "[" + strings.Join(parts, " ") + "]"
}

func formatAgg(a plan.AggCall, f *planFormatter) string {
	args := formatExprList(a.Args, f)
	if len(a.Args) == 0 && len(a.Func.Args) == 0 && a.Func.Name == "count" {
		args = "*"
	}
	if a.Distinct {
		args = "DISTINCT " + args
	}
	s := fmt.Sprintf("%s(%s)", a.Func.Name, args)
	if a.Filter != nil {
		s += " FILTER " + formatExpr(a.Filter, f)
	}
	return s
}

func formatExprList(es []plan.Expr, f *planFormatter) string {
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = formatExpr(e, f)
	}
	return strings.Join(parts, ", ")
}

// shortType is a type's SQL name with modifiers, compactly.
func shortType(t types.Type) string {
	switch t.ID {
	case types.Unknown:
		return "unknown"
	case types.Bool:
		return "bool"
	case types.Int2:
		return "int2"
	case types.Int4:
		return "int4"
	case types.Int8:
		return "int8"
	case types.Float4:
		return "float4"
	case types.Float8:
		return "float8"
	case types.Numeric:
		if p, s, ok := types.NumericPrecScale(t.Typmod); ok {
			return fmt.Sprintf("numeric(%d,%d)", p, s)
		}
		return "numeric"
	case types.Text:
		return "text"
	case types.Varchar:
		if n := t.CharLen(); n >= 0 {
			return fmt.Sprintf("varchar(%d)", n)
		}
		return "varchar"
	case types.Char:
		if n := t.CharLen(); n >= 0 {
			return fmt.Sprintf("bpchar(%d)", n)
		}
		return "bpchar"
	case types.Date:
		return "date"
	case types.Timestamp:
		return "timestamp"
	case types.Interval:
		return "interval"
	}
	return fmt.Sprintf("type%d", t.ID)
}

// FormatExpr renders a bound expression compactly (for tests and debugging).
func FormatExpr(e plan.Expr) string {
	return formatExpr(e, &planFormatter{subs: map[*plan.Subquery]int{}})
}

func formatExpr(e plan.Expr, f *planFormatter) string {
	FormatExpr := func(e plan.Expr) string { return formatExpr(e, f) }
	formatExprs := func(es []plan.Expr) string { return formatExprList(es, f) }
	joinExprs := func(es []plan.Expr, sep string) string {
		parts := make([]string, len(es))
		for i, e := range es {
			parts[i] = formatExpr(e, f)
		}
		return strings.Join(parts, sep)
	}
	switch x := e.(type) {
	case nil:
		return "<nil>"
	case *plan.ColRef:
		return fmt.Sprintf("#%d", x.ID)
	case *plan.Const:
		return formatConst(x)
	case *plan.Param:
		return fmt.Sprintf("$%d:%s", x.Index, shortType(x.T))
	case *plan.Call:
		if isOperatorName(x.Func.Name) {
			if len(x.Args) == 2 {
				return fmt.Sprintf("(%s %s %s)", FormatExpr(x.Args[0]), x.Func.Name, FormatExpr(x.Args[1]))
			}
			if len(x.Args) == 1 {
				return fmt.Sprintf("(%s%s)", x.Func.Name, FormatExpr(x.Args[0]))
			}
		}
		return fmt.Sprintf("%s(%s)", x.Func.Name, formatExprs(x.Args))
	case *plan.Cast:
		return fmt.Sprintf("%s::%s", FormatExpr(x.Input), shortType(x.T))
	case *plan.And:
		return "(" + joinExprs(x.Args, " AND ") + ")"
	case *plan.Or:
		return "(" + joinExprs(x.Args, " OR ") + ")"
	case *plan.Not:
		return "NOT " + FormatExpr(x.Arg)
	case *plan.IsNull:
		if x.Negate {
			return FormatExpr(x.Arg) + " IS NOT NULL"
		}
		return FormatExpr(x.Arg) + " IS NULL"
	case *plan.BoolTest:
		names := [...]string{"IS TRUE", "IS NOT TRUE", "IS FALSE", "IS NOT FALSE", "IS UNKNOWN", "IS NOT UNKNOWN"}
		return FormatExpr(x.Arg) + " " + names[x.Kind]
	case *plan.IsDistinct:
		op := "IS DISTINCT FROM"
		if x.Negate {
			op = "IS NOT DISTINCT FROM"
		}
		return fmt.Sprintf("(%s %s %s)", FormatExpr(x.Left), op, FormatExpr(x.Right))
	case *plan.Case:
		var sb strings.Builder
		sb.WriteString("CASE")
		for _, w := range x.Whens {
			fmt.Fprintf(&sb, " WHEN %s THEN %s", FormatExpr(w.Cond), FormatExpr(w.Result))
		}
		if x.Else != nil {
			fmt.Fprintf(&sb, " ELSE %s", FormatExpr(x.Else))
		}
		fmt.Fprintf(&sb, " END:%s", shortType(x.T))
		return sb.String()
	case *plan.Coalesce:
		return fmt.Sprintf("coalesce(%s)", formatExprs(x.Args))
	case *plan.NullIf:
		return fmt.Sprintf("nullif(%s, %s)", FormatExpr(x.Left), FormatExpr(x.Right))
	case *plan.Subquery:
		refs := ""
		if len(x.OuterRefs) > 0 {
			ids := make([]string, len(x.OuterRefs))
			for i, id := range x.OuterRefs {
				ids[i] = fmt.Sprintf("#%d", id)
			}
			refs = " outer=[" + strings.Join(ids, " ") + "]"
		}
		switch x.Kind {
		case plan.ExistsSubquery:
			return fmt.Sprintf("EXISTS(subquery %d%s)", f.subID(x), refs)
		case plan.ScalarSubquery:
			return fmt.Sprintf("(subquery %d%s)", f.subID(x), refs)
		}
		kind := "ANY"
		if x.Kind == plan.AllSubquery {
			kind = "ALL"
		}
		ops := make([]string, len(x.Ops))
		for i, o := range x.Ops {
			ops[i] = o.Name
		}
		return fmt.Sprintf("(%s) %s %s(subquery %d%s)", formatExprs(x.LHS), strings.Join(ops, ","), kind, f.subID(x), refs)
	}
	return fmt.Sprintf("%T", e)
}

func isOperatorName(n string) bool {
	if n == "" {
		return false
	}
	for _, r := range n {
		if !strings.ContainsRune("+-*/<>=~!@#%^&|`?", r) {
			return false
		}
	}
	return true
}

func formatConst(c *plan.Const) string {
	if c.Val.Null {
		return "NULL:" + shortType(c.T)
	}
	var s string
	switch c.T.ID {
	case types.Bool:
		s = "false"
		if c.Val.I != 0 {
			s = "true"
		}
	case types.Int2, types.Int4, types.Int8, types.Date, types.Timestamp:
		s = fmt.Sprint(c.Val.I)
	case types.Float4, types.Float8:
		s = fmt.Sprint(c.Val.F)
	case types.Numeric:
		if c.Val.Num != nil {
			s = c.Val.Num.String()
		}
	case types.Interval:
		s = fmt.Sprintf("%dmon%dd%dus", c.Val.Iv.Months, c.Val.Iv.Days, c.Val.Iv.Micros)
	default:
		s = "'" + c.Val.S + "'"
	}
	return s + ":" + shortType(c.T)
}
