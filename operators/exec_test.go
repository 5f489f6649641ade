package operators

import (
	"context"
	"errors"
	"testing"

	"github.com/joind/joind/pgerr"
)

// A panic on a partition's goroutine fails the statement with XX000; it
// must not take the process down.
func TestRunPartitionsRecoversPanic(t *testing.T) {
	src := Streams(2, func(ctx context.Context, p int) (Stream, error) { return emptyStream{}, nil })
	err := RunPartitions(context.Background(), src, func(ctx context.Context, p int, s Stream) error {
		if p == 1 {
			var xs []int
			_ = xs[p]
		}
		return nil
	})
	var pe *pgerr.Error
	if !errors.As(err, &pe) || pe.Code != pgerr.InternalError {
		t.Fatalf("err = %v, want XX000", err)
	}
}
