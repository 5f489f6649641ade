package operators

import (
	"context"
	"math"
	"math/big"
	"math/bits"
	"sort"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/cockroachdb/apd/v3"
	"github.com/joind/joind/operators/hashtable"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/types"
)

// aggState is one aggregate's state for every group of a table, indexed by
// group id (agggroups.go). Typed states keep native arrays and fold whole
// batches; genericState keeps one types.Accumulator per group and is the
// reference the typed ones must match (TestGroupedStatesMatchGeneric).
type aggState interface {
	// grow makes groups 0..n-1 exist.
	grow(n int)
	// update folds one batch of n rows; gids maps rows to groups (nil: every
	// row is in group 0). f is the FILTER (nil = none).
	update(ctx context.Context, gids []int32, args []arrow.Array, f *array.Boolean, n int) error
	// merge folds src's group i into group m[i]; groups with m[i] >= fresh
	// were just created here and take src's state as it is.
	merge(src aggState, m []int32, fresh int32) error
	result(g int) (types.Value, error)
}

// newAggState picks the state for aggregate s: a typed state when one
// implements s exactly, else the generic one.
func newAggState(s *aggSpec) aggState {
	if s.counter {
		return &countState{}
	}
	if !aggKernels || s.distinct || len(s.argT) != 1 || len(s.order) > 0 {
		return &genericState{spec: s}
	}
	id, res := s.argT[0].ID, s.fn.Result.ID
	name := s.fn.Name
	// The result type is checked too: only the built-in overloads qualify.
	switch {
	case name == "sum" && (id == types.Int2 || id == types.Int4) && res == types.Int8,
		name == "sum" && id == types.Int8 && res == types.Numeric,
		name == "avg" && (id == types.Int2 || id == types.Int4 || id == types.Int8) && res == types.Numeric:
		return &intSumState{avg: name == "avg", toNum: name == "sum" && id == types.Int8}
	case (name == "sum" || name == "avg") && id == types.Numeric && res == types.Numeric:
		return &numSumState{avg: name == "avg", t: s.argT[0]}
	case name == "sum" && id == types.Float4 && res == types.Float4,
		(name == "sum" || name == "avg") && id == types.Float8 && res == types.Float8,
		name == "avg" && id == types.Float4 && res == types.Float8:
		return &floatSumState{avg: name == "avg", f4: name == "sum" && id == types.Float4}
	case (name == "min" || name == "max") && intLike(id) && res == id:
		return &minMaxState{max: name == "max"}
	case (name == "min" || name == "max") && id == types.Numeric && res == types.Numeric:
		return &numMinMaxState{max: name == "max", t: s.argT[0]}
	}
	return &genericState{spec: s}
}

func intLike(id types.ID) bool {
	if types.IsWordKind(id) {
		return true
	}
	switch id {
	case types.Int2, types.Int4, types.Int8, types.Date, types.Timestamp, types.TimestampTZ, types.Time, types.TimeTZ:
		return true
	}
	return false
}

// selectRows lists the rows an aggregate reads: FILTER TRUE and argument
// not NULL. all=true means every row (sel is then nil).
func selectRows(f *array.Boolean, arg arrow.Array, n int, buf []int32) (sel []int32, all bool) {
	nulls := arg != nil && arg.NullN() > 0
	if f == nil && !nulls {
		return nil, true
	}
	sel = buf[:0]
	for i := 0; i < n; i++ {
		if f != nil && (f.IsNull(i) || !f.Value(i)) {
			continue
		}
		if nulls && arg.IsNull(i) {
			continue
		}
		sel = append(sel, int32(i))
	}
	return sel, false
}

func growTo[T any](s []T, n int) []T {
	if len(s) >= n {
		return s
	}
	if cap(s) >= n {
		return s[:n]
	}
	return append(s, make([]T, n-len(s))...)
}

// countState: count(*) and count(x) without DISTINCT.
type countState struct{ n []int64 }

func (s *countState) grow(n int) { s.n = growTo(s.n, n) }

