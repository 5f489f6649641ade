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

// Source is what the toolkit reads: partitions, each opened once. Every
// Operator is a Source.
type Source interface {
	Partitions() int
	Open(ctx context.Context, p int) (Stream, error)
}

type streamsSource struct {
	n    int
	open func(ctx context.Context, p int) (Stream, error)
}

func (s streamsSource) Partitions() int { return s.n }
func (s streamsSource) Open(ctx context.Context, p int) (Stream, error) {
	return s.open(ctx, p)
}

// Streams is the Source of n partitions that open opens.
func Streams(n int, open func(ctx context.Context, p int) (Stream, error)) Source {
	return streamsSource{n: n, open: open}
}

// RunPartitions is the toolkit's fan-out: it opens every partition of src
// on a goroutine of its own, under a context derived from ctx, calls f with
// that context and the stream, and closes the stream. The first failure
// cancels the others. It returns once every goroutine has returned, with
// the first cause (a real error beats the cancellations it caused), 57014
// if ctx was cancelled, or nil.
func RunPartitions(ctx context.Context, src Source, f func(ctx context.Context, p int, s Stream) error) error {
	g := newGroup(ctx, "partitions")
	g.spawn(src.Partitions(), "P", func(ctx context.Context, p int) error {
		s, err := src.Open(ctx, p)
		if err != nil {
			return err
		}
		err = f(ctx, p, s)
		s.Close()
		return err
	})
	err := g.wait()
	g.cancel() // every goroutine has returned: release the context
	if err == nil {
		err = checkCtx(ctx)
	}
	return err
}

// ---- Gather ----

type gatherOp struct{ in Operator }

var _ Operator = (*gatherOp)(nil)

// NewGather runs all partitions of in concurrently, one goroutine each, and
// merges their batches into one partition (in no particular order). At most
// max(2, partitions) batches wait in its queue: producers block when it is
// full. Close cancels the producers and waits for them.
func NewGather(in Operator) Operator {
	if in.Partitions() == 1 {
		return in
	}
	return &gatherOp{in: in}
}

func (g *gatherOp) Columns() []plan.Column { return g.in.Columns() }
func (g *gatherOp) Partitions() int        { return 1 }

func (g *gatherOp) Open(ctx context.Context, _ int) (Stream, error) {
	n := g.in.Partitions()
	s := &gatherStream{g: newGroup(ctx, "gather"), bound: max(2, n)}
	s.g.spawn(n, "gather P", func(ctx context.Context, p int) error { return s.produce(ctx, g.in, p) })
	return s, nil
}

type gatherStream struct {
	g      *group
	bound  int
	q      []arrow.Record // under g.m
	closed bool
}

func (s *gatherStream) produce(ctx context.Context, in Operator, p int) error {
	st, err := in.Open(ctx, p)
	if err != nil {
		return err
	}
	defer st.Close()
	m := &s.g.m
	return EachBatch(st, func(rec arrow.Record) error {
		m.lock()
		ok := m.await(ctx, "push", func() bool { return len(s.q) < s.bound })
		if ok {
			s.q = append(s.q, rec)
			m.broadcast()
		}
		m.unlock()
		if !ok {
			return checkCtx(ctx)
		}
		return nil
	})
}

func (s *gatherStream) Next() (arrow.Record, error) {
	m := &s.g.m
	m.lock()
	defer m.unlock()
	m.await(s.g.ctx, "next", func() bool { return len(s.q) > 0 || s.g.running == 0 })
	if len(s.q) > 0 {
		rec := s.q[0]
		s.q[0] = nil
		s.q = s.q[1:]
		m.broadcast()
		return rec, nil
	}
	if err := s.g.failure(); err != nil {
		return nil, err
	}
	return nil, io.EOF
}

// Close stops the producers and waits for them to exit.
func (s *gatherStream) Close() error {
	if s.closed {
		return nil
	}
	s.closed = true
	s.g.close()
	s.q = nil
	return nil
}

// ---- Repartition ----

// repartBound is the number of batches an exchange queues per output
// partition before its producers block (but see exchange.push).
const repartBound = 2

type repartOp struct {
	in   Operator
	keys []*Compiled
	keyT []types.Type
	n    int

	mu sync.Mutex
	x  *exchange // the run's exchange, made by the first Open
	// noRelease is the explorer's broken variant: producers block on a
	// full queue even when that stalls a waiting consumer.
	noRelease bool
}

var _ Operator = (*repartOp)(nil)

