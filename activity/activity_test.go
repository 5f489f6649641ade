package activity

import (
	"fmt"
	"sync"
	"testing"
	"time"
)

func TestStatesFollowReadyForQuery(t *testing.T) {
	r := NewRegistry(time.Unix(100, 0))
	t0 := time.Unix(1000, 0)
	b := r.Register(&Backend{PID: 7, User: "u", Database: "d", BackendStart: t0}, Signals{}, "app")
	row := func() Row {
		rows := r.Rows()
		if len(rows) != 1 {
			t.Fatalf("%d rows", len(rows))
		}
		return rows[0]
	}
	if got := row(); got.State != "idle" || !got.XactStart.IsZero() || got.StateChange != t0 || got.ApplicationName != "app" {
		t.Fatalf("after register: %+v", got)
	}
	b.StartQuery("BEGIN", t0.Add(time.Second))
	if got := row(); got.State != "active" || got.XactStart != t0.Add(time.Second) || got.Query != "BEGIN" {
		t.Fatalf("running BEGIN: %+v", got)
	}
	b.Ready('T', t0.Add(2*time.Second))
	b.StartQuery("SELECT 1", t0.Add(3*time.Second))
	// Inside the block the transaction's start stays BEGIN's.
	if got := row(); got.XactStart != t0.Add(time.Second) || got.QueryStart != t0.Add(3*time.Second) {
		t.Fatalf("second statement: %+v", got)
	}
	b.Ready('E', t0.Add(4*time.Second))
	if got := row(); got.State != "idle in transaction (aborted)" || !got.XactStart.IsZero() {
		t.Fatalf("aborted: %+v", got)
	}
	b.Ready('I', t0.Add(5*time.Second))
	b.SetApplicationName("other")
	if got := row(); got.State != "idle" || got.StateChange != t0.Add(5*time.Second) || got.ApplicationName != "other" {
		t.Fatalf("idle again: %+v", got)
	}
	b.Unregister()
	if len(r.Rows()) != 0 {
		t.Fatal("unregistered backend still listed")
	}
}

func TestSignalsReachOnlyLiveBackends(t *testing.T) {
	r := NewRegistry(time.Now())
	var cancels, terms int
	b := r.Register(&Backend{PID: 1}, Signals{Cancel: func() { cancels++ }, Terminate: func() { terms++ }}, "")
	if !r.Cancel(1) || !r.Terminate(1) || r.Cancel(2) || r.Terminate(2) {
		t.Fatal("signal results wrong")
	}
	b.Unregister()
	if r.Cancel(1) {
		t.Fatal("signalled a gone backend")
	}
	if cancels != 1 || terms != 1 {
		t.Fatalf("cancels %d, terminates %d", cancels, terms)
	}
}

// The registry's invariant: a row is one instant of its backend, never a
// query paired with another query's start time, while the backend runs
// queries and other sessions read rows (run under -race too).
func TestRowsAreConsistentUnderConcurrency(t *testing.T) {
	r := NewRegistry(time.Now())
	base := time.Unix(0, 0)
	var wg sync.WaitGroup
	for pid := int32(1); pid <= 4; pid++ {
		b := r.Register(&Backend{PID: pid, BackendStart: base}, Signals{}, "")
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 1; i <= 2000; i++ {
				b.StartQuery(fmt.Sprintf("q%d", i), base.Add(time.Duration(i)))
				b.Ready('I', base.Add(time.Duration(i)))
			}
		}()
	}
	stop := make(chan struct{})
	var readers sync.WaitGroup
	for k := 0; k < 2; k++ {
		readers.Add(1)
		go func() {
			defer readers.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				for _, row := range r.Rows() {
					if row.Query == "" {
						continue
					}
					if want := fmt.Sprintf("q%d", row.QueryStart.Sub(base)); row.Query != want {
						t.Errorf("pid %d: query %s with the start time of %s", row.PID, row.Query, want)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	close(stop)
	readers.Wait()
}
