package optimizer

import (
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// Subquery unnesting (issue 5): [NOT] IN / op ANY / op ALL / [NOT] EXISTS
// subqueries become joins.
//
//   - A WHERE conjunct becomes a semi join (EXISTS, IN), an anti join (NOT
//     EXISTS, and NOT IN when both sides are provably non-NULL) or a
//     null-aware anti join (NOT IN otherwise).
//   - Anywhere else (under OR, CASE, in the SELECT list) it becomes a mark
//     join whose nullable mark column replaces the subquery expression.
//
// Correlation predicates (the subquery's WHERE conjuncts that read outer
// columns) move into the join condition: equalities become scope keys, the
// rest the residual filter. A subquery whose correlation cannot be hoisted
// (under an aggregate or LIMIT, or nested references), or whose comparison
// cannot be a hash key, stays an expression that operators evaluate per row:
// slower, never wrong.

// unnestSubqueries is the rule entry point: it handles Filter and Project
// nodes whose expressions hold subqueries.
func unnestSubqueries(c *Context, n plan.Node) (plan.Node, bool) {
	switch x := n.(type) {
	case *plan.Filter:
		return unnestInFilter(c, x)
	case *plan.Project:
		return unnestInProject(c, x)
	}
	return n, false
}

func unnestInFilter(c *Context, f *plan.Filter) (plan.Node, bool) {
	if !hasSubquery(f.Pred) {
		return f, false
	}
	input := f.Input
	var keep []plan.Expr
	changed := false
	for _, conj := range conjuncts(f.Pred) {
		if j, ok := conjunctAsJoin(c, input, conj); ok {
			input, changed = j, true
			continue
		}
		keep = append(keep, conj)
	}
	// What is left may still hold subqueries: mark joins supply their values.
	for i, conj := range keep {
		if !hasSubquery(conj) {
			continue
		}
		if in, e, ok := markJoinsFor(c, input, conj); ok {
			input, keep[i], changed = in, e, true
		}
	}
	if !changed {
		return f, false
	}
	var out plan.Node = input
	if len(keep) > 0 {
		out = &plan.Filter{Input: input, Pred: andOf(keep)}
	}
	return restoreColumns(out, f.Columns()), true
}

func unnestInProject(c *Context, p *plan.Project) (plan.Node, bool) {
	input := p.Input
	exprs := append([]plan.Expr(nil), p.Exprs...)
	changed := false
	for i, e := range exprs {
		if !hasSubquery(e) {
			continue
		}
		if in, ne, ok := markJoinsFor(c, input, e); ok {
			input, exprs[i], changed = in, ne, true
		}
	}
	if !changed {
		return p, false
	}
	return &plan.Project{Input: input, Exprs: exprs, Cols: p.Cols}, true
}

// restoreColumns projects n back to cols when joins added columns (marks).
func restoreColumns(n plan.Node, cols []plan.Column) plan.Node {
	got := n.Columns()
	if len(got) == len(cols) {
		return n
	}
	exprs := make([]plan.Expr, len(cols))
	for i, col := range cols {
		exprs[i] = &plan.ColRef{ID: col.ID, T: col.Type, Name: col.Name}
	}
	return &plan.Project{Input: n, Exprs: exprs, Cols: cols}
}

// conjunctAsJoin turns a top-level WHERE conjunct into a semi or anti join.
func conjunctAsJoin(c *Context, input plan.Node, conj plan.Expr) (plan.Node, bool) {
	negated := false
	e := conj
	if n, ok := e.(*plan.Not); ok {
		negated, e = true, n.Arg
	}
	sq, ok := e.(*plan.Subquery)
	if !ok {
		return nil, false
	}
	switch sq.Kind {
	case plan.ExistsSubquery:
		right, hoisted, ok := decorrelate(sq.Plan, outputCols(input), failMoves)
		if !ok {
			return nil, false
		}
		typ := plan.SemiJoin
		if negated {
			typ = plan.AntiJoin
		}
		return &plan.Join{Type: typ, Left: input, Right: right, On: andOf(hoisted)}, true
	case plan.AnySubquery, plan.AllSubquery:
		anti, ok := membershipPolarity(sq, negated)
		if !ok {
			return nil, false
		}
		left, lhs := materializeConstants(c, input, sq.LHS)
		right, on, ok := membershipJoinInput(left, lhs, sq)
		if !ok {
			return nil, false
		}
		if !anti {
			// x IN (S) in WHERE: UNKNOWN filters like FALSE, so a semi join is exact.
			return &plan.Join{Type: plan.SemiJoin, Left: left, Right: right, On: on}, true
		}
		nullAware := !(allNotNull(lhs, left) && allNotNull(colRefsOf(right, len(lhs)), right))
		return &plan.Join{Type: plan.AntiJoin, Left: left, Right: right, On: on, NullAware: nullAware, ValueKeys: len(lhs)}, true
	}
	return nil, false
}

// membershipPolarity classifies a subquery comparison as IN-like (= ANY,
// anti=false) or NOT IN-like (<> ALL, anti=true), after an optional NOT.
func membershipPolarity(sq *plan.Subquery, negated bool) (anti, ok bool) {
	for _, op := range sq.Ops {
		switch {
		case sq.Kind == plan.AnySubquery && op.Name == "=":
		case sq.Kind == plan.AllSubquery && op.Name == "<>":
		default:
			return false, false
		}
	}
	anti = sq.Kind == plan.AllSubquery
	if negated {
		anti = !anti
	}
	return anti, true
}

// membershipJoinInput decorrelates the subquery plan and builds the join
// condition: the value comparisons LHS[i] = col_i first (hash-compatible, or
// the rewrite is refused), then the hoisted correlation predicates.
func membershipJoinInput(input plan.Node, lhsList []plan.Expr, sq *plan.Subquery) (plan.Node, plan.Expr, bool) {
	right, hoisted, ok := decorrelate(sq.Plan, outputCols(input), failDefers)
	if !ok {
		return nil, nil, false
	}
	cols := right.Columns()
	if len(cols) < len(lhsList) {
		return nil, nil, false
	}
	var on []plan.Expr
	inputCols := outputCols(input)
	for i, lhs := range lhsList {
		if hasSubquery(lhs) || !exprCols(lhs).subsetOf(inputCols) {
			return nil, nil, false
		}
		rc := cols[i]
		eq, err := types.ResolveOperator("=", lhs.Type(), rc.Type)
		if err != nil {
			return nil, nil, false
		}
		l, r := castTo(lhs, eq.Args[0]), castTo(&plan.ColRef{ID: rc.ID, T: rc.Type, Name: rc.Name}, eq.Args[1])
		if _, _, ok := hashCompatible(l, r); !ok {
			return nil, nil, false
		}
		on = append(on, &plan.Call{Func: eq, Args: []plan.Expr{l, r}})
	}
	return right, andOf(append(on, hoisted...)), true
}

func castTo(e plan.Expr, t types.Type) plan.Expr {
	if e.Type() == t {
		return e
	}
	return &plan.Cast{Input: e, T: t}
}

// materializeConstants projects the column-free IN values (`5 NOT IN
// (...)`, `$1 IN (...)`) as columns of input, so that they can be hash keys.
func materializeConstants(c *Context, input plan.Node, lhs []plan.Expr) (plan.Node, []plan.Expr) {
	var extraExprs []plan.Expr
	var extraCols []plan.Column
	out := append([]plan.Expr(nil), lhs...)
	for i, e := range lhs {
		if len(exprCols(e)) > 0 || hasSubquery(e) {
			continue
		}
		col := plan.Column{ID: c.IDs.Next(), Name: "?column?", Type: e.Type()}
		if k, ok := e.(*plan.Const); ok && !k.Val.Null {
			col.NotNull = true
		}
		extraExprs = append(extraExprs, e)
		extraCols = append(extraCols, col)
		out[i] = &plan.ColRef{ID: col.ID, T: col.Type, Name: col.Name}
	}
	if len(extraExprs) == 0 {
		return input, lhs
	}
	var exprs []plan.Expr
	var cols []plan.Column
	for _, ic := range input.Columns() {
		exprs = append(exprs, &plan.ColRef{ID: ic.ID, T: ic.Type, Name: ic.Name})
		cols = append(cols, ic)
	}
	return &plan.Project{Input: input, Exprs: append(exprs, extraExprs...), Cols: append(cols, extraCols...)}, out
}

// colRefsOf returns references to the first n output columns of node.
func colRefsOf(node plan.Node, n int) []plan.Expr {
	cols := node.Columns()
	out := make([]plan.Expr, n)
	for i := 0; i < n; i++ {
		out[i] = &plan.ColRef{ID: cols[i].ID, T: cols[i].Type, Name: cols[i].Name}
	}
	return out
}

// markJoinsFor replaces every unnestable subquery in e by the mark column of
// a mark join stacked on input.
func markJoinsFor(c *Context, input plan.Node, e plan.Expr) (plan.Node, plan.Expr, bool) {
	changed := false
	out := plan.Rewrite(e, func(n plan.Expr) plan.Expr {
		sq, ok := n.(*plan.Subquery)
		if !ok {
			return n
		}
		var right plan.Node
		var on plan.Expr
		anti := false
		left, lhs := input, sq.LHS
		switch sq.Kind {
		case plan.ExistsSubquery:
			var hoisted []plan.Expr
			outer := outputCols(input)
			if right, hoisted, ok = decorrelate(sq.Plan, outer, failMoves); !ok {
				return n
			}
			if !hashedExists(hoisted, outer) {
				// PostgreSQL runs this EXISTS per outer row.
				if right, hoisted, ok = decorrelate(sq.Plan, outer, failDefers); !ok {
					return n
				}
			}
			on = andOf(hoisted)
		case plan.ScalarSubquery:
			in, e, ok := scalarAggregateJoin(c, input, sq)
			if !ok {
				return n
			}
			input, changed = in, true
			return e
		case plan.AnySubquery, plan.AllSubquery:
			if anti, ok = membershipPolarity(sq, false); !ok {
				return n
			}
			left, lhs = materializeConstants(c, input, sq.LHS)
			if right, on, ok = membershipJoinInput(left, lhs, sq); !ok {
				return n
			}
		default:
			return n
		}
		mark := plan.Column{ID: c.IDs.Next(), Name: "mark", Type: types.BoolType}
		nullAware := sq.Kind != plan.ExistsSubquery &&
			!(allNotNull(lhs, left) && allNotNull(colRefsOf(right, len(lhs)), right))
		valueKeys := 0
		if nullAware {
			valueKeys = len(lhs)
		}
		input = &plan.Join{Type: plan.MarkJoin, Left: left, Right: right, On: on, NullAware: nullAware, ValueKeys: valueKeys, Mark: &mark}
		changed = true
		var ref plan.Expr = &plan.ColRef{ID: mark.ID, T: mark.Type, Name: "mark"}
		if anti {
			ref = &plan.Not{Arg: ref}
		}
		return ref
	})
	if !changed {
		return input, e, false
	}
	return input, out, true
}

// failPolicy says what decorrelate does with a computation of a correlated
// subquery that can fail (cannotFail is false: 10 / x, a narrowing cast)
// and that decorrelation would move below the join, onto inner rows outside
// every outer row's scope. PostgreSQL evaluates it only where its own plan
// puts it, and the policy follows that plan.
type failPolicy uint8

const (
	// failMoves: PostgreSQL pulls the subquery up into a join itself (WHERE
	// EXISTS becomes a semi join, a LATERAL subquery is flattened) and
	// pushes its conditions down to the inner scan, so it fails there too.
	failMoves failPolicy = iota
	// failDefers: PostgreSQL runs the subquery once per outer row (it never
	// unnests a correlated IN / NOT IN), its scan testing the correlation
	// (cheap) before other conditions: a condition that can fail joins the
	// hoisted predicates, after the correlation, evaluated in the join only
	// on key-matched pairs; a projection that can fail refuses.
	failDefers
	// failRefuses: PostgreSQL runs the subquery per outer row and the join
	// cannot restrict the computation to matched rows (an aggregate's
	// input): any such computation refuses, the subquery stays per row.
	failRefuses
)

// hashedExists reports whether PostgreSQL may run an EXISTS that is not a
// WHERE conjunct (which it makes a semi join) as a hashed subplan over all of
// its rows (convert_EXISTS_to_ANY, failMoves): every correlation predicate an
// equality with a hashable operator between an outer-only and an inner-only
// side. Otherwise it runs the subquery per outer row (failDefers). (Which of
// the two PostgreSQL picks is a cost decision; joind takes the hashed one.)
func hashedExists(hoisted []plan.Expr, outer colSet) bool {
	for _, h := range hoisted {
		call, ok := h.(*plan.Call)
		if !ok || call.Func.Name != "=" || len(call.Args) != 2 || isVolatile(h) {
			return false
		}
		l, r := exprCols(call.Args[0]), exprCols(call.Args[1])
		if len(l) == 0 || len(r) == 0 || l.subsetOf(outer) == r.subsetOf(outer) ||
			!(l.subsetOf(outer) || disjoint(l, outer)) || !(r.subsetOf(outer) || disjoint(r, outer)) {
			return false
		}
		// PostgreSQL's = between date, timestamp and timestamptz (of two
		// different types) cannot hash.
		lt, rt := call.Func.Args[0].ID, call.Func.Args[1].ID
		if lt != rt && isDateTime(lt) && isDateTime(rt) {
			return false
		}
	}
	return true
}

func isDateTime(id types.ID) bool {
	return id == types.Date || id == types.Timestamp || id == types.TimestampTZ
}

func disjoint(a, b colSet) bool {
	for id := range a {
		if b.has(id) {
			return false
		}
	}
	return true
}

// decorrelate pulls the correlation predicates (conjuncts reading columns of
// outer) out of a subquery plan. It succeeds when they sit in filters reached
// through projections and filters only, and nothing else in the plan reads
// outer columns; projections are widened to pass through the inner columns the
// hoisted predicates read. An uncorrelated plan comes back unchanged: it is
// evaluated once over all its rows, errors included, in PostgreSQL too.
func decorrelate(n plan.Node, outer colSet, policy failPolicy) (plan.Node, []plan.Expr, bool) {
	if !subtreeReads(n, outer) {
		policy = failMoves
	}
	return decorrelateChain(n, outer, policy)
}

func decorrelateChain(n plan.Node, outer colSet, policy failPolicy) (plan.Node, []plan.Expr, bool) {
	switch x := n.(type) {
	case *plan.Filter:
		in, hoisted, ok := decorrelateChain(x.Input, outer, policy)
		if !ok {
			return nil, nil, false
		}
		var corr, local, deferred []plan.Expr
		for _, conj := range conjuncts(x.Pred) {
			if readsAny(conj, outer) {
				if hasSubquery(conj) {
					return nil, nil, false
				}
				corr = append(corr, conj)
			}
		}
		for _, conj := range conjuncts(x.Pred) {
			switch {
			case readsAny(conj, outer):
			case policy == failMoves || cannotFail(conj) || !costlierThanAll(conj, corr):
				// PostgreSQL's scan tests a condition no costlier than the
				// correlation before it, on every row: so may the join.
				local = append(local, conj)
			case policy == failDefers:
				deferred = append(deferred, conj)
			default:
				return nil, nil, false
			}
		}
		hoisted = append(append(hoisted, corr...), deferred...)
		if len(local) == 0 {
			return in, hoisted, true
		}
		return &plan.Filter{Input: in, Pred: andOf(local)}, hoisted, true
	case *plan.Project:
		for _, e := range x.Exprs {
			if readsAny(e, outer) || policy != failMoves && !cannotFail(e) {
				return nil, nil, false
			}
		}
		in, hoisted, ok := decorrelateChain(x.Input, outer, policy)
		if !ok {
			return nil, nil, false
		}
		if len(hoisted) == 0 {
			return &plan.Project{Input: in, Exprs: x.Exprs, Cols: x.Cols}, nil, true
		}
		// Pass through the inner columns the hoisted predicates read.
		exprs, cols := passThrough(x.Exprs, x.Cols, in, hoisted, outer)
		return &plan.Project{Input: in, Exprs: exprs, Cols: cols}, hoisted, true
	}
	if subtreeReads(n, outer) {
		return nil, nil, false
	}
	return n, nil, true
}

// passThrough widens a projection over in (exprs computing cols) with
// references to the columns of in that es read and the projection lacks
// (columns of outer excepted).
func passThrough(exprs []plan.Expr, cols []plan.Column, in plan.Node, es []plan.Expr, outer colSet) ([]plan.Expr, []plan.Column) {
	exprs, cols = append([]plan.Expr(nil), exprs...), append([]plan.Column(nil), cols...)
	have := colSet{}
	for _, c := range cols {
		have.add(c.ID)
	}
	inCols := in.Columns()
	for _, h := range es {
		for id := range exprCols(h) {
			if outer.has(id) || have.has(id) {
				continue
			}
			for _, ic := range inCols {
				if ic.ID == id {
					exprs = append(exprs, &plan.ColRef{ID: id, T: ic.Type, Name: ic.Name})
					cols = append(cols, ic)
					have.add(id)
				}
			}
		}
	}
	return exprs, cols
}

// qualCost is PostgreSQL's cost of evaluating e (cost_qual_eval) in
// cpu_operator_cost units: one per operator, function and cast function
// call (built-ins have procost 1), constant subexpressions folded away
// first. PostgreSQL's scan tests a relation's conditions cheapest first, a
// correlation equality (rebuilt from its equivalence class, so listed last)
// after the other conditions of equal cost.
func qualCost(e plan.Expr) int {
	n := 0
	plan.Walk(e, func(x plan.Expr) bool {
		if plan.Foldable(x) {
			return false
		}
		switch c := x.(type) {
		case *plan.Call, *plan.IsDistinct, *plan.NullIf:
			n++
		case *plan.Cast:
			if c.Input.Type().ID != c.T.ID {
				n++
			}
		case *plan.Subquery:
			n += 1000
		}
		return true
	})
	return n
}

// costlierThanAll reports whether PostgreSQL tests e only after every
// correlation condition in corr (an empty corr: the correlation sits in a
// filter below, tested first).
func costlierThanAll(e plan.Expr, corr []plan.Expr) bool {
	c := qualCost(e)
	for _, k := range corr {
		if c <= qualCost(k) {
			return false
		}
	}
	return true
}

// cannotFail reports whether e raises no error for any row: column
// references, constants, parameters, leakproof calls and casts
// (PostgreSQL's proleakproof: types.Overload.Leakproof, types.CastLeakproof)
// and the logical and NULL-testing forms over such expressions. Only these
// may be evaluated on rows PostgreSQL's plan would not reach.
func cannotFail(e plan.Expr) bool {
	ok := true
	plan.Walk(e, func(n plan.Expr) bool {
		if plan.Foldable(n) {
			return false // fails, if at all, while planning
		}
		switch x := n.(type) {
		case *plan.ColRef, *plan.Const, *plan.Param, *plan.And, *plan.Or, *plan.Not,
			*plan.IsNull, *plan.BoolTest, *plan.Case, *plan.Coalesce:
		case *plan.Call:
			ok = ok && (x.Func.Leakproof || likeConstPattern(x))
		case *plan.Cast:
			ok = ok && types.CastLeakproof(x.Input.Type(), x.T)
		case *plan.IsDistinct:
			ok = ok && x.Eq.Leakproof
		case *plan.NullIf:
			ok = ok && x.Eq.Leakproof
		default: // subqueries, and any kind added later
			ok = false
		}
		return ok
	})
	return ok
}

// likeConstPattern reports whether call is [NOT] LIKE with a constant,
// well-formed pattern: textlike's only error (22025, raised when matching
// reaches a pattern's trailing escape character) cannot arise from a
// pattern without one, so it fails for no row, though PostgreSQL does not
// mark it leakproof.
func likeConstPattern(call *plan.Call) bool {
	if call.Func.Name != "~~" && call.Func.Name != "!~~" || len(call.Args) != 2 {
		return false
	}
	k, ok := call.Args[1].(*plan.Const)
	if !ok || k.Val.Null || k.T.ID != types.Text && k.T.ID != types.Varchar && k.T.ID != types.Char {
		return false
	}
	p := k.Val.S
	n := 0
	for i := len(p) - 1; i >= 0 && p[i] == '\\'; i-- {
		n++
	}
	return n%2 == 0
}

func readsAny(e plan.Expr, cols colSet) bool {
	for id := range exprCols(e) {
		if cols.has(id) {
			return true
		}
	}
	return false
}

// subtreeReads reports whether any expression in the plan reads cols.
func subtreeReads(n plan.Node, cols colSet) bool {
	for _, e := range n.Expressions() {
		if readsAny(e, cols) {
			return true
		}
	}
	for _, k := range n.Children() {
		if subtreeReads(k, cols) {
			return true
		}
	}
	return false
}

// allNotNull reports whether every expression is provably non-NULL over n's
// output: references to columns known NOT NULL there, or non-NULL constants.
// Computed expressions (a + b, CASE, COALESCE ...) are not assumed non-NULL.
func allNotNull(es []plan.Expr, n plan.Node) bool {
	nn := notNullCols(n)
	for _, e := range es {
		switch x := e.(type) {
		case *plan.ColRef:
			if !nn.has(x.ID) {
				return false
			}
		case *plan.Const:
			if x.Val.Null {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// notNullCols returns the output columns of n that can never be NULL: NOT
// NULL columns, and columns a filter below rejects NULLs of (a strict
// comparison or IS NOT NULL over the bare column).
func notNullCols(n plan.Node) colSet {
	out := colSet{}
	switch x := n.(type) {
	case *plan.Scan:
		for _, c := range x.Cols {
			if c.NotNull {
				out.add(c.ID)
			}
		}
	case *plan.Filter:
		out = notNullCols(x.Input)
		for _, conj := range conjuncts(x.Pred) {
			switch p := conj.(type) {
			case *plan.Call:
				if p.Func.Strict && p.Func.Result.ID == types.Bool {
					for _, a := range p.Args {
						if r, ok := a.(*plan.ColRef); ok {
							out.add(r.ID)
						}
					}
				}
			case *plan.IsNull:
				if r, ok := p.Arg.(*plan.ColRef); ok && p.Negate {
					out.add(r.ID)
				}
			}
		}
	case *plan.Project:
		in := notNullCols(x.Input)
		for i, e := range x.Exprs {
			switch v := e.(type) {
			case *plan.ColRef:
				if in.has(v.ID) {
					out.add(x.Cols[i].ID)
				}
			case *plan.Const:
				if !v.Val.Null {
					out.add(x.Cols[i].ID)
				}
			}
		}
	case *plan.Join:
		switch x.Type {
		case plan.InnerJoin, plan.CrossJoin:
			out = union(notNullCols(x.Left), notNullCols(x.Right))
		case plan.LeftJoin, plan.SemiJoin, plan.AntiJoin, plan.MarkJoin:
			out = notNullCols(x.Left)
		case plan.RightJoin:
			out = notNullCols(x.Right)
		}
	case *plan.Sort:
		return notNullCols(x.Input)
	case *plan.Limit:
		return notNullCols(x.Input)
	case *plan.Distinct:
		return notNullCols(x.Input)
	default:
		for _, c := range n.Columns() {
			if c.NotNull {
				out.add(c.ID)
			}
		}
	}
	return out
}

// scalarAggregateJoin decorrelates a scalar subquery that aggregates over
// equality-correlated rows, `(SELECT agg(..) FROM t2 WHERE t2.z = t1.z)`:
// the aggregate is grouped by the inner correlation keys and left-joined to
// the outer rows on them. An outer row whose scope is empty gets the
// subquery's value over no rows (count → 0, others NULL, computed once by
// running the same aggregate over an empty input), not the join's NULL.
// One row per scope, so 21000 cannot arise; other scalar subqueries stay
// per-row expressions (which raise 21000 as PostgreSQL does).
func scalarAggregateJoin(c *Context, input plan.Node, sq *plan.Subquery) (plan.Node, plan.Expr, bool) {
	if len(sq.OuterRefs) == 0 {
		return nil, nil, false // uncorrelated: evaluated once, nothing to gain
	}
	proj, ok := sq.Plan.(*plan.Project)
	if !ok || len(proj.Cols) != 1 {
		return nil, nil, false
	}
	joined, values, ok := aggregateScopeJoin(c, input, proj, []types.Type{sq.T})
	if !ok {
		return nil, nil, false
	}
	return joined, values[0], true
}

// aggregateScopeJoin is scalarAggregateJoin's rewrite of a correlated
// subquery plan proj — a projection over an aggregate without GROUP BY,
// exactly one row per outer row — into a left join of input with the
// aggregate grouped by the correlation keys, and the value of each of
// proj's expressions per joined row (of type ts[i]): computed over the
// row's group where it has one, else the subquery's value over no rows.
func aggregateScopeJoin(c *Context, input plan.Node, proj *plan.Project, ts []types.Type) (plan.Node, []plan.Expr, bool) {
	agg, ok := proj.Input.(*plan.Aggregate)
	if !ok || len(agg.GroupBy) != 0 {
		return nil, nil, false
	}
	outer := outputCols(input)
	for _, e := range proj.Exprs {
		if readsAny(e, outer) || hasSubquery(e) {
			return nil, nil, false
		}
	}
	// The aggregates run on every inner row, grouped by the correlation
	// keys, also in groups no outer row reads: PostgreSQL computes them
	// per outer row over its scope only, so an argument or FILTER that can
	// fail (sum(10 / x)) keeps the subquery per row.
	for _, a := range agg.Aggs {
		for _, arg := range a.Args {
			if readsAny(arg, outer) || !cannotFail(arg) {
				return nil, nil, false
			}
		}
		if a.Filter != nil && (readsAny(a.Filter, outer) || !cannotFail(a.Filter)) {
			return nil, nil, false
		}
	}
	inner, hoisted, ok := decorrelate(agg.Input, outer, failRefuses)
	if !ok || len(hoisted) == 0 {
		return nil, nil, false
	}
	innerCols := outputCols(inner)
	var keyExprs []plan.Expr
	var keyCols []plan.Column
	var on []plan.Expr
	for _, h := range hoisted {
		call, ok := h.(*plan.Call)
		if !ok || call.Func.Name != "=" || len(call.Args) != 2 {
			return nil, nil, false
		}
		innerPos := -1
		for i, a := range call.Args {
			cols := exprCols(a)
			switch {
			case len(cols) > 0 && cols.subsetOf(innerCols) && !hasSubquery(a):
				innerPos = i
			case len(cols) > 0 && cols.subsetOf(outer):
			default:
				return nil, nil, false
			}
		}
		if innerPos < 0 || exprCols(call.Args[1-innerPos]).subsetOf(innerCols) {
			return nil, nil, false
		}
		k := call.Args[innerPos]
		if !cannotFail(k) {
			// Grouping computes the key on every inner row, also where
			// PostgreSQL never evaluates it (no outer row at all).
			return nil, nil, false
		}
		col := plan.Column{ID: c.IDs.Next(), Name: "?column?", Type: k.Type()}
		keyExprs = append(keyExprs, k)
		keyCols = append(keyCols, col)
		args := append([]plan.Expr(nil), call.Args...)
		args[innerPos] = &plan.ColRef{ID: col.ID, T: col.Type, Name: col.Name}
		on = append(on, &plan.Call{Func: call.Func, Args: args})
	}
	grouped := &plan.Aggregate{Input: inner, GroupBy: keyExprs, Aggs: agg.Aggs,
		Cols: append(append([]plan.Column(nil), keyCols...), agg.Cols...)}
	joined := &plan.Join{Type: plan.LeftJoin, Left: input, Right: grouped, On: andOf(on)}

	matched := &plan.IsNull{Arg: &plan.ColRef{ID: keyCols[0].ID, T: keyCols[0].Type, Name: keyCols[0].Name}, Negate: true}
	values := make([]plan.Expr, len(proj.Exprs))
	for i, e := range proj.Exprs {
		// The subquery's value over an empty scope: the same projection
		// and aggregate over no rows, an uncorrelated scalar subquery run
		// once.
		empty := &plan.Project{
			Input: &plan.Aggregate{Input: &plan.Values{Cols: inner.Columns()}, Aggs: agg.Aggs, Cols: agg.Cols},
			Exprs: []plan.Expr{e}, Cols: []plan.Column{proj.Cols[i]},
		}
		// The select list over the aggregates is computed above the join,
		// for matched rows only: PostgreSQL computes it once per outer row,
		// so `10 / min(x)` must not fail for a group no outer row reads.
		values[i] = &plan.Case{
			Whens: []plan.When{{Cond: matched, Result: e}},
			Else:  &plan.Subquery{Kind: plan.ScalarSubquery, Plan: empty, T: ts[i]},
			T:     ts[i],
		}
	}
	return joined, values, true
}
