package operators

import (
	"context"
	"slices"
	"sort"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// Aggregates with ORDER BY (and ordered-set aggregates' WITHIN GROUP) in
// the generic state: the state keeps every group's argument rows
// (orderedRows), which partial aggregation concatenates in partition order;
// the result sorts a group's rows stably by the call's keys and only then
// folds them into a fresh accumulator. With DISTINCT the distinct set
// holds the rows instead (the keys are among the arguments). The rows are
// arguments the spill accounting already charges (aggExec.groupBytes), so
// a grouped ordered aggregate spills like any other.

// collects reports whether the state keeps rows instead of accumulators.
func (s *genericState) collects() bool { return len(s.spec.order) > 0 && !s.spec.distinct }

// orderedRows holds an ordered aggregate's rows for every group of a table:
// its non-constant arguments column by column, integers, floats and
// strings unboxed (an int8 argument costs 8 bytes a row, not a
// types.Value), and per group the ids of its rows in arrival order.
type orderedRows struct {
	cols    []rowColumn
	colOf   []int         // per argument: its column, or -1 for a constant
	consts  []types.Value // per argument: its value when constant
	byGroup [][]int32     // per group: its rows
	n       int32         // rows held
	// sorted: every group's rows are in key order (Finish sorted them on
	// the partition's goroutine, and merges kept them so).
	sorted bool
	buf    []types.Value // one row, for the accumulator
	sel    []int32       // scratch: the batch's rows FILTER passes
}

// rowColumn is one stored argument.
type rowColumn struct {
	t      types.Type
	kind   uint8
	ints   []int64
	floats []float64
	strs   []string
	vals   []types.Value
	nulls  []bool // nil until a NULL arrives
}

const (
	rowInts uint8 = iota
	rowFloats
	rowStrings
	rowValues
)

func newOrderedRows(sp *aggSpec) *orderedRows {
	r := &orderedRows{colOf: make([]int, len(sp.argT)), consts: make([]types.Value, len(sp.argT)), buf: make([]types.Value, len(sp.argT))}
	for j, t := range sp.argT {
		if sp.argConst[j] != nil {
			r.colOf[j], r.consts[j] = -1, *sp.argConst[j]
			continue
		}
		c := rowColumn{t: t, kind: rowValues}
		switch {
		case intLike(t.ID) || t.ID == types.Bool:
			c.kind = rowInts
		case t.ID == types.Float8 || t.ID == types.Float4:
			c.kind = rowFloats
		case t.ID == types.Text || t.ID == types.Varchar:
			c.kind = rowStrings
		}
		r.colOf[j] = len(r.cols)
		r.cols = append(r.cols, c)
	}
	return r
}

func (r *orderedRows) grow(n int) {
	for len(r.byGroup) < n {
		r.byGroup = append(r.byGroup, nil)
	}
}

func (c *rowColumn) add(v types.Value, at int32) {
	if v.Null {
		if c.nulls == nil {
			c.nulls = make([]bool, at, cap(c.ints)+cap(c.floats)+cap(c.strs)+cap(c.vals)+1)
		}
	}
	if c.nulls != nil {
		c.nulls = append(c.nulls, v.Null)
	}
	switch c.kind {
	case rowInts:
		c.ints = append(c.ints, v.I)
	case rowFloats:
		c.floats = append(c.floats, v.F)
	case rowStrings:
		c.strs = append(c.strs, v.S)
	default:
		c.vals = append(c.vals, v)
	}
}

func (c *rowColumn) null(i int32) bool { return c.nulls != nil && c.nulls[i] }

func (c *rowColumn) value(i int32) types.Value {
	if c.null(i) {
		return types.NullValue
	}
	switch c.kind {
	case rowInts:
		return types.Value{I: c.ints[i]}
	case rowFloats:
		return types.Value{F: c.floats[i]}
	case rowStrings:
		return types.Value{S: c.strs[i]}
	}
	return c.vals[i]
}

// addBatch appends the batch's rows (FILTER f, nil for none) to their
// groups (gids, nil: group 0), column by column.
func (r *orderedRows) addBatch(gids []int32, args []arrow.Array, f *array.Boolean, n int) {
	r.sel = r.sel[:0]
	for i := 0; i < n; i++ {
		if f == nil || (!f.IsNull(i) && f.Value(i)) {
			r.sel = append(r.sel, int32(i))
		}
	}
	for j, arr := range args {
		if k := r.colOf[j]; k >= 0 {
			r.cols[k].addRows(arr, r.sel, r.n)
		}
	}
	for _, i := range r.sel {
		g := int32(0)
		if gids != nil {
			g = gids[i]
		}
		r.byGroup[g] = append(r.byGroup[g], r.n)
		r.n++
	}
	if len(r.sel) > 0 {
		r.sorted = false // a spilled batch folding into a sorted table
	}
}

// addRows appends arr's rows sel, the first becoming row at.
func (c *rowColumn) addRows(arr arrow.Array, sel []int32, at int32) {
	if arr.NullN() > 0 || c.nulls != nil {
		for k, i := range sel {
			c.add(types.GetValue(arr, c.t, int(i)), at+int32(k))
		}
		return
	}
	switch a := arr.(type) {
	case *array.Int64:
		if c.kind == rowInts && c.t.ID == types.Int8 {
			for _, i := range sel {
				c.ints = append(c.ints, a.Value(int(i)))
			}
			return
		}
	case *array.Float64:
		if c.kind == rowFloats && c.t.ID == types.Float8 {
			for _, i := range sel {
				c.floats = append(c.floats, a.Value(int(i)))
			}
			return
		}
	case *array.String:
		if c.kind == rowStrings {
			for _, i := range sel {
				c.strs = append(c.strs, a.Value(int(i)))
			}
			return
		}
	}
	for k, i := range sel {
		c.add(types.GetValue(arr, c.t, int(i)), at+int32(k))
	}
}

// Finish sorts the rows of the partition's ordered aggregates on its own
// goroutine, so that the merges only interleave sorted runs.
func (x *aggExec) Finish(ctx context.Context, s *aggSpillPart) error {
	return aggSink{x.a}.Finish(ctx, s.part)
}

func (k aggSink) Finish(_ context.Context, s *aggPart) error {
	for _, st := range s.t.states {
		if gs, ok := st.(*genericState); ok && gs.collects() && gs.rows != nil {
			gs.rows.sortGroups(gs.spec.order)
		}
	}
	return nil
}

func (r *orderedRows) sortGroups(keys []plan.AggSortKey) {
	for _, ids := range r.byGroup {
		r.sortIDs(ids, keys)
	}
	r.sorted = true
}

// absorb appends src's rows, src's group i becoming group m[i]; when
// both sides are sorted, a group's rows are merged in key order (this
// side's first among equals, as a stable sort of the concatenation).
func (r *orderedRows) absorb(src *orderedRows, m []int32, keys []plan.AggSortKey) {
	base := r.n
	for k := range r.cols {
		c, o := &r.cols[k], &src.cols[k]
		if o.nulls != nil && c.nulls == nil {
			c.nulls = make([]bool, base)
		}
		if c.nulls != nil {
			if o.nulls != nil {
				c.nulls = append(c.nulls, o.nulls...)
			} else {
				c.nulls = append(c.nulls, make([]bool, src.n)...)
			}
		}
		c.ints = append(c.ints, o.ints...)
		c.floats = append(c.floats, o.floats...)
		c.strs = append(c.strs, o.strs...)
		c.vals = append(c.vals, o.vals...)
	}
	r.n += src.n
	merge := r.sorted && src.sorted
	for i, d := range m {
		in := src.byGroup[i]
		for j := range in {
			in[j] += base
		}
		if !merge || len(r.byGroup[d]) == 0 {
			r.byGroup[d] = append(r.byGroup[d], in...)
			continue
		}
		r.byGroup[d] = r.mergeSorted(r.byGroup[d], in, keys)
	}
	r.sorted = merge
}

// mergeSorted merges the sorted id lists a and b (a's first among equals).
func (r *orderedRows) mergeSorted(a, b []int32, keys []plan.AggSortKey) []int32 {
	out := make([]int32, 0, len(a)+len(b))
	for len(a) > 0 && len(b) > 0 {
		if r.less(b[0], a[0], keys) {
			out, b = append(out, b[0]), b[1:]
		} else {
			out, a = append(out, a[0]), a[1:]
		}
	}
	return append(append(out, a...), b...)
}

// less orders rows a and b by keys (argument indexes).
func (r *orderedRows) less(a, b int32, keys []plan.AggSortKey) bool {
	return r.compare(a, b, keys) < 0
}

// compare orders rows a and b by the keys (0 when tied).
func (r *orderedRows) compare(a, b int32, keys []plan.AggSortKey) int {
	for _, k := range keys {
		j := r.colOf[k.Arg]
		if j < 0 {
			continue // a constant key orders nothing
		}
		c := &r.cols[j]
		an, bn := c.null(a), c.null(b)
		switch {
		case an && bn:
			continue
		case an || bn:
			if an == k.NullsFirst {
				return -1
			}
			return 1
		}
		var cmp int
		switch c.kind {
		case rowInts:
			cmp = types.CompareInt(c.ints[a], c.ints[b])
		case rowFloats:
			cmp = types.CompareFloat(c.floats[a], c.floats[b])
		case rowStrings: // text and varchar: bytewise
			cmp = strings.Compare(c.strs[a], c.strs[b])
		default:
			cmp = compareValues(c.value(a), c.value(b), c.t)
		}
		if cmp == 0 {
			continue
		}
		if k.Desc {
			cmp = -cmp
		}
		return cmp
	}
	return 0
}

// sortIDs sorts a group's row ids by the keys, stably: ids are in arrival
// order, so they are the last key (pdqsort's O(n log n) comparisons
// instead of sort.SliceStable's O(n log² n)).
func (r *orderedRows) sortIDs(ids []int32, keys []plan.AggSortKey) {
	slices.SortFunc(ids, func(a, b int32) int {
		if c := r.compare(a, b, keys); c != 0 {
			return c
		}
		return int(a - b)
	})
}

// row is row id's arguments (valid until the next call).
func (r *orderedRows) row(id int32) []types.Value {
	for j, k := range r.colOf {
		if k < 0 {
			r.buf[j] = r.consts[j]
		} else {
			r.buf[j] = r.cols[k].value(id)
		}
	}
	return r.buf
}

func (s *genericState) orderedResult(g int) (types.Value, error) {
	sp := s.spec
	acc := sp.fn.New()
	if sp.distinct {
		rows := s.seen.sorted(g, sp.argT)
		sortAggRows(rows, sp.order, sp.argT)
		for _, r := range rows {
			if err := acc.Add(r[:sp.nfunc]); err != nil {
				return types.Value{}, err
			}
		}
		return acc.Result()
	}
	if g < len(s.rows.byGroup) {
		ids := s.rows.byGroup[g]
		if !s.rows.sorted {
			s.rows.sortIDs(ids, sp.order)
		}
		for _, id := range ids {
			if err := acc.Add(s.rows.row(id)[:sp.nfunc]); err != nil {
				return types.Value{}, err
			}
		}
	}
	return acc.Result()
}

// sortAggRows sorts a DISTINCT aggregate's rows stably by keys (columns of
// the rows, of types ts).
func sortAggRows(rows [][]types.Value, keys []plan.AggSortKey, ts []types.Type) {
	sort.SliceStable(rows, func(i, j int) bool {
		for _, k := range keys {
			a, b := rows[i][k.Arg], rows[j][k.Arg]
			switch {
			case a.Null && b.Null:
				continue
			case a.Null || b.Null:
				return a.Null == k.NullsFirst
			}
			c := compareValues(a, b, ts[k.Arg])
			if c == 0 {
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
