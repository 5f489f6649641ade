package executor

import (
	"context"
	"fmt"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/joind/joind/operators"
	"github.com/joind/joind/optimizer"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
)

// Config is what one statement's execution takes from its caller.
type Config struct {
	// PlanOptions plan the statement and its subqueries and WITH queries
	// (Eval is replaced by the statement's, env.Eval).
	PlanOptions optimizer.Options
	// MemoryLimit caps each hash join's build side (0 = none) when the
	// Env has no Spill space (which, when present, holds the query's limit).
	MemoryLimit int64
	// Instrument wraps every operator to count its rows and time, for
	// EXPLAIN ANALYZE.
	Instrument bool
}

// Query is a statement's physical plan built into operators.
type Query struct {
	Phys *optimizer.Physical
	// Op is the root operator: one partition.
	Op operators.Operator
	b  *builder
}

// Prepare plans n and builds its operators. env is the statement's; its
// Subqueries becomes the builder.
func Prepare(n plan.Node, ids *plan.IDAllocator, env *operators.Env, cfg Config) (*Query, error) {
	opts := cfg.PlanOptions
	opts.Eval = env.Eval
	phys, err := optimizer.Plan(n, ids, opts)
	if err != nil {
		return nil, err
	}
	return Build(phys, ids, env, cfg)
}

// Build builds a physical plan whose root is one partition.
func Build(phys *optimizer.Physical, ids *plan.IDAllocator, env *operators.Env, cfg Config) (*Query, error) {
	if phys.Partitions != 1 {
		return nil, pgerr.New(pgerr.InternalError, "executor: the plan's root has %d partitions, not one", phys.Partitions)
	}
	b := &builder{env: env, ids: ids, cfg: cfg, subMu: &sync.Mutex{}, subplans: map[plan.Node]*optimizer.Physical{},
		ctes: map[*plan.CTE]*operators.Materialized{}}
	if cfg.Instrument {
		b.inst = map[*optimizer.Physical]*operators.Instrumented{}
	}
	env.Subqueries = b
	op, err := b.build(phys)
	if err != nil {
		return nil, err
	}
	// Closing the root's stream ends the query's memory accounting.
	return &Query{Phys: phys, Op: operators.ReleaseSpace(op, env.Spill), b: b}, nil
}

// Open starts the root's one partition.
func (q *Query) Open(ctx context.Context) (operators.Stream, error) { return open(ctx, q.Op) }

// Run runs the query to completion, calling f on each batch in order.
func (q *Query) Run(ctx context.Context, f func(arrow.Record) error) error {
	return ForEachBatch(ctx, q.Op, f)
}

func open(ctx context.Context, op operators.Operator) (operators.Stream, error) {
	if n := op.Partitions(); n != 1 {
		return nil, pgerr.New(pgerr.InternalError, "executor: a plan's root has %d partitions, not one", n)
	}
	return op.Open(ctx, 0)
}

// ForEachBatch runs a plan's root operator (one partition) to completion,
// calling f on each batch in order.
func ForEachBatch(ctx context.Context, op operators.Operator, f func(arrow.Record) error) error {
	st, err := open(ctx, op)
	if err != nil {
		return err
	}
	defer st.Close()
	return operators.EachBatch(st, f)
}

// Note is the optimizer.Annotator of EXPLAIN: the index a hash join's build
// side uses and, once an instrumented query has run, each node's actual rows
// and time (and what its operator adds, such as skipped segments).
func (q *Query) Note(p *optimizer.Physical) string {
	note := ""
	if hj, ok := q.b.joins[p]; ok {
		note = "(index=" + hj.KernelName() + ")"
	}
	if in, ok := q.b.inst[p]; ok {
		if note != "" {
			note += " "
		}
		note += fmt.Sprintf("(actual rows=%d batches=%d time=%.3f ms)", in.Rows(), in.Batches(), float64(in.Elapsed().Microseconds())/1000)
		if extra := in.Note(); extra != "" {
			note += " " + extra
		}
	}
	return note
}

// Explain is the query's EXPLAIN text (with actuals after Run when
// instrumented).
func (q *Query) Explain() []string { return optimizer.Explain(q.Phys, q.Note) }

// ExplainTree is the query's EXPLAIN as nodes, for the structured formats.
func (q *Query) ExplainTree() *optimizer.ExplainNode { return optimizer.ExplainTree(q.Phys, q.Note) }
