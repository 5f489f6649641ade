package operators

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/joind/joind/sql/plan"
)

// Compiled is a scalar expression prepared for evaluation over batches whose
// columns are `input` (ColRefs resolve to positions there, or to env.Outer).
type Compiled struct {
	// filled in by the expression evaluator
	impl any
}

// Compile prepares e for evaluation over batches with the given columns.
func Compile(e plan.Expr, input []plan.Column, env *Env) (*Compiled, error) {
	panic("operators.Compile: not implemented yet")
}

// Eval evaluates the expression for every row of rec, returning an array of
// rec.NumRows() values of the expression's Arrow type.
func (c *Compiled) Eval(ctx context.Context, rec arrow.Record) (arrow.Array, error) {
	panic("operators.Compiled.Eval: not implemented yet")
}
