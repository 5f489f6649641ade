package operators

import (
	"context"
	"io"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
)

// Sink is the input side of a pipeline breaker (aggregate, sort, set
// operation, a join's build side): Drain gives every input partition a
// state of its own (Init), folds that partition's batches into it on the
// partition's goroutine (Consume: the state is not shared, so no locking),
// and once every partition is done combines the states in partition order
// on the caller's goroutine (Combine folds partition p's state into the
// combination of partitions 0..p-1, which starts as partition 0's).
type Sink[S any] interface {
	Init(p int) S
	Consume(ctx context.Context, s S, rec arrow.Record) error
	Combine(dst, src S) error
}

// Finisher is a Sink's optional last step of a partition: Drain calls
// Finish on the partition's goroutine after its stream ended, before any
// Combine, so per-partition work (a sort's sorting) runs in parallel.
type Finisher[S any] interface {
	Finish(ctx context.Context, s S) error
}

// Drain reads every partition of src into its own state through
// RunPartitions (its cancellation and error rules) and returns the
// combined state. It checks ctx after every batch.
func Drain[S any](ctx context.Context, src Source, sink Sink[S]) (S, error) {
	n := src.Partitions()
	states := make([]S, n)
	for p := range states {
		states[p] = sink.Init(p)
	}
	fin, _ := any(sink).(Finisher[S])
	err := RunPartitions(ctx, src, func(ctx context.Context, p int, s Stream) error {
		err := EachBatch(s, func(rec arrow.Record) error {
			if err := sink.Consume(ctx, states[p], rec); err != nil {
				return err
			}
			return checkCtx(ctx)
		})
		if err == nil && fin != nil {
			err = fin.Finish(ctx, states[p])
		}
		return err
	})
	var zero S
	if err != nil {
		return zero, err
	}
	if n == 0 {
		return sink.Init(0), nil
	}
	for _, s := range states[1:] {
		if err := sink.Combine(states[0], s); err != nil {
			return zero, err
		}
	}
	return states[0], nil
}

// batches is the Sink that keeps every batch.
type batches struct{}

func (batches) Init(int) *[]arrow.Record { return new([]arrow.Record) }
func (batches) Consume(_ context.Context, s *[]arrow.Record, rec arrow.Record) error {
	*s = append(*s, rec)
	return nil
}
func (batches) Combine(dst, src *[]arrow.Record) error { *dst = append(*dst, *src...); return nil }

// Collect reads every partition of src concurrently and returns all
// batches (partition order, then stream order).
func Collect(ctx context.Context, src Source) ([]arrow.Record, error) {
	recs, err := Drain(ctx, src, batches{})
	if err != nil {
		return nil, err
	}
	return *recs, nil
}

// breakerStream is a pipeline breaker's output (the finalize step): the
// first Next runs run, which drains the input (Drain) and finishes the
// combined state, and then yields what its emitter produces, checking ctx
// before every batch. The emitter returns nil at the end.
type breakerStream struct {
	ctx  context.Context
	run  func(ctx context.Context) (emit func() (arrow.Record, error), err error)
	emit func() (arrow.Record, error)
	ran  bool
	// cleanup (optional) releases what run left behind (spill files,
	// reserved memory): called at the end, on an error and by Close.
	cleanup func()
}

func newBreakerStream(ctx context.Context, run func(ctx context.Context) (func() (arrow.Record, error), error)) *breakerStream {
	return &breakerStream{ctx: ctx, run: run}
}

func (s *breakerStream) Next() (arrow.Record, error) {
	if !s.ran {
		s.ran = true
		emit, err := s.run(s.ctx)
		if err != nil {
			s.clean()
			return nil, err
		}
		s.emit = emit
	}
	if s.emit == nil {
		s.clean()
		return nil, io.EOF
	}
	if err := checkCtx(s.ctx); err != nil {
		s.clean()
		return nil, err
	}
	rec, err := s.emit()
	if err != nil {
		s.clean()
		return nil, err
	}
	if rec == nil {
		s.emit = nil
		s.clean()
		return nil, io.EOF
	}
	return rec, nil
}

func (s *breakerStream) clean() {
	if s.cleanup != nil {
		s.cleanup()
		s.cleanup = nil
	}
}

// Close drops the result; the input was drained (and its goroutines
// waited for) inside Next.
func (s *breakerStream) Close() error { s.ran, s.emit = true, nil; s.clean(); return nil }

// onceValue returns a function computing f once (concurrency-safe).
func onceValue[T any](f func() T) func() T {
	return sync.OnceValue(f)
}

// EachBatch calls f on every batch of s, in order, until the end of the
// stream or the first error (s's or f's).
func EachBatch(s Stream, f func(arrow.Record) error) error {
	for {
		rec, err := s.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if err := f(rec); err != nil {
			return err
		}
	}
}
