package operators

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/joind/joind/pgerr"
)

// The parallel-execution toolkit's core: the cancellation and error rules,
// the monitor every toolkit structure keeps its state under, and the group
// every fan-out runs its goroutines in. doc.go ("Parallel execution")
// states the contract; parallel.go, collect.go and pool.go are written on
// these pieces and nothing else.

// canceled turns a context error into PostgreSQL's query-cancel error. It
// is the one place an operator makes 57014: every context error leaving
// the toolkit or an operator's loop goes through it (engine only picks the
// message for statement_timeout).
func canceled(err error) error {
	var pe *pgerr.Error
	if errors.As(err, &pe) {
		return err
	}
	return pgerr.Wrap(err, pgerr.QueryCanceled, "canceling statement due to user request")
}

// checkCtx returns the cancel error if ctx is done.
func checkCtx(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return canceled(err)
	}
	return nil
}

// rowCancelEvery is how many rows a row-at-a-time loop (a function or
// cast per row: numeric math, regexps, text parsing) evaluates between
// cancel checks, so a slow function stops within a few rows, not a batch.
const rowCancelEvery = 16

// canceledIf is err, a cancellation as 57014.
func canceledIf(err error) error {
	if err != nil && isCancel(err) {
		return canceled(err)
	}
	return err
}

// isCancel reports whether err is a cancellation: a context error or 57014.
func isCancel(err error) bool {
	var pe *pgerr.Error
	return errors.As(err, &pe) && pe.Code == pgerr.QueryCanceled ||
		errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

// firstCause is the one error-precedence rule of every fan-out: the first
// error stands, except that a real error replaces a cancellation — a
// failing partition cancels its siblings, and their cancellations must not
// hide the cause.
func firstCause(cur, err error) error {
	if cur == nil || isCancel(cur) && err != nil && !isCancel(err) {
		return err
	}
	return cur
}

// hooks run the toolkit under the interleaving explorer (package
// interleave, parallel_explore_test.go): a context carrying them makes the
// toolkit start its goroutines as explorer threads and park at each
// synchronisation point. Production contexts carry none.
type hooks interface {
	Go(name string, f func())
	Park(label string)
	Block(label string, ready func() bool)
}

type hooksKey struct{}

func withHooks(ctx context.Context, h hooks) context.Context {
	return context.WithValue(ctx, hooksKey{}, h)
}

func hooksOf(ctx context.Context) hooks {
	h, _ := ctx.Value(hooksKey{}).(hooks)
	return h
}

// monitor is a mutex with one condition, whose waits also end when a
// context is done (no goroutine per wait). Under hooks, taking the lock is
// a park point and a wait is an explorer Block; the mutex itself is not
// used then, since explorer threads run one at a time and a step never
// parks inside a critical section.
type monitor struct {
	mu   sync.Mutex
	wake chan struct{} // closed by broadcast; nil while nobody waits
	h    hooks
	name string // names the monitor in explorer traces
}

func (m *monitor) lock() {
	if m.h != nil {
		m.h.Park("lock " + m.name)
		return
	}
	m.mu.Lock()
}

func (m *monitor) unlock() {
	if m.h == nil {
		m.mu.Unlock()
	}
}

// broadcast wakes every waiter; the lock is held.
func (m *monitor) broadcast() {
	if m.wake != nil {
		close(m.wake)
		m.wake = nil
	}
}

// await waits, the lock held, until cond holds (evaluated under the lock)
// or ctx is done (nil: never), and reports whether cond holds.
func (m *monitor) await(ctx context.Context, label string, cond func() bool) bool {
	var done <-chan struct{}
	if ctx != nil {
		done = ctx.Done()
	}
	for !cond() {
		if ctx != nil && ctx.Err() != nil {
			return false
		}
		if m.h != nil {
			m.h.Block(label+" "+m.name, func() bool { return cond() || ctx != nil && ctx.Err() != nil })
			continue
		}
		if m.wake == nil {
			m.wake = make(chan struct{})
		}
		w := m.wake
		m.mu.Unlock()
		select {
		case <-w:
		case <-done:
		}
		m.mu.Lock()
	}
	return true
}

// group is the toolkit's one fan-out: goroutines running under a context
// derived from the caller's, the first cause of failure by firstCause, and
// a wait for all of them. Its monitor also guards the state of the
// structure built on it (a gather's queue, an exchange's queues).
type group struct {
	ctx     context.Context
	cancel  context.CancelFunc
	h       hooks
	m       monitor
	running int
	err     error
}

func newGroup(ctx context.Context, name string) *group {
	g := &group{h: hooksOf(ctx)}
	g.ctx, g.cancel = context.WithCancel(ctx)
	g.m.h, g.m.name = g.h, name
	return g
}

// spawn runs f(ctx, i) for i < n, each on a goroutine of the group; an
// error fails the group. name names goroutine i in explorer traces.
func (g *group) spawn(n int, name string, f func(ctx context.Context, i int) error) {
	g.m.lock()
	g.running += n
	g.m.unlock()
	for i := 0; i < n; i++ {
		run := func() {
			err := runRecovered(g.ctx, i, f)
			if err != nil {
				g.fail(err)
			}
			g.m.lock()
			g.running--
			g.m.broadcast()
			g.m.unlock()
		}
		if g.h != nil {
			g.h.Go(fmt.Sprintf("%s%d", name, i), run)
			continue
		}
		go run()
	}
}

// fail records err (by firstCause) and cancels the group.
func (g *group) fail(err error) {
	g.m.lock()
	g.err = firstCause(g.err, err)
	g.m.broadcast()
	g.m.unlock()
	g.stop()
}

// stop cancels the group's context.
func (g *group) stop() {
	if g.h != nil {
		g.h.Park("cancel " + g.m.name)
	}
	g.cancel()
}

// wait waits for every goroutine of the group (however long: they stop at
// their next check of the context) and returns the group's error as the
// toolkit reports it: the first cause, a cancellation as 57014.
func (g *group) wait() error {
	g.m.lock()
	g.m.await(nil, "wait", func() bool { return g.running == 0 })
	err := g.err
	g.m.unlock()
	return canceledIf(err)
}

// close stops the group and waits for its goroutines.
func (g *group) close() {
	g.stop()
	g.wait()
}

// failure is the group's recorded error, or the cancellation of its
// context; the lock is held.
func (g *group) failure() error {
	if g.err != nil {
		return canceledIf(g.err)
	}
	return checkCtx(g.ctx)
}

// runRecovered runs f(ctx, i), turning a panic into an XX000 error: a bug
// in one partition's goroutine fails its statement (as a panic on the
// session's goroutine does in package wire), never the server.
func runRecovered(ctx context.Context, i int, f func(ctx context.Context, i int) error) (err error) {
	defer pgerr.Recover(nil, &err, "a partition goroutine")
	return f(ctx, i)
}
