package optimizer

import (
	"sort"

	"github.com/joind/joind/sql/plan"
)

// Join ordering (issues 4, 12): a tree of inner and cross joins is flattened
// into its relations and conditions and rebuilt by estimated cost. Up to
// maxDPRelations relations, dynamic programming over connected subsets
// (DPsub) finds the cheapest tree, bushy ones included, where the cost of
// a join is its output rows plus its build side's rows (the smaller input's,
// as physical planning builds), summed over the tree; row counts come from
// storage statistics (estimate.go), so the order written in the query does
// not matter. Subsets are joined only along conditions: a cross product
// only between the graph's connected components, smallest first. Above
// maxDPRelations the tree is built greedily, left-deep: start from the
// smallest relation, then repeatedly join the smallest relation a condition
// connects to what is already joined.

// ReorderJoins rebuilds every maximal inner-join tree of n by estimated size.
// Output columns keep their order (a projection restores it when the new
// order differs).
func ReorderJoins(n plan.Node) plan.Node {
	if isInnerJoin(n) {
		var rels []plan.Node
		var conds []plan.Expr
		flattenInner(n, &rels, &conds)
		for i, r := range rels {
			rels[i] = ReorderJoins(r)
		}
		if len(rels) > maxDPRelations {
			return restoreColumnOrder(greedyJoin(rels, conds), n.Columns())
		}
		if len(rels) > 2 {
			return restoreColumnOrder(dpJoin(rels, conds), n.Columns())
		}
		j := *n.(*plan.Join)
		j.Left, j.Right = rels[0], rels[1]
		return &j
	}
	kids := n.Children()
	if len(kids) == 0 {
		return n
	}
	newKids := make([]plan.Node, len(kids))
	changed := false
	for i, k := range kids {
		newKids[i] = ReorderJoins(k)
		changed = changed || newKids[i] != k
	}
	if !changed {
		return n
	}
	return n.WithChildren(newKids)
}

func isInnerJoin(n plan.Node) bool {
	j, ok := n.(*plan.Join)
	return ok && (j.Type == plan.InnerJoin || j.Type == plan.CrossJoin)
}

func flattenInner(n plan.Node, rels *[]plan.Node, conds *[]plan.Expr) {
	if !isInnerJoin(n) {
		*rels = append(*rels, n)
		return
	}
	j := n.(*plan.Join)
	flattenInner(j.Left, rels, conds)
	flattenInner(j.Right, rels, conds)
	*conds = append(*conds, conjuncts(j.On)...)
}

func greedyJoin(rels []plan.Node, conds []plan.Expr) plan.Node {
	type rel struct {
		node plan.Node
		rows float64
		cols colSet
	}
	rs := make([]rel, len(rels))
	for i, r := range rels {
		rs[i] = rel{node: r, rows: EstimateRows(r), cols: outputCols(r)}
	}
	// Stable by size, so ties keep the written order.
	sort.SliceStable(rs, func(i, j int) bool { return rs[i].rows < rs[j].rows })
	condCols := make([]colSet, len(conds))
	for i, c := range conds {
		condCols[i] = exprCols(c)
	}
	usedCond := make([]bool, len(conds))

	cur, curCols, curRows := rs[0].node, rs[0].cols, rs[0].rows
	done := make([]bool, len(rs))
	done[0] = true
	for step := 1; step < len(rs); step++ {
		pick := -1
		for i := range rs {
			if done[i] {
				continue
			}
			if connects(condCols, usedCond, curCols, rs[i].cols) {
				pick = i
				break // rs is sorted: the first connected one is the smallest
			}
		}
		connected := pick >= 0
		if !connected {
			for i := range rs {
				if !done[i] {
					pick = i
					break
				}
			}
		}
		both := union(curCols, rs[pick].cols)
		var on []plan.Expr
		for i, c := range conds {
			if !usedCond[i] && condCols[i].subsetOf(both) {
				on = append(on, c)
				usedCond[i] = true
			}
		}
		typ := plan.InnerJoin
		if len(on) == 0 {
			typ = plan.CrossJoin
		}
		cur = &plan.Join{Type: typ, Left: cur, Right: rs[pick].node, On: andOf(on)}
		curCols = both
		if connected {
			curRows = max(curRows, rs[pick].rows)
		} else {
			curRows *= rs[pick].rows
		}
		done[pick] = true
	}
	// Conditions over no relation (constants) stay on the top join.
	var rest []plan.Expr
	for i, c := range conds {
		if !usedCond[i] {
			rest = append(rest, c)
		}
	}
	if len(rest) > 0 {
		j := cur.(*plan.Join)
		j.On = andOf(append(conjuncts(j.On), rest...))
		j.Type = plan.InnerJoin
	}
	return cur
}

