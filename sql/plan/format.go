package plan

import (
	"fmt"
	"strings"

	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// FormatExpr renders an expression the way EXPLAIN prints it: column names,
// constants with their type, operators infix. It is for people, not SQL.
func FormatExpr(e Expr) string {
	switch x := e.(type) {
	case nil:
		return "true"
	case *ColRef:
		if x.Name != "" {
			return x.Name
		}
		return fmt.Sprintf("#%d", x.ID)
	case *Const:
		if x.Val.Null {
			return "NULL"
		}
		s := string(types.FormatText(nil, x.Val, x.T, &types.Format{DateStyle: "ISO, MDY", IntervalStyle: "postgres", ExtraFloatDigits: 1}))
		switch x.T.ID {
		case types.Int2, types.Int4, types.Int8, types.Numeric, types.Float4, types.Float8, types.Bool:
			return s
		}
		return "'" + strings.ReplaceAll(s, "'", "''") + "'::" + x.T.SQLName()
	case *Param:
		return fmt.Sprintf("$%d", x.Index)
	case *Call:
		if len(x.Args) == 2 && isOperatorName(x.Func.Name) {
			return "(" + FormatExpr(x.Args[0]) + " " + x.Func.Name + " " + FormatExpr(x.Args[1]) + ")"
		}
		if len(x.Args) == 1 && isOperatorName(x.Func.Name) {
			return "(" + x.Func.Name + " " + FormatExpr(x.Args[0]) + ")"
		}
		return x.Func.Name + "(" + formatList(x.Args) + ")"
	case *Cast:
		return FormatExpr(x.Input) + "::" + x.T.SQLName()
	case *And:
		return "(" + joinExprs(x.Args, " AND ") + ")"
	case *Or:
		return "(" + joinExprs(x.Args, " OR ") + ")"
	case *Not:
		return "(NOT " + FormatExpr(x.Arg) + ")"
	case *IsNull:
		if x.Negate {
			return "(" + FormatExpr(x.Arg) + " IS NOT NULL)"
		}
		return "(" + FormatExpr(x.Arg) + " IS NULL)"
	case *BoolTest:
		return "(" + FormatExpr(x.Arg) + " IS " + [...]string{"TRUE", "NOT TRUE", "FALSE", "NOT FALSE", "UNKNOWN", "NOT UNKNOWN"}[x.Kind] + ")"
	case *IsDistinct:
		op := " IS DISTINCT FROM "
		if x.Negate {
			op = " IS NOT DISTINCT FROM "
		}
		return "(" + FormatExpr(x.Left) + op + FormatExpr(x.Right) + ")"
	case *Case:
		s := "CASE"
		for _, w := range x.Whens {
			s += " WHEN " + FormatExpr(w.Cond) + " THEN " + FormatExpr(w.Result)
		}
		if x.Else != nil {
			s += " ELSE " + FormatExpr(x.Else)
		}
		return s + " END"
	case *Coalesce:
		return "COALESCE(" + formatList(x.Args) + ")"
	case *GroupingFunc:
		return "GROUPING(" + formatList(x.Args) + ")"
	case *NullIf:
		return "NULLIF(" + FormatExpr(x.Left) + ", " + FormatExpr(x.Right) + ")"
	case *Subquery:
		kind := [...]string{"EXISTS", "SubPlan", "ANY", "ALL", "ARRAY"}[x.Kind]
		if len(x.LHS) > 0 {
			return "(" + formatList(x.LHS) + ") " + kind + " (SubPlan)"
		}
		return kind + " (SubPlan)"
	}
	return fmt.Sprintf("%T", e)
}

func isOperatorName(name string) bool {
	for _, r := range name {
		if strings.ContainsRune("+-*/<>=~!@#%^&|`?", r) {
			return true
		}
	}
	return false
}

func formatList(es []Expr) string { return joinExprs(es, ", ") }

func joinExprs(es []Expr, sep string) string {
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = FormatExpr(e)
	}
	return strings.Join(parts, sep)
}

