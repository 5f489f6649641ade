package operators

import (
	"context"
	"io"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/joind/joind/operators/spill"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// WorkTable holds the rows a recursive query's previous iteration produced
// (PostgreSQL's working table). The recursive union replaces them between
// iterations, when no scan of them is open.
type WorkTable struct {
	mu   sync.Mutex
	recs []arrow.Record
}

func (w *WorkTable) set(recs []arrow.Record) {
	w.mu.Lock()
	w.recs = recs
	w.mu.Unlock()
}

func (w *WorkTable) rows(context.Context) ([]arrow.Record, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.recs, nil
}

// NewWorkTableScan reads wt's current rows as cols (one partition).
func NewWorkTableScan(wt *WorkTable, cols []plan.Column) Operator {
	return newHeldScan(wt.rows, cols)
}

// NewRecordsScan returns recs as cols (one partition): a data-modifying
// WITH query's RETURNING rows.
func NewRecordsScan(recs []arrow.Record, cols []plan.Column) Operator {
	return newHeldScan(func(context.Context) ([]arrow.Record, error) { return recs, nil }, cols)
}

// recursiveUnionOp is WITH RECURSIVE's iteration (PostgreSQL's Recursive
// Union): the non-recursive term's rows, then the recursive term run over
// the previous iteration's rows until one yields nothing. It streams, so a
// LIMIT above ends an unbounded recursion. Without all, a row already
// returned is dropped and does not reach the working table. The working
// table and the set of rows seen count against the query's memory limit;
// past it the query fails with 53200 (neither can be spilled yet).
type recursiveUnionOp struct {
	nonRecursive Operator
	recursive    func() (Operator, error)
	wt           *WorkTable
	all          bool
	cols         []plan.Column
	colT         []types.Type
	schema       *arrow.Schema
	env          *Env
	searchCycle  *searchCycle // nil without SEARCH or CYCLE
}

var _ Operator = (*recursiveUnionOp)(nil)

// NewRecursiveUnion returns the recursive union of nonRecursive (one
// partition) and the recursive term, which recursive builds afresh for each
// iteration from its one plan (it reads wt through a WorkTableScan).
// With sc (SEARCH or CYCLE) the union computes the columns sc adds.
func NewRecursiveUnion(nonRecursive Operator, recursive func() (Operator, error), wt *WorkTable, all bool, cols []plan.Column, sc *plan.SearchCycle, env *Env) (Operator, error) {
	if nonRecursive.Partitions() != 1 {
		return nil, errPlan("recursive union needs one input partition, got %d", nonRecursive.Partitions())
	}
	op := &recursiveUnionOp{nonRecursive: nonRecursive, recursive: recursive, wt: wt, all: all,
		cols: cols, schema: schemaOf(cols), env: env}
	for _, c := range cols {
		op.colT = append(op.colT, c.Type)
	}
	if sc != nil {
		var eval *types.EvalContext
		if env != nil {
			eval = env.Eval
		}
		var err error
		if op.searchCycle, err = newSearchCycle(sc, op.colT, eval); err != nil {
			return nil, err
		}
	}
	return op, nil
}

func (u *recursiveUnionOp) Columns() []plan.Column { return u.cols }
func (u *recursiveUnionOp) Partitions() int        { return 1 }

func (u *recursiveUnionOp) Open(ctx context.Context, _ int) (Stream, error) {
	in, err := u.nonRecursive.Open(ctx, 0)
	if err != nil {
		return nil, err
	}
	var sp *spill.Space
	if u.env != nil {
		sp = u.env.Spill
	}
	st := &recursiveStream{u: u, ctx: ctx, in: in, space: sp, acct: sp.NewAccount()}
	if !u.all {
		st.seen = newRowSet(u.colT)
	}
	return st, nil
}

type recursiveStream struct {
	u     *recursiveUnionOp
	ctx   context.Context
	in    Stream // the current term's rows
	seen  *rowSet
	space *spill.Space
	acct  *spill.Account
	// recursing is set once the recursive term runs.
	recursing bool
	// next collects this iteration's new rows: the next working table.
	next      []arrow.Record
	nextBytes int64
	wtBytes   int64
	// asNamed is a term schema already found equal to the union's: its
	// batches pass as they are (the term reuses one schema every iteration).
	asNamed *arrow.Schema
}

// named is rec under the union's column names.
func (st *recursiveStream) named(rec arrow.Record) arrow.Record {
	if s := rec.Schema(); s == st.asNamed || s.Equal(st.u.schema) {
		st.asNamed = s
		return rec
	}
	return array.NewRecord(st.u.schema, rec.Columns(), rec.NumRows())
}

func (st *recursiveStream) Next() (arrow.Record, error) {
	for {
		if err := checkCtx(st.ctx); err != nil {
			return nil, err
		}
		if st.in == nil {
			return nil, io.EOF
		}
		rec, err := st.in.Next()
		if err == io.EOF {
			if err := st.iterate(); err != nil {
				return nil, err
			}
			continue
		}
		if err != nil {
			return nil, err
		}
		sc := st.u.searchCycle
		if sc != nil {
			if rec, err = sc.extend(rec, st.recursing, st.u.schema); err != nil {
				return nil, err
			}
		}
		if st.seen != nil {
			if rec = st.seen.fresh(rec); rec == nil {
				continue
			}
		}
		rec = st.named(rec)
		work := rec
		if sc != nil {
			work = sc.workRows(rec)
		}
		n := spill.RecordBytes(rec)
		if st.seen != nil {
			n *= 2 // the row is kept in the seen set too
		}
		if !st.acct.Reserve(n) {
			return nil, st.space.OutOfMemory("ExecutorState", "The working table of WITH RECURSIVE query", n)
		}
		if work != nil {
			st.next = append(st.next, work)
		}
		st.nextBytes += n
		return rec, nil
	}
}

// iterate ends the current term: its new rows become the working table and
// the recursive term starts over them; none ends the recursion.
func (st *recursiveStream) iterate() error {
	err := st.in.Close()
	st.in = nil
	if err != nil {
		return err
	}
	if len(st.next) == 0 {
		return nil
	}
	if st.seen == nil {
		// UNION ALL keeps no seen set: the old working table's memory is free.
		st.acct.Release(st.wtBytes)
	} else {
		st.acct.Release(st.wtBytes / 2)
	}
	st.u.wt.set(st.next)
	st.wtBytes, st.next, st.nextBytes = st.nextBytes, nil, 0
	st.recursing = true
	op, err := st.u.recursive()
	if err != nil {
		return err
	}
	in, err := op.Open(st.ctx, 0)
	if err != nil {
		return err
	}
	st.in = in
	return nil
}

func (st *recursiveStream) Close() error {
	var err error
	if st.in != nil {
		err = st.in.Close()
		st.in = nil
	}
	st.u.wt.set(nil)
	st.acct.Close()
	return err
}
