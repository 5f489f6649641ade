package operators

import (
	"container/heap"
	"context"
	"fmt"
	"io"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/joind/joind/operators/spill"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

type sortOp struct {
	in    Operator
	keys  []*Compiled
	keyT  []types.Type
	spec  []plan.SortKey
	size  int
	space *spill.Space
	// runSchema is a run's batches: the input's columns, then the keys'
	// values (evaluated once per row, so a volatile key orders
	// consistently across runs).
	runSchema *arrow.Schema
	spilled   spill.Stats
}

// ExplainNote is EXPLAIN ANALYZE's note: the sort's peak memory and what
// it spilled.
func (o *sortOp) ExplainNote() string { return o.spilled.Note() }

var _ Operator = (*sortOp)(nil)

// NewSort gathers every partition of in and orders the rows by keys
// (stable; NULLS FIRST/LAST as resolved in each key) into one partition.
// Each input partition sorts its own rows, in parallel, into runs that a
// k-way merge combines (ties in partition order, so the result is the
// stable sort of the partitions' concatenation). Past the query's memory
// limit a partition writes its rows so far as a sorted run to a spill
// file (external merge sort).
func NewSort(in Operator, keys []plan.SortKey, env *Env) (Operator, error) {
	op := &sortOp{in: in, spec: keys, size: batchSize(env), spilled: spill.Stats{Kind: spill.KindSort}}
	if env != nil {
		op.space = env.Spill
	}
	fs := append([]arrow.Field(nil), schemaOf(in.Columns()).Fields()...)
	for i, k := range keys {
		c, err := Compile(k.Expr, in.Columns(), env)
		if err != nil {
			return nil, err
		}
		op.keys = append(op.keys, c)
		op.keyT = append(op.keyT, c.Type())
		fs = append(fs, arrow.Field{Name: fmt.Sprintf("sortkey%d", i), Type: c.Type().ArrowType(), Nullable: true})
	}
	op.runSchema = arrow.NewSchema(fs, nil)
	return op, nil
}

func (o *sortOp) Columns() []plan.Column { return o.in.Columns() }
func (o *sortOp) Partitions() int        { return 1 }

func (o *sortOp) Open(ctx context.Context, _ int) (Stream, error) {
	x := &sortExec{o: o, acct: o.space.NewAccount().Track(&o.spilled)}
	bs := newBreakerStream(ctx, x.run)
	bs.cleanup = x.cleanup
	return bs, nil
}

// gatherAll reads every partition of op into one record (nil when empty).
func gatherAll(ctx context.Context, op Operator) (arrow.Record, error) {
	recs, err := Collect(ctx, op)
	if err != nil {
		return nil, err
	}
	return concatRecords(schemaOf(op.Columns()), recs)
}

// concatRecords joins records of one schema into one (nil when no rows).
func concatRecords(schema *arrow.Schema, recs []arrow.Record) (arrow.Record, error) {
	var rows int64
	for _, r := range recs {
		rows += r.NumRows()
	}
	if rows == 0 {
		return nil, nil
	}
	if len(recs) == 1 {
		return recs[0], nil
	}
	arrs := make([]arrow.Array, schema.NumFields())
	for c := range arrs {
		parts := make([]arrow.Array, len(recs))
		for i, r := range recs {
			parts[i] = r.Column(c)
		}
		a, err := array.Concatenate(parts, mem)
		if err != nil {
			return nil, errPlan("concatenate: %v", err)
		}
		arrs[c] = a
	}
	return array.NewRecord(schema, arrs, rows), nil
}

// sortFanIn is the most runs one merge reads: more spilled runs are first
// merged, sortFanIn at a time, into longer ones.
const sortFanIn = 64

// sortExec is one execution of a sort: its runs, the memory they hold and
// the spill files they are in, released by cleanup.
type sortExec struct {
	o    *sortOp
	acct *spill.Account
}

// sortRun is a sorted run: in memory (rec in perm's order, keys per row of
// rec) or in a spill file (batches of runSchema, in order).
type sortRun struct {
	rec  arrow.Record
	perm []int
	keys [][]types.Value
	file *spill.File
}

// sortPart is one input partition's state: unsorted batches (of
// runSchema) and the runs it has made.
type sortPart struct {
	recs  []arrow.Record
	bytes int64
	runs  []*sortRun
}

func (x *sortExec) reserve(n int64) bool { return x.acct.Reserve(n) }

func (x *sortExec) force(n int64) { x.acct.Force(n) }

func (x *sortExec) release(n int64) { x.acct.Release(n) }

func (x *sortExec) create() (*spill.File, error) { return x.acct.Create(x.o.runSchema) }

// cleanup removes the execution's spill files and returns its memory.
func (x *sortExec) cleanup() { x.acct.Close() }

// Init, Consume, Finish and Combine make sortExec the sort's Sink.
func (x *sortExec) Init(int) *sortPart { return &sortPart{} }

func (x *sortExec) Consume(ctx context.Context, s *sortPart, rec arrow.Record) error {
	o := x.o
	cols := append([]arrow.Array(nil), rec.Columns()...)
	for _, c := range o.keys {
		a, err := c.Eval(ctx, rec)
		if err != nil {
			return err
		}
		cols = append(cols, a)
	}
	aug := array.NewRecord(o.runSchema, cols, rec.NumRows())
	n := spill.RecordBytes(aug)
	if !x.reserve(n) {
		if o.space.CanSpill() && len(s.recs) > 0 {
			if err := x.spillRun(ctx, s); err != nil {
				return err
			}
		}
		if !x.reserve(n) {
			x.force(n) // one batch is always held
		}
	}
	s.recs = append(s.recs, aug)
	s.bytes += n
	return nil
}

// Finish sorts the partition's remaining rows into an in-memory run.
func (x *sortExec) Finish(ctx context.Context, s *sortPart) error {
	if len(s.recs) == 0 {
		return nil
	}
	r, err := x.sortRecs(ctx, s.recs)
	if err != nil {
		return err
	}
	s.recs = nil // the run holds them now (still reserved)
	s.runs = append(s.runs, r)
	return nil
}

func (x *sortExec) Combine(dst, src *sortPart) error {
	dst.runs = append(dst.runs, src.runs...)
	return nil
}

// spillRun writes the partition's rows so far, sorted, to a spill file.
func (x *sortExec) spillRun(ctx context.Context, s *sortPart) error {
	r, err := x.sortRecs(ctx, s.recs)
	if err != nil {
		return err
	}
	f, err := x.writeRun(ctx, r)
	if err != nil {
		return err
	}
	x.release(s.bytes)
	s.recs, s.bytes = nil, 0
	s.runs = append(s.runs, &sortRun{file: f})
	return nil
}

// writeRun writes an in-memory run to a new spill file.
func (x *sortExec) writeRun(ctx context.Context, r *sortRun) (*spill.File, error) {
	f, err := x.create()
	if err != nil {
		return nil, err
	}
	c := r.cursor(x.o.size)
	for {
		rec, err := c.nextBatch()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if err := f.Write(rec); err != nil {
			return nil, err
		}
		if err := checkCtx(ctx); err != nil {
			return nil, err
		}
	}
	if err := f.Finish(); err != nil {
		return nil, err
	}
	x.o.spilled.Count(f)
	return f, nil
}

// sortRecs sorts batches (of runSchema) into an in-memory run.
func (x *sortExec) sortRecs(ctx context.Context, recs []arrow.Record) (*sortRun, error) {
	o := x.o
	all, err := concatRecords(o.runSchema, recs)
	if err != nil {
		return nil, err
	}
	n := int(all.NumRows())
	nin := len(o.in.Columns())
	if perm := packedSortPerm(o.spec, all.Columns()[nin:], n); perm != nil {
		return &sortRun{rec: all, perm: perm}, checkCtx(ctx)
	}
	keys := make([][]types.Value, len(o.keys))
	for k := range o.keys {
		arr, t := all.Column(nin+k), o.keyT[k]
		vals := make([]types.Value, n)
		for i := range vals {
			vals[i] = types.GetValue(arr, t, i)
		}
		keys[k] = vals
	}
	perm := make([]int, n)
	for i := range perm {
		perm[i] = i
	}
	// pdqsort with the row number as the last key: the stable order in
	// O(n log n) comparisons (sort.SliceStable's merges cost O(n log² n)).
	cmp := intKeyOrder(o.spec, o.keyT, keys)
	if cmp == nil {
		cmp = func(a, b int) int { return o.compare(keys, a, keys, b) }
	}
	slices.SortFunc(perm, func(a, b int) int {
		if c := cmp(a, b); c != 0 {
			return c
		}
		return a - b
	})
	if err := checkCtx(ctx); err != nil {
		return nil, err
	}
	return &sortRun{rec: all, perm: perm, keys: keys}, nil
}

// intKeyOrder is compare for keys that are all integers, dates, timestamps
// or booleans, over flat copies of their values (nil for other keys).
func intKeyOrder(spec []plan.SortKey, keyT []types.Type, keys [][]types.Value) func(a, b int) int {
	type intKey struct {
		v          []int64
		null       []bool
		desc, nfst bool
	}
	ks := make([]intKey, len(keys))
	for k, vals := range keys {
		switch keyT[k].ID {
		case types.Bool, types.Int2, types.Int4, types.Int8, types.Date, types.Timestamp, types.TimestampTZ, types.Time, types.TimeTZ:
		default:
			return nil
		}
		ik := intKey{v: make([]int64, len(vals)), null: make([]bool, len(vals)), desc: spec[k].Desc, nfst: spec[k].NullsFirst}
		for i, v := range vals {
			ik.v[i], ik.null[i] = v.I, v.Null
		}
		ks[k] = ik
	}
	return func(a, b int) int {
		for k := range ks {
			ik := &ks[k]
			na, nb := ik.null[a], ik.null[b]
			switch {
			case na && nb:
				continue
			case na != nb:
				if na == ik.nfst {
					return -1
				}
				return 1
			}
			x, y := ik.v[a], ik.v[b]
			if x == y {
				continue
			}
			if (x < y) != ik.desc {
				return -1
			}
			return 1
		}
		return 0
	}
}

// compare orders row i of keys a against row j of keys b by the sort keys.
func (o *sortOp) compare(a [][]types.Value, i int, b [][]types.Value, j int) int {
	for k := range a {
		if c := compareSortKey(o.spec[k], o.keyT[k], a[k][i], b[k][j]); c != 0 {
			return c
		}
	}
	return 0
}

// compareSortKey orders two values of one ORDER BY key by its rules:
// ascending or descending, NULLs first or last as resolved. Sort and Top-N
// Sort both order by it, so they agree on every tie.
func compareSortKey(key plan.SortKey, t types.Type, x, y types.Value) int {
	switch {
	case x.Null && y.Null:
		return 0
	case x.Null:
		if key.NullsFirst {
			return -1
		}
		return 1
	case y.Null:
		if key.NullsFirst {
			return 1
		}
		return -1
	}
	c := compareValues(x, y, t)
	if key.Desc {
		c = -c
	}
	return c
}

// run sorts the input into runs and returns the emitter of their merge.
func (x *sortExec) run(ctx context.Context) (func() (arrow.Record, error), error) {
	o := x.o
	part, err := Drain(ctx, o.in, x)
	if err != nil {
		return nil, err
	}
	runs := part.runs
	nin := len(o.in.Columns())
	schema := schemaOf(o.in.Columns())
	outOf := func(rec arrow.Record) arrow.Record {
		return array.NewRecord(schema, rec.Columns()[:nin], rec.NumRows())
	}
	if len(runs) > 1 && allInMemory(runs) {
		merged, err := x.mergeInMemory(ctx, runs)
		if err != nil {
			return nil, err
		}
		if merged != nil {
			runs = []*sortRun{merged}
		}
	}
	switch len(runs) {
	case 0:
		return nil, nil
	case 1:
		if runs[0].file == nil { // everything sorted in memory at once
			c := runs[0].cursor(o.size)
			return func() (arrow.Record, error) {
				rec, err := c.nextBatch()
				if err == io.EOF {
					return nil, nil
				}
				if err != nil {
					return nil, err
				}
				return outOf(rec), nil
			}, nil
		}
	}
	// Too many runs to read at once: merge neighbours, sortFanIn at a
	// time, into longer runs (neighbours, so ties keep their order), after
	// writing the in-memory runs out too.
	if len(runs) > sortFanIn {
		for i, r := range runs {
			if r.file == nil {
				f, err := x.writeRun(ctx, r)
				if err != nil {
					return nil, err
				}
				runs[i] = &sortRun{file: f}
			}
		}
		x.release(x.held())
	}
	for len(runs) > sortFanIn {
		var next []*sortRun
		for at := 0; at < len(runs); at += sortFanIn {
			group := runs[at:min(at+sortFanIn, len(runs))]
			if len(group) == 1 {
				next = append(next, group[0])
				continue
			}
			merged, err := x.mergeToFile(ctx, group)
			if err != nil {
				return nil, err
			}
			next = append(next, merged)
		}
		runs = next
	}
	m, err := x.newMerge(runs)
	if err != nil {
		return nil, err
	}
	return func() (arrow.Record, error) {
		rec, err := m.next(ctx)
		if err != nil || rec == nil {
			return nil, err
		}
		return outOf(rec), nil
	}, nil
}

// held is the memory the execution holds reserved.
func (x *sortExec) held() int64 { return x.acct.Held() }

// mergeToFile merges spilled runs into a new one and removes their files.
func (x *sortExec) mergeToFile(ctx context.Context, sub []*sortRun) (*sortRun, error) {
	m, err := x.newMerge(sub)
	if err != nil {
		return nil, err
	}
	defer m.close()
	f, err := x.create()
	if err != nil {
		return nil, err
	}
	for {
		rec, err := m.next(ctx)
		if err != nil {
			return nil, err
		}
		if rec == nil {
			break
		}
		if err := f.Write(rec); err != nil {
			return nil, err
		}
	}
	if err := f.Finish(); err != nil {
		return nil, err
	}
	x.o.spilled.Count(f)
	for _, r := range sub {
		r.file.Remove()
	}
	return &sortRun{file: f}, nil
}

// runCursor reads a run in order, one batch at a time.
type runCursor struct {
	run  *sortRun
	size int
	at   int           // in-memory: next position in perm
	rd   *spill.Reader // spilled
}

func (r *sortRun) cursor(size int) *runCursor { return &runCursor{run: r, size: size} }

// nextBatch returns the run's next batch (of runSchema), io.EOF at the end.
func (c *runCursor) nextBatch() (arrow.Record, error) {
	r := c.run
	if r.file != nil {
		if c.rd == nil {
			rd, err := r.file.Open()
			if err != nil {
				return nil, err
			}
			c.rd = rd
		}
		return c.rd.Next()
	}
	if c.at >= len(r.perm) {
		return nil, io.EOF
	}
	end := min(c.at+c.size, len(r.perm))
	out := takeRecord(r.rec, r.perm[c.at:end])
	c.at = end
	return out, nil
}

func (c *runCursor) close() {
	if c.rd != nil {
		c.rd.Close()
		c.rd = nil
	}
}

// mergeSrc is one run in a merge: its current batch and row.
type mergeSrc struct {
	ord  int // the run's position: ties go to the earlier run
	cur  *runCursor
	rec  arrow.Record
	keys [][]types.Value
	row  int
}

// load reads the source's next batch; false at the run's end.
func (s *mergeSrc) load(o *sortOp) (bool, error) {
	rec, err := s.cur.nextBatch()
	if err == io.EOF {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	nin := len(o.in.Columns())
	n := int(rec.NumRows())
	s.rec, s.row = rec, 0
	s.keys = make([][]types.Value, len(o.keys))
	for k := range o.keys {
		arr, t := rec.Column(nin+k), o.keyT[k]
		vals := make([]types.Value, n)
		for i := range vals {
			vals[i] = types.GetValue(arr, t, i)
		}
		s.keys[k] = vals
	}
	return true, nil
}

// merger is a k-way merge of runs: a heap of their sources.
type merger struct {
	o    *sortOp
	srcs []*mergeSrc
	all  []*mergeSrc
}

func (x *sortExec) newMerge(runs []*sortRun) (*merger, error) {
	m := &merger{o: x.o}
	for i, r := range runs {
		s := &mergeSrc{ord: i, cur: r.cursor(x.o.size)}
		m.all = append(m.all, s)
		ok, err := s.load(x.o)
		if err != nil {
			m.close()
			return nil, err
		}
		if ok {
			m.srcs = append(m.srcs, s)
		}
	}
	heap.Init(m)
	return m, nil
}

func (m *merger) Len() int { return len(m.srcs) }
func (m *merger) Less(a, b int) bool {
	x, y := m.srcs[a], m.srcs[b]
	if c := m.o.compare(x.keys, x.row, y.keys, y.row); c != 0 {
		return c < 0
	}
	return x.ord < y.ord
}
func (m *merger) Swap(a, b int) { m.srcs[a], m.srcs[b] = m.srcs[b], m.srcs[a] }
func (m *merger) Push(v any)    { m.srcs = append(m.srcs, v.(*mergeSrc)) }
func (m *merger) Pop() any {
	v := m.srcs[len(m.srcs)-1]
	m.srcs = m.srcs[:len(m.srcs)-1]
	return v
}

// next returns the merge's next batch (of runSchema), nil at the end.
func (m *merger) next(ctx context.Context) (arrow.Record, error) {
	if len(m.srcs) == 0 {
		m.close()
		return nil, nil
	}
	if err := checkCtx(ctx); err != nil {
		return nil, err
	}
	fs := m.o.runSchema.Fields()
	bs := make([]array.Builder, len(fs))
	for i, f := range fs {
		bs[i] = array.NewBuilder(mem, f.Type)
		bs[i].Reserve(m.o.size)
	}
	n := 0
	for n < m.o.size && len(m.srcs) > 0 {
		s := m.srcs[0]
		for c, b := range bs {
			appendFrom(b, s.rec.Column(c), s.row)
		}
		n++
		s.row++
		if s.row >= int(s.rec.NumRows()) {
			ok, err := s.load(m.o)
			if err != nil {
				return nil, err
			}
			if !ok {
				s.cur.close()
				heap.Pop(m)
				continue
			}
		}
		heap.Fix(m, 0)
	}
	arrs := make([]arrow.Array, len(bs))
	for i, b := range bs {
		arrs[i] = b.NewArray()
	}
	return array.NewRecord(m.o.runSchema, arrs, int64(n)), nil
}

func (m *merger) close() {
	for _, s := range m.all {
		s.cur.close()
	}
}
