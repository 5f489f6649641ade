package executor

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/joind/joind/operators"
	"github.com/joind/joind/optimizer"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// subplan returns the cached physical plan of a subquery expression's plan.
func (b *builder) subplan(n plan.Node) (*optimizer.Physical, error) {
	b.subMu.Lock()
	defer b.subMu.Unlock()
	if phys, ok := b.subplans[n]; ok {
		return phys, nil
	}
	opts := b.cfg.PlanOptions
	opts.Eval = b.env.Eval
	phys, err := optimizer.Plan(n, b.ids, opts)
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
		op, err := b.sub(b.env).build(phys)
		if err != nil {
			return nil, err
		}
		return operators.CollectWithin(ctx, op, b.env.Spill, "WITH query \""+cte.Name+"\"")
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
	sub := b.sub(&env)
	env.Subqueries = sub
	op, err := sub.build(phys)
	if err != nil {
		return nil, err
	}
	if limit >= 0 {
		// The caller reads no more rows than this (a scalar subquery
		// checks for a second row; EXISTS needs one).
		op = operators.NewLimit(op, int64(limit), 0)
	}
	cols := n.Columns()
	var rows [][]types.Value
	err = ForEachBatch(ctx, op, func(rec arrow.Record) error {
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
