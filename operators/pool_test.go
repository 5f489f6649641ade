package operators

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"testing"

	"github.com/joind/joind/pgerr"
)

// Ordered on real goroutines: results in input order, the first failing
// item's error (not a later read error), an early stop, cancellation as
// 57014, and no goroutine left behind.
func TestOrderedPool(t *testing.T) {
	base := runtime.NumGoroutine()
	run := func(ctx context.Context, n, failAt, readFailAt, stopAfter int) ([]int, error) {
		next := 0
		var got []int
		err := Ordered(ctx, 4,
			func(ctx context.Context) (int, bool, error) {
				if next == readFailAt {
					return 0, false, errors.New("read failed")
				}
				if next == n {
					return 0, false, nil
				}
				next++
				return next - 1, true, nil
			},
			func(ctx context.Context, w int, item int) (int, error) {
				if item == failAt {
					return 0, errBoom
				}
				for i := 0; i < (item%7)*1000; i++ { // uneven work
					runtime.Gosched()
				}
				return item, nil
			},
			func(v int) (bool, error) {
				got = append(got, v)
				return len(got) == stopAfter, nil
			})
		return got, err
	}
	ctx := context.Background()
	got, err := run(ctx, 200, -1, -1, -1)
	if err != nil || len(got) != 200 {
		t.Fatalf("got %d results, %v", len(got), err)
	}
	for i, v := range got {
		if v != i {
			t.Fatalf("result %d is %d", i, v)
		}
	}
	if got, err := run(ctx, 200, 50, 60, -1); !errors.Is(err, errBoom) || len(got) != 50 {
		t.Fatalf("failing item: %d results, %v", len(got), err)
	}
	if got, err := run(ctx, 200, -1, 60, -1); err == nil || err.Error() != "read failed" || len(got) != 60 {
		t.Fatalf("read error: %d results, %v", len(got), err)
	}
	if got, err := run(ctx, 200, -1, -1, 10); err != nil || fmt.Sprint(got) != "[0 1 2 3 4 5 6 7 8 9]" {
		t.Fatalf("stop: %v, %v", got, err)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := run(cctx, 200, -1, -1, -1); pgerr.Code(err) != pgerr.QueryCanceled {
		t.Fatalf("cancelled: %v", err)
	}
	waitGoroutines(t, base)
}
