package operators

import (
	"context"
	"encoding/binary"
	"io"
	"math/bits"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// aggSpec is one compiled aggregate call.
type aggSpec struct {
	fn       *types.AggOverload
	args     []*Compiled
	argT     []types.Type
	filter   *Compiled
	distinct bool
	// counter: count(*) or count(x) without DISTINCT. Such an aggregate is a
	// per-group int64 (group.counts), bumped batch-wise, never an
	// Accumulator: count(*) reads no values at all.
	counter bool
}

type hashAggOp struct {
	in      Operator
	groupBy []*Compiled
	groupT  []types.Type
	aggs    []aggSpec
	cols    []plan.Column
	schema  *arrow.Schema
	size    int
}

var _ Operator = (*hashAggOp)(nil)

// NewHashAggregate groups in by groupBy and computes aggs per group. Each
// input partition aggregates into its own table (partial aggregation); the
// tables are then merged with Accumulator.Merge. DISTINCT aggregates keep a
// per-group set of argument tuples instead, unioned at the merge and fed to
// the accumulator in sorted order (as PostgreSQL does). Output: 1 partition;
// without GROUP BY exactly one row, even for empty input.
func NewHashAggregate(in Operator, groupBy []plan.Expr, aggs []plan.AggCall, cols []plan.Column, env *Env) (Operator, error) {
	if len(cols) != len(groupBy)+len(aggs) {
		return nil, errPlan("aggregate has %d columns for %d keys and %d aggregates", len(cols), len(groupBy), len(aggs))
	}
	read := append([]plan.Expr(nil), groupBy...)
	for _, a := range aggs {
		read = append(read, a.Args...)
		if a.Filter != nil {
			read = append(read, a.Filter)
		}
	}
	if err := NarrowInput(in, read...); err != nil {
		return nil, err
	}
	op := &hashAggOp{in: in, cols: cols, schema: schemaOf(cols), size: batchSize(env)}
	for _, g := range groupBy {
		c, err := Compile(g, in.Columns(), env)
		if err != nil {
			return nil, err
		}
		op.groupBy = append(op.groupBy, c)
		op.groupT = append(op.groupT, g.Type())
	}
	for _, a := range aggs {
		if a.Func == nil || a.Func.New == nil {
			return nil, errPlan("aggregate without an implementation")
		}
		s := aggSpec{fn: a.Func, distinct: a.Distinct}
		s.counter = a.Func.Name == "count" && !a.Distinct && len(a.Args) <= 1 && a.Func.Result.ID == types.Int8
		for _, e := range a.Args {
			c, err := Compile(e, in.Columns(), env)
			if err != nil {
				return nil, err
			}
			s.args = append(s.args, c)
			s.argT = append(s.argT, e.Type())
		}
		if a.Filter != nil {
			c, err := Compile(a.Filter, in.Columns(), env)
			if err != nil {
				return nil, err
			}
			s.filter = c
		}
		op.aggs = append(op.aggs, s)
	}
	return op, nil
}

func (a *hashAggOp) Columns() []plan.Column { return a.cols }
func (a *hashAggOp) Partitions() int        { return 1 }

func (a *hashAggOp) Open(ctx context.Context, _ int) (Stream, error) {
	return &aggStream{op: a, ctx: ctx}, nil
}

// aggTable is one partition's (or the merged) groups: their keys and, per
// aggregate, a state array indexed by group id.
type aggTable struct {
	keys   groupKeys // nil without GROUP BY: one group, id 0
	states []aggState
	n      int // groups
}

func (a *hashAggOp) newTable() *aggTable {
	t := &aggTable{states: make([]aggState, len(a.aggs))}
	for j := range a.aggs {
		t.states[j] = newAggState(&a.aggs[j])
	}
	if len(a.groupBy) == 0 {
		t.grow(1)
	} else {
		t.keys = newGroupKeys(a.groupT)
	}
	return t
}

func (t *aggTable) grow(n int) {
	if n <= t.n {
		return
	}
	for _, s := range t.states {
		s.grow(n)
	}
	t.n = n
}

// consume folds one input partition into a fresh table.
func (a *hashAggOp) consume(ctx context.Context, s Stream) (*aggTable, error) {
	t := a.newTable()
	var gids []int32
	keyArrs := make([]arrow.Array, len(a.groupBy))
	args := make([][]arrow.Array, len(a.aggs))
	for j := range a.aggs {
		args[j] = make([]arrow.Array, len(a.aggs[j].args))
	}
	for {
		rec, err := s.Next()
		if err == io.EOF {
			return t, nil
		}
		if err != nil {
			return nil, err
		}
		n := int(rec.NumRows())
		for k, c := range a.groupBy {
			if keyArrs[k], err = c.Eval(ctx, rec); err != nil {
				return nil, err
			}
		}
		// gids maps each row to its group, so each aggregate then folds the
		// whole batch into its state arrays. Without GROUP BY it stays nil.
		var rowGids []int32
		if t.keys != nil {
			if cap(gids) < n {
				gids = make([]int32, n)
			}
			rowGids = gids[:n]
			t.keys.assign(keyArrs, n, rowGids)
			t.grow(t.keys.count())
		}
		for j, sp := range a.aggs {
			for k, c := range sp.args {
				if args[j][k], err = c.Eval(ctx, rec); err != nil {
					return nil, err
				}
			}
			var f *array.Boolean
			if sp.filter != nil {
				fa, err := sp.filter.Eval(ctx, rec)
				if err != nil {
					return nil, err
				}
				f = fa.(*array.Boolean)
			}
			if err := t.states[j].update(ctx, rowGids, args[j], f, n); err != nil {
				return nil, err
			}
		}
		if err := checkCtx(ctx); err != nil {
			return nil, err
		}
	}
}

// merge folds src into dst.
func (a *hashAggOp) merge(dst, src *aggTable) error {
	var m []int32
	fresh := int32(dst.n)
	if dst.keys == nil {
		m = []int32{0}
	} else {
		m = dst.keys.absorb(src.keys)
		dst.grow(dst.keys.count())
	}
	for j, s := range dst.states {
		if err := s.merge(src.states[j], m, fresh); err != nil {
			return err
		}
	}
	return nil
}

type aggStream struct {
	op    *hashAggOp
	ctx   context.Context
	table *aggTable
	at    int
	ran   bool
}

func (s *aggStream) run() error {
	a := s.op
	tables := make([]*aggTable, a.in.Partitions())
	var mu sync.Mutex
	err := runPartitions(s.ctx, a.in, func(p int, st Stream) error {
		t, err := a.consume(s.ctx, st)
		mu.Lock()
		tables[p] = t
		mu.Unlock()
		return err
	})
	if err != nil {
		return err
	}
	merged := tables[0]
	for _, t := range tables[1:] {
		if err := a.merge(merged, t); err != nil {
			return err
		}
	}
	s.table = merged
	return nil
}

func (s *aggStream) Next() (arrow.Record, error) {
	if !s.ran {
		s.ran = true
		if err := s.run(); err != nil {
			return nil, err
		}
	}
	if s.table == nil || s.at >= s.table.n {
		return nil, io.EOF
	}
	if err := checkCtx(s.ctx); err != nil {
		return nil, err
	}
	a, t := s.op, s.table
	end := min(s.at+a.size, t.n)
	bs := make([]array.Builder, len(a.cols))
	for i, c := range a.cols {
		bs[i] = newBuilder(c.Type, end-s.at)
	}
	nk := len(a.groupBy)
	if t.keys != nil {
		t.keys.appendKeys(bs[:nk], s.at, end)
	}
	for j, st := range t.states {
		b, ct := bs[nk+j], a.cols[nk+j].Type
		for g := s.at; g < end; g++ {
			v, err := st.result(g)
			if err != nil {
				return nil, err
			}
			types.AppendValue(b, ct, v)
		}
	}
	arrs := make([]arrow.Array, len(bs))
	for i, b := range bs {
		arrs[i] = b.NewArray()
	}
	n := end - s.at
	s.at = end
	return array.NewRecord(a.schema, arrs, int64(n)), nil
}

func (s *aggStream) Close() error { s.ran, s.table = true, nil; return nil }

func compareTuples(a, b []types.Value, ts []types.Type) int {
	for k := range a {
		switch {
		case a[k].Null && b[k].Null:
			continue
		case a[k].Null:
			return 1
		case b[k].Null:
			return -1
		}
		if c := compareValues(a[k], b[k], ts[k]); c != 0 {
			return c
		}
	}
	return 0
}

// popcountPrefix counts the set bits among the first n bits of b (Arrow's
// LSB-first bit order).
func popcountPrefix(b []byte, n int) int {
	c := 0
	for len(b) >= 8 && n >= 64 {
		c += bits.OnesCount64(binary.LittleEndian.Uint64(b))
		b, n = b[8:], n-64
	}
	for i := 0; i < n; i++ {
		if b[i>>3]&(1<<(uint(i)&7)) != 0 {
			c++
		}
	}
	return c
}
