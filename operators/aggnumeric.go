package operators

import (
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
func (s *numSumState) updateDec64(gids []int32, a *array.Decimal64, all bool, n int) error {
	vals := int64s(a.Values())
	sc := int(a.DataType().(*arrow.Decimal64Type).Scale)
	one := func(i int) error {
		g, v := gidOf(gids, i), vals[i]
		if v != types.Dec64NaN && sc <= 127 && s.addFast(g, v, sc) {
			s.a[g].cnt++
			return nil
		}
		return s.addNum(g, types.GetValue(a, s.t, i).Num)
	}
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
