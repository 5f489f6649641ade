package optimizer

import (
	"fmt"
	"strings"

	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/storage"
)

// Annotator adds run-time facts (EXPLAIN ANALYZE actuals, the hash-table
// kernel) to a node's EXPLAIN line.
type Annotator func(p *Physical) string

// ExplainNode is one node of an EXPLAIN: what the text format prints on
// its line and the lines below it, and what the JSON, YAML and XML
// formats (explainformat.go) print as its keys.
type ExplainNode struct {
	Title      string
	Rows       float64 // the estimate
	Partitions string  // "N", or "N→M"
	Note       string  // run-time facts (Annotator), "" when none
	Details    []string
	Inputs     []*ExplainNode
}

// Explain renders the physical plan as text lines, one node per line with
// its details indented below, in the spirit of PostgreSQL's EXPLAIN.
func Explain(p *Physical, note Annotator) []string {
	var lines []string
	ExplainTree(p, note).text(0, &lines)
	return lines
}

func (n *ExplainNode) text(depth int, lines *[]string) {
	// PostgreSQL's layout: a child's line starts "->  " under its parent's
	// text; details sit two columns right of the node's text.
	head := ""
	if depth > 0 {
		head = strings.Repeat(" ", 2+6*(depth-1)) + "->  "
	}
	line := fmt.Sprintf("%s%s  (rows=%.0f partitions=%s)", head, n.Title, n.Rows, n.Partitions)
	if n.Note != "" {
		line += " " + n.Note
	}
	*lines = append(*lines, line)
	detailIndent := strings.Repeat(" ", 2+6*depth)
	for _, d := range n.Details {
		*lines = append(*lines, detailIndent+d)
	}
	for _, in := range n.Inputs {
		in.text(depth+1, lines)
	}
}

