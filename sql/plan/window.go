package plan

import (
	"fmt"
	"strings"

	"github.com/joind/joind/types"
)

// FrameMode is a window frame's unit: rows, peer groups, or a range of the
// ORDER BY value.
type FrameMode uint8

const (
	FrameRange FrameMode = iota
	FrameRows
	FrameGroups
)

// BoundKind is one end of a window frame.
type BoundKind uint8

const (
	UnboundedPreceding BoundKind = iota
	OffsetPreceding
	CurrentRow
	OffsetFollowing
	UnboundedFollowing
)

// FrameBound is a frame end; Offset is set for the offset kinds (a bigint
// for ROWS and GROUPS, the RANGE key's offset type for RANGE).
type FrameBound struct {
	Kind   BoundKind
	Offset Expr
}

// Exclusion is a frame's EXCLUDE clause.
type Exclusion uint8

const (
	ExcludeNoOthers Exclusion = iota
	ExcludeCurrentRow
	ExcludeGroup
	ExcludeTies
)

// Frame is a window function's frame. For RANGE with an offset, Add and Sub
// are the operators key ± offset (over RangeKey's type) and RangeKey is the
// window's single ORDER BY key, converted to that type.
type Frame struct {
	Mode       FrameMode
	Start, End FrameBound
	Exclude    Exclusion
	RangeKey   Expr
	Add, Sub   *types.Overload
}

// WindowFunc is one window function call: Agg is set for an aggregate used
// as a window function (Filter its FILTER), else Name is one of the
// built-in window functions (row_number, rank, lag, ...).
type WindowFunc struct {
	Name   string
	Agg    *types.AggOverload
	Args   []Expr
	Filter Expr
	Frame  Frame
}

// Window computes Funcs over its input's rows, partitioned by PartitionBy
// and ordered by OrderBy within each partition (PostgreSQL's WindowAgg:
// every function of one node shares the partitioning and ordering, frames
// may differ). Output: the input's columns, then one per function.
type Window struct {
	Input       Node
	PartitionBy []Expr
	OrderBy     []SortKey
	Funcs       []WindowFunc
	Cols        []Column
}

func (n *Window) Columns() []Column          { return n.Cols }
func (n *Window) Children() []Node           { return []Node{n.Input} }
func (n *Window) WithChildren(k []Node) Node { c := *n; c.Input = k[0]; return &c }
func (n *Window) FuncColumns() []Column      { return n.Cols[len(n.Cols)-len(n.Funcs):] }
func (f *WindowFunc) frameExprs() []*Expr    { return frameExprs(&f.Frame) }
func (f *WindowFunc) IsAggregate() bool      { return f.Agg != nil }
func (f *WindowFunc) ResultName() string     { return windowFuncName(f) }
func windowFuncName(f *WindowFunc) string {
	if f.Agg != nil {
		return f.Agg.Name
	}
	return f.Name
}

func frameExprs(fr *Frame) []*Expr {
	return []*Expr{&fr.Start.Offset, &fr.End.Offset, &fr.RangeKey}
}

// Expressions of a Window: PARTITION BY, ORDER BY, then each function's
// arguments, FILTER and frame offsets (non-nil ones).
func (n *Window) Expressions() []Expr {
	out := append([]Expr(nil), n.PartitionBy...)
	for _, k := range n.OrderBy {
		out = append(out, k.Expr)
	}
	for i := range n.Funcs {
		f := &n.Funcs[i]
		out = optional(append(out, f.Args...), f.Filter)
		for _, p := range f.frameExprs() {
			out = optional(out, *p)
		}
	}
	return out
}

func (n *Window) WithExpressions(k []Expr) Node {
	c := *n
	c.PartitionBy = append([]Expr(nil), k[:len(n.PartitionBy)]...)
	k = k[len(n.PartitionBy):]
	c.OrderBy = append([]SortKey(nil), n.OrderBy...)
	for i := range c.OrderBy {
		c.OrderBy[i].Expr, k = k[0], k[1:]
	}
	c.Funcs = append([]WindowFunc(nil), n.Funcs...)
	for i := range c.Funcs {
		f := &c.Funcs[i]
		f.Args = append([]Expr(nil), k[:len(f.Args)]...)
		k = k[len(f.Args):]
		if f.Filter != nil {
			f.Filter, k = k[0], k[1:]
		}
		for _, p := range f.frameExprs() {
			if *p != nil {
				*p, k = k[0], k[1:]
			}
		}
	}
	return &c
}

// window is the Format line of a Window node.
func (f *treeFormatter) window(sb *strings.Builder, x *Window) {
	parts := make([]string, len(x.OrderBy))
	for i, k := range x.OrderBy {
		parts[i] = f.expr(k.Expr) + sortSuffix(k)
	}
	fmt.Fprintf(sb, "Window partition=[%s] order=[%s] funcs=[", f.exprs(x.PartitionBy), strings.Join(parts, ", "))
	for i := range x.Funcs {
		if i > 0 {
			sb.WriteString(", ")
		}
		fn := &x.Funcs[i]
		args := f.exprs(fn.Args)
		if fn.Agg != nil && len(fn.Args) == 0 {
			args = "*"
		}
		sb.WriteString(fn.ResultName() + "(" + args + ")")
		if fn.Filter != nil {
			sb.WriteString(" FILTER " + f.expr(fn.Filter))
		}
	}
	fmt.Fprintf(sb, "] %s", formatCols(x.Cols))
}

// sortSuffix is a sort key's direction and NULLS placement as written in
// the tree format.
func sortSuffix(k SortKey) string {
	s := ""
	if k.Desc {
		s += " DESC"
	}
	if k.NullsFirst {
		return s + " NULLS FIRST"
	}
	return s + " NULLS LAST"
}

// SameExpr reports whether a and b are the same expression (as the tree
// format prints them: columns by ID). Subqueries never compare equal.
func SameExpr(a, b Expr) bool {
	key := func(e Expr) (string, bool) {
		sub := false
		Walk(e, func(x Expr) bool {
			if _, ok := x.(*Subquery); ok {
				sub = true
			}
			return !sub
		})
		f := &treeFormatter{sb: &strings.Builder{}, subs: map[*Subquery]int{}, ctes: map[*CTE]bool{}}
		return f.expr(e), sub
	}
	ka, sa := key(a)
	kb, sb := key(b)
	return !sa && !sb && ka == kb
}
