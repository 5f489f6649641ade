package storage

import (
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/joind/joind/types"
)

// The index structure: a sorted run per segment. A run lists the offsets
// of a segment's rows whose key has no NULL, in key order (keys compared
// column by column with types.Compare, the order of the = and < operators);
// a lookup binary-searches every run of the table and merges nothing — the
// matches of each segment come out in key order, the segments in table
// order. Segments are immutable, so a run is built once, on first use, and
// lives as long as the segment (it is never written to disk: rebuilding is
// a sort, see BenchmarkIndexBuild). Sorted runs rather than a hash table
// because one structure then serves equality, prefix and range lookups
// (btree and hash indexes alike), and the transaction's pending rows are
// kept as a few runs merged as they grow (pendingRuns), so a long COPY
// into a unique-indexed table stays O(n log n).

// KeyRange selects index keys: those whose prefix of len(Lo) columns is >=
// Lo (> Lo unless LoInclusive) and whose prefix of len(Hi) columns is <= Hi
// (< Hi unless HiInclusive). A nil bound is unbounded. Bound values are of
// the key columns' types and never NULL.
type KeyRange struct {
	Lo, Hi                   []types.Value
	LoInclusive, HiInclusive bool
}

// EqualRange is the range of keys whose prefix equals key.
func EqualRange(key []types.Value) KeyRange {
	return KeyRange{Lo: key, Hi: key, LoInclusive: true, HiInclusive: true}
}

// run is a sorted index over a list of records (one segment's, or a batch
// of pending rows). Offsets count rows across recs in order.
type run struct {
	recs   []arrow.Record
	starts []int64 // starts[i] is the offset of recs[i]'s first row; one more entry: the total
	cols   []int
	typs   []types.Type
	order  []int32 // offsets of the rows without a NULL key, in key order
	ints   []int64 // single integer-like key column: ints[i] is order[i]'s key
}

// intKey reports whether the key is one column compared as int64.
func intKey(typs []types.Type) bool {
	if len(typs) != 1 {
		return false
	}
	switch typs[0].ID {
	case types.Bool, types.Int2, types.Int4, types.Int8, types.Date, types.Timestamp, types.TimestampTZ:
		return true
	}
	return false
}

// intAt reads row i of an integer-like array (not NULL).
func intAt(a arrow.Array, i int) int64 {
	switch x := a.(type) {
	case *array.Int64:
		return x.Value(i)
	case *array.Int32:
		return int64(x.Value(i))
	case *array.Int16:
		return int64(x.Value(i))
	case *array.Date32:
		return int64(x.Value(i))
	case *array.Timestamp:
		return int64(x.Value(i))
	case *array.Boolean:
		if x.Value(i) {
			return 1
		}
		return 0
	}
	panic("storage: intAt on " + a.DataType().String())
}

func newRunShell(recs []arrow.Record, cols []int, typs []types.Type) *run {
	r := &run{recs: recs, cols: cols, typs: typs, starts: make([]int64, len(recs)+1)}
	for i, rec := range recs {
		r.starts[i+1] = r.starts[i] + rec.NumRows()
	}
	return r
}

// buildRun sorts recs' rows by the key cols (of types typs).
func buildRun(recs []arrow.Record, cols []int, typs []types.Type) *run {
	r := newRunShell(recs, cols, typs)
	n := r.starts[len(recs)]
	r.order = make([]int32, 0, n)
	if intKey(typs) {
		r.ints = make([]int64, 0, n)
		for ri, rec := range recs {
			a := rec.Column(cols[0])
			base := int32(r.starts[ri])
			for i := 0; i < a.Len(); i++ {
				if a.IsNull(i) {
					continue
				}
				r.order = append(r.order, base+int32(i))
				r.ints = append(r.ints, intAt(a, i))
			}
		}
		sort.Sort(intRun{r})
		return r
	}
	// Generic keys: read each value once, sort, keep only the order.
	var keys [][]types.Value
	for ri, rec := range recs {
		base := int32(r.starts[ri])
	rows:
		for i := 0; i < int(rec.NumRows()); i++ {
			k := make([]types.Value, len(cols))
			for c, col := range cols {
				a := rec.Column(col)
				if a.IsNull(i) {
					continue rows
				}
				k[c] = types.GetValue(a, typs[c], i)
			}
			r.order = append(r.order, base+int32(i))
			keys = append(keys, k)
		}
	}
	sort.Sort(genericRun{r, keys})
	return r
}

type intRun struct{ r *run }

func (s intRun) Len() int { return len(s.r.order) }
func (s intRun) Less(i, j int) bool {
	a, b := s.r.ints[i], s.r.ints[j]
	return a < b || a == b && s.r.order[i] < s.r.order[j]
}
func (s intRun) Swap(i, j int) {
	s.r.ints[i], s.r.ints[j] = s.r.ints[j], s.r.ints[i]
	s.r.order[i], s.r.order[j] = s.r.order[j], s.r.order[i]
}

type genericRun struct {
	r    *run
	keys [][]types.Value
}

func (s genericRun) Len() int { return len(s.r.order) }
func (s genericRun) Less(i, j int) bool {
	if c := compareKeys(s.keys[i], s.keys[j], s.r.typs); c != 0 {
		return c < 0
	}
	return s.r.order[i] < s.r.order[j]
}
func (s genericRun) Swap(i, j int) {
	s.keys[i], s.keys[j] = s.keys[j], s.keys[i]
	s.r.order[i], s.r.order[j] = s.r.order[j], s.r.order[i]
}

// compareKeys compares a and b on their common prefix.
func compareKeys(a, b []types.Value, typs []types.Type) int {
	for c := 0; c < len(a) && c < len(b); c++ {
		if x := types.Compare(a[c], b[c], typs[c]); x != 0 {
			return x
		}
	}
	return 0
}

