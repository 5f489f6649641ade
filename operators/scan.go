package operators

import (
	"context"
	"fmt"
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

	// Segment skipping (skip.go): tests from plan.Scan.Skip, and what the
	// snapshot skipped, for EXPLAIN ANALYZE (segTotal < 0: not segmented).
	tests                []segTest
	segSkipped, segTotal int
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

// NewScanSkip is NewScanBatch that also skips the segments of a
// storage.Segmented table whose statistics prove no row satisfies one of
// the skip predicates (plan.Scan.Skip). size <= 0 keeps the default.
func NewScanSkip(t storage.Table, ordinals []int, cols []plan.Column, partitions, size int, skip []plan.Expr) Operator {
	s := NewScanBatch(t, ordinals, cols, partitions, size).(*scanOp)
	s.segTotal = -1
	if st, ok := t.(storage.Segmented); ok {
		if s.tests = compileSkips(skip, ordinals, cols); len(s.tests) > 0 {
			s.snap = onceValue(func() []arrow.Record {
				segs := st.Segments()
				recs, skipped := skipSegments(segs, s.tests)
				s.segSkipped, s.segTotal = skipped, len(segs)
				return recs
			})
		}
	}
	return s
}

// SegmentsSkipped reports how many of the table's segments the scan skipped
// (ok=false when it did not consult segment statistics, or has not run).
// It is read after the scan has finished.
func (s *scanOp) SegmentsSkipped() (skipped, total int, ok bool) {
	if len(s.tests) == 0 {
		return 0, 0, false
	}
	s.snap() // already taken when the scan ran; cheap then
	return s.segSkipped, s.segTotal, s.segTotal >= 0
}

// ExplainNote is the scan's EXPLAIN ANALYZE addition.
func (s *scanOp) ExplainNote() string {
	sk, tot, ok := s.SegmentsSkipped()
	if !ok {
		return ""
	}
	return fmt.Sprintf("(segments skipped: %d of %d)", sk, tot)
}

// Narrow implements Narrower: the scan reads only the columns its consumer
// keeps (a filter's predicate columns plus what is above it).
func (s *scanOp) Narrow(keep func(plan.ColumnID) bool) error {
	var ords []int
	var cols []plan.Column
	for i, c := range s.cols {
		if keep(c.ID) {
			ords = append(ords, s.ordinals[i])
			cols = append(cols, c)
		}
	}
	s.ordinals, s.cols, s.schema = ords, cols, schemaOf(cols)
	return nil
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