func (s *countState) update(_ context.Context, gids []int32, args []arrow.Array, f *array.Boolean, n int) error {
	var arg arrow.Array
	if len(args) == 1 {
		arg = args[0]
	}
	if arg != nil && arg.NullN() == 0 {
		arg = nil // count(x) over a column without NULLs is count(*)
	}
	if gids == nil {
		if f == nil && arg == nil {
			s.n[0] += int64(n)
			return nil
		}
		if f != nil && f.NullN() == 0 && f.Len() > 0 && f.Data().Offset() == 0 && arg == nil {
			// The common filtered count(*): count the TRUE bits a word at a time.
			s.n[0] += int64(popcountPrefix(f.Data().Buffers()[1].Bytes(), n))
			return nil
		}
	}
	if f == nil && arg == nil {
		for _, g := range gids[:n] {
			s.n[g]++
		}
		return nil
	}
	for i := 0; i < n; i++ {
		if f != nil && (f.IsNull(i) || !f.Value(i)) {
			continue
		}
		if arg != nil && arg.IsNull(i) {
			continue
		}
		if gids == nil {
			s.n[0]++
		} else {
			s.n[gids[i]]++
		}
	}
	return nil
}

func (s *countState) merge(src aggState, m []int32, _ int32) error {
	for i, c := range src.(*countState).n {
		s.n[m[i]] += c
	}
	return nil
}

func (s *countState) result(g int) (types.Value, error) { return types.Value{I: s.n[g]}, nil }

// genericState: one Accumulator per group (DISTINCT: a set of argument
// tuples, fed to a fresh accumulator in sorted order at the end).
type genericState struct {
	spec *aggSpec
	accs []types.Accumulator
	rows *orderedRows // ORDER BY without DISTINCT: every group's argument rows (aggorder.go)
	seen *distinctSet // DISTINCT
	abuf []byte
	ks   []KeyCol // DISTINCT: the batch's arguments, encoded
}

func (s *genericState) grow(n int) {
	for len(s.accs) < n {
		if s.collects() {
			if s.rows == nil {
				s.rows = newOrderedRows(s.spec)
			}
			s.rows.grow(len(s.accs) + 1)
			s.accs = append(s.accs, nil)
		} else if s.spec.distinct {
			if s.seen == nil {
				s.seen = newDistinctSet()
			}
			s.seen.byGroup = append(s.seen.byGroup, nil)
			s.accs = append(s.accs, nil)
		} else {
			s.accs = append(s.accs, s.spec.fn.New())
		}
	}
}

// distinctSet holds a DISTINCT aggregate's argument tuples of every group
// in one Swiss table, keyed by the hash of (group, the tuple's encoding).
type distinctSet struct {
	tab     *hashtable.Int64Table
	grp     []int32  // per tuple: its group
	enc     []string // per tuple: its encoding
	vals    [][]types.Value
	byGroup [][]int32 // per group: its tuples
	probeG  int32     // the tuple being looked up (Match)
	probeK  string
}

func newDistinctSet() *distinctSet { return &distinctSet{tab: hashtable.NewInt64(256)} }

// Match reports whether tuple e is the one being looked up.
func (d *distinctSet) Match(e uint32) bool { return d.grp[e] == d.probeG && d.enc[e] == d.probeK }

// add adds the tuple of encoding key to group g unless there; vals gives
// its values (copied) when it is new, and key is copied unless owned.
func (d *distinctSet) add(g int32, key string, owned bool, vals []types.Value) {
	d.probeG, d.probeK = g, key
	h := hashtable.HashString(key, hashtable.HashInt64(int64(g), keySeed))
	if _, added := d.tab.FindOrAddHash(h, uint32(len(d.enc)), d); !added {
		return
	}
	for int(g) >= len(d.byGroup) {
		d.byGroup = append(d.byGroup, nil)
	}
	if !owned {
		key = string([]byte(key))
		vals = append([]types.Value(nil), vals...)
	}
	d.byGroup[g] = append(d.byGroup[g], int32(len(d.enc)))
	d.grp = append(d.grp, g)
	d.enc = append(d.enc, key)
	d.vals = append(d.vals, vals)
}

