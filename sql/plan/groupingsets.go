package plan

import (
	"fmt"
	"strings"

	"github.com/joind/joind/types"
)

// GroupingSets feeds every input row to the Aggregate above it once per
// grouping set (GROUP BY ROLLUP / CUBE / GROUPING SETS), so one hash
// aggregation computes all the sets in one pass over the input: the copy
// for set s carries each key of Keys where s groups by it and NULL where it
// does not, and s's number in SetCol, which the Aggregate groups by last so
// that a set's all-NULL groups stay apart from another set's. The input
// columns pass on (Pass, read from PassFrom); a grouping column's raw value
// passes under a fresh ID, because its own ID names the key — the value
// PostgreSQL shows above the aggregation, NULL where the set groups it out
// — while the aggregates' arguments read the raw value.
//
// The physical plan may instead feed each row once with every key (set 0)
// and have the aggregate roll the sets up (optimizer's Physical.RollUp).
//
// Output columns: Pass, then KeyCols, then SetCol.
type GroupingSets struct {
	Input    Node
	Keys     []Expr
	Sets     [][]int // per set, the indexes into Keys it groups by
	Pass     []Column
	PassFrom []ColumnID // Pass[i] carries input column PassFrom[i]
	KeyCols  []Column
	SetCol   Column // int4
}

func (n *GroupingSets) Columns() []Column {
	out := make([]Column, 0, len(n.Pass)+len(n.KeyCols)+1)
	out = append(append(out, n.Pass...), n.KeyCols...)
	return append(out, n.SetCol)
}

func (n *GroupingSets) Children() []Node { return []Node{n.Input} }

func (n *GroupingSets) WithChildren(k []Node) Node { c := *n; c.Input = k[0]; return &c }

func (n *GroupingSets) Expressions() []Expr { return n.Keys }

func (n *GroupingSets) WithExpressions(k []Expr) Node { c := *n; c.Keys = k; return &c }

// InSet reports whether set s groups by key k.
func (n *GroupingSets) InSet(s, k int) bool {
	for _, i := range n.Sets[s] {
		if i == k {
			return true
		}
	}
	return false
}

// format is the node's line in Format.
func (n *GroupingSets) format(f *treeFormatter) string {
	sets := make([]string, len(n.Sets))
	for s, set := range n.Sets {
		keys := make([]string, len(set))
		for i, k := range set {
			keys[i] = f.expr(n.Keys[k])
		}
		sets[s] = "(" + strings.Join(keys, ", ") + ")"
	}
	return fmt.Sprintf("GroupingSets keys=%s sets=[%s] pass=%s set=%s", formatCols(n.KeyCols),
		strings.Join(sets, " "), formatCols(n.Pass), formatCol(n.SetCol))
}

// GroupingFunc is GROUPING(args) as bound, before the binder knows the
// query's grouping sets; it then becomes an expression over the Aggregate's
// set column (or 0 for plain GROUP BY), so no operator evaluates it.
type GroupingFunc struct {
	Args []Expr
}

func (e *GroupingFunc) Type() types.Type           { return types.Int4Type }
func (e *GroupingFunc) Children() []Expr           { return e.Args }
func (e *GroupingFunc) WithChildren(k []Expr) Expr { return &GroupingFunc{Args: k} }
