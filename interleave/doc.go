// Package interleave is joind's exhaustive interleaving explorer: a
// stateless model checker that runs real code under every schedule of its
// synchronisation points.
//
// The code under test runs as threads (coroutines, iter.Pull), exactly one
// at a time. It calls Run.Park at each point where another thread's step
// could matter (an atomic operation, taking a lock, cancelling a context)
// and Run.Block where it waits for a condition; the explorer then decides
// who runs next. A step of a thread is what it executes from one park to
// the next, so the code must park before every access to state another
// thread can see: between two parks it must touch only its own. Explore
// enumerates the schedules depth-first (every choice among the runnable
// threads at every park), and reports the first failing one — a Failf, a
// Check that fails after a step, or a deadlock (live threads, none
// runnable) — with its trace, shrunk to few context switches.
//
// Partial-order reduction: with Options.Dependent, a schedule in which two
// adjacent independent steps run the higher-numbered thread first is
// abandoned, since the same steps in the other order are explored (the
// least schedule of each class of equivalent ones — Mazurkiewicz traces —
// has no such pair). Dependent must err towards dependence, and a step that
// enables another (makes its Block condition true, or starts it) must be
// dependent with it.
//
// Options.MaxPreemptions bounds the search instead, for programs whose
// full space is too large: every schedule with at most that many
// preemptions.
//
// The users are operators/join's probe-completion check (its Completion is
// generic over its atomic words), storage's group-commit check (its
// committer runs over a simulated commitSync), and the parallel-execution
// toolkit's check in operators (its goroutines and monitors take explorer
// hooks from the context), wire's vanished-client watch (its gate takes
// the explorer's lock), and storage's segment cache (its segments' and the
// cache's locks are the explorer's). Keep it one package: a second scheduler would
// be a second thing to trust.
//
// interleave imports nothing of joind.
package interleave
