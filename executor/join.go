package executor

import (
	"github.com/joind/joind/operators"
	"github.com/joind/joind/operators/join"
	"github.com/joind/joind/optimizer"
)

// buildJoin builds a hash or nested-loop join. The physical node already
// holds the join as executed — inputs, keys and type in (build, probe)
// order, the mode and partition count, the repartitions below a
// Partitioned join — so join.Spec is a field-by-field copy.
func (b *builder) buildJoin(p *optimizer.Physical, build, probe operators.Operator) (operators.Operator, error) {
	jp := p.Join
	if p.Op == optimizer.OpNestedLoopJoin {
		if jp.NullAware {
			return join.NewNestedLoopJoinNullAware(build, probe, jp.Type, jp.On, jp.ValueKeys, jp.Cols, jp.Mark, b.env)
		}
		return join.NewNestedLoopJoin(build, probe, jp.Type, jp.On, jp.Cols, jp.Mark, b.env)
	}
	op, err := join.NewHashJoin(build, probe, join.Spec{
		Type:          jp.Type,
		EmitProbe:     jp.EmitProbe,
		NullAware:     jp.NullAware,
		Mode:          jp.Mode,
		LeftKeys:      jp.BuildKeys,
		RightKeys:     jp.ProbeKeys,
		KeyNullsEqual: jp.NullsEqual,
		ValueKeys:     jp.ValueKeys,
		Residual:      jp.Residual,
		Cols:          jp.Cols,
		Mark:          jp.Mark,
		MemoryLimit:   b.cfg.MemoryLimit,
		Partitions:    p.Partitions,
	}, b.env)
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
