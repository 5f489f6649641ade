package optimizer

import (
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// A Rule rewrites one logical node whose inputs were already rewritten. It
// returns the node unchanged (and false) when it does not apply. Rules must
// preserve the node's output columns (IDs and order) and its semantics,
// including three-valued logic: no rule may turn an UNKNOWN into FALSE where
// the difference is visible.
type Rule struct {
	Name  string
	Apply func(c *Context, n plan.Node) (plan.Node, bool)
}

// Context is what rules may consult.
type Context struct {
	Eval *types.EvalContext
	IDs  *plan.IDAllocator
}

// DefaultRules is the logical rewrite set, in application order.
var DefaultRules = []Rule{
	{"inline-cte", inlineCTE},
	{"unnest-subqueries", unnestSubqueries},
	{"decorrelate-apply", decorrelateApply},
	{"fold-constants", foldNodeConstants},
	{"factor-or", factorOr},
	{"merge-filters", mergeFilters},
	{"remove-true-filter", removeTrueFilter},
	{"push-filter-through-project", pushFilterThroughProject},
	{"push-filter-through-sort", pushFilterThroughSort},
	{"push-filter-into-join", pushFilterIntoJoin},
	{"push-filter-into-apply", pushFilterIntoApply},
	{"push-join-condition-down", pushJoinConditionDown},
	{"merge-projections", mergeProjections},
	{"remove-identity-projection", removeIdentityProjection},
}

// maxPasses bounds the fixpoint loop: every rule shrinks or moves a filter
// down, so a correct rule set converges long before this.
const maxPasses = 16

// Rewrite applies rules bottom-up until none applies (or maxPasses).
func Rewrite(c *Context, n plan.Node, rules []Rule) plan.Node {
	for pass := 0; pass < maxPasses; pass++ {
		var changed bool
		n, changed = rewriteOnce(c, n, rules)
		if !changed {
			break
		}
	}
	return n
}

func rewriteOnce(c *Context, n plan.Node, rules []Rule) (plan.Node, bool) {
	changed := false
	kids := n.Children()
	if len(kids) > 0 {
		newKids := make([]plan.Node, len(kids))
		for i, k := range kids {
			nk, ch := rewriteOnce(c, k, rules)
			newKids[i] = nk
			changed = changed || ch
		}
		if changed {
			n = n.WithChildren(newKids)
		}
	}
	for _, r := range rules {
		if nn, ok := r.Apply(c, n); ok {
			n, changed = nn, true
		}
	}
	return n, changed
}

func isConst(e plan.Expr) (*plan.Const, bool) {
	c, ok := e.(*plan.Const)
	return c, ok
}

func isTrue(e plan.Expr) bool {
	c, ok := isConst(e)
	return ok && c.T.ID == types.Bool && !c.Val.Null && c.Val.I != 0
}

func mergeFilters(c *Context, n plan.Node) (plan.Node, bool) {
	f, ok := n.(*plan.Filter)
	if !ok {
		return n, false
	}
	inner, ok := f.Input.(*plan.Filter)
	if !ok {
		return n, false
	}
	return &plan.Filter{Input: inner.Input, Pred: andOf(append(conjuncts(inner.Pred), conjuncts(f.Pred)...))}, true
}

func removeTrueFilter(c *Context, n plan.Node) (plan.Node, bool) {
	if f, ok := n.(*plan.Filter); ok && isTrue(f.Pred) {
		return f.Input, true
	}
	return n, false
}

// pushFilterThroughProject moves a filter below a projection by substituting
// the projected expressions, when that duplicates no volatile or subquery
// expression.
func pushFilterThroughProject(c *Context, n plan.Node) (plan.Node, bool) {
	f, ok := n.(*plan.Filter)
	if !ok {
		return n, false
	}
	p, ok := f.Input.(*plan.Project)
	if !ok || hasSubquery(f.Pred) {
		return n, false
	}
	defs := make(map[plan.ColumnID]plan.Expr, len(p.Cols))
	for i, col := range p.Cols {
		defs[col.ID] = p.Exprs[i]
	}
	for id := range exprCols(f.Pred) {
		d, ok := defs[id]
		if !ok || hasSubquery(d) || isVolatile(d) {
			return n, false
		}
	}
	np := *p
	np.Input = &plan.Filter{Input: p.Input, Pred: substitute(f.Pred, defs)}
	return &np, true
}

func pushFilterThroughSort(c *Context, n plan.Node) (plan.Node, bool) {
	f, ok := n.(*plan.Filter)
	if !ok {
		return n, false
	}
	s, ok := f.Input.(*plan.Sort)
	if !ok {
		return n, false
	}
	ns := *s
	ns.Input = &plan.Filter{Input: s.Input, Pred: f.Pred}
	return &ns, true
}

// pushFilterIntoJoin moves WHERE conjuncts over a join to where they first
// can be evaluated: into a preserved-side input, or into an inner join's
// condition. Conjuncts over the null-extended side of an outer join stay
// above it, since they see the NULLs the join adds.
func pushFilterIntoJoin(c *Context, n plan.Node) (plan.Node, bool) {
	f, ok := n.(*plan.Filter)
	if !ok {
		return n, false
	}
	j, ok := f.Input.(*plan.Join)
	if !ok {
		return n, false
	}
	leftCols, rightCols := outputCols(j.Left), outputCols(j.Right)
	var toLeft, toRight, toOn, keep []plan.Expr
	for _, e := range conjuncts(f.Pred) {
		if hasSubquery(e) || isVolatile(e) {
			keep = append(keep, e)
			continue
		}
		cols := exprCols(e)
		switch {
		case cols.subsetOf(leftCols) && (j.Type == plan.InnerJoin || j.Type == plan.CrossJoin || j.Type == plan.LeftJoin ||
			j.Type == plan.SemiJoin || j.Type == plan.AntiJoin):
			toLeft = append(toLeft, e)
		case cols.subsetOf(rightCols) && (j.Type == plan.InnerJoin || j.Type == plan.CrossJoin || j.Type == plan.RightJoin):
			toRight = append(toRight, e)
		case (j.Type == plan.InnerJoin || j.Type == plan.CrossJoin) && cols.subsetOf(union(leftCols, rightCols)):
			toOn = append(toOn, e)
		default:
			keep = append(keep, e)
		}
	}
	if len(toLeft)+len(toRight)+len(toOn) == 0 {
		return n, false
	}
	nj := *j
	if len(toLeft) > 0 {
		nj.Left = &plan.Filter{Input: j.Left, Pred: andOf(toLeft)}
	}
	if len(toRight) > 0 {
		nj.Right = &plan.Filter{Input: j.Right, Pred: andOf(toRight)}
	}
	if len(toOn) > 0 {
		nj.On = andOf(append(conjuncts(j.On), toOn...))
		if nj.Type == plan.CrossJoin {
			nj.Type = plan.InnerJoin
		}
	}
	if len(keep) == 0 {
		return &nj, true
	}
	return &plan.Filter{Input: &nj, Pred: andOf(keep)}, true
}

// pushFilterIntoApply moves WHERE conjuncts over a lateral join that read
// only its left input into that input: the left side is preserved by every
// Apply type, so filtering it first only saves running the right side for
// rows that would be dropped anyway.
func pushFilterIntoApply(c *Context, n plan.Node) (plan.Node, bool) {
	f, ok := n.(*plan.Filter)
	if !ok {
		return n, false
	}
	a, ok := f.Input.(*plan.Apply)
	if !ok {
		return n, false
	}
	leftCols := outputCols(a.Left)
	var toLeft, keep []plan.Expr
	for _, e := range conjuncts(f.Pred) {
		cols := exprCols(e)
		if !hasSubquery(e) && !isVolatile(e) && len(cols) > 0 && cols.subsetOf(leftCols) {
			toLeft = append(toLeft, e)
		} else {
			keep = append(keep, e)
		}
	}
	if len(toLeft) == 0 {
		return n, false
	}
	na := *a
	na.Left = &plan.Filter{Input: a.Left, Pred: andOf(toLeft)}
	if len(keep) == 0 {
		return &na, true
	}
	return &plan.Filter{Input: &na, Pred: andOf(keep)}, true
}

// pushJoinConditionDown moves ON conjuncts that read only one input into
// that input, where the join type allows: either side of an inner join; the
// non-preserved side of an outer, semi, anti or mark join (a condition over
// only the preserved side decides matching, not which rows exist).
func pushJoinConditionDown(c *Context, n plan.Node) (plan.Node, bool) {
	j, ok := n.(*plan.Join)
	if !ok || j.On == nil {
		return n, false
	}
	leftCols, rightCols := outputCols(j.Left), outputCols(j.Right)
	var toLeft, toRight, keep []plan.Expr
	for i, e := range conjuncts(j.On) {
		// A null-aware join's IN-value comparisons are its keys, first and
		// in order, even when one reads a single side: as a filter its NULL
		// would drop rows that NOT IN must answer NULL for.
		if hasSubquery(e) || isVolatile(e) || j.NullAware && i < j.ValueKeys {
			keep = append(keep, e)
			continue
		}
		cols := exprCols(e)
		switch {
		case len(cols) == 0:
			keep = append(keep, e)
		case cols.subsetOf(leftCols) && (j.Type == plan.InnerJoin || j.Type == plan.RightJoin):
			toLeft = append(toLeft, e)
		case cols.subsetOf(rightCols) && (j.Type == plan.InnerJoin || j.Type == plan.LeftJoin):
			toRight = append(toRight, e)
		case cols.subsetOf(rightCols) && (j.Type == plan.SemiJoin || j.Type == plan.AntiJoin || j.Type == plan.MarkJoin):
			// A semi/anti/mark join is an unnested subquery; a condition that
			// can fail sits in its ON because PostgreSQL evaluates it per
			// outer row, on the correlation's matches only (failDefers).
			if cannotFail(e) {
				toRight = append(toRight, e)
			} else {
				keep = append(keep, e)
			}
		default:
			keep = append(keep, e)
		}
	}
	if len(toLeft)+len(toRight) == 0 {
		return n, false
	}
	nj := *j
	nj.On = andOf(keep)
	if len(toLeft) > 0 {
		nj.Left = &plan.Filter{Input: j.Left, Pred: andOf(toLeft)}
	}
	if len(toRight) > 0 {
		nj.Right = &plan.Filter{Input: j.Right, Pred: andOf(toRight)}
	}
	return &nj, true
}

func union(a, b colSet) colSet {
	out := colSet{}
	for id := range a {
		out.add(id)
	}
	for id := range b {
		out.add(id)
	}
	return out
}

func isVolatile(e plan.Expr) bool {
	v := false
	walkExpr(e, func(n plan.Expr) {
		if c, ok := n.(*plan.Call); ok && c.Func.Volatile {
			v = true
		}
	})
	return v
}

// mergeProjections folds a projection that only selects or renames columns
// into the projection below it, unless that would compute a volatile or
// subquery column twice (`SELECT r, r FROM (SELECT random() r ...)` reads
// one value twice).
func mergeProjections(c *Context, n plan.Node) (plan.Node, bool) {
	outer, ok := n.(*plan.Project)
	if !ok {
		return n, false
	}
	inner, ok := outer.Input.(*plan.Project)
	if !ok {
		return n, false
	}
	defs := make(map[plan.ColumnID]plan.Expr, len(inner.Cols))
	for i, col := range inner.Cols {
		defs[col.ID] = inner.Exprs[i]
	}
	exprs := make([]plan.Expr, len(outer.Exprs))
	read := colSet{}
	for i, e := range outer.Exprs {
		r, ok := e.(*plan.ColRef)
		if !ok {
			return n, false
		}
		d, ok := defs[r.ID]
		if !ok || read.has(r.ID) && (isVolatile(d) || hasSubquery(d)) {
			return n, false
		}
		read.add(r.ID)
		exprs[i] = d
	}
	return &plan.Project{Input: inner.Input, Exprs: exprs, Cols: outer.Cols}, true
}

// inlineCTE replaces the only reference to a WITH query that need not be
// materialized by the query itself, so filters and pruning reach into it.
func inlineCTE(_ *Context, n plan.Node) (plan.Node, bool) {
	cs, ok := n.(*plan.CTEScan)
	if !ok || cs.CTE.Refs != 1 || cs.CTE.Materialized {
		return n, false
	}
	body := cs.CTE.Plan.Columns()
	exprs := make([]plan.Expr, len(body))
	for i, c := range body {
		exprs[i] = &plan.ColRef{ID: c.ID, T: c.Type, Name: c.Name}
	}
	return &plan.Project{Input: cs.CTE.Plan, Exprs: exprs, Cols: cs.Cols}, true
}

// removeIdentityProjection drops a projection that passes its input's
// columns through unchanged, in order.
func removeIdentityProjection(c *Context, n plan.Node) (plan.Node, bool) {
	p, ok := n.(*plan.Project)
	if !ok {
		return n, false
	}
	in := p.Input.Columns()
	if len(in) != len(p.Cols) {
		return n, false
	}
	for i, e := range p.Exprs {
		r, ok := e.(*plan.ColRef)
		if !ok || r.ID != in[i].ID || p.Cols[i].ID != in[i].ID || p.Cols[i].Name != in[i].Name {
			return n, false
		}
	}
	return p.Input, true
}
