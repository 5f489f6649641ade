package operators

import (
	"container/heap"
	"context"
	"math"
	"sort"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/joind/joind/operators/spill"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// Top-N: ORDER BY ... LIMIT n [OFFSET m] without sorting the whole input.
// Each input partition keeps the n+m first rows it has seen in a bounded
// heap (its worst kept row on top, so a row that does not beat it costs one
// comparison); the partitions' heaps are merged and the survivors sorted.
//
// The answer is exactly the full sort's (NewSort, then NewLimit): rows that
// tie on every key are ordered by where the full sort's stable sort puts
// them, their position in the gathered input (partition order, then stream
// order: Collect's), which every kept row carries as its tiebreak. Every
// input row's keys are evaluated, as the full sort does, so the same errors
// arise.

// topnCompactAt is how many input batches the kept rows may reference
// before they are copied into one batch of their own (memory stays bounded
// by that, not by the input).
const topnCompactAt = 16

type topNOp struct {
	in            Operator
	keys          []*Compiled
	spec          []plan.SortKey
	count, offset int64
	size          int
	space         *spill.Space
	mem           spill.Stats
}

var _ Operator = (*topNOp)(nil)

// ExplainNote is EXPLAIN ANALYZE's note: the kept rows' peak memory.
func (o *topNOp) ExplainNote() string { return o.mem.Note() }

// NewTopN orders the rows of every partition of in by keys (as NewSort) and
// returns rows offset+1 .. offset+count of that order as one partition.
// count must be positive; the heap holds count+offset rows per partition
// (the planner bounds that).
func NewTopN(in Operator, keys []plan.SortKey, count, offset int64, env *Env) (Operator, error) {
	if count <= 0 || offset < 0 || count > math.MaxInt32 || offset > math.MaxInt32 {
		return nil, errPlan("top-N bound %d offset %d out of range", count, offset)
	}
	op := &topNOp{in: in, spec: keys, count: count, offset: offset, size: batchSize(env),
		space: spaceOf(env), mem: spill.Stats{Kind: spill.KindTopN}}
	for _, k := range keys {
		c, err := Compile(k.Expr, in.Columns(), env)
		if err != nil {
			return nil, err
		}
		op.keys = append(op.keys, c)
	}
	return op, nil
}

func (o *topNOp) Columns() []plan.Column { return o.in.Columns() }
func (o *topNOp) Partitions() int        { return 1 }

func (o *topNOp) Open(ctx context.Context, _ int) (Stream, error) {
	acct := o.space.NewAccount().Track(&o.mem)
	bs := newBreakerStream(ctx, func(ctx context.Context) (func() (arrow.Record, error), error) { return o.run(ctx, acct) })
	bs.cleanup = acct.Close
	return bs, nil
}

// topRow is one kept row: its sort key values, its place in the gathered
// input (the tiebreak) and where its columns are.
type topRow struct {
	keys []types.Value
	part int
	seq  int64
	rec  arrow.Record
	row  int
}

// topHeap is one partition's kept rows, a max-heap under the sort order:
// its root is the row the next better row evicts.
type topHeap struct {
	op    *topNOp
	rows  []*topRow
	part  int
	seq   int64
	limit int
	refs  map[arrow.Record]int // kept rows per referenced batch
	held  int64                // the bytes counted for them
}

// topRowBytes is a kept row's own memory: its topRow and boxed keys.
func (o *topNOp) topRowBytes() int64 { return 64 + 32*int64(len(o.keys)) }

// account counts what h holds now against acct, past the limit failing
// with 53200: its rows, each with its columns at width bytes (the input
// batches the rows still point into are the scan's, not copies; the
// compacted batch is h's own).
func (h *topHeap) account(acct *spill.Account, width int64) error {
	now := int64(len(h.rows)) * (h.op.topRowBytes() + width)
	if now < h.held {
		acct.Release(h.held - now)
		h.held = now
		return nil
	}
	if err := acct.Hold(now-h.held, "TopN"); err != nil {
		return err
	}
	h.held = now
	return nil
}

func (h *topHeap) Len() int           { return len(h.rows) }
func (h *topHeap) Less(i, j int) bool { return h.op.less(h.rows[j], h.rows[i]) }
func (h *topHeap) Swap(i, j int)      { h.rows[i], h.rows[j] = h.rows[j], h.rows[i] }
func (h *topHeap) Push(x any)         { h.rows = append(h.rows, x.(*topRow)) }
func (h *topHeap) Pop() any {
	r := h.rows[len(h.rows)-1]
	h.rows = h.rows[:len(h.rows)-1]
	return r
}

// offer keeps r if it is among the limit first rows seen so far, and
// reports whether it did (a row not kept may be reused by the caller).
func (h *topHeap) offer(r *topRow) bool {
	if len(h.rows) < h.limit {
		heap.Push(h, r)
		h.refs[r.rec]++
		return true
	}
	worst := h.rows[0]
	if !h.op.less(r, worst) {
		return false
	}
	h.release(worst)
	h.rows[0] = r
	heap.Fix(h, 0)
	h.refs[r.rec]++
	return true
}

func (h *topHeap) release(r *topRow) {
	if h.refs[r.rec]--; h.refs[r.rec] == 0 {
		delete(h.refs, r.rec)
	}
}

// compact copies the kept rows into one batch, so that the input batches
// they came from can be freed.
func (h *topHeap) compact() {
	if len(h.refs) <= topnCompactAt {
		return
	}
	recs := make([]arrow.Record, 0, len(h.refs))
	byRec := map[arrow.Record][]*topRow{}
	for _, r := range h.rows {
		if _, ok := byRec[r.rec]; !ok {
			recs = append(recs, r.rec)
		}
		byRec[r.rec] = append(byRec[r.rec], r)
	}
	parts := make([]arrow.Record, len(recs))
	var order []*topRow
	for i, rec := range recs {
		rows := byRec[rec]
		idx := make([]int, len(rows))
		for j, r := range rows {
			idx[j] = r.row
		}
		parts[i] = takeRecord(rec, idx)
		order = append(order, rows...)
	}
	one, err := concatRecords(schemaOf(h.op.in.Columns()), parts)
	if err != nil || one == nil {
		return // keep referencing the input batches: correct, only larger
	}
	for i, r := range order {
		r.rec, r.row = one, i
	}
	h.refs = map[arrow.Record]int{one: len(order)}
}

// less is the full sort's order (NewSort's comparison), ties broken by
// input position.
func (o *topNOp) less(a, b *topRow) bool {
	if c := compareSortKeys(o.spec, o.keys, a.keys, b.keys); c != 0 {
		return c < 0
	}
	if a.part != b.part {
		return a.part < b.part
	}
	return a.seq < b.seq
}

// compareSortKeys compares two rows' key values, key by key.
func compareSortKeys(spec []plan.SortKey, keys []*Compiled, a, b []types.Value) int {
	for k := range spec {
		if c := compareSortKey(spec[k], keys[k].Type(), a[k], b[k]); c != 0 {
			return c
		}
	}
	return 0
}

// topSink is the Drain sink: a bounded heap per partition, merged, its
// memory counted against acct.
type topSink struct {
	op   *topNOp
	acct *spill.Account
}

func (s topSink) Init(p int) *topHeap {
	return &topHeap{op: s.op, part: p, limit: int(min(s.op.count, math.MaxInt64-s.op.offset) + s.op.offset), refs: map[arrow.Record]int{}}
}

func (s topSink) Consume(ctx context.Context, h *topHeap, rec arrow.Record) error {
	n := int(rec.NumRows())
	cols := make([]arrow.Array, len(s.op.keys))
	for k, c := range s.op.keys {
		arr, err := c.Eval(ctx, rec)
		if err != nil {
			return err
		}
		cols[k] = arr
	}
	cand := &topRow{part: h.part}
	for i := 0; i < n; i++ {
		if cand.keys == nil {
			cand.keys = make([]types.Value, len(cols))
		}
		for k, arr := range cols {
			cand.keys[k] = types.GetValue(arr, s.op.keys[k].Type(), i)
		}
		cand.seq, cand.rec, cand.row = h.seq, rec, i
		h.seq++
		if h.offer(cand) {
			cand = &topRow{part: h.part}
		}
	}
	h.compact()
	return h.account(s.acct, rowWidth(rec))
}

// rowWidth is rec's average bytes a row.
func rowWidth(rec arrow.Record) int64 {
	if rec.NumRows() == 0 {
		return 0
	}
	return spill.RecordBytes(rec) / rec.NumRows()
}

func (s topSink) Combine(dst, src *topHeap) error {
	for _, r := range src.rows {
		dst.offer(r)
	}
	dst.held += src.held
	var width int64
	if len(src.rows) > 0 {
		width = rowWidth(src.rows[0].rec)
	}
	return dst.account(s.acct, width)
}

func (o *topNOp) run(ctx context.Context, acct *spill.Account) (func() (arrow.Record, error), error) {
	h, err := Drain(ctx, o.in, topSink{op: o, acct: acct})
	if err != nil {
		return nil, err
	}
	rows := h.rows
	sort.Slice(rows, func(i, j int) bool { return o.less(rows[i], rows[j]) })
	if int64(len(rows)) <= o.offset {
		return nil, nil
	}
	rows = rows[o.offset:]
	schema := schemaOf(o.in.Columns())
	at := 0
	return func() (arrow.Record, error) {
		if at >= len(rows) {
			return nil, nil
		}
		end := min(at+o.size, len(rows))
		// Consecutive rows of one batch are taken together.
		var parts []arrow.Record
		for i := at; i < end; {
			j := i
			idx := []int{}
			for j < end && rows[j].rec == rows[i].rec {
				idx = append(idx, rows[j].row)
				j++
			}
			parts = append(parts, takeRecord(rows[i].rec, idx))
			i = j
		}
		at = end
		return concatRecords(schema, parts)
	}, nil
}
