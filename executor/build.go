package executor

import (
	"sync"

	"github.com/joind/joind/operators"
	"github.com/joind/joind/operators/join"
	"github.com/joind/joind/optimizer"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
)

// builder turns a physical plan into operators. It also runs the subqueries
// the optimizer left inside expressions (operators.SubqueryRunner).
type builder struct {
	env  *operators.Env
	ids  *plan.IDAllocator
	cfg  Config
	inst map[*optimizer.Physical]*operators.Instrumented
	// joins remembers the hash joins built, for EXPLAIN's index note.
	joins map[*optimizer.Physical]*join.HashJoin
	// subplans caches the physical plan of each subquery expression. It is
	// shared by the builders of nested subqueries and read from every
	// partition's goroutine, so subMu guards it.
	subMu    *sync.Mutex
	subplans map[plan.Node]*optimizer.Physical
	// ctes holds each materialized WITH query's shared rows, computed at
	// most once per statement (its plan is uncorrelated), under subMu.
	ctes map[*plan.CTE]*operators.Materialized
	// workTables are the working tables of the recursive unions whose
	// recursive term is being built (recursive.go).
	workTables map[*plan.WorkTable]*operators.WorkTable
}

// sub is a builder for a subquery's plan: the statement's caches, env's
// outer values; never instrumented.
func (b *builder) sub(env *operators.Env) *builder {
	cfg := b.cfg
	cfg.Instrument = false
	return &builder{env: env, ids: b.ids, cfg: cfg, subMu: b.subMu, subplans: b.subplans, ctes: b.ctes}
}

func (b *builder) build(p *optimizer.Physical) (operators.Operator, error) {
	op, err := b.buildNode(p)
	if err != nil {
		return nil, err
	}
	// The plan is the description of execution: an operator whose
	// partitioning differs from its node's is a builder bug.
	if op.Partitions() != p.Partitions {
		return nil, pgerr.New(pgerr.InternalError, "executor: %s built with %d partitions, planned with %d", p.Op, op.Partitions(), p.Partitions)
	}
	if b.inst != nil {
		in := operators.NewInstrumented(op)
		b.inst[p] = in
		return in, nil
	}
	return op, nil
}

// buildNode makes the one operator of p, switching on its physical
// operator; the logical node supplies expressions and columns only.
func (b *builder) buildNode(p *optimizer.Physical) (operators.Operator, error) {
	switch p.Op {
	case optimizer.OpApply:
		return b.buildApply(p)
	case optimizer.OpRecursiveUnion:
		return b.buildRecursiveUnion(p)
	case optimizer.OpWorkTableScan:
		return b.buildWorkTableScan(p)
	case optimizer.OpStatementRows:
		x := p.Logical.(*plan.StatementRows)
		return operators.NewRecordsScan(x.Recs, x.Cols), nil
	}
	ins := make([]operators.Operator, len(p.Inputs))
	for i, in := range p.Inputs {
		op, err := b.build(in)
		if err != nil {
			return nil, err
		}
		ins[i] = op
	}
	env := b.env
	switch p.Op {
	case optimizer.OpScan:
		x := p.Logical.(*plan.Scan)
		op, err := operators.NewPlanScan(x, p.Partitions, env.BatchSize)
		if err != nil {
			return nil, err
		}
		return operators.NewRecordedScan(op, x.Table, false, env.Scans), nil
	case optimizer.OpIndexScan:
		x, ix := p.Logical.(*plan.Scan), p.IndexScan
		return operators.NewRecordedScan(operators.NewIndexScan(x, ix.Index, operators.IndexBounds{Lo: ix.Lo, Hi: ix.Hi,
			LoInclusive: ix.LoInclusive, HiInclusive: ix.HiInclusive}, env), x.Table, true, env.Scans), nil
	case optimizer.OpValues:
		x := p.Logical.(*plan.Values)
		return operators.NewValues(x.Rows, x.Cols, env), nil
	case optimizer.OpFunctionScan:
		x := p.Logical.(*plan.FunctionScan)
		return operators.NewFunctionScan(x.Funcs, x.Ordinality, x.Cols, env)
	case optimizer.OpProjectSet:
		x := p.Logical.(*plan.ProjectSet)
		return operators.NewProjectSet(ins[0], x.Funcs, x.FuncCols, x.Exprs, x.ExprCols, env)
	case optimizer.OpCTEScan:
		x := p.Logical.(*plan.CTEScan)
		return operators.NewMaterializedScan(b.materialized(x.CTE), x.Cols), nil
	case optimizer.OpFilter:
		return operators.NewFilter(ins[0], p.Logical.(*plan.Filter).Pred, env)
	case optimizer.OpProject:
		x := p.Logical.(*plan.Project)
		return operators.NewProject(ins[0], x.Exprs, x.Cols, env)
	case optimizer.OpHashAggregate:
		x := p.Logical.(*plan.Aggregate)
		if p.Inputs[0].Op == optimizer.OpGroupingSets {
			var rollUp [][]int
			if p.RollUp {
				rollUp = p.Inputs[0].Logical.(*plan.GroupingSets).Sets
			}
			return operators.NewGroupingSetsAggregate(ins[0], x.GroupBy, x.Aggs, x.Cols, x.Seeds, rollUp, env)
		}
		return operators.NewHashAggregate(ins[0], x.GroupBy, x.Aggs, x.Cols, env)
	case optimizer.OpGroupingSets:
		return operators.NewGroupingSets(ins[0], p.Logical.(*plan.GroupingSets), p.RollUp, env)
	case optimizer.OpSort:
		return operators.NewSort(ins[0], p.Logical.(*plan.Sort).Keys, env)
	case optimizer.OpWindow:
		return operators.NewWindow(ins[0], p.Logical.(*plan.Window), p.Partitions, p.Presorted, env)
	case optimizer.OpLimit:
		return operators.NewLimitSpec(ins[0], operators.LimitSpec{Count: p.Count, Offset: p.Offset,
			CountExpr: p.CountExpr, OffsetExpr: p.OffsetExpr, TieKeys: p.TieKeys}, env)
	case optimizer.OpDistinctOn:
		return operators.NewUnique(ins[0], p.Logical.(*plan.Distinct).On, env)
	case optimizer.OpTopN:
		return operators.NewTopN(ins[0], p.Logical.(*plan.Sort).Keys, p.Count, p.Offset, env)
	case optimizer.OpDistinct:
		return operators.NewDistinct(ins[0], env)
	case optimizer.OpSetOp:
		x := p.Logical.(*plan.SetOp)
		return operators.NewSetOp(x.Op, x.All, ins[0], ins[1], x.Cols, env)
	case optimizer.OpAppend:
		return operators.NewSetOp(plan.Union, true, ins[0], ins[1], p.Columns(), env)
	case optimizer.OpHashJoin, optimizer.OpNestedLoopJoin:
		return b.buildJoin(p, ins[0], ins[1])
	case optimizer.OpGather:
		return operators.NewGather(ins[0]), nil
	case optimizer.OpRepartition:
		return operators.NewRepartition(ins[0], p.HashKeys, p.Partitions, env)
	}
	return nil, pgerr.New(pgerr.InternalError, "executor: cannot build %s", p.Op)
}
