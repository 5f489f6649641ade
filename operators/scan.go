package operators

import (
	"context"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// defaultBatchSize is the batch size when Env.BatchSize is unset.
const defaultBatchSize = 1024

// defaultScanBatch is NewScan's slice size: the engine's default batch size.
// Per-batch costs (slicing, key evaluation, output records) are paid once
// per slice, so a 10M-row scan at 1024 rows pays them 10,000 times.
const defaultScanBatch = 4096

func batchSize(env *Env) int {
	if env == nil || env.BatchSize <= 0 {
		return defaultBatchSize
	}
	return env.BatchSize
}

// scanOp reads a table's snapshot. The snapshot is taken when the first
// partition opens, so all partitions see the same batches.
type scanOp struct {
	table    storage.Table
	ordinals []int
	cols     []plan.Column
	parts    int
	size     int
	schema   *arrow.Schema

	snap func() []scanPart

	// rowID, when its ID is not 0, is the extra last output column of
	// each row's storage.RowID (plan.Scan.RowID).
	rowID plan.Column

	// Segment skipping (skip.go): tests from plan.Scan.Skip, and what the
	// snapshot skipped, for EXPLAIN ANALYZE (segTotal < 0: not segmented).
	tests                []segTest
	segSkipped, segTotal int
	// dictTests are the tests on text columns, which the scan also applies
	// to the rows of batches holding the column dictionary-encoded
	// (storage.Dictionary): each distinct value is compared once.
	dictTests []segTest
}

var _ Operator = (*scanOp)(nil)

// NewScan reads columns ordinals of t (cols describes them) as `partitions`
// streams; the snapshot's batches, cut into slices of at most the batch
// size, are dealt to the partitions in contiguous runs.
func NewScan(t storage.Table, ordinals []int, cols []plan.Column, partitions int) Operator {
	if partitions < 1 {
		partitions = 1
	}
	s := &scanOp{table: t, ordinals: ordinals, cols: cols, parts: partitions, size: defaultScanBatch, schema: schemaOf(cols)}
	if st, ok := t.(storage.Segmented); ok {
		rows := st.Segments
		if sr, ok := t.(storage.SegmentRower); ok {
			rows = sr.SegmentRows
		}
		s.snap = onceValue(func() []scanPart { return segmentParts(rows()) })
	} else {
		s.snap = onceValue(func() []scanPart {
			var parts []scanPart
			for _, r := range t.Snapshot() {
				parts = append(parts, scanPart{rec: r})
			}
			return parts
		})
	}
	return s
}

// scanPart is one batch of the snapshot: for a segmented table, where it
// lies in its segment (base: the offset of its first row) and the
// segment's deleted rows, which the scan leaves out.
type scanPart struct {
	rec  arrow.Record
	seg  uint64
	base int64
	dels *storage.DeleteVector
}

func segmentParts(segs []storage.Segment) []scanPart {
	var out []scanPart
	for _, sg := range segs {
		if sg.Live() == 0 {
			continue
		}
		dels := sg.Deletes
		if dels.Count() == 0 {
			dels = nil
		}
		var base int64
		for _, r := range sg.Records {
			out = append(out, scanPart{rec: r, seg: sg.ID, base: base, dels: dels})
			base += r.NumRows()
		}
	}
	return out
}

// NewPlanScan is the scan of a plan.Scan: its columns, segment skipping
// and, when x.RowID is set, the RowID column.
func NewPlanScan(x *plan.Scan, partitions, size int) (Operator, error) {
	if ext, ok := x.Table.(storage.External); ok {
		s := newExternalScan(ext, x, partitions, size)
		if x.RowID.ID != 0 {
			if _, ok := ext.(storage.ExternalRowIDs); !ok {
				return nil, pgerr.New(pgerr.FeatureNotSupported, "%s has no row identifiers", x.Table.Name())
			}
			s.rowID = x.RowID
			s.schema = schemaOf(s.Columns())
		}
		return s, nil
	}
	op := NewScanSkip(x.Table, x.Ordinals, x.Cols, partitions, size, x.Skip)
	if x.RowID.ID != 0 {
		if _, ok := x.Table.(storage.Segmented); !ok {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "table %q has no row identifiers", x.Table.Name())
		}
		s := op.(*scanOp)
		s.rowID = x.RowID
		s.schema = schemaOf(s.Columns())
	}
	return op, nil
}

