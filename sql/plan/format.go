package plan

import (
	"fmt"
	"strings"

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
	case *NullIf:
		return "NULLIF(" + FormatExpr(x.Left) + ", " + FormatExpr(x.Right) + ")"
	case *Subquery:
		kind := [...]string{"EXISTS", "SubPlan", "ANY", "ALL"}[x.Kind]
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
