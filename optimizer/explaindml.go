package optimizer

import "strings"

// ExplainUnder renders a plan's EXPLAIN lines as the one child of a node
// titled title with the given detail lines: EXPLAIN of INSERT, UPDATE,
// DELETE and MERGE, whose ModifyTable node PostgreSQL prints above the plan
// producing the rows. The child's lines move one level right, its first
// becoming "  ->  title", as explainNode lays out any child.
func ExplainUnder(title string, details, child []string) []string {
	out := []string{title}
	for _, d := range details {
		out = append(out, "  "+d)
	}
	for i, line := range child {
		if i == 0 {
			out = append(out, "  ->  "+line)
			continue
		}
		out = append(out, strings.Repeat(" ", 6)+line)
	}
	return out
}
