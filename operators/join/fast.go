package join

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/joind/joind/operators"
	"github.com/joind/joind/operators/hashtable"
)

// The int-key fast path. A join on one int-like key without a residual whose
// answer per probe row is "how many build rows match" (inner) or "does one
// match" (RightSemi, RightAnti, NULL-aware or not) needs no (probe, build)
// pairs when its output has no build columns: it asks the index once per
// probe batch and gathers (or, with no output columns at all, merely
// counts) the probe rows. count(*) over a join is the common case: column
// pruning leaves the join no output columns, and the join then emits
// zero-column batches that carry only a row count.

// intIndex is an index over one int64-encoded key that answers whole
// batches. keys are the probe batch's keys; sel lists the rows to probe (nil
// = every row) and never holds a NULL-key row.
type intIndex interface {
	index
	// contains sets hit[p] for every probed row p: whether its key has a
	// build row. Rows outside sel are left alone.
	contains(keys []int64, sel []int32, hit []bool, pb *pairBuf)
	// countMatches is the number of (probe row, build row) pairs of sel.
	countMatches(keys []int64, sel []int32, pb *pairBuf) int64
	// countHits is the number of rows of sel whose key has a build row.
	countHits(keys []int64, sel []int32, pb *pairBuf) int64
}

func (s *swissIndex) contains(keys []int64, sel []int32, hit []bool, pb *pairBuf) {
	if pb.ht == nil {
		pb.ht = hashtable.NewMatches(pb.cap)
	}
	s.t.Contains(keys, s.filterSel(keys, sel, pb), hit, pb.ht)
}

func (s *swissIndex) countMatches(keys []int64, sel []int32, pb *pairBuf) int64 {
	if pb.ht == nil {
		pb.ht = hashtable.NewMatches(pb.cap)
	}
	if s.t.Distinct() == s.t.Rows()-s.t.NullCount() {
		return s.countHits(keys, sel, pb) // unique keys: a hit is one pair
	}
	if sel == nil {
		sel = identity(len(keys))
	}
	sel = s.filterSel(keys, sel, pb)
	pb.ht.Reset()
	var c int64
	for done := false; !done; {
		done = s.t.Probe(keys, sel, pb.ht)
		c += int64(pb.ht.Len())
	}
	return c
}

func (s *swissIndex) countHits(keys []int64, sel []int32, pb *pairBuf) int64 {
	if pb.ht == nil {
		pb.ht = hashtable.NewMatches(pb.cap)
	}
	if cap(pb.hit) < len(keys) {
		pb.hit = make([]bool, len(keys))
	}
	hit := pb.hit[:len(keys)]
	clear(hit)
	s.t.Contains(keys, s.filterSel(keys, sel, pb), hit, pb.ht)
	var c int64
	for _, h := range hit {
		if h {
			c++
		}
	}
	return c
}

var (
	_ intIndex = (*swissIndex)(nil)
	_ intIndex = (*denseIndex)(nil)
)

// identity returns 0, 1, ..., n-1.
func identity(n int) []int32 {
	s := make([]int32, n)
	for i := range s {
		s[i] = int32(i)
	}
	return s
}

// fastEligible reports whether the join can take the int-key fast path
// (decided at construction; the index is checked when the build is done).
//
// Keys of several fixed-width columns take it when the build packs them
// (layout.go), except under NOT IN, whose NULLs in single columns the
// packed key cannot express.
func (j *HashJoin) fastEligible() bool {
	if j.nested || j.residual != nil || len(j.allCols) > 1 && j.na != naNone {
		return false
	}
	for i := range j.allCols {
		if j.nullsEq[i] || !operators.IntKey(j.spec.LeftKeys[i].Type()) || !operators.IntKey(j.spec.RightKeys[i].Type()) {
			return false
		}
	}
	switch j.kind {
	case kInner:
		return len(j.out) == 0 // with output columns the pairs are needed
	case kRightSemi, kRightAnti:
		return j.na == naNone || j.na == naRightAnti
	}
	return false
}

// fastIndex is the index the fast path asks: the build's index over one
// int64 key, or the one under packed keys (pk non-nil). ok is false for
// the other indexes.
func fastIndex(ix index) (fi intIndex, pk *packedIndex, ok bool) {
	if p, isPacked := ix.(*packedIndex); isPacked {
		fi, ok = p.inner.(intIndex)
		return fi, p, ok
	}
	fi, ok = ix.(intIndex)
	return fi, nil, ok
}

// fastBatch joins one probe batch on the fast path. It returns the output
// rows as a batch, or nil when there are none.
func (s *stream) fastBatch(ix intIndex, pk *packedIndex, rec arrow.Record) (arrow.Record, error) {
	j := s.j
	kb, err := j.rightKeys.eval(s.ctx, rec)
	if err != nil {
		return nil, err
	}
	n := kb.n
	k := &kb.cols[0]
	if pk != nil {
		pk.p.Pack(kb.cols, pk.cols, n, &s.packed)
		k = &s.packed
	}
	var sel []int32 // nil: every row has a key
	if k.Nulls != nil {
		if s.selBuf == nil {
			s.selBuf = make([]int32, 0, n) // non-nil even when empty: nil means all rows
		}
		sel = s.selBuf[:0]
		for i, isNull := range k.Nulls {
			if !isNull {
				sel = append(sel, int32(i))
			}
		}
		s.selBuf = sel
	}
	if j.kind == kInner {
		c := int64(0)
		if s.build.n > 0 {
			c = ix.countMatches(k.Ints, sel, s.pb)
		}
		return s.countBatch(c), nil
	}
	// want is the hit value of an emitted row; NULL-key rows never hit. A
	// NULL NOT IN (non-empty set) is UNKNOWN: the NULL-aware anti join drops
	// NULL-key rows unless the build side is empty.
	want := j.kind == kRightSemi
	dropNull := j.na == naRightAnti && s.build.n > 0
	if len(j.out) == 0 {
		var hits int64
		if s.build.n > 0 {
			hits = ix.countHits(k.Ints, sel, s.pb)
		}
		if want {
			return s.countBatch(hits), nil
		}
		c := int64(n) - hits
		if dropNull && sel != nil {
			c -= int64(n - len(sel))
		}
		return s.countBatch(c), nil
	}
	if cap(s.hit) < n {
		s.hit = make([]bool, n)
	}
	hit := s.hit[:n]
	clear(hit)
	if s.build.n > 0 {
		ix.contains(k.Ints, sel, hit, s.pb)
	}
	rows := s.outP[:0]
	for i, h := range hit {
		if h == want && !(dropNull && k.Null(i)) {
			rows = append(rows, int32(i))
		}
	}
	s.outP = rows[:0]
	if len(rows) == 0 {
		return nil, nil
	}
	cols := make([]arrow.Array, len(j.out))
	for i, src := range j.out {
		c := rec.Column(src.pos)
		if len(rows) < n {
			c = take(c, src.col.Type, rows)
		}
		cols[i] = c
	}
	return array.NewRecordBatch(j.schema, cols, int64(len(rows))), nil
}

// countBatch is a batch of c rows without columns (nil for 0); the rows are
// emitted in pieces of at most the batch size, since a consumer may
// materialise constants per row.
func (s *stream) countBatch(c int64) arrow.Record {
	s.pendingRows += c
	return s.takePending()
}

func (s *stream) takePending() arrow.Record {
	if s.pendingRows == 0 {
		return nil
	}
	n := min(s.pendingRows, int64(max(s.j.batchSize, 1)))
	s.pendingRows -= n
	return array.NewRecordBatch(s.j.schema, []arrow.Array{}, n)
}
