package operators

import (
	"sort"

	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// Aggregates with ORDER BY (and ordered-set aggregates' WITHIN GROUP) in
// the generic state: each group keeps its argument rows, which partial
// aggregation concatenates in partition order; the result sorts them
// stably by the call's keys and only then folds them into a fresh
// accumulator. With DISTINCT the distinct set holds the rows (the keys are
// among the arguments). The rows are arguments the spill accounting
// already charges (aggExec.groupBytes), so a grouped ordered aggregate
// spills like any other.

// collects reports whether the state keeps rows instead of accumulators.
func (s *genericState) collects() bool { return len(s.spec.order) > 0 && !s.spec.distinct }

// mergeRows appends src's rows of group i to group m[i]'s.
func (s *genericState) mergeRows(src *genericState, m []int32, fresh int32) {
	for i, d := range m {
		if d >= fresh {
			s.rows[d] = src.rows[i]
			continue
		}
		s.rows[d] = append(s.rows[d], src.rows[i]...)
	}
}

func (s *genericState) orderedResult(g int) (types.Value, error) {
	sp := s.spec
	var rows [][]types.Value
	if sp.distinct {
		rows = s.seen.sorted(g, sp.argT)
	} else if g < len(s.rows) {
		rows = s.rows[g]
	}
	sortAggRows(rows, sp.order, sp.argT)
	acc := sp.fn.New()
	for _, r := range rows {
		if err := acc.Add(r[:sp.nfunc]); err != nil {
			return types.Value{}, err
		}
	}
	return acc.Result()
}

// sortAggRows sorts rows stably by keys (columns of the rows, of types ts).
func sortAggRows(rows [][]types.Value, keys []plan.AggSortKey, ts []types.Type) {
	sort.SliceStable(rows, func(i, j int) bool {
		for _, k := range keys {
			a, b := rows[i][k.Arg], rows[j][k.Arg]
			var c int
			switch {
			case a.Null && b.Null:
				continue
			case a.Null, b.Null:
				c = 1
				if a.Null == k.NullsFirst {
					c = -1
				}
				return c < 0
			}
			if c = compareValues(a, b, ts[k.Arg]); c == 0 {
				continue
			}
			if k.Desc {
				c = -c
			}
			return c < 0
		}
		return false
	})
}
