package operators

import (
	"context"
	"math"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// groupingSetsOp is plan.GroupingSets: each input batch comes out once per
// grouping set, the input columns shared (not copied), the keys the set
// groups by as evaluated, the others NULL, and the set's number. The hash
// aggregate above groups the copies by (keys, set number), so every set is
// aggregated by the one aggregation, partition-parallel and spilling as
// any other.
type groupingSetsOp struct {
	in     Operator
	keys   []*Compiled
	keyT   []types.Type
	inSet  [][]bool // [set][key]
	pass   []int    // input column index of each passed column
	cols   []plan.Column
	schema *arrow.Schema
}

var _ Operator = (*groupingSetsOp)(nil)

// NewGroupingSets feeds in's rows once per set of x; with finest, once,
// with every key (set number 0), for an aggregate that rolls the sets up.
func NewGroupingSets(in Operator, x *plan.GroupingSets, finest bool, env *Env) (Operator, error) {
	read := append([]plan.Expr(nil), x.Keys...)
	for i, id := range x.PassFrom {
		read = append(read, &plan.ColRef{ID: id, T: x.Pass[i].Type})
	}
	if err := NarrowInput(in, read...); err != nil {
		return nil, err
	}
	op := &groupingSetsOp{in: in, cols: x.Columns()}
	op.schema = schemaOf(op.cols)
	for _, k := range x.Keys {
		c, err := Compile(k, in.Columns(), env)
		if err != nil {
			return nil, err
		}
		op.keys = append(op.keys, c)
		op.keyT = append(op.keyT, k.Type())
	}
	for s := range x.Sets {
		row := make([]bool, len(x.Keys))
		for k := range row {
			row[k] = finest || x.InSet(s, k)
		}
		op.inSet = append(op.inSet, row)
		if finest {
			break
		}
	}
	inCols := in.Columns()
	for _, id := range x.PassFrom {
		at := -1
		for i, c := range inCols {
			if c.ID == id {
				at = i
			}
		}
		if at < 0 {
			return nil, pgerr.New(pgerr.InternalError, "operators: grouping sets input lacks column #%d", id)
		}
		op.pass = append(op.pass, at)
	}
	return op, nil
}

func (o *groupingSetsOp) Columns() []plan.Column { return o.cols }
func (o *groupingSetsOp) Partitions() int        { return o.in.Partitions() }

func (o *groupingSetsOp) Open(ctx context.Context, p int) (Stream, error) {
	s, err := o.in.Open(ctx, p)
	if err != nil {
		return nil, err
	}
	return &groupingSetsStream{op: o, in: s, ctx: ctx, set: len(o.inSet)}, nil
}

type groupingSetsStream struct {
	op   *groupingSetsOp
	in   Stream
	ctx  context.Context
	rec  arrow.Record
	keys []arrow.Array
	set  int // the next set to emit rec for
	// Per batch length: the all-NULL column of each key and each set's
	// number, reused while batches keep their length.
	n     int
	nulls []arrow.Array
	nums  []arrow.Array
}

func (s *groupingSetsStream) Next() (arrow.Record, error) {
	o := s.op
	if s.set == len(o.inSet) {
		rec, err := s.in.Next()
		if rec == nil || err != nil {
			return nil, err
		}
		s.rec, s.set = rec, 0
		s.keys = s.keys[:0]
		for _, c := range o.keys {
			arr, err := c.Eval(s.ctx, rec)
			if err != nil {
				return nil, err
			}
			s.keys = append(s.keys, arr)
		}
		if n := int(rec.NumRows()); n != s.n || s.nulls == nil {
			s.constants(n)
		}
	}
	set := s.set
	s.set++
	arrs := make([]arrow.Array, 0, len(o.cols))
	for _, i := range o.pass {
		arrs = append(arrs, s.rec.Column(i))
	}
	for k, in := range o.inSet[set] {
		if in {
			arrs = append(arrs, s.keys[k])
		} else {
			arrs = append(arrs, s.nulls[k])
		}
	}
	arrs = append(arrs, s.nums[set])
	return array.NewRecord(o.schema, arrs, s.rec.NumRows()), nil
}

// constants builds the NULL key columns and set numbers for n rows.
func (s *groupingSetsStream) constants(n int) {
	o := s.op
	s.n = n
	s.nulls = s.nulls[:0]
	for _, t := range o.keyT {
		b := newBuilder(t, n)
		b.AppendNulls(n)
		s.nulls = append(s.nulls, b.NewArray())
	}
	s.nums = s.nums[:0]
	for set := range o.inSet {
		b := array.NewInt32Builder(mem)
		b.Reserve(n)
		for i := 0; i < n; i++ {
			b.UnsafeAppend(int32(set))
		}
		s.nums = append(s.nums, b.NewArray())
	}
}

func (s *groupingSetsStream) Close() error { return s.in.Close() }

// rollUpInto merges the groups of t, grouped by every key (set number 0),
// into o's groups of each set a.rollUp: a group's keys the set does not
// group by become NULL, its set number the set's, and its states merge
// into that group's. t is left as it was.
func (a *hashAggOp) rollUpInto(o, t *aggTable) error {
	if t.n == 0 {
		return nil
	}
	last := len(a.groupT) - 1
	bs := make([]array.Builder, len(a.groupT))
	for k, ty := range a.groupT {
		bs[k] = newBuilder(ty, t.n)
	}
	t.keys.appendKeys(bs, 0, t.n)
	keys := make([]arrow.Array, len(bs))
	for k, b := range bs {
		keys[k] = b.NewArray()
	}
	nulls := make([]arrow.Array, last)
	m := make([]int32, t.n)
	for s, set := range a.rollUp {
		arrs := make([]arrow.Array, len(keys))
		for k := 0; k < last; k++ {
			if slices.Contains(set, k) {
				arrs[k] = keys[k]
				continue
			}
			if nulls[k] == nil {
				b := newBuilder(a.groupT[k], t.n)
				b.AppendNulls(t.n)
				nulls[k] = b.NewArray()
			}
			arrs[k] = nulls[k]
		}
		nb := array.NewInt32Builder(mem)
		nb.Reserve(t.n)
		for i := 0; i < t.n; i++ {
			nb.UnsafeAppend(int32(s))
		}
		arrs[last] = nb.NewArray()
		o.keys.assign(arrs, t.n, m)
		o.grow(o.keys.count())
		for j, st := range o.states {
			// No group of o is fresh: several of t's may merge into one.
			if err := st.merge(t.states[j], m, math.MaxInt32); err != nil {
				return err
			}
		}
	}
	return nil
}

// finish is the table a grouping-sets aggregation emits from its merged
// table t: t rolled up into the sets (when rolling up), the empty sets
// seeded.
func (a *hashAggOp) finish(t *aggTable) (*aggTable, error) {
	if a.rollUp != nil {
		o := a.newTable()
		if err := a.rollUpInto(o, t); err != nil {
			return nil, err
		}
		t = o
	}
	a.seedGroups(t)
	return t, nil
}

// seedGroups adds the groups of the empty grouping sets a.seeds to t:
// every key NULL but the last, the set's number. Each exists even over no
// input rows (GROUP BY ROLLUP(a) over an empty table is one row); where
// rows came, the group is already there and nothing changes.
func (a *hashAggOp) seedGroups(t *aggTable) {
	if len(a.seeds) == 0 {
		return
	}
	n := len(a.seeds)
	arrs := make([]arrow.Array, len(a.groupT))
	last := len(a.groupT) - 1
	for k, ty := range a.groupT[:last] {
		b := newBuilder(ty, n)
		b.AppendNulls(n)
		arrs[k] = b.NewArray()
	}
	b := array.NewInt32Builder(mem)
	b.AppendValues(a.seeds, nil)
	arrs[last] = b.NewArray()
	gids := make([]int32, n)
	t.keys.assign(arrs, n, gids)
	t.grow(t.keys.count())
}

// NewGroupingSetsAggregate is NewHashAggregate over a GroupingSets input,
// whose empty sets (seeds, their set numbers) are groups even over no rows.
// With rollUp (the sets, as indexes of the keys) in is fed once per row
// grouped by every key, and the sets are rolled up from those groups.
func NewGroupingSetsAggregate(in Operator, groupBy []plan.Expr, aggs []plan.AggCall, cols []plan.Column, seeds []int32, rollUp [][]int, env *Env) (Operator, error) {
	op, err := NewHashAggregate(in, groupBy, aggs, cols, env)
	if err != nil {
		return nil, err
	}
	if len(groupBy) == 0 {
		return nil, errPlan("grouping sets aggregate without a set column")
	}
	a := op.(*hashAggOp)
	a.seeds, a.rollUp = seeds, rollUp
	return a, nil
}
