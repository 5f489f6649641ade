package operators

import "context"

// Ordered is the toolkit's worker pool. next yields the items in input
// order (called on one goroutine of the pool, never concurrently, with
// ok false at the end); work turns an item into a result on one of
// `workers` goroutines (worker is its number, for per-worker scratch
// state); done receives the results in input order on the caller's
// goroutine. At most 2×workers items are in flight (taken from next and
// not yet given to done), so a slow done holds next back.
//
// The pool stops taking items when next reports the end or fails, when
// work or done fails, or when done asks to stop; it then cancels and waits
// for its goroutines before returning. Errors come in input order: a
// failure of work or done on an item beats next's error on a later one;
// a real error beats the cancellation it caused; a cancellation is 57014.
func Ordered[T, R any](ctx context.Context, workers int,
	next func(ctx context.Context) (item T, ok bool, err error),
	work func(ctx context.Context, worker int, item T) (R, error),
	done func(R) (stop bool, err error)) error {
	workers = max(workers, 1)
	p := &pool[T, R]{g: newGroup(ctx, "pool"), window: 2 * workers}
	p.results = make([]poolResult[R], p.window)
	p.g.spawn(1, "feeder", func(ctx context.Context, _ int) error { return p.feed(ctx, next) })
	p.g.spawn(workers, "worker", func(ctx context.Context, w int) error { return p.work(ctx, w, work) })
	err := p.deliver(done)
	// The goroutines fail only by cancellation (work's errors are
	// results), so the group's own error is never the cause.
	p.g.close()
	if err == nil {
		err = checkCtx(ctx)
	}
	return canceledIf(err)
}

// pool is Ordered's state, under g.m.
type pool[T, R any] struct {
	g         *group
	window    int
	taken     int // items taken from next (or reserved by the feeder)
	delivered int // results given to done
	tasks     []poolTask[T]
	results   []poolResult[R] // by item index mod window
	inputDone bool
	inputErr  error
}

type poolTask[T any] struct {
	idx  int
	item T
}

type poolResult[R any] struct {
	set bool
	r   R
	err error
}

func (p *pool[T, R]) feed(ctx context.Context, next func(context.Context) (T, bool, error)) error {
	m := &p.g.m
	for {
		m.lock()
		ok := m.await(ctx, "slot", func() bool { return p.taken-p.delivered < p.window })
		idx := p.taken
		if ok {
			p.taken++ // reserve the slot before reading, outside the lock
		}
		m.unlock()
		if !ok {
			return checkCtx(ctx)
		}
		item, more, err := next(ctx)
		m.lock()
		if err != nil || !more {
			p.taken--
			p.inputDone, p.inputErr = true, err
		} else {
			p.tasks = append(p.tasks, poolTask[T]{idx: idx, item: item})
		}
		m.broadcast()
		m.unlock()
		if err != nil || !more {
			return nil
		}
	}
}

func (p *pool[T, R]) work(ctx context.Context, w int, work func(context.Context, int, T) (R, error)) error {
	m := &p.g.m
	for {
		m.lock()
		ok := m.await(ctx, "task", func() bool { return len(p.tasks) > 0 || p.inputDone })
		if !ok || len(p.tasks) == 0 {
			m.unlock()
			return checkCtx(ctx)
		}
		t := p.tasks[0]
		p.tasks = p.tasks[1:]
		m.unlock()
		r, err := work(ctx, w, t.item)
		m.lock()
		p.results[t.idx%p.window] = poolResult[R]{set: true, r: r, err: err}
		m.broadcast()
		m.unlock()
	}
}

// deliver hands the results to done in input order until the end, a
// failure or a stop.
func (p *pool[T, R]) deliver(done func(R) (bool, error)) error {
	m := &p.g.m
	for {
		m.lock()
		slot := &p.results[p.delivered%p.window]
		end := func() bool { return p.inputDone && p.delivered == p.taken }
		ok := m.await(p.g.ctx, "result", func() bool { return slot.set || end() })
		if !ok {
			m.unlock()
			return nil // cancelled: the caller reports it
		}
		if !slot.set {
			err := p.inputErr
			m.unlock()
			return err
		}
		res := *slot
		*slot = poolResult[R]{}
		p.delivered++
		m.broadcast()
		m.unlock()
		if res.err != nil {
			return res.err
		}
		stop, err := done(res.r)
		if err != nil || stop {
			return err
		}
	}
}