// NewScanSkip is NewScanBatch that also skips the segments of a
// storage.Segmented table whose statistics prove no row satisfies one of
// the skip predicates (plan.Scan.Skip). size <= 0 keeps the default.
func NewScanSkip(t storage.Table, ordinals []int, cols []plan.Column, partitions, size int, skip []plan.Expr) Operator {
	s := NewScanBatch(t, ordinals, cols, partitions, size).(*scanOp)
	s.segTotal = -1
	if st, ok := t.(storage.Segmented); ok {
		if s.tests = compileSkips(skip, ordinals, cols); len(s.tests) > 0 {
			for _, st := range s.tests {
				if st.op != cmpNone && skipFamily(st.t.ID) == skipFamily(types.Text) {
					s.dictTests = append(s.dictTests, st)
				}
			}
			s.snap = onceValue(func() []scanPart {
				segs := st.Segments()
				kept, skipped := skipSegments(segs, s.tests)
				s.segSkipped, s.segTotal = skipped, len(segs)
				return segmentParts(kept)
			})
		}
	}
	return s
}

// SegmentsSkipped reports how many of the table's segments the scan skipped
// (ok=false when it did not consult segment statistics, or has not run).
// It is read after the scan has finished.
func (s *scanOp) SegmentsSkipped() (skipped, total int, ok bool) {
	if len(s.tests) == 0 {
		return 0, 0, false
	}
	s.snap() // already taken when the scan ran; cheap then
	return s.segSkipped, s.segTotal, s.segTotal >= 0
}

// ExplainNote is the scan's EXPLAIN ANALYZE addition.
func (s *scanOp) ExplainNote() string {
	sk, tot, ok := s.SegmentsSkipped()
	if !ok {
		return ""
	}
	return fmt.Sprintf("(segments skipped: %d of %d)", sk, tot)
}

// Narrow implements Narrower: the scan reads only the columns its consumer
// keeps (a filter's predicate columns plus what is above it).
func (s *scanOp) Narrow(keep func(plan.ColumnID) bool) error {
	var ords []int
	var cols []plan.Column
	for i, c := range s.cols {
		if keep(c.ID) {
			ords = append(ords, s.ordinals[i])
			cols = append(cols, c)
		}
	}
	s.ordinals, s.cols = ords, cols
	if s.rowID.ID != 0 && !keep(s.rowID.ID) {
		s.rowID = plan.Column{}
	}
	s.schema = schemaOf(s.Columns())
	return nil
}

// NewScanBatch is NewScan with an explicit batch size.
func NewScanBatch(t storage.Table, ordinals []int, cols []plan.Column, partitions, size int) Operator {
	s := NewScan(t, ordinals, cols, partitions).(*scanOp)
	if size > 0 {
		s.size = size
	}
	return s
}

func (s *scanOp) Columns() []plan.Column {
	if s.rowID.ID == 0 {
		return s.cols
	}
	return append(s.cols[:len(s.cols):len(s.cols)], s.rowID)
}
func (s *scanOp) Partitions() int { return s.parts }

func (s *scanOp) Open(ctx context.Context, p int) (Stream, error) {
	return &scanStream{op: s, ctx: ctx, p: p, recs: s.snap()}, nil
}