// connects reports whether an unused condition reads both sides.
func connects(condCols []colSet, used []bool, a, b colSet) bool {
	for i, cc := range condCols {
		if used[i] || len(cc) == 0 {
			continue
		}
		if readsSet(cc, a) && readsSet(cc, b) && cc.subsetOf(union(a, b)) {
			return true
		}
	}
	return false
}

func readsSet(cols, side colSet) bool {
	for id := range cols {
		if side.has(id) {
			return true
		}
	}
	return false
}

// restoreColumnOrder projects n to cols' order if it differs.
func restoreColumnOrder(n plan.Node, cols []plan.Column) plan.Node {
	got := n.Columns()
	same := len(got) == len(cols)
	for i := 0; same && i < len(cols); i++ {
		same = got[i].ID == cols[i].ID
	}
	if same {
		return n
	}
	exprs := make([]plan.Expr, len(cols))
	for i, c := range cols {
		exprs[i] = &plan.ColRef{ID: c.ID, T: c.Type, Name: c.Name}
	}
	return &plan.Project{Input: n, Exprs: exprs, Cols: cols}
}

// maxDPRelations bounds the dynamic program (3^n subset pairs: 59,049 at 10).
const maxDPRelations = 10

// joinGraph is a flattened inner-join tree: relations with their estimated
// rows and columns, and conditions with the set of relations each reads.
type joinGraph struct {
	rels  []plan.Node
	rows  []float64
	cols  []colSet
	conds []plan.Expr
	masks []uint32 // relations a condition reads; 0 = none (or outer columns only)
	top   []bool   // conditions placed on the root join (they read an outer query's columns)
	// groups are the conditions by the relations they read, each with its
	// combined selectivity.
	groups []condGroup
}

type condGroup struct {
	mask uint32
	sel  float64
}

func newJoinGraph(rels []plan.Node, conds []plan.Expr) *joinGraph {
	g := &joinGraph{rels: rels, conds: conds, masks: make([]uint32, len(conds)), top: make([]bool, len(conds))}
	all := colSet{}
	for _, r := range rels {
		g.rows = append(g.rows, EstimateRows(r))
		cs := outputCols(r)
		g.cols = append(g.cols, cs)
		for id := range cs {
			all.add(id)
		}
	}
	byMask := map[uint32][]int{}
	var order []uint32
	for i, c := range conds {
		cc := exprCols(c)
		if !cc.subsetOf(all) {
			g.top[i] = true // reads an outer query's columns: keep it above all
		}
		for r, rc := range g.cols {
			if readsSet(cc, rc) {
				g.masks[i] |= 1 << r
			}
		}
		if g.masks[i] == 0 || g.top[i] {
			continue
		}
		if _, seen := byMask[g.masks[i]]; !seen {
			order = append(order, g.masks[i])
		}
		byMask[g.masks[i]] = append(byMask[g.masks[i]], i)
	}
	for _, m := range order {
		g.groups = append(g.groups, condGroup{mask: m, sel: g.groupSelectivity(m, byMask[m])})
	}
	return g
}

// groupSelectivity is the fraction of the relations' cross product that
// the conditions over exactly those relations keep: for two relations,
// equi-keys as in joinRows (the key tuple's distinct counts) and the rest
// as filters; for one or three and more, as filters.
func (g *joinGraph) groupSelectivity(mask uint32, idx []int) float64 {
	var in []int
	for r := range g.rels {
		if mask&(1<<r) != 0 {
			in = append(in, r)
		}
	}
	var es []plan.Expr
	for _, i := range idx {
		es = append(es, g.conds[i])
	}
	if len(in) != 2 {
		var node plan.Node = g.rels[in[0]]
		for _, r := range in[1:] {
			node = &plan.Join{Type: plan.CrossJoin, Left: node, Right: g.rels[r]}
		}
		return filterSelectivity(andOf(es), node)
	}
	a, b := in[0], in[1]
	j := &plan.Join{Type: plan.InnerJoin, Left: g.rels[a], Right: g.rels[b], On: andOf(es)}
	return joinRows(j, g.rows[a], g.rows[b]) / (g.rows[a] * g.rows[b])
}

// subsetRows is the estimated rows of joining the relations of s: their
// product times the selectivity of every condition group within s, so it
// does not depend on the order of joining.
func (g *joinGraph) subsetRows(s uint32) float64 {
	rows := 1.0
	for r := range g.rels {
		if s&(1<<r) != 0 {
			rows *= g.rows[r]
		}
	}
	for _, cg := range g.groups {
		if cg.mask&s == cg.mask {
			rows *= cg.sel
		}
	}
	return max(1, rows)
}

