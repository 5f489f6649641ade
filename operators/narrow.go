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
func NarrowInput(in Operator, exprs ...plan.Expr) error {
	n, ok := in.(Narrower)
	if !ok {
		return nil
	}
	ids := map[plan.ColumnID]bool{}
	for _, e := range exprs {
		ExprColumns(e, ids)
	}
	return n.Narrow(func(id plan.ColumnID) bool { return ids[id] })
}

// ExprColumns adds the ColumnIDs e reads to ids.
func ExprColumns(e plan.Expr, ids map[plan.ColumnID]bool) {
	for _, id := range plan.ColumnRefs(e, nil) {
		ids[id] = true
	}
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
	ExprColumns(f.predExpr, ids)
	if err := n.Narrow(func(id plan.ColumnID) bool { return ids[id] || keep(id) }); err != nil {
		return err
	}
	c, err := CompileQual(f.predExpr, f.in.Columns(), f.env)
	if err != nil {
		return err
	}
	f.pred = c
	return nil
}
