package join

import (
	"context"
	"io"
	"sync"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/joind/joind/operators"
	"github.com/joind/joind/operators/hashtable"
	"github.com/joind/joind/operators/spill"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
)

// HashJoin is the hash join operator (also the nested-loop join, which is a
// hash join whose index returns every build row). It runs once: each output
// partition is opened at most once.
type HashJoin struct {
	left, right operators.Operator
	spec        Spec
	env         *operators.Env
	kind        kind
	na          naMode
	nested      bool // built by NewNestedLoopJoin: no keys

	allCols, valueCols, scopeCols []int
	nullsEq                       []bool
	leftKeys, rightKeys           *keyEval
	residual                      *operators.Compiled
	resSrc                        []colSrc // columns the residual reads, in its input order
	out                           []colSrc
	schema                        *arrow.Schema
	batchSize                     int
	parts                         int
	fast                          bool        // fastEligible: see fast.go
	opened                        atomic.Bool // Narrow is legal only before
	buildOnly                     bool        // inner, no residual, only build columns out: step may hold pairs across probe batches

	// Run state, shared by the partitions.
	buildBytes atomic.Int64 // bytes held by build sides, for MemoryLimit
	kernel     atomic.Value // string: the index kind actually built
	level      int          // grace.go: 0, or the depth of a sub-join
	parent     *HashJoin    // grace.go: the join a sub-join works for
	spilled    spill.Stats  // grace.go: the files the join wrote
	facts      naFacts      // explainfacts.go: what decided a null-aware join
	closes     atomic.Int64 // streams closed: the last returns the memory
	collect    struct {     // CollectLeft
		grpOnce, buildOnce sync.Once
		build              *buildSide
		err                error
		grp                *group
		// grace.go: the spilled build side; built and closedEarly count
		// the streams closed before the build ended.
		mu          sync.Mutex
		grace       *grace
		built       bool
		closedEarly int
	}
	partd struct { // Partitioned
		once   sync.Once
		groups []*group
	}
}

var _ operators.Operator = (*HashJoin)(nil)

// colSrc says where an output (or residual input) column comes from.
type colSrc struct {
	side int // 0 build, 1 probe, 2 mark
	pos  int
	col  plan.Column
}

// NewHashJoin builds a hash join of left (the build side, collected first)
// and right (the probe side). See Spec.
func NewHashJoin(left, right operators.Operator, spec Spec, env *operators.Env) (operators.Operator, error) {
	k, na, err := classify(&spec)
	if err != nil {
		return nil, err
	}
	return newJoin(left, right, spec, env, k, na, false)
}

func newJoin(left, right operators.Operator, spec Spec, env *operators.Env, k kind, na naMode, nested bool) (*HashJoin, error) {
	if env == nil {
		env = &operators.Env{}
	}
	j := &HashJoin{left: left, right: right, spec: spec, env: env, kind: k, na: na, nested: nested, spilled: spill.Stats{Kind: spill.KindHashJoin}}
	nk := len(spec.LeftKeys)
	j.nullsEq = make([]bool, nk)
	copy(j.nullsEq, spec.KeyNullsEqual)
	for i := 0; i < nk; i++ {
		j.allCols = append(j.allCols, i)
	}
	if spec.NullAware && !nested {
		vk := spec.ValueKeys
		if vk == 0 {
			vk = 1
		}
		j.valueCols, j.scopeCols = j.allCols[:vk], j.allCols[vk:]
	}
	if err := j.setup(); err != nil {
		return nil, err
	}
	j.batchSize = env.BatchSize
	if j.batchSize <= 0 {
		j.batchSize = 1024
	}
	j.parts = right.Partitions()
	if spec.Mode == Partitioned {
		// The inputs arrive repartitioned on the keys by the exchange the
		// plan put below each: partition i of both holds the same keys.
		j.parts = spec.Partitions
		if j.parts <= 0 {
			j.parts = right.Partitions()
		}
		if left.Partitions() != j.parts || right.Partitions() != j.parts {
			return nil, planErr("partitioned hash join of %d partitions has inputs of %d and %d partitions (a repartition belongs below each)",
				j.parts, left.Partitions(), right.Partitions())
		}
	}
	return j, nil
}

