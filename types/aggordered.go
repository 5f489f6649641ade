package types

import (
	"fmt"
	"math"
	"sort"

	"github.com/joind/joind/pgerr"
)

// Ordered-set aggregates (percentile_cont, percentile_disc, mode) and the
// hypothetical-set ones (rank, dense_rank, percent_rank, cume_dist WITHIN
// GROUP). An ordered-set aggregate's arguments are its direct arguments
// followed by the WITHIN GROUP columns; the executor feeds percentile and
// mode a group's rows sorted by those columns (plan.AggCall.Order), so
// their Merge is never called. Hypothetical-set aggregates compare every
// row with the hypothetical one and need no sort.

// orderedSetAcc is implemented by accumulators whose direct arguments are
// known before any row: a group without rows still checks them.
type orderedSetAcc interface{ presetDirect(vals []Value) }

// WithDirectArgs returns ov whose accumulators start with the (constant)
// direct argument values vals, which PostgreSQL's final function checks
// even for a group without rows.
func WithDirectArgs(ov *AggOverload, vals []Value) *AggOverload {
	c := *ov
	inner := ov.New
	c.New = func() Accumulator {
		a := inner()
		if p, ok := a.(orderedSetAcc); ok {
			p.presetDirect(vals)
		}
		return a
	}
	return &c
}

// IsOrderedSetAggregate reports whether name is an ordered-set aggregate
// that needs WITHIN GROUP; IsHypotheticalAggregate, a hypothetical-set one.
func IsOrderedSetAggregate(name string) bool {
	switch name {
	case "percentile_cont", "percentile_disc", "mode":
		return true
	}
	return false
}

func IsHypotheticalAggregate(name string) bool {
	switch name {
	case "rank", "dense_rank", "percent_rank", "cume_dist":
		return true
	}
	return false
}

func errPercentileRange(p float64) error {
	return pgerr.New(pgerr.NumericValueOutOfRange, "percentile value %s is not between 0 and 1", fmt.Sprintf("%.6g", p))
}

// percentileAcc collects a group's non-NULL values in sort order.
type percentileAcc struct {
	cont     bool
	t        Type // the value type
	frac     Value
	haveFrac bool
	vals     []Value
}

func (a *percentileAcc) presetDirect(vals []Value) { a.frac, a.haveFrac = vals[0], true }

func (a *percentileAcc) Add(args []Value) error {
	if !a.haveFrac {
		a.frac, a.haveFrac = args[0], true
	}
	if !args[1].Null {
		a.vals = append(a.vals, args[1])
	}
	return nil
}

func (a *percentileAcc) Merge(Accumulator) error { return errAggMerge() }

// Result is percentile_cont_final_common / percentile_disc_final.
func (a *percentileAcc) Result() (Value, error) {
	if !a.haveFrac || a.frac.Null {
		return NullValue, nil
	}
	p := a.frac.F
	if p < 0 || p > 1 || math.IsNaN(p) {
		return Value{}, errPercentileRange(p)
	}
	n := len(a.vals)
	if n == 0 {
		return NullValue, nil
	}
	if !a.cont {
		row := int(math.Ceil(p * float64(n)))
		if row > 1 {
			return a.vals[row-1], nil
		}
		return a.vals[0], nil
	}
	pos := p * float64(n-1)
	first, second := math.Floor(pos), math.Ceil(pos)
	lo := a.vals[int(first)]
	if second == first {
		return lo, nil
	}
	hi := a.vals[int(second)]
	t := pos - first
	if a.t.ID == Interval {
		neg, err := intervalNeg(lo.Iv)
		if err != nil {
			return Value{}, err
		}
		diff, err := intervalAdd(hi.Iv, neg)
		if err != nil {
			return Value{}, err
		}
		m, err := intervalMulDiv(diff, t, false)
		if err != nil {
			return Value{}, err
		}
		r, err := intervalAdd(m, lo.Iv)
		return Value{Iv: r}, err
	}
	return Value{F: lo.F + t*(hi.F-lo.F)}, nil
}

// modeAcc is mode(): over sorted input, the first value of the longest
// run of equal values.
type modeAcc struct {
	t               Type
	cur, best       Value
	curRun, bestRun int
}

func (a *modeAcc) Add(args []Value) error {
	v := args[0]
	if v.Null {
		return nil
	}
	if a.curRun > 0 && Compare(v, a.cur, a.t) == 0 {
		a.curRun++
	} else {
		a.cur, a.curRun = v, 1
	}
	if a.curRun > a.bestRun {
		a.best, a.bestRun = a.cur, a.curRun
	}
	return nil
}

