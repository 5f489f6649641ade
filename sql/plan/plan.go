package plan

import (
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// ColumnID identifies a column within one query. IDs are allocated by the
// binder (see IDAllocator) and never reused within a query.
type ColumnID int32

// IDAllocator hands out fresh ColumnIDs. The optimizer continues with the
// binder's allocator when it needs new columns (e.g. mark columns).
type IDAllocator struct{ next ColumnID }

// Next returns a fresh ColumnID.
func (a *IDAllocator) Next() ColumnID { a.next++; return a.next }

// Column describes one output column of a node.
type Column struct {
	ID      ColumnID
	Name    string     // the name PostgreSQL would print in the header ("?column?", "count", ...)
	Table   string     // the range-table alias it belongs to, "" if none (for EXPLAIN and qualified lookups)
	Type    types.Type // its SQL type
	NotNull bool       // provably never NULL (NOT NULL column, or a NULL-rejecting filter below)
	// TableOID and AttNum name the stored column this one passes through
	// unchanged (0 when computed), or the view column when it comes from a
	// view, as PostgreSQL's; clients read them from RowDescription
	// (pgjdbc's ResultSetMetaData, for one).
	TableOID uint32
	AttNum   int16
}

// Node is a logical plan operator.
type Node interface {
	// Columns lists the node's output columns in order.
	Columns() []Column
	// Children returns the inputs in order (left before right).
	Children() []Node
	// WithChildren returns a shallow copy of the node over new inputs, in
	// Children's order (walk.go).
	WithChildren(kids []Node) Node
	// Expressions returns the expressions the node evaluates itself, and
	// WithExpressions a shallow copy over new ones in that order (walk.go).
	Expressions() []Expr
	WithExpressions(es []Expr) Node
}

// Scan reads a stored table. Ordinals[i] is the table column behind Cols[i],
// so projection pruning can drop columns without renumbering.
type Scan struct {
	Table    storage.Table
	Alias    string
	Ordinals []int
	Cols     []Column
	// Skip holds simple conjuncts (column op constant) of the Filter
	// directly above, over columns of Cols. It is used only to skip
	// segments whose statistics prove no row can pass; the Filter above
	// still decides every row, so results never depend on it.
	Skip []Expr
	// RowID, when its ID is not 0, is an extra int8 output column (after
	// Cols) holding each row's storage.RowID, for UPDATE and DELETE; the
	// table must then be a storage.Segmented one.
	RowID Column
}

// Values is a VALUES list (also a FROM-less SELECT: one row, no columns).
type Values struct {
	Rows [][]Expr // every row has len(Cols) expressions, already cast to the column types
	Cols []Column
}

// Filter keeps the rows for which Pred is TRUE (not FALSE, not NULL).
type Filter struct {
	Input Node
	Pred  Expr
}

// Project computes Exprs over its input; Cols[i] is the output of Exprs[i].
type Project struct {
	Input Node
	Exprs []Expr
	Cols  []Column
}

// JoinType is the logical join type.
type JoinType uint8

const (
	InnerJoin JoinType = iota
	LeftJoin
	RightJoin
	FullJoin
	CrossJoin // inner join with no condition
	SemiJoin  // left rows with at least one match; right columns not output
	AntiJoin  // left rows with no match; right columns not output
	MarkJoin  // left rows plus Mark: TRUE if matched, NULL if unknown (null-aware), else FALSE
)

// Join joins Left and Right on On (nil means TRUE).
//
// Output columns: Left's then Right's for inner/outer/cross; Left's for
// semi/anti; Left's then Mark for mark joins.
//
// NullAware marks the NOT IN / IN-with-NULL semantics of issue 5: for anti and
// mark joins produced from [NOT] IN / op ALL / op ANY, NullKeys holds the
// comparison pairs whose NULLs make the result UNKNOWN rather than FALSE.
type Join struct {
	Type      JoinType
	Left      Node
	Right     Node
	On        Expr
	NullAware bool
	// ValueKeys counts, for a NullAware join, the leading conjuncts of On
	// that compare the [NOT] IN values (a NULL there means UNKNOWN); the
	// conjuncts after them are correlation predicates (a NULL there means
	// "not in this row's scope").
	ValueKeys int
	Mark      *Column // the mark output column of a MarkJoin
}

// Aggregate groups its input by GroupBy and computes Aggs per group. Output:
// one column per GroupBy expression, then one per AggCall (Cols has both).
// With no GroupBy it yields exactly one row, even over empty input.
type Aggregate struct {
	Input   Node
	GroupBy []Expr
	Aggs    []AggCall
	Cols    []Column
	// Seeds are the numbers of the empty grouping sets over a
	// GroupingSets input: each is a group (its keys NULL but the last,
	// the set number) even over no rows, as GROUP BY () is.
	Seeds []int32
}

// AggCall is one aggregate: Func over Args (none for count(*)).
type AggCall struct {
	Func     *types.AggOverload
	Args     []Expr
	Distinct bool
	Filter   Expr // FILTER (WHERE ...), nil if none
	// Order is the call's ORDER BY (or an ordered-set aggregate's WITHIN
	// GROUP): the accumulator sees each group's rows sorted by it. Its keys
	// are columns of Args; the sort-only ones follow Func's arguments there
	// (aggorder.go).
	Order []AggSortKey
	// WithinGroup: an ordered-set aggregate, whose Args are its Direct
	// arguments followed by the WITHIN GROUP columns Order sorts by.
	WithinGroup bool
	Direct      int
}

// SortKey orders by Expr.
type SortKey struct {
	Expr       Expr
	Desc       bool
	NullsFirst bool // resolved: PostgreSQL's default is NULLS LAST for ASC, FIRST for DESC
}

// Sort orders its input by Keys (stable with respect to earlier keys only).
type Sort struct {
	Input Node
	Keys  []SortKey
}

// Limit skips Offset rows and then returns at most Count rows. Count nil means
// no limit; Offset nil means 0. Both are expressions without columns of the
// query level, evaluated once when the statement runs. WithTies (FETCH FIRST
// ... WITH TIES) also returns the rows after the Count-th that equal it on
// the keys of the Sort that is its input.
type Limit struct {
	Input    Node
	Count    Expr
	Offset   Expr
	WithTies bool
}

// Distinct removes duplicate rows (NULLs compare equal, as in PostgreSQL).
// With On (SELECT DISTINCT ON), rows are duplicates when they are equal on
// those input columns, and the first of each run is kept: its input is a
// Sort whose leading keys are On (distincton.go in package sql).
type Distinct struct {
	Input Node
	On    []Expr
}

// SetOpKind is UNION, INTERSECT or EXCEPT.
type SetOpKind uint8

const (
	Union SetOpKind = iota
	Intersect
	Except
)

// SetOp combines Left and Right positionally; the binder has cast both sides
// to the output types. Cols are new columns.
type SetOp struct {
	Op    SetOpKind
	All   bool
	Left  Node
	Right Node
	Cols  []Column
}

func (n *Scan) Columns() []Column {
	if n.RowID.ID == 0 {
		return n.Cols
	}
	return append(n.Cols[:len(n.Cols):len(n.Cols)], n.RowID)
}
func (n *Values) Columns() []Column    { return n.Cols }
func (n *Filter) Columns() []Column    { return n.Input.Columns() }
func (n *Project) Columns() []Column   { return n.Cols }
func (n *Aggregate) Columns() []Column { return n.Cols }
func (n *Sort) Columns() []Column      { return n.Input.Columns() }
func (n *Limit) Columns() []Column     { return n.Input.Columns() }
func (n *Distinct) Columns() []Column  { return n.Input.Columns() }
func (n *SetOp) Columns() []Column     { return n.Cols }
func (n *Join) Columns() []Column {
	switch n.Type {
	case SemiJoin, AntiJoin:
		return n.Left.Columns()
	case MarkJoin:
		l := n.Left.Columns()
		out := make([]Column, 0, len(l)+1)
		return append(append(out, l...), *n.Mark)
	}
	l, r := n.Left.Columns(), n.Right.Columns()
	out := make([]Column, 0, len(l)+len(r))
	out = append(out, l...)
	if n.Type == RightJoin || n.Type == FullJoin {
		clearNotNull(out)
	}
	start := len(out)
	out = append(out, r...)
	if n.Type == LeftJoin || n.Type == FullJoin {
		clearNotNull(out[start:])
	}
	return out
}

// clearNotNull marks columns of an outer join's null-extended side nullable.
func clearNotNull(cols []Column) {
	for i := range cols {
		cols[i].NotNull = false
	}
}

func (n *Scan) Children() []Node      { return nil }
func (n *Values) Children() []Node    { return nil }
func (n *Filter) Children() []Node    { return []Node{n.Input} }
func (n *Project) Children() []Node   { return []Node{n.Input} }
func (n *Aggregate) Children() []Node { return []Node{n.Input} }
func (n *Sort) Children() []Node      { return []Node{n.Input} }
func (n *Limit) Children() []Node     { return []Node{n.Input} }
func (n *Distinct) Children() []Node  { return []Node{n.Input} }
func (n *SetOp) Children() []Node     { return []Node{n.Left, n.Right} }
func (n *Join) Children() []Node      { return []Node{n.Left, n.Right} }

// Apply is a lateral join (FROM a LEFT JOIN LATERAL (...) s ON c, or
// FROM a CROSS JOIN LATERAL (...) / a, LATERAL (...)): Right is evaluated
// once per row of Left with that row's OuterRefs bound as outer values (the
// Left columns Right reads), and the row is joined with each Right row for
// which On is TRUE (nil means TRUE). Type is InnerJoin, CrossJoin or
// LeftJoin; a LeftJoin keeps a Left row without matches, NULL-extended.
//
// Output columns: Left's then Right's. Right is a correlated plan like a
// Subquery's: executors run it through the SubqueryRunner.
type Apply struct {
	Type      JoinType
	Left      Node
	Right     Node
	On        Expr
	OuterRefs []ColumnID
}

func (n *Apply) Columns() []Column {
	l, r := n.Left.Columns(), n.Right.Columns()
	out := make([]Column, 0, len(l)+len(r))
	out = append(append(out, l...), r...)
	if n.Type == LeftJoin {
		clearNotNull(out[len(l):])
	}
	return out
}

func (n *Apply) Children() []Node { return []Node{n.Left, n.Right} }

// CTE is a materialized WITH query: its Plan runs at most once per
// statement and every CTEScan of it reads the same rows, as PostgreSQL
// evaluates a WITH query referenced more than once, marked MATERIALIZED, or
// calling volatile functions (random() must not differ between references).
// Plan is planned on its own, like a subquery expression's plan.
type CTE struct {
	Name string
	Plan Node
	// Refs counts the CTEScans of this CTE in the statement.
	Refs int
	// Materialized forces sharing even for one reference (MATERIALIZED, or
	// volatile functions in Plan); otherwise a single reference may be
	// inlined by the optimizer.
	Materialized bool
}

// CTEScan reads the rows of a materialized WITH query; Cols[i] is a fresh
// column carrying the i-th column of CTE.Plan. It is a leaf: rewrites never
// look into the shared plan.
type CTEScan struct {
	CTE  *CTE
	Cols []Column
}

func (n *CTEScan) Columns() []Column { return n.Cols }
func (n *CTEScan) Children() []Node  { return nil }