// setup compiles what depends on the inputs' and the output's columns: key
// evaluators, the residual and the output column sources.
func (j *HashJoin) setup() error {
	lc, rc := j.left.Columns(), j.right.Columns()
	var err error
	if j.leftKeys, err = newKeyEval(j.spec.LeftKeys, lc, j.env); err != nil {
		return err
	}
	if j.rightKeys, err = newKeyEval(j.spec.RightKeys, rc, j.env); err != nil {
		return err
	}
	j.residual, j.resSrc, j.out = nil, nil, nil
	if j.spec.Residual != nil {
		if err := j.compileResidual(lc, rc); err != nil {
			return err
		}
	}
	// Output columns by ColumnID.
	for _, c := range j.spec.Cols {
		src, ok := colSrc{}, false
		if j.spec.Mark != nil && c.ID == j.spec.Mark.ID && j.kind == kLeftMark {
			src, ok = colSrc{side: 2, col: c}, true
		}
		if !ok && j.kind.outputsBuild() {
			src, ok = find(lc, c, 0)
		}
		if !ok && j.kind.outputsProbe() {
			src, ok = find(rc, c, 1)
		}
		if !ok {
			return planErr("%s join output column %q (#%d) is not an input column", j.kind, c.Name, c.ID)
		}
		j.out = append(j.out, src)
	}
	j.schema = schemaOf(j.spec.Cols)
	j.fast = j.fastEligible()
	j.buildOnly = j.kind == kInner && j.residual == nil && len(j.out) > 0
	for _, src := range j.out {
		j.buildOnly = j.buildOnly && src.side == 0
	}
	return nil
}

// Narrow implements operators.Narrower: the join drops the output columns
// its consumer does not read and narrows its inputs to the rest plus the
// keys and the residual's columns. A join whose output is only counted then
// takes the no-column fast path.
func (j *HashJoin) Narrow(keep func(plan.ColumnID) bool) error {
	if j.opened.Load() {
		return planErr("hash join narrowed after it was opened")
	}
	var cols []plan.Column
	for _, c := range j.spec.Cols {
		if keep(c.ID) || j.spec.Mark != nil && c.ID == j.spec.Mark.ID {
			cols = append(cols, c)
		}
	}
	j.spec.Cols = cols
	ids := map[plan.ColumnID]bool{}
	for _, c := range cols {
		ids[c.ID] = true
	}
	operators.ExprColumns(j.spec.Residual, ids)
	for i := range j.spec.LeftKeys {
		operators.ExprColumns(j.spec.LeftKeys[i], ids)
		operators.ExprColumns(j.spec.RightKeys[i], ids)
	}
	for _, in := range []operators.Operator{j.left, j.right} {
		if n, ok := in.(operators.Narrower); ok {
			if err := n.Narrow(func(id plan.ColumnID) bool { return ids[id] }); err != nil {
				return err
			}
		}
	}
	return j.setup()
}

func find(cols []plan.Column, c plan.Column, side int) (colSrc, bool) {
	for i, x := range cols {
		if x.ID == c.ID {
			return colSrc{side: side, pos: i, col: x}, true
		}
	}
	return colSrc{}, false
}

// compileResidual compiles the residual over only the columns it reads,
// gathered per candidate pair.
func (j *HashJoin) compileResidual(lc, rc []plan.Column) error {
	ids := map[plan.ColumnID]bool{}
	operators.ExprColumns(j.spec.Residual, ids)
	var input []plan.Column
	for side, cols := range [][]plan.Column{lc, rc} {
		for i, c := range cols {
			if ids[c.ID] {
				j.resSrc = append(j.resSrc, colSrc{side: side, pos: i, col: c})
				input = append(input, c)
			}
		}
	}
	// A NULL residual rejects the pair as FALSE does, except where it is
	// the NOT IN comparison itself (ResidualUnknown).
	compile := operators.CompileQual
	if j.spec.ResidualUnknown {
		compile = operators.Compile
	}
	c, err := compile(j.spec.Residual, input, j.env)
	if err != nil {
		return err
	}
	j.residual = c
	return nil
}

