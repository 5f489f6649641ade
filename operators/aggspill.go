package operators

import (
	"context"
	"io"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/joind/joind/operators/hashtable"
	"github.com/joind/joind/operators/spill"
)

// Hash aggregation past the memory limit. The partitions aggregate in
// memory, counting their groups against the query's limit; once it is
// reached, every partition writes its further input rows, unaggregated, to
// spill files by a hash of their group key (aggSpillFanOut ways) and the
// in-memory tables stop growing. After the input ends they are merged into
// one table M as usual. Then, for each hash partition f, the spilled rows
// of groups that M holds fold into M's states, the others aggregate into a
// fresh table T, whose groups are complete once f's files are read (no
// other partition holds them): T is emitted and dropped, and M last, when
// no file can hold its groups' rows any more. Aggregate states are never
// written out, so every aggregate spills exactly as it aggregates; the
// groups of one hash partition (T) are held in memory together, so an
// aggregation whose spilled groups exceed aggSpillFanOut times the limit
// goes past the limit in that phase (one level of partitioning).

// aggSpillFanOut is the number of hash partitions spilled rows go to.
const aggSpillFanOut = 64

// aggSpillSeed seeds the partitioning hash (independent of the hash
// tables' own, so a partition's keys still spread in T's table).
const aggSpillSeed = 0x9E3779B97F4A7C15

// aggExec is one execution of a spilling grouped aggregation.
type aggExec struct {
	a        *hashAggOp
	mu       sync.Mutex
	spilling bool
	files    [aggSpillFanOut][]*spill.File
	acct     *spill.Account // the memory held and every spill file
}

// aggSpillPart is one input partition's state.
type aggSpillPart struct {
	part   *aggPart
	groups int // groups counted against the limit so far
	files  [aggSpillFanOut]*spill.File
	ks     []KeyCol
	buf    []byte
}

func (x *aggExec) isSpilling() bool {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.spilling
}

// charge counts n bytes; false when the limit is reached (they are then
// counted anyway: the memory is in use).
func (x *aggExec) charge(n int64) bool { return x.acct.Charge(n) }

func (x *aggExec) release(n int64) { x.acct.Release(n) }

// cleanup removes the spill files and returns the memory.
func (x *aggExec) cleanup() { x.acct.Close() }

func (x *aggExec) Init(p int) *aggSpillPart { return &aggSpillPart{part: aggSink{x.a}.Init(p)} }

func (x *aggExec) Combine(dst, src *aggSpillPart) error {
	return aggSink{x.a}.Combine(dst.part, src.part)
}

func (x *aggExec) Consume(ctx context.Context, s *aggSpillPart, rec arrow.Record) error {
	if x.isSpilling() {
		return x.spillRows(ctx, s, rec)
	}
	if err := (aggSink{x.a}).Consume(ctx, s.part, rec); err != nil {
		return err
	}
	if !x.charge(x.groupBytes(s, rec)) {
		x.mu.Lock()
		x.spilling = true
		x.mu.Unlock()
	}
	return nil
}

// groupBytes estimates the memory the last batch added to s's table: its
// new groups (their keys at the batch's average key width, and a state per
// aggregate), and the arguments a generic accumulator may keep (DISTINCT
// sets, string_agg, array_agg).
func (x *aggExec) groupBytes(s *aggSpillPart, rec arrow.Record) int64 {
	t := s.part.t
	added := t.n - s.groups
	s.groups = t.n
	n := rec.NumRows()
	var bytes int64
	if added > 0 && n > 0 {
		var keyBytes int64
		for _, arr := range s.part.keyArrs {
			keyBytes += spill.ArrayBytes(arr)
		}
		bytes += int64(added) * (48 + 32*int64(len(x.a.aggs)) + keyBytes/n)
		if x.a.in.Partitions() > 1 {
			// Merging the partitions' tables copies each group into the
			// merged one while the partition's is still held.
			bytes *= 2
		}
	}
	return bytes + keptArgBytes(t, s.part.args)
}

// keptArgBytes is what the last batch's arguments add to the accumulators
// that keep them (DISTINCT sets, string_agg, array_agg).
func keptArgBytes(t *aggTable, args [][]arrow.Array) int64 {
	var bytes int64
	for j, st := range t.states {
		if _, ok := st.(*genericState); ok {
			for _, arr := range args[j] {
				if arr != nil {
					bytes += spill.ArrayBytes(arr)
				}
			}
		}
	}
	return bytes
}

