package interleave

import (
	"errors"
	"fmt"
	"iter"
	"strings"
)

// Run is one execution of the program under one schedule. Setup (the
// function given to Explore) builds the state and starts threads with Go;
// the threads then run one step at a time as the explorer chooses.
type Run struct {
	threads []*thread
	cur     int // running thread; -1 outside any thread (setup, checks)
	last    int // the thread of the last step; -1 before the first
	failure string
	checks  []func() string
	atEnd   []func()
}

type thread struct {
	name     string
	body     func()
	next     func() (string, bool)
	stop     func()
	yield    func(string) bool
	pending  string      // the label of the step the thread runs next
	ready    func() bool // nil: runnable
	started  bool
	done     bool
	stopping bool
}

// Go starts a thread running body and returns its number. Threads started
// during setup run up to their first park at once (that code belongs to no
// step); a thread started by another thread runs nothing until the explorer
// schedules its first step, labelled "start".
func (r *Run) Go(name string, body func()) int {
	th := &thread{name: name, body: body, pending: "start"}
	i := len(r.threads)
	r.threads = append(r.threads, th)
	th.next, th.stop = iter.Pull(func(yield func(string) bool) {
		th.yield = yield
		defer func() {
			if p := recover(); p != nil && p != errStopped {
				panic(p)
			}
		}()
		th.body()
	})
	if r.cur < 0 {
		r.resume(i)
	}
	return i
}

// resume runs thread i up to its next park.
func (r *Run) resume(i int) {
	th := r.threads[i]
	prev := r.cur
	r.cur = i
	th.started = true
	label, ok := th.next()
	th.pending, th.done = label, !ok
	r.cur = prev
}

// Park is a choice point of the running thread: it stops before the step
// named label, and runs it when the explorer next picks it. Outside a
// thread (setup) it does nothing.
func (r *Run) Park(label string) { r.Block(label, nil) }

// Block parks like Park, and the thread is not runnable until ready
// reports true (nil: always). ready is evaluated between steps, so it may
// read any state.
func (r *Run) Block(label string, ready func() bool) {
	if r.cur < 0 {
		return
	}
	th := r.threads[r.cur]
	if th.stopping {
		panic(errStopped)
	}
	th.ready = ready
	if !th.yield(label) {
		// The run is over (Explore stops every thread at the end of a
		// schedule): unwind the thread, deferred code included, without
		// running any more of it.
		th.stopping = true
		panic(errStopped)
	}
	th.ready = nil
}

// errStopped unwinds a thread whose schedule has ended.
var errStopped = errors.New("interleave: schedule ended")

// Current is the running thread's number (-1 in setup and checks).
func (r *Run) Current() int { return r.cur }

// Last is the thread that ran the last step (-1 before the first), for
// checks.
func (r *Run) Last() int { return r.last }

// Name is thread i's name.
func (r *Run) Name(i int) string { return r.threads[i].name }

// Threads is the number of threads started so far.
func (r *Run) Threads() int { return len(r.threads) }

// Done reports whether thread i has returned.
func (r *Run) Done(i int) bool { return r.threads[i].done }

// Blocked reports whether thread i is live and waiting on a condition that
// is false now.
func (r *Run) Blocked(i int) bool {
	th := r.threads[i]
	return !th.done && th.ready != nil && !th.ready()
}

// Pending is the label of thread i's next step.
func (r *Run) Pending(i int) string { return r.threads[i].pending }

// Failf records the schedule's failure (the first one counts); the run
// stops after the current step.
func (r *Run) Failf(format string, args ...any) {
	if r.failure == "" {
		r.failure = fmt.Sprintf(format, args...)
	}
}

// Failed reports whether the run has failed.
func (r *Run) Failed() bool { return r.failure != "" }

// Check adds an invariant evaluated after every step (and after setup): a
// non-empty result fails the run.
func (r *Run) Check(f func() string) { r.checks = append(r.checks, f) }

// AtEnd adds a function run when every thread has returned without a
// failure (not for abandoned schedules); it may call Failf, and the checks
// run once more after it.
func (r *Run) AtEnd(f func()) { r.atEnd = append(r.atEnd, f) }

func (r *Run) check() {
	for _, c := range r.checks {
		if r.failure != "" {
			return
		}
		if msg := c(); msg != "" {
			r.Failf("%s", msg)
		}
	}
}

func (r *Run) stopAll() {
	for i, th := range r.threads {
		r.cur = i
		th.stop()
	}
	r.cur = -1
}

// Step names a thread's step for Options.Dependent.
type Step struct {
	Thread int
	Name   string // the thread's name
	Label  string // the park label the step starts from
}

// Options tune Explore.
type Options struct {
	// Dependent enables partial-order reduction (see the package doc):
	// whether two steps of different threads may not commute. nil: every
	// schedule is run.
	Dependent func(a, b Step) bool
	// MaxSteps bounds one schedule (0: 10000); a longer one fails as a
	// livelock.
	MaxSteps int
	// NoShrink keeps a failing schedule's trace as found.
	NoShrink bool
	// MaxPreemptions, if positive, explores only the schedules with at
	// most that many preemptions (switching away from a thread that could
	// go on; switches at a Block or a thread's end are free): exhaustive
	// within the bound, for programs whose full space is too large (most
	// concurrency bugs need very few preemptions).
	MaxPreemptions int
}

// Result is what Explore found.
type Result struct {
	Schedules int // complete schedules run
	Abandoned int // schedules abandoned as equivalent to another
	// Failure is the first failing schedule's message ("" if none), Trace
	// its steps ("thread label" each), shrunk unless Options.NoShrink.
	Failure string
	Trace   []string
}

