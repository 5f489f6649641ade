package operators

import (
	"context"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// Set-returning functions: FunctionScan (FROM f(...), ROWS FROM, WITH
// ORDINALITY) and ProjectSet (SRFs in a SELECT list) both run their
// functions side by side through one lockstep: row i holds each function's
// i-th value, NULL once a function is exhausted, until all are.

// setFunc is one set-returning call compiled over an operator's input.
type setFunc struct {
	args []*Compiled
	typ  types.Type
	// iter, when set, makes the rows of a function other than
	// generate_series from its argument values (arrayunnest.go).
	iter func(vals []types.Value) (func() (types.Value, bool, error), error)
	fn   *types.Overload
	// unnest is unnest(anyarray): the lockstep walks the array's elements
	// itself, without an iterator to allocate per input row.
	unnest bool
}

// compileSetFuncs checks that joind can run every function and compiles
// its arguments over input (nil: arguments read no columns).
func compileSetFuncs(fs []plan.SetFunc, input []plan.Column, env *Env) ([]setFunc, error) {
	out := make([]setFunc, len(fs))
	for i, f := range fs {
		if iter := arraySetFunc(f); iter != nil {
			out[i] = setFunc{typ: f.Func.Result, iter: iter, unnest: f.Func.Name == "unnest" && len(f.Args) == 1}
			if err := compileSetArgs(&out[i], f.Args, input, env); err != nil {
				return nil, err
			}
			continue
		}
		if f.Func != nil && f.Func.SetReturning && f.Func.Name != "generate_series" {
			out[i].typ, out[i].fn = f.Func.Result, f.Func
			if err := compileSetArgs(&out[i], f.Args, input, env); err != nil {
				return nil, err
			}
			continue
		}
		if f.Func == nil || !f.Func.SetReturning || f.Func.Name != "generate_series" {
			return nil, errPlan("set-returning function %v", f.Func)
		}
		t := f.Func.Result
		switch {
		case len(f.Args) < 2 || len(f.Args) > 3:
			return nil, errPlan("generate_series with %d arguments", len(f.Args))
		case (t.ID == types.Timestamp || t.ID == types.TimestampTZ) && len(f.Args) != 3:
			return nil, errPlan("generate_series(timestamp) needs a step")
		case t.ID != types.Int4 && t.ID != types.Int8 && t.ID != types.Numeric && t.ID != types.Timestamp && t.ID != types.TimestampTZ:
			return nil, pgerr.New(pgerr.UndefinedFunction, "function generate_series(%v) does not exist", t)
		}
		out[i].typ = t
		if err := compileSetArgs(&out[i], f.Args, input, env); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func compileSetArgs(f *setFunc, args []plan.Expr, input []plan.Column, env *Env) error {
	for _, a := range args {
		c, err := Compile(a, input, env)
		if err != nil {
			return err
		}
		f.args = append(f.args, c)
	}
	return nil
}

// lockstep advances the iterators of one row's functions together.
type lockstep struct {
	next []func() (types.Value, bool, error)
	done []bool
	row  []types.Value
	// the elements an unnest function (next nil) has still to yield
	elems [][]types.Value
}

func newLockstep(n int) *lockstep {
	return &lockstep{next: make([]func() (types.Value, bool, error), n), done: make([]bool, n), row: make([]types.Value, n),
		elems: make([][]types.Value, n)}
}

// start makes function i's iterator from its argument values.
func (l *lockstep) start(i int, f *setFunc, vals []types.Value, eval *types.EvalContext) error {
	if f.unnest {
		l.next[i], l.done[i], l.elems[i] = nil, false, nil
		if !vals[0].Null {
			l.elems[i] = vals[0].Arr.Elems
		}
		return nil
	}
	if f.iter != nil {
		next, err := f.iter(vals)
		if err != nil {
			return err
		}
		l.next[i], l.done[i] = next, false
		return nil
	}
	if f.fn != nil {
		rows, err := types.RowSet(f.fn, vals, eval)
		if err != nil {
			return err
		}
		l.next[i], l.done[i] = func() (types.Value, bool, error) {
			if len(rows) == 0 {
				return types.NullValue, false, nil
			}
			v := rows[0]
			rows = rows[1:]
			return v, true, nil
		}, false
		return nil
	}
	next, err := newSeries(f.typ, vals, eval)
	if err != nil {
		return err
	}
	l.next[i], l.done[i] = next, false
	return nil
}

// advance fills l.row with the next values (NULL for an exhausted
// function); false when every function is exhausted.
func (l *lockstep) advance() (bool, error) {
	any := false
	for i, next := range l.next {
		l.row[i] = types.NullValue
		if l.done[i] {
			continue
		}
		if next == nil {
			if e := l.elems[i]; len(e) > 0 {
				l.row[i], l.elems[i], any = e[0], e[1:], true
			} else {
				l.done[i] = true
			}
			continue
		}
		v, ok, err := next()
		if err != nil {
			return false, err
		}
		if ok {
			l.row[i], any = v, true
		} else {
			l.done[i] = true
		}
	}
	return any, nil
}

func evalEnv(env *Env) *types.EvalContext {
	if env == nil {
		return nil
	}
	return env.Eval
}

// ---- Function Scan ----

type funcScanOp struct {
	funcs      []setFunc
	ordinality bool
	cols       []plan.Column
	schema     *arrow.Schema
	size       int
	eval       *types.EvalContext // session TimeZone for timestamptz series
}

var _ Operator = (*funcScanOp)(nil)

// NewFunctionScan runs the set-returning functions of a FROM item in one
// partition: generate_series(int4|int8|numeric start, stop [, step]) and
// generate_series(timestamp[tz], timestamp[tz], interval). Their arguments
// read no columns (a LATERAL one's outer references come from env.Outer).
func NewFunctionScan(fs []plan.SetFunc, ordinality bool, cols []plan.Column, env *Env) (Operator, error) {
	want := len(fs)
	if ordinality {
		want++
	}
	if len(cols) != want {
		return nil, errPlan("function scan of %d functions has %d columns", len(fs), len(cols))
	}
	funcs, err := compileSetFuncs(fs, nil, env)
	if err != nil {
		return nil, err
	}
	return &funcScanOp{funcs: funcs, ordinality: ordinality, cols: cols, schema: schemaOf(cols), size: batchSize(env), eval: evalEnv(env)}, nil
}

func (f *funcScanOp) Columns() []plan.Column { return f.cols }
func (f *funcScanOp) Partitions() int        { return 1 }

func (f *funcScanOp) Open(ctx context.Context, _ int) (Stream, error) {
	return &funcScanStream{op: f, ctx: ctx}, nil
}

type funcScanStream struct {
	op    *funcScanOp
	ctx   context.Context
	steps *lockstep // nil until the first Next
	done  bool
	ord   int64
}

func (s *funcScanStream) init() error {
	s.steps = newLockstep(len(s.op.funcs))
	for i, f := range s.op.funcs {
		vals := make([]types.Value, len(f.args))
		for j, c := range f.args {
			v, err := c.EvalConst(s.ctx)
			if err != nil {
				return err
			}
			vals[j] = v
		}
		if err := s.steps.start(i, &s.op.funcs[i], vals, s.op.eval); err != nil {
			return err
		}
	}
	return nil
}

func (s *funcScanStream) Next() (arrow.Record, error) {
	if s.steps == nil && !s.done {
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
	bs := make([]array.Builder, len(s.op.cols))
	for i, c := range s.op.cols {
		bs[i] = newBuilder(c.Type, s.op.size)
	}
	n := 0
	for n < s.op.size {
		more, err := s.steps.advance()
		if err != nil {
			return nil, err
		}
		if !more {
			s.done = true
			break
		}
		for i, f := range s.op.funcs {
			types.AppendValue(bs[i], f.typ, s.steps.row[i])
		}
		if s.op.ordinality {
			s.ord++
			types.AppendValue(bs[len(s.op.funcs)], types.Int8Type, types.IntValue(s.ord))
		}
		n++
	}
	if n == 0 {
		return nil, io.EOF
	}
	arrs := make([]arrow.Array, len(bs))
	for i, b := range bs {
		arrs[i] = b.NewArray()
	}
	return array.NewRecord(s.op.schema, arrs, int64(n)), nil
}

func (s *funcScanStream) Close() error { s.done = true; return nil }

// ---- ProjectSet ----

type projectSetOp struct {
	in     Operator
	funcs  []setFunc
	exprs  []*Compiled   // evaluated on every step, the last one too
	cols   []plan.Column // the input's, then one per function, then one per expression
	schema *arrow.Schema
	size   int
	eval   *types.EvalContext
}

var _ Operator = (*projectSetOp)(nil)

// NewProjectSet runs a SELECT list's set-returning functions over each
// input row (PostgreSQL's ProjectSet), partition by partition: every input
// row is repeated once per lockstep row of its functions, their values
// appended as funcCols, then exprs' as exprCols. As in PostgreSQL, exprs
// are evaluated on every step of a row, including the last, which finds
// the functions exhausted and emits nothing (nextval() advances once more
// per input row; a failing expression fails even for a row without rows).
func NewProjectSet(in Operator, fs []plan.SetFunc, funcCols []plan.Column, exprs []plan.Expr, exprCols []plan.Column, env *Env) (Operator, error) {
	if len(fs) != len(funcCols) || len(exprs) != len(exprCols) {
		return nil, errPlan("project set of %d functions and %d expressions has %d+%d columns", len(fs), len(exprs), len(funcCols), len(exprCols))
	}
	funcs, err := compileSetFuncs(fs, in.Columns(), env)
	if err != nil {
		return nil, err
	}
	op := &projectSetOp{in: in, funcs: funcs, size: batchSize(env), eval: evalEnv(env)}
	for _, e := range exprs {
		c, err := Compile(e, in.Columns(), env)
		if err != nil {
			return nil, err
		}
		op.exprs = append(op.exprs, c)
	}
	op.cols = append(append(append([]plan.Column{}, in.Columns()...), funcCols...), exprCols...)
	op.schema = schemaOf(op.cols)
	return op, nil
}

func (o *projectSetOp) Columns() []plan.Column { return o.cols }
func (o *projectSetOp) Partitions() int        { return o.in.Partitions() }

func (o *projectSetOp) Open(ctx context.Context, p int) (Stream, error) {
	s, err := o.in.Open(ctx, p)
	if err != nil {
		return nil, err
	}
	return &projectSetStream{op: o, in: s, ctx: ctx, steps: newLockstep(len(o.funcs))}, nil
}

type projectSetStream struct {
	op  *projectSetOp
	in  Stream
	ctx context.Context
	// The input batch being expanded: its functions' argument columns, the
	// row whose functions run (row < 0: none started yet).
	rec   arrow.Record
	args  [][][]types.Value // per function, per argument, per row
	row   int
	steps *lockstep
	vals  [][]types.Value // per function, the row's argument values (reused: no iterator keeps them)
}

// startRow starts the functions of input row r.
func (s *projectSetStream) startRow(r int) error {
	if s.vals == nil {
		s.vals = make([][]types.Value, len(s.op.funcs))
		for i, f := range s.op.funcs {
			s.vals[i] = make([]types.Value, len(f.args))
		}
	}
	for i := range s.op.funcs {
		vals := s.vals[i]
		for j, a := range s.args[i] {
			vals[j] = a[r]
		}
		if err := s.steps.start(i, &s.op.funcs[i], vals, s.op.eval); err != nil {
			return err
		}
	}
	return nil
}

// nextBatch reads the next input batch and evaluates its argument columns.
func (s *projectSetStream) nextBatch() error {
	rec, err := s.in.Next()
	if err != nil {
		return err
	}
	if err := checkCtx(s.ctx); err != nil {
		return err
	}
	s.rec, s.row = rec, -1
	s.args = make([][][]types.Value, len(s.op.funcs))
	for i, f := range s.op.funcs {
		for _, c := range f.args {
			a, err := c.EvalValues(s.ctx, rec)
			if err != nil {
				return err
			}
			s.args[i] = append(s.args[i], a)
		}
	}
	return nil
}

func (s *projectSetStream) Next() (arrow.Record, error) {
	for {
		if s.rec == nil {
			if err := s.nextBatch(); err != nil {
				return nil, err
			}
		}
		rec := s.rec
		steps, emit, vals, err := s.expand()
		if err != nil {
			return nil, err
		}
		exprs, err := s.evalExprs(rec, steps, emit)
		if err != nil {
			return nil, err
		}
		idx := make([]int, len(emit))
		for i, k := range emit {
			idx[i] = steps[k]
		}
		if len(idx) == 0 {
			continue
		}
		nin := int(rec.NumCols())
		arrs := make([]arrow.Array, nin, nin+len(vals)+len(exprs))
		for i := range arrs {
			arrs[i] = takeArray(rec.Column(i), idx)
		}
		for _, b := range vals {
			arrs = append(arrs, b.NewArray())
		}
		arrs = append(arrs, exprs...)
		return array.NewRecord(s.op.schema, arrs, int64(len(idx))), nil
	}
}

// expand takes up to a batch of steps over s.rec: steps[k] is the input
// row of step k, emit lists the steps that yield a row (the others are
// rows' last steps), vals holds the functions' values of those rows. At
// the end of s.rec it clears s.rec.
func (s *projectSetStream) expand() (steps, emit []int, vals []array.Builder, err error) {
	steps, emit = make([]int, 0, s.op.size), make([]int, 0, s.op.size)
	vals = make([]array.Builder, len(s.op.funcs))
	for i, f := range s.op.funcs {
		vals[i] = newBuilder(f.typ, s.op.size)
	}
	for len(emit) < s.op.size {
		if s.row >= 0 {
			more, err := s.steps.advance()
			if err != nil {
				return nil, nil, nil, err
			}
			steps = append(steps, s.row)
			if more {
				emit = append(emit, len(steps)-1)
				for i, f := range s.op.funcs {
					types.AppendValue(vals[i], f.typ, s.steps.row[i])
				}
				continue
			}
		}
		s.row++
		if s.row >= int(s.rec.NumRows()) {
			s.rec = nil
			break
		}
		if err := s.startRow(s.row); err != nil {
			return nil, nil, nil, err
		}
	}
	return steps, emit, vals, nil
}

// evalExprs evaluates the expressions on every step (over its input row
// of rec, in step order) and returns their values on the emitting ones.
func (s *projectSetStream) evalExprs(rec arrow.Record, steps, emit []int) ([]arrow.Array, error) {
	if len(s.op.exprs) == 0 || len(steps) == 0 {
		return nil, nil
	}
	at := takeRecord(rec, steps)
	out := make([]arrow.Array, len(s.op.exprs))
	for i, c := range s.op.exprs {
		a, err := c.Eval(s.ctx, at)
		if err != nil {
			return nil, err
		}
		out[i] = takeArray(a, emit)
	}
	return out, nil
}

func (s *projectSetStream) Close() error { return s.in.Close() }
