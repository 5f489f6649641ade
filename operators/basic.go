package operators

import (
	"context"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// ---- Filter ----

type filterOp struct {
	in   Operator
	pred *Compiled
	// for Narrow: the predicate is recompiled when the input narrows
	predExpr plan.Expr
	env      *Env
}

var _ Operator = (*filterOp)(nil)

// NewFilter keeps the rows for which pred is TRUE; partition-preserving.
func NewFilter(in Operator, pred plan.Expr, env *Env) (Operator, error) {
	if pred.Type().ID != types.Bool {
		return nil, pgerr.New(pgerr.DatatypeMismatch, "argument of WHERE must be type boolean")
	}
	c, err := CompileQual(pred, in.Columns(), env)
	if err != nil {
		return nil, err
	}
	return &filterOp{in: in, pred: c, predExpr: pred, env: env}, nil
}

func (f *filterOp) Columns() []plan.Column { return f.in.Columns() }
func (f *filterOp) Partitions() int        { return f.in.Partitions() }

func (f *filterOp) Open(ctx context.Context, p int) (Stream, error) {
	s, err := f.in.Open(ctx, p)
	if err != nil {
		return nil, err
	}
	return &filterStream{op: f, in: s, ctx: ctx}, nil
}

type filterStream struct {
	op  *filterOp
	in  Stream
	ctx context.Context
}

func (s *filterStream) Next() (arrow.Record, error) {
	for {
		rec, err := s.in.Next()
		if err != nil {
			return nil, err
		}
		mask, err := s.op.pred.Eval(s.ctx, rec)
		if err != nil {
			return nil, err
		}
		if out := filterRecord(rec, mask.(*array.Boolean)); out != nil {
			return out, nil
		}
	}
}

func (s *filterStream) Close() error { return s.in.Close() }

// filterRecord keeps the rows of rec where mask is TRUE; nil if none.
func filterRecord(rec arrow.Record, mask *array.Boolean) arrow.Record {
	n := int(rec.NumRows())
	hasNulls := mask.NullN() > 0
	if !hasNulls && n > 0 && mask.Len() == n {
		// Every row or none (a one-row batch always): no index list.
		switch pass := countTrue(mask); pass {
		case 0:
			return nil
		case n:
			return rec
		}
	}
	idx := make([]int, 0, n)
	for i := 0; i < n; i++ {
		if mask.Value(i) && !(hasNulls && mask.IsNull(i)) {
			idx = append(idx, i)
		}
	}
	switch len(idx) {
	case 0:
		return nil
	case n:
		return rec
	}
	if first, last := idx[0], idx[len(idx)-1]; last-first+1 == len(idx) {
		// One run of rows (a range filter over clustered data): a slice
		// shares the batch's buffers instead of copying them.
		out := rec.NewSlice(int64(first), int64(last+1))
		for _, c := range out.Columns() {
			c.NullN() // count now: a lazy count is a data race if readers share the batch
		}
		return out
	}
	return takeRecord(rec, idx)
}

// takeRecord copies rows idx of rec.
// TakeRecord is rec's rows idx, in that order (for operators/join).
func TakeRecord(rec arrow.Record, idx []int) arrow.Record { return takeRecord(rec, idx) }

func takeRecord(rec arrow.Record, idx []int) arrow.Record {
	arrs := make([]arrow.Array, rec.NumCols())
	for i := range arrs {
		arrs[i] = takeArray(rec.Column(i), idx)
	}
	return array.NewRecord(rec.Schema(), arrs, int64(len(idx)))
}

// ---- Project ----

type projectOp struct {
	in     Operator
	exprs  []*Compiled
	cols   []plan.Column
	schema *arrow.Schema
}

var _ Operator = (*projectOp)(nil)

// NewProject computes exprs over in; cols[i] describes exprs[i].
func NewProject(in Operator, exprs []plan.Expr, cols []plan.Column, env *Env) (Operator, error) {
	if len(exprs) != len(cols) {
		return nil, pgerr.New(pgerr.InternalError, "operators: project has %d expressions for %d columns", len(exprs), len(cols))
	}
	if err := NarrowInput(in, exprs...); err != nil {
		return nil, err
	}
	op := &projectOp{in: in, cols: cols, schema: schemaOf(cols)}
	for i, e := range exprs {
		if e.Type().ArrowType().ID() != cols[i].Type.ArrowType().ID() {
			return nil, pgerr.New(pgerr.InternalError, "operators: project column %s has type %v, expression %v", cols[i].Name, cols[i].Type, e.Type())
		}
		c, err := Compile(e, in.Columns(), env)
		if err != nil {
			return nil, err
		}
		op.exprs = append(op.exprs, c)
	}
	return op, nil
}

func (o *projectOp) Columns() []plan.Column { return o.cols }
func (o *projectOp) Partitions() int        { return o.in.Partitions() }

func (o *projectOp) Open(ctx context.Context, p int) (Stream, error) {
	s, err := o.in.Open(ctx, p)
	if err != nil {
		return nil, err
	}
	return &projectStream{op: o, in: s, ctx: ctx}, nil
}

type projectStream struct {
	op  *projectOp
	in  Stream
	ctx context.Context
}

func (s *projectStream) Next() (arrow.Record, error) {
	rec, err := s.in.Next()
	if err != nil {
		return nil, err
	}
	arrs := make([]arrow.Array, len(s.op.exprs))
	for i, c := range s.op.exprs {
		if arrs[i], err = c.Eval(s.ctx, rec); err != nil {
			return nil, err
		}
	}
	return array.NewRecord(s.op.schema, arrs, rec.NumRows()), nil
}

func (s *projectStream) Close() error { return s.in.Close() }

// ---- Values ----

type valuesOp struct {
	rows   [][]*Compiled
	cols   []plan.Column
	schema *arrow.Schema
	size   int
}

var _ Operator = (*valuesOp)(nil)

// NewValues produces rows of constant expressions in one partition. A
// zero-column row list (FROM-less SELECT) yields batches with no columns.
func NewValues(rows [][]plan.Expr, cols []plan.Column, env *Env) Operator {
	op := &valuesOp{cols: cols, schema: schemaOf(cols), size: batchSize(env)}
	for _, r := range rows {
		cr := make([]*Compiled, len(r))
		for i, e := range r {
			c, err := Compile(e, nil, env)
			if err != nil {
				// Surface the plan error when the stream opens.
				return &errOp{cols: cols, err: err}
			}
			cr[i] = c
		}
		op.rows = append(op.rows, cr)
	}
	return op
}

func (v *valuesOp) Columns() []plan.Column { return v.cols }
func (v *valuesOp) Partitions() int        { return 1 }

func (v *valuesOp) Open(ctx context.Context, _ int) (Stream, error) {
	return &valuesStream{op: v, ctx: ctx}, nil
}

type valuesStream struct {
	op  *valuesOp
	ctx context.Context
	at  int
}

func (s *valuesStream) Next() (arrow.Record, error) {
	if s.at >= len(s.op.rows) {
		return nil, io.EOF
	}
	if err := checkCtx(s.ctx); err != nil {
		return nil, err
	}
	end := min(s.at+s.op.size, len(s.op.rows))
	bs := make([]array.Builder, len(s.op.cols))
	for i, c := range s.op.cols {
		bs[i] = newBuilder(c.Type, end-s.at)
	}
	for _, row := range s.op.rows[s.at:end] {
		for i, c := range row {
			v, err := c.EvalConst(s.ctx)
			if err != nil {
				return nil, err
			}
			types.AppendValue(bs[i], s.op.cols[i].Type, v)
		}
	}
	arrs := make([]arrow.Array, len(bs))
	for i, b := range bs {
		arrs[i] = b.NewArray()
	}
	n := end - s.at
	s.at = end
	return array.NewRecord(s.op.schema, arrs, int64(n)), nil
}

func (s *valuesStream) Close() error { s.at = len(s.op.rows); return nil }

// errOp fails when opened.
type errOp struct {
	cols []plan.Column
	err  error
}

func (e *errOp) Columns() []plan.Column                    { return e.cols }
func (e *errOp) Partitions() int                           { return 1 }
func (e *errOp) Open(context.Context, int) (Stream, error) { return nil, e.err }

// ---- Limit ----

type limitOp struct {
	in            Operator
	count, offset int64
}

var _ Operator = (*limitOp)(nil)

// NewLimit skips offset rows and returns at most count rows (count < 0: all),
// reading no more input than it needs. Its input must be one partition: the
// plan puts an explicit Gather below it (a Limit on several partitions fails
// when opened).
func NewLimit(in Operator, count, offset int64) Operator {
	if in.Partitions() != 1 {
		return &errOp{cols: in.Columns(), err: errPlan("limit needs one input partition, got %d", in.Partitions())}
	}
	if offset < 0 {
		offset = 0
	}
	return &limitOp{in: in, count: count, offset: offset}
}

func (l *limitOp) Columns() []plan.Column { return l.in.Columns() }
func (l *limitOp) Partitions() int        { return 1 }

func (l *limitOp) Open(ctx context.Context, p int) (Stream, error) {
	if l.count == 0 {
		return &emptyStream{}, nil
	}
	s, err := l.in.Open(ctx, p)
	if err != nil {
		return nil, err
	}
	return &limitStream{in: s, skip: l.offset, left: l.count}, nil
}

type limitStream struct {
	in   Stream
	skip int64
	left int64 // < 0: unlimited
	done bool
}

func (s *limitStream) Next() (arrow.Record, error) {
	for !s.done {
		rec, err := s.in.Next()
		if err != nil {
			return nil, err
		}
		n := rec.NumRows()
		lo := int64(0)
		if s.skip > 0 {
			if s.skip >= n {
				s.skip -= n
				continue
			}
			lo, s.skip = s.skip, 0
		}
		hi := n
		if s.left >= 0 {
			if s.left < n-lo { // not lo+s.left: a count near MaxInt64 overflows
				hi = lo + s.left
			}
			s.left -= hi - lo
			if s.left == 0 {
				s.done = true
				s.in.Close() // stop the input early
			}
		}
		if lo == 0 && hi == n {
			return rec, nil
		}
		return rec.NewSlice(lo, hi), nil
	}
	return nil, io.EOF
}

func (s *limitStream) Close() error { s.done = true; return s.in.Close() }

type emptyStream struct{}

func (emptyStream) Next() (arrow.Record, error) { return nil, io.EOF }
func (emptyStream) Close() error                { return nil }

// countTrue is the number of TRUE values of a boolean array without NULLs.
func countTrue(mask *array.Boolean) int {
	d := mask.Data()
	return bitutil.CountSetBits(d.Buffers()[1].Bytes(), d.Offset(), d.Len())
}
