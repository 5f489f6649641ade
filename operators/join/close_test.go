package join

import (
	"context"
	"errors"
	"io"
	"math/rand"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/joind/joind/operators"
	"github.com/joind/joind/sql/plan"
)

// Closing streams early (a LIMIT above the join) or cancelling must not
// deadlock or leak the repartitioning goroutines.
func TestEarlyCloseAndCancel(t *testing.T) {
	rng := rand.New(rand.NewSource(6))
	L, R := genRows(rng, 3000), genRows(rng, 3000)
	before := runtime.NumGoroutine()
	for _, mode := range []Mode{CollectLeft, Partitioned} {
		for _, cancelIt := range []bool{false, true} {
			c := jcase{typ: plan.InnerJoin, nkeys: 1, mode: mode}
			op, err := newHashJoin(newMem(lc, L, 4, 64), newMem(rc, R, 4, 64), c.spec(), &operators.Env{BatchSize: 64})
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			var wg sync.WaitGroup
			for p := 0; p < op.Partitions(); p++ {
				wg.Add(1)
				go func(p int) {
					defer wg.Done()
					s, err := op.Open(ctx, p)
					if err != nil {
						t.Error(err)
						return
					}
					defer s.Close()
					if cancelIt {
						cancel()
					}
					if _, err := s.Next(); err != nil && err != io.EOF && !errors.Is(err, context.Canceled) {
						t.Error(err)
					}
				}(p)
			}
			done := make(chan struct{})
			go func() { wg.Wait(); close(done) }()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				t.Fatalf("%s cancel=%v: streams did not finish", mode, cancelIt)
			}
			cancel()
		}
	}
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before+2 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before+2 {
		buf := make([]byte, 1<<16)
		t.Fatalf("%d goroutines left (from %d):\n%s", n, before, buf[:runtime.Stack(buf, true)])
	}
}
