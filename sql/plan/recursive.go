package plan

import "github.com/joind/joind/types"

// WorkTable identifies the working table of one recursive WITH query: the
// rows its previous iteration produced, which the recursive term reads.
type WorkTable struct {
	Name string
}

// RecursiveUnion is a WITH RECURSIVE query: NonRecursive's rows, then the
// rows of Recursive run again and again over the previous iteration's new
// rows (the WorkTable) until an iteration yields none. Without All a row
// already produced (in any iteration) is dropped, and does not enter the
// working table. Both inputs have Cols' types; Cols are new columns.
type RecursiveUnion struct {
	Name         string
	All          bool
	NonRecursive Node
	Recursive    Node
	WorkTable    *WorkTable
	Cols         []Column
	// SearchCycle, when set, is the query's SEARCH and CYCLE clauses.
	SearchCycle *SearchCycle
}

// SearchCycle is what WITH RECURSIVE's SEARCH and CYCLE clauses make the
// union compute (PostgreSQL's rewriteSearchAndCycle). With Base the
// query's column count, the union's Cols are the Base query columns, then
// the search sequence (Search), then the cycle mark and path (Cycle). The
// non-recursive term returns the Base columns; the recursive term returns
// them and then, carried from the working-table row it extends, that row's
// sequence (Search) and path (Cycle). A row whose mark is MarkValue is
// returned but does not enter the working table.
type SearchCycle struct {
	Base         int
	Search       bool
	BreadthFirst bool
	SearchCols   []int // indexes of the Base columns
	Cycle        bool
	CycleCols    []int
	MarkType     types.Type
	MarkValue    types.Value
	MarkDefault  types.Value
}

// WorkTableScan reads the working table of a recursive query from inside
// its recursive term; Cols[i] carries the i-th column of the query.
type WorkTableScan struct {
	WorkTable *WorkTable
	Cols      []Column
}

func (n *RecursiveUnion) Columns() []Column { return n.Cols }
func (n *RecursiveUnion) Children() []Node  { return []Node{n.NonRecursive, n.Recursive} }
func (n *WorkTableScan) Columns() []Column  { return n.Cols }
func (n *WorkTableScan) Children() []Node   { return nil }

func (n *RecursiveUnion) WithChildren(c []Node) Node {
	m := *n
	m.NonRecursive, m.Recursive = c[0], c[1]
	return &m
}
func (n *WorkTableScan) WithChildren([]Node) Node { return n }

func (n *RecursiveUnion) Expressions() []Expr         { return nil }
func (n *RecursiveUnion) WithExpressions([]Expr) Node { return n }
func (n *WorkTableScan) Expressions() []Expr          { return nil }
func (n *WorkTableScan) WithExpressions([]Expr) Node  { return n }