// sorted returns group g's tuples in order (NULLs last).
func (d *distinctSet) sorted(g int, ts []types.Type) [][]types.Value {
	if d == nil || g >= len(d.byGroup) {
		return nil
	}
	out := make([][]types.Value, 0, len(d.byGroup[g]))
	for _, e := range d.byGroup[g] {
		out = append(out, d.vals[e])
	}
	sort.Slice(out, func(i, j int) bool { return compareTuples(out[i], out[j], ts) < 0 })
	return out
}

func (s *genericState) update(_ context.Context, gids []int32, argArrs []arrow.Array, f *array.Boolean, n int) error {
	sp := s.spec
	if s.collects() {
		s.rows.addBatch(gids, argArrs, f, n)
		return nil
	}
	args := make([]types.Value, len(sp.args))
	if sp.distinct {
		s.ks = encodeBatch(argArrs, sp.argT, s.ks)
		if s.seen == nil {
			s.seen = newDistinctSet()
		}
	}
	for i := 0; i < n; i++ {
		if f != nil && (f.IsNull(i) || !f.Value(i)) {
			continue
		}
		for k, arr := range argArrs {
			args[k] = types.GetValue(arr, sp.argT[k], i)
		}
		g := int32(0)
		if gids != nil {
			g = gids[i]
		}
		if sp.distinct {
			s.abuf = AppendKeyRow(s.abuf[:0], s.ks, nil, i)
			s.seen.add(g, unsafe.String(unsafe.SliceData(s.abuf), len(s.abuf)), false, args)
			continue
		}
		if err := s.accs[g].Add(args); err != nil {
			return err
		}
	}
	return nil
}

func (s *genericState) merge(src aggState, m []int32, fresh int32) error {
	o := src.(*genericState)
	if s.spec.distinct {
		// The source's tuples under their groups' ids here: ids change, so
		// the keys rehash.
		if s.seen == nil {
			s.seen = newDistinctSet()
		}
		if o.seen != nil {
			for e, key := range o.seen.enc {
				s.seen.add(m[o.seen.grp[e]], key, true, o.seen.vals[e])
			}
		}
		return nil
	}
	if s.collects() {
		if o.rows != nil {
			s.rows.absorb(o.rows, m, s.spec.order)
		}
		return nil
	}
	for i, d := range m {
		if d >= fresh {
			s.accs[d] = o.accs[i]
			continue
		}
		if err := s.accs[d].Merge(o.accs[i]); err != nil {
			return err
		}
	}
	return nil
}

func (s *genericState) result(g int) (types.Value, error) {
	if len(s.spec.order) > 0 {
		return s.orderedResult(g)
	}
	acc := s.accs[g]
	if s.spec.distinct {
		acc = s.spec.fn.New()
		for _, args := range s.seen.sorted(g, s.spec.argT) {
			if err := acc.Add(args); err != nil {
				return types.Value{}, err
			}
		}
	}
	return acc.Result()
}

// intSumState: sum and avg over int2/int4/int8 in 128-bit sums, which no
// realistic row count overflows, so every group stays exact: sum(int2/int4)
// is int8 and fails with 22003 when the total does not fit, sum(int8) and
// avg are numeric.
type intSumState struct {
	avg, toNum bool
	lo         []uint64
	hi         []int64
	cnt        []int64
	sel        []int32
}

func (s *intSumState) grow(n int) {
	s.lo, s.hi, s.cnt = growTo(s.lo, n), growTo(s.hi, n), growTo(s.cnt, n)
}

func (s *intSumState) update(_ context.Context, gids []int32, args []arrow.Array, f *array.Boolean, n int) error {
	arg := args[0]
	var all bool
	s.sel, all = selectRows(f, arg, n, s.sel)
	switch a := arg.(type) {
	case *array.Int64:
		sumIntRows(s, gids, a.Int64Values()[:n], s.sel, all)
	case *array.Int32:
		sumIntRows(s, gids, a.Int32Values()[:n], s.sel, all)
	case *array.Int16:
		sumIntRows(s, gids, a.Int16Values()[:n], s.sel, all)
	default:
		for i := 0; i < n; i++ {
			if all || selected(s.sel, i) {
				v := types.GetValue(arg, types.Int8Type, i)
				if !v.Null {
					s.add(gidOf(gids, i), v.I)
				}
			}
		}
	}
	return nil
}