func (j *HashJoin) Columns() []plan.Column { return j.spec.Cols }
func (j *HashJoin) Partitions() int        { return j.parts }

// buildSide is one collected build side and its indexes.
type buildSide struct {
	cols []arrow.Array // the build batches concatenated, one array per column
	n    int
	keys *keyBatch
	idx  index // all keys; rows with a NULL key are not in it

	matched bitmap // build row found a partner (left/full/semi/anti/mark)
	unknown bitmap // per-row NULL-aware: build row's NOT IN is UNKNOWN

	hasNullValue bool  // some build row has a NULL value key (RightAnti NA)
	nullValueIdx index // per-row NA: NULL-valued build rows, by scope keys
	scopeIdx     index // per-row NA: build rows with non-NULL scope keys, by scope keys
}

// group is a set of build sides whose build-dependent rows are emitted by
// the last of the probe partitions sharing comp.
type group struct {
	comp   *Completion[*atomic.Uint64]
	builds []*buildSide
}

// bitmap is one bit per build row, set with atomic OR by concurrent probers
// and read after the completion barrier.
type bitmap []atomic.Uint64

func newBitmap(n int) bitmap { return make(bitmap, (n+63)/64) }

func (b bitmap) set(i int32) {
	w, m := &b[i>>6], uint64(1)<<(uint(i)&63)
	if w.Load()&m == 0 { // skip the write (and the cache-line bounce) when set
		w.Or(m)
	}
}

func (b bitmap) test(i int32) bool { return b[i>>6].Load()&(uint64(1)<<(uint(i)&63)) != 0 }

// collectSide reads every partition of a build side concurrently, counting
// bytes against the join's memory limit (operators.Drain: its cancellation
// and error rules).
func (j *HashJoin) collectSide(ctx context.Context, open func(ctx context.Context, p int) (operators.Stream, error), parts int) ([]arrow.Record, error) {
	recs, err := operators.Drain(ctx, operators.Streams(parts, open), buildSink{j})
	if err != nil {
		return nil, err
	}
	return *recs, nil
}

// buildSink keeps a build side's batches, accounting for each.
type buildSink struct{ j *HashJoin }

func (buildSink) Init(int) *[]arrow.Record { return new([]arrow.Record) }
func (k buildSink) Consume(_ context.Context, s *[]arrow.Record, r arrow.Record) error {
	if err := k.j.account(recordBytes(r)); err != nil {
		return err
	}
	*s = append(*s, r)
	return nil
}
func (buildSink) Combine(dst, src *[]arrow.Record) error { *dst = append(*dst, *src...); return nil }

// account adds n bytes to the build sides' total and enforces the query's
// memory limit (env.Spill), or else Spec.MemoryLimit.
func (j *HashJoin) account(n int64) error {
	if sp := j.env.Spill; sp.Bounded() {
		if j.level >= graceMaxLevel {
			// A partition still past the limit after every level of
			// partitioning (the rows of a few keys) is built anyway.
			sp.Force(n)
		} else if !sp.Reserve(n) {
			return sp.OutOfMemory("HashTableContext", "The build side of "+j.kind.String()+" hash join", n)
		}
		j.buildBytes.Add(n)
		j.top().spilled.Hold(n)
		return nil
	}
	total := j.buildBytes.Add(n)
	j.top().spilled.Hold(n)
	if lim := j.spec.MemoryLimit; lim > 0 && total > lim {
		return spill.OutOfMemory("HashTableContext", "The build side of "+j.kind.String()+" hash join", n, lim, total-n)
	}
	return nil
}

// buildNeeds marks the build columns the join reads after the build:
// output and residual columns, and the key columns (all of them when a key
// is an expression); keyNeed marks those the key evaluation reads. The
// others are never concatenated.
func (j *HashJoin) buildNeeds() (need, keyNeed []bool) {
	need = make([]bool, len(j.left.Columns()))
	keyNeed = make([]bool, len(need))
	for _, src := range j.out {
		if src.side == 0 {
			need[src.pos] = true
		}
	}
	for _, src := range j.resSrc {
		if src.side == 0 {
			need[src.pos] = true
		}
	}
	for i, pos := range j.leftKeys.pos {
		if pos < 0 || j.leftKeys.comp[i] != nil {
			for c := range need {
				need[c], keyNeed[c] = true, true
			}
			break
		}
		need[pos], keyNeed[pos] = true, true
	}
	return need, keyNeed
}

