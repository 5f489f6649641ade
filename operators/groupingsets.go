package operators

import (
	"context"

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

// NewGroupingSets feeds in's rows once per set of x.
func NewGroupingSets(in Operator, x *plan.GroupingSets, env *Env) (Operator, error) {
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
			row[k] = x.InSet(s, k)
		}
		op.inSet = append(op.inSet, row)
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
func NewGroupingSetsAggregate(in Operator, groupBy []plan.Expr, aggs []plan.AggCall, cols []plan.Column, seeds []int32, env *Env) (Operator, error) {
	op, err := NewHashAggregate(in, groupBy, aggs, cols, env)
	if err != nil {
		return nil, err
	}
	if len(seeds) > 0 && len(groupBy) == 0 {
		return nil, errPlan("grouping sets aggregate without a set column")
	}
	op.(*hashAggOp).seeds = seeds
	return op, nil
}