type scanStream struct {
	op    *scanOp
	ctx   context.Context
	p     int
	recs  []scanPart
	live  []int          // scratch: live row indexes of a slice with deleted rows
	queue []arrow.Record // more runs of the last slice (runs)
	dead  []int64        // scratch: deleted offsets of a slice
	ri    int            // current snapshot batch
	// matches caches, per dictionary test and segment dictionary, which
	// codes pass (dictFilter).
	matches map[dictKey][]bool
	keep    []int // scratch: rows a dictionary filter keeps
	off     int64 // offset within it
	k       int   // global slice counter: slice k is partition k*parts/total's
	total   int   // the snapshot's slices (0: not counted yet)
	done    bool
}

// slices is how many slices of at most the batch size the snapshot
// cuts into: the partitions take contiguous runs of them, so partitions
// read in order read the table in its stored order, as PostgreSQL's
// sequential scan (order-sensitive aggregates merge partitions in order).
func (s *scanStream) slices() int {
	if s.total == 0 {
		for _, part := range s.recs {
			n := int(part.rec.NumRows())
			s.total += (n + s.op.size - 1) / s.op.size
		}
		if s.total == 0 {
			s.total = 1
		}
	}
	return s.total
}

func (s *scanStream) Next() (arrow.Record, error) {
	if len(s.queue) > 0 {
		r := s.queue[0]
		s.queue = s.queue[1:]
		return r, nil
	}
	for !s.done {
		if err := checkCtx(s.ctx); err != nil {
			return nil, err
		}
		if s.ri >= len(s.recs) {
			s.done = true
			break
		}
		part := s.recs[s.ri]
		n := part.rec.NumRows()
		if s.off >= n {
			s.ri++
			s.off = 0
			continue
		}
		end := s.off + int64(s.op.size)
		if end > n {
			end = n
		}
		mine := s.k*s.op.parts/s.slices() == s.p
		s.k++
		lo := s.off
		s.off = end
		if !mine {
			continue
		}
		if keep, ok := s.dictFilter(part, lo, end); ok && len(keep) < int(end-lo) {
			if len(keep) == 0 {
				continue
			}
			return s.take(part, keep), nil
		}
		if part.dels.Any(part.base+lo, part.base+end) {
			if dead, few := part.dels.DeletedIn(part.base+lo, part.base+end, maxScanRuns, s.dead[:0]); few {
				s.dead = dead
				if r, ok := s.runs(part, lo, end, dead); ok {
					return r, nil
				}
				continue // every row of the slice deleted
			}
			s.live = part.dels.Live(part.base+lo, part.base+end, part.base, s.live[:0])
			if len(s.live) == 0 {
				continue
			}
			return s.take(part, s.live), nil
		}
		return s.project(part, lo, end), nil
	}
	return nil, io.EOF
}

// project is rows [lo, hi) of part, all live.
func (s *scanStream) project(part scanPart, lo, hi int64) arrow.Record {
	rec := part.rec
	arrs := make([]arrow.Array, len(s.op.ordinals), len(s.op.ordinals)+1)
	whole := lo == 0 && hi == rec.NumRows()
	for i, o := range s.op.ordinals {
		c := rec.Column(o)
		if !whole {
			c = array.NewSlice(c, lo, hi)
		}
		arrs[i] = c
	}
	if s.op.rowID.ID != 0 {
		ids := make([]int64, hi-lo)
		for i := range ids {
			ids[i] = int64(storage.MakeRowID(part.seg, part.base+lo+int64(i)))
		}
		arrs = append(arrs, array.NewInt64Data(array.NewData(arrow.PrimitiveTypes.Int64, len(ids),
			[]*memory.Buffer{nil, memory.NewBufferBytes(arrow.Int64Traits.CastToBytes(ids))}, nil, 0, 0)))
	}
	return array.NewRecord(s.op.schema, arrs, hi-lo)
}

// maxScanRuns is how many deleted rows a slice may have for the scan to
// pass its live rows on as zero-copy runs between them rather than copy
// them.
const maxScanRuns = 8

