package operators

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/joind/joind/operators/spill"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// ---- Distinct ----

type distinctOp struct {
	in    Operator
	colT  []types.Type
	space *spill.Space
	mem   spill.Stats
}

// ExplainNote is EXPLAIN ANALYZE's note: the rows seen's peak memory.
func (d *distinctOp) ExplainNote() string { return d.mem.Note() }

var _ Operator = (*distinctOp)(nil)

// NewDistinct removes duplicate rows (NULLs equal) of its one input
// partition (the plan puts an explicit Gather below it). It streams: each
// batch yields the rows not seen before.
func NewDistinct(in Operator, env *Env) (Operator, error) {
	if in.Partitions() != 1 {
		return nil, errPlan("distinct needs one input partition, got %d", in.Partitions())
	}
	op := &distinctOp{in: in, space: spaceOf(env), mem: spill.Stats{Kind: spill.KindDistinct}}
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
	return &distinctStream{in: s, seen: newRowSet(d.colT), acct: d.space.NewAccount().Track(&d.mem)}, nil
}

// distinctStream passes on the rows of each batch not seen before; the
// rows seen count against the query's memory limit (no spill path: past
// it, 53200).
type distinctStream struct {
	in   Stream
	seen *rowSet
	acct *spill.Account
}

func (s *distinctStream) Next() (arrow.Record, error) {
	for {
		rec, err := s.in.Next()
		if err != nil {
			return nil, err
		}
		if rec = s.seen.fresh(rec); rec != nil {
			if err := s.acct.Hold(rowSetBytes(rec), "DISTINCT"); err != nil {
				return nil, err
			}
			return rec, nil
		}
	}
}

// rowSet is the set of rows seen so far (NULLs equal), in the group table
// aggregation uses: a row is new when it opens a group (ids are dense in
// first-seen order). DISTINCT and WITH RECURSIVE's UNION read through it.
type rowSet struct {
	keys groupKeys
	gids []int32
	keep []int
}

func newRowSet(colT []types.Type) *rowSet { return &rowSet{keys: newGroupKeys(colT)} }

// fresh adds rec's rows to the set and returns those not in it before
// (nil: none).
func (s *rowSet) fresh(rec arrow.Record) arrow.Record {
	n := int(rec.NumRows())
	next := int32(s.keys.count())
	s.gids = grow(s.gids, n)
	s.keys.assign(rec.Columns(), n, s.gids[:n])
	s.keep = s.keep[:0]
	for i, g := range s.gids[:n] {
		if g == next {
			s.keep = append(s.keep, i)
			next++
		}
	}
	switch len(s.keep) {
	case 0:
		return nil
	case n:
		return rec
	}
	return takeRecord(rec, s.keep)
}

func (s *distinctStream) Close() error {
	s.acct.Close()
	return s.in.Close()
}

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
	s := &setOpOp{op: op, all: all, left: left, right: right, cols: cols, schema: u.schema, size: batchSize(env),
		space: spaceOf(env), mem: spill.Stats{Kind: spill.KindSetOp}}
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
	space       *spill.Space
	mem         spill.Stats
}

var _ Operator = (*setOpOp)(nil)

// ExplainNote is EXPLAIN ANALYZE's note: the two sides' tables' peak
// memory.
func (s *setOpOp) ExplainNote() string { return s.mem.Note() }

func (s *setOpOp) Columns() []plan.Column { return s.cols }
func (s *setOpOp) Partitions() int        { return 1 }

func (s *setOpOp) Open(ctx context.Context, _ int) (Stream, error) {
	acct := s.space.NewAccount().Track(&s.mem)
	bs := newBreakerStream(ctx, func(ctx context.Context) (func() (arrow.Record, error), error) { return s.run(ctx, acct) })
	bs.cleanup = acct.Close
	return bs, nil
}

// what names a set operation in its 53200 error.
func (s *setOpOp) what() string {
	if s.op == plan.Intersect {
		return "INTERSECT"
	}
	return "EXCEPT"
}

// groupsBytes is what ng new groups of rec's rows hold in a side's table:
// their key values at rec's average row width and per bytes each of
// counts and references.
func groupsBytes(rec arrow.Record, ng int, per int64) int64 {
	return int64(ng) * (rowWidth(rec) + per)
}

// setRows is the left side's distinct rows (groups of the group table
// aggregation uses) in first-seen order, a partition's, then the
// combination's: per group, where its first copy is and the copies on
// each side.
type setRows struct {
	keys        groupKeys
	batches     []arrow.Record // the batches holding first copies
	firsts      []rowRef
	left, right []int64
	gids        []int32 // scratch
}

// rowRef is a row of one of setRows' batches (8 bytes a group, not an
// interface's 16 and a row).
type rowRef struct{ batch, row int32 }

// leftSink counts the left side's rows per partition; the groups and the
// batches holding their first copies count against acct.
type leftSink struct {
	colT []types.Type
	acct *spill.Account
	what string
}

