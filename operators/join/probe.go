package join

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/joind/joind/operators"
	"github.com/joind/joind/operators/hashtable"
	"github.com/joind/joind/sql/plan"
)

// match records one (probe row, build row) pair whose keys are equal and
// whose residual is TRUE.
func (s *stream) match(p, b int32) {
	switch s.j.kind {
	case kInner:
		s.out(b, p)
	case kLeft:
		s.out(b, p)
		s.build.matched.set(b)
	case kRight:
		s.out(b, p)
		s.pmatched[p] = true
	case kFull:
		s.out(b, p)
		s.build.matched.set(b)
		s.pmatched[p] = true
	case kLeftSemi, kLeftAnti, kLeftMark:
		s.build.matched.set(b)
	case kRightSemi, kRightAnti:
		s.pmatched[p] = true
	}
}

func (s *stream) out(b, p int32) {
	s.outB = append(s.outB, b)
	s.outP = append(s.outP, p)
}

// probeSideRows adds the rows a finished probe batch emits on its own.
func (s *stream) probeSideRows() {
	j := s.j
	switch j.kind {
	case kRight, kFull:
		for p, m := range s.pmatched {
			if !m {
				s.out(-1, int32(p))
			}
		}
	case kRightSemi:
		for p, m := range s.pmatched {
			if m {
				s.out(-1, int32(p))
			}
		}
	case kRightAnti:
		for p, m := range s.pmatched {
			if m {
				continue
			}
			// NULL NOT IN (non-empty set) is UNKNOWN. (A build side holding
			// a NULL never gets here: the stream ends after building.)
			if j.na == naRightAnti && s.build.n > 0 && s.kb.anyNull(j.valueCols, j.nullsEq, p) {
				continue
			}
			s.out(-1, int32(p))
		}
	}
}

// flush turns the pending output rows into a batch. probe is the probe batch
// outP indexes (nil when only build rows are emitted).
func (s *stream) flush(probe arrow.Record, b *buildSide) arrow.Record {
	j := s.j
	n := len(s.outB)
	cols := make([]arrow.Array, len(j.out))
	// Every probe row once, in order (an inner join on a key every probe row
	// finds once): the probe columns pass through untaken.
	whole := probe != nil && n == int(probe.NumRows()) && isIdentity(s.outP)
	for i, src := range j.out {
		if src.side == 1 && whole {
			cols[i] = probe.Column(src.pos)
			continue
		}
		switch src.side {
		case 0:
			cols[i] = take(b.cols[src.pos], src.col.Type, s.outB)
		case 1:
			if probe == nil {
				cols[i] = nullArray(src.col.Type, n)
			} else {
				cols[i] = take(probe.Column(src.pos), src.col.Type, s.outP)
			}
		case 2:
			mb := array.NewBooleanBuilder(memory.DefaultAllocator)
			mb.Reserve(n)
			for _, m := range s.marks {
				if m < 0 {
					mb.AppendNull()
				} else {
					mb.UnsafeAppend(m == 1)
				}
			}
			cols[i] = mb.NewArray()
		}
	}
	s.outB, s.outP, s.marks = s.outB[:0], s.outP[:0], s.marks[:0]
	return array.NewRecordBatch(j.schema, cols, int64(n))
}

// isIdentity reports whether idx is 0, 1, ..., len(idx)-1.
func isIdentity(idx []int32) bool {
	for i, v := range idx {
		if v != int32(i) {
			return false
		}
	}
	return true
}