func gidOf(gids []int32, i int) int32 {
	if gids == nil {
		return 0
	}
	return gids[i]
}

// selected is the slow membership test for the rare non-typed arrays.
func selected(sel []int32, i int) bool {
	for _, r := range sel {
		if int(r) == i {
			return true
		}
	}
	return false
}

func (s *intSumState) add(g int32, v int64) {
	lo, c := bits.Add64(s.lo[g], uint64(v), 0)
	s.lo[g] = lo
	s.hi[g] += v>>63 + int64(c)
	s.cnt[g]++
}

func sumIntRows[T int16 | int32 | int64](s *intSumState, gids []int32, vals []T, sel []int32, all bool) {
	if gids == nil {
		var lo uint64
		var hi int64
		add := func(v int64) {
			var c uint64
			lo, c = bits.Add64(lo, uint64(v), 0)
			hi += v>>63 + int64(c)
		}
		cnt := int64(len(sel))
		if all {
			cnt = int64(len(vals))
			for _, x := range vals {
				add(int64(x))
			}
		} else {
			for _, r := range sel {
				add(int64(vals[r]))
			}
		}
		l, c := bits.Add64(s.lo[0], lo, 0)
		s.lo[0] = l
		s.hi[0] += hi + int64(c)
		s.cnt[0] += cnt
		return
	}
	slo, shi, cnt := s.lo, s.hi, s.cnt
	if all {
		for i, x := range vals {
			g, v := gids[i], int64(x)
			lo, c := bits.Add64(slo[g], uint64(v), 0)
			slo[g] = lo
			shi[g] += v>>63 + int64(c)
			cnt[g]++
		}
		return
	}
	for _, r := range sel {
		g, v := gids[r], int64(vals[r])
		lo, c := bits.Add64(slo[g], uint64(v), 0)
		slo[g] = lo
		shi[g] += v>>63 + int64(c)
		cnt[g]++
	}
}

func (s *intSumState) merge(src aggState, m []int32, _ int32) error {
	o := src.(*intSumState)
	for i, d := range m {
		lo, c := bits.Add64(s.lo[d], o.lo[i], 0)
		s.lo[d] = lo
		s.hi[d] += o.hi[i] + int64(c)
		s.cnt[d] += o.cnt[i]
	}
	return nil
}

// total is group g's sum as a numeric.
func (s *intSumState) total(g int) *apd.Decimal {
	lo, hi := s.lo[g], s.hi[g]
	if hi == int64(lo)>>63 {
		return apd.New(int64(lo), 0)
	}
	b := new(big.Int).SetInt64(hi)
	b.Lsh(b, 64).Add(b, new(big.Int).SetUint64(lo))
	d := new(apd.Decimal)
	d.Coeff.SetMathBigInt(b.Abs(b))
	d.Negative = hi < 0
	return d
}

func (s *intSumState) result(g int) (types.Value, error) {
	if s.cnt[g] == 0 {
		return types.NullValue, nil
	}
	switch {
	case s.avg:
		return types.AvgNumeric(s.total(g), s.cnt[g])
	case s.toNum:
		return types.Value{Num: s.total(g)}, nil
	}
	if lo, hi := s.lo[g], s.hi[g]; hi != int64(lo)>>63 {
		return types.Value{}, pgerr.New(pgerr.NumericValueOutOfRange, "bigint out of range")
	}
	return types.Value{I: int64(s.lo[g])}, nil
}

// minMaxState: min and max over integer-like types (int2/4/8, date,
// timestamp[tz]), compared as int64.
type minMaxState struct {
	max  bool
	v    []int64
	have []bool
	sel  []int32
}

func (s *minMaxState) grow(n int) { s.v, s.have = growTo(s.v, n), growTo(s.have, n) }

