package join

import (
	"context"
	"errors"
	"io"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/joind/joind/operators"
	"github.com/joind/joind/operators/hashtable"
	"github.com/joind/joind/operators/spill"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
)

// Grace hash join: a build side past the query's memory limit goes to spill
// files instead of failing. Once the limit is reached, every build
// partition writes its batches so far and all further ones to
// graceFanOut files by a hash of the join key; the probe partitions then
// write theirs the same way, and the last probe partition to finish joins
// the hash partitions one after another, each by a join of the same kind
// and spec over the two partitions' files (a sub-join, which may spill
// again, on other bits of the hash). Rows that can match have equal keys,
// so they meet in the same hash partition, and every outer, semi, anti and
// mark decision is made within one: the result is the join's own.
//
// Null-aware joins (NOT IN) depend on facts of a whole side, which the
// files record as they are written. Uncorrelated probe NOT IN (build)
// (RightAnti): a NULL build key empties the result; otherwise NULL probe
// keys are dropped as they are written (the build side is not empty) and
// each partition is a plain anti join. Uncorrelated build NOT IN (probe)
// (LeftAnti, CollectLeft): a NULL probe key empties the result; an empty
// probe side emits every build row (NULL keys too: they wait in a file of
// their own); otherwise NULL-keyed build rows are dropped and each
// partition is an anti join whose probe side holds no NULL. The
// correlated modes (a NULL decided per build row) and mark joins do not
// spill: past the limit they fail with 53200 as before. Nor does the
// nested-loop join, which has no key.

// graceFanOut is the number of hash partitions per level.
const graceFanOut = 16

// graceNullSlot is the extra build slot of a null-aware LeftAnti join's
// NULL-keyed rows.
const graceNullSlot = graceFanOut

// graceMaxLevel bounds the recursion: a sub-join this deep (the rows of
// very few keys exceed the limit, or other operators hold it) builds its
// partition in memory past the limit.
const graceMaxLevel = 6

// graceSeed seeds a level's partitioning hash; each level rehashes, so a
// sub-join splits its partition again.
const graceSeed = 0x243F6A8885A308D3

// canSpill reports whether the join may spill its build side.
func (j *HashJoin) canSpill() bool {
	na := j.na == naNone || j.na == naRightAnti || j.na == naLeftAnti && j.spec.Mode == CollectLeft
	return na && !j.nested && j.env.Spill.CanSpill() && j.level < graceMaxLevel
}

// grace is one spilled join's files: the build side's and the probe
// side's, per hash partition, and which probe streams are done.
type grace struct {
	j        *HashJoin
	mu       sync.Mutex
	build    [graceFanOut + 1][]*spill.File // + graceNullSlot
	probe    [graceFanOut + 1][]*spill.File
	all      []*spill.File
	spilling bool // the build side goes to files
	parts    int  // probe streams writing to it
	done     int  // of them finished writing
	closed   int  // of them closed
	// Facts of whole sides for the null-aware modes.
	buildRows, probeRows int64
	buildNull, probeNull bool // some row has a NULL value key
}

func (g *grace) create(schema *arrow.Schema, side *[graceFanOut + 1][]*spill.File, f int) (*spill.File, error) {
	file, err := g.j.env.Spill.Create(schema)
	if err != nil {
		return nil, err
	}
	g.mu.Lock()
	g.all = append(g.all, file)
	side[f] = append(side[f], file)
	g.mu.Unlock()
	return file, nil
}

// writer is one goroutine's open files of one side.
type writer struct {
	g     *grace
	side  *[graceFanOut + 1][]*spill.File
	keys  *keyEval
	files [graceFanOut + 1]*spill.File
	hs    []uint64
	probe bool // writing the probe side
	// what this writer saw, for grace's facts (finish)
	rows int64
	null bool
}

