package wire

import (
	"testing"

	"github.com/joind/joind/interleave"
)

// noLock excludes nothing: the broken gate the explorer must catch.
type noLock struct{}

func (noLock) Lock()   {}
func (noLock) Unlock() {}

// watchProgram runs the shipped watchGate with a timer thread firing up to
// three times, a client that leaves at some point, and the query's end
// calling stop. The socket peek (gone) is a choice point of its own: in the
// real server it is a system call during which stop may run.
func watchProgram(broken bool) func(*interleave.Run) {
	return func(r *interleave.Run) {
		g := &watchGate{}
		if broken {
			g.mu = noLock{}
		} else {
			g.mu = r.NewMutex()
		}
		clientLeft, stopReturned := false, false
		cancels, armed := 0, true
		gone := func() bool {
			r.Park("peek socket")
			return clientLeft
		}
		cancel := func(error) {
			cancels++
			if stopReturned {
				r.Failf("cancel after stop returned")
			}
			if cancels > 1 {
				r.Failf("cancelled %d times", cancels)
			}
		}
		r.Go("timer", func() {
			for i := 0; i < 3 && armed; i++ {
				r.Park("timer fires")
				armed = false
				g.fire(gone, cancel, func() { armed = true })
			}
		})
		r.Go("client", func() {
			r.Park("client leaves")
			clientLeft = true
		})
		r.Go("query", func() {
			r.Park("query ends")
			g.stop(func() { armed = false })
			stopReturned = true
		})
	}
}

func TestClientWatchNeverCancelsAfterStop(t *testing.T) {
	res := interleave.Explore(watchProgram(false), interleave.Options{})
	if res.Failure != "" {
		t.Fatalf("%s\n%s", res.Failure, res.TraceString())
	}
	if res.Schedules < 10 {
		t.Fatalf("explored only %d schedules", res.Schedules)
	}
	t.Logf("%d schedules", res.Schedules)
}

// Without the lock, stop can return while a fire is between its stopped
// check and cancel: the explorer must find that schedule.
func TestClientWatchExplorerCatchesAnUnlockedGate(t *testing.T) {
	res := interleave.Explore(watchProgram(true), interleave.Options{})
	if res.Failure == "" {
		t.Fatalf("no failure found in %d schedules", res.Schedules)
	}
	t.Logf("found: %s\n%s", res.Failure, res.TraceString())
}
