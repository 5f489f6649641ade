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
// The mark of a mark join is TRUE if on is TRUE for some right row, else
// FALSE, and anti joins keep left rows for which on is never TRUE (EXISTS /
// NOT EXISTS). NOT IN and IN with NULLs want NewNestedLoopJoinNullAware.
func NewNestedLoopJoin(left, right operators.Operator, typ plan.JoinType, on plan.Expr, cols []plan.Column, mark *plan.Column, env *operators.Env) (operators.Operator, error) {
	spec := Spec{Type: typ, Residual: on, Cols: cols, Mark: mark, Mode: CollectLeft}
	if typ == plan.CrossJoin {
		spec.Type = plan.InnerJoin
	}
	k, err := kindOf(spec.Type, false, mark, "nested loop join")
	if err != nil {
		return nil, err
	}
	if on != nil && on.Type().ID != types.Bool {
		return nil, planErr("nested loop join condition is not boolean")
	}
	return newJoin(left, right, spec, env, k, naNone, true)
}

// NewNestedLoopJoinNullAware is the null-aware anti or mark join (NOT IN /
// IN as a nullable mark) without an equi-key. The first valueConjuncts
// conjuncts of on compare the [NOT] IN values: a NULL there makes the row's
// answer UNKNOWN. The remaining conjuncts are the correlation (the
// subquery's WHERE): a NULL there puts the right row out of scope. Per left
// row: TRUE if some right row in scope compares TRUE, else NULL if some
// compares NULL, else FALSE; the anti join keeps the FALSE rows.
func NewNestedLoopJoinNullAware(left, right operators.Operator, typ plan.JoinType, on plan.Expr, valueConjuncts int, cols []plan.Column, mark *plan.Column, env *operators.Env) (operators.Operator, error) {
	if typ != plan.AntiJoin && typ != plan.MarkJoin {
		return nil, pgerr.New(pgerr.InternalError, "null-aware nested loop join must be anti or mark, not type %d", typ)
	}
	k, err := kindOf(typ, false, mark, "nested loop join")
	if err != nil {
		return nil, err
	}
	var conj []plan.Expr
	if a, ok := on.(*plan.And); ok {
		conj = a.Args
	} else if on != nil {
		conj = []plan.Expr{on}
	}
	if valueConjuncts < 0 || valueConjuncts > len(conj) {
		return nil, planErr("null-aware nested loop join has %d value conjuncts of %d", valueConjuncts, len(conj))
	}
	and := func(es []plan.Expr) plan.Expr {
		switch len(es) {
		case 0:
			return &plan.Const{Val: types.BoolValue(true), T: types.BoolType}
		case 1:
			return es[0]
		}
		return &plan.And{Args: es}
	}
	// CASE WHEN scope THEN value ELSE FALSE END: NULL exactly when the row is
	// in scope and the comparison is UNKNOWN.
	res := plan.Expr(&plan.Case{
		Whens: []plan.When{{Cond: and(conj[valueConjuncts:]), Result: and(conj[:valueConjuncts])}},
		Else:  &plan.Const{Val: types.BoolValue(false), T: types.BoolType},
		T:     types.BoolType,
	})
	spec := Spec{Type: typ, NullAware: true, ResidualUnknown: true, Residual: res, Cols: cols, Mark: mark, Mode: CollectLeft}
	return newJoin(left, right, spec, env, k, naPerRow, true)
}
