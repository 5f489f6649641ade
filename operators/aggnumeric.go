package operators

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/cockroachdb/apd/v3"
	"github.com/joind/joind/types"
)

// addNum adds d to group g: the scaled int64 path when d and the sum fit,
// else the exact one.
func (s *numSumState) addNum(g int32, d *apd.Decimal) error {
	if m, sc, ok := types.NumericScaled(d); ok && sc <= 127 && s.addFast(g, m, sc) {
		s.a[g].cnt++
		return nil
	}
	if err := s.addBig(g, d); err != nil {
		return err
	}
	s.a[g].cnt++
	return nil
}

// updateDec64 folds a Decimal64 column (a numeric(p≤18,s) column or a
// kernel's result): every value is an int64 at the array's scale, NaN as
// types.Dec64NaN.
func (s *numSumState) updateDec64(gids []int32, a *array.Decimal64, all bool, n int) (err error) {
	vals := int64s(a.Values())
	sc := int(a.DataType().(*arrow.Decimal64Type).Scale)
	// Groups already on the exact path sum the batch in int64 first
	// (partial), so they cost one apd addition per batch (or per int64
	// overflow), not one per row.
	var touched []int32
	flush := func(g int32) error {
		err := s.addBig(g, types.NumericFromScaled(s.part[g], sc))
		s.part[g], s.pcnt[g] = 0, 0
		return err
	}
	one := func(i int) error {
		g, v := gidOf(gids, i), vals[i]
		if v != types.Dec64NaN && sc <= 127 && s.addFast(g, v, sc) {
			s.a[g].cnt++
			return nil
		}
		if v != types.Dec64NaN && s.big != nil && s.big[g] != nil {
			s.part, s.pcnt = growTo(s.part, len(s.a)), growTo(s.pcnt, len(s.a))
			if s.pcnt[g] == 0 {
				touched = append(touched, g)
			}
			if r := s.part[g] + v; (r > s.part[g]) == (v > 0) {
				s.part[g] = r
			} else {
				if err := flush(g); err != nil {
					return err
				}
				s.part[g] = v
			}
			s.pcnt[g]++
			s.a[g].cnt++
			return nil
		}
		return s.addNum(g, types.GetValue(a, s.t, i).Num)
	}
	defer func() {
		for _, g := range touched {
			if s.pcnt[g] > 0 {
				if e := flush(g); err == nil {
					err = e
				}
			}
		}
	}()
	if gids == nil && (s.big == nil || s.big[0] == nil) && sc <= 127 {
		// One group: sum the batch first, then fold it in once.
		var sum, cnt int64
		ok := true
		add := func(v int64) {
			r := sum + v
			if v == types.Dec64NaN || (r > sum) != (v > 0) {
				ok = false
			}
			sum = r
			cnt++
		}
		if all {
			for _, v := range vals[:n] {
				add(v)
			}
		} else {
			for _, r := range s.sel {
				add(vals[r])
			}
		}
		if ok && (cnt == 0 || s.addFast(0, sum, sc)) {
			s.a[0].cnt += cnt
			return nil
		}
		// Fall through: row by row (exact).
	}
	if all && sc <= 127 {
		// The common case inline: the group's sum is at this scale already.
		for i, v := range vals[:n] {
			g := gidOf(gids, i)
			acc := &s.a[g]
			if r := acc.m + v; int(acc.sc) == sc && v != types.Dec64NaN && (r > acc.m) == (v > 0) && (s.big == nil || s.big[g] == nil) {
				acc.m, acc.cnt = r, acc.cnt+1
				continue
			}
			if err := one(i); err != nil {
				return err
			}
		}
		return nil
	}
	if all {
		for i := 0; i < n; i++ {
			if err := one(i); err != nil {
				return err
			}
		}
		return nil
	}
	for _, r := range s.sel {
		if err := one(int(r)); err != nil {
			return err
		}
	}
	return nil
}

// numMinMaxState: min and max over numeric. A group's value is a scaled
// int64 (m at scale sc) while its inputs come from Decimal64 arrays of one
// scale (a numeric(p≤18,s) column or a kernel's result) without NaN;
// anything else compares through types.Compare and keeps an exact value.
// Of equal values the later is kept, as numeric_smaller/numeric_larger do
// (types.minMaxAcc).
type numMinMaxState struct {
	max bool
	t   types.Type
	g   []numBest
}

type numBest struct {
	have, fast bool
	sc         int32
	m          int64
	d          *apd.Decimal // when !fast
}

func (s *numMinMaxState) grow(n int) { s.g = growTo(s.g, n) }

func (b *numBest) value() *apd.Decimal {
	if b.fast {
		return types.NumericFromScaled(b.m, int(b.sc))
	}
	return b.d
}

// add folds d (not NULL) into group g by PostgreSQL's rule.
func (s *numMinMaxState) add(g int32, d *apd.Decimal) {
	b := &s.g[g]
	if b.have {
		c := types.Compare(types.Value{Num: d}, types.Value{Num: b.value()}, s.t)
		if (s.max && c < 0) || (!s.max && c > 0) {
			return
		}
	}
	*b = numBest{have: true, d: d}
}

func (s *numMinMaxState) update(_ context.Context, gids []int32, args []arrow.Array, f *array.Boolean, n int) error {
	arg := args[0]
	sel, all := selectRows(f, arg, n, nil)
	one := func(i int) {}
	if a, ok := arg.(*array.Decimal64); ok {
		vals := int64s(a.Values())
		sc := a.DataType().(*arrow.Decimal64Type).Scale
		one = func(i int) {
			g, v := gidOf(gids, i), vals[i]
			b := &s.g[g]
			switch {
			case v == types.Dec64NaN || b.have && (!b.fast || b.sc != sc):
				s.add(g, types.GetValue(a, s.t, i).Num)
			case !b.have || (s.max && v >= b.m) || (!s.max && v <= b.m):
				*b = numBest{have: true, fast: true, sc: sc, m: v}
			}
		}
	} else {
		one = func(i int) { s.add(gidOf(gids, i), types.GetValue(arg, s.t, i).Num) }
	}
	if all {
		for i := 0; i < n; i++ {
			one(i)
		}
		return nil
	}
	for _, r := range sel {
		one(int(r))
	}
	return nil
}

func (s *numMinMaxState) merge(src aggState, m []int32, _ int32) error {
	o := src.(*numMinMaxState)
	for i, d := range m {
		b := o.g[i]
		if !b.have {
			continue
		}
		if cur := s.g[d]; !cur.have || b.fast && cur.fast && b.sc == cur.sc {
			if !cur.have || (s.max && b.m >= cur.m) || (!s.max && b.m <= cur.m) {
				s.g[d] = b
			}
			continue
		}
		s.add(d, b.value())
	}
	return nil
}

func (s *numMinMaxState) result(g int) (types.Value, error) {
	if !s.g[g].have {
		return types.NullValue, nil
	}
	return types.Value{Num: s.g[g].value()}, nil
}
