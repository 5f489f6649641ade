package operators

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// ---- Distinct ----

type distinctOp struct {
	in   Operator
	colT []types.Type
}

var _ Operator = (*distinctOp)(nil)

// NewDistinct removes duplicate rows (NULLs equal) of its one input
// partition (the plan puts an explicit Gather below it). It streams: each
// batch yields the rows not seen before.
func NewDistinct(in Operator, env *Env) (Operator, error) {
	if in.Partitions() != 1 {
		return nil, errPlan("distinct needs one input partition, got %d", in.Partitions())
	}
	op := &distinctOp{in: in}
	for _, c := range in.Columns() {
		op.colT = append(op.colT, c.Type)
	}
	return op, nil
}

func (d *distinctOp) Columns() []plan.Column { return d.in.Columns() }
func (d *distinctOp) Partitions() int        { return 1 }

func (d *distinctOp) Open(ctx context.Context, p int) (Stream, error) {
	s, err := d.in.Open(ctx, p)
	if err != nil {
		return nil, err
	}
	return &distinctStream{op: d, in: s, seen: map[string]struct{}{}}, nil
}

type distinctStream struct {
	op   *distinctOp
	in   Stream
	seen map[string]struct{}
	buf  []byte
	offs []int
}

func (s *distinctStream) Next() (arrow.Record, error) {
	for {
		rec, err := s.in.Next()
		if err != nil {
			return nil, err
		}
		n := int(rec.NumRows())
		s.buf, s.offs = rowKeys(rec.Columns(), s.op.colT, n, s.buf, s.offs)
		var keep []int
		for i := 0; i < n; i++ {
			k := s.buf[s.offs[i]:s.offs[i+1]]
			if _, dup := s.seen[string(k)]; dup {
				continue
			}
			s.seen[string(k)] = struct{}{}
			keep = append(keep, i)
		}
		switch len(keep) {
		case 0:
			continue
		case n:
			return rec, nil
		}
		return takeRecord(rec, keep), nil
	}
}

func (s *distinctStream) Close() error { return s.in.Close() }

// ---- UNION ALL ----

type unionAllOp struct {
	left, right Operator
	cols        []plan.Column
	schema      *arrow.Schema
}

var _ Operator = (*unionAllOp)(nil)

func (u *unionAllOp) Columns() []plan.Column { return u.cols }
func (u *unionAllOp) Partitions() int        { return u.left.Partitions() + u.right.Partitions() }

func (u *unionAllOp) Open(ctx context.Context, p int) (Stream, error) {
	var s Stream
	var err error
	if lp := u.left.Partitions(); p < lp {
		s, err = u.left.Open(ctx, p)
	} else {
		s, err = u.right.Open(ctx, p-lp)
	}
	if err != nil {
		return nil, err
	}
	return &relabelStream{in: s, schema: u.schema}, nil
}

// relabelStream gives its input's batches another schema (same Arrow types).
type relabelStream struct {
	in     Stream
	schema *arrow.Schema
}

func (s *relabelStream) Next() (arrow.Record, error) {
	rec, err := s.in.Next()
	if err != nil {
		return nil, err
	}
	return array.NewRecord(s.schema, rec.Columns(), rec.NumRows()), nil
}

func (s *relabelStream) Close() error { return s.in.Close() }

// ---- UNION / INTERSECT / EXCEPT ----

// NewSetOp combines left and right positionally with PostgreSQL's multiset
// semantics: UNION ALL concatenates; UNION removes duplicates; INTERSECT
// [ALL] keeps min(l, r) copies of a row (1 without ALL); EXCEPT [ALL] keeps
// max(l - r, 0) copies (1 if l > 0 and r = 0 without ALL).
func NewSetOp(op plan.SetOpKind, all bool, left, right Operator, cols []plan.Column, env *Env) (Operator, error) {
	if len(left.Columns()) != len(cols) || len(right.Columns()) != len(cols) {
		return nil, errPlan("set operation inputs have %d and %d columns for %d", len(left.Columns()), len(right.Columns()), len(cols))
	}
	for i, c := range cols {
		at := c.Type.ArrowType().ID()
		if left.Columns()[i].Type.ArrowType().ID() != at || right.Columns()[i].Type.ArrowType().ID() != at {
			return nil, errPlan("set operation column %d has mismatched types", i+1)
		}
	}
	u := &unionAllOp{left: left, right: right, cols: cols, schema: schemaOf(cols)}
	if op == plan.Union {
		if all {
			return u, nil
		}
		// UNION is planned as Distinct over a Gather of UNION ALL.
		return nil, errPlan("UNION without ALL is a Distinct over a Gather of UNION ALL")
	}
	s := &setOpOp{op: op, all: all, left: left, right: right, cols: cols, schema: u.schema, size: batchSize(env)}
	for _, c := range cols {
		s.colT = append(s.colT, c.Type)
	}
	return s, nil
}

type setOpOp struct {
	op          plan.SetOpKind
	all         bool
	left, right Operator
	cols        []plan.Column
	colT        []types.Type
	schema      *arrow.Schema
	size        int
}

