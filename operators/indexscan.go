package operators

import (
	"context"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// IndexBounds are an index scan's key bounds as the planner chose them:
// each expression a Const or a Param, evaluated when the scan opens.
type IndexBounds struct {
	Lo, Hi                   []plan.Expr
	LoInclusive, HiInclusive bool
}

type indexScanOp struct {
	table    storage.Table
	def      storage.IndexDef
	bounds   IndexBounds
	ordinals []int
	cols     []plan.Column // x.Columns(): the RowID column last if any
	rowID    bool
	schema   *arrow.Schema
	env      *Env
}

// NewIndexScan reads the rows of scan x's table whose key on index def
// lies within bounds, as one partition, with x's columns (and RowIDs when
// x asks for them). Rows come in key order within each segment.
func NewIndexScan(x *plan.Scan, def storage.IndexDef, bounds IndexBounds, env *Env) Operator {
	cols := x.Columns()
	return &indexScanOp{table: x.Table, def: def, bounds: bounds, ordinals: x.Ordinals, cols: cols,
		rowID: x.RowID.ID != 0, schema: schemaOf(cols), env: env}
}

func (s *indexScanOp) Columns() []plan.Column { return s.cols }
func (s *indexScanOp) Partitions() int        { return 1 }

// boundValues evaluates a bound; ok is false when a value is NULL (no key
// is then in range: the comparison is never true).
func (s *indexScanOp) boundValues(es []plan.Expr) ([]types.Value, bool, error) {
	if es == nil {
		return nil, true, nil
	}
	out := make([]types.Value, len(es))
	for i, e := range es {
		switch x := e.(type) {
		case *plan.Const:
			out[i] = x.Val
		case *plan.Param:
			if x.Index < 1 || x.Index > len(s.env.Params) {
				return nil, false, pgerr.New("42P02", "there is no parameter $%d", x.Index)
			}
			out[i] = s.env.Params[x.Index-1]
		default:
			return nil, false, pgerr.New(pgerr.InternalError, "index scan: bound %T is not a constant", e)
		}
		if out[i].Null {
			return nil, false, nil
		}
	}
	return out, true, nil
}

func (s *indexScanOp) Open(ctx context.Context, p int) (Stream, error) {
	ix, ok := s.table.(storage.Indexed)
	if !ok {
		return nil, pgerr.New(pgerr.InternalError, "index scan on table %q, which keeps no indexes", s.table.Name())
	}
	st := &indexScanStream{ctx: ctx, op: s}
	lo, okLo, err := s.boundValues(s.bounds.Lo)
	if err != nil {
		return nil, err
	}
	hi, okHi, err := s.boundValues(s.bounds.Hi)
	if err != nil {
		return nil, err
	}
	if !okLo || !okHi {
		return st, nil
	}
	st.matches, err = ix.IndexLookup(s.def, storage.KeyRange{Lo: lo, Hi: hi, LoInclusive: s.bounds.LoInclusive, HiInclusive: s.bounds.HiInclusive})
	return st, err
}

type indexScanStream struct {
	ctx     context.Context
	op      *indexScanOp
	matches []storage.IndexMatch
	i       int
}

func (s *indexScanStream) Next() (arrow.Record, error) {
	if err := checkCtx(s.ctx); err != nil {
		return nil, err
	}
	if s.i >= len(s.matches) {
		return nil, io.EOF
	}
	m := s.matches[s.i]
	s.i++
	arrs := make([]arrow.Array, 0, len(s.op.cols))
	for _, o := range s.op.ordinals {
		arrs = append(arrs, takeArray(m.Record.Column(o), m.Rows))
	}
	if s.op.rowID {
		b := array.NewInt64Builder(memory.DefaultAllocator)
		for _, id := range m.IDs {
			b.Append(int64(id))
		}
		arrs = append(arrs, b.NewArray())
	}
	return array.NewRecord(s.op.schema, arrs, int64(len(m.Rows))), nil
}

func (s *indexScanStream) Close() error { s.i = len(s.matches); return nil }
