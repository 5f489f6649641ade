package operators

import (
	"context"
	"encoding/binary"
	"io"
	"math/bits"
	"sort"
	"strings"
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
	// kernel folds whole batches of one group (aggfast.go); max tells
	// kernMinMaxInt which bound it keeps.
	kernel aggKernel
	max    bool
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
		if !s.counter {
			s.kernel, s.max = pickAggKernel(a.Func, s.argT, a.Distinct), a.Func.Name == "max"
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

// group is one group's state.
type group struct {
	keys   []types.Value
	accs   []types.Accumulator        // nil entries for DISTINCT and counter aggregates
	counts []int64                    // per counter aggregate (aggSpec.counter)
	seen   []map[string][]types.Value // per DISTINCT aggregate: argument tuples
}

// aggTable is one partition's (or the merged) hash table of groups.
type aggTable struct {
	index  map[string]int
	keys   []string
	groups []*group
	// One grouping column of an integer or text type: groups by value
	// (strIdx/intIdx, NULL in nullGroup) without encoding each row's key;
	// index and keys are kept for the merge.
	strIdx    map[string]int
	intIdx    map[int64]int
	nullGroup int // -1 = none yet
}

// addGroup adds the group of row i with encoded key key.
func (t *aggTable) addGroup(a *hashAggOp, key string, keyArrs []arrow.Array, i int) int {
	kv := make([]types.Value, len(keyArrs))
	for k, arr := range keyArrs {
		kv[k] = types.GetValue(arr, a.groupT[k], i)
	}
	gi := len(t.groups)
	t.index[key] = gi
	t.keys = append(t.keys, key)
	t.groups = append(t.groups, a.newGroup(kv))
	return gi
}

// singleKeyGroups fills gidx for one grouping column whose values group by
// plain equality (integers; text and varchar, not char(n) or numeric). It
// reports false for other columns.
func (t *aggTable) singleKeyGroups(a *hashAggOp, arr arrow.Array, gidx []int) bool {
	var ints func(i int) int64
	switch x := arr.(type) {
	case *array.Int64:
		ints = func(i int) int64 { return x.Value(i) }
	case *array.Int32:
		ints = func(i int) int64 { return int64(x.Value(i)) }
	case *array.Int16:
		ints = func(i int) int64 { return int64(x.Value(i)) }
	case *array.String:
		if id := a.groupT[0].ID; id != types.Text && id != types.Varchar {
			return false
		}
	default:
		return false
	}
	keyArrs := []arrow.Array{arr}
	var buf []byte
	encoded := func(i int) string {
		buf = appendKey(buf[:0], arr, a.groupT[0], i)
		return string(buf)
	}
	hasNulls := arr.NullN() > 0
	for i := range gidx {
		if hasNulls && arr.IsNull(i) {
			if t.nullGroup < 0 {
				t.nullGroup = t.addGroup(a, encoded(i), keyArrs, i)
			}
			gidx[i] = t.nullGroup
			continue
		}
		if ints != nil {
			if t.intIdx == nil {
				t.intIdx = map[int64]int{}
			}
			v := ints(i)
			gi, ok := t.intIdx[v]
			if !ok {
				gi = t.addGroup(a, encoded(i), keyArrs, i)
				t.intIdx[v] = gi
			}
			gidx[i] = gi
			continue
		}
		if t.strIdx == nil {
			t.strIdx = map[string]int{}
		}
		v := arr.(*array.String).Value(i)
		gi, ok := t.strIdx[v]
		if !ok {
			gi = t.addGroup(a, encoded(i), keyArrs, i)
			t.strIdx[strings.Clone(v)] = gi // v points into the batch
		}
		gidx[i] = gi
	}
	return true
}

func (a *hashAggOp) newGroup(keys []types.Value) *group {
	g := &group{keys: keys, accs: make([]types.Accumulator, len(a.aggs)), seen: make([]map[string][]types.Value, len(a.aggs)), counts: make([]int64, len(a.aggs))}
	for i, s := range a.aggs {
		if s.counter {
			continue
		}
		if s.distinct {
			g.seen[i] = map[string][]types.Value{}
		} else {
			g.accs[i] = s.fn.New()
		}
	}
	return g
}

// consume folds one input partition into a fresh table.
func (a *hashAggOp) consume(ctx context.Context, s Stream) (*aggTable, error) {
	t := &aggTable{index: map[string]int{}, nullGroup: -1}
	var buf, abuf []byte
	var offs []int
	for {
		rec, err := s.Next()
		if err == io.EOF {
			return t, nil
		}
		if err != nil {
			return nil, err
		}
		n := int(rec.NumRows())
		keyArrs := make([]arrow.Array, len(a.groupBy))
		for k, c := range a.groupBy {
			if keyArrs[k], err = c.Eval(ctx, rec); err != nil {
				return nil, err
			}
		}
		argArrs := make([][]arrow.Array, len(a.aggs))
		filters := make([]*array.Boolean, len(a.aggs))
		for j, s := range a.aggs {
			argArrs[j] = make([]arrow.Array, len(s.args))
			for k, c := range s.args {
				if argArrs[j][k], err = c.Eval(ctx, rec); err != nil {
					return nil, err
				}
			}
			if s.filter != nil {
				f, err := s.filter.Eval(ctx, rec)
				if err != nil {
					return nil, err
				}
				filters[j] = f.(*array.Boolean)
			}
		}
		// gidx maps each row to its group, so the aggregate loops below run
		// one aggregate at a time over the batch. Without GROUP BY there is
		// one group and gidx stays nil.
		var gidx []int
		if len(a.groupBy) == 0 {
			if len(t.groups) == 0 {
				t.index[""] = 0
				t.keys = append(t.keys, "")
				t.groups = append(t.groups, a.newGroup(nil))
			}
		} else if gidx = make([]int, n); len(keyArrs) == 1 && t.singleKeyGroups(a, keyArrs[0], gidx) {
			// grouped by value
		} else {
			buf, offs = rowKeys(keyArrs, a.groupT, n, buf, offs)
			last, lastKey := -1, []byte(nil)
			for i := 0; i < n; i++ {
				key := buf[offs[i]:offs[i+1]]
				if last >= 0 && string(key) == string(lastKey) {
					gidx[i] = last // runs of one group are common (sorted or clustered input)
					continue
				}
				gi, ok := t.index[string(key)]
				if !ok {
					gi = t.addGroup(a, string(key), keyArrs, i)
				}
				gidx[i] = gi
				last, lastKey = gi, key
			}
		}
		groupOf := func(i int) *group {
			if gidx == nil {
				return t.groups[0]
			}
			return t.groups[gidx[i]]
		}
		for j, s := range a.aggs {
			f := filters[j]
			if s.counter {
				var arg arrow.Array
				if len(argArrs[j]) == 1 {
					arg = argArrs[j][0]
				}
				countRows(t.groups, gidx, j, n, f, arg)
				continue
			}
			if s.kernel != kernNone && gidx == nil && aggKernels {
				if v, have, ok := batchPartial(s.kernel, s.max, argArrs[j][0], f, n); ok {
					if have {
						if err := t.groups[0].accs[j].Add([]types.Value{v}); err != nil {
							return nil, err
						}
					}
					continue
				}
			}
			args := make([]types.Value, len(s.args))
			for i := 0; i < n; i++ {
				if f != nil && (f.IsNull(i) || !f.Value(i)) {
					continue
				}
				for k, arr := range argArrs[j] {
					args[k] = types.GetValue(arr, s.argT[k], i)
				}
				g := groupOf(i)
				if s.distinct {
					abuf = abuf[:0]
					for k, arr := range argArrs[j] {
						abuf = appendKey(abuf, arr, s.argT[k], i)
					}
					if _, dup := g.seen[j][string(abuf)]; !dup {
						g.seen[j][string(abuf)] = append([]types.Value(nil), args...)
					}
					continue
				}
				if err := g.accs[j].Add(args); err != nil {
					return nil, err
				}
			}
		}
		if err := checkCtx(ctx); err != nil {
			return nil, err
		}
	}
}

// merge folds src into dst.
func (a *hashAggOp) merge(dst, src *aggTable) error {
	for i, key := range src.keys {
		sg := src.groups[i]
		gi, ok := dst.index[key]
		if !ok {
			dst.index[key] = len(dst.groups)
			dst.keys = append(dst.keys, key)
			dst.groups = append(dst.groups, sg)
			continue
		}
		dg := dst.groups[gi]
		for j, s := range a.aggs {
			if s.counter {
				dg.counts[j] += sg.counts[j]
				continue
			}
			if s.distinct {
				for k, v := range sg.seen[j] {
					if _, dup := dg.seen[j][k]; !dup {
						dg.seen[j][k] = v
					}
				}
				continue
			}
			if err := dg.accs[j].Merge(sg.accs[j]); err != nil {
				return err
			}
		}
	}
	return nil
}

type aggStream struct {
	op     *hashAggOp
	ctx    context.Context
	groups []*group
	at     int
	ran    bool
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
	if len(a.groupBy) == 0 && len(merged.groups) == 0 {
		merged.groups = append(merged.groups, a.newGroup(nil))
	}
	s.groups = merged.groups
	return nil
}

func (s *aggStream) Next() (arrow.Record, error) {
	if !s.ran {
		s.ran = true
		if err := s.run(); err != nil {
			return nil, err
		}
	}
	if s.at >= len(s.groups) {
		return nil, io.EOF
	}
	if err := checkCtx(s.ctx); err != nil {
		return nil, err
	}
	a := s.op
	end := min(s.at+a.size, len(s.groups))
	bs := make([]array.Builder, len(a.cols))
	for i, c := range a.cols {
		bs[i] = newBuilder(c.Type, end-s.at)
	}
	nk := len(a.groupBy)
	for _, g := range s.groups[s.at:end] {
		for k, v := range g.keys {
			types.AppendValue(bs[k], a.cols[k].Type, v)
		}
		for j, sp := range a.aggs {
			if sp.counter {
				types.AppendValue(bs[nk+j], a.cols[nk+j].Type, types.Value{I: g.counts[j]})
				continue
			}
			acc := g.accs[j]
			if sp.distinct {
				acc = sp.fn.New()
				for _, args := range sortedTuples(g.seen[j], sp.argT) {
					if err := acc.Add(args); err != nil {
						return nil, err
					}
				}
			}
			v, err := acc.Result()
			if err != nil {
				return nil, err
			}
			types.AppendValue(bs[nk+j], a.cols[nk+j].Type, v)
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

func (s *aggStream) Close() error { s.ran, s.groups = true, nil; return nil }

// sortedTuples orders a DISTINCT aggregate's argument tuples (NULLs last).
func sortedTuples(m map[string][]types.Value, ts []types.Type) [][]types.Value {
	out := make([][]types.Value, 0, len(m))
	for _, v := range m {
		out = append(out, v)
	}
	sort.Slice(out, func(i, j int) bool { return compareTuples(out[i], out[j], ts) < 0 })
	return out
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

// countRows adds aggregate j's counts of one batch of n rows: the rows whose
// filter f (nil = none) is TRUE and whose argument arg (nil for count(*)) is
// not NULL. gidx maps rows to groups (nil: every row is in groups[0]).
func countRows(groups []*group, gidx []int, j, n int, f *array.Boolean, arg arrow.Array) {
	if arg != nil && arg.NullN() == 0 {
		arg = nil // count(x) over a column without NULLs is count(*)
	}
	if f != nil && f.NullN() == 0 && f.Len() > 0 && f.Data().Offset() == 0 && arg == nil && gidx == nil {
		// The common filtered count(*): count the TRUE bits a word at a time.
		groups[0].counts[j] += int64(popcountPrefix(f.Data().Buffers()[1].Bytes(), n))
		return
	}
	if f == nil && arg == nil {
		if gidx == nil {
			groups[0].counts[j] += int64(n)
			return
		}
		for _, g := range gidx {
			groups[g].counts[j]++
		}
		return
	}
	var c int64
	for i := 0; i < n; i++ {
		if f != nil && (f.IsNull(i) || !f.Value(i)) {
			continue
		}
		if arg != nil && arg.IsNull(i) {
			continue
		}
		if gidx == nil {
			c++
		} else {
			groups[gidx[i]].counts[j]++
		}
	}
	if gidx == nil {
		groups[0].counts[j] += c
	}
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
