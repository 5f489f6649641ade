package optimizer

import (
	"fmt"
	"strings"

	"github.com/joind/joind/sql/plan"
)

// GROUP BY ROLLUP / CUBE / GROUPING SETS plan as a GroupingSets node (each
// input row once per set) under one Hash Aggregate; this file holds their
// column pruning and EXPLAIN lines.

// pruneGroupingSets keeps the passed columns an ancestor reads; the keys
// and the set number always stay (the Aggregate above groups by them).
func pruneGroupingSets(x *plan.GroupingSets, need colSet) plan.Node {
	c := *x
	c.Pass, c.PassFrom = nil, nil
	childNeed := colSet{}
	for i, col := range x.Pass {
		if need.has(col.ID) {
			c.Pass = append(c.Pass, col)
			c.PassFrom = append(c.PassFrom, x.PassFrom[i])
			childNeed.add(x.PassFrom[i])
		}
	}
	for _, k := range x.Keys {
		addAll(childNeed, exprCols(k))
	}
	c.Input = prune(x.Input, childNeed)
	return &c
}

// explainGroupingSetsKeys is a grouping-sets aggregate's key lines, one
// per set in the order the sets are numbered ("()" for the empty set): the
// aggregate hashes every set's groups into its one table.
func explainGroupingSetsKeys(gs *plan.GroupingSets) []string {
	var out []string
	for _, set := range gs.Sets {
		keys := make([]string, len(set))
		for i, k := range set {
			keys[i] = FormatExpr(gs.Keys[k])
		}
		if len(keys) == 0 {
			out = append(out, "Hash Key: ()")
			continue
		}
		out = append(out, "Hash Key: "+strings.Join(keys, ", "))
	}
	return out
}

// explainGroupingSets is the GroupingSets node's detail line.
func explainGroupingSets(p *Physical) string {
	gs := p.Logical.(*plan.GroupingSets)
	if p.RollUp {
		return fmt.Sprintf("Sets: %d (rolled up from one grouping by all keys)", len(gs.Sets))
	}
	return fmt.Sprintf("Sets: %d (each input row once per set)", len(gs.Sets))
}

// groupingSetsInput is the GroupingSets node below a physical aggregate, or nil.
func groupingSetsInput(p *Physical) *plan.GroupingSets {
	if len(p.Inputs) == 1 && p.Inputs[0].Op == OpGroupingSets {
		return p.Inputs[0].Logical.(*plan.GroupingSets)
	}
	return nil
}

// rollUpLimit bounds the groups a roll-up holds outside the memory limit:
// the finest grouping's estimated groups times the sets.
const rollUpLimit = 1 << 18

// planRollUp decides how aggregate p over a GroupingSets input computes
// the sets. By default every row goes to the hash table once per set. When
// the statistics show the finest grouping (all keys) small, every row goes
// once, grouped by all keys, and each set's groups are then merged from
// those groups' states (as partitions' partial states merge): one lookup
// per row instead of one per set. The rolled-up groups are held beside
// the memory limit, hence the bound.
func planRollUp(p *Physical) {
	gs := groupingSetsInput(p)
	if gs == nil {
		return
	}
	in := EstimateRows(gs.Input)
	groups := 1.0
	for _, k := range gs.Keys {
		d, ok := distinctOf(gs.Input, k, in)
		if !ok {
			return
		}
		groups *= d + 1 // and NULL
	}
	if groups*float64(len(gs.Sets)) > rollUpLimit {
		return
	}
	p.RollUp, p.Inputs[0].RollUp = true, true
	p.Inputs[0].Rows = p.Inputs[0].Inputs[0].Rows
}
