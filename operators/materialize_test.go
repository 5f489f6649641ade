package operators

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/types"
)

// Every reader of a Materialized sees the rows of one run, however many
// read it concurrently; a reader's cancellation does not stick, an error
// does.
func TestMaterializedRunsOnce(t *testing.T) {
	cs := cols(types.Int8Type)
	var runs atomic.Int32
	m := NewMaterialized(func(context.Context) ([]arrow.Record, error) {
		n := runs.Add(1)
		return []arrow.Record{mkRecord(cs, [][]types.Value{{I(int64(n))}, {I(10)}})}, nil
	})
	var wg sync.WaitGroup
	got := make([][]string, 8)
	for i := range got {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			recs, err := Collect(context.Background(), NewMaterializedScan(m, cs))
			if err != nil {
				t.Error(err)
				return
			}
			for _, r := range recs {
				for _, row := range recRows(r, cs) {
					got[i] = append(got[i], fmtRow(row, cs))
				}
			}
		}(i)
	}
	wg.Wait()
	if runs.Load() != 1 {
		t.Fatalf("plan ran %d times, want 1", runs.Load())
	}
	for i, g := range got {
		if len(g) != 2 || g[0] != got[0][0] || g[1] != got[0][1] {
			t.Errorf("reader %d saw %v, reader 0 %v", i, g, got[0])
		}
	}

	// A cancelled first reader leaves the rows to be computed by the next.
	runs.Store(0)
	m = NewMaterialized(func(ctx context.Context) ([]arrow.Record, error) {
		runs.Add(1)
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		return []arrow.Record{mkRecord(cs, [][]types.Value{{I(1)}})}, nil
	})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := m.rows(ctx); err == nil {
		t.Fatal("cancelled reader got rows")
	}
	if recs, err := m.rows(context.Background()); err != nil || len(recs) != 1 || runs.Load() != 2 {
		t.Fatalf("after a cancelled reader: %d records, err %v, %d runs", len(recs), err, runs.Load())
	}

	// A real error is every reader's answer, without running again.
	runs.Store(0)
	m = NewMaterialized(func(context.Context) ([]arrow.Record, error) {
		runs.Add(1)
		return nil, pgerr.New(pgerr.DivisionByZero, "division by zero")
	})
	for i := 0; i < 2; i++ {
		_, err := Collect(context.Background(), NewMaterializedScan(m, cs))
		wantCode(t, err, pgerr.DivisionByZero)
	}
	if runs.Load() != 1 {
		t.Errorf("failing plan ran %d times, want 1", runs.Load())
	}
}
