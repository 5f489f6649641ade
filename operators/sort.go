package operators

import (
	"context"
	"io"
	"sort"
	"sync"

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
	return &sortStream{op: o, ctx: ctx}, nil
}

type sortStream struct {
	op   *sortOp
	ctx  context.Context
	ran  bool
	all  arrow.Record
	perm []int
	at   int
}

// gatherAll reads every partition of op into one record (nil when empty).
func gatherAll(ctx context.Context, op Operator) (arrow.Record, error) {
	parts := make([][]arrow.Record, op.Partitions())
	var mu sync.Mutex
	err := runPartitions(ctx, op, func(p int, s Stream) error {
		var recs []arrow.Record
		for {
			r, err := s.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				return err
			}
			recs = append(recs, r)
		}
		mu.Lock()
		parts[p] = recs
		mu.Unlock()
		return nil
	})
	if err != nil {
		return nil, err
	}
	var recs []arrow.Record
	for _, rs := range parts {
		recs = append(recs, rs...)
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

func (s *sortStream) run() error {
	all, err := gatherAll(s.ctx, s.op.in)
	if err != nil || all == nil {
		return err
	}
	n := int(all.NumRows())
	keys := make([][]types.Value, len(s.op.keys))
	for k, c := range s.op.keys {
		arr, err := c.Eval(s.ctx, all)
		if err != nil {
			return err
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
	spec := s.op.spec
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
			c = compareValues(a, b, s.op.keys[k].Type())
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
	s.all, s.perm = all, perm
	return checkCtx(s.ctx)
}

func (s *sortStream) Next() (arrow.Record, error) {
	if !s.ran {
		s.ran = true
		if err := s.run(); err != nil {
			return nil, err
		}
	}
	if s.at >= len(s.perm) {
		return nil, io.EOF
	}
	if err := checkCtx(s.ctx); err != nil {
		return nil, err
	}
	end := min(s.at+s.op.size, len(s.perm))
	out := takeRecord(s.all, s.perm[s.at:end])
	s.at = end
	return out, nil
}

func (s *sortStream) Close() error { s.ran, s.perm, s.all = true, nil, nil; return nil }
