package operators

import (
	"context"
	"errors"
	"io"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/joind/joind/operators/spill"
	"github.com/joind/joind/sql/plan"
)

// Materialized holds the rows of a plan computed at most once and shared
// by every reader (a materialized WITH query). The first reader to open
// runs the plan; the others wait for and reuse its rows.
type Materialized struct {
	run  func(context.Context) ([]arrow.Record, error)
	mu   sync.Mutex
	done bool
	recs []arrow.Record
	err  error
}

// NewMaterialized returns the shared rows of run, not yet computed.
func NewMaterialized(run func(context.Context) ([]arrow.Record, error)) *Materialized {
	return &Materialized{run: run}
}

func (m *Materialized) rows(ctx context.Context) ([]arrow.Record, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if !m.done {
		recs, err := m.run(ctx)
		// A reader cancelled early (its consumer stopped) must not leave
		// its cancellation behind for the others: the next reader retries.
		if err != nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)) && ctx.Err() != nil {
			return nil, err
		}
		m.recs, m.err, m.done = recs, err, true
	}
	return m.recs, m.err
}

// CollectWithin is Collect for rows held until the statement ends (a
// materialized WITH query's): they count against sp's limit, and past it
// the query fails with 53200 rather than growing without bound (an
// unbounded WITH RECURSIVE read twice). The bytes go back when the
// query's Space closes (ReleaseSpace).
func CollectWithin(ctx context.Context, src Source, sp *spill.Space, what string) ([]arrow.Record, error) {
	return collectHeld(ctx, src, sp.NewStatementAccount().Track(&spill.Stats{Kind: spill.KindMaterialize}), what)
}

// NewMaterializedScan reads m's rows as columns cols (positionally the
// shared plan's columns, under the reader's own ColumnIDs).
func NewMaterializedScan(m *Materialized, cols []plan.Column) Operator {
	return newHeldScan(m.rows, cols)
}

// heldScan reads batches held in memory (a materialized WITH query's, a
// recursive query's working table, a data-modifying WITH query's RETURNING
// rows) as cols, one partition; rows gives them at the first Next.
type heldScan struct {
	rows   func(context.Context) ([]arrow.Record, error)
	cols   []plan.Column
	schema *arrow.Schema
}

func newHeldScan(rows func(context.Context) ([]arrow.Record, error), cols []plan.Column) Operator {
	return &heldScan{rows: rows, cols: cols, schema: schemaOf(cols)}
}

func (s *heldScan) Columns() []plan.Column { return s.cols }
func (s *heldScan) Partitions() int        { return 1 }

func (s *heldScan) Open(ctx context.Context, _ int) (Stream, error) {
	return &heldStream{scan: s, ctx: ctx}, nil
}

type heldStream struct {
	scan   *heldScan
	ctx    context.Context
	recs   []arrow.Record
	loaded bool
	at     int
}

func (st *heldStream) Next() (arrow.Record, error) {
	if err := checkCtx(st.ctx); err != nil {
		return nil, err
	}
	if !st.loaded {
		recs, err := st.scan.rows(st.ctx)
		if err != nil {
			return nil, err
		}
		st.recs, st.loaded = recs, true
	}
	for st.at < len(st.recs) {
		r := st.recs[st.at]
		st.at++
		if r.NumRows() > 0 {
			return array.NewRecord(st.scan.schema, r.Columns(), r.NumRows()), nil
		}
	}
	return nil, io.EOF
}

func (st *heldStream) Close() error { return nil }
