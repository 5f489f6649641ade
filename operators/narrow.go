package operators

import "github.com/joind/joind/sql/plan"

// Narrowing. A plan's column pruning keeps every column some ancestor reads,
// but an operator whose output is all of its inputs' columns (a join, a
// filter) still produces the columns only its own condition needed. A
// consumer that knows which columns it reads (an aggregate, a projection)
// narrows its input at construction: a join feeding count(*) then produces
// batches without columns, which cost nothing to build.

// Narrower is an operator that can drop output columns before it runs.
type Narrower interface {
	// Narrow keeps only the output columns keep accepts (in their order)
	// and recompiles whatever depended on the old positions. It must be
	// called before the first Open, by the operator's only consumer.
	Narrow(keep func(plan.ColumnID) bool) error
}

// NarrowInput narrows in, if it is a Narrower, to the columns exprs read.
// An expression whose columns cannot be told leaves in unchanged.
func NarrowInput(in Operator, exprs ...plan.Expr) error {
	n, ok := in.(Narrower)
	if !ok {
		return nil
	}
	ids := map[plan.ColumnID]bool{}
	for _, e := range exprs {
		if !ExprColumns(e, ids) {
			return nil
		}
	}
	return n.Narrow(func(id plan.ColumnID) bool { return ids[id] })
}

// ExprColumns adds the ColumnIDs e reads to ids. It returns false when e
// holds an expression it does not know (then every column may be read).
func ExprColumns(e plan.Expr, ids map[plan.ColumnID]bool) bool {
	switch x := e.(type) {
	case nil, *plan.Const, *plan.Param:
		return true
	case *plan.ColRef:
		ids[x.ID] = true
		return true
	case *plan.Call:
		return allExprColumns(x.Args, ids)
	case *plan.Cast:
		return ExprColumns(x.Input, ids)
	case *plan.And:
		return allExprColumns(x.Args, ids)
	case *plan.Or:
		return allExprColumns(x.Args, ids)
	case *plan.Not:
		return ExprColumns(x.Arg, ids)
	case *plan.IsNull:
		return ExprColumns(x.Arg, ids)
	case *plan.BoolTest:
		return ExprColumns(x.Arg, ids)
	case *plan.IsDistinct:
		return ExprColumns(x.Left, ids) && ExprColumns(x.Right, ids)
	case *plan.NullIf:
		return ExprColumns(x.Left, ids) && ExprColumns(x.Right, ids)
	case *plan.Coalesce:
		return allExprColumns(x.Args, ids)
	case *plan.Case:
		for _, w := range x.Whens {
			if !ExprColumns(w.Cond, ids) || !ExprColumns(w.Result, ids) {
				return false
			}
		}
		return ExprColumns(x.Else, ids)
	case *plan.Subquery:
		for _, id := range x.OuterRefs {
			ids[id] = true
		}
		return allExprColumns(x.LHS, ids)
	}
	return false
}

func allExprColumns(es []plan.Expr, ids map[plan.ColumnID]bool) bool {
	for _, e := range es {
		if !ExprColumns(e, ids) {
			return false
		}
	}
	return true
}

// Narrow implements Narrower for the wrapped operator (EXPLAIN ANALYZE
// keeps measuring the same operator).
func (o *Instrumented) Narrow(keep func(plan.ColumnID) bool) error {
	if n, ok := o.in.(Narrower); ok {
		return n.Narrow(keep)
	}
	return nil
}

// Narrow implements Narrower: the filter keeps the predicate's columns from
// its input and passes on only the kept ones.
func (f *filterOp) Narrow(keep func(plan.ColumnID) bool) error {
	n, ok := f.in.(Narrower)
	if !ok {
		return nil
	}
	ids := map[plan.ColumnID]bool{}
	if !ExprColumns(f.predExpr, ids) {
		return nil
	}
	if err := n.Narrow(func(id plan.ColumnID) bool { return ids[id] || keep(id) }); err != nil {
		return err
	}
	c, err := Compile(f.predExpr, f.in.Columns(), f.env)
	if err != nil {
		return err
	}
	f.pred = c
	return nil
}
