package operators

import (
	"context"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/storage"
)

// defaultBatchSize is the batch size when Env.BatchSize is unset.
const defaultBatchSize = 1024

// defaultScanBatch is NewScan's slice size: the engine's default batch size.
// Per-batch costs (slicing, key evaluation, output records) are paid once
// per slice, so a 10M-row scan at 1024 rows pays them 10,000 times.
const defaultScanBatch = 4096

func batchSize(env *Env) int {
	if env == nil || env.BatchSize <= 0 {
		return defaultBatchSize
	}
	return env.BatchSize
}

// scanOp reads a table's snapshot. The snapshot is taken when the first
// partition opens, so all partitions see the same batches.
type scanOp struct {
	table    storage.Table
	ordinals []int
	cols     []plan.Column
	parts    int
	size     int
	schema   *arrow.Schema

	snap  func() []arrow.Record
	taken []arrow.Record
}

var _ Operator = (*scanOp)(nil)

// NewScan reads columns ordinals of t (cols describes them) as `partitions`
// streams; the snapshot's batches, cut into slices of at most the batch
// size, are dealt round-robin.
func NewScan(t storage.Table, ordinals []int, cols []plan.Column, partitions int) Operator {
	if partitions < 1 {
		partitions = 1
	}
	s := &scanOp{table: t, ordinals: ordinals, cols: cols, parts: partitions, size: defaultScanBatch, schema: schemaOf(cols)}
	s.snap = onceValue(t.Snapshot)
	return s
}

// NewScanBatch is NewScan with an explicit batch size.
func NewScanBatch(t storage.Table, ordinals []int, cols []plan.Column, partitions, size int) Operator {
	s := NewScan(t, ordinals, cols, partitions).(*scanOp)
	if size > 0 {
		s.size = size
	}
	return s
}

func (s *scanOp) Columns() []plan.Column { return s.cols }
func (s *scanOp) Partitions() int        { return s.parts }

func (s *scanOp) Open(ctx context.Context, p int) (Stream, error) {
	return &scanStream{op: s, ctx: ctx, p: p, recs: s.snap()}, nil
}

type scanStream struct {
	op   *scanOp
	ctx  context.Context
	p    int
	recs []arrow.Record
	ri   int   // current snapshot batch
	off  int64 // offset within it
	k    int   // global slice counter, for round-robin
	done bool
}

func (s *scanStream) Next() (arrow.Record, error) {
	for !s.done {
		if err := checkCtx(s.ctx); err != nil {
			return nil, err
		}
		if s.ri >= len(s.recs) {
			s.done = true
			break
		}
		rec := s.recs[s.ri]
		n := rec.NumRows()
		if s.off >= n {
			s.ri++
			s.off = 0
			continue
		}
		end := s.off + int64(s.op.size)
		if end > n {
			end = n
		}
		mine := s.k%s.op.parts == s.p
		s.k++
		lo := s.off
		s.off = end
		if !mine {
			continue
		}
		return s.project(rec, lo, end), nil
	}
	return nil, io.EOF
}

func (s *scanStream) project(rec arrow.Record, lo, hi int64) arrow.Record {
	arrs := make([]arrow.Array, len(s.op.ordinals))
	whole := lo == 0 && hi == rec.NumRows()
	for i, o := range s.op.ordinals {
		c := rec.Column(o)
		if !whole {
			c = array.NewSlice(c, lo, hi)
		}
		arrs[i] = c
	}
	return array.NewRecord(s.op.schema, arrs, hi-lo)
}

func (s *scanStream) Close() error { s.done = true; return nil }