// newBuild indexes collected build batches.
func (j *HashJoin) newBuild(ctx context.Context, recs []arrow.Record) (*buildSide, error) {
	// The key columns are concatenated first; the other columns the join
	// reads are concatenated on another goroutine while the index is built.
	need, keyNeed := j.buildNeeds()
	otherNeed := make([]bool, len(need))
	others := false
	for c := range need {
		otherNeed[c] = need[c] && !keyNeed[c]
		others = others || otherNeed[c]
	}
	type concatResult struct {
		cols []arrow.Array
		err  error
	}
	otherDone := make(chan concatResult, 1)
	if others {
		go func() {
			var r concatResult
			r.err = pgerr.Safely("a hash join build goroutine", func() (err error) {
				r.cols, _, err = concat(recs, j.left.Columns(), otherNeed)
				return err
			})
			otherDone <- r
		}()
	} else {
		otherDone <- concatResult{}
	}
	cols, n, err := concat(recs, j.left.Columns(), keyNeed)
	if err != nil {
		return nil, err
	}
	if n > hashtable.MaxBuildRows || n > 1<<31-1 {
		return nil, pgerr.New(pgerr.ProgramLimitExceeded, "hash join build side has too many rows (%d)", n)
	}
	b := &buildSide{cols: cols, n: n}
	if b.keys, err = j.leftKeys.evalColumns(ctx, cols, n, j.left.Columns()); err != nil {
		return nil, err
	}
	// The NULL-aware side indexes are built on another goroutine while this
	// one builds the main index (the probe partitions wait for both).
	sideDone := make(chan error, 1)
	go func() {
		sideDone <- pgerr.Safely("a hash join build goroutine", func() error { return j.buildSideIndexes(b) })
	}()
	switch {
	case j.nested:
		b.idx = &listIndex{n: n}
	case len(j.allCols) == 1 && !j.nullsEq[0] && b.keys.cols[0].Ints != nil && forceIndex != "chain" && forceIndex != "hashed":
		k := &b.keys.cols[0]
		if lo, span, ok := denseSpan(k.Ints, k.Nulls); ok && forceIndex != "swiss" {
			b.idx = newDenseIndex(k.Ints, k.Nulls, lo, span)
			break
		}
		si, err := newSwissIndex(b.keys, 0)
		if err != nil {
			return nil, err
		}
		b.idx = si
	default:
		var rows []int32 // the rows whose NULLs may match; nil = all
		if b.keys.mayBeNull(j.allCols) {
			rows = []int32{}
			for r := 0; r < n; r++ {
				if !b.keys.anyNull(j.allCols, j.nullsEq, r) {
					rows = append(rows, int32(r))
				}
			}
		}
		if b.idx, err = newKeyLayoutIndex(b.keys, j.allCols, j.nullsEq, rows); err != nil {
			return nil, err
		}
	}
	if err := j.account(b.idx.bytes()); err != nil {
		return nil, err
	}
	j.kernel.Store(b.idx.kernelName())
	b.matched = newBitmap(n)
	for r := 0; r < n && b.keys.mayBeNull(j.valueCols); r++ {
		if b.keys.anyNull(j.valueCols, j.nullsEq, r) {
			b.hasNullValue = true
			if j.na == naNone {
				break
			}
			j.facts.nullBuild.Add(1) // every one, for EXPLAIN ANALYZE (explainfacts.go)
		}
	}
	if err := <-sideDone; err != nil {
		return nil, err
	}
	res := <-otherDone
	if res.err != nil {
		return nil, res.err
	}
	for c, a := range res.cols {
		if otherNeed[c] {
			b.cols[c] = a
		}
	}
	return b, nil
}

