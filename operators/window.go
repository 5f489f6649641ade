package operators

import (
	"context"
	"math"
	"math/big"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/cockroachdb/apd/v3"
	"github.com/joind/joind/operators/spill"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// windowOp is PostgreSQL's WindowAgg. Each of its partitions sorts its
// input partition (the existing sort, spilling past the memory limit) by
// PARTITION BY then ORDER BY, and evaluates every function over each
// window partition. The planner hash-repartitions the input on the
// PARTITION BY keys, so a window partition never spans two partitions;
// without PARTITION BY the sort gathers all input partitions into one.
//
// Frames cost O(n) or O(n log n) per window partition: frame ends move by
// monotone pointers (PostgreSQL's update_frameheadpos/tailpos); count,
// sum and avg of integers read prefix sums, numeric sum/avg and
// bool_and/bool_or prefix sums too (windowmoving.go: PostgreSQL's inverse
// transitions make their results functions of the frame's rows), min and
// max a segment tree, and a frame that starts at the partition's start
// folds rows into one running accumulator. float sum/avg and any other
// aggregate under a moving frame start are recomputed over the frame, as
// PostgreSQL does for an aggregate without an inverse transition: float
// sums must add in PostgreSQL's order (left to right from the frame head)
// to give its last digits, so windowmoving.go re-adds them over the
// unboxed float64 column.
type windowOp struct {
	in        Operator
	x         *plan.Window
	parts     int
	presorted bool
	env       *Env
	size      int
	partKeys  []*Compiled
	orderKeys []*Compiled
	sortKeys  []plan.SortKey
	funcs     []*windowFn
	schema    *arrow.Schema
	mem       spill.Stats
}

// windowBoxedBytes is what evaluating one function holds per row: its
// boxed argument and result values.
const windowBoxedBytes = 64

// ExplainNote is EXPLAIN ANALYZE's note: the sorted rows' and results'
// peak memory (each input partition's sorted rows are held whole while
// the functions are evaluated; past the memory limit, 53200).
func (o *windowOp) ExplainNote() string { return o.mem.Note() }

type windowFn struct {
	plan.WindowFunc
	args       []*Compiled
	filter     *Compiled
	rangeKey   *Compiled
	start, end *Compiled
	result     types.Type
}

// NewWindow builds the window operator for x with the given number of
// partitions (1, or its input's when the input is hash-partitioned on x's
// PARTITION BY).
//
// presorted says each input partition arrives in the window's order already
// (a window below sorted it): the operator then reads it without sorting.
func NewWindow(in Operator, x *plan.Window, partitions int, presorted bool, env *Env) (Operator, error) {
	op := &windowOp{in: in, x: x, parts: partitions, presorted: presorted, env: env, size: batchSize(env), schema: schemaOf(x.Cols),
		mem: spill.Stats{Kind: spill.KindWindow}}
	if partitions != 1 && partitions != in.Partitions() {
		return nil, errPlan("window: %d partitions over an input of %d", partitions, in.Partitions())
	}
	cols := in.Columns()
	compile := func(e plan.Expr) (*Compiled, error) {
		if e == nil {
			return nil, nil
		}
		return Compile(e, cols, env)
	}
	for _, e := range x.PartitionBy {
		c, err := compile(e)
		if err != nil {
			return nil, err
		}
		op.partKeys = append(op.partKeys, c)
		op.sortKeys = append(op.sortKeys, plan.SortKey{Expr: e})
	}
	for _, k := range x.OrderBy {
		c, err := compile(k.Expr)
		if err != nil {
			return nil, err
		}
		op.orderKeys = append(op.orderKeys, c)
		op.sortKeys = append(op.sortKeys, k)
	}
	fcols := x.FuncColumns()
	for i, f := range x.Funcs {
		wf := &windowFn{WindowFunc: f, result: fcols[i].Type}
		wf.Agg = f.Agg.WithSession(evalEnv(env)) // a copy: the plan's is shared
		for _, a := range f.Args {
			c, err := compile(a)
			if err != nil {
				return nil, err
			}
			wf.args = append(wf.args, c)
		}
		var err error
		if wf.filter, err = compile(f.Filter); err != nil {
			return nil, err
		}
		if wf.rangeKey, err = compile(f.Frame.RangeKey); err != nil {
			return nil, err
		}
		if wf.start, err = compile(f.Frame.Start.Offset); err != nil {
			return nil, err
		}
		if wf.end, err = compile(f.Frame.End.Offset); err != nil {
			return nil, err
		}
		op.funcs = append(op.funcs, wf)
	}
	return op, nil
}

func (o *windowOp) Columns() []plan.Column { return o.x.Cols }
func (o *windowOp) Partitions() int        { return o.parts }

// openedPartition is one partition of an operator, opened already, as a
// one-partition operator, so a window partition's rows go through the
// ordinary sort. It is opened under the window's Open context: an exchange
// below runs under the context of its first Open, which must outlive the
// sort's own drain.
type openedPartition struct {
	in     Operator
	stream Stream
}

func (v openedPartition) Columns() []plan.Column { return v.in.Columns() }
func (v openedPartition) Partitions() int        { return 1 }
func (v openedPartition) Open(context.Context, int) (Stream, error) {
	return v.stream, nil
}

func (o *windowOp) Open(ctx context.Context, p int) (Stream, error) {
	var src Operator = o.in
	if o.parts > 1 {
		st, err := o.in.Open(ctx, p)
		if err != nil {
			return nil, err
		}
		src = openedPartition{in: o.in, stream: st}
	}
	var sorted Operator = src
	if !o.presorted && (len(o.sortKeys) > 0 || src.Partitions() > 1) {
		var err error
		if sorted, err = NewSort(src, o.sortKeys, o.env); err != nil {
			return nil, err
		}
	}
	acct := spaceOf(o.env).NewAccount().Track(&o.mem)
	bs := newBreakerStream(ctx, func(ctx context.Context) (func() (arrow.Record, error), error) {
		recs, err := collectHeld(ctx, sorted, acct, "WindowAgg")
		if err != nil {
			return nil, err
		}
		if len(recs) > 1 { // concatenated: a copy while the batches live
			var n int64
			for _, r := range recs {
				n += spill.RecordBytes(r)
			}
			if err := acct.Hold(n, "WindowAgg"); err != nil {
				return nil, err
			}
		}
		rec, err := concatRecords(schemaOf(o.in.Columns()), recs)
		if err != nil || rec == nil {
			return nil, err
		}
		// Evaluation boxes each function's arguments and results per row.
		if err := acct.Hold(rec.NumRows()*windowBoxedBytes*int64(len(o.funcs)), "WindowAgg"); err != nil {
			return nil, err
		}
		out, err := o.evaluate(ctx, rec)
		if err != nil {
			return nil, err
		}
		var outBytes int64
		for _, a := range out {
			outBytes += spill.ArrayBytes(a)
		}
		if err := acct.Hold(outBytes, "WindowAgg"); err != nil {
			return nil, err
		}
		n, at := int(rec.NumRows()), 0
		return func() (arrow.Record, error) {
			if at >= n {
				return nil, nil
			}
			end := min(at+o.size, n)
			arrs := make([]arrow.Array, 0, len(o.x.Cols))
			for _, c := range rec.Columns() {
				arrs = append(arrs, array.NewSlice(c, int64(at), int64(end)))
			}
			for _, a := range out {
				arrs = append(arrs, array.NewSlice(a, int64(at), int64(end)))
			}
			r := array.NewRecord(o.schema, arrs, int64(end-at))
			at = end
			return r, nil
		}, nil
	})
	bs.cleanup = acct.Close
	return bs, nil
}

// windowRows is the sorted rows' structure: window partitions and peer
// groups (PostgreSQL's peers: equal in every ORDER BY key).
type windowRows struct {
	n      int
	partLo []int // per row: its window partition's first row
	partHi []int // per row: one past its partition's last row
	peerLo []int // per row: its peer group's first row
	peerHi []int
	group  []int // per row: its peer group's number within the partition
	// groupFirst is the first row of every peer group of the input, in
	// order, then n (a partition's first row starts a group).
	groupFirst []int
}

func (o *windowOp) values(ctx context.Context, c *Compiled, rec arrow.Record) ([]types.Value, error) {
	arr, err := c.Eval(ctx, rec)
	if err != nil {
		return nil, err
	}
	n := int(rec.NumRows())
	out := make([]types.Value, n)
	t := c.Type()
	for i := range out {
		out[i] = types.GetValue(arr, t, i)
	}
	return out, nil
}

func sameKey(a, b types.Value, t types.Type) bool {
	if a.Null || b.Null {
		return a.Null && b.Null
	}
	return types.Compare(a, b, t) == 0
}

// keyChange is "row i's key differs from row i-1's" for one key column:
// over the int64 values of an integer-like column, else over boxed values.
func (o *windowOp) keyChange(ctx context.Context, c *Compiled, rec arrow.Record) (func(i int) bool, error) {
	arr, err := c.Eval(ctx, rec)
	if err != nil {
		return nil, err
	}
	if ic, ok := newIntColumn(arr); ok {
		if arr.NullN() == 0 {
			return func(i int) bool { return ic.at(i) != ic.at(i-1) }, nil
		}
		return func(i int) bool {
			na, nb := arr.IsNull(i-1), arr.IsNull(i)
			if na || nb {
				return na != nb
			}
			return ic.at(i) != ic.at(i-1)
		}, nil
	}
	t := c.Type()
	n := int(rec.NumRows())
	vals := make([]types.Value, n)
	for i := range vals {
		vals[i] = types.GetValue(arr, t, i)
	}
	return func(i int) bool { return !sameKey(vals[i-1], vals[i], t) }, nil
}

func (o *windowOp) structure(ctx context.Context, rec arrow.Record) (*windowRows, error) {
	n := int(rec.NumRows())
	w := &windowRows{n: n, partLo: make([]int, n), partHi: make([]int, n), peerLo: make([]int, n), peerHi: make([]int, n),
		group: make([]int, n)}
	changes := func(cs []*Compiled) ([]func(int) bool, error) {
		var out []func(int) bool
		for _, c := range cs {
			f, err := o.keyChange(ctx, c, rec)
			if err != nil {
				return nil, err
			}
			out = append(out, f)
		}
		return out, nil
	}
	pc, err := changes(o.partKeys)
	if err != nil {
		return nil, err
	}
	oc, err := changes(o.orderKeys)
	if err != nil {
		return nil, err
	}
	differ := func(fs []func(int) bool, i int) bool {
		for _, f := range fs {
			if f(i) {
				return true
			}
		}
		return false
	}
	lo, plo := 0, 0
	g := 0
	for i := 0; i <= n; i++ {
		newPart := i == n || (i > 0 && differ(pc, i))
		newPeer := newPart || (i > 0 && differ(oc, i))
		if i > 0 && newPeer {
			for j := plo; j < i; j++ {
				w.peerLo[j], w.peerHi[j] = plo, i
			}
			w.groupFirst = append(w.groupFirst, plo)
			plo = i
			g++
		}
		if i > 0 && newPart {
			for j := lo; j < i; j++ {
				w.partLo[j], w.partHi[j] = lo, i
			}
			lo, g = i, 0
		}
		if i < n {
			w.group[i] = g
		}
		if i%65536 == 0 {
			if err := checkCtx(ctx); err != nil {
				return nil, err
			}
		}
	}
	w.groupFirst = append(w.groupFirst, n)
	return w, nil
}

// evaluate computes every function's column over the sorted rows.
func (o *windowOp) evaluate(ctx context.Context, rec arrow.Record) ([]arrow.Array, error) {
	w, err := o.structure(ctx, rec)
	if err != nil {
		return nil, err
	}
	out := make([]arrow.Array, len(o.funcs))
	for k, f := range o.funcs {
		if f.Agg == nil {
			if a := rankColumn(f, w); a != nil {
				out[k] = a
				continue
			}
		} else {
			a, err := o.prefixColumn(ctx, f, w, rec)
			if err != nil {
				return nil, err
			}
			if a != nil {
				out[k] = a
				continue
			}
			if a, err = o.movingColumn(ctx, f, w, rec); err != nil {
				return nil, err
			}
			if a != nil {
				out[k] = a
				continue
			}
		}
		vals, err := o.evalFunc(ctx, f, w, rec)
		if err != nil {
			return nil, err
		}
		b := newBuilder(f.result, w.n)
		for _, v := range vals {
			types.AppendValue(b, f.result, v)
		}
		out[k] = b.NewArray()
	}
	return out, nil
}

func (o *windowOp) evalFunc(ctx context.Context, f *windowFn, w *windowRows, rec arrow.Record) ([]types.Value, error) {
	args := make([][]types.Value, len(f.args))
	for i, c := range f.args {
		v, err := o.values(ctx, c, rec)
		if err != nil {
			return nil, err
		}
		args[i] = v
	}
	res := make([]types.Value, w.n)
	if f.Agg == nil && !usesFrame(f.Name) {
		return res, o.rankLike(f, w, args, res)
	}
	fr, err := o.frames(ctx, f, w, rec)
	if err != nil {
		return nil, err
	}
	if f.Agg == nil {
		return res, valueAt(f, w, fr, args, res)
	}
	var filter []types.Value
	if f.filter != nil {
		if filter, err = o.values(ctx, f.filter, rec); err != nil {
			return nil, err
		}
	}
	return res, aggregateFrames(ctx, f, w, fr, args, filter, res)
}

func usesFrame(name string) bool {
	return name == "first_value" || name == "last_value" || name == "nth_value"
}

// rankLike evaluates the functions that ignore the frame.
func (o *windowOp) rankLike(f *windowFn, w *windowRows, args [][]types.Value, res []types.Value) error {
	for i := 0; i < w.n; i++ {
		lo, hi := w.partLo[i], w.partHi[i]
		switch f.Name {
		case "row_number":
			res[i] = types.Value{I: int64(i - lo + 1)}
		case "rank":
			res[i] = types.Value{I: int64(w.peerLo[i] - lo + 1)}
		case "dense_rank":
			res[i] = types.Value{I: int64(w.group[i] + 1)}
		case "percent_rank":
			if hi-lo <= 1 {
				res[i] = types.Value{F: 0}
			} else {
				res[i] = types.Value{F: float64(w.peerLo[i]-lo) / float64(hi-lo-1)}
			}
		case "cume_dist":
			res[i] = types.Value{F: float64(w.peerHi[i]-lo) / float64(hi-lo)}
		case "ntile":
			// The bucket count is read at the partition's first row.
			nb := args[0][lo]
			if nb.Null {
				res[i] = types.NullValue
				continue
			}
			if nb.I <= 0 {
				return pgerr.New("22014", "argument of ntile must be greater than zero")
			}
			total, pos := int64(hi-lo), int64(i-lo)
			per, extra := total/nb.I, total%nb.I
			// The first `extra` buckets hold per+1 rows.
			var b int64
			if pos < extra*(per+1) {
				b = pos / (per + 1)
			} else {
				b = extra + (pos-extra*(per+1))/max(per, 1)
			}
			res[i] = types.Value{I: b + 1}
		case "lag", "lead":
			off := int64(1)
			if len(args) > 1 {
				if args[1][i].Null {
					res[i] = types.NullValue
					continue
				}
				off = args[1][i].I
			}
			if f.Name == "lag" {
				off = -off
			}
			j := int64(i) + off
			switch {
			case j >= int64(lo) && j < int64(hi):
				res[i] = args[0][j]
			case len(args) > 2:
				res[i] = args[2][i]
			default:
				res[i] = types.NullValue
			}
		default:
			return pgerr.New(pgerr.InternalError, "window: unknown function %s", f.Name)
		}
	}
	return nil
}

// span is a half-open row range.
type span struct{ lo, hi int }

// frameSet is every row's frame: [start, end) less the excluded rows.
type frameSet struct {
	start, end []int
	exclude    plan.Exclusion
	w          *windowRows
}

// spans lists row i's frame as at most three ranges, in row order.
func (fs *frameSet) spans(i int, buf []span) []span {
	buf = buf[:0]
	s, e := fs.start[i], fs.end[i]
	if s >= e {
		return buf
	}
	var xlo, xhi int
	keep := -1
	switch fs.exclude {
	case plan.ExcludeNoOthers:
		return append(buf, span{s, e})
	case plan.ExcludeCurrentRow:
		xlo, xhi = i, i+1
	case plan.ExcludeGroup:
		xlo, xhi = fs.w.peerLo[i], fs.w.peerHi[i]
	case plan.ExcludeTies:
		xlo, xhi, keep = fs.w.peerLo[i], fs.w.peerHi[i], i
	}
	if s < min(e, xlo) {
		buf = append(buf, span{s, min(e, xlo)})
	}
	if keep >= s && keep < e {
		buf = append(buf, span{keep, keep + 1})
	}
	if max(s, xhi) < e {
		buf = append(buf, span{max(s, xhi), e})
	}
	return buf
}

// offsetValue evaluates a frame offset once (it reads no column).
func (o *windowOp) offsetValue(ctx context.Context, c *Compiled, rec arrow.Record) (types.Value, error) {
	arr, err := c.Eval(ctx, rec.NewSlice(0, 1))
	if err != nil {
		return types.Value{}, err
	}
	return types.GetValue(arr, c.Type(), 0), nil
}

// frames computes every row's frame start and end.
func (o *windowOp) frames(ctx context.Context, f *windowFn, w *windowRows, rec arrow.Record) (*frameSet, error) {
	fr := f.Frame
	fs := &frameSet{start: make([]int, w.n), end: make([]int, w.n), exclude: fr.Exclude, w: w}
	var startOff, endOff types.Value
	var err error
	check := func(c *Compiled, what string) (types.Value, error) {
		if c == nil {
			return types.Value{}, nil
		}
		v, err := o.offsetValue(ctx, c, rec)
		if err != nil {
			return v, err
		}
		if v.Null {
			return v, pgerr.New("22004", "frame %s offset must not be null", what)
		}
		if fr.Mode != plan.FrameRange {
			if v.I < 0 {
				return v, pgerr.New("22013", "frame %s offset must not be negative", what)
			}
		} else if negativeOffset(v, c.Type()) {
			return v, pgerr.New("22013", "invalid preceding or following size in window function")
		}
		return v, nil
	}
	if startOff, err = check(f.start, "starting"); err != nil {
		return nil, err
	}
	if endOff, err = check(f.end, "ending"); err != nil {
		return nil, err
	}
	var keys []types.Value
	if fr.Mode == plan.FrameRange && f.rangeKey != nil {
		if keys, err = o.values(ctx, f.rangeKey, rec); err != nil {
			return nil, err
		}
	}
	asc, nullsFirst := true, false
	if len(o.x.OrderBy) > 0 {
		asc, nullsFirst = !o.x.OrderBy[0].Desc, o.x.OrderBy[0].NullsFirst
	}
	head, tail := 0, 0
	for i := 0; i < w.n; i++ {
		if lo := w.partLo[i]; i == lo {
			head, tail = lo, lo
		}
		var err error
		if fs.start[i], err = frameBound(fr, w, keys, f.rangeKey, i, fr.Start, startOff, &head, false, asc, nullsFirst); err != nil {
			return nil, err
		}
		if fs.end[i], err = frameBound(fr, w, keys, f.rangeKey, i, fr.End, endOff, &tail, true, asc, nullsFirst); err != nil {
			return nil, err
		}
	}
	return fs, nil
}

// frameBound is row i's frame start (end false) or one past its end (end
// true) for bound b; pos is the RANGE offset search's position for this
// end, kept across the rows of a partition.
func frameBound(fr plan.Frame, w *windowRows, keys []types.Value, rangeKey *Compiled, i int, b plan.FrameBound, off types.Value,
	pos *int, end, asc, nullsFirst bool) (int, error) {
	plus := int64(0)
	if end {
		plus = 1
	}
	switch b.Kind {
	case plan.UnboundedPreceding:
		return w.partLo[i], nil
	case plan.UnboundedFollowing:
		return w.partHi[i], nil
	case plan.CurrentRow:
		switch {
		case fr.Mode == plan.FrameRows:
			return i + int(plus), nil
		case end:
			return w.peerHi[i], nil
		}
		return w.peerLo[i], nil
	}
	if fr.Mode != plan.FrameRange {
		return offsetBound(fr.Mode, w, i, signedOffset(b, off), plus), nil
	}
	var err error
	*pos, err = rangeBound(fr, rangeKey.Type(), keys, *pos, w.partHi[i], i, off, b.Kind == plan.OffsetPreceding, !end, asc, nullsFirst)
	return *pos, err
}

// rangeBound is PostgreSQL's RANGE offset search (update_frameheadpos /
// update_frametailpos): it advances pos, the frame head (head) or one past
// its tail, over row i's partition's sorted keys. Both ends only move
// forward as i does. A NULL key is a peer of NULLs only and sorts before or
// after every value as NULLS FIRST / LAST says.
func rangeBound(fr plan.Frame, t types.Type, keys []types.Value, pos, hi, i int, off types.Value, preceding, head, asc, nullsFirst bool) (int, error) {
	sub, less := preceding, !head
	if !asc {
		sub, less = !sub, !less
	}
	cv := keys[i]
	for ; pos < hi; pos++ {
		v := keys[pos]
		var stop bool
		if v.Null || cv.Null {
			if head { // stop unless the row sorts before the current one
				stop = v.Null != nullsFirst || v.Null == cv.Null
			} else { // stop at a row that sorts after it
				stop = v.Null != nullsFirst && v.Null != cv.Null
			}
		} else {
			in, err := inRange(fr, t, v, cv, off, sub, less)
			if err != nil {
				return 0, err
			}
			stop = in == head // a head stops in range, a tail past it
		}
		if stop {
			break
		}
	}
	return pos, nil
}

// signedOffset is a bound's offset, negative when PRECEDING.
func signedOffset(b plan.FrameBound, off types.Value) int64 {
	if b.Kind == plan.OffsetPreceding {
		return -off.I
	}
	return off.I
}

// offsetBound is the first row (plus 0) or one past the last row (plus 1)
// of the row or peer group off rows/groups from row i, within its partition.
func offsetBound(mode plan.FrameMode, w *windowRows, i int, off, plus int64) int {
	lo, hi := w.partLo[i], w.partHi[i]
	if mode == plan.FrameRows {
		return clampRow(int64(i)+off+plus, lo, hi)
	}
	return groupStart(w, lo, int64(w.group[i])+off+plus)
}

func clampRow(r int64, lo, hi int) int {
	return int(max(int64(lo), min(int64(hi), r)))
}

// groupStart is the first row of peer group g of the partition starting at
// lo (its end when g is past the last group, its start when g < 0).
func groupStart(w *windowRows, lo int, g int64) int {
	base, _ := slices.BinarySearch(w.groupFirst, lo)
	count := w.group[w.partHi[lo]-1] + 1 // the partition's peer groups
	switch {
	case g <= 0:
		return w.groupFirst[base]
	case g >= int64(count):
		return w.partHi[lo]
	}
	return w.groupFirst[base+int(g)]
}

func negativeOffset(v types.Value, t types.Type) bool {
	switch t.ID {
	case types.Float8, types.Float4:
		return math.IsNaN(v.F) || v.F < 0
	case types.Numeric:
		return v.Num != nil && (v.Num.Negative || v.Num.Form == apd.NaN)
	case types.Interval:
		return types.Compare(v, types.Value{}, t) < 0
	}
	return v.I < 0
}

// inRange is PostgreSQL's in_range support: val against base ± offset,
// val <= sum when less, val >= sum otherwise. A sum past the type's range
// is further than any value.
func inRange(fr plan.Frame, t types.Type, val, base, off types.Value, sub, less bool) (bool, error) {
	if t.ID == types.Float8 {
		switch {
		case math.IsNaN(val.F):
			return math.IsNaN(base.F) || !less, nil
		case math.IsNaN(base.F):
			return less, nil
		case math.IsInf(off.F, 0) && math.IsInf(base.F, 0) && ((sub && base.F > 0) || (!sub && base.F < 0)):
			return true, nil
		}
		sum := base.F + off.F
		if sub {
			sum = base.F - off.F
		}
		if less {
			return val.F <= sum, nil
		}
		return val.F >= sum, nil
	}
	if t.ID == types.Numeric {
		if r, done := inRangeNumericSpecial(val, base, off, sub, less); done {
			return r, nil
		}
	}
	op := fr.Add
	if sub {
		op = fr.Sub
	}
	sum, err := op.Eval(nil, []types.Value{base, off})
	if err != nil {
		if pe, ok := err.(*pgerr.Error); ok && pe.Code == "22003" {
			return sub != less, nil // overflow: sub ? !less : less
		}
		return false, err
	}
	c := types.Compare(val, sum, t)
	if less {
		return c <= 0, nil
	}
	return c >= 0, nil
}

// valueAt evaluates first_value, last_value and nth_value.
func valueAt(f *windowFn, w *windowRows, fs *frameSet, args [][]types.Value, res []types.Value) error {
	var buf []span
	for i := 0; i < w.n; i++ {
		buf = fs.spans(i, buf)
		res[i] = types.NullValue
		switch f.Name {
		case "first_value":
			if len(buf) > 0 {
				res[i] = args[0][buf[0].lo]
			}
		case "last_value":
			if len(buf) > 0 {
				res[i] = args[0][buf[len(buf)-1].hi-1]
			}
		case "nth_value":
			nv := args[1][i]
			if nv.Null {
				continue
			}
			if nv.I <= 0 {
				return pgerr.New("22016", "argument of nth_value must be greater than zero")
			}
			k := int(nv.I) - 1
			for _, s := range buf {
				if k < s.hi-s.lo {
					res[i] = args[0][s.lo+k]
					break
				}
				k -= s.hi - s.lo
			}
		}
	}
	return nil
}

// aggregateFrames evaluates an aggregate over every row's frame.
func aggregateFrames(ctx context.Context, f *windowFn, w *windowRows, fs *frameSet, args [][]types.Value, filter []types.Value, res []types.Value) error {
	included := func(i int) bool { return filter == nil || (!filter[i].Null && filter[i].I != 0) }
	if f.Frame.Start.Kind == plan.UnboundedPreceding && f.Frame.Exclude == plan.ExcludeNoOthers {
		return runningAggregate(ctx, f, w, fs, args, included, res)
	}
	if pf := newPrefixSums(f, w.n, args, included); pf != nil {
		var buf []span
		for i := 0; i < w.n; i++ {
			buf = fs.spans(i, buf)
			v, err := pf.result(buf)
			if err != nil {
				return err
			}
			res[i] = v
		}
		return nil
	}
	if st := newMinMaxTree(f, w.n, args, included); st != nil {
		var buf []span
		for i := 0; i < w.n; i++ {
			buf = fs.spans(i, buf)
			res[i] = st.query(buf)
		}
		return nil
	}
	// Recompute each frame, in row order.
	var buf []span
	row := make([]types.Value, len(args))
	for i := 0; i < w.n; i++ {
		if i%4096 == 0 {
			if err := checkCtx(ctx); err != nil {
				return err
			}
		}
		buf = fs.spans(i, buf)
		acc := f.Agg.New()
		for _, s := range buf {
			for j := s.lo; j < s.hi; j++ {
				if err := addRow(acc, args, row, j, included); err != nil {
					return err
				}
			}
		}
		v, err := acc.Result()
		if err != nil {
			return err
		}
		res[i] = v
	}
	return nil
}

// addRow folds row j's arguments into acc (row is the arguments' buffer)
// unless FILTER excludes it.
func addRow(acc types.Accumulator, args [][]types.Value, row []types.Value, j int, included func(int) bool) error {
	if !included(j) {
		return nil
	}
	for k := range args {
		row[k] = args[k][j]
	}
	return acc.Add(row)
}

// runningAggregate folds a frame that starts at its partition's start:
// the frame end only moves forward, so one accumulator per partition takes
// each row once.
func runningAggregate(ctx context.Context, f *windowFn, w *windowRows, fs *frameSet, args [][]types.Value, included func(int) bool, res []types.Value) error {
	var acc types.Accumulator
	added := 0
	row := make([]types.Value, len(args))
	var last types.Value
	lastEnd := -1
	for i := 0; i < w.n; i++ {
		if i == w.partLo[i] {
			acc, added, lastEnd = f.Agg.New(), i, -1
			if i%4096 == 0 {
				if err := checkCtx(ctx); err != nil {
					return err
				}
			}
		}
		e := max(fs.end[i], w.partLo[i])
		if e == lastEnd {
			res[i] = last
			continue
		}
		for ; added < e; added++ {
			if err := addRow(acc, args, row, added, included); err != nil {
				return err
			}
		}
		v, err := acc.Result()
		if err != nil {
			return err
		}
		// A numeric result may share the accumulator's state, which the
		// next Add changes: keep a copy for the peers that reuse it.
		if v.Num != nil {
			v.Num = new(apd.Decimal).Set(v.Num)
		}
		res[i], last, lastEnd = v, v, e
	}
	return nil
}

// prefixSums answers count, sum and avg of integers over any set of ranges
// by differences of prefix sums: int64 while the running sum fits, exact
// big integers when it does not.
type prefixSums struct {
	name string
	resT types.Type
	cnt  []int64
	sum  []int64    // nil for count, or when big is used
	big  []*big.Int // prefix sums past int64's range
}

func newPrefixSums(f *windowFn, n int, args [][]types.Value, included func(int) bool) *prefixSums {
	name := f.Agg.Name
	switch {
	case name == "count":
	case (name == "sum" || name == "avg") && len(f.Agg.Args) == 1 &&
		(f.Agg.Args[0].ID == types.Int2 || f.Agg.Args[0].ID == types.Int4 || f.Agg.Args[0].ID == types.Int8):
	default:
		return nil
	}
	p := &prefixSums{name: name, resT: f.Agg.Result, cnt: make([]int64, n+1)}
	counted := func(i int) bool { return included(i) && (len(args) == 0 || !args[0][i].Null) }
	for i := 0; i < n; i++ {
		p.cnt[i+1] = p.cnt[i]
		if counted(i) {
			p.cnt[i+1]++
		}
	}
	if name == "count" {
		return p
	}
	p.sum = make([]int64, n+1)
	for i := 0; i < n; i++ {
		v := int64(0)
		if counted(i) {
			v = args[0][i].I
		}
		s := p.sum[i] + v
		if (v > 0 && s < p.sum[i]) || (v < 0 && s > p.sum[i]) {
			p.sum = nil
			break
		}
		p.sum[i+1] = s
	}
	if p.sum == nil {
		p.big = make([]*big.Int, n+1)
		acc := new(big.Int)
		p.big[0] = new(big.Int)
		for i := 0; i < n; i++ {
			if counted(i) {
				acc.Add(acc, big.NewInt(args[0][i].I))
			}
			p.big[i+1] = new(big.Int).Set(acc)
		}
	}
	return p
}

func (p *prefixSums) result(spans []span) (types.Value, error) {
	var cnt int64
	for _, s := range spans {
		cnt += p.cnt[s.hi] - p.cnt[s.lo]
	}
	if p.name == "count" {
		return types.Value{I: cnt}, nil
	}
	if cnt == 0 {
		return types.NullValue, nil
	}
	small, fits := int64(0), p.sum != nil
	for _, s := range spans {
		if !fits {
			break
		}
		d := p.sum[s.hi] - p.sum[s.lo]
		n := small + d
		// Either step may leave int64's range: then add exactly below.
		fits = (d >= 0) == (p.sum[s.hi] >= p.sum[s.lo]) && (d <= 0 || n > small) && (d >= 0 || n < small)
		small = n
	}
	if fits && p.resT.ID != types.Numeric && p.name == "sum" {
		return types.Value{I: small}, nil
	}
	sum := big.NewInt(small)
	if !fits {
		sum.SetInt64(0)
		for _, s := range spans {
			if p.sum != nil {
				sum.Add(sum, big.NewInt(p.sum[s.hi]))
				sum.Sub(sum, big.NewInt(p.sum[s.lo]))
			} else {
				sum.Add(sum, p.big[s.hi])
				sum.Sub(sum, p.big[s.lo])
			}
		}
	}
	d := new(apd.Decimal)
	d.Coeff.SetMathBigInt(sum)
	if sum.Sign() < 0 {
		d.Coeff.Neg(&d.Coeff)
		d.Negative = true
	}
	switch {
	case p.name == "avg":
		return types.AvgNumeric(d, cnt)
	case p.resT.ID == types.Numeric:
		return types.Value{Num: d}, nil
	}
	if !sum.IsInt64() {
		return types.Value{}, pgerr.New("22003", "bigint out of range")
	}
	return types.Value{I: sum.Int64()}, nil
}

// minMaxTree is a segment tree of min or max over the rows (NULL and
// FILTERed-out rows are empty leaves).
type minMaxTree struct {
	size int
	t    types.Type
	max  bool
	node []types.Value
}

func newMinMaxTree(f *windowFn, n int, args [][]types.Value, included func(int) bool) *minMaxTree {
	if (f.Agg.Name != "min" && f.Agg.Name != "max") || len(args) != 1 {
		return nil
	}
	size := 1
	for size < n {
		size <<= 1
	}
	st := &minMaxTree{size: size, t: f.Agg.Result, max: f.Agg.Name == "max", node: make([]types.Value, 2*size)}
	for i := range st.node {
		st.node[i] = types.NullValue
	}
	for i := 0; i < n; i++ {
		if included(i) {
			st.node[size+i] = args[0][i]
		}
	}
	for i := size - 1; i >= 1; i-- {
		st.node[i] = st.pick(st.node[2*i], st.node[2*i+1])
	}
	return st
}

// pick is the transition of min or max from a to the later value b: of
// equal values the later wins, as numeric_larger, float8_smaller,
// text_larger and the rest do (1.5 and 1.500, 0 and -0 differ in print).
func (st *minMaxTree) pick(a, b types.Value) types.Value {
	switch {
	case a.Null:
		return b
	case b.Null:
		return a
	}
	if c := types.Compare(a, b, st.t); c != 0 && (c > 0) == st.max {
		return a
	}
	return b
}

// query folds the spans in row order: the nodes met from the left follow
// what came before them, those met from the right precede it.
func (st *minMaxTree) query(spans []span) types.Value {
	r := types.NullValue
	for _, s := range spans {
		left, right := types.NullValue, types.NullValue
		l, h := s.lo+st.size, s.hi+st.size
		for l < h {
			if l&1 == 1 {
				left = st.pick(left, st.node[l])
				l++
			}
			if h&1 == 1 {
				h--
				right = st.pick(st.node[h], right)
			}
			l >>= 1
			h >>= 1
		}
		r = st.pick(r, st.pick(left, right))
	}
	return r
}

// inRangeNumericSpecial is in_range_numeric_numeric's NaN and infinite
// offset cases (NaN sorts after every number; base ± inf is infinite, or
// NaN, which every value is in range of). done is false for the ordinary
// case.
func inRangeNumericSpecial(val, base, off types.Value, sub, less bool) (result, done bool) {
	isNaN := func(v types.Value) bool { return v.Num != nil && v.Num.Form == apd.NaN }
	inf := func(v types.Value, neg bool) bool {
		return v.Num != nil && v.Num.Form == apd.Infinite && v.Num.Negative == neg
	}
	switch {
	case isNaN(val):
		return isNaN(base) || !less, true
	case isNaN(base):
		return less, true
	case off.Num == nil || off.Num.Form != apd.Infinite:
		return false, false
	case (sub && inf(base, false)) || (!sub && inf(base, true)):
		return true, true
	case sub:
		return !less || inf(val, true), true
	}
	return less || inf(val, false), true
}
