package join

import (
	"context"
	"io"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/joind/joind/operators"
)

// exchange hash-repartitions one input of a Partitioned join on its keys
// into n streams. Both inputs of a join hash their keys with
// operators.HashKeys (one encoding, one hash), so equal keys land in the
// same partition. Rows with a NULL key never match; they are spread
// round-robin.
//
// Producers (one goroutine per input partition) start when the first
// consumer opens. A consumer that closes early stops receiving (producers
// drop its rows); when every consumer has closed, the producers are
// cancelled.
type exchange struct {
	in   operators.Operator
	keys *keyEval
	j    *HashJoin
	n    int

	once   sync.Once
	chans  []chan arrow.Record
	gone   []chan struct{}
	closed []sync.Once
	left   sync.WaitGroup
	cancel context.CancelFunc

	mu      sync.Mutex
	err     error
	nClosed int
}

func newExchange(in operators.Operator, keys *keyEval, j *HashJoin, n int) *exchange {
	x := &exchange{in: in, keys: keys, j: j, n: n,
		chans: make([]chan arrow.Record, n), gone: make([]chan struct{}, n), closed: make([]sync.Once, n)}
	for i := range x.chans {
		x.chans[i] = make(chan arrow.Record, 2)
		x.gone[i] = make(chan struct{})
	}
	return x
}

func (x *exchange) start(ctx context.Context) {
	ctx, x.cancel = context.WithCancel(ctx)
	parts := x.in.Partitions()
	x.left.Add(parts)
	for p := 0; p < parts; p++ {
		go func(p int) {
			defer x.left.Done()
			if err := x.produce(ctx, p); err != nil {
				x.fail(err)
			}
		}(p)
	}
	go func() {
		x.left.Wait()
		for _, c := range x.chans {
			close(c)
		}
	}()
}

func (x *exchange) fail(err error) {
	x.mu.Lock()
	if x.err == nil {
		x.err = err
	}
	x.mu.Unlock()
	x.cancel()
}

func (x *exchange) produce(ctx context.Context, p int) error {
	s, err := x.in.Open(ctx, p)
	if err != nil {
		return err
	}
	defer s.Close()
	rr := p
	var hs []uint64
	for {
		rec, err := s.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		kb, err := x.keys.eval(ctx, rec)
		if err != nil {
			return err
		}
		dest := make([][]int32, x.n)
		hs = kb.hashes(x.j.allCols, hs)
		for i := 0; i < kb.n; i++ {
			var d int
			if kb.anyNull(x.j.allCols, x.j.nullsEq, i) {
				d = rr % x.n
				rr++
			} else {
				d = int(hs[i] % uint64(x.n))
			}
			dest[d] = append(dest[d], int32(i))
		}
		for d, rows := range dest {
			if len(rows) == 0 {
				continue
			}
			cols := make([]arrow.Array, rec.NumCols())
			for c := range cols {
				cols[c] = take(rec.Column(c), x.in.Columns()[c].Type, rows)
			}
			out := array.NewRecordBatch(rec.Schema(), cols, int64(len(rows)))
			select {
			case x.chans[d] <- out:
			case <-x.gone[d]:
			case <-ctx.Done():
				return ctx.Err()
			}
		}
	}
}

// stream returns consumer p. ctx is the consumer's; the first call starts
// the producers.
func (x *exchange) stream(ctx context.Context, p int) operators.Stream {
	x.once.Do(func() { x.start(ctx) })
	return &exchangeStream{x: x, p: p, ctx: ctx}
}

type exchangeStream struct {
	x   *exchange
	p   int
	ctx context.Context
}

func (s *exchangeStream) Next() (arrow.Record, error) {
	select {
	case r, ok := <-s.x.chans[s.p]:
		if ok {
			return r, nil
		}
		s.x.mu.Lock()
		err := s.x.err
		s.x.mu.Unlock()
		if err != nil {
			return nil, err
		}
		return nil, io.EOF
	case <-s.ctx.Done():
		return nil, s.ctx.Err()
	}
}

func (s *exchangeStream) Close() error {
	x := s.x
	x.closed[s.p].Do(func() {
		close(x.gone[s.p])
		x.mu.Lock()
		x.nClosed++
		all := x.nClosed == x.n
		x.mu.Unlock()
		if all {
			x.cancel() // nobody listens any more
		}
	})
	return nil
}
