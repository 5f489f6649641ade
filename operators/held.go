package operators

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/joind/joind/operators/spill"
)

// Memory held by operators with no spill path (window partitions, the
// hash tables of DISTINCT and INTERSECT/EXCEPT, top-N heaps, materialized
// WITH queries, whole-input aggregate states): each counts what it holds
// in an Account of the query's Space (spill.Account.Hold) and fails with
// 53200 past the query's or the server's limit, rather than growing until
// the process is killed; the account is closed, and the bytes returned,
// when its stream closes.

// spaceOf is env's Space (nil: no limit).
func spaceOf(env *Env) *spill.Space {
	if env == nil {
		return nil
	}
	return env.Spill
}

// rowSetBytes is what a set of distinct rows holds for its new rows fresh:
// their values, and each a table slot at the table's load factor, its key
// copy's share of a growing slice and a group id (40 bytes, measured for
// one bigint column against the resident size).
func rowSetBytes(fresh arrow.Record) int64 {
	return spill.RecordBytes(fresh) + 40*fresh.NumRows()
}

// collectHeld is Collect for batches held afterwards: each counts against
// acct, and past the limit the collection fails with 53200 for what.
func collectHeld(ctx context.Context, src Source, acct *spill.Account, what string) ([]arrow.Record, error) {
	recs, err := Drain(ctx, src, heldBatches{acct: acct, what: what})
	if err != nil {
		return nil, err
	}
	return *recs, nil
}

// heldBatches is the Sink that keeps every batch, counted against acct.
type heldBatches struct {
	batches
	acct *spill.Account
	what string
}

func (h heldBatches) Consume(ctx context.Context, s *[]arrow.Record, rec arrow.Record) error {
	if err := h.acct.Hold(spill.RecordBytes(rec), h.what); err != nil {
		return err
	}
	return h.batches.Consume(ctx, s, rec)
}

// ReleaseSpace makes op's streams close sp when they close: what the
// query's operators still count then (a materialized WITH query's rows,
// held until the statement ends) goes back to the server-wide limit. The
// executor wraps a query's root in it.
func ReleaseSpace(op Operator, sp *spill.Space) Operator {
	if sp == nil {
		return op
	}
	return &releaseSpaceOp{Operator: op, sp: sp}
}

type releaseSpaceOp struct {
	Operator
	sp *spill.Space
}

func (o *releaseSpaceOp) Open(ctx context.Context, p int) (Stream, error) {
	st, err := o.Operator.Open(ctx, p)
	if err != nil {
		o.sp.Close()
		return nil, err
	}
	o.sp.Start()
	return &releaseSpaceStream{Stream: st, sp: o.sp}, nil
}

type releaseSpaceStream struct {
	Stream
	sp *spill.Space
}

func (s *releaseSpaceStream) Close() error {
	err := s.Stream.Close()
	s.sp.Close()
	return err
}