// evalResidual returns per pair 1 (TRUE), 0 (FALSE) or -1 (NULL).
func (s *stream) evalResidual(ps, bs []int32) ([]int8, error) {
	j := s.j
	n := len(ps)
	if cap(s.status) < n {
		s.status = make([]int8, n)
	}
	st := s.status[:n]
	if j.residual == nil {
		for i := range st {
			st[i] = 1
		}
		return st, nil
	}
	cols := make([]arrow.Array, len(j.resSrc))
	for i, src := range j.resSrc {
		if src.side == 0 {
			cols[i] = take(s.build.cols[src.pos], src.col.Type, bs)
		} else {
			cols[i] = take(s.rec.Column(src.pos), src.col.Type, ps)
		}
	}
	arr, err := j.residual.EvalColumns(s.ctx, cols, n)
	if err != nil {
		return nil, err
	}
	ba, ok := arr.(*array.Boolean)
	if !ok {
		return nil, planErr("join residual produced %T, not boolean", arr)
	}
	for i := range st {
		switch {
		case ba.IsNull(i):
			st[i] = -1
		case ba.Value(i):
			st[i] = 1
		default:
			st[i] = 0
		}
	}
	return st, nil
}

// markUnknown sets the per-build-row UNKNOWN bits a probe batch causes
// (correlated NULL-aware joins). A probe row whose NOT IN value is NULL makes
// every build row in its scope UNKNOWN; any other probe row makes the
// NULL-valued build rows in its scope UNKNOWN. Both lookups visit only
// candidates that involve a NULL, so the cost follows the number of NULLs.
func (s *stream) markUnknown() error {
	j, kb := s.j, s.kb
	var nullValued, plain []int32
	for i := 0; i < kb.n; i++ {
		if kb.anyNull(j.scopeCols, j.nullsEq, i) {
			continue // a NULL correlation value: nothing is in scope
		}
		if kb.anyNull(j.valueCols, j.nullsEq, i) {
			nullValued = append(nullValued, int32(i))
		} else {
			plain = append(plain, int32(i))
		}
	}
	if len(nullValued) > 0 {
		if err := s.unknownPairs(s.build.scopeIdx, nullValued); err != nil {
			return err
		}
	}
	if len(plain) > 0 && s.build.hasNullValue {
		return s.unknownPairs(s.build.nullValueIdx, plain)
	}
	return nil
}

func (s *stream) unknownPairs(ix index, sel []int32) error {
	j, b, kb := s.j, s.build, s.kb
	pb := s.upb
	pb.restart()
	for done := false; !done; {
		pb.reset()
		done = ix.probe(kb, sel, pb)
		// Keep the pairs that are still undecided and whose value tuples have
		// no definite mismatch (a NULL in one element leaves the tuple
		// comparison FALSE when another element differs).
		ps, bs := pb.probe[:0], pb.build[:0]
	pairs:
		for i, p := range pb.probe {
			r := pb.build[i]
			if b.unknown.test(r) || b.matched.test(r) {
				continue
			}
			for _, c := range j.valueCols {
				pc, bc := &kb.cols[c], &b.keys.cols[c]
				if !pc.Null(int(p)) && !bc.Null(int(r)) && !pc.Equal(int(p), bc, int(r)) {
					continue pairs
				}
			}
			ps, bs = append(ps, p), append(bs, r)
		}
		if len(ps) == 0 {
			continue
		}
		st, err := s.evalResidual(ps, bs)
		if err != nil {
			return err
		}
		for i, r := range bs {
			if (st[i] == 1 || st[i] == -1 && j.spec.ResidualUnknown) && !b.unknown.test(r) {
				b.unknown.set(r)
				j.facts.unknown.Add(1)
			}
		}
	}
	return nil
}

// emit produces the build-side rows of the last probe partition.
func (s *stream) emit() (arrow.Record, error) {
	j := s.j
	for s.emitBuild < len(s.grp.builds) {
		b := s.grp.builds[s.emitBuild]
		for s.emitRow < b.n && len(s.outB) < j.batchSize {
			r := int32(s.emitRow)
			s.emitRow++
			switch j.kind {
			case kLeft, kFull:
				if !b.matched.test(r) {
					s.out(r, -1)
				}
			case kLeftSemi:
				if b.matched.test(r) {
					s.out(r, -1)
				}
			case kLeftAnti:
				if s.antiEmits(b, r) {
					s.out(r, -1)
				}
			case kLeftMark:
				s.out(r, -1)
				s.marks = append(s.marks, s.markOf(b, r))
			}
		}
		if s.emitRow >= b.n {
			s.emitBuild++
			s.emitRow = 0
		}
		if len(s.outB) > 0 {
			return s.flush(nil, b), nil
		}
	}
	return nil, nil
}

