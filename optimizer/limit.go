package optimizer

import (
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
)

// planLimit plans LIMIT / OFFSET / FETCH FIRST: a constant count and offset
// (literals, parameters, anything folding to a constant) are evaluated here,
// and a Sort below a constant, small LIMIT becomes one Top-N Sort. Any other
// count or offset (a volatile expression, CASE, a subquery) stays an
// expression the executor evaluates once when the statement runs, as
// PostgreSQL's recompute_limits does, under a plain Sort and Limit. WITH TIES
// reads the sorted rows past the count while they equal the last one on the
// Sort's keys, so it is never a Top-N.
func (pl *planner) planLimit(p *Physical, x *plan.Limit, in *Physical) error {
	p.Op = OpLimit
	var err error
	if p.Count, p.CountExpr, err = pl.limitValue(x.Count, -1, "LIMIT"); err != nil {
		return err
	}
	if p.Offset, p.OffsetExpr, err = pl.limitValue(x.Offset, 0, "OFFSET"); err != nil {
		return err
	}
	p.Rows = max(0, in.Rows-float64(p.Offset))
	if p.Count >= 0 {
		p.Rows = min(p.Rows, float64(p.Count))
	}
	if x.WithTies {
		s, ok := in.Logical.(*plan.Sort)
		if !ok || in.Op != OpSort {
			return pgerr.New(pgerr.InternalError, "optimizer: WITH TIES over %T, not a sort", in.Logical)
		}
		for _, k := range s.Keys {
			p.TieKeys = append(p.TieKeys, k.Expr)
		}
	}
	constant := p.CountExpr == nil && p.OffsetExpr == nil
	if in.Op == OpSort && !x.WithTies && constant && p.Count > 0 && p.Count <= topNMax && p.Offset <= topNMax-p.Count {
		// Sort then Limit: one Top-N over the sort's input, its
		// Logical the Sort (keys, columns).
		p.Op, p.Logical, p.Inputs = OpTopN, in.Logical, in.Inputs
		return nil
	}
	p.Inputs[0] = gather(in)
	return nil
}

// limitValue is a count or offset folded to a constant (dflt when e is nil
// or NULL), or the expression itself when it does not fold.
func (pl *planner) limitValue(e plan.Expr, dflt int64, what string) (int64, plan.Expr, error) {
	if e == nil {
		return dflt, nil, nil
	}
	if _, ok := FoldConstants(pl.opts.Eval, e).(*plan.Const); !ok {
		return dflt, e, nil
	}
	v, err := pl.constInt(e, dflt, what)
	return v, nil, err
}

// formatExprs is a comma-separated key list for EXPLAIN.
func formatExprs(es []plan.Expr) string {
	s := ""
	for i, e := range es {
		if i > 0 {
			s += ", "
		}
		s += FormatExpr(e)
	}
	return s
}
