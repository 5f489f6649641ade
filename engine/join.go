package engine

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/joind/joind/operators"
	"github.com/joind/joind/operators/join"
	"github.com/joind/joind/optimizer"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
)

type arrowRecord = arrow.Record

// buildJoin builds a hash or nested-loop join from the optimizer's choice.
// join.Spec's left input is always the build side, so a join the optimizer
// builds on its logical right side is handed over with its inputs swapped
// and its type mirrored; output columns are matched by ColumnID, so their
// order stays the logical one.
func (b *builder) buildJoin(p *optimizer.Physical, left, right operators.Operator) (operators.Operator, error) {
	jp := p.Join
	lj := jp.Logical
	if p.Op == optimizer.OpNestedLoopJoin {
		if lj.NullAware {
			return join.NewNestedLoopJoinNullAware(left, right, lj.Type, lj.On, lj.ValueKeys, lj.Columns(), lj.Mark, b.env)
		}
		return join.NewNestedLoopJoin(left, right, lj.Type, lj.On, lj.Columns(), lj.Mark, b.env)
	}
	spec := join.Spec{
		Type:          lj.Type,
		NullAware:     lj.NullAware,
		ValueKeys:     lj.ValueKeys,
		LeftKeys:      jp.LeftKeys,
		RightKeys:     jp.RightKeys,
		KeyNullsEqual: jp.NullsEqual,
		Residual:      jp.Residual,
		Cols:          lj.Columns(),
		Mark:          lj.Mark,
		MemoryLimit:   b.s.eng.opts.MemoryLimit,
		Partitions:    b.s.eng.opts.Partitions,
	}
	if jp.Mode == optimizer.Partitioned {
		spec.Mode = join.Partitioned
	}
	build, probe := left, right
	if jp.Build == optimizer.RightSide {
		build, probe = right, left
		spec.LeftKeys, spec.RightKeys = jp.RightKeys, jp.LeftKeys
		switch lj.Type {
		case plan.LeftJoin:
			spec.Type = plan.RightJoin
		case plan.RightJoin:
			spec.Type = plan.LeftJoin
		case plan.SemiJoin, plan.AntiJoin:
			spec.EmitProbe = true
		case plan.MarkJoin:
			return nil, pgerr.New(pgerr.InternalError, "engine: a mark join must build its outer side")
		}
	}
	op, err := join.NewHashJoin(build, probe, spec, b.env)
	if err != nil {
		return nil, err
	}
	if hj, ok := op.(*join.HashJoin); ok {
		if b.joins == nil {
			b.joins = map[*optimizer.Physical]*join.HashJoin{}
		}
		b.joins[p] = hj
	}
	return op, nil
}

// joinNote is the EXPLAIN annotation a hash join adds: the index its build
// side uses (the Swiss table's kernel for one integer-like key).
func (b *builder) joinNote(p *optimizer.Physical) string {
	if hj, ok := b.joins[p]; ok {
		return "(index=" + hj.KernelName() + ")"
	}
	return ""
}