func (s *minMaxState) update(_ context.Context, gids []int32, args []arrow.Array, f *array.Boolean, n int) error {
	arg := args[0]
	var all bool
	s.sel, all = selectRows(f, arg, n, s.sel)
	switch a := arg.(type) {
	case *array.Int64:
		minMaxRows(s, gids, a.Int64Values()[:n], s.sel, all)
	case *array.Int32:
		minMaxRows(s, gids, a.Int32Values()[:n], s.sel, all)
	case *array.Int16:
		minMaxRows(s, gids, a.Int16Values()[:n], s.sel, all)
	case *array.Date32:
		minMaxRows(s, gids, a.Date32Values()[:n], s.sel, all)
	case *array.Timestamp:
		minMaxRows(s, gids, a.TimestampValues()[:n], s.sel, all)
	default:
		for i := 0; i < n; i++ {
			if all || selected(s.sel, i) {
				if v := types.GetValue(arg, types.Int8Type, i); !v.Null {
					s.add(gidOf(gids, i), v.I)
				}
			}
		}
	}
	return nil
}

func (s *minMaxState) add(g int32, v int64) {
	if !s.have[g] || (s.max && v > s.v[g]) || (!s.max && v < s.v[g]) {
		s.v[g], s.have[g] = v, true
	}
}

func minMaxRows[T int16 | int32 | int64 | arrow.Date32 | arrow.Timestamp](s *minMaxState, gids []int32, vals []T, sel []int32, all bool) {
	if gids == nil {
		if all {
			if len(vals) == 0 {
				return
			}
			best := int64(vals[0])
			for _, x := range vals[1:] {
				if v := int64(x); (s.max && v > best) || (!s.max && v < best) {
					best = v
				}
			}
			s.add(0, best)
			return
		}
		for _, r := range sel {
			s.add(0, int64(vals[r]))
		}
		return
	}
	v, have := s.v, s.have
	if all {
		for i, x := range vals {
			g, x := gids[i], int64(x)
			if !have[g] || (s.max && x > v[g]) || (!s.max && x < v[g]) {
				v[g], have[g] = x, true
			}
		}
		return
	}
	for _, r := range sel {
		g, x := gids[r], int64(vals[r])
		if !have[g] || (s.max && x > v[g]) || (!s.max && x < v[g]) {
			v[g], have[g] = x, true
		}
	}
}

func (s *minMaxState) merge(src aggState, m []int32, _ int32) error {
	o := src.(*minMaxState)
	for i, d := range m {
		if o.have[i] {
			s.add(d, o.v[i])
		}
	}
	return nil
}

func (s *minMaxState) result(g int) (types.Value, error) {
	if !s.have[g] {
		return types.NullValue, nil
	}
	return types.Value{I: s.v[g]}, nil
}

// floatSumState: sum and avg over float4/float8, adding in row order per
// partition exactly as the accumulator does (sum(float4) rounds each step
// to float4), with the same overflow error.
type floatSumState struct {
	avg, f4 bool
	sum     []float64
	cnt     []int64
	infs    []bool
	sel     []int32
}

func (s *floatSumState) grow(n int) {
	s.sum, s.cnt, s.infs = growTo(s.sum, n), growTo(s.cnt, n), growTo(s.infs, n)
}

func errFloatOverflow() error {
	return pgerr.New(pgerr.NumericValueOutOfRange, "value out of range: overflow")
}

func (s *floatSumState) add(g int32, x float64) error {
	switch {
	case s.cnt[g] == 0 && !s.avg:
		// sum starts from the first value (float8pl), so sum(-0) is -0
		s.sum[g] = x
		if s.f4 {
			s.sum[g] = float64(float32(x))
		}
	case s.f4:
		s.sum[g] = float64(float32(s.sum[g]) + float32(x))
	default:
		s.sum[g] += x
	}
	s.cnt[g]++
	if math.IsInf(x, 0) {
		s.infs[g] = true
	} else if math.IsInf(s.sum[g], 0) && !s.infs[g] {
		return errFloatOverflow()
	}
	return nil
}

