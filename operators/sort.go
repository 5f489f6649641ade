package operators

import (
	"context"
	"sort"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

type sortOp struct {
	in   Operator
	keys []*Compiled
	spec []plan.SortKey
	size int
}

var _ Operator = (*sortOp)(nil)

// NewSort gathers every partition of in and orders the rows by keys
// (stable; NULLS FIRST/LAST as resolved in each key) into one partition.
func NewSort(in Operator, keys []plan.SortKey, env *Env) (Operator, error) {
	op := &sortOp{in: in, spec: keys, size: batchSize(env)}
	for _, k := range keys {
		c, err := Compile(k.Expr, in.Columns(), env)
		if err != nil {
			return nil, err
		}
		op.keys = append(op.keys, c)
	}
	return op, nil
}

func (o *sortOp) Columns() []plan.Column { return o.in.Columns() }
func (o *sortOp) Partitions() int        { return 1 }

func (o *sortOp) Open(ctx context.Context, _ int) (Stream, error) {
	return newBreakerStream(ctx, o.run), nil
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

// run gathers and orders the input and returns the emitter of the
// ordered rows.
func (o *sortOp) run(ctx context.Context) (func() (arrow.Record, error), error) {
	all, err := gatherAll(ctx, o.in)
	if err != nil || all == nil {
		return nil, err
	}
	n := int(all.NumRows())
	keys := make([][]types.Value, len(o.keys))
	for k, c := range o.keys {
		arr, err := c.Eval(ctx, all)
		if err != nil {
			return nil, err
		}
		t := c.Type()
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
	spec := o.spec
	sort.SliceStable(perm, func(x, y int) bool {
		i, j := perm[x], perm[y]
		for k, vals := range keys {
			a, b := vals[i], vals[j]
			var c int
			switch {
			case a.Null && b.Null:
				continue
			case a.Null:
				c = 1
				if spec[k].NullsFirst {
					c = -1
				}
				return c < 0
			case b.Null:
				c = -1
				if spec[k].NullsFirst {
					c = 1
				}
				return c < 0
			}
			c = compareValues(a, b, o.keys[k].Type())
			if c == 0 {
				continue
			}
			if spec[k].Desc {
				c = -c
			}
			return c < 0
		}
		return false
	})
	if err := checkCtx(ctx); err != nil {
		return nil, err
	}
	at := 0
	return func() (arrow.Record, error) {
		if at >= len(perm) {
			return nil, nil
		}
		end := min(at+o.size, len(perm))
		out := takeRecord(all, perm[at:end])
		at = end
		return out, nil
	}, nil
}