// write appends rec's rows to their hash partitions' files.
func (w *writer) write(ctx context.Context, rec arrow.Record) error {
	if rec.NumRows() == 0 {
		return nil
	}
	kb, err := w.keys.eval(ctx, rec)
	if err != nil {
		return err
	}
	j := w.g.j
	w.hs = kb.hashes(j.allCols, w.hs)
	var rows [graceFanOut + 1][]int
	seed := graceSeed + uint64(j.level)
	w.rows += int64(kb.n)
	for i, h := range w.hs[:kb.n] {
		if j.na != naNone && kb.anyNull(j.valueCols, j.nullsEq, i) {
			w.null = true
			switch {
			case w.probe && j.na == naRightAnti:
				continue // never TRUE: the build side is not empty
			case !w.probe && j.na == naLeftAnti:
				rows[graceNullSlot] = append(rows[graceNullSlot], i)
				continue
			}
		}
		f := hashtable.HashInt64(int64(h), seed) >> 60
		rows[f] = append(rows[f], i)
	}
	for f, idx := range rows {
		if len(idx) == 0 {
			continue
		}
		if w.files[f] == nil {
			if w.files[f], err = w.g.create(rec.Schema(), w.side, f); err != nil {
				return err
			}
		}
		part := rec
		if len(idx) != int(rec.NumRows()) {
			part = operators.TakeRecord(rec, idx)
		}
		if err := w.files[f].Write(part); err != nil {
			return err
		}
	}
	return nil
}

func (w *writer) finish() error {
	for _, f := range w.files {
		if f != nil {
			if err := f.Finish(); err != nil {
				return err
			}
			w.g.j.top().spilled.Count(f)
		}
	}
	g := w.g
	g.mu.Lock()
	if w.probe {
		g.probeRows += w.rows
		g.probeNull = g.probeNull || w.null
	} else {
		g.buildRows += w.rows
		g.buildNull = g.buildNull || w.null
	}
	g.mu.Unlock()
	return nil
}

// empty reports whether the null-aware facts already decide that the
// join emits nothing; emitAll, that a LeftAnti join emits every build row.
func (g *grace) empty() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.j.na == naRightAnti && g.buildNull || g.j.na == naLeftAnti && g.probeNull
}

func (g *grace) emitAll() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.j.na == naLeftAnti && g.probeRows == 0
}

// top is the join a sub-join works for (itself at level 0).
func (j *HashJoin) top() *HashJoin {
	for j.parent != nil {
		j = j.parent
	}
	return j
}

// graceSink collects a build side like buildSink, and past the limit
// writes it to files.
type graceSink struct {
	j *HashJoin
	g *grace
}

type gracePart struct {
	recs  []arrow.Record
	bytes int64
	w     *writer
}

func (k graceSink) spilling() bool {
	k.g.mu.Lock()
	defer k.g.mu.Unlock()
	return k.g.spilling
}

func (k graceSink) Init(int) *gracePart { return &gracePart{} }

func (k graceSink) Consume(ctx context.Context, s *gracePart, r arrow.Record) error {
	if !k.spilling() {
		n := recordBytes(r)
		err := k.j.account(n)
		if err == nil {
			s.recs = append(s.recs, r)
			s.bytes += n
			return nil
		}
		if pgerr.Code(err) != pgerr.OutOfMemory {
			return err
		}
		k.g.mu.Lock()
		k.g.spilling = true
		k.g.mu.Unlock()
	}
	if err := k.flush(ctx, s); err != nil {
		return err
	}
	return s.w.write(ctx, r)
}

// flush writes the partition's collected batches out.
func (k graceSink) flush(ctx context.Context, s *gracePart) error {
	if s.w == nil {
		s.w = &writer{g: k.g, side: &k.g.build, keys: k.j.leftKeys}
	}
	for _, r := range s.recs {
		if err := s.w.write(ctx, r); err != nil {
			return err
		}
	}
	k.j.unaccount(s.bytes)
	s.recs, s.bytes = nil, 0
	return nil
}

func (k graceSink) Combine(dst, src *gracePart) error {
	if k.spilling() {
		return nil // flushed by collectOrSpill
	}
	dst.recs = append(dst.recs, src.recs...)
	dst.bytes += src.bytes
	return nil
}

// collectOrSpill is collectSide for a join that may spill: the build
// batches, or (nil and) the grace state holding them in files.
func (j *HashJoin) collectOrSpill(ctx context.Context, open func(ctx context.Context, p int) (operators.Stream, error), parts, probeParts int) ([]arrow.Record, *grace, error) {
	if !j.canSpill() {
		recs, err := j.collectSide(ctx, open, parts)
		return recs, nil, err
	}
	g := &grace{j: j}
	k := graceSink{j: j, g: g}
	var states []*gracePart
	sink := &recordingSink{graceSink: k, states: &states}
	all, err := operators.Drain(ctx, operators.Streams(parts, open), sink)
	if err != nil {
		g.remove()
		return nil, nil, err
	}
	if !k.spilling() {
		return all.recs, nil, nil // combined in partition order
	}
	for _, s := range states {
		if err := k.flush(ctx, s); err != nil {
			g.remove()
			return nil, nil, err
		}
		if err := s.w.finish(); err != nil {
			g.remove()
			return nil, nil, err
		}
	}
	g.parts = probeParts
	return nil, g, nil
}

