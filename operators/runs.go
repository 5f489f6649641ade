package operators

import (
	"bytes"
	"context"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// Operators over runs of sorted rows: DISTINCT ON keeps the first row of
// each run of rows equal on its keys (Unique), FETCH FIRST ... WITH TIES
// returns the rows of the run the count ends in. Both read one partition,
// sorted by the plan's Sort, and compare each row with the run's first by
// the not-distinct key encoding (keys.go): NULLs equal, values equal
// exactly when PostgreSQL's equality operator says so.

// keyRun evaluates key expressions over batches and tells whether a row
// belongs to the current run.
type keyRun struct {
	keys []*Compiled
	ts   []types.Type
	arrs []arrow.Array
	ks   []KeyCol
	run  []byte // the encoded key of the current run
	cur  []byte
	have bool
}

func newKeyRun(keys []plan.Expr, in []plan.Column, env *Env) (*keyRun, error) {
	r := &keyRun{}
	for _, k := range keys {
		c, err := Compile(k, in, env)
		if err != nil {
			return nil, err
		}
		r.keys = append(r.keys, c)
		r.ts = append(r.ts, k.Type())
	}
	return r, nil
}

// load evaluates and encodes the keys of rec's rows.
func (r *keyRun) load(ctx context.Context, rec arrow.Record) error {
	r.arrs = r.arrs[:0]
	for _, c := range r.keys {
		a, err := c.Eval(ctx, rec)
		if err != nil {
			return err
		}
		r.arrs = append(r.arrs, a)
	}
	r.ks = encodeBatch(r.arrs, r.ts, r.ks)
	return nil
}

// inRun reports whether row i of the loaded batch equals the current run's
// key; start makes row i's key the current run's.
func (r *keyRun) inRun(i int) bool {
	if !r.have {
		return false
	}
	r.cur = AppendKeyRow(r.cur[:0], r.ks, nil, i)
	return bytes.Equal(r.cur, r.run)
}

func (r *keyRun) start(i int) {
	r.run = AppendKeyRow(r.run[:0], r.ks, nil, i)
	r.have = true
}

// ---- Unique (DISTINCT ON) ----

type uniqueOp struct {
	in   Operator
	keys []plan.Expr
	env  *Env
}

// NewUnique keeps the first row of each run of rows equal on keys; its
// input is one partition, sorted with keys leading.
func NewUnique(in Operator, keys []plan.Expr, env *Env) (Operator, error) {
	if in.Partitions() != 1 {
		return nil, errPlan("unique needs one input partition, got %d", in.Partitions())
	}
	if _, err := newKeyRun(keys, in.Columns(), env); err != nil {
		return nil, err
	}
	return &uniqueOp{in: in, keys: keys, env: env}, nil
}

func (u *uniqueOp) Columns() []plan.Column { return u.in.Columns() }
func (u *uniqueOp) Partitions() int        { return 1 }

func (u *uniqueOp) Open(ctx context.Context, p int) (Stream, error) {
	run, err := newKeyRun(u.keys, u.in.Columns(), u.env)
	if err != nil {
		return nil, err
	}
	s, err := u.in.Open(ctx, p)
	if err != nil {
		return nil, err
	}
	return &uniqueStream{ctx: ctx, in: s, run: run}, nil
}

type uniqueStream struct {
	ctx  context.Context
	in   Stream
	run  *keyRun
	keep []int
}

func (s *uniqueStream) Next() (arrow.Record, error) {
	for {
		rec, err := s.in.Next()
		if err != nil {
			return nil, err
		}
		if err := s.run.load(s.ctx, rec); err != nil {
			return nil, err
		}
		s.keep = s.keep[:0]
		for i := 0; i < int(rec.NumRows()); i++ {
			if !s.run.inRun(i) {
				s.run.start(i)
				s.keep = append(s.keep, i)
			}
		}
		switch {
		case len(s.keep) == int(rec.NumRows()):
			return rec, nil
		case len(s.keep) > 0:
			return takeRecord(rec, s.keep), nil
		}
	}
}

func (s *uniqueStream) Close() error { return s.in.Close() }

// ---- Limit with counts computed at run time, and WITH TIES ----

// LimitSpec is a Limit as planned: Count and Offset, or the expressions
// computing them when the statement runs (CountExpr, OffsetExpr); TieKeys
// are WITH TIES' sort keys.
type LimitSpec struct {
	Count, Offset         int64
	CountExpr, OffsetExpr plan.Expr
	TieKeys               []plan.Expr
}

type limitEvalOp struct {
	in   Operator
	spec LimitSpec
	env  *Env
}

// NewLimitSpec is NewLimit for a LimitSpec: a count or offset expression is
// evaluated when the stream opens, with PostgreSQL's rules for NULL and
// negative values (types.LimitValue); with TieKeys, the rows after the
// count-th that equal it on those keys follow it.
func NewLimitSpec(in Operator, spec LimitSpec, env *Env) (Operator, error) {
	if spec.CountExpr == nil && spec.OffsetExpr == nil && len(spec.TieKeys) == 0 {
		return NewLimit(in, spec.Count, spec.Offset), nil
	}
	if in.Partitions() != 1 {
		return nil, errPlan("limit needs one input partition, got %d", in.Partitions())
	}
	if _, err := newKeyRun(spec.TieKeys, in.Columns(), env); err != nil {
		return nil, err
	}
	return &limitEvalOp{in: in, spec: spec, env: env}, nil
}

func (l *limitEvalOp) Columns() []plan.Column { return l.in.Columns() }
func (l *limitEvalOp) Partitions() int        { return 1 }

func (l *limitEvalOp) eval(ctx context.Context, e plan.Expr, v int64, what string) (int64, error) {
	if e == nil {
		return v, nil
	}
	c, err := Compile(e, nil, l.env)
	if err != nil {
		return 0, err
	}
	val, err := c.EvalConst(ctx)
	if err != nil {
		return 0, err
	}
	return types.LimitValue(l.env.Eval, val, e.Type(), v, what)
}

func (l *limitEvalOp) Open(ctx context.Context, p int) (Stream, error) {
	count, err := l.eval(ctx, l.spec.CountExpr, l.spec.Count, "LIMIT")
	if err != nil {
		return nil, err
	}
	offset, err := l.eval(ctx, l.spec.OffsetExpr, l.spec.Offset, "OFFSET")
	if err != nil {
		return nil, err
	}
	if len(l.spec.TieKeys) == 0 || count < 0 {
		return NewLimit(l.in, count, offset).Open(ctx, p)
	}
	if count == 0 {
		return &emptyStream{}, nil
	}
	run, err := newKeyRun(l.spec.TieKeys, l.in.Columns(), l.env)
	if err != nil {
		return nil, err
	}
	in, err := NewLimit(l.in, -1, offset).Open(ctx, p)
	if err != nil {
		return nil, err
	}
	return &tiesStream{ctx: ctx, in: in, left: count, run: run}, nil
}

// tiesStream passes left rows, then the rows equal to the last of them on
// the tie keys.
type tiesStream struct {
	ctx  context.Context
	in   Stream
	left int64
	run  *keyRun
	done bool
}

func (s *tiesStream) Next() (arrow.Record, error) {
	for !s.done {
		rec, err := s.in.Next()
		if err != nil {
			return nil, err
		}
		n := rec.NumRows()
		if n == 0 {
			continue
		}
		if s.left >= n {
			s.left -= n
			if s.left == 0 {
				if err := s.run.load(s.ctx, rec); err != nil {
					return nil, err
				}
				s.run.start(int(n - 1))
			}
			return rec, nil
		}
		if err := s.run.load(s.ctx, rec); err != nil {
			return nil, err
		}
		hi := int(s.left)
		if hi > 0 {
			s.run.start(hi - 1)
			s.left = 0
		}
		for hi < int(n) && s.run.inRun(hi) {
			hi++
		}
		if hi < int(n) {
			s.done = true
			s.in.Close() // stop the input early
		}
		if hi == 0 {
			continue
		}
		if hi == int(n) {
			return rec, nil
		}
		return rec.NewSlice(0, int64(hi)), nil
	}
	return nil, io.EOF
}

func (s *tiesStream) Close() error { s.done = true; return s.in.Close() }