// heldAggSink is aggSink for an aggregation that does not spill (no GROUP
// BY, or nowhere to spill): what its accumulators keep counts against
// acct, and past the limit it fails with 53200.
type heldAggSink struct {
	aggSink
	acct *spill.Account
}

func (k heldAggSink) Consume(ctx context.Context, s *aggPart, rec arrow.Record) error {
	if err := k.aggSink.Consume(ctx, s, rec); err != nil {
		return err
	}
	return k.acct.Hold(keptArgBytes(s.t, s.args), "HashAggregate")
}

// keysOf encodes rec's group keys into s.ks and returns each row's
// hash partition.
func (x *aggExec) partitionsOf(ctx context.Context, ks []KeyCol, rec arrow.Record) ([]KeyCol, []int, error) {
	a := x.a
	ks = ks[:0]
	for k, c := range a.groupBy {
		arr, err := c.Eval(ctx, rec)
		if err != nil {
			return nil, nil, err
		}
		col, err := EncodeKeys(arr, a.groupT[k])
		if err != nil {
			return nil, nil, err
		}
		ks = append(ks, col)
	}
	hs := HashKeys(ks, nil, int(rec.NumRows()), nil)
	fs := make([]int, len(hs))
	for i, h := range hs {
		fs[i] = int(hashtable.HashInt64(int64(h), aggSpillSeed) >> 58)
	}
	return ks, fs, nil
}

// spillRows writes rec's rows to s's files by hash partition.
func (x *aggExec) spillRows(ctx context.Context, s *aggSpillPart, rec arrow.Record) error {
	ks, fs, err := x.partitionsOf(ctx, s.ks, rec)
	if err != nil {
		return err
	}
	s.ks = ks
	var rows [aggSpillFanOut][]int
	for i, f := range fs {
		rows[f] = append(rows[f], i)
	}
	for f, idx := range rows {
		if len(idx) == 0 {
			continue
		}
		if s.files[f] == nil {
			file, err := x.acct.Create(rec.Schema())
			if err != nil {
				return err
			}
			x.mu.Lock()
			x.files[f] = append(x.files[f], file)
			x.mu.Unlock()
			s.files[f] = file
		}
		part := rec
		if len(idx) != int(rec.NumRows()) {
			part = takeRecord(rec, idx)
		}
		if err := s.files[f].Write(part); err != nil {
			return err
		}
	}
	return nil
}

// run aggregates the input and returns the emitter of every group: the
// hash partitions' spilled groups, then the in-memory table's.
func (x *aggExec) run(ctx context.Context) (func() (arrow.Record, error), error) {
	a := x.a
	part, err := Drain(ctx, a.in, x)
	if err != nil {
		return nil, err
	}
	m := part.part.t
	if !x.isSpilling() {
		t, err := a.finish(m) // groupingsets.go
		if err != nil {
			return nil, err
		}
		return a.emitter(t), nil
	}
	if a.rollUp != nil {
		return x.rollUpSpilled(ctx, m)
	}
	a.seedGroups(m) // before the spilled rows: they fold into the seeded groups
	known, err := x.finishFiles(ctx, m)
	if err != nil {
		return nil, err
	}
	f := 0
	var cur func() (arrow.Record, error)
	var curBytes int64
	final := a.emitter(m)
	return func() (arrow.Record, error) {
		for {
			if cur != nil {
				rec, err := cur()
				if err != nil || rec != nil {
					return rec, err
				}
				cur = nil
				x.release(curBytes)
			}
			if f >= aggSpillFanOut {
				return final()
			}
			if len(x.files[f]) == 0 {
				f++
				continue
			}
			t, bytes, err := x.aggregatePartition(ctx, m, known, f)
			if err != nil {
				return nil, err
			}
			f++
			cur, curBytes = a.emitter(t), bytes
		}
	}, nil
}

// finishFiles ends the writing of the spill files once the input is read
// and indexes m's groups by hash partition (index).
func (x *aggExec) finishFiles(ctx context.Context, m *aggTable) ([]map[string]int32, error) {
	for _, f := range x.acct.Files() {
		if err := f.Finish(); err != nil {
			return nil, err
		}
		x.a.spilled.Count(f)
	}
	return x.index(ctx, m)
}

