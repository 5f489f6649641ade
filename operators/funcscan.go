package operators

import (
	"context"
	"io"
	"math"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/cockroachdb/apd/v3"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

type funcScanOp struct {
	name   string
	args   []*Compiled
	argT   []types.Type
	cols   []plan.Column
	schema *arrow.Schema
	size   int
	eval   *types.EvalContext // session TimeZone for timestamptz series
}

var _ Operator = (*funcScanOp)(nil)

// NewFunctionScan runs a set-returning function in FROM. Supported:
// generate_series(int4|int8|numeric start, stop [, step]) and
// generate_series(timestamp, timestamp, interval).
func NewFunctionScan(name string, args []plan.Expr, cols []plan.Column, env *Env) (Operator, error) {
	if name != "generate_series" {
		return nil, pgerr.New(pgerr.UndefinedFunction, "function %s does not exist", name)
	}
	if len(cols) != 1 || len(args) < 2 || len(args) > 3 {
		return nil, errPlan("generate_series with %d arguments and %d columns", len(args), len(cols))
	}
	op := &funcScanOp{name: name, cols: cols, schema: schemaOf(cols), size: batchSize(env)}
	if env != nil {
		op.eval = env.Eval
	}
	for _, a := range args {
		c, err := Compile(a, nil, env)
		if err != nil {
			return nil, err
		}
		op.args = append(op.args, c)
		op.argT = append(op.argT, a.Type())
	}
	switch cols[0].Type.ID {
	case types.Int4, types.Int8, types.Numeric:
	case types.Timestamp, types.TimestampTZ:
		if len(args) != 3 {
			return nil, errPlan("generate_series(timestamp) needs a step")
		}
	default:
		return nil, pgerr.New(pgerr.UndefinedFunction, "function generate_series(%v) does not exist", cols[0].Type)
	}
	return op, nil
}

func (f *funcScanOp) Columns() []plan.Column { return f.cols }
func (f *funcScanOp) Partitions() int        { return 1 }

func (f *funcScanOp) Open(ctx context.Context, _ int) (Stream, error) {
	return &seriesStream{op: f, ctx: ctx}, nil
}

type seriesStream struct {
	op    *funcScanOp
	ctx   context.Context
	ready bool
	done  bool
	// next yields the next value; ok=false at the end.
	next func() (types.Value, bool)
}

func (s *seriesStream) init() error {
	vals := make([]types.Value, len(s.op.args))
	for i, c := range s.op.args {
		v, err := c.EvalConst(s.ctx)
		if err != nil {
			return err
		}
		if v.Null {
			s.done = true // strict: NULL arguments give no rows
			return nil
		}
		vals[i] = v
	}
	t := s.op.cols[0].Type
	switch t.ID {
	case types.Int4, types.Int8:
		step := int64(1)
		if len(vals) == 3 {
			step = vals[2].I
		}
		if step == 0 {
			return pgerr.New(pgerr.InvalidParameterValue, "step size cannot equal zero")
		}
		lo, hi, _ := intRange(t)
		cur, stop := vals[0].I, vals[1].I
		finished := false
		s.next = func() (types.Value, bool) {
			if finished || (step > 0 && cur > stop) || (step < 0 && cur < stop) {
				return types.NullValue, false
			}
			v := cur
			// Stop instead of overflowing, as PostgreSQL does.
			if (step > 0 && cur > hi-step) || (step < 0 && cur < lo-step) {
				finished = true
			} else {
				cur += step
			}
			return types.IntValue(v), true
		}
	case types.Numeric:
		start, stop := vals[0].Num, vals[1].Num
		step := apd.New(1, 0)
		if len(vals) == 3 {
			step = vals[2].Num
		}
		for i, d := range []*apd.Decimal{start, stop, step} {
			if d.Form == apd.NaN {
				what := [...]string{"start", "stop", "step size"}[i]
				return pgerr.New(pgerr.InvalidParameterValue, "%s value cannot be NaN", what)
			}
			if d.Form != apd.Finite {
				what := [...]string{"start", "stop", "step size"}[i]
				return pgerr.New(pgerr.InvalidParameterValue, "%s value cannot be infinity", what)
			}
		}
		if step.IsZero() {
			return pgerr.New(pgerr.InvalidParameterValue, "step size cannot equal zero")
		}
		cur := new(apd.Decimal).Set(start)
		neg := step.Negative
		s.next = func() (types.Value, bool) {
			c := cur.Cmp(stop)
			if (!neg && c > 0) || (neg && c < 0) {
				return types.NullValue, false
			}
			v := new(apd.Decimal).Set(cur)
			nxt := new(apd.Decimal)
			apd.BaseContext.WithPrecision(1000).Add(nxt, cur, step)
			cur = nxt
			return types.Value{Num: v}, true
		}
	case types.TimestampTZ:
		// generate_series_timestamptz: repeated timestamptz + interval in
		// the session zone (days across a DST change keep the wall clock).
		step := vals[2].Iv
		span := float64(step.Months)*30*86400e6 + float64(step.Days)*86400e6 + float64(step.Micros)
		if span == 0 {
			return pgerr.New(pgerr.InvalidParameterValue, "step size cannot equal zero")
		}
		cur, stop := vals[0].I, vals[1].I
		finished := false
		s.next = func() (types.Value, bool) {
			if finished || (span > 0 && cur > stop) || (span < 0 && cur < stop) {
				return types.NullValue, false
			}
			v := cur
			nxt, err := types.TimestampTZPlusInterval(s.op.eval, cur, step)
			if err != nil {
				finished = true // PostgreSQL errors on the next step; stop here
			}
			cur = nxt
			return types.IntValue(v), true
		}
	case types.Timestamp:
		step := vals[2].Iv
		span := float64(step.Months)*30*86400e6 + float64(step.Days)*86400e6 + float64(step.Micros)
		if span == 0 {
			return pgerr.New(pgerr.InvalidParameterValue, "step size cannot equal zero")
		}
		start, stop := vals[0].I, vals[1].I
		var k int64
		s.next = func() (types.Value, bool) {
			// Each value is start + k*step (not repeated addition), so month
			// clamping does not drift (Jan 31, Feb 28, Mar 31 ...).
			cur, ok := addInterval(start, step, k)
			if !ok || (span > 0 && cur > stop) || (span < 0 && cur < stop) {
				return types.NullValue, false
			}
			k++
			return types.IntValue(cur), true
		}
	}
	return nil
}

// addInterval returns ts + k*iv with PostgreSQL's timestamp arithmetic:
// months first (clamping the day to the month's end), then days, then time.
func addInterval(ts int64, iv types.IntervalValue, k int64) (int64, bool) {
	if ts == math.MinInt64 || ts == math.MaxInt64 {
		return ts, true
	}
	t := time.UnixMicro(ts).UTC()
	months := int64(iv.Months) * k
	if months != 0 {
		y, m, d := t.Date()
		total := int64(y)*12 + int64(m-1) + months
		ny, nm := total/12, time.Month(total%12+1)
		if total%12 < 0 {
			ny, nm = (total-11)/12, time.Month((total%12+12)%12+1)
		}
		last := time.Date(int(ny), nm+1, 0, 0, 0, 0, 0, time.UTC).Day()
		d = min(d, last)
		t = time.Date(int(ny), nm, d, t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), time.UTC)
	}
	if days := int64(iv.Days) * k; days != 0 {
		t = t.AddDate(0, 0, int(days))
	}
	us := t.UnixMicro() + iv.Micros*k
	return us, true
}

func (s *seriesStream) Next() (arrow.Record, error) {
	if !s.ready {
		s.ready = true
		if err := s.init(); err != nil {
			return nil, err
		}
	}
	if s.done {
		return nil, io.EOF
	}
	if err := checkCtx(s.ctx); err != nil {
		return nil, err
	}
	t := s.op.cols[0].Type
	b := newBuilder(t, s.op.size)
	n := 0
	for n < s.op.size {
		v, ok := s.next()
		if !ok {
			s.done = true
			break
		}
		types.AppendValue(b, t, v)
		n++
	}
	if n == 0 {
		return nil, io.EOF
	}
	return array.NewRecord(s.op.schema, []arrow.Array{b.NewArray()}, int64(n)), nil
}

func (s *seriesStream) Close() error { s.ready, s.done = true, true; return nil }