// buildSideIndexes builds the per-row NULL-aware side indexes of b.
func (j *HashJoin) buildSideIndexes(b *buildSide) error {
	if j.na != naPerRow {
		return nil
	}
	n := b.n
	b.unknown = newBitmap(n)
	// inScope: rows with no NULL scope key (nil = every row); nullValued:
	// those of them with a NULL value key.
	var inScope []int32
	nullValued := []int32{}
	if b.keys.mayBeNull(j.scopeCols) || b.keys.mayBeNull(j.valueCols) {
		inScope = []int32{}
		for r := 0; r < n; r++ {
			if b.keys.anyNull(j.scopeCols, j.nullsEq, r) {
				continue // in nobody's scope
			}
			inScope = append(inScope, int32(r))
			if b.keys.anyNull(j.valueCols, j.nullsEq, r) {
				nullValued = append(nullValued, int32(r))
			}
		}
	}
	if len(j.scopeCols) == 0 {
		b.nullValueIdx = &listIndex{rows: nullValued}
		b.scopeIdx = &listIndex{rows: inScope, n: n}
	} else {
		b.nullValueIdx = newKeyIndex(b.keys, j.scopeCols, nullValued)
		b.scopeIdx = newKeyIndex(b.keys, j.scopeCols, inScope)
	}
	return j.account(b.nullValueIdx.bytes() + b.scopeIdx.bytes())
}

// Open starts output partition p.
func (j *HashJoin) Open(ctx context.Context, p int) (operators.Stream, error) {
	if p < 0 || p >= j.parts {
		return nil, planErr("hash join has no partition %d", p)
	}
	j.opened.Store(true)
	s := &stream{j: j, ctx: ctx, p: p, pb: newPairBuf(j.batchSize), upb: newPairBuf(j.batchSize)}
	if j.spec.Mode == Partitioned {
		// The probe partition is opened once this partition's build is done
		// (doBuild), so probe rows are not queued while builds run.
		j.partd.once.Do(j.startPartitioned)
		s.grp = j.partd.groups[p]
		return s, nil
	}
	in, err := j.right.Open(ctx, p)
	if err != nil {
		return nil, err
	}
	s.in = in
	j.collect.grpOnce.Do(func() { j.collect.grp = &group{comp: newAtomicCompletion(j.parts)} })
	s.grp = j.collect.grp
	return s, nil
}

// startPartitioned sets up the completion groups.
func (j *HashJoin) startPartitioned() {
	j.partd.groups = make([]*group, j.parts)
	if j.na == naLeftAnti {
		// The Summary must cover the whole probe side: one group, and the
		// last partition emits every partition's build rows.
		g := &group{comp: newAtomicCompletion(j.parts), builds: make([]*buildSide, j.parts)}
		for i := range j.partd.groups {
			j.partd.groups[i] = g
		}
		return
	}
	for i := range j.partd.groups {
		j.partd.groups[i] = &group{comp: newAtomicCompletion(1), builds: make([]*buildSide, 1)}
	}
}

// state is a probe stream's phase.
type state uint8

const (
	// building: waiting for (or doing) the build side: CollectLeft shares one
	// build done once; Partitioned builds this partition's own.
	stBuilding state = iota
	// probing: reading probe batches and emitting matches and probe-side
	// rows (inner, outer, RightSemi, RightAnti) batch by batch.
	stProbing
	// finishing: the probe input is exhausted; report completion and learn
	// whether this partition is the last one.
	stFinishing
	// emitting: this partition is last; emit the build-side rows that depend
	// on the whole probe side (unmatched, semi, anti, mark).
	stEmitting
	// done: io.EOF from now on.
	stDone
)

// stream is one output partition: it probes partition p of the probe side.
type stream struct {
	j     *HashJoin
	ctx   context.Context
	p     int
	state state
	in    operators.Stream
	grp   *group
	build *buildSide

	// current probe batch
	rec       arrow.Record
	kb        *keyBatch
	sel       []int32 // probe rows with no NULL key
	selBuf    []int32 // backing of sel when some rows have a NULL key
	ident     []int32 // 0, 1, 2, ...: sel when no row has a NULL key
	pb, upb   *pairBuf
	batchDone bool
	pmatched  []bool // probe row matched (right/full/RightSemi/RightAnti)
	outB      []int32
	outP      []int32
	marks     []int8 // mark join: 1 TRUE, 0 FALSE, -1 NULL
	status    []int8 // residual results, reused

	// emitting
	hit         []bool // fast path: probe row has a match
	packed      keyCol // fast path: the batch's packed keys
	pendingRows int64  // fast path: rows counted but not yet emitted

	summary   Summary
	emitBuild int
	emitRow   int
	closed    bool
	gs        *graceStream // the build side spilled: this stream is gs
}

