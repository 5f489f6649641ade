package operators

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/joind/joind/operators/spill"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// Operator is a node of an executable physical plan. It produces its output
// as Partitions() independent streams that run concurrently, one goroutine
// each; partition p of an operator usually reads partition p of its input.
type Operator interface {
	// Columns describes the output batches' columns, in order.
	Columns() []plan.Column
	// Partitions is the number of output streams.
	Partitions() int
	// Open starts output partition p (0 <= p < Partitions()). Each partition
	// is opened at most once per execution. ctx cancels the stream: Next then
	// returns 57014 wrapping ctx.Err() (see doc.go, "Parallel execution").
	Open(ctx context.Context, p int) (Stream, error)
}

// Stream yields one partition's batches.
//
// Contract: Next returns the next non-empty batch, or (nil, io.EOF) at the
// end. A returned batch is immutable and stays valid after later calls (joind
// uses Go-allocated Arrow memory, so nothing needs Release). After an error
// or io.EOF, Next must not be called again. Close releases resources, may be
// called before the end, and is safe to call twice.
type Stream interface {
	Next() (arrow.Record, error)
	Close() error
}

// SubqueryRunner runs the plan of a subquery expression that the optimizer
// left in an expression (not decorrelated into a join). outer supplies the
// values of the outer columns the plan references. It returns at most limit
// rows (limit < 0: all).
type SubqueryRunner interface {
	RunSubquery(ctx context.Context, p plan.Node, outer map[plan.ColumnID]types.Value, limit int) ([][]types.Value, error)
}

// Env is what expressions need at run time beyond their input batch.
type Env struct {
	Eval       *types.EvalContext
	Params     []types.Value                 // $1.. values (index 0 is $1)
	Outer      map[plan.ColumnID]types.Value // outer-column values inside a correlated subquery
	Subqueries SubqueryRunner
	// BatchSize is the target number of rows per produced batch.
	BatchSize int
	// Spill is the query's memory limit and spill area (nil: no limit).
	Spill *spill.Space
	// Scans hears of every scan of a stored table (nil: nobody counts).
	Scans ScanRecorder
}