// ExplainTree is the physical plan as EXPLAIN nodes.
func ExplainTree(p *Physical, note Annotator) *ExplainNode {
	title := p.Op.String()
	var details []string
	switch p.Op {
	case OpScan:
		x := p.Logical.(*plan.Scan)
		if ext, ok := x.Table.(storage.External); ok {
			// PostgreSQL's file_fdw shows its scans so.
			title = "Foreign Scan"
			details = append(details, "Foreign File: "+ext.Source())
		}
		title += " on " + plan.TableName(x.Table)
		if x.Alias != "" && x.Alias != plan.TableName(x.Table) {
			title += " " + x.Alias
		}
	case OpIndexScan:
		title, details = explainIndexScan(p)
	case OpFunctionScan:
		title += " on " + functionScanName(p.Logical.(*plan.FunctionScan))
	case OpCTEScan:
		title += " on " + p.Logical.(*plan.CTEScan).CTE.Name
	case OpWorkTableScan:
		title += " on " + p.Logical.(*plan.WorkTableScan).WorkTable.Name
	case OpFilter:
		details = append(details, "Filter: "+FormatExpr(p.Logical.(*plan.Filter).Pred))
	case OpProject:
		var out []string
		for _, e := range p.Logical.(*plan.Project).Exprs {
			out = append(out, FormatExpr(e))
		}
		details = append(details, "Output: "+strings.Join(out, ", "))
	case OpHashAggregate:
		x := p.Logical.(*plan.Aggregate)
		if gs := groupingSetsInput(p); gs != nil {
			details = append(details, explainGroupingSetsKeys(gs)...)
		} else if len(x.GroupBy) > 0 {
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
	case OpSort, OpTopN:
		details = append(details, "Sort Key: "+formatSortKeys(p.Logical.(*plan.Sort).Keys))
		if p.Op == OpTopN {
			details = append(details, limitDetails(p)...)
		}
	case OpLimit:
		details = append(details, limitDetails(p)...)
	case OpWindow:
		details = append(details, explainWindow(p)...)
	case OpDistinctOn:
		details = append(details, "Key: "+formatExprs(p.Logical.(*plan.Distinct).On))
	case OpSetOp:
		x := p.Logical.(*plan.SetOp)
		title = [...]string{"Union", "Intersect", "Except"}[x.Op]
		if x.All {
			title += " All"
		}
	case OpHashJoin, OpNestedLoopJoin:
		title = explainJoinTitle(p)
		details = append(details, explainJoinDetails(p)...)
	case OpApply:
		x := p.Logical.(*plan.Apply)
		title = "Lateral " + joinTypeNames[x.Type] + " Apply"
		if x.On != nil && !isTrue(x.On) {
			details = append(details, "Join Filter: "+FormatExpr(x.On))
		}
	case OpGroupingSets:
		details = append(details, explainGroupingSets(p))
	case OpRepartition:
		var k []string
		for _, e := range p.HashKeys {
			k = append(k, FormatExpr(e))
		}
		details = append(details, "Hash Keys: "+strings.Join(k, ", "))
	}
	n := &ExplainNode{Title: title, Rows: p.Rows, Partitions: explainPartitions(p), Details: details}
	if note != nil {
		n.Note = note(p)
	}
	for _, in := range p.Inputs {
		n.Inputs = append(n.Inputs, ExplainTree(in, note))
	}
	return n
}

var joinTypeNames = [...]string{
	plan.InnerJoin: "Inner", plan.LeftJoin: "Left", plan.RightJoin: "Right", plan.FullJoin: "Full",
	plan.CrossJoin: "Cross", plan.SemiJoin: "Semi", plan.AntiJoin: "Anti", plan.MarkJoin: "Mark",
}

// explainPartitions is a node's partition count: "N", or "N→M" for an
// exchange and for a node that reads its input's N partitions itself and
// produces M (an aggregate's partial aggregates merged into one).
func explainPartitions(p *Physical) string {
	if len(p.Inputs) == 1 {
		if in := p.Inputs[0].Partitions; in != p.Partitions || p.Op == OpGather || p.Op == OpRepartition {
			return fmt.Sprintf("%d→%d", in, p.Partitions)
		}
	}
	return fmt.Sprint(p.Partitions)
}

func explainJoinTitle(p *Physical) string {
	j := p.Join.Logical
	t := joinTypeNames[j.Type]
	if j.NullAware {
		t = "Null-Aware " + t
	}
	return fmt.Sprintf("%s %s", p.Op, t)
}

// executedNames name a join type over (build, probe), as operators/join
// runs it.
var executedNames = [...]string{
	plan.InnerJoin: "Inner", plan.LeftJoin: "Left (build rows kept)", plan.RightJoin: "Right (probe rows kept)",
	plan.FullJoin: "Full", plan.CrossJoin: "Cross", plan.SemiJoin: "LeftSemi", plan.AntiJoin: "LeftAnti", plan.MarkJoin: "LeftMark",
}

func executedName(jp *JoinPlan) string {
	if jp.EmitProbe {
		return map[plan.JoinType]string{plan.SemiJoin: "RightSemi", plan.AntiJoin: "RightAnti"}[jp.Type]
	}
	return executedNames[jp.Type]
}

func explainJoinDetails(p *Physical) []string {
	jp := p.Join
	var d []string
	if p.Op == OpHashJoin {
		var keys []string
		for i := range jp.BuildKeys {
			op := "="
			if jp.NullsEqual[i] {
				op = "IS NOT DISTINCT FROM"
			}
			keys = append(keys, fmt.Sprintf("%s %s %s", FormatExpr(jp.BuildKeys[i]), op, FormatExpr(jp.ProbeKeys[i])))
		}
		d = append(d, "Hash Keys (build = probe): "+strings.Join(keys, ", "))
		d = append(d, fmt.Sprintf("Build Side: %s, Mode: %s, Executed As: %s", jp.Build, jp.Mode, executedName(jp)))
	}
	if jp.NullAware && p.Op == OpHashJoin {
		d = append(d, explainNullAware(jp)...)
	}
	if jp.Residual != nil {
		d = append(d, "Join Filter: "+FormatExpr(jp.Residual))
	}
	if jp.On != nil && !isTrue(jp.On) {
		d = append(d, "Join Filter: "+FormatExpr(jp.On))
	}
	return d
}

// explainNullAware names the null-aware mode, whether it is correlated, and
// which keys carry the IN value and which the correlation scope.
func explainNullAware(jp *JoinPlan) []string {
	correlated := len(jp.BuildKeys) > jp.ValueKeys || jp.Residual != nil
	mode := "LeftAnti"
	switch {
	case jp.Type == plan.MarkJoin:
		mode = "LeftMark"
	case jp.EmitProbe:
		mode = "RightAnti"
	}
	corr := "uncorrelated"
	if correlated {
		corr = "correlated, per-build-row NULL decisions"
	}
	out := []string{fmt.Sprintf("Null-Aware Mode: %s (%s)", mode, corr)}
	var value, scope []string
	for i := range jp.BuildKeys {
		k := FormatExpr(jp.BuildKeys[i]) + " = " + FormatExpr(jp.ProbeKeys[i])
		if i < jp.ValueKeys {
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
	for _, e := range a.FuncArgs() {
		args = append(args, FormatExpr(e))
	}
	s := a.Func.Name + "("
	if a.Distinct {
		s += "DISTINCT "
	}
	if len(args) == 0 {
		s += "*"
	}
	s += strings.Join(args, ", ") + a.OrderSuffix(FormatExpr) + ")"
	if a.Filter != nil {
		s += " FILTER (WHERE " + FormatExpr(a.Filter) + ")"
	}
	return s
}

// FormatExpr renders an expression for EXPLAIN (plan.FormatExpr).
func FormatExpr(e plan.Expr) string { return plan.FormatExpr(e) }

// limitDetails are a Limit's or Top-N Sort's Count and Offset lines.
func limitDetails(p *Physical) []string {
	var d []string
	switch {
	case p.CountExpr != nil:
		d = append(d, "Count: "+FormatExpr(p.CountExpr))
	case p.Count >= 0:
		d = append(d, fmt.Sprintf("Count: %d", p.Count))
	}
	if len(p.TieKeys) > 0 {
		d = append(d, "With Ties: "+formatExprs(p.TieKeys))
	}
	switch {
	case p.OffsetExpr != nil:
		d = append(d, "Offset: "+FormatExpr(p.OffsetExpr))
	case p.Offset > 0:
		d = append(d, fmt.Sprintf("Offset: %d", p.Offset))
	}
	return d
}

// formatSortKeys is EXPLAIN's list of sort keys, with direction and NULLS
// placement where they differ from the default.
func formatSortKeys(keys []plan.SortKey) string {
	var k []string
	for _, key := range keys {
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
	return strings.Join(k, ", ")
}
