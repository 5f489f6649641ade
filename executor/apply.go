package executor

import (
	"github.com/joind/joind/operators"
	"github.com/joind/joind/optimizer"
	"github.com/joind/joind/sql/plan"
)

// buildApply builds a lateral join. Only its left input is built here: the
// right side runs per left row through RunSubquery, whose plan cache is
// seeded with the right side the optimizer already planned (Inputs[1], one
// partition).
func (b *builder) buildApply(p *optimizer.Physical) (operators.Operator, error) {
	x := p.Logical.(*plan.Apply)
	left, err := b.build(p.Inputs[0])
	if err != nil {
		return nil, err
	}
	b.subMu.Lock()
	if _, ok := b.subplans[x.Right]; !ok {
		b.subplans[x.Right] = p.Inputs[1]
	}
	b.subMu.Unlock()
	return operators.NewApply(left, x.Right, x.Type, x.On, x.OuterRefs, b.env)
}
