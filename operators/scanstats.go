package operators

import (
	"context"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/storage"
)

// ScanRecorder hears of the scans of stored tables (the cumulative
// statistics of pg_stat_all_tables and pg_stat_statements; package stats
// keeps them, the engine supplies the recorder through Env.Scans): as
// each partition's stream of a scan closes, the rows it returned; with
// the first, scans 1 and the segments the scan reads, so a scan counts
// once however many partitions it has and rows count even when a LIMIT
// leaves some partitions unopened.
type ScanRecorder func(t storage.Table, index bool, scans, rows, segments int64)

// NewRecordedScan wraps a scan of t so that rec hears of it. The wrapper
// passes the scan's EXPLAIN ANALYZE note through.
func NewRecordedScan(in Operator, t storage.Table, index bool, rec ScanRecorder) Operator {
	if _, ext := t.(storage.External); rec == nil || ext {
		return in // files outside the store have no statistics to keep
	}
	return &recordedScan{in: in, table: t, index: index, rec: rec}
}

type recordedScan struct {
	in      Operator
	table   storage.Table
	index   bool
	rec     ScanRecorder
	counted atomic.Bool // the scan itself has been reported
}

func (o *recordedScan) Columns() []plan.Column { return o.in.Columns() }
func (o *recordedScan) Partitions() int        { return o.in.Partitions() }

func (o *recordedScan) ExplainNote() string {
	if n, ok := o.in.(interface{ ExplainNote() string }); ok {
		return n.ExplainNote()
	}
	return ""
}

// Narrow implements Narrower for the wrapped scan.
func (o *recordedScan) Narrow(keep func(plan.ColumnID) bool) error {
	if n, ok := o.in.(Narrower); ok {
		return n.Narrow(keep)
	}
	return nil
}

func (o *recordedScan) Open(ctx context.Context, p int) (Stream, error) {
	s, err := o.in.Open(ctx, p)
	if err != nil {
		return nil, err
	}
	return &recordedStream{op: o, in: s}, nil
}

// recordedStream is one partition's stream; one goroutine uses it.
type recordedStream struct {
	op     *recordedScan
	in     Stream
	rows   int64
	closed bool
}

func (s *recordedStream) Next() (arrow.Record, error) {
	r, err := s.in.Next()
	if err == nil {
		s.rows += r.NumRows()
	}
	return r, err
}

func (s *recordedStream) Close() error {
	err := s.in.Close()
	if s.closed {
		return err
	}
	s.closed = true
	o := s.op
	var scans, segs int64
	if o.counted.CompareAndSwap(false, true) {
		scans = 1
		if sr, ok := o.in.(interface{ segmentsRead() int64 }); ok {
			segs = sr.segmentsRead()
		}
	}
	o.rec(o.table, o.index, scans, s.rows, segs)
	return err
}

// segmentsRead is how many segments the scan's snapshot holds (after
// segment skipping): the storage blocks it read.
func (s *scanOp) segmentsRead() int64 {
	var n int64
	last, first := uint64(0), true
	for _, p := range s.snap() {
		if first || p.seg != last {
			n++
		}
		first, last = false, p.seg
	}
	return n
}