// TraceString is the trace as indented lines.
func (res Result) TraceString() string { return "  " + strings.Join(res.Trace, "\n  ") }

// outcome of one schedule.
type outcome struct {
	made, alts []int // choice index and alternatives at each step
	seq        []int // the thread run at each step
	trace      []string
	failure    string
	abandoned  bool
}

// runOne runs one schedule. choices[i] picks among the runnable threads
// (in number order) at step i, 0 past its end; with seq (a replay), step i
// runs thread seq[i] if it is runnable, else the lowest runnable one, and
// the reduction is off.
func runOne(setup func(*Run), opt Options, choices, seq []int) outcome {
	r := &Run{cur: -1, last: -1}
	defer r.stopAll()
	setup(r)
	var o outcome
	r.check()
	maxSteps := opt.MaxSteps
	if maxSteps == 0 {
		maxSteps = 10000
	}
	reduce := opt.Dependent != nil && seq == nil
	prev, prevLabel := -1, ""
	preemptions := 0
	for step := 0; r.failure == ""; step++ {
		var runnable []int
		live, pruned := false, false
		for i, th := range r.threads {
			if th.done {
				continue
			}
			live = true
			if th.ready != nil && !th.ready() {
				continue
			}
			if reduce && prev > i && !opt.Dependent(Step{prev, r.threads[prev].name, prevLabel}, Step{i, th.name, th.pending}) {
				pruned = true // the same steps in the other order are explored
				continue
			}
			runnable = append(runnable, i)
		}
		if !live {
			break
		}
		if len(runnable) == 0 {
			if pruned {
				o.abandoned = true
				return o
			}
			var blocked []string
			for _, th := range r.threads {
				if !th.done {
					blocked = append(blocked, th.name+" at "+th.pending)
				}
			}
			r.Failf("deadlock: %s", strings.Join(blocked, ", "))
			break
		}
		if opt.MaxPreemptions > 0 && preemptions >= opt.MaxPreemptions && seq == nil {
			for _, i := range runnable {
				if i == prev {
					runnable = []int{prev} // no preemption left: prev goes on
					break
				}
			}
		}
		if step >= maxSteps {
			r.Failf("no end after %d steps", maxSteps)
			break
		}
		c := 0
		switch {
		case seq != nil:
			for k, i := range runnable {
				if step < len(seq) && i == seq[step] {
					c = k
				}
			}
		case step < len(choices):
			c = choices[step]
		}
		o.made = append(o.made, c)
		o.alts = append(o.alts, len(runnable))
		i := runnable[c]
		th := r.threads[i]
		if prev >= 0 && i != prev && !r.threads[prev].done && (r.threads[prev].ready == nil || r.threads[prev].ready()) {
			preemptions++
		}
		o.seq = append(o.seq, i)
		o.trace = append(o.trace, th.name+" "+th.pending)
		prev, prevLabel = i, th.pending
		r.last = i
		r.resume(i)
		r.check()
	}
	if r.failure == "" {
		for _, f := range r.atEnd {
			f()
		}
		r.check()
	}
	o.failure = r.failure
	return o
}

// Explore runs setup's program under every schedule, depth-first, and stops
// at the first failure. setup is called afresh for each schedule and must
// build the whole state anew.
func Explore(setup func(*Run), opt Options) Result {
	var res Result
	var prefix []int
	for {
		o := runOne(setup, opt, prefix, nil)
		if o.abandoned {
			res.Abandoned++
		} else {
			res.Schedules++
		}
		if o.failure != "" {
			res.Failure, res.Trace = o.failure, o.trace
			if !opt.NoShrink {
				res.Trace = shrink(setup, opt, o)
			}
			return res
		}
		// Backtrack: bump the deepest choice with an untried alternative.
		i := len(o.made) - 1
		for i >= 0 && o.made[i]+1 >= o.alts[i] {
			i--
		}
		if i < 0 {
			return res
		}
		prefix = append(o.made[:i:i], o.made[i]+1)
	}
}

// switches counts the context switches of a schedule.
func switches(seq []int) int {
	n := 0
	for i := 1; i < len(seq); i++ {
		if seq[i] != seq[i-1] {
			n++
		}
	}
	return n
}

// shrink looks for a failing schedule with fewer context switches: at each
// switch it tries to let the previous thread go on, and keeps the change if
// the replay still fails (with any message).
func shrink(setup func(*Run), opt Options, o outcome) []string {
	best := o
	for budget := 200; budget > 0; {
		improved := false
		for i := 1; i < len(best.seq) && budget > 0; i++ {
			if best.seq[i] == best.seq[i-1] {
				continue
			}
			cand := append([]int(nil), best.seq...)
			cand[i] = cand[i-1]
			budget--
			r := runOne(setup, opt, nil, cand)
			if r.failure != "" && switches(r.seq) < switches(best.seq) {
				best, improved = r, true
				break
			}
		}
		if !improved {
			break
		}
	}
	if best.failure != o.failure {
		return append(best.trace, "(fails with: "+best.failure+")")
	}
	return best.trace
}

// Mutex is a sync.Locker for code under the explorer: Lock is a choice
// point that blocks while another thread holds the lock.
type Mutex struct {
	r    *Run
	held bool
}

// NewMutex returns an unlocked Mutex of run r.
func (r *Run) NewMutex() *Mutex { return &Mutex{r: r} }

func (m *Mutex) Lock()   { m.r.Block("lock", func() bool { return !m.held }); m.held = true }
func (m *Mutex) Unlock() { m.held = false }
