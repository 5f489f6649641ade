package operators

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/joind/joind/sql/plan"
)

// Instrumented wraps an operator for EXPLAIN ANALYZE: it counts the rows and
// batches all partitions produce and measures wall time from the first Open to the last
// end of stream (inclusive of the operator's inputs, like PostgreSQL's
// "actual time").
type Instrumented struct {
	in      Operator
	rows    atomic.Int64
	batches atomic.Int64
	loops   atomic.Int64

	mu         sync.Mutex
	start, end time.Time
}

var _ Operator = (*Instrumented)(nil)

// NewInstrumented wraps in.
func NewInstrumented(in Operator) *Instrumented { return &Instrumented{in: in} }

func (o *Instrumented) Columns() []plan.Column { return o.in.Columns() }
func (o *Instrumented) Partitions() int        { return o.in.Partitions() }

// Rows is the number of rows produced so far.
func (o *Instrumented) Rows() int64 { return o.rows.Load() }

// Note is the wrapped operator's own EXPLAIN ANALYZE addition, e.g. a
// scan's "(segments skipped: 8 of 10)"; "" when it has none.
func (o *Instrumented) Note() string {
	if n, ok := o.in.(interface{ ExplainNote() string }); ok {
		return n.ExplainNote()
	}
	return ""
}

// Batches is the number of batches produced so far.
func (o *Instrumented) Batches() int64 { return o.batches.Load() }

// Streams is the number of partitions opened.
func (o *Instrumented) Streams() int64 { return o.loops.Load() }

// Elapsed is the wall time between the first Open and the last finished stream.
func (o *Instrumented) Elapsed() time.Duration {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.start.IsZero() || o.end.Before(o.start) {
		return 0
	}
	return o.end.Sub(o.start)
}

func (o *Instrumented) mark(start bool) {
	now := time.Now()
	o.mu.Lock()
	if start && (o.start.IsZero() || now.Before(o.start)) {
		o.start = now
	}
	if !start && now.After(o.end) {
		o.end = now
	}
	o.mu.Unlock()
}

func (o *Instrumented) Open(ctx context.Context, p int) (Stream, error) {
	o.mark(true)
	o.loops.Add(1)
	s, err := o.in.Open(ctx, p)
	if err != nil {
		return nil, err
	}
	return &instrStream{op: o, in: s}, nil
}

type instrStream struct {
	op *Instrumented
	in Stream
}

func (s *instrStream) Next() (arrow.Record, error) {
	r, err := s.in.Next()
	if err != nil {
		s.op.mark(false)
		return nil, err
	}
	s.op.rows.Add(r.NumRows())
	s.op.batches.Add(1)
	s.op.mark(false)
	return r, nil
}

func (s *instrStream) Close() error { return s.in.Close() }