// connected reports whether a condition group joins a and b: it reads
// both and only relations of a ∪ b.
func (g *joinGraph) connected(a, b uint32) bool {
	for _, cg := range g.groups {
		if cg.mask&a != 0 && cg.mask&b != 0 && cg.mask&^(a|b) == 0 {
			return true
		}
	}
	return false
}

// dpPlan is the best tree found for one subset.
type dpPlan struct {
	cost        float64
	left, right uint32 // 0 for a single relation
}

// dpJoin builds the cheapest tree of each connected component by dynamic
// programming over subsets, then cross-joins the components, smallest
// first.
func dpJoin(rels []plan.Node, conds []plan.Expr) plan.Node {
	g := newJoinGraph(rels, conds)
	n := len(rels)
	full := uint32(1)<<n - 1
	best := make([]*dpPlan, full+1)
	rows := make([]float64, full+1)
	for s := uint32(1); s <= full; s++ {
		rows[s] = g.subsetRows(s)
		if s&(s-1) == 0 {
			best[s] = &dpPlan{}
			continue
		}
		// Each unordered split once: s1 holds s's lowest relation.
		low := s & -s
		for s1 := (s - 1) & s; s1 > 0; s1 = (s1 - 1) & s {
			if s1&low == 0 {
				continue
			}
			s2 := s &^ s1
			p1, p2 := best[s1], best[s2]
			if p1 == nil || p2 == nil || !g.connected(s1, s2) {
				continue
			}
			cost := p1.cost + p2.cost + rows[s] + min(rows[s1], rows[s2])
			if best[s] == nil || cost < best[s].cost {
				best[s] = &dpPlan{cost: cost, left: s1, right: s2}
			}
		}
	}
	// The connected components: the largest planned subsets covering all.
	var comps []uint32
	left := full
	for left != 0 {
		low := left & -left
		comp := low
		for s := left; s > 0; s = (s - 1) & left {
			if s&low != 0 && best[s] != nil && bits(s) > bits(comp) {
				comp = s
			}
		}
		comps = append(comps, comp)
		left &^= comp
	}
	sort.SliceStable(comps, func(i, j int) bool { return rows[comps[i]] < rows[comps[j]] })
	placed := make([]bool, len(conds))
	var tree plan.Node
	var treeSet uint32
	for _, c := range comps {
		sub := g.build(c, best, placed)
		if tree == nil {
			tree, treeSet = sub, c
			continue
		}
		treeSet |= c
		tree = g.join(tree, sub, treeSet, placed)
	}
	// Conditions over no relation (constants, outer columns) go on the top join.
	var rest []plan.Expr
	for i, c := range conds {
		if !placed[i] {
			rest = append(rest, c)
		}
	}
	if len(rest) > 0 {
		j := tree.(*plan.Join)
		j.On = andOf(append(conjuncts(j.On), rest...))
		j.Type = plan.InnerJoin
	}
	return tree
}

func bits(s uint32) int {
	n := 0
	for ; s != 0; s &= s - 1 {
		n++
	}
	return n
}

// build makes the tree best records for s.
func (g *joinGraph) build(s uint32, best []*dpPlan, placed []bool) plan.Node {
	p := best[s]
	if p.left == 0 {
		for r := range g.rels {
			if s == 1<<r {
				return g.rels[r]
			}
		}
	}
	l, r := g.build(p.left, best, placed), g.build(p.right, best, placed)
	// The subtree of more relations on the left, as a left-deep tree
	// reads; of two single relations the smaller (physical planning
	// decides the build side either way).
	if nl, nr := bits(p.left), bits(p.right); nr > nl || nr == nl && g.subsetRows(p.right) < g.subsetRows(p.left) {
		l, r = r, l
	}
	return g.join(l, r, s, placed)
}

// join joins l and r (together the relations of s) on the conditions not
// yet placed that read only relations of s: the lowest join that has all
// their columns.
func (g *joinGraph) join(l, r plan.Node, s uint32, placed []bool) plan.Node {
	var on []plan.Expr
	for i, c := range g.conds {
		if placed[i] || g.top[i] || g.masks[i] == 0 || g.masks[i]&^s != 0 {
			continue
		}
		on = append(on, c)
		placed[i] = true
	}
	typ := plan.InnerJoin
	if len(on) == 0 {
		typ = plan.CrossJoin
	}
	return &plan.Join{Type: typ, Left: l, Right: r, On: andOf(on)}
}
