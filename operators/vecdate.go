package operators

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/joind/joind/types"
)

// Date, timestamp and interval kernels: date ± integer and the date /
// timestamp cross comparisons inline, the rest of the datetime arithmetic
// and functions through rowKernel (their month/day arithmetic lives in
// package types once).

func init() {
	d, ts, tz, iv, i4, tx := types.Date, types.Timestamp, types.TimestampTZ, types.Interval, types.Int4, types.Text
	registerKernel("+", []types.ID{d, i4}, func(*types.Overload, *types.EvalContext) fastFunc {
		return func(argv []vec, n int) (arrow.Array, bool, error) { return datePlusInt(argv[0], argv[1], n, 1) }
	})
	registerKernel("+", []types.ID{i4, d}, func(*types.Overload, *types.EvalContext) fastFunc {
		return func(argv []vec, n int) (arrow.Array, bool, error) { return datePlusInt(argv[1], argv[0], n, 1) }
	})
	registerKernel("-", []types.ID{d, i4}, func(*types.Overload, *types.EvalContext) fastFunc {
		return func(argv []vec, n int) (arrow.Array, bool, error) { return datePlusInt(argv[0], argv[1], n, -1) }
	})
	// date vs timestamp: the date's midnight compared as a timestamp.
	for _, name := range cmpNames {
		op := cmpOpOf(name)
		registerKernel(name, []types.ID{d, ts}, func(*types.Overload, *types.EvalContext) fastFunc {
			return func(argv []vec, n int) (arrow.Array, bool, error) {
				return fastCompare2(argv, n, op, datesAsTimestamps, asInt64s)
			}
		})
		registerKernel(name, []types.ID{ts, d}, func(*types.Overload, *types.EvalContext) fastFunc {
			return func(argv []vec, n int) (arrow.Array, bool, error) {
				return fastCompare2(argv, n, op, asInt64s, datesAsTimestamps)
			}
		})
		// Interval ordering (interval_cmp) and the comparisons across the
		// time zone, which need the session's zone: row by row.
		registerRow(name, []types.ID{iv, iv}, []types.ID{ts, tz}, []types.ID{tz, ts}, []types.ID{d, tz}, []types.ID{tz, d})
	}
	registerRow("-", []types.ID{d, d}, []types.ID{d, iv}, []types.ID{ts, iv}, []types.ID{ts, ts},
		[]types.ID{iv, iv}, []types.ID{iv}, []types.ID{tz, iv}, []types.ID{tz, tz})
	registerRow("+", []types.ID{d, iv}, []types.ID{iv, d}, []types.ID{ts, iv}, []types.ID{iv, ts},
		[]types.ID{iv, iv}, []types.ID{tz, iv}, []types.ID{iv, tz})
	for _, name := range []string{"extract", "date_part"} {
		registerRow(name, []types.ID{tx, d}, []types.ID{tx, ts}, []types.ID{tx, tz}, []types.ID{tx, iv})
	}
	registerRow("date_trunc", []types.ID{tx, ts}, []types.ID{tx, tz}, []types.ID{tx, iv}, []types.ID{tx, tz, tx})
}

// datesAsTimestamps reads a date vec as timestamps: each date's midnight,
// as the date/timestamp comparisons see it.
func datesAsTimestamps(v vec) (column[int64], bool) {
	if v.isConst() {
		if v.c.Null {
			return column[int64]{}, false
		}
		return column[int64]{c: types.DateToTimestamp(v.c.I), konst: true}, true
	}
	a, ok := v.arr.(*array.Date32)
	if !ok {
		return column[int64]{}, false
	}
	vals := make([]int64, a.Len())
	for i, x := range a.Date32Values() {
		vals[i] = types.DateToTimestamp(int64(x))
	}
	return column[int64]{vals: vals, arr: a}, true
}

// datePlusInt is date + sign*integer over a date column or constant d and
// an integer column or constant k.
func datePlusInt(d, k vec, n, sign int) (arrow.Array, bool, error) {
	dc, ok1 := asInt64s(d)
	kc, ok2 := asInt64s(k)
	if !ok1 || !ok2 || (dc.konst && kc.konst) {
		return nil, false, nil
	}
	valid := validity(n, dc.arr, kc.arr)
	out := make([]int64, n)
	for i := 0; i < n; i++ {
		if valid != nil && !valid[i] {
			continue
		}
		x, y := dc.c, kc.c
		if !dc.konst {
			x = dc.vals[i]
		}
		if !kc.konst {
			y = kc.vals[i]
		}
		r, err := types.DatePlusDays(x, int64(sign)*y)
		if err != nil {
			return nil, true, err
		}
		out[i] = r
	}
	return fixedArrayValid(types.DateType, out, valid), true, nil
}