// Format renders a logical plan as an indented tree, one node per line,
// with column IDs (#n) so references can be followed. It is for tests and
// debugging; the format is not stable API.
func Format(n Node) string {
	var sb strings.Builder
	f := &treeFormatter{sb: &sb, subs: map[*Subquery]int{}, ctes: map[*CTE]bool{}}
	f.node(n, 0)
	return sb.String()
}

// treeFormatter numbers subqueries in order of appearance, so the output
// is deterministic, and prints a shared WITH query's plan once.
type treeFormatter struct {
	sb   *strings.Builder
	subs map[*Subquery]int
	ctes map[*CTE]bool
}

func (f *treeFormatter) subID(sq *Subquery) int {
	id, ok := f.subs[sq]
	if !ok {
		id = len(f.subs) + 1
		f.subs[sq] = id
	}
	return id
}

func (f *treeFormatter) node(n Node, depth int) {
	sb := f.sb
	ind := strings.Repeat("  ", depth)
	sb.WriteString(ind)
	switch x := n.(type) {
	case *Scan:
		fmt.Fprintf(sb, "Scan %s", TableName(x.Table))
		if x.Alias != TableName(x.Table) {
			fmt.Fprintf(sb, " AS %s", x.Alias)
		}
		fmt.Fprintf(sb, " %s", formatCols(x.Cols))
		if len(x.Skip) > 0 {
			fmt.Fprintf(sb, " skip=[%s]", f.exprs(x.Skip))
		}
	case *Values:
		fmt.Fprintf(sb, "Values %s", formatCols(x.Cols))
		for _, r := range x.Rows {
			fmt.Fprintf(sb, " (%s)", f.exprs(r))
		}
	case *FunctionScan:
		fmt.Fprintf(sb, "FunctionScan %s", f.setFuncs(x.Funcs))
		if x.Ordinality {
			sb.WriteString(" WITH ORDINALITY")
		}
		fmt.Fprintf(sb, " %s", formatCols(x.Cols))
	case *ProjectSet:
		fmt.Fprintf(sb, "ProjectSet %s %s", f.setFuncs(x.Funcs), formatCols(x.FuncCols))
		if len(x.Exprs) > 0 {
			fmt.Fprintf(sb, " exprs=[%s] %s", f.exprs(x.Exprs), formatCols(x.ExprCols))
		}
	case *CTEScan:
		fmt.Fprintf(sb, "CTEScan %s %s", x.CTE.Name, formatCols(x.Cols))
		if f.ctes[x.CTE] {
			sb.WriteString(" (shared, plan above)\n")
			return
		}
		f.ctes[x.CTE] = true
		sb.WriteByte('\n')
		f.node(x.CTE.Plan, depth+1)
		return
	case *Filter:
		fmt.Fprintf(sb, "Filter %s", f.expr(x.Pred))
	case *Project:
		parts := make([]string, len(x.Exprs))
		for i, e := range x.Exprs {
			parts[i] = fmt.Sprintf("%s=%s", formatCol(x.Cols[i]), f.expr(e))
		}
		fmt.Fprintf(sb, "Project %s", strings.Join(parts, ", "))
	case *Join:
		fmt.Fprintf(sb, "Join %s", joinTypeName(x.Type))
		if x.NullAware {
			fmt.Fprintf(sb, " null-aware keys=%d", x.ValueKeys)
		}
		if x.On != nil {
			fmt.Fprintf(sb, " on %s", f.expr(x.On))
		}
		if x.Mark != nil {
			fmt.Fprintf(sb, " mark %s", formatCol(*x.Mark))
		}
	case *Apply:
		fmt.Fprintf(sb, "Apply %s", joinTypeName(x.Type))
		if x.On != nil {
			fmt.Fprintf(sb, " on %s", f.expr(x.On))
		}
		refs := make([]string, len(x.OuterRefs))
		for i, id := range x.OuterRefs {
			refs[i] = fmt.Sprintf("#%d", id)
		}
		fmt.Fprintf(sb, " outer=[%s]", strings.Join(refs, ", "))
	case *Aggregate:
		fmt.Fprintf(sb, "Aggregate group=[%s] aggs=[", f.exprs(x.GroupBy))
		for i, a := range x.Aggs {
			if i > 0 {
				sb.WriteString(", ")
			}
			sb.WriteString(f.agg(a))
		}
		fmt.Fprintf(sb, "] %s", formatCols(x.Cols))
		if len(x.Seeds) > 0 {
			fmt.Fprintf(sb, " seeds=%v", x.Seeds)
		}
	case *Window:
		f.window(sb, x)
	case *Sort:
		parts := make([]string, len(x.Keys))
		for i, k := range x.Keys {
			s := f.expr(k.Expr)
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
	case *Limit:
		sb.WriteString("Limit")
		if x.Count != nil {
			fmt.Fprintf(sb, " count=%s", f.expr(x.Count))
		}
		if x.Offset != nil {
			fmt.Fprintf(sb, " offset=%s", f.expr(x.Offset))
		}
		if x.WithTies {
			sb.WriteString(" with ties")
		}
	case *Distinct:
		sb.WriteString("Distinct")
		if len(x.On) > 0 {
			parts := make([]string, len(x.On))
			for i, e := range x.On {
				parts[i] = f.expr(e)
			}
			fmt.Fprintf(sb, " On %s", strings.Join(parts, ", "))
		}
	case *SetOp:
		op := [...]string{"Union", "Intersect", "Except"}[x.Op]
		if x.All {
			op += " All"
		}
		fmt.Fprintf(sb, "%s %s", op, formatCols(x.Cols))
	case *GroupingSets:
		sb.WriteString(x.format(f))
	case *RecursiveUnion:
		fmt.Fprintf(sb, "RecursiveUnion %s all=%v %s", x.Name, x.All, formatCols(x.Cols))
	case *WorkTableScan:
		fmt.Fprintf(sb, "WorkTableScan %s %s", x.WorkTable.Name, formatCols(x.Cols))
	case *StatementRows:
		fmt.Fprintf(sb, "StatementRows %s %s", x.Name, formatCols(x.Cols))
	default:
		fmt.Fprintf(sb, "%T", n)
	}
	sb.WriteByte('\n')
	for _, c := range n.Children() {
		f.node(c, depth+1)
	}
	// Subquery plans hang below the node that uses them.
	Subqueries(n, func(sq *Subquery) {
		fmt.Fprintf(sb, "%s  [subquery %d]\n", ind, f.subID(sq))
		f.node(sq.Plan, depth+2)
	})
}

func joinTypeName(t JoinType) string {
	return [...]string{"inner", "left", "right", "full", "cross", "semi", "anti", "mark"}[t]
}

func formatCol(c Column) string {
	s := fmt.Sprintf("#%d:%s:%s", c.ID, c.Name, FormatType(c.Type))
	if c.NotNull {
		s += "!"
	}
	return s
}

func formatCols(cs []Column) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = formatCol(c)
	}
	return "[" + strings.Join(parts, " ") + "]"
}