// locate maps an offset to its record and row.
func (r *run) locate(off int32) (int, int) {
	ri := sort.Search(len(r.recs), func(i int) bool { return r.starts[i+1] > int64(off) })
	return ri, int(int64(off) - r.starts[ri])
}

// keyAt reads the key of order[i] (its first n columns).
func (r *run) keyAt(i, n int) []types.Value {
	ri, row := r.locate(r.order[i])
	k := make([]types.Value, n)
	for c := 0; c < n; c++ {
		k[c] = types.GetValue(r.recs[ri].Column(r.cols[c]), r.typs[c], row)
	}
	return k
}

// cmpAt compares order[i]'s key prefix with bound.
func (r *run) cmpAt(i int, bound []types.Value) int {
	if r.ints != nil {
		return cmpInt64(r.ints[i], bound[0].I)
	}
	return compareKeys(r.keyAt(i, len(bound)), bound, r.typs)
}

func cmpInt64(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// span returns the positions [lo, hi) of order whose keys lie in kr.
func (r *run) span(kr KeyRange) (int, int) {
	lo, hi := 0, len(r.order)
	if kr.Lo != nil {
		lo = sort.Search(len(r.order), func(i int) bool {
			c := r.cmpAt(i, kr.Lo)
			return c > 0 || c == 0 && kr.LoInclusive
		})
	}
	if kr.Hi != nil {
		hi = lo + sort.Search(len(r.order)-lo, func(i int) bool {
			c := r.cmpAt(lo+i, kr.Hi)
			return c > 0 || c == 0 && !kr.HiInclusive
		})
	}
	return lo, hi
}

// contains reports whether some key equals key (full key, no NULL).
func (r *run) contains(key []types.Value) bool {
	lo, hi := r.span(EqualRange(key))
	return lo < hi
}

// mergeRuns merges two runs over adjacent record lists (a's then b's).
func mergeRuns(a, b *run) *run {
	recs := append(append([]arrow.Record(nil), a.recs...), b.recs...)
	m := newRunShell(recs, a.cols, a.typs)
	shift := int32(a.starts[len(a.recs)])
	n := len(a.order) + len(b.order)
	m.order = make([]int32, 0, n)
	if a.ints != nil {
		m.ints = make([]int64, 0, n)
	}
	i, j := 0, 0
	for i < len(a.order) || j < len(b.order) {
		takeA := j >= len(b.order)
		if !takeA && i < len(a.order) {
			if a.ints != nil {
				takeA = a.ints[i] <= b.ints[j]
			} else {
				takeA = compareKeys(a.keyAt(i, len(a.cols)), b.keyAt(j, len(b.cols)), a.typs) <= 0
			}
		}
		if takeA {
			m.order = append(m.order, a.order[i])
			if a.ints != nil {
				m.ints = append(m.ints, a.ints[i])
			}
			i++
		} else {
			m.order = append(m.order, b.order[j]+shift)
			if a.ints != nil {
				m.ints = append(m.ints, b.ints[j])
			}
			j++
		}
	}
	return m
}

// colsKey names a key's columns, for the caches of runs.
func colsKey(cols []int) string {
	var b strings.Builder
	for i, c := range cols {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(c))
	}
	return b.String()
}

// runCache keeps a segment's runs by key columns (segment.runs).
type runCache struct {
	mu sync.Mutex
	m  map[string]*run
}

// indexRun returns the segment's run over cols, building it on first use.
func (s *segment) indexRun(db *DB, tcols []ColumnDef, cols []int) (*run, error) {
	recs, err := s.records(db, tcols)
	if err != nil {
		return nil, err
	}
	k := colsKey(cols)
	s.runs.mu.Lock()
	defer s.runs.mu.Unlock()
	if r := s.runs.m[k]; r != nil {
		return r, nil
	}
	r := buildRun(recs, cols, keyTypes(tcols, cols))
	if s.runs.m == nil {
		s.runs.m = map[string]*run{}
	}
	s.runs.m[k] = r
	return r, nil
}

// dropRuns forgets the segment's runs (REINDEX).
func (s *segment) dropRuns() {
	s.runs.mu.Lock()
	s.runs.m = nil
	s.runs.mu.Unlock()
}

func keyTypes(tcols []ColumnDef, cols []int) []types.Type {
	ts := make([]types.Type, len(cols))
	for i, c := range cols {
		ts[i] = tcols[c].Type
	}
	return ts
}

// pendingRuns indexes a transaction's pending rows of one table on one
// key: one run per appended batch, the last two merged while the older is
// at most twice the newer (so there are O(log n) runs). recs is the list
// of records covered; it must be a prefix of the table's pending rows or
// the whole cache is rebuilt (after ROLLBACK TO or TRUNCATE).
type pendingRuns struct {
	recs []arrow.Record
	runs []*run
}

func (pr *pendingRuns) covers(recs []arrow.Record) bool {
	if len(pr.recs) > len(recs) {
		return false
	}
	for i, r := range pr.recs {
		if recs[i] != r {
			return false
		}
	}
	return true
}

func (pr *pendingRuns) extend(recs []arrow.Record, cols []int, typs []types.Type) {
	for _, rec := range recs[len(pr.recs):] {
		pr.recs = append(pr.recs, rec)
		pr.runs = append(pr.runs, buildRun([]arrow.Record{rec}, cols, typs))
		for n := len(pr.runs); n >= 2 && len(pr.runs[n-2].order) <= 2*len(pr.runs[n-1].order); n = len(pr.runs) {
			pr.runs = append(pr.runs[:n-2], mergeRuns(pr.runs[n-2], pr.runs[n-1]))
		}
	}
}
