package plan

import "github.com/joind/joind/types"

// Expr is a bound, typed scalar expression. Operators evaluate it over
// batches; column references name ColumnIDs of the node's input(s).
type Expr interface {
	Type() types.Type
	// Children returns the direct sub-expressions in evaluation order
	// (walk.go); subquery plans are not among them.
	Children() []Expr
	// WithChildren returns a copy of the expression over kids, which
	// stand where Children's results stood.
	WithChildren(kids []Expr) Expr
}

// ColRef reads a column of the input (or, inside a correlated subquery, of an
// outer query: see Subquery.OuterRefs).
type ColRef struct {
	ID   ColumnID
	T    types.Type
	Name string // for EXPLAIN only
}

// Const is a literal or folded constant.
type Const struct {
	Val types.Value
	T   types.Type
}

// Param is the n-th ($n, 1-based) parameter of a prepared statement.
type Param struct {
	Index int
	T     types.Type
}

// Call applies a resolved built-in function or operator. The binder has
// already inserted casts so Args match Func.Args exactly.
type Call struct {
	Func *types.Overload
	Args []Expr
}

// Cast converts Input to T (CAST, ::, and implicit casts the binder inserts).
// Explicit is set for CAST and ::, whose semantics differ from assignment
// casts (e.g. varchar(n) truncates instead of failing with 22001).
type Cast struct {
	Input    Expr
	T        types.Type
	Explicit bool
}

// And, Or and Not follow SQL's three-valued logic.
type And struct{ Args []Expr }
type Or struct{ Args []Expr }
type Not struct{ Arg Expr }

// IsNull is `Arg IS NULL` (Negate: IS NOT NULL). Always non-NULL.
type IsNull struct {
	Arg    Expr
	Negate bool
}

// BoolTestKind is the test of IS [NOT] TRUE / FALSE / UNKNOWN.
type BoolTestKind uint8

const (
	IsTrue BoolTestKind = iota
	IsNotTrue
	IsFalse
	IsNotFalse
	IsUnknown
	IsNotUnknown
)

// BoolTest is `Arg IS [NOT] TRUE|FALSE|UNKNOWN`. Always non-NULL.
type BoolTest struct {
	Arg  Expr
	Kind BoolTestKind
}

// IsDistinct is `Left IS [NOT] DISTINCT FROM Right` using the equality
// operator Eq (whose Args match Left and Right). Always non-NULL.
type IsDistinct struct {
	Left, Right Expr
	Eq          *types.Overload
	Negate      bool // IS NOT DISTINCT FROM
}

// When is one branch of a searched CASE.
type When struct {
	Cond   Expr // boolean; the branch is taken when TRUE
	Result Expr
}

// Case is a searched CASE (the binder rewrites simple CASE into this form).
// Else nil means NULL.
type Case struct {
	Whens []When
	Else  Expr
	T     types.Type
}

// Coalesce returns the first non-NULL argument.
type Coalesce struct {
	Args []Expr
	T    types.Type
}

// NullIf is NULLIF(Left, Right): NULL when Left = Right under Eq, else Left.
type NullIf struct {
	Left, Right Expr
	Eq          *types.Overload
}

// SubqueryKind says how a subquery expression uses its plan.
type SubqueryKind uint8

const (
	ExistsSubquery SubqueryKind = iota // EXISTS (plan)
	ScalarSubquery                     // (plan) yielding at most one row of one column; 21000 otherwise
	AnySubquery                        // LHS op ANY (plan); IN is = ANY
	AllSubquery                        // LHS op ALL (plan); NOT IN is <> ALL
	ArraySubquery                      // ARRAY(plan): its one column's values, in row order, as an array
)

// Subquery is a subquery used as an expression. For Any/All, LHS holds the
// left-hand row (one element unless a row constructor) and Ops[i] compares
// LHS[i] with the plan's i-th column. OuterRefs lists the outer-query columns
// the plan references (empty when uncorrelated).
type Subquery struct {
	Kind      SubqueryKind
	Plan      Node
	LHS       []Expr
	Ops       []*types.Overload
	OuterRefs []ColumnID
	T         types.Type // bool, except for scalar subqueries
}

func (e *ColRef) Type() types.Type     { return e.T }
func (e *Const) Type() types.Type      { return e.T }
func (e *Param) Type() types.Type      { return e.T }
func (e *Call) Type() types.Type       { return e.Func.Result }
func (e *Cast) Type() types.Type       { return e.T }
func (e *And) Type() types.Type        { return types.BoolType }
func (e *Or) Type() types.Type         { return types.BoolType }
func (e *Not) Type() types.Type        { return types.BoolType }
func (e *IsNull) Type() types.Type     { return types.BoolType }
func (e *BoolTest) Type() types.Type   { return types.BoolType }
func (e *IsDistinct) Type() types.Type { return types.BoolType }
func (e *Case) Type() types.Type       { return e.T }
func (e *Coalesce) Type() types.Type   { return e.T }
func (e *NullIf) Type() types.Type     { return e.Left.Type() }
func (e *Subquery) Type() types.Type   { return e.T }
