package operators

import (
	"context"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/storage"
)

// externalScanOp reads a storage.External table (read_parquet). Its units
// (row groups) whose statistics pass the skip tests are dealt round-robin
// to the partitions; each partition reads its own units, so the reads of a
// scan run in parallel, and a unit no partition reaches (under a LIMIT) is
// never read. Only the scan's columns are read.
type externalScanOp struct {
	table    storage.External
	ordinals []int
	cols     []plan.Column
	parts    int
	size     int
	schema   *arrow.Schema
	tests    []segTest
	rowID    plan.Column // set: a last column of RowIDs (storage.ExternalRowIDs)

	kept           func() []int // the units to read, in order
	skipped, total int
}

// newExternalScan is NewPlanScan's scan of an External table.
func newExternalScan(t storage.External, x *plan.Scan, partitions, size int) *externalScanOp {
	if partitions < 1 {
		partitions = 1
	}
	if size <= 0 {
		size = defaultScanBatch
	}
	s := &externalScanOp{table: t, ordinals: x.Ordinals, cols: x.Cols, parts: partitions, size: size, schema: schemaOf(x.Cols)}
	s.tests = compileSkips(x.Skip, x.Ordinals, x.Cols)
	s.kept = onceValue(func() []int {
		units := t.Units()
		var pruned []bool
		if p, ok := t.(storage.UnitPruner); ok && len(s.tests) > 0 {
			pruned = p.ExcludedUnits(unitTests(s.tests))
		}
		var kept []int
		for i, u := range units {
			if !unitExcluded(u, s.tests) && (i >= len(pruned) || !pruned[i]) {
				kept = append(kept, i)
			}
		}
		s.skipped, s.total = len(units)-len(kept), len(units)
		return kept
	})
	return s
}

// unitTests are the skip tests as a storage.UnitPruner takes them.
func unitTests(tests []segTest) []storage.UnitTest {
	ops := map[cmpOp]string{cmpEq: "=", cmpLt: "<", cmpLe: "<=", cmpGt: ">", cmpGe: ">="}
	out := make([]storage.UnitTest, 0, len(tests))
	for _, st := range tests {
		if op, ok := ops[st.op]; ok || st.op == cmpNone {
			out = append(out, storage.UnitTest{Ordinal: st.ord, Op: op, Value: st.val, Type: st.t, IsNull: st.isNull})
		}
	}
	return out
}

// unitExcluded reports whether u's statistics prove a skip test false for
// every row of u.
func unitExcluded(u storage.Segment, tests []segTest) bool {
	_, skipped := skipSegments([]storage.Segment{u}, tests)
	return skipped == 1
}

func (s *externalScanOp) Columns() []plan.Column {
	if s.rowID.ID != 0 {
		return append(s.cols[:len(s.cols):len(s.cols)], s.rowID)
	}
	return s.cols
}
func (s *externalScanOp) Partitions() int { return s.parts }

// ExplainNote is EXPLAIN ANALYZE's note: the row groups statistics skipped.
func (s *externalScanOp) ExplainNote() string {
	if len(s.tests) == 0 {
		return ""
	}
	s.kept()
	return fmt.Sprintf("(row groups skipped: %d of %d)", s.skipped, s.total)
}

// Narrow implements Narrower: fewer columns, fewer column chunks read.
func (s *externalScanOp) Narrow(keep func(plan.ColumnID) bool) error {
	var ords []int
	var cols []plan.Column
	for i, c := range s.cols {
		if keep(c.ID) {
			ords = append(ords, s.ordinals[i])
			cols = append(cols, c)
		}
	}
	s.ordinals, s.cols = ords, cols
	s.schema = schemaOf(s.Columns())
	return nil
}

func (s *externalScanOp) Open(ctx context.Context, p int) (Stream, error) {
	var mine []int
	for k, u := range s.kept() {
		if k%s.parts == p {
			mine = append(mine, u)
		}
	}
	return &externalScanStream{op: s, ctx: ctx, units: mine}, nil
}

// externalScanStream is one partition: its units, read one at a time and
// passed on in slices of at most the batch size.
type externalScanStream struct {
	op    *externalScanOp
	ctx   context.Context
	units []int
	recs  []arrow.Record // the current unit's batches not yet passed on
	off   int64          // rows of recs[0] already passed on
}

func (s *externalScanStream) Next() (arrow.Record, error) {
	for {
		if err := checkCtx(s.ctx); err != nil {
			return nil, err
		}
		for len(s.recs) > 0 && s.off >= s.recs[0].NumRows() {
			s.recs, s.off = s.recs[1:], 0
		}
		if len(s.recs) > 0 {
			r := s.recs[0]
			end := min(s.off+int64(s.op.size), r.NumRows())
			out := r
			if s.off != 0 || end != r.NumRows() {
				out = r.NewSlice(s.off, end)
			}
			s.off = end
			// The unit's reader built its own schema; the scan's names the
			// plan's columns.
			return array.NewRecord(s.op.schema, out.Columns(), out.NumRows()), nil
		}
		if len(s.units) == 0 {
			return nil, io.EOF
		}
		var recs []arrow.Record
		var err error
		if s.op.rowID.ID != 0 {
			recs, err = s.op.table.(storage.ExternalRowIDs).ReadUnitRowIDs(s.ctx, s.units[0], s.op.ordinals)
		} else {
			recs, err = s.op.table.ReadUnit(s.ctx, s.units[0], s.op.ordinals)
		}
		if err != nil {
			return nil, err
		}
		s.units, s.recs, s.off = s.units[1:], recs, 0
	}
}

func (s *externalScanStream) Close() error { return nil }
