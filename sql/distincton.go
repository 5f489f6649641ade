package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
)

// SELECT DISTINCT ON (keys) keeps the first row of each group of rows equal
// on the keys, first in the ORDER BY's order. It binds to a Sort by the
// order below a plan.Distinct with On: the Sort's leading keys are the
// DISTINCT ON keys, so each group is one run of the sorted rows.

// bindDistinctOn is transformDistinctOnClause: it resolves the DISTINCT ON
// expressions as ORDER BY items are resolved (output names, ordinals, else
// expressions added as junk targets) and returns the key targets and the
// sort order of the rows. The keys must be the leading ORDER BY items (in
// any order among themselves); keys the ORDER BY lacks are sorted ascending
// after it.
func (b *binder) bindDistinctOn(s *scope, clause []*pg_query.Node, sorts []sortItem, targets *[]*target) ([]int, []sortItem, error) {
	refs := make([]int, len(clause))
	for i, n := range clause {
		idx, err := b.findTarget(s, n, targets, "DISTINCT ON")
		if err != nil {
			return nil, nil, err
		}
		if err := b.checkEquality((*targets)[idx].expr.Type(), nodeLocation(n)); err != nil {
			return nil, nil, err
		}
		refs[i] = idx
	}
	isRef := func(t int) int {
		for i, r := range refs {
			if r == t {
				return i
			}
		}
		return -1
	}
	errMatch := func(loc int32) error {
		return b.errAt(pgerr.New(pgerr.InvalidColumnReference, "SELECT DISTINCT ON expressions must match initial ORDER BY expressions"), loc)
	}
	var keys []sortItem
	skipped := false
	for _, sk := range sorts {
		i := isRef(sk.target)
		if i < 0 {
			skipped = true
			continue
		}
		if skipped {
			return nil, nil, errMatch(nodeLocation(clause[i]))
		}
		keys = append(keys, sk)
	}
	for i, r := range refs {
		dup := false
		for _, k := range keys {
			dup = dup || k.target == r
		}
		if dup {
			continue
		}
		if skipped {
			return nil, nil, errMatch(nodeLocation(clause[i]))
		}
		keys = append(keys, sortItem{target: r, loc: nodeLocation(clause[i])})
	}
	on := make([]int, len(keys))
	for i, k := range keys {
		on[i] = k.target
	}
	// One of the ORDER BY and the keys' order is a prefix of the other:
	// sorting by the longer satisfies both.
	if len(sorts) > len(keys) {
		return on, sorts, nil
	}
	return on, keys, nil
}

// distinctOnNode puts the plan.Distinct of DISTINCT ON over sorted, the
// projection's rows in the key order; on are target positions in proj.
func distinctOnNode(sorted plan.Node, proj *plan.Project, on []int) plan.Node {
	keys := make([]plan.Expr, len(on))
	for i, t := range on {
		c := proj.Cols[t]
		keys[i] = &plan.ColRef{ID: c.ID, T: c.Type, Name: c.Name}
	}
	return &plan.Distinct{Input: sorted, On: keys}
}