// antiEmits decides whether build row r is in the anti join's output.
func (s *stream) antiEmits(b *buildSide, r int32) bool {
	switch s.j.na {
	case naLeftAnti:
		switch {
		case !s.summary.SawRow():
			return true // x NOT IN (empty) is TRUE, even for a NULL x
		case s.summary.SawNullKey():
			return false // FALSE or UNKNOWN for every x
		case b.keys.anyNull(s.j.valueCols, s.j.nullsEq, int(r)):
			return false // NULL NOT IN (non-empty) is UNKNOWN
		}
		return !b.matched.test(r)
	case naPerRow:
		return !b.matched.test(r) && !b.unknown.test(r)
	}
	return !b.matched.test(r)
}

// markOf is the mark of build row r: 1 TRUE, 0 FALSE, -1 NULL.
func (s *stream) markOf(b *buildSide, r int32) int8 {
	if b.matched.test(r) {
		return 1
	}
	switch s.j.na {
	case naLeftMark:
		if s.summary.SawRow() && (s.summary.SawNullKey() || b.keys.anyNull(s.j.valueCols, s.j.nullsEq, int(r))) {
			return -1
		}
	case naPerRow:
		if b.unknown.test(r) {
			return -1
		}
	}
	return 0
}

// Explain describes the join for EXPLAIN: type, mode, keys, residual, build
// side, null-aware mode and the hash table kernel.
func (j *HashJoin) Explain() string {
	var sb strings.Builder
	if j.nested {
		fmt.Fprintf(&sb, "Nested Loop Join: type=%s build=left", j.kind)
		if j.spec.Residual != nil {
			fmt.Fprintf(&sb, " on=%s", plan.FormatExpr(j.spec.Residual))
		}
		return sb.String()
	}
	fmt.Fprintf(&sb, "Hash Join: type=%s mode=%s build=left keys=[", j.kind, j.spec.Mode)
	for i := range j.spec.LeftKeys {
		if i > 0 {
			sb.WriteString(", ")
		}
		op := "="
		if j.nullsEq[i] {
			op = "IS NOT DISTINCT FROM"
		}
		fmt.Fprintf(&sb, "%s %s %s", plan.FormatExpr(j.spec.LeftKeys[i]), op, plan.FormatExpr(j.spec.RightKeys[i]))
	}
	sb.WriteString("]")
	if j.spec.Residual != nil {
		fmt.Fprintf(&sb, " residual=%s", plan.FormatExpr(j.spec.Residual))
	}
	if j.spec.NullAware {
		fmt.Fprintf(&sb, " null-aware=%s", j.na)
		if j.na == naPerRow {
			fmt.Fprintf(&sb, " value-keys=%d scope-keys=%d", len(j.valueCols), len(j.scopeCols))
		}
	}
	fmt.Fprintf(&sb, " kernel=%s", j.KernelName())
	return sb.String()
}

// KernelName is the index the build side uses (or will use): the Swiss
// table's kernel for one int-like key, else the hashed layout until the
// build has chosen (packed keys when they fit).
func (j *HashJoin) KernelName() string {
	if k, ok := j.kernel.Load().(string); ok {
		return k
	}
	switch {
	case j.nested:
		return "nested-loop"
	case len(j.allCols) == 1 && !j.nullsEq[0] && operators.IntKey(j.spec.LeftKeys[0].Type()):
		return "swiss-int64/" + hashtable.KernelName()
	}
	return "swiss-hash/" + hashtable.KernelName()
}