// recordingSink is graceSink remembering every partition's state, so the
// states of a spilled build can all be flushed.
type recordingSink struct {
	graceSink
	mu     sync.Mutex
	states *[]*gracePart
}

func (k *recordingSink) Init(p int) *gracePart {
	s := k.graceSink.Init(p)
	k.mu.Lock()
	*k.states = append(*k.states, s)
	k.mu.Unlock()
	return s
}

// remove deletes every file of the join.
func (g *grace) remove() {
	g.mu.Lock()
	files := g.all
	g.all = nil
	g.mu.Unlock()
	spill.RemoveAll(files)
}

// closeStream is a probe stream's Close: the last one removes the files.
func (g *grace) closeStream() {
	g.mu.Lock()
	g.closed++
	last := g.closed == g.parts
	g.mu.Unlock()
	if last {
		g.remove()
	}
}

// graceStream is a probe stream of a spilled join: it writes its probe
// partition to files and, if it is the last, joins the hash partitions.
type graceStream struct {
	g      *grace
	in     operators.Stream
	ctx    context.Context
	wrote  bool
	last   bool
	f      int
	sub    *HashJoin
	subS   operators.Stream
	closed bool
}

func (s *graceStream) Next() (arrow.Record, error) {
	g, j := s.g, s.g.j
	if !s.wrote {
		s.wrote = true
		w := &writer{g: g, side: &g.probe, keys: j.rightKeys, probe: true}
		err := operators.EachBatch(s.in, func(rec arrow.Record) error {
			if g.empty() {
				return nil // decided: nothing to write
			}
			if err := w.write(s.ctx, rec); err != nil {
				return err
			}
			return s.ctx.Err()
		})
		if err == nil {
			err = w.finish()
		}
		if err != nil {
			return nil, err
		}
		g.mu.Lock()
		g.done++
		s.last = g.done == g.parts
		g.mu.Unlock()
	}
	if !s.last {
		return nil, io.EOF
	}
	for {
		if err := s.ctx.Err(); err != nil {
			return nil, err
		}
		if s.subS != nil {
			rec, err := s.subS.Next()
			if err == nil {
				return rec, nil
			}
			if !errors.Is(err, io.EOF) {
				return nil, err
			}
			s.endSub()
			continue
		}
		if s.f == 0 && g.empty() {
			return nil, io.EOF
		}
		if s.f > graceFanOut || s.f == graceNullSlot && !g.emitAll() {
			return nil, io.EOF
		}
		if err := s.startSub(); err != nil {
			return nil, err
		}
	}
}

// startSub starts the sub-join of hash partition s.f.
func (s *graceStream) startSub() error {
	g, j := s.g, s.g.j
	f := s.f
	g.mu.Lock()
	build, probe := g.build[f], g.probe[f]
	g.mu.Unlock()
	spec := j.spec
	spec.Mode, spec.Partitions = CollectLeft, 0
	sub, err := newJoin(&fileSource{cols: j.left.Columns(), files: build}, &fileSource{cols: j.right.Columns(), files: probe},
		spec, j.env, j.kind, j.na, false)
	if err != nil {
		return err
	}
	sub.level, sub.parent = j.level+1, j
	st, err := sub.Open(s.ctx, 0)
	if err != nil {
		return err
	}
	s.sub, s.subS = sub, st
	return nil
}

// endSub closes the current sub-join and drops its partition's files and
// memory.
func (s *graceStream) endSub() {
	g := s.g
	s.subS.Close() // returns its memory (streamClosed)
	g.mu.Lock()
	files := append(append([]*spill.File(nil), g.build[s.f]...), g.probe[s.f]...)
	g.build[s.f], g.probe[s.f] = nil, nil
	g.mu.Unlock()
	spill.RemoveAll(files)
	s.sub, s.subS = nil, nil
	s.f++
}

