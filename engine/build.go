package engine

import (
	"context"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/joind/joind/operators"
	"github.com/joind/joind/operators/join"
	"github.com/joind/joind/optimizer"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// builder turns a physical plan into operators. It also runs the subqueries
// the optimizer left inside expressions (operators.SubqueryRunner).
type builder struct {
	s    *session
	env  *operators.Env
	ids  *plan.IDAllocator
	inst map[*optimizer.Physical]*operators.Instrumented
	// partitions overrides the engine's scan partitions (0 = default); COPY
	// table TO uses 1 so rows leave in storage order, as PostgreSQL's do.
	partitions int
	// joins remembers the hash joins built, for EXPLAIN's index line.
	joins map[*optimizer.Physical]*join.HashJoin
	// subplans caches the physical plan of each subquery expression. It is
	// shared by the builders of nested subqueries and read from every
	// partition's goroutine, so subMu guards it.
	subMu    *sync.Mutex
	subplans map[plan.Node]*optimizer.Physical
	// ctes holds each materialized WITH query's shared rows, computed at
	// most once per statement (its plan is uncorrelated), under subMu.
	ctes map[*plan.CTE]*operators.Materialized
}

func (b *builder) build(p *optimizer.Physical) (operators.Operator, error) {
	op, err := b.buildNode(p)
	if err != nil {
		return nil, err
	}
	if b.inst != nil {
		in := operators.NewInstrumented(op)
		b.inst[p] = in
		return in, nil
	}
	return op, nil
}

func (b *builder) buildNode(p *optimizer.Physical) (operators.Operator, error) {
	if x, ok := p.Logical.(*plan.Apply); ok {
		return b.buildApply(p, x)
	}
	ins := make([]operators.Operator, len(p.Inputs))
	for i, in := range p.Inputs {
		op, err := b.build(in)
		if err != nil {
			return nil, err
		}
		ins[i] = op
	}
	env, parts := b.env, b.s.eng.opts.Partitions
	if b.partitions > 0 {
		parts = b.partitions
	}
	switch x := p.Logical.(type) {
	case *plan.Scan:
		return operators.NewScanSkip(x.Table, x.Ordinals, x.Cols, parts, b.s.eng.opts.BatchSize, x.Skip), nil
	case *plan.Values:
		return operators.NewValues(x.Rows, x.Cols, env), nil
	case *plan.FunctionScan:
		return operators.NewFunctionScan(x.Name, x.Args, x.Cols, env)
	case *plan.CTEScan:
		return operators.NewMaterializedScan(b.materialized(x.CTE), x.Cols), nil
	case *plan.Filter:
		return operators.NewFilter(ins[0], x.Pred, env)
	case *plan.Project:
		return operators.NewProject(ins[0], x.Exprs, x.Cols, env)
	case *plan.Aggregate:
		return operators.NewHashAggregate(ins[0], x.GroupBy, x.Aggs, x.Cols, env)
	case *plan.Sort:
		return operators.NewSort(ins[0], x.Keys, env)
	case *plan.Limit:
		return operators.NewLimit(ins[0], p.Count, p.Offset), nil
	case *plan.Distinct:
		return operators.NewDistinct(ins[0], env)
	case *plan.SetOp:
		return operators.NewSetOp(x.Op, x.All, ins[0], ins[1], x.Cols, env)
	case *plan.Join:
		return b.buildJoin(p, ins[0], ins[1])
	}
	return nil, pgerr.New(pgerr.InternalError, "engine: cannot build %T", p.Logical)
}

// subplan returns the cached physical plan of a subquery expression's plan.
func (b *builder) subplan(n plan.Node) (*optimizer.Physical, error) {
	b.subMu.Lock()
	defer b.subMu.Unlock()
	if phys, ok := b.subplans[n]; ok {
		return phys, nil
	}
	phys, err := optimizer.Plan(n, b.ids, b.s.planOptions(b.env.Eval))
	if err != nil {
		return nil, err
	}
	b.subplans[n] = phys
	return phys, nil
}

// materialized returns the statement's shared rows of a WITH query; the
// first reader runs its plan.
func (b *builder) materialized(cte *plan.CTE) *operators.Materialized {
	b.subMu.Lock()
	defer b.subMu.Unlock()
	if m, ok := b.ctes[cte]; ok {
		return m
	}
	m := operators.NewMaterialized(func(ctx context.Context) ([]arrow.Record, error) {
		phys, err := b.subplan(cte.Plan)
		if err != nil {
			return nil, err
		}
		sub := &builder{s: b.s, env: b.env, ids: b.ids, subMu: b.subMu, subplans: b.subplans, ctes: b.ctes}
		op, err := sub.build(phys)
		if err != nil {
			return nil, err
		}
		return operators.Collect(ctx, op)
	})
	b.ctes[cte] = m
	return m
}

// RunSubquery implements operators.SubqueryRunner: it plans the subquery once
// per statement and runs it with the outer row's values bound.
func (b *builder) RunSubquery(ctx context.Context, n plan.Node, outer map[plan.ColumnID]types.Value, limit int) ([][]types.Value, error) {
	phys, err := b.subplan(n)
	if err != nil {
		return nil, err
	}
	env := *b.env
	env.Outer = outer
	if b.env.Outer != nil && outer != nil {
		// Nested correlation: inner subqueries see every enclosing row.
		merged := make(map[plan.ColumnID]types.Value, len(b.env.Outer)+len(outer))
		for k, v := range b.env.Outer {
			merged[k] = v
		}
		for k, v := range outer {
			merged[k] = v
		}
		env.Outer = merged
	}
	sub := &builder{s: b.s, env: &env, ids: b.ids, subMu: b.subMu, subplans: b.subplans, ctes: b.ctes}
	env.Subqueries = sub
	op, err := sub.build(phys)
	if err != nil {
		return nil, err
	}
	if limit >= 0 {
		op = operators.NewLimit(op, int64(limit), 0)
	}
	cols := n.Columns()
	var rows [][]types.Value
	err = forEachBatch(ctx, op, func(rec arrowRecord) error {
		for i := 0; i < int(rec.NumRows()); i++ {
			row := make([]types.Value, len(cols))
			for c, col := range cols {
				row[c] = types.GetValue(rec.Column(c), col.Type, i)
			}
			rows = append(rows, row)
		}
		return nil
	})
	return rows, err
}
