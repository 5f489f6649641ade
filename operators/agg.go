package operators

import (
	"context"
	"encoding/binary"
	"math/bits"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/joind/joind/operators/spill"
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
	// order sorts each group's argument rows before they reach the
	// accumulator, which sees the first nfunc of each (aggorder.go).
	order    []plan.AggSortKey
	nfunc    int
	argConst []*types.Value // per argument: its value when a constant
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
	space   *spill.Space // the query's memory limit (aggspill.go)
	seeds   []int32      // empty grouping sets' numbers (groupingsets.go)
	rollUp  [][]int      // the grouping sets rolled up from the finest groups, or nil
	spilled spill.Stats
}

// ExplainNote is EXPLAIN ANALYZE's note: the aggregation's peak memory
// (when it accounts it: a query that may spill) and what it spilled.
func (a *hashAggOp) ExplainNote() string { return a.spilled.Note() }

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
	op := &hashAggOp{in: in, cols: cols, schema: schemaOf(cols), size: batchSize(env), spilled: spill.Stats{Kind: spill.KindHashAggregate}}
	if env != nil {
		op.space = env.Spill
	}
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
		s := aggSpec{fn: a.Func.WithSession(evalEnv(env)), distinct: a.Distinct, nfunc: len(a.FuncArgs())}
		if a.WithinGroup {
			s.nfunc = len(a.Args)
		}
		if !a.Func.AnyOrder {
			s.order = a.Order
		}
		s.counter = a.Func.Name == "count" && !a.Distinct && len(a.Args) <= 1 && a.Func.Result.ID == types.Int8 && len(a.Order) == 0
		for _, e := range a.Args {
			var cv *types.Value
			if k, ok := e.(*plan.Const); ok {
				cv = &k.Val
			}
			s.argConst = append(s.argConst, cv)
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
	if len(a.groupBy) > 0 && a.space.CanSpill() {
		x := &aggExec{a: a, acct: a.space.NewAccount().Track(&a.spilled)}
		bs := newBreakerStream(ctx, x.run)
		bs.cleanup = x.cleanup
		return bs, nil
	}
	acct := a.space.NewAccount().Track(&a.spilled)
	bs := newBreakerStream(ctx, func(ctx context.Context) (func() (arrow.Record, error), error) {
		return a.run(ctx, heldAggSink{aggSink{a}, acct})
	})
	bs.cleanup = acct.Close
	return bs, nil
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

// aggPart is one input partition's table and its scratch buffers.
type aggPart struct {
	t       *aggTable
	gids    []int32
	keyArrs []arrow.Array
	args    [][]arrow.Array
}

// aggSink is the aggregate's Sink: partial aggregation per input
// partition, merged in partition order.
type aggSink struct{ a *hashAggOp }

func (k aggSink) Init(int) *aggPart {
	a := k.a
	s := &aggPart{t: a.newTable(), keyArrs: make([]arrow.Array, len(a.groupBy)), args: make([][]arrow.Array, len(a.aggs))}
	for j := range a.aggs {
		s.args[j] = make([]arrow.Array, len(a.aggs[j].args))
	}
	return s
}

func (k aggSink) Combine(dst, src *aggPart) error { return k.a.merge(dst.t, src.t) }

// Consume folds one batch into the partition's table.
func (k aggSink) Consume(ctx context.Context, s *aggPart, rec arrow.Record) error {
	a, t := k.a, s.t
	keyArrs, args := s.keyArrs, s.args
	var err error
	n := int(rec.NumRows())
	for k, c := range a.groupBy {
		if keyArrs[k], err = c.Eval(ctx, rec); err != nil {
			return err
		}
	}
	// gids maps each row to its group, so each aggregate then folds the
	// whole batch into its state arrays. Without GROUP BY it stays nil.
	var rowGids []int32
	if t.keys != nil {
		if cap(s.gids) < n {
			s.gids = make([]int32, n)
		}
		rowGids = s.gids[:n]
		t.keys.assign(keyArrs, n, rowGids)
		t.grow(t.keys.count())
	}
	return a.fold(ctx, t, args, rowGids, rec)
}

// fold folds rec's rows, row i into group gids[i] (nil: group 0), into
// t's aggregate states; args is scratch for the arguments.
func (a *hashAggOp) fold(ctx context.Context, t *aggTable, args [][]arrow.Array, gids []int32, rec arrow.Record) error {
	n := int(rec.NumRows())
	var err error
	for j, sp := range a.aggs {
		for k, c := range sp.args {
			if args[j][k], err = c.evalAnyForm(ctx, rec); err != nil {
				return err
			}
		}
		var f *array.Boolean
		if sp.filter != nil {
			fa, err := sp.filter.Eval(ctx, rec)
			if err != nil {
				return err
			}
			f = fa.(*array.Boolean)
		}
		if err := t.states[j].update(ctx, gids, args[j], f, n); err != nil {
			return err
		}
	}
	return nil
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

// run drains the input into one merged table and returns its emitter.
func (a *hashAggOp) run(ctx context.Context, sink Sink[*aggPart]) (func() (arrow.Record, error), error) {
	part, err := Drain(ctx, a.in, sink)
	if err != nil {
		return nil, err
	}
	t, err := a.finish(part.t) // groupingsets.go
	if err != nil {
		return nil, err
	}
	return a.emitter(t), nil
}

// emitter returns the emitter of t's groups.
func (a *hashAggOp) emitter(t *aggTable) func() (arrow.Record, error) {
	at := 0
	return func() (arrow.Record, error) {
		if at >= t.n {
			return nil, nil
		}
		end := min(at+a.size, t.n)
		bs := make([]array.Builder, len(a.cols))
		for i, c := range a.cols {
			bs[i] = newBuilder(c.Type, end-at)
		}
		nk := len(a.groupBy)
		if t.keys != nil {
			t.keys.appendKeys(bs[:nk], at, end)
		}
		for j, st := range t.states {
			b, ct := bs[nk+j], a.cols[nk+j].Type
			for g := at; g < end; g++ {
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
		n := end - at
		at = end
		return array.NewRecord(a.schema, arrs, int64(n)), nil
	}
}

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