// NewRepartition hash-partitions the rows of in into n partitions by keys:
// rows with equal keys meet in one partition, and rows with a NULL key all
// go to partition 0 (so NULLs group together). The input is read by one
// goroutine per input partition, started by the first Open under a
// context derived from that Open's. Every output partition of an execution
// must be opened and closed (RunPartitions and Gather do); the last Close
// cancels the producers and waits for them, and a partition closed early
// drops its rows.
//
// Back-pressure: each output partition queues at most 2 batches, and a
// producer waits for room — except when every producer is waiting so and
// some consumer waits on an empty partition: then a producer queues beyond
// the bound. So output partitions may be read in any order (one goroutine
// after another, or reading one to its end before the next) without a
// deadlock, and the queues stay within the bound whenever the consumers
// keep up with each other; the extra batches are what an uneven order
// costs.
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
	if h := hooksOf(ctx); h != nil {
		h.Park("lock repartition") // r.x is shared
	}
	r.mu.Lock()
	x, first := r.x, r.x == nil
	if first {
		x = &exchange{op: r, g: newGroup(ctx, "repartition"), q: make([][]arrow.Record, r.n),
			closed: make([]bool, r.n), waiting: make([]bool, r.n)}
		r.x = x
	}
	r.mu.Unlock()
	if first {
		x.start()
	}
	return &repartStream{x: x, p: p, ctx: ctx}, nil
}

// exchange is one run of a Repartition; its state is under g.m.
type exchange struct {
	op      *repartOp
	g       *group // the producers
	q       [][]arrow.Record
	closed  []bool
	nclosed int
	started bool   // every producer is spawned
	waiting []bool // per partition: its consumer waits in Next
	blocked int    // producers waiting for room
}

func (x *exchange) start() {
	x.g.spawn(x.op.in.Partitions(), "repartition P", x.produce)
	m := &x.g.m
	m.lock()
	x.started = true
	m.broadcast()
	m.unlock()
}

// ended: every producer has returned (the lock is held).
func (x *exchange) ended() bool { return x.started && x.g.running == 0 }

// stalled: some consumer waits on an empty partition (the lock is held).
func (x *exchange) stalled() bool {
	for d, w := range x.waiting {
		if w && len(x.q[d]) == 0 {
			return true
		}
	}
	return false
}

func (x *exchange) produce(ctx context.Context, p int) error {
	r := x.op
	st, err := r.in.Open(ctx, p)
	if err != nil {
		return err
	}
	defer st.Close()
	return EachBatch(st, func(rec arrow.Record) error {
		if r.n == 1 {
			if !x.push(ctx, 0, rec) {
				return checkCtx(ctx)
			}
			return nil
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
			part := rec
			if len(idx) != int(rec.NumRows()) {
				part = takeRecord(rec, idx)
			}
			if !x.push(ctx, d, part) {
				return checkCtx(ctx)
			}
		}
		return nil
	})
}

// push queues rec for partition d, waiting for room as NewRepartition
// states; false if ctx ended the wait.
func (x *exchange) push(ctx context.Context, d int, rec arrow.Record) bool {
	m := &x.g.m
	m.lock()
	defer m.unlock()
	room := func() bool {
		return x.closed[d] || len(x.q[d]) < repartBound ||
			!x.op.noRelease && x.blocked == x.g.running && x.stalled()
	}
	if !room() {
		x.blocked++
		m.broadcast() // a release may now be due
		ok := m.await(ctx, "push", room)
		x.blocked--
		if !ok {
			return false
		}
	}
	if x.closed[d] {
		return true // nobody reads it any more
	}
	x.q[d] = append(x.q[d], rec)
	m.broadcast()
	return true
}

type repartStream struct {
	x      *exchange
	p      int
	ctx    context.Context
	closed bool
}

func (s *repartStream) Next() (arrow.Record, error) {
	x, d := s.x, s.p
	m := &x.g.m
	m.lock()
	defer m.unlock()
	if len(x.q[d]) == 0 && !x.ended() {
		x.waiting[d] = true
		m.broadcast() // a release may now be due
		m.await(s.ctx, "next", func() bool { return len(x.q[d]) > 0 || x.ended() })
		x.waiting[d] = false
	}
	if len(x.q[d]) > 0 {
		rec := x.q[d][0]
		x.q[d][0] = nil
		x.q[d] = x.q[d][1:]
		m.broadcast()
		return rec, nil
	}
	err := x.g.err
	if cerr := s.ctx.Err(); cerr != nil {
		err = firstCause(cerr, err)
	}
	if err == nil && x.ended() {
		if err = x.g.ctx.Err(); err == nil {
			return nil, io.EOF
		}
	}
	return nil, canceledIf(err)
}

func (s *repartStream) Close() error {
	if s.closed {
		return nil
	}
	s.closed = true
	x := s.x
	m := &x.g.m
	m.lock()
	x.closed[s.p] = true
	x.q[s.p] = nil
	x.nclosed++
	last := x.nclosed == len(x.q)
	m.broadcast()
	m.unlock()
	if last {
		x.g.close() // nobody reads any more: stop the producers
	}
	return nil
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

// errPlan is a plan error raised by a constructor.
func errPlan(format string, args ...any) error {
	return pgerr.New(pgerr.InternalError, "operators: "+format, args...)
}