// index maps the encoded key of each of m's groups to its id, per hash
// partition.
func (x *aggExec) index(ctx context.Context, m *aggTable) ([]map[string]int32, error) {
	a := x.a
	nk := len(a.groupBy)
	bs := make([]array.Builder, nk)
	for k := range bs {
		bs[k] = newBuilder(a.groupT[k], m.n)
	}
	m.keys.appendKeys(bs, 0, m.n)
	ks := make([]KeyCol, nk)
	var bytes int64
	for k, b := range bs {
		arr := b.NewArray()
		col, err := EncodeKeys(arr, a.groupT[k])
		if err != nil {
			return nil, err
		}
		ks[k] = col
		bytes += spill.ArrayBytes(arr)
	}
	known := make([]map[string]int32, aggSpillFanOut)
	for f := range known {
		known[f] = map[string]int32{}
	}
	hs := HashKeys(ks, nil, m.n, nil)
	var buf []byte
	for g, h := range hs {
		f := int(hashtable.HashInt64(int64(h), aggSpillSeed) >> 58)
		buf = AppendKeyRow(buf[:0], ks, nil, g)
		known[f][string(buf)] = int32(g)
	}
	x.charge(2 * bytes)
	return known, checkCtx(ctx)
}

// aggregatePartition reads hash partition f's spilled rows: those of m's
// groups fold into m, the others aggregate into a new table, returned
// with the bytes counted for it. The partition's files are removed.
func (x *aggExec) aggregatePartition(ctx context.Context, m *aggTable, known []map[string]int32, f int) (*aggTable, int64, error) {
	a := x.a
	sink := aggSink{a}
	tp := sink.Init(0)
	scratch := sink.Init(0) // argument buffers for folding into m
	var ks []KeyCol
	var buf []byte
	var bytes int64
	groups := 0
	for _, file := range x.files[f] {
		rd, err := file.Open()
		if err != nil {
			return nil, 0, err
		}
		for {
			rec, err := rd.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				rd.Close()
				return nil, 0, err
			}
			if ks, _, err = x.partitionsOf(ctx, ks, rec); err != nil {
				rd.Close()
				return nil, 0, err
			}
			var hit, miss []int
			var gids []int32
			for i := 0; i < int(rec.NumRows()); i++ {
				buf = AppendKeyRow(buf[:0], ks, nil, i)
				if g, ok := known[f][string(buf)]; ok {
					hit = append(hit, i)
					gids = append(gids, g)
				} else {
					miss = append(miss, i)
				}
			}
			if len(hit) > 0 {
				if err := a.fold(ctx, m, scratch.args, gids, takeRecord(rec, hit)); err != nil {
					rd.Close()
					return nil, 0, err
				}
			}
			if len(miss) > 0 {
				sub := rec
				if len(miss) != int(rec.NumRows()) {
					sub = takeRecord(rec, miss)
				}
				if err := sink.Consume(ctx, tp, sub); err != nil {
					rd.Close()
					return nil, 0, err
				}
				s := &aggSpillPart{part: tp, groups: groups}
				n := x.groupBytes(s, sub)
				groups = s.groups
				x.charge(n) // one hash partition is held whole
				bytes += n
			}
			if err := checkCtx(ctx); err != nil {
				rd.Close()
				return nil, 0, err
			}
		}
		rd.Close()
		file.Remove()
	}
	return tp.t, bytes, nil
}

// rollUpSpilled finishes a spilled roll-up aggregation: each hash
// partition's finest groups, complete once its files are read, and then
// m's are rolled up into one table of the sets' groups, emitted last.
func (x *aggExec) rollUpSpilled(ctx context.Context, m *aggTable) (func() (arrow.Record, error), error) {
	a := x.a
	known, err := x.finishFiles(ctx, m)
	if err != nil {
		return nil, err
	}
	o := a.newTable()
	for f := range x.files {
		if len(x.files[f]) == 0 {
			continue
		}
		t, bytes, err := x.aggregatePartition(ctx, m, known, f)
		if err != nil {
			return nil, err
		}
		err = a.rollUpInto(o, t)
		x.release(bytes)
		if err != nil {
			return nil, err
		}
	}
	if err := a.rollUpInto(o, m); err != nil {
		return nil, err
	}
	a.seedGroups(o)
	return a.emitter(o), nil
}