func (a *modeAcc) Merge(Accumulator) error { return errAggMerge() }

func (a *modeAcc) Result() (Value, error) {
	if a.bestRun == 0 {
		return NullValue, nil
	}
	return a.best, nil
}

// HypotheticalOrder is one WITHIN GROUP column of a hypothetical-set
// aggregate: its type and direction.
type HypotheticalOrder struct {
	T          Type
	Desc       bool
	NullsFirst bool
}

// HypotheticalAggregate is name (rank, dense_rank, percent_rank,
// cume_dist) over len(keys) direct arguments followed by as many
// aggregated ones, both of the keys' types.
func HypotheticalAggregate(name string, keys []HypotheticalOrder) *AggOverload {
	args := make([]Type, 0, 2*len(keys))
	for range 2 {
		for _, k := range keys {
			args = append(args, k.T)
		}
	}
	res := Float8Type
	if name == "rank" || name == "dense_rank" {
		res = Int8Type
	}
	return &AggOverload{Name: name, Args: args, Result: res, AnyOrder: true,
		New: func() Accumulator { return &hypotheticalAcc{name: name, keys: keys} }}
}

// hypotheticalAcc counts the rows sorting before (less) and with (peers)
// the hypothetical row; dense_rank keeps the rows before it to count
// their distinct values.
type hypotheticalAcc struct {
	name          string
	keys          []HypotheticalOrder
	n, less, peer int64
	before        [][]Value
}

func (a *hypotheticalAcc) compare(row, hyp []Value) int {
	for i, k := range a.keys {
		x, y := row[i], hyp[i]
		var c int
		switch {
		case x.Null && y.Null:
			continue
		case x.Null:
			c = 1
			if k.NullsFirst {
				c = -1
			}
			return c
		case y.Null:
			c = -1
			if k.NullsFirst {
				c = 1
			}
			return c
		}
		c = Compare(x, y, k.T)
		if k.Desc {
			c = -c
		}
		if c != 0 {
			return c
		}
	}
	return 0
}

func (a *hypotheticalAcc) Add(args []Value) error {
	k := len(a.keys)
	hyp, row := args[:k], args[k:]
	a.n++
	switch c := a.compare(row, hyp); {
	case c < 0:
		a.less++
		if a.name == "dense_rank" {
			a.before = append(a.before, append([]Value(nil), row...))
		}
	case c == 0:
		a.peer++
	}
	return nil
}

func (a *hypotheticalAcc) Merge(o Accumulator) error {
	b, ok := o.(*hypotheticalAcc)
	if !ok {
		return errAggMerge()
	}
	a.n += b.n
	a.less += b.less
	a.peer += b.peer
	a.before = append(a.before, b.before...)
	return nil
}

func (a *hypotheticalAcc) Result() (Value, error) {
	switch a.name {
	case "rank":
		return Value{I: a.less + 1}, nil
	case "percent_rank":
		if a.n == 0 {
			return Value{F: 0}, nil
		}
		return Value{F: float64(a.less) / float64(a.n)}, nil
	case "cume_dist":
		return Value{F: float64(a.less+a.peer+1) / float64(a.n+1)}, nil
	}
	sort.Slice(a.before, func(i, j int) bool { return a.compare(a.before[i], a.before[j]) < 0 })
	distinct := int64(0)
	for i := range a.before {
		if i == 0 || a.compare(a.before[i], a.before[i-1]) != 0 {
			distinct++
		}
	}
	return Value{I: distinct + 1}, nil
}

func init() {
	regAgg("percentile_cont", []ID{Float8, Float8}, Float8, func() Accumulator { return &percentileAcc{cont: true, t: Float8Type} })
	regAgg("percentile_cont", []ID{Float8, Interval}, Interval, func() Accumulator {
		return &percentileAcc{cont: true, t: Type{ID: Interval, Typmod: -1}}
	})
	regAgg("percentile_disc", []ID{Float8, idAnyNonArray}, idAnyNonArray, func() Accumulator { return &percentileAcc{} })
	regAgg("mode", []ID{idAnyNonArray}, idAnyNonArray, nil)
	typedAcc["mode"] = func(args []Type) Accumulator { return &modeAcc{t: args[0]} }
}
