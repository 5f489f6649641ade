package operators

import (
	"context"
	"io"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// ---- Gather ----

type gatherOp struct{ in Operator }

var _ Operator = (*gatherOp)(nil)

// NewGather runs all partitions of in concurrently, one goroutine each, and
// merges their batches into one partition (in no particular order).
func NewGather(in Operator) Operator {
	if in.Partitions() == 1 {
		return in
	}
	return &gatherOp{in: in}
}

func (g *gatherOp) Columns() []plan.Column { return g.in.Columns() }
func (g *gatherOp) Partitions() int        { return 1 }

func (g *gatherOp) Open(ctx context.Context, _ int) (Stream, error) {
	ctx, cancel := context.WithCancel(ctx)
	s := &gatherStream{ctx: ctx, cancel: cancel, ch: make(chan arrow.Record, g.in.Partitions())}
	n := g.in.Partitions()
	s.wg.Add(n)
	for p := 0; p < n; p++ {
		go s.produce(g.in, p)
	}
	go func() { s.wg.Wait(); close(s.ch) }()
	return s, nil
}

type gatherStream struct {
	ctx    context.Context
	cancel context.CancelFunc
	ch     chan arrow.Record
	wg     sync.WaitGroup

	mu  sync.Mutex
	err error // first error of a producer
}

func (s *gatherStream) fail(err error) {
	s.mu.Lock()
	if s.err == nil || isCancel(s.err) && !isCancel(err) {
		s.err = err
	}
	s.mu.Unlock()
	s.cancel()
}

func (s *gatherStream) produce(in Operator, p int) {
	defer s.wg.Done()
	st, err := in.Open(s.ctx, p)
	if err != nil {
		s.fail(err)
		return
	}
	defer st.Close()
	for {
		rec, err := st.Next()
		if err == io.EOF {
			return
		}
		if err != nil {
			s.fail(err)
			return
		}
		select {
		case s.ch <- rec:
		case <-s.ctx.Done():
			return
		}
	}
}

func (s *gatherStream) Next() (arrow.Record, error) {
	rec, ok := <-s.ch
	if ok {
		return rec, nil
	}
	s.mu.Lock()
	err := s.err
	s.mu.Unlock()
	if err == nil {
		if err = s.ctx.Err(); err != nil {
			err = canceled(err)
		}
	}
	if err != nil {
		return nil, err
	}
	return nil, io.EOF
}

// Close stops the producers and waits for them to exit.
func (s *gatherStream) Close() error {
	s.cancel()
	for range s.ch { // drain so every producer can finish; ends when all exit
	}
	return nil
}

// ---- Repartition ----

type repartOp struct {
	in    Operator
	keys  []*Compiled
	keyT  []types.Type
	n     int
	start sync.Once

	queues []*queue
	cancel context.CancelFunc
	mu     sync.Mutex
	closed int
}

var _ Operator = (*repartOp)(nil)

// NewRepartition hash-partitions the rows of in into n partitions by keys
// (rows with equal keys meet in one partition; NULL keys go to partition 0).
// The input is read by one goroutine per input partition, started when the
// first output partition opens; output partitions may be consumed in any
// order, since rows are queued without bound.
func NewRepartition(in Operator, keys []plan.Expr, n int, env *Env) (Operator, error) {
	if n < 1 {
		n = 1
	}
	op := &repartOp{in: in, n: n}
	for _, k := range keys {
		c, err := Compile(k, in.Columns(), env)
		if err != nil {
			return nil, err
		}
		op.keys = append(op.keys, c)
		op.keyT = append(op.keyT, k.Type())
	}
	return op, nil
}

func (r *repartOp) Columns() []plan.Column { return r.in.Columns() }
func (r *repartOp) Partitions() int        { return r.n }

func (r *repartOp) Open(ctx context.Context, p int) (Stream, error) {
	r.start.Do(func() { r.run(ctx) })
	return &repartStream{op: r, q: r.queues[p], ctx: ctx}, nil
}

func (r *repartOp) run(ctx context.Context) {
	ctx, r.cancel = context.WithCancel(ctx)
	r.queues = make([]*queue, r.n)
	for i := range r.queues {
		r.queues[i] = newQueue()
	}
	var wg sync.WaitGroup
	parts := r.in.Partitions()
	wg.Add(parts)
	var errMu sync.Mutex
	var firstErr error
	for p := 0; p < parts; p++ {
		go func(p int) {
			defer wg.Done()
			if err := r.produce(ctx, p); err != nil {
				errMu.Lock()
				if firstErr == nil || isCancel(firstErr) && !isCancel(err) {
					firstErr = err
				}
				errMu.Unlock()
				r.cancel()
			}
		}(p)
	}
	go func() {
		wg.Wait()
		for _, q := range r.queues {
			q.finish(firstErr)
		}
	}()
}

func (r *repartOp) produce(ctx context.Context, p int) error {
	st, err := r.in.Open(ctx, p)
	if err != nil {
		return err
	}
	defer st.Close()
	for {
		rec, err := st.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if r.n == 1 {
			r.queues[0].push(rec)
			continue
		}
		hashes, err := hashKeys(ctx, r.keys, r.keyT, rec)
		if err != nil {
			return err
		}
		rows := make([][]int, r.n)
		for i, h := range hashes {
			d := 0
			if h != nullHash {
				d = int(h % uint64(r.n))
			}
			rows[d] = append(rows[d], i)
		}
		for d, idx := range rows {
			if len(idx) == 0 {
				continue
			}
			if len(idx) == int(rec.NumRows()) {
				r.queues[d].push(rec)
			} else {
				r.queues[d].push(takeRecord(rec, idx))
			}
		}
	}
}

// nullHash marks a row with a NULL key.
const nullHash = ^uint64(0)

// hashKeys hashes each row's keys (nullHash if any key is NULL) in the
// shared key encoding and hash family (keys.go).
func hashKeys(ctx context.Context, keys []*Compiled, keyT []types.Type, rec arrow.Record) ([]uint64, error) {
	ks := make([]KeyCol, len(keys))
	for k, c := range keys {
		arr, err := c.Eval(ctx, rec)
		if err != nil {
			return nil, err
		}
		if ks[k], err = EncodeKeys(arr, keyT[k]); err != nil {
			return nil, err
		}
	}
	hs := HashKeys(ks, nil, int(rec.NumRows()), nil)
	for i := range hs {
		if hs[i] == nullHash {
			hs[i]--
		}
		for k := range ks {
			if ks[k].Null(i) {
				hs[i] = nullHash
				break
			}
		}
	}
	return hs, nil
}

type repartStream struct {
	op     *repartOp
	q      *queue
	ctx    context.Context
	closed bool
}

func (s *repartStream) Next() (arrow.Record, error) { return s.q.pop(s.ctx) }

func (s *repartStream) Close() error {
	if s.closed {
		return nil
	}
	s.closed = true
	s.q.discard()
	r := s.op
	r.mu.Lock()
	r.closed++
	all := r.closed == r.n
	r.mu.Unlock()
	if all {
		r.cancel() // nobody is reading: stop the producers
	}
	return nil
}

// queue is an unbounded FIFO of batches between goroutines.
type queue struct {
	mu      sync.Mutex
	items   []arrow.Record
	done    bool
	dropped bool
	err     error
	notify  chan struct{}
}

func newQueue() *queue { return &queue{notify: make(chan struct{}, 1)} }

func (q *queue) signal() {
	select {
	case q.notify <- struct{}{}:
	default:
	}
}

func (q *queue) push(r arrow.Record) {
	q.mu.Lock()
	if !q.dropped {
		q.items = append(q.items, r)
	}
	q.mu.Unlock()
	q.signal()
}

func (q *queue) finish(err error) {
	q.mu.Lock()
	q.done, q.err = true, err
	q.mu.Unlock()
	q.signal()
}

func (q *queue) discard() {
	q.mu.Lock()
	q.dropped, q.items = true, nil
	q.mu.Unlock()
}

func (q *queue) pop(ctx context.Context) (arrow.Record, error) {
	for {
		q.mu.Lock()
		if len(q.items) > 0 {
			r := q.items[0]
			q.items[0] = nil
			q.items = q.items[1:]
			q.mu.Unlock()
			return r, nil
		}
		if q.done {
			err := q.err
			q.mu.Unlock()
			if err != nil {
				return nil, err
			}
			return nil, io.EOF
		}
		q.mu.Unlock()
		select {
		case <-q.notify:
		case <-ctx.Done():
			return nil, canceled(ctx.Err())
		}
	}
}

// runPartitions opens every partition of op and calls f on each stream in
// its own goroutine; the first error cancels the rest.
func runPartitions(ctx context.Context, op Operator, f func(p int, s Stream) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	n := op.Partitions()
	errs := make([]error, n)
	var wg sync.WaitGroup
	wg.Add(n)
	for p := 0; p < n; p++ {
		go func(p int) {
			defer wg.Done()
			s, err := op.Open(ctx, p)
			if err == nil {
				err = f(p, s)
				s.Close()
			}
			if err != nil {
				errs[p] = err
				cancel()
			}
		}(p)
	}
	wg.Wait()
	if err := firstError(errs); err != nil {
		return err
	}
	return checkCtx(ctx)
}

// errPlan is a plan error raised by a constructor.
func errPlan(format string, args ...any) error {
	return pgerr.New(pgerr.InternalError, "operators: "+format, args...)
}
