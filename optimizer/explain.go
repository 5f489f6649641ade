package optimizer

import (
	"fmt"
	"strings"

	"github.com/joind/joind/sql/plan"
)

// Annotator adds run-time facts (EXPLAIN ANALYZE actuals, the hash-table
// kernel) to a node's EXPLAIN line.
type Annotator func(p *Physical) string

// Explain renders the physical plan as text lines, one node per line with
// its details indented below, in the spirit of PostgreSQL's EXPLAIN.
func Explain(p *Physical, note Annotator) []string {
	var lines []string
	explainNode(p, 0, note, &lines)
	return lines
}

func explainNode(p *Physical, depth int, note Annotator, lines *[]string) {
	// PostgreSQL's layout: a child's line starts "->  " under its parent's
	// text; details sit two columns right of the node's text.
	head := ""
	if depth > 0 {
		head = strings.Repeat(" ", 2+6*(depth-1)) + "->  "
	}
	title := p.Op.String()
	var details []string
	switch x := p.Logical.(type) {
	case *plan.Scan:
		title += " on " + x.Table.Name()
		if x.Alias != "" && x.Alias != x.Table.Name() {
			title += " " + x.Alias
		}
	case *plan.FunctionScan:
		title += " on " + x.Name
	case *plan.CTEScan:
		title += " on " + x.CTE.Name
	case *plan.Filter:
		details = append(details, "Filter: "+FormatExpr(x.Pred))
	case *plan.Project:
		var out []string
		for _, e := range x.Exprs {
			out = append(out, FormatExpr(e))
		}
		details = append(details, "Output: "+strings.Join(out, ", "))
	case *plan.Aggregate:
		if len(x.GroupBy) > 0 {
			var g []string
			for _, e := range x.GroupBy {
				g = append(g, FormatExpr(e))
			}
			details = append(details, "Group Key: "+strings.Join(g, ", "))
		}
		var a []string
		for _, agg := range x.Aggs {
			a = append(a, formatAgg(agg))
		}
		if len(a) > 0 {
			details = append(details, "Aggregates: "+strings.Join(a, ", "))
		}
	case *plan.Sort:
		var k []string
		for _, key := range x.Keys {
			s := FormatExpr(key.Expr)
			if key.Desc {
				s += " DESC"
			}
			if key.NullsFirst != key.Desc {
				if key.NullsFirst {
					s += " NULLS FIRST"
				} else {
					s += " NULLS LAST"
				}
			}
			k = append(k, s)
		}
		details = append(details, "Sort Key: "+strings.Join(k, ", "))
	case *plan.Limit:
		if p.Count >= 0 {
			details = append(details, fmt.Sprintf("Count: %d", p.Count))
		}
		if p.Offset > 0 {
			details = append(details, fmt.Sprintf("Offset: %d", p.Offset))
		}
	case *plan.SetOp:
		title = [...]string{"Union", "Intersect", "Except"}[x.Op]
		if x.All {
			title += " All"
		}
	case *plan.Join:
		title = explainJoinTitle(p)
		details = append(details, explainJoinDetails(p.Join)...)
	case *plan.Apply:
		title = "Lateral " + joinTypeNames[x.Type] + " Apply"
		if x.On != nil && !isTrue(x.On) {
			details = append(details, "Join Filter: "+FormatExpr(x.On))
		}
	}
	line := fmt.Sprintf("%s%s  (rows=%.0f)", head, title, p.Rows)
	if note != nil {
		if extra := note(p); extra != "" {
			line += " " + extra
		}
	}
	*lines = append(*lines, line)
	detailIndent := strings.Repeat(" ", 2+6*depth)
	for _, d := range details {
		*lines = append(*lines, detailIndent+d)
	}
	for _, in := range p.Inputs {
		explainNode(in, depth+1, note, lines)
	}
}

var joinTypeNames = [...]string{
	plan.InnerJoin: "Inner", plan.LeftJoin: "Left", plan.RightJoin: "Right", plan.FullJoin: "Full",
	plan.CrossJoin: "Cross", plan.SemiJoin: "Semi", plan.AntiJoin: "Anti", plan.MarkJoin: "Mark",
}

func explainJoinTitle(p *Physical) string {
	j := p.Join.Logical
	t := joinTypeNames[j.Type]
	if j.NullAware {
		t = "Null-Aware " + t
	}
	return fmt.Sprintf("%s %s", p.Op, t)
}

func explainJoinDetails(jp *JoinPlan) []string {
	var d []string
	if len(jp.LeftKeys) > 0 {
		var keys []string
		for i := range jp.LeftKeys {
			op := "="
			if jp.NullsEqual[i] {
				op = "IS NOT DISTINCT FROM"
			}
			keys = append(keys, fmt.Sprintf("%s %s %s", FormatExpr(jp.LeftKeys[i]), op, FormatExpr(jp.RightKeys[i])))
		}
		d = append(d, "Hash Keys: "+strings.Join(keys, ", "))
		d = append(d, fmt.Sprintf("Build Side: %s, Mode: %s", jp.Build, jp.Mode))
	}
	if j := jp.Logical; j.NullAware {
		d = append(d, explainNullAware(jp)...)
	}
	if jp.Residual != nil {
		d = append(d, "Join Filter: "+FormatExpr(jp.Residual))
	}
	return d
}

// explainNullAware names the null-aware mode, whether it is correlated, and
// which keys carry the IN value and which the correlation scope.
func explainNullAware(jp *JoinPlan) []string {
	j := jp.Logical
	correlated := len(jp.LeftKeys) > j.ValueKeys || jp.Residual != nil
	mode := "LeftAnti"
	switch {
	case j.Type == plan.MarkJoin:
		mode = "LeftMark"
	case jp.Build == RightSide:
		mode = "RightAnti"
	}
	corr := "uncorrelated"
	if correlated {
		corr = "correlated, per-build-row NULL decisions"
	}
	out := []string{fmt.Sprintf("Null-Aware Mode: %s (%s)", mode, corr)}
	var value, scope []string
	for i := range jp.LeftKeys {
		k := FormatExpr(jp.LeftKeys[i]) + " = " + FormatExpr(jp.RightKeys[i])
		if i < j.ValueKeys {
			value = append(value, k)
		} else {
			scope = append(scope, k)
		}
	}
	out = append(out, "Value Keys: "+strings.Join(value, ", "))
	if len(scope) > 0 {
		out = append(out, "Scope Keys: "+strings.Join(scope, ", "))
	}
	return out
}

func formatAgg(a plan.AggCall) string {
	var args []string
	for _, e := range a.Args {
		args = append(args, FormatExpr(e))
	}
	s := a.Func.Name + "("
	if a.Distinct {
		s += "DISTINCT "
	}
	if len(args) == 0 {
		s += "*"
	}
	s += strings.Join(args, ", ") + ")"
	if a.Filter != nil {
		s += " FILTER (WHERE " + FormatExpr(a.Filter) + ")"
	}
	return s
}

// FormatExpr renders an expression for EXPLAIN (plan.FormatExpr).
func FormatExpr(e plan.Expr) string { return plan.FormatExpr(e) }