func (k leftSink) Init(int) *setRows { return &setRows{keys: newGroupKeys(k.colT)} }

func (k leftSink) Consume(_ context.Context, s *setRows, rec arrow.Record) error {
	before := len(s.left)
	held := int64(0)
	if k.add(s, rec) {
		held = spill.RecordBytes(rec)
	}
	return k.acct.Hold(held+groupsBytes(rec, len(s.left)-before, 32), k.what)
}

// add counts rec's rows and reports whether rec is kept (it holds a
// group's first copy).
func (leftSink) add(s *setRows, rec arrow.Record) bool {
	n := int(rec.NumRows())
	s.gids = grow(s.gids, n)
	s.keys.assign(rec.Columns(), n, s.gids[:n])
	b := int32(len(s.batches))
	for i, g := range s.gids[:n] {
		if int(g) == len(s.left) {
			s.firsts = append(s.firsts, rowRef{b, int32(i)})
			s.left = append(s.left, 0)
		}
		s.left[g]++
	}
	if len(s.firsts) > 0 && s.firsts[len(s.firsts)-1].batch == b {
		s.batches = append(s.batches, rec)
		return true
	}
	return false
}

func (leftSink) Combine(dst, src *setRows) error {
	off := int32(len(dst.batches))
	dst.batches = append(dst.batches, src.batches...)
	for g, d := range dst.keys.absorb(src.keys) {
		if int(d) == len(dst.left) { // new groups come in src's order
			r := src.firsts[g]
			dst.firsts = append(dst.firsts, rowRef{r.batch + off, r.row})
			dst.left = append(dst.left, 0)
		}
		dst.left[d] += src.left[g]
	}
	return nil
}

// rightCounts is one right partition's distinct rows and their copies.
type rightCounts struct {
	keys groupKeys
	n    []int64
	gids []int32 // scratch
}

// rightSink counts the right side's rows per partition in tables of their
// own (the left table is not written concurrently); run maps them onto the
// left's groups. The groups count against acct.
type rightSink struct {
	colT []types.Type
	acct *spill.Account
	what string
}

func (k rightSink) Init(int) *rightCounts { return &rightCounts{keys: newGroupKeys(k.colT)} }

func (k rightSink) Consume(_ context.Context, s *rightCounts, rec arrow.Record) error {
	before := len(s.n)
	k.add(s, rec)
	return k.acct.Hold(groupsBytes(rec, len(s.n)-before, 24), k.what)
}

func (rightSink) add(s *rightCounts, rec arrow.Record) {
	n := int(rec.NumRows())
	s.gids = grow(s.gids, n)
	s.keys.assign(rec.Columns(), n, s.gids[:n])
	for _, g := range s.gids[:n] {
		if int(g) == len(s.n) {
			s.n = append(s.n, 0)
		}
		s.n[g]++
	}
}

func (rightSink) Combine(dst, src *rightCounts) error {
	for g, d := range dst.keys.absorb(src.keys) {
		if int(d) == len(dst.n) {
			dst.n = append(dst.n, 0)
		}
		dst.n[d] += src.n[g]
	}
	return nil
}

type setOpStream struct {
	op   *setOpOp
	rows *setRows
	at   int   // group being emitted
	left int64 // copies of group at still to emit
}

// run counts both sides and returns the emitter of the result rows.
func (s *setOpOp) run(ctx context.Context, acct *spill.Account) (func() (arrow.Record, error), error) {
	left, err := Drain(ctx, s.left, leftSink{s.colT, acct, s.what()})
	if err != nil {
		return nil, err
	}
	right, err := Drain(ctx, s.right, rightSink{s.colT, acct, s.what()})
	if err != nil {
		return nil, err
	}
	// The right side's groups onto the left's; the ones only on the right
	// are added past the left's groups and never emitted.
	nl := len(left.left)
	left.right = make([]int64, nl)
	for g, d := range left.keys.absorb(right.keys) {
		if int(d) < nl {
			left.right[d] += right.n[g]
		}
	}
	st := &setOpStream{op: s, rows: left}
	if nl > 0 {
		st.left = st.copies(0)
	}
	return st.emit, nil
}

// copies is how many copies of left group g the result has.
func (s *setOpStream) copies(g int) int64 {
	l, r := s.rows.left[g], s.rows.right[g]
	if s.op.op == plan.Intersect {
		if s.op.all {
			return min(l, r)
		}
		if l > 0 && r > 0 {
			return 1
		}
		return 0
	}
	if s.op.all {
		return max(l-r, 0)
	}
	if l > 0 && r == 0 {
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
	ng := len(s.rows.left)
	for rows < s.op.size && s.at < ng {
		if s.left == 0 {
			s.at++
			if s.at < ng {
				s.left = s.copies(s.at)
			}
			continue
		}
		r := s.rows.firsts[s.at]
		rec, row := s.rows.batches[r.batch], int(r.row)
		for c, b := range bs {
			appendFrom(b, rec.Column(c), row)
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