func (s *stream) Next() (arrow.Record, error) {
	for {
		if err := s.ctx.Err(); err != nil {
			return nil, err
		}
		if s.gs != nil { // the build side spilled (grace.go)
			return s.gs.Next()
		}
		switch s.state {
		case stBuilding:
			if err := s.doBuild(); err != nil {
				return nil, err
			}
			if s.gs != nil {
				continue
			}
			s.state = stProbing
			if s.j.na == naRightAnti && s.build.n > 0 && s.build.hasNullValue {
				// probe NOT IN (build with a NULL): never TRUE.
				s.state = stDone
				s.j.facts.probeSkipped.Store(true)
			}
		case stProbing:
			if s.pendingRows > 0 {
				return s.takePending(), nil
			}
			if s.rec == nil {
				if s.j.na == naLeftAnti && s.grp.comp.Hint(FactNullKey) {
					// A NULL probe key was recorded: no build row can be
					// emitted, so the rest of the probe side is moot.
					s.state = stFinishing
					continue
				}
				rec, err := s.in.Next()
				if err == io.EOF {
					s.state = stFinishing
					continue
				}
				if err != nil {
					return nil, err
				}
				if ix, pk, ok := fastIndex(s.build.idx); ok && s.j.fast {
					out, err := s.fastBatch(ix, pk, rec)
					if err != nil || out != nil {
						return out, err
					}
					continue
				}
				if err := s.startBatch(rec); err != nil {
					return nil, err
				}
			}
			out, err := s.step()
			if err != nil || out != nil {
				return out, err
			}
		case stFinishing:
			if len(s.outB) > 0 { // held by step (buildOnly)
				return s.flush(nil, s.build), nil
			}
			summary, last := s.grp.comp.Finish()
			s.state = stDone
			if last && s.j.kind.emitsBuild() {
				s.summary = summary
				s.state = stEmitting
			}
		case stEmitting:
			out, err := s.emit()
			if err != nil || out != nil {
				return out, err
			}
			s.state = stDone
		case stDone:
			return nil, io.EOF
		}
	}
}

func (s *stream) Close() error {
	if s.closed {
		return nil
	}
	s.closed = true
	defer s.j.streamClosed()
	if s.gs != nil {
		return s.gs.Close()
	}
	s.j.closeUnspilled()
	if s.in != nil {
		return s.in.Close()
	}
	return nil
}

func (s *stream) doBuild() error {
	j := s.j
	if j.spec.Mode == Partitioned {
		// Opened under the stream's own context, not collectSide's: the
		// first Open of a Repartition starts its producers under the
		// opener's context, which must outlive this partition's build.
		in, err := j.left.Open(s.ctx, s.p)
		if err != nil {
			return err
		}
		recs, g, err := j.collectOrSpill(s.ctx, func(context.Context, int) (operators.Stream, error) { return in, nil }, 1, 1)
		if err != nil {
			return err
		}
		var b *buildSide
		if g == nil {
			b, g, err = j.buildOrSpill(s.ctx, recs, 1)
			if err != nil {
				return err
			}
		}
		if g != nil {
			if s.in, err = j.right.Open(s.ctx, s.p); err != nil {
				g.remove()
				return err
			}
			s.gs = &graceStream{g: g, in: s.in, ctx: s.ctx}
			return nil
		}
		if s.in, err = j.right.Open(s.ctx, s.p); err != nil {
			return err
		}
		s.build = b
		if len(s.grp.builds) == 1 {
			s.grp.builds[0] = b
		} else {
			s.grp.builds[s.p] = b // published to the last partition by Finish
		}
		return nil
	}
	c := &j.collect
	c.buildOnce.Do(func() {
		recs, g, err := j.collectOrSpill(s.ctx, j.left.Open, j.left.Partitions(), j.parts)
		if err == nil && g == nil {
			c.build, g, err = j.buildOrSpill(s.ctx, recs, j.parts)
		}
		c.err = err
		if err == nil && g == nil {
			c.grp.builds = []*buildSide{c.build}
		}
		c.mu.Lock()
		c.built, c.grace = true, g
		if g != nil {
			g.closed = c.closedEarly
		}
		c.mu.Unlock()
	})
	if c.err != nil {
		return c.err
	}
	if c.grace != nil {
		s.gs = &graceStream{g: c.grace, in: s.in, ctx: s.ctx}
		return nil
	}
	s.build = c.build
	return nil
}

