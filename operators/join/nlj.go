package join

import (
	"github.com/joind/joind/operators"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// NewNestedLoopJoin joins left (collected once, shared by the probe
// partitions) and right (probed, Partitions() = right.Partitions()) on an
// arbitrary condition, for joins without an equi-key. on nil means TRUE.
//
// Types: inner/cross, left, right, full, semi, anti and mark. It is the hash
// join's machinery with an index that returns every build row, so the
// unmatched build rows of left/full/semi/anti/mark joins are emitted by the
// last probe partition through the same completion protocol.
//
// The mark of a mark join follows on's three-valued logic, as `x op ANY (S)`
// requires: TRUE if on is TRUE for some right row, NULL if it is never TRUE
// but NULL for some, FALSE otherwise. (A mark that must never be NULL, such
// as EXISTS, wants on wrapped in IS TRUE.) Anti joins keep left rows for
// which on is never TRUE (NOT EXISTS); NOT IN without an equi-key is a mark
// join followed by a filter on NOT mark.
func NewNestedLoopJoin(left, right operators.Operator, typ plan.JoinType, on plan.Expr, cols []plan.Column, mark *plan.Column, env *operators.Env) (operators.Operator, error) {
	spec := Spec{Type: typ, Residual: on, Cols: cols, Mark: mark, Mode: CollectLeft}
	var k kind
	na := naNone
	switch typ {
	case plan.InnerJoin, plan.CrossJoin:
		k = kInner
		spec.Type = plan.InnerJoin
	case plan.LeftJoin:
		k = kLeft
	case plan.RightJoin:
		k = kRight
	case plan.FullJoin:
		k = kFull
	case plan.SemiJoin:
		k = kLeftSemi
	case plan.AntiJoin:
		k = kLeftAnti
	case plan.MarkJoin:
		if mark == nil {
			return nil, planErr("mark join has no mark column")
		}
		k = kLeftMark
		// No keys, so the only UNKNOWN is a NULL condition, per build row.
		na = naPerRow
		spec.NullAware, spec.ResidualUnknown = true, true
	default:
		return nil, pgerr.New(pgerr.InternalError, "nested loop join does not support join type %d", typ)
	}
	if on != nil && on.Type().ID != types.Bool {
		return nil, planErr("nested loop join condition is not boolean")
	}
	return newJoin(left, right, spec, env, k, na, true)
}