func (s *graceStream) Close() error {
	if s.closed {
		return nil
	}
	s.closed = true
	if s.subS != nil {
		s.subS.Close()
	}
	err := s.in.Close()
	s.g.closeStream()
	return err
}

// fileSource is one partition reading spill files in order: a sub-join's
// input.
type fileSource struct {
	cols  []plan.Column
	files []*spill.File
}

func (f *fileSource) Columns() []plan.Column { return f.cols }
func (f *fileSource) Partitions() int        { return 1 }
func (f *fileSource) Open(ctx context.Context, _ int) (operators.Stream, error) {
	return &fileStream{ctx: ctx, files: f.files}, nil
}

type fileStream struct {
	ctx   context.Context
	files []*spill.File
	rd    *spill.Reader
}

func (s *fileStream) Next() (arrow.Record, error) {
	for {
		if err := s.ctx.Err(); err != nil {
			return nil, err
		}
		if s.rd == nil {
			if len(s.files) == 0 {
				return nil, io.EOF
			}
			rd, err := s.files[0].Open()
			if err != nil {
				return nil, err
			}
			s.rd, s.files = rd, s.files[1:]
		}
		rec, err := s.rd.Next()
		if err == io.EOF {
			s.rd.Close()
			s.rd = nil
			continue
		}
		return rec, err
	}
}

func (s *fileStream) Close() error {
	if s.rd != nil {
		s.rd.Close()
		s.rd = nil
	}
	return nil
}

// unaccount returns n bytes of the build sides to the query's budget.
func (j *HashJoin) unaccount(n int64) {
	j.buildBytes.Add(-n)
	j.top().spilled.Hold(-n)
	if sp := j.env.Spill; sp.Bounded() {
		sp.Release(n)
	}
}

// indexBytesPerRow estimates what indexing adds per build row: the build
// columns' concatenated copy's share, each key's encoded value and the
// table's slot at its load factor.
const indexBytesPerRow = 48

// indexFits reports whether indexing recs is likely to fit under the
// limit: a join that would not spills at once, before it allocates an
// index it must throw away.
func (j *HashJoin) indexFits(recs []arrow.Record) bool {
	var rows int64
	for _, r := range recs {
		rows += r.NumRows()
	}
	est := rows * (indexBytesPerRow + 16*int64(len(j.allCols)))
	sp := j.env.Spill
	if !sp.Reserve(est) {
		return false
	}
	sp.Release(est)
	return true
}

// buildOrSpill indexes collected build batches; when the index does not
// fit, a join that may spill writes the batches to files instead.
func (j *HashJoin) buildOrSpill(ctx context.Context, recs []arrow.Record, probeParts int) (*buildSide, *grace, error) {
	if !j.canSpill() || j.indexFits(recs) {
		b, err := j.newBuild(ctx, recs)
		if err == nil || pgerr.Code(err) != pgerr.OutOfMemory || !j.canSpill() {
			return b, nil, err
		}
	}
	g := &grace{j: j}
	w := &writer{g: g, side: &g.build, keys: j.leftKeys}
	for _, r := range recs {
		if err := w.write(ctx, r); err != nil {
			g.remove()
			return nil, nil, err
		}
	}
	if err := w.finish(); err != nil {
		g.remove()
		return nil, nil, err
	}
	j.unaccount(j.buildBytes.Load())
	g.parts = probeParts
	return nil, g, nil
}

// closeUnspilled is a CollectLeft stream's Close when it has not joined a
// spilled build: it still counts as closed for the grace state, now or
// when the build ends.
func (j *HashJoin) closeUnspilled() {
	if j.spec.Mode == Partitioned {
		return
	}
	c := &j.collect
	c.mu.Lock()
	if !c.built {
		c.closedEarly++
		c.mu.Unlock()
		return
	}
	g := c.grace
	c.mu.Unlock()
	if g != nil {
		g.closeStream()
	}
}

// ExplainNote is EXPLAIN ANALYZE's note: what the join spilled, and for a
// null-aware join the facts that decided its answer (explainfacts.go).
func (j *HashJoin) ExplainNote() string {
	return joinNotes(j.spilled.Note(), j.factsNote())
}

// streamClosed counts a closed output stream; after the last the build
// sides' memory goes back to the query's budget, for the operators that
// run on.
func (j *HashJoin) streamClosed() {
	if j.closes.Add(1) == int64(j.parts) {
		j.unaccount(j.buildBytes.Load())
	}
}