func (s *floatSumState) update(_ context.Context, gids []int32, args []arrow.Array, f *array.Boolean, n int) error {
	arg := args[0]
	var all bool
	s.sel, all = selectRows(f, arg, n, s.sel)
	switch a := arg.(type) {
	case *array.Float64:
		return floatRows(s, gids, a.Float64Values()[:n], s.sel, all)
	case *array.Float32:
		return floatRows(s, gids, a.Float32Values()[:n], s.sel, all)
	}
	for i := 0; i < n; i++ {
		if all || selected(s.sel, i) {
			if v := types.GetValue(arg, types.Float8Type, i); !v.Null {
				if err := s.add(gidOf(gids, i), v.F); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func floatRows[T float32 | float64](s *floatSumState, gids []int32, vals []T, sel []int32, all bool) error {
	if all {
		for i, x := range vals {
			if err := s.add(gidOf(gids, i), float64(x)); err != nil {
				return err
			}
		}
		return nil
	}
	for _, r := range sel {
		if err := s.add(gidOf(gids, int(r)), float64(vals[r])); err != nil {
			return err
		}
	}
	return nil
}

func (s *floatSumState) merge(src aggState, m []int32, fresh int32) error {
	o := src.(*floatSumState)
	for i, d := range m {
		switch {
		case d >= fresh || (s.cnt[d] == 0 && o.cnt[i] > 0):
			s.sum[d] = o.sum[i] // keeps a -0 as the moved accumulator did
		case o.cnt[i] > 0:
			s.sum[d] += o.sum[i]
		}
		s.cnt[d] += o.cnt[i]
		s.infs[d] = s.infs[d] || o.infs[i]
	}
	return nil
}

func (s *floatSumState) result(g int) (types.Value, error) {
	if s.cnt[g] == 0 {
		return types.NullValue, nil
	}
	if s.avg {
		return types.Value{F: s.sum[g] / float64(s.cnt[g])}, nil
	}
	return types.Value{F: s.sum[g]}, nil
}

// numSumState: sum and avg over numeric. A group's sum is a scaled int64
// (mantissa m at scale sc, the largest input scale so far, which is the
// scale PostgreSQL's sum keeps) while every value parses into at most 18
// digits and nothing overflows; otherwise the group moves to an exact apd
// decimal (big) for good. NaN and infinities take that path too.
type numSumState struct {
	avg bool
	t   types.Type
	a   []numAcc
	big []*apd.Decimal // nil until a group needs it
	sel []int32
	// part, pcnt: a batch's partial int64 sums of groups on the big path
	// (aggnumeric.go), flushed into big at the batch's end.
	part, pcnt []int64
}

// numAcc is one group's fast state, packed so a row touches one cache line.
type numAcc struct {
	m   int64 // mantissa
	cnt int64
	sc  int8 // scale
}

func (s *numSumState) grow(n int) {
	s.a = growTo(s.a, n)
	if s.big != nil {
		s.big = growTo(s.big, n)
	}
}

// total is group g's sum (cnt[g] > 0).
func (s *numSumState) total(g int32) *apd.Decimal {
	if s.big != nil && s.big[g] != nil {
		return s.big[g]
	}
	return apd.New(s.a[g].m, -int32(s.a[g].sc))
}

// addBig adds d to group g exactly.
func (s *numSumState) addBig(g int32, d *apd.Decimal) error {
	if s.big == nil {
		s.big = make([]*apd.Decimal, len(s.a))
	}
	if s.a[g].cnt == 0 && s.big[g] == nil {
		s.big[g] = d // as the accumulator: the first value is the sum
		return nil
	}
	r, err := types.NumericAdd(s.total(g), d)
	if err != nil {
		return err
	}
	s.big[g] = r
	return nil
}

// addFast adds mantissa v at scale sc to group g if it stays an int64.
func (s *numSumState) addFast(g int32, v int64, sc int) bool {
	if s.big != nil && s.big[g] != nil {
		return false
	}
	cur, gs := s.a[g].m, int(s.a[g].sc)
	ok := true
	if sc > gs {
		if cur, ok = rescale(cur, sc-gs); !ok {
			return false
		}
		gs = sc
	} else if sc < gs {
		if v, ok = rescale(v, gs-sc); !ok {
			return false
		}
	}
	r := cur + v
	if (r > cur) != (v > 0) {
		return false
	}
	s.a[g].m, s.a[g].sc = r, int8(gs)
	return true
}

func (s *numSumState) addText(g int32, arg arrow.Array, str string, i int) error {
	if m, sc, ok := parseDec(str); ok && s.addFast(g, m, sc) {
		s.a[g].cnt++
		return nil
	}
	if err := s.addBig(g, types.GetValue(arg, s.t, i).Num); err != nil {
		return err
	}
	s.a[g].cnt++
	return nil
}

func (s *numSumState) update(_ context.Context, gids []int32, args []arrow.Array, f *array.Boolean, n int) error {
	arg := args[0]
	var all bool
	s.sel, all = selectRows(f, arg, n, s.sel)
	if d, ok := arg.(*array.Decimal64); ok {
		return s.updateDec64(gids, d, all, n)
	}
	a, isStr := arg.(*array.String)
	if !isStr {
		for i := 0; i < n; i++ {
			if all || selected(s.sel, i) {
				if v := types.GetValue(arg, s.t, i); !v.Null {
					if err := s.addNum(gidOf(gids, i), v.Num); err != nil {
						return err
					}
				}
			}
		}
		return nil
	}
	if gids == nil && (s.big == nil || s.big[0] == nil) {
		// One group: sum the batch at its own largest scale first.
		var sum int64
		scale, cnt := 0, int64(0)
		ok := true
		addOne := func(i int) {
			m, sc, good := parseDec(a.Value(i))
			if !good {
				ok = false
				return
			}
			if sc > scale {
				if sum, good = rescale(sum, sc-scale); !good {
					ok = false
					return
				}
				scale = sc
			} else if sc < scale {
				if m, good = rescale(m, scale-sc); !good {
					ok = false
					return
				}
			}
			r := sum + m
			if (r > sum) != (m > 0) {
				ok = false
				return
			}
			sum = r
			cnt++
		}
		if all {
			for i := 0; i < n && ok; i++ {
				addOne(i)
			}
		} else {
			for _, r := range s.sel {
				if !ok {
					break
				}
				addOne(int(r))
			}
		}
		if ok && (cnt == 0 || s.addFast(0, sum, scale)) {
			s.a[0].cnt += cnt
			return nil
		}
		// Fall through: row by row (exact) from the batch's start.
	}
	if all {
		for i := 0; i < n; i++ {
			if err := s.addText(gidOf(gids, i), arg, a.Value(i), i); err != nil {
				return err
			}
		}
		return nil
	}
	for _, r := range s.sel {
		if err := s.addText(gidOf(gids, int(r)), arg, a.Value(int(r)), int(r)); err != nil {
			return err
		}
	}
	return nil
}

func (s *numSumState) merge(src aggState, m []int32, _ int32) error {
	o := src.(*numSumState)
	for i, d := range m {
		if o.a[i].cnt == 0 {
			continue
		}
		si := int32(i)
		srcBig := o.big != nil && o.big[i] != nil
		if !srcBig && s.addFast(d, o.a[i].m, int(o.a[i].sc)) {
			s.a[d].cnt += o.a[i].cnt
			continue
		}
		if s.a[d].cnt == 0 && (s.big == nil || s.big[d] == nil) {
			if s.big == nil {
				s.big = make([]*apd.Decimal, len(s.a))
			}
			s.big[d] = o.total(si)
		} else if err := s.addBig(d, o.total(si)); err != nil {
			return err
		}
		s.a[d].cnt += o.a[i].cnt
	}
	return nil
}

func (s *numSumState) result(g int) (types.Value, error) {
	if s.a[g].cnt == 0 {
		return types.NullValue, nil
	}
	t := s.total(int32(g))
	if s.avg {
		return types.AvgNumeric(t, s.a[g].cnt)
	}
	return types.Value{Num: t}, nil
}
