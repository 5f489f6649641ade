package sql

import (
	"cmp"
	"slices"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// GROUP BY ROLLUP / CUBE / GROUPING SETS and GROUPING(...).
//
// The GROUP BY clause expands, as PostgreSQL's expand_grouping_sets does,
// into a list of grouping sets over the clause's distinct grouping
// expressions: each item is a list of sets (a plain expression one set of
// itself, () the empty set, ROLLUP its prefixes, CUBE its subsets,
// GROUPING SETS its members'), the clause is the cross product of its
// items, each set without repeated expressions, the sets ordered by size.
// GROUP BY DISTINCT drops repeated sets; otherwise they are kept and give
// repeated rows. More than one set plans as plan.GroupingSets under the
// Aggregate, which then groups by every key and the set number last.

// maxGroupingSets is PostgreSQL's limit on the expanded sets.
const maxGroupingSets = 4096

// PostgreSQL's SQLSTATEs of the grouping-set limits (class 54).
const (
	codeStatementTooComplex = "54001"
	codeTooManyColumns      = "54011"
	codeTooManyArguments    = "54023"
)

// groupingSets is what the binder keeps of a grouping-sets aggregation
// for GROUPING(...): the sets over the grouping expressions and the
// Aggregate's set-number column.
type groupingSets struct {
	sets   [][]int
	setCol plan.Column
}

// bindGroupClause binds the GROUP BY clause: its distinct grouping
// expressions and, when the clause has more than one grouping set, the
// sets (nil for plain grouping; a single set is plain grouping by its
// expressions, as PostgreSQL plans it).
func (b *binder) bindGroupClause(s *scope, sel *pg_query.SelectStmt, targets []*target) ([]plan.Expr, [][]int, error) {
	g := &groupClause{b: b, s: s, targets: targets, twoNames: -1}
	var items [][][]int
	hasSets := false
	numSets := 1.0
	for _, n := range sel.GroupClause {
		if gs := n.GetGroupingSet(); gs != nil && gs.Kind != pg_query.GroupingSetKind_GROUPING_SET_EMPTY {
			hasSets = true
		}
		sets, err := g.expand(n)
		if err != nil {
			return nil, nil, err
		}
		if numSets *= float64(len(sets)); numSets > maxGroupingSets {
			return nil, nil, pgerr.New(codeStatementTooComplex, "too many grouping sets present (maximum %d)", maxGroupingSets)
		}
		items = append(items, sets)
	}
	if !hasSets {
		return g.exprs, nil, nil
	}
	sets := [][]int{nil}
	for _, item := range items {
		var next [][]int
		for _, q := range sets {
			for _, p := range item {
				next = append(next, unionInts(q, p))
			}
		}
		sets = next
	}
	if sel.GroupDistinct {
		for _, set := range sets {
			slices.Sort(set)
		}
		slices.SortStableFunc(sets, func(x, y []int) int {
			return cmp.Or(cmp.Compare(len(x), len(y)), slices.Compare(x, y))
		})
		sets = slices.CompactFunc(sets, slices.Equal[[]int])
	} else {
		slices.SortStableFunc(sets, func(x, y []int) int { return cmp.Compare(len(x), len(y)) })
	}
	if len(sets) == 1 {
		exprs := make([]plan.Expr, len(sets[0]))
		for i, k := range sets[0] {
			exprs[i] = g.exprs[k]
		}
		return exprs, nil, nil
	}
	if g.twoNames >= 0 {
		return nil, nil, b.errAt(pgerr.New(pgerr.FeatureNotSupported,
			"grouping sets over one expression grouped as two output columns are not supported"), g.twoNames)
	}
	return g.exprs, sets, nil
}

// groupClause collects a GROUP BY clause's distinct grouping expressions.
type groupClause struct {
	b       *binder
	s       *scope
	targets []*target
	exprs   []plan.Expr
	via     []int // per expression, the output column it was found as (-1: none)
	// twoNames is where one expression was grouped as two output columns
	// (SELECT g AS x, g AS y ... GROUP BY x, ROLLUP (y)), -1 if nowhere.
	// PostgreSQL keeps such columns apart; joind groups them as one, so
	// with several grouping sets the query is refused.
	twoNames int32
}

// leaf binds one grouping expression and returns its index in exprs.
func (g *groupClause) leaf(n *pg_query.Node) (int, error) {
	e, err := g.b.bindGroupItem(g.s, n, g.targets)
	if err != nil {
		return 0, err
	}
	if err := g.b.noWindowIn(g.s, e, "GROUP BY"); err != nil {
		return 0, err
	}
	if e != nil {
		if err := g.b.checkEquality(e.Type(), nodeLocation(n)); err != nil {
			return 0, err
		}
	}
	// The output column: the one named or numbered (bindGroupItem returns
	// its very expression), else the first one equal to e.
	via := slices.IndexFunc(g.targets, func(t *target) bool { return t.expr == e })
	if via < 0 {
		via = slices.IndexFunc(g.targets, func(t *target) bool { return exprEqual(t.expr, e) })
	}
	for i, h := range g.exprs {
		if exprEqual(e, h) {
			if via != g.via[i] && g.twoNames < 0 {
				g.twoNames = nodeLocation(n)
			}
			return i, nil
		}
	}
	if via >= 0 {
		g.targets[via].groupRef = true
	}
	g.exprs = append(g.exprs, e)
	g.via = append(g.via, via)
	return len(g.exprs) - 1, nil
}

// simple is one element of ROLLUP, CUBE or GROUPING SETS that is a single
// set: (a, b) or a.
func (g *groupClause) simple(n *pg_query.Node) ([]int, error) {
	var out []int
	for _, e := range flattenRow(n) {
		k, err := g.leaf(e)
		if err != nil {
			return nil, err
		}
		out = append(out, k)
	}
	return out, nil
}

// flattenRow is n's elements when n is a parenthesized list, (a, (b, c))
// being a, b, c; else n. (ROW(a, b) is one row-valued expression.)
func flattenRow(n *pg_query.Node) []*pg_query.Node {
	r := n.GetRowExpr()
	if r == nil || r.RowFormat != pg_query.CoercionForm_COERCE_IMPLICIT_CAST {
		return []*pg_query.Node{n}
	}
	var out []*pg_query.Node
	for _, a := range r.Args {
		out = append(out, flattenRow(a)...)
	}
	return out
}

// expand is expand_groupingset_node: the sets one GROUP BY item stands for.
func (g *groupClause) expand(n *pg_query.Node) ([][]int, error) {
	gs := n.GetGroupingSet()
	if gs == nil {
		// GROUP BY (a, b) is GROUP BY a, b: one set of both.
		k, err := g.simple(n)
		if err != nil {
			return nil, err
		}
		return [][]int{k}, nil
	}
	switch gs.Kind {
	case pg_query.GroupingSetKind_GROUPING_SET_EMPTY:
		return [][]int{nil}, nil
	case pg_query.GroupingSetKind_GROUPING_SET_ROLLUP, pg_query.GroupingSetKind_GROUPING_SET_CUBE:
		if gs.Kind == pg_query.GroupingSetKind_GROUPING_SET_CUBE && len(gs.Content) > 12 {
			return nil, g.b.errAt(pgerr.New(codeTooManyColumns, "CUBE is limited to 12 elements"), gs.Location)
		}
		var elems [][]int
		for _, c := range gs.Content {
			e, err := g.simple(c)
			if err != nil {
				return nil, err
			}
			elems = append(elems, e)
		}
		var out [][]int
		if gs.Kind == pg_query.GroupingSetKind_GROUPING_SET_ROLLUP {
			for i := len(elems); i >= 0; i-- {
				out = append(out, slices.Concat(elems[:i]...))
			}
			return out, nil
		}
		for mask := 0; mask < 1<<len(elems); mask++ {
			var set []int
			for j, e := range elems {
				if mask&(1<<j) != 0 {
					set = append(set, e...)
				}
			}
			out = append(out, set)
		}
		return out, nil
	case pg_query.GroupingSetKind_GROUPING_SET_SETS:
		var out [][]int
		for _, c := range gs.Content {
			if c.GetGroupingSet() != nil {
				sub, err := g.expand(c)
				if err != nil {
					return nil, err
				}
				out = append(out, sub...)
				continue
			}
			e, err := g.simple(c)
			if err != nil {
				return nil, err
			}
			out = append(out, e)
		}
		return out, nil
	}
	return nil, g.b.errAt(pgerr.New(pgerr.FeatureNotSupported, "grouping set kind %s is not supported", gs.Kind), gs.Location)
}

// unionInts is list_union_int: q, then p's elements not in q.
func unionInts(q, p []int) []int {
	out := append([]int(nil), q...)
	for _, k := range p {
		if !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	return out
}

// bindGroupingFunc binds GROUPING(args): allowed where aggregates are,
// not inside one.
func (b *binder) bindGroupingFunc(s *scope, g *pg_query.GroupingFunc) (plan.Expr, error) {
	if len(g.Args) > 31 {
		return nil, b.errAt(pgerr.New(codeTooManyArguments, "GROUPING must have fewer than 32 arguments"), g.Location)
	}
	// Like an aggregate, GROUPING belongs to the level of the columns its
	// arguments read, which may be an outer query's.
	saved := saveOuterRefs(s)
	args, err := b.bindList(s, g.Args)
	if err != nil {
		return nil, err
	}
	lvl, _ := b.aggLevel(s, args, nil)
	target, err := b.aggTarget(s, lvl, "grouping operations", g.Location)
	if err != nil {
		return nil, err
	}
	target.agg.anyAgg = true
	fn := &plan.GroupingFunc{Args: args}
	if lvl == 0 {
		return fn, nil
	}
	// An outer level's GROUPING is, from here, a column of that level.
	restoreOuterRefs(saved)
	col := plan.Column{ID: b.ids.Next(), Name: "grouping", Type: types.Int4Type, NotNull: true}
	target.agg.groupings = append(target.agg.groupings, outerGrouping{col: col, fn: fn})
	ref := &plan.ColRef{ID: col.ID, T: col.Type, Name: col.Name}
	b.noteOuterAt(s, lvl, ref, g.Location)
	return ref, nil
}

// outerGrouping is a GROUPING(...) written in a subquery whose arguments
// are this level's: computed above the Aggregate as col.
type outerGrouping struct {
	col plan.Column
	fn  *plan.GroupingFunc
}

// outerGroupings computes agg's outer groupings over the Aggregate node, in
// a projection that passes the Aggregate's columns on.
func (r *regrouper) outerGroupings(node plan.Node, agg *aggState) (plan.Node, error) {
	if len(agg.groupings) == 0 {
		return node, nil
	}
	p := &plan.Project{Input: node}
	for _, c := range node.Columns() {
		p.Exprs = append(p.Exprs, &plan.ColRef{ID: c.ID, T: c.Type, Name: c.Name})
		p.Cols = append(p.Cols, c)
	}
	for _, g := range agg.groupings {
		e, err := r.grouping(g.fn)
		if err != nil {
			return nil, err
		}
		p.Exprs = append(p.Exprs, e)
		p.Cols = append(p.Cols, g.col)
	}
	return p, nil
}

// planGroupingSets puts a GroupingSets node under an, an Aggregate over
// groups with output columns gcols (its group part) and aggregates calls,
// and makes an group by the keys and the set number.
func (b *binder) planGroupingSets(an *plan.Aggregate, gcols []plan.Column, sets [][]int) (*groupingSets, error) {
	keyCols := make([]plan.Column, len(gcols))
	keyIDs := map[plan.ColumnID]bool{}
	for i, c := range gcols {
		c.NotNull = false // NULL where a set groups it out
		keyCols[i] = c
		keyIDs[c.ID] = true
	}
	gs := &plan.GroupingSets{Input: an.Input, Keys: an.GroupBy, Sets: sets, KeyCols: keyCols}
	// A plain grouping column's ID names its key; its raw value passes on
	// under a fresh ID, which the aggregates read.
	renamed := map[plan.ColumnID]plan.ColumnID{}
	for _, c := range an.Input.Columns() {
		gs.PassFrom = append(gs.PassFrom, c.ID)
		if keyIDs[c.ID] {
			id := b.ids.Next()
			renamed[c.ID] = id
			c.ID = id
		}
		gs.Pass = append(gs.Pass, c)
	}
	rename := func(e plan.Expr) (plan.Expr, error) {
		if e == nil {
			return nil, nil
		}
		return renameColRefs(b, e, renamed)
	}
	aggs := make([]plan.AggCall, len(an.Aggs))
	for i, a := range an.Aggs {
		a.Args = append([]plan.Expr(nil), a.Args...)
		for j, arg := range a.Args {
			var err error
			if a.Args[j], err = rename(arg); err != nil {
				return nil, err
			}
		}
		var err error
		if a.Filter, err = rename(a.Filter); err != nil {
			return nil, err
		}
		aggs[i] = a
	}
	gs.SetCol = plan.Column{ID: b.ids.Next(), Name: "grouping_set", Type: types.Int4Type, NotNull: true}
	an.Input, an.Aggs = gs, aggs
	an.GroupBy = nil
	for _, c := range append(append([]plan.Column(nil), keyCols...), gs.SetCol) {
		an.GroupBy = append(an.GroupBy, &plan.ColRef{ID: c.ID, T: c.Type, Name: c.Name})
	}
	an.Cols = append(append(append([]plan.Column(nil), keyCols...), gs.SetCol), an.Cols[len(gcols):]...)
	for i, set := range sets {
		if len(set) == 0 {
			an.Seeds = append(an.Seeds, int32(i))
		}
	}
	return &groupingSets{sets: sets, setCol: gs.SetCol}, nil
}

// renameColRefs rewrites references to the keys of renamed into
// references to their values. A subquery reading such a column is refused:
// its plan would need the same rewrite.
func renameColRefs(b *binder, e plan.Expr, renamed map[plan.ColumnID]plan.ColumnID) (plan.Expr, error) {
	switch x := e.(type) {
	case *plan.ColRef:
		if id, ok := renamed[x.ID]; ok {
			c := *x
			c.ID = id
			return &c, nil
		}
		return x, nil
	case *plan.Subquery:
		for _, id := range x.OuterRefs {
			if _, ok := renamed[id]; ok {
				return nil, b.errAt(pgerr.New(pgerr.FeatureNotSupported,
					"a subquery in an aggregate's arguments reading a grouping column is not supported with grouping sets"), b.locOf(x))
			}
		}
	}
	return plan.MapChildren(e, func(c plan.Expr) (plan.Expr, error) { return renameColRefs(b, c, renamed) })
}

// grouping rewrites GROUPING(args) above the Aggregate: a bit per argument,
// the first the most significant, set where the row's grouping set does
// not group by it; 0 throughout for plain GROUP BY.
func (r *regrouper) grouping(x *plan.GroupingFunc) (plan.Expr, error) {
	idx := make([]int, len(x.Args))
	for j, a := range x.Args {
		idx[j] = -1
		for i, g := range r.groups {
			if exprEqual(a, g) {
				idx[j] = i
				break
			}
		}
		if idx[j] < 0 {
			return nil, r.b.errAt(pgerr.New(pgerr.GroupingError,
				"arguments to GROUPING must be grouping expressions of the associated query level"), r.b.locOf(a))
		}
	}
	zero := &plan.Const{Val: types.IntValue(0), T: types.Int4Type}
	if r.sets == nil {
		return zero, nil
	}
	eq, err := types.ResolveOperator("=", types.Int4Type, types.Int4Type)
	if err != nil {
		return nil, err
	}
	setRef := &plan.ColRef{ID: r.sets.setCol.ID, T: r.sets.setCol.Type, Name: r.sets.setCol.Name}
	// One branch per distinct nonzero mask, true for the sets that have it.
	var masks []int64
	conds := map[int64][]plan.Expr{}
	for s, set := range r.sets.sets {
		var m int64
		for _, k := range idx {
			m <<= 1
			if !slices.Contains(set, k) {
				m |= 1
			}
		}
		if m == 0 {
			continue
		}
		if _, ok := conds[m]; !ok {
			masks = append(masks, m)
		}
		num := &plan.Const{Val: types.IntValue(int64(s)), T: types.Int4Type}
		conds[m] = append(conds[m], &plan.Call{Func: eq, Args: []plan.Expr{setRef, num}})
	}
	if len(masks) == 0 {
		return zero, nil
	}
	c := &plan.Case{Else: zero, T: types.Int4Type}
	for _, m := range masks {
		cond := conds[m][0]
		if len(conds[m]) > 1 {
			cond = &plan.Or{Args: conds[m]}
		}
		c.Whens = append(c.Whens, plan.When{Cond: cond, Result: &plan.Const{Val: types.IntValue(m), T: types.Int4Type}})
	}
	return c, nil
}
