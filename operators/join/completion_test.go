package join

import (
	"fmt"
	"sync"
	"testing"

	"github.com/joind/joind/interleave"
)

// This file checks the probe-completion protocol with the interleaving
// explorer (package interleave): each simulated partition is a thread, and
// every operation on a shared Word is a park point where the explorer
// decides who runs next. sync/atomic is sequentially consistent, so
// interleavings are all the behaviours there are. The code under test is
// the real Completion, instantiated over simWord.

// simWord is a Word whose every operation is a scheduling point.
type simWord struct {
	r    *interleave.Run
	name string
	v    uint64
}

func (w *simWord) park(op string) { w.r.Park(w.name + "." + op) }

func (w *simWord) Load() uint64 { w.park("Load"); return w.v }
func (w *simWord) Add(d uint64) uint64 {
	w.park(fmt.Sprintf("Add(%d)", int64(d)))
	w.v += d
	return w.v
}
func (w *simWord) Or(m uint64) uint64 {
	w.park(fmt.Sprintf("Or(%#b)", m))
	old := w.v
	w.v |= m
	return old
}
func (w *simWord) CompareAndSwap(o, n uint64) bool {
	w.park(fmt.Sprintf("CAS(%d,%d)", o, n))
	if w.v != o {
		return false
	}
	w.v = n
	return true
}

// protocol is the surface the partitions use, so the broken variant below
// can be run by the same partition program.
type protocol interface {
	Record(Fact)
	Hint(Fact) bool
	Finish() (Summary, bool)
}

// brokenCompletion reads the facts BEFORE decrementing the counter: the bug
// of seed 000. It exists only to show the explorer catches it.
type brokenCompletion[W Word] struct{ c *Completion[W] }

func (b brokenCompletion[W]) Record(f Fact)    { b.c.Record(f) }
func (b brokenCompletion[W]) Hint(f Fact) bool { return b.c.Hint(f) }
func (b brokenCompletion[W]) Finish() (Summary, bool) {
	f := Fact(b.c.facts.Load()) // too early
	if b.c.running.Add(^uint64(0)) == 0 {
		return Summary{facts: f}, true
	}
	return Summary{}, false
}

// scenario gives each partition its batches' facts.
type scenario [][]Fact

// ghost is the checker's own view of what was recorded, updated in the same
// atomic step as the Or that records it (no choice point in between).
type ghost struct {
	recorded Fact
	lasts    int
	failure  string
}

// partition is the program of one probe partition: before each batch after
// the first it reads the hint (a NULL recorded anywhere lets it skip the rest,
// as the uncorrelated null-aware anti join does), records the batch's facts,
// then finishes.
func partition(p protocol, g *ghost, id int, batches []Fact) {
	for i, f := range batches {
		if i > 0 {
			h := p.Hint(FactNullKey)
			if h && g.recorded&FactNullKey == 0 {
				g.failure = fmt.Sprintf("P%d: hint reported a NULL nobody recorded", id)
			}
			if h {
				break
			}
		}
		p.Record(f)
		g.recorded |= f
	}
	s, last := p.Finish()
	if !last {
		return
	}
	g.lasts++
	// Everyone else finished, so everything that will be recorded was.
	if s.facts != g.recorded {
		g.failure = fmt.Sprintf("P%d is last but saw facts %#b, recorded were %#b", id, s.facts, g.recorded)
	}
}

// program is one run of sc: the partitions as threads over a fresh
// Completion (the broken variant if broken), checked when all have finished.
func program(sc scenario, broken bool) func(*interleave.Run) {
	return func(run *interleave.Run) {
		running := &simWord{r: run, name: "running"}
		facts := &simWord{r: run, name: "facts"}
		g := &ghost{}
		// Construction happens before the partitions start: no choice points.
		running.v = uint64(len(sc))
		c := &Completion[*simWord]{running: running, facts: facts}
		var p protocol = c
		if broken {
			p = brokenCompletion[*simWord]{c}
		}
		for i := range sc {
			run.Go(fmt.Sprintf("P%d", i), func() { partition(p, g, i, sc[i]) })
		}
		run.Check(func() string { return g.failure })
		run.AtEnd(func() {
			if g.lasts != 1 {
				run.Failf("%d partitions observed themselves last", g.lasts)
			}
		})
	}
}

// explore enumerates every schedule of sc.
func explore(sc scenario, broken bool) interleave.Result {
	return interleave.Explore(program(sc, broken), interleave.Options{})
}

const (
	r  = FactRow
	rn = FactRow | FactNullKey
)

// scenarios cover 2 and 3 partitions with several batches, NULLs early,
// late, in one partition or several, and an empty partition.
var scenarios = []scenario{
	{{r, r, r}, {r, rn, r}},
	{{rn, r, r}, {r, r, rn}},
	{{r, r, r}, {r, r, r}},
	{{}, {r, rn}},
	{{r, r}, {r, rn}, {r, r}},
	{{rn, r}, {}, {r, rn}},
	{{r, r}, {r, r}, {r, r}},
}

func TestCompletionAllSchedules(t *testing.T) {
	all := scenarios
	if raceEnabled {
		all = all[:3] // the rest run in the plain go test
	}
	for _, sc := range all {
		res := explore(sc, false)
		if res.Failure != "" {
			t.Fatalf("scenario %v: %s\nschedule:\n%s", sc, res.Failure, res.TraceString())
		}
		n := res.Schedules
		// Sanity: the explorer did branch (more than one schedule with >1 partition).
		if n < 2 {
			t.Fatalf("scenario %v: only %d schedule explored", sc, n)
		}
		t.Logf("scenario %v: %d schedules, invariant holds", sc, n)
	}
}

// The same explorer finds the read-before-decrement bug, and shows how.
func TestCompletionExplorerCatchesEarlyRead(t *testing.T) {
	found := false
	for _, sc := range scenarios {
		res := explore(sc, true)
		if res.Failure == "" {
			continue
		}
		found = true
		t.Logf("broken variant fails on scenario %v after %d schedules: %s\nschedule:\n%s",
			sc, res.Schedules, res.Failure, res.TraceString())
		break
	}
	if !found {
		t.Fatal("explorer did not find the read-before-decrement bug")
	}
}

// The explorer's schedule count matches the multinomial for a scenario whose
// program has no data-dependent branches: 2 partitions of 2 ops each (one
// Record of a non-NULL fact, Finish) plus the final facts Load of the last one
// (which has no alternatives) → C(4,2) = 6.
func TestExplorerCountsSchedules(t *testing.T) {
	res := explore(scenario{{r}, {r}}, false)
	if res.Failure != "" || res.Schedules != 6 {
		t.Fatalf("got %d schedules (%q), want 6", res.Schedules, res.Failure)
	}
}

// The atomic instantiation under real concurrency (run with -race).
func TestAtomicCompletionConcurrent(t *testing.T) {
	for round := 0; round < 200; round++ {
		const n = 8
		c := newAtomicCompletion(n)
		var wg sync.WaitGroup
		lasts := make(chan Summary, n)
		for p := 0; p < n; p++ {
			wg.Add(1)
			go func(p int) {
				defer wg.Done()
				c.Record(FactRow)
				if p == round%n {
					c.Record(FactNullKey)
				}
				if s, last := c.Finish(); last {
					lasts <- s
				}
			}(p)
		}
		wg.Wait()
		close(lasts)
		var got []Summary
		for s := range lasts {
			got = append(got, s)
		}
		if len(got) != 1 || !got[0].SawRow() || !got[0].SawNullKey() {
			t.Fatalf("round %d: lasts %v", round, got)
		}
	}
}