// startBatch prepares a probe batch: keys, facts, and the per-row NULL-aware
// marks, which produce no output.
func (s *stream) startBatch(rec arrow.Record) error {
	j := s.j
	kb, err := j.rightKeys.eval(s.ctx, rec)
	if err != nil {
		return err
	}
	n := kb.n
	s.rec, s.kb, s.batchDone = rec, kb, false
	s.pb.restart()
	fact := FactRow
	noNulls := true
	for c := range kb.cols {
		noNulls = noNulls && kb.cols[c].Nulls == nil
	}
	if noNulls {
		// Every row: a shared identity selection, never appended to.
		if len(s.ident) < n {
			s.ident = identity(n)
		}
		s.sel = s.ident[:n:n]
	} else {
		s.sel = s.selBuf[:0]
	}
	for i := 0; !noNulls && i < n; i++ {
		if kb.anyNull(j.allCols, j.nullsEq, i) {
			if kb.anyNull(j.valueCols, j.nullsEq, i) {
				fact |= FactNullKey
				if j.na != naNone {
					j.facts.nullProbe.Add(1)
				}
			}
			continue
		}
		s.sel = append(s.sel, int32(i))
	}
	if !noNulls {
		s.selBuf = s.sel
	}
	if j.kind.emitsBuild() {
		s.grp.comp.Record(fact)
	}
	if j.na == naLeftAnti && fact&FactNullKey != 0 {
		// This batch already empties the result; skip its probing.
		s.sel = []int32{}
	}
	if s.j.kind == kRight || s.j.kind == kFull || s.j.kind == kRightSemi || s.j.kind == kRightAnti {
		s.pmatched = make([]bool, n)
	}
	if j.na == naPerRow && s.build.n > 0 {
		return s.markUnknown()
	}
	return nil
}

// step probes the current batch for at most one output batch. It returns
// nil, nil when the batch is exhausted without pending output.
func (s *stream) step() (arrow.Record, error) {
	j := s.j
	for !s.batchDone && len(s.outB) < j.batchSize {
		s.pb.reset()
		if s.build.n == 0 {
			s.batchDone = true
		} else {
			s.batchDone = s.build.idx.probe(s.kb, s.sel, s.pb)
		}
		if len(s.pb.probe) == 0 {
			continue
		}
		if j.kind == kInner && j.residual == nil {
			// Every pair is an output row.
			s.outB = append(s.outB, s.pb.build...)
			s.outP = append(s.outP, s.pb.probe...)
			continue
		}
		status, err := s.evalResidual(s.pb.probe, s.pb.build)
		if err != nil {
			return nil, err
		}
		for i, p := range s.pb.probe {
			b := s.pb.build[i]
			switch status[i] {
			case 1:
				s.match(p, b)
			case -1:
				if j.na == naPerRow && j.spec.ResidualUnknown && !s.build.unknown.test(b) {
					s.build.unknown.set(b)
					j.facts.unknown.Add(1)
				}
			}
		}
	}
	if s.batchDone {
		s.probeSideRows()
	}
	var out arrow.Record
	// An output of build columns only may gather pairs from several probe
	// batches: a selective join then emits full batches, not one small
	// batch per probe batch.
	hold := j.buildOnly && s.batchDone && len(s.outB) < j.batchSize
	if len(s.outP) > 0 && !hold {
		out = s.flush(s.rec, s.build)
	}
	if s.batchDone {
		s.rec = nil
	}
	return out, nil
}
