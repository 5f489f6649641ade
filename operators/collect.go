package operators

import (
	"context"
	"io"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
)

// Collect runs every partition of op concurrently and returns all batches
// (partition order, then stream order).
func Collect(ctx context.Context, op Operator) ([]arrow.Record, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	n := op.Partitions()
	out := make([][]arrow.Record, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for p := 0; p < n; p++ {
		wg.Add(1)
		go func(p int) {
			defer wg.Done()
			out[p], errs[p] = collectPartition(ctx, op, p)
			if errs[p] != nil {
				cancel() // stop the other partitions early
			}
		}(p)
	}
	wg.Wait()
	if err := firstError(errs); err != nil {
		return nil, err
	}
	var all []arrow.Record
	for _, rs := range out {
		all = append(all, rs...)
	}
	return all, nil
}

func collectPartition(ctx context.Context, op Operator, p int) ([]arrow.Record, error) {
	s, err := op.Open(ctx, p)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	var recs []arrow.Record
	for {
		r, err := s.Next()
		if err == io.EOF {
			return recs, nil
		}
		if err != nil {
			return nil, err
		}
		recs = append(recs, r)
	}
}

// firstError prefers a real error over the cancellations it caused.
func firstError(errs []error) error {
	var first error
	for _, e := range errs {
		if e == nil {
			continue
		}
		if first == nil || isCancel(first) && !isCancel(e) {
			first = e
		}
	}
	return first
}

// onceValue returns a function computing f once (concurrency-safe).
func onceValue[T any](f func() T) func() T {
	return sync.OnceValue(f)
}