func (f *treeFormatter) agg(a AggCall) string {
	args := f.exprs(a.FuncArgs()) + a.OrderSuffix(f.expr)
	if len(a.Args) == 0 && len(a.Func.Args) == 0 && a.Func.Name == "count" {
		args = "*"
	}
	if a.Distinct {
		args = "DISTINCT " + args
	}
	s := fmt.Sprintf("%s(%s)", a.Func.Name, args)
	if a.Filter != nil {
		s += " FILTER " + f.expr(a.Filter)
	}
	return s
}

func (f *treeFormatter) exprs(es []Expr) string { return f.join(es, ", ") }

func (f *treeFormatter) join(es []Expr, sep string) string {
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = f.expr(e)
	}
	return strings.Join(parts, sep)
}

// FormatType is a type's SQL name with modifiers, compactly.
func FormatType(t types.Type) string {
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
	case types.Record, types.Time, types.TimeTZ:
		return t.PgTypeName()
	}
	return fmt.Sprintf("type%d", t.ID)
}

func (f *treeFormatter) expr(e Expr) string {
	switch x := e.(type) {
	case nil:
		return "<nil>"
	case *ColRef:
		return fmt.Sprintf("#%d", x.ID)
	case *Const:
		return formatConst(x)
	case *Param:
		return fmt.Sprintf("$%d:%s", x.Index, FormatType(x.T))
	case *Call:
		if isOperatorName(x.Func.Name) {
			if len(x.Args) == 2 {
				return fmt.Sprintf("(%s %s %s)", f.expr(x.Args[0]), x.Func.Name, f.expr(x.Args[1]))
			}
			if len(x.Args) == 1 {
				return fmt.Sprintf("(%s%s)", x.Func.Name, f.expr(x.Args[0]))
			}
		}
		return fmt.Sprintf("%s(%s)", x.Func.Name, f.exprs(x.Args))
	case *Cast:
		return fmt.Sprintf("%s::%s", f.expr(x.Input), FormatType(x.T))
	case *And:
		return "(" + f.join(x.Args, " AND ") + ")"
	case *Or:
		return "(" + f.join(x.Args, " OR ") + ")"
	case *Not:
		return "NOT " + f.expr(x.Arg)
	case *IsNull:
		if x.Negate {
			return f.expr(x.Arg) + " IS NOT NULL"
		}
		return f.expr(x.Arg) + " IS NULL"
	case *BoolTest:
		names := [...]string{"IS TRUE", "IS NOT TRUE", "IS FALSE", "IS NOT FALSE", "IS UNKNOWN", "IS NOT UNKNOWN"}
		return f.expr(x.Arg) + " " + names[x.Kind]
	case *IsDistinct:
		op := "IS DISTINCT FROM"
		if x.Negate {
			op = "IS NOT DISTINCT FROM"
		}
		return fmt.Sprintf("(%s %s %s)", f.expr(x.Left), op, f.expr(x.Right))
	case *Case:
		var sb strings.Builder
		sb.WriteString("CASE")
		for _, w := range x.Whens {
			fmt.Fprintf(&sb, " WHEN %s THEN %s", f.expr(w.Cond), f.expr(w.Result))
		}
		if x.Else != nil {
			fmt.Fprintf(&sb, " ELSE %s", f.expr(x.Else))
		}
		fmt.Fprintf(&sb, " END:%s", FormatType(x.T))
		return sb.String()
	case *Coalesce:
		return fmt.Sprintf("coalesce(%s)", f.exprs(x.Args))
	case *GroupingFunc:
		return fmt.Sprintf("grouping(%s)", f.exprs(x.Args))
	case *NullIf:
		return fmt.Sprintf("nullif(%s, %s)", f.expr(x.Left), f.expr(x.Right))
	case *Subquery:
		refs := ""
		if len(x.OuterRefs) > 0 {
			ids := make([]string, len(x.OuterRefs))
			for i, id := range x.OuterRefs {
				ids[i] = fmt.Sprintf("#%d", id)
			}
			refs = " outer=[" + strings.Join(ids, " ") + "]"
		}
		switch x.Kind {
		case ExistsSubquery:
			return fmt.Sprintf("EXISTS(subquery %d%s)", f.subID(x), refs)
		case ScalarSubquery:
			return fmt.Sprintf("(subquery %d%s)", f.subID(x), refs)
		case ArraySubquery:
			return fmt.Sprintf("ARRAY(subquery %d%s)", f.subID(x), refs)
		}
		kind := "ANY"
		if x.Kind == AllSubquery {
			kind = "ALL"
		}
		ops := make([]string, len(x.Ops))
		for i, o := range x.Ops {
			ops[i] = o.Name
		}
		return fmt.Sprintf("(%s) %s %s(subquery %d%s)", f.exprs(x.LHS), strings.Join(ops, ","), kind, f.subID(x), refs)
	}
	return fmt.Sprintf("%T", e)
}

func formatConst(c *Const) string {
	if c.Val.Null {
		return "NULL:" + FormatType(c.T)
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
	return s + ":" + FormatType(c.T)
}

// TableName is a scanned table's name as EXPLAIN and messages print it:
// without its schema (storage.BareName of its catalog key).
func TableName(t storage.Table) string { return storage.BareName(t.Name()) }