var _ Operator = (*setOpOp)(nil)

func (s *setOpOp) Columns() []plan.Column { return s.cols }
func (s *setOpOp) Partitions() int        { return 1 }

func (s *setOpOp) Open(ctx context.Context, _ int) (Stream, error) {
	return newBreakerStream(ctx, s.run), nil
}

// setEntry counts one distinct row on both sides.
type setEntry struct {
	key         string
	idx         int          // position in the left side's order
	rec         arrow.Record // a batch holding the first left copy
	row         int
	left, right int64
}

// setRows is the left side's distinct rows in first-seen order (a
// partition's, then the combination's).
type setRows struct {
	m     map[string]*setEntry
	order []*setEntry
	buf   []byte
	offs  []int
}

// leftSink counts the left side's rows per partition.
type leftSink struct{ colT []types.Type }

func (leftSink) Init(int) *setRows { return &setRows{m: map[string]*setEntry{}} }

func (k leftSink) Consume(_ context.Context, s *setRows, rec arrow.Record) error {
	n := int(rec.NumRows())
	s.buf, s.offs = rowKeys(rec.Columns(), k.colT, n, s.buf, s.offs)
	for i := 0; i < n; i++ {
		key := s.buf[s.offs[i]:s.offs[i+1]]
		e, ok := s.m[string(key)]
		if !ok {
			e = &setEntry{key: string(key), rec: rec, row: i}
			s.m[e.key] = e
			s.order = append(s.order, e)
		}
		e.left++
	}
	return nil
}

func (leftSink) Combine(dst, src *setRows) error {
	for _, e := range src.order {
		if d, ok := dst.m[e.key]; ok {
			d.left += e.left
			continue
		}
		dst.m[e.key] = e
		dst.order = append(dst.order, e)
	}
	return nil
}

// rightCounts is one right partition's count per left entry (by idx).
type rightCounts struct {
	n    []int64
	buf  []byte
	offs []int
}

// rightSink counts, per partition, the right side's copies of left rows
// (the left rows' map is only read).
type rightSink struct {
	colT []types.Type
	left *setRows
}

func (k rightSink) Init(int) *rightCounts {
	return &rightCounts{n: make([]int64, len(k.left.order))}
}

func (k rightSink) Consume(_ context.Context, s *rightCounts, rec arrow.Record) error {
	n := int(rec.NumRows())
	s.buf, s.offs = rowKeys(rec.Columns(), k.colT, n, s.buf, s.offs)
	for i := 0; i < n; i++ {
		if e, ok := k.left.m[string(s.buf[s.offs[i]:s.offs[i+1]])]; ok {
			s.n[e.idx]++ // only rows of the left side can appear
		}
	}
	return nil
}

func (rightSink) Combine(dst, src *rightCounts) error {
	for i, c := range src.n {
		dst.n[i] += c
	}
	return nil
}

type setOpStream struct {
	op   *setOpOp
	out  []*setEntry
	at   int   // entry being emitted
	left int64 // copies of out[at] still to emit
}

// run counts both sides and returns the emitter of the result rows.
func (s *setOpOp) run(ctx context.Context) (func() (arrow.Record, error), error) {
	left, err := Drain(ctx, s.left, leftSink{s.colT})
	if err != nil {
		return nil, err
	}
	for i, e := range left.order {
		e.idx = i
	}
	right, err := Drain(ctx, s.right, rightSink{colT: s.colT, left: left})
	if err != nil {
		return nil, err
	}
	for i, e := range left.order {
		e.right = right.n[i]
	}
	st := &setOpStream{op: s, out: left.order}
	if len(st.out) > 0 {
		st.left = st.copies(st.out[0])
	}
	return st.emit, nil
}

func (s *setOpStream) copies(e *setEntry) int64 {
	if s.op.op == plan.Intersect {
		if s.op.all {
			return min(e.left, e.right)
		}
		if e.left > 0 && e.right > 0 {
			return 1
		}
		return 0
	}
	if s.op.all {
		return max(e.left-e.right, 0)
	}
	if e.left > 0 && e.right == 0 {
		return 1
	}
	return 0
}

// emit returns the next batch of result rows (nil at the end).
func (s *setOpStream) emit() (arrow.Record, error) {
	bs := make([]array.Builder, len(s.op.cols))
	for i, c := range s.op.cols {
		bs[i] = newBuilder(c.Type, 0)
	}
	rows := 0
	for rows < s.op.size && s.at < len(s.out) {
		if s.left == 0 {
			s.at++
			if s.at < len(s.out) {
				s.left = s.copies(s.out[s.at])
			}
			continue
		}
		e := s.out[s.at]
		for c, b := range bs {
			appendFrom(b, e.rec.Column(c), e.row)
		}
		s.left--
		rows++
	}
	if rows == 0 {
		return nil, nil
	}
	arrs := make([]arrow.Array, len(bs))
	for i, b := range bs {
		arrs[i] = b.NewArray()
	}
	return array.NewRecord(s.op.schema, arrs, int64(rows)), nil
}
