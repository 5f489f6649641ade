package storage

import (
	"cmp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/joind/joind/types"
)

// The index structure: a sorted run per segment. A run lists the offsets
// of a segment's rows in key order (keys compared column by column with
// types.Compare, the order of the = and < operators, NULLs last), leaving
// out the rows whose first key column is NULL: every lookup bounds the
// first column, and NULL is within no bound;
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
	order  []int32  // offsets of the rows whose first key column is not NULL, in key order
	ints   []int64  // single integer-like key column: ints[i] is order[i]'s key
	strs   []string // single text/varchar key column: strs[i] is order[i]'s key
}

// intKey reports whether the key is one column compared as int64.
func intKey(typs []types.Type) bool {
	if len(typs) != 1 {
		return false
	}
	switch typs[0].ID {
	case types.Bool, types.Int2, types.Int4, types.Int8, types.Date, types.Timestamp, types.TimestampTZ, types.Time, types.TimeTZ:
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
	switch {
	case intKey(typs):
		type pair struct {
			k   int64
			off int32
		}
		ps := make([]pair, 0, n)
		for ri, rec := range recs {
			a := rec.Column(cols[0])
			base := int32(r.starts[ri])
			if x, ok := a.(*array.Int64); ok && a.NullN() == 0 {
				for i, v := range x.Int64Values() {
					ps = append(ps, pair{v, base + int32(i)})
				}
				continue
			}
			for i := 0; i < a.Len(); i++ {
				if !a.IsNull(i) {
					ps = append(ps, pair{intAt(a, i), base + int32(i)})
				}
			}
		}
		// An LSD radix sort, stable, so equal keys stay in row order: ten
		// million keys in about a second (BenchmarkIndexBuild).
		tmp := make([]pair, len(ps))
		for shift := uint(0); shift < 64; shift += 8 {
			var count [257]int
			for _, p := range ps {
				count[1+int((uint64(p.k)^1<<63)>>shift&0xff)]++
			}
			if slices.Contains(count[1:], len(ps)) {
				continue // every key has this byte: nothing moves
			}
			for b := 1; b < 257; b++ {
				count[b] += count[b-1]
			}
			for _, p := range ps {
				b := int((uint64(p.k) ^ 1<<63) >> shift & 0xff)
				tmp[count[b]] = p
				count[b]++
			}
			ps, tmp = tmp, ps
		}
		r.ints = make([]int64, len(ps))
		for i, p := range ps {
			r.ints[i] = p.k
			r.order = append(r.order, p.off)
		}
	case strKey(typs):
		// The strings view the records' buffers, which the run keeps.
		type pair struct {
			k   string
			off int32
		}
		ps := make([]pair, 0, n)
		for ri, rec := range recs {
			a := rec.Column(cols[0]).(*array.String)
			base := int32(r.starts[ri])
			for i := 0; i < a.Len(); i++ {
				if !a.IsNull(i) {
					ps = append(ps, pair{a.Value(i), base + int32(i)})
				}
			}
		}
		slices.SortFunc(ps, func(a, b pair) int {
			if c := strings.Compare(a.k, b.k); c != 0 {
				return c
			}
			return cmp.Compare(a.off, b.off)
		})
		r.strs = make([]string, len(ps))
		for i, p := range ps {
			r.strs[i] = p.k
			r.order = append(r.order, p.off)
		}
	default:
		// Generic keys: read each value once, sort, keep only the order.
		var keys [][]types.Value
		for ri, rec := range recs {
			base := int32(r.starts[ri])
			for i := 0; i < int(rec.NumRows()); i++ {
				if rec.Column(cols[0]).IsNull(i) {
					continue
				}
				k := make([]types.Value, len(cols))
				for c, col := range cols {
					k[c] = types.GetValue(rec.Column(col), typs[c], i)
				}
				r.order = append(r.order, base+int32(i))
				keys = append(keys, k)
			}
		}
		pos := make([]int32, len(keys))
		for i := range pos {
			pos[i] = int32(i)
		}
		slices.SortFunc(pos, func(a, b int32) int {
			if c := compareKeys(keys[a], keys[b], typs); c != 0 {
				return c
			}
			return cmp.Compare(r.order[a], r.order[b])
		})
		order := make([]int32, len(pos))
		for i, p := range pos {
			order[i] = r.order[p]
		}
		r.order = order
	}
	return r
}

// strKey reports whether the key is one text or varchar column (compared
// as bytes, as types.Compare does; char trims blanks and is generic).
func strKey(typs []types.Type) bool {
	return len(typs) == 1 && (typs[0].ID == types.Text || typs[0].ID == types.Varchar)
}

// compareKeys compares a and b on their common prefix, NULL after every
// value (btree's NULLS LAST); two NULLs compare equal here, which only
// orders them: no key with a NULL is ever a duplicate (keyHasNull).
func compareKeys(a, b []types.Value, typs []types.Type) int {
	for c := 0; c < len(a) && c < len(b); c++ {
		switch {
		case a[c].Null && b[c].Null:
			continue
		case a[c].Null:
			return 1
		case b[c].Null:
			return -1
		}
		if x := types.Compare(a[c], b[c], typs[c]); x != 0 {
			return x
		}
	}
	return 0
}

func keyHasNull(k []types.Value) bool {
	for _, v := range k {
		if v.Null {
			return true
		}
	}
	return false
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
	if r.strs != nil {
		return strings.Compare(r.strs[i], bound[0].S)
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
	if a.strs != nil {
		m.strs = make([]string, 0, n)
	}
	i, j := 0, 0
	for i < len(a.order) || j < len(b.order) {
		takeA := j >= len(b.order)
		if !takeA && i < len(a.order) {
			switch {
			case a.ints != nil:
				takeA = a.ints[i] <= b.ints[j]
			case a.strs != nil:
				takeA = a.strs[i] <= b.strs[j]
			default:
				takeA = compareKeys(a.keyAt(i, len(a.cols)), b.keyAt(j, len(b.cols)), a.typs) <= 0
			}
		}
		if takeA {
			m.order = append(m.order, a.order[i])
			if a.ints != nil {
				m.ints = append(m.ints, a.ints[i])
			}
			if a.strs != nil {
				m.strs = append(m.strs, a.strs[i])
			}
			i++
		} else {
			m.order = append(m.order, b.order[j]+shift)
			if a.ints != nil {
				m.ints = append(m.ints, b.ints[j])
			}
			if a.strs != nil {
				m.strs = append(m.strs, b.strs[j])
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

// sameKey reports whether positions i and j of order hold equal keys
// without a NULL (a duplicate under a unique index).
func (r *run) sameKey(i, j int) bool {
	if r.ints != nil {
		return r.ints[i] == r.ints[j]
	}
	if r.strs != nil {
		return r.strs[i] == r.strs[j]
	}
	a, b := r.keyAt(i, len(r.cols)), r.keyAt(j, len(r.cols))
	return !keyHasNull(a) && compareKeys(a, b, r.typs) == 0
}
