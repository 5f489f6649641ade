package pgcopy

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/joind/joind/sql"
	"github.com/joind/joind/types"
)

// Defaults gives COPY FROM the values of the columns its column list
// omits, from the DEFAULTs the binder bound (sql.Copy.Defaults) as INSERT
// binds them, evaluated as PostgreSQL's CopyFrom evaluates them: errors
// its planner raises folding constants fail the statement before any data
// is read (the engine prepares the defaults, checking that, and sets them
// here); a volatile default (random(), clock_timestamp()) is evaluated
// for every row, vectorized over each batch; any other default has one
// value for the statement, computed once. A per-statement default that
// fails to evaluate fails the first row (after that row's own fields are
// checked), as it fails every row in PostgreSQL, and a COPY of no rows
// succeeds.
type Defaults struct {
	ctx   context.Context
	given []bool        // per table column: the column list names it
	fill  []types.Value // per table column: the value of an omitted, non-volatile column
	errs  []error       // per table column: its per-statement default's error
	volAt []int         // per table column: its entry in vol, or -1
	vol   []volatileDefault
	// perRow is set when row has work beyond copying fill: a volatile
	// default or an error.
	perRow bool
	// ordered is set when a default has side effects (set_config): every
	// volatile default is then evaluated a row at a time, rows in input
	// order, as PostgreSQL evaluates them (a batch would run each call of
	// the expression for all rows before the next call).
	ordered bool
}

// Evaluator is a compiled DEFAULT expression over no input columns
// (operators.Compiled).
type Evaluator interface {
	Type() types.Type
	EvalConst(ctx context.Context) (types.Value, error)
	EvalColumns(ctx context.Context, cols []arrow.Array, n int) (arrow.Array, error)
}

type volatileDefault struct {
	col  int
	expr Evaluator
}

// NewDefaults returns x's omitted columns all NULL; the engine then sets
// each bound DEFAULT (SetValue, SetError, AddVolatile). ctx is the
// statement's, under which volatile defaults run.
func NewDefaults(ctx context.Context, x *sql.Copy) *Defaults {
	defs := x.Table.Columns()
	d := &Defaults{ctx: ctx, given: make([]bool, len(defs)), fill: make([]types.Value, len(defs)),
		errs: make([]error, len(defs)), volAt: make([]int, len(defs))}
	for _, c := range x.Columns {
		d.given[c] = true
	}
	for i := range d.fill {
		d.fill[i], d.volAt[i] = types.NullValue, -1
	}
	return d
}

// SetValue gives omitted column c one value for the statement.
func (d *Defaults) SetValue(c int, v types.Value) { d.fill[c] = v }

// SetError makes omitted column c's default fail every row with err.
func (d *Defaults) SetError(c int, err error) { d.errs[c], d.perRow = err, true }

// AddVolatile evaluates e for omitted column c per row; ordered says it
// has side effects, so rows are evaluated one at a time in input order.
func (d *Defaults) AddVolatile(c int, e Evaluator, ordered bool) {
	d.volAt[c] = len(d.vol)
	d.vol = append(d.vol, volatileDefault{col: c, expr: e})
	d.perRow = true
	d.ordered = d.ordered || ordered
}

// rowFails reports whether every row fails on omitted column c: its
// per-statement default errs, or is NULL in a NOT NULL column.
func (d *Defaults) rowFails(c int, notNull bool) bool {
	return !d.given[c] && d.volAt[c] < 0 && (d.errs[c] != nil || notNull && d.fill[c].Null)
}

// row sets the omitted columns of one row whose given columns are set, in
// table column order as PostgreSQL evaluates them; it returns the first
// error.
func (d *Defaults) row(vals []types.Value) error {
	for c, given := range d.given {
		switch {
		case given:
		case d.errs[c] != nil:
			return d.errs[c]
		case d.volAt[c] >= 0:
			v, err := d.vol[d.volAt[c]].expr.EvalConst(d.ctx)
			if err != nil {
				return err
			}
			vals[c] = v
		default:
			vals[c] = d.fill[c]
		}
	}
	return nil
}

// batch evaluates the volatile defaults for n rows: one array per entry of
// vol. An error does not say which row failed: the caller finds it with row.
func (d *Defaults) batch(n int) ([]arrow.Array, error) {
	out := make([]arrow.Array, len(d.vol))
	if d.ordered {
		bs := make([]array.Builder, len(d.vol))
		for i, v := range d.vol {
			bs[i] = array.NewBuilder(memory.DefaultAllocator, v.expr.Type().ArrowType())
		}
		for r := 0; r < n; r++ {
			for i, v := range d.vol {
				val, err := v.expr.EvalConst(d.ctx)
				if err != nil {
					return nil, err
				}
				types.AppendValue(bs[i], v.expr.Type(), val)
			}
		}
		for i, b := range bs {
			out[i] = b.NewArray()
		}
		return out, nil
	}
	for i, v := range d.vol {
		a, err := v.expr.EvalColumns(d.ctx, nil, n)
		if err != nil {
			return nil, err
		}
		out[i] = a
	}
	return out, nil
}