// runs passes rows [lo, hi) of part but the deleted offsets dead
// (ascending, segment offsets) on as zero-copy slices: the first is
// returned, the others queued; ok=false when no row is left.
func (s *scanStream) runs(part scanPart, lo, hi int64, dead []int64) (arrow.Record, bool) {
	from := lo
	for _, d := range append(dead, part.base+hi) {
		if d -= part.base; d > from {
			s.queue = append(s.queue, s.project(part, from, d))
		}
		from = d + 1
	}
	if len(s.queue) == 0 {
		return nil, false
	}
	r := s.queue[0]
	s.queue = s.queue[1:]
	return r, true
}

// take is rows idx of part (the live rows of a slice).
func (s *scanStream) take(part scanPart, idx []int) arrow.Record {
	arrs := make([]arrow.Array, len(s.op.ordinals), len(s.op.ordinals)+1)
	for i, o := range s.op.ordinals {
		arrs[i] = takeArray(part.rec.Column(o), idx)
	}
	if s.op.rowID.ID != 0 {
		ids := make([]int64, len(idx))
		for i, r := range idx {
			ids[i] = int64(storage.MakeRowID(part.seg, part.base+int64(r)))
		}
		arrs = append(arrs, array.NewInt64Data(array.NewData(arrow.PrimitiveTypes.Int64, len(ids),
			[]*memory.Buffer{nil, memory.NewBufferBytes(arrow.Int64Traits.CastToBytes(ids))}, nil, 0, 0)))
	}
	return array.NewRecord(s.op.schema, arrs, int64(len(idx)))
}

type dictKey struct {
	test int
	dict *array.String
}

// dictFilter applies the scan's dictionary tests to rows [lo, hi) of part:
// ok=false when no test's column is dictionary-encoded in the batch, else
// keep is the rows (batch offsets) that pass every such test and are not
// deleted. Dropping the others is only a shortcut: they fail a conjunct of
// the Filter above, which still tests the rows kept.
func (s *scanStream) dictFilter(part scanPart, lo, hi int64) (keep []int, ok bool) {
	var pass [][]bool
	var codes []arrow.Array
	for ti, st := range s.op.dictTests {
		c, dict, isDict := storage.Dictionary(part.rec, st.ord)
		if !isDict {
			continue
		}
		key := dictKey{ti, dict}
		m, seen := s.matches[key]
		if !seen {
			m = make([]bool, dict.Len())
			for k := range m {
				m[k] = cmpHolds(st.op, types.Compare(types.TextValue(dict.Value(k)), st.val, st.t))
			}
			if s.matches == nil {
				s.matches = map[dictKey][]bool{}
			}
			s.matches[key] = m
		}
		pass = append(pass, m)
		codes = append(codes, c)
	}
	if len(pass) == 0 {
		return nil, false
	}
	keep = s.keep[:0]
	for i := lo; i < hi; i++ {
		in := !part.dels.Deleted(part.base + i)
		for j := 0; in && j < len(pass); j++ {
			in = codes[j].IsValid(int(i)) && pass[j][dictCode(codes[j], int(i))]
		}
		if in {
			keep = append(keep, int(i))
		}
	}
	s.keep = keep
	return keep, true
}

// dictCode is row i's code in a dictionary's indices.
func dictCode(codes arrow.Array, i int) int {
	if c, ok := codes.(*array.Int8); ok {
		return int(c.Value(i))
	}
	return int(codes.(*array.Int16).Value(i))
}

// cmpHolds reports whether `a op b` holds given c = compare(a, b).
func cmpHolds(op cmpOp, c int) bool {
	switch op {
	case cmpEq:
		return c == 0
	case cmpLt:
		return c < 0
	case cmpLe:
		return c <= 0
	case cmpGt:
		return c > 0
	case cmpGe:
		return c >= 0
	}
	return true
}

func (s *scanStream) Close() error { s.done = true; return nil }
