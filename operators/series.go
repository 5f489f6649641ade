package operators

import (
	"github.com/cockroachdb/apd/v3"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/types"
)

// newSeries returns the iterator of one generate_series call over its
// argument values: next yields the values in order, ok=false at the end.
// generate_series is strict: a NULL argument gives no rows.
func newSeries(t types.Type, vals []types.Value, eval *types.EvalContext) (next func() (types.Value, bool, error), err error) {
	for _, v := range vals {
		if v.Null {
			return func() (types.Value, bool, error) { return types.NullValue, false, nil }, nil
		}
	}
	switch t.ID {
	case types.Int4, types.Int8:
		step := int64(1)
		if len(vals) == 3 {
			step = vals[2].I
		}
		if step == 0 {
			return nil, pgerr.New(pgerr.InvalidParameterValue, "step size cannot equal zero")
		}
		lo, hi, _ := intRange(t)
		cur, stop := vals[0].I, vals[1].I
		finished := false
		next = func() (types.Value, bool, error) {
			if finished || (step > 0 && cur > stop) || (step < 0 && cur < stop) {
				return types.NullValue, false, nil
			}
			v := cur
			// Stop instead of overflowing, as PostgreSQL does.
			if (step > 0 && cur > hi-step) || (step < 0 && cur < lo-step) {
				finished = true
			} else {
				cur += step
			}
			return types.IntValue(v), true, nil
		}
	case types.Numeric:
		start, stop := vals[0].Num, vals[1].Num
		step := apd.New(1, 0)
		if len(vals) == 3 {
			step = vals[2].Num
		}
		for i, d := range []*apd.Decimal{start, stop, step} {
			if d.Form == apd.NaN {
				what := [...]string{"start", "stop", "step size"}[i]
				return nil, pgerr.New(pgerr.InvalidParameterValue, "%s value cannot be NaN", what)
			}
			if d.Form != apd.Finite {
				what := [...]string{"start", "stop", "step size"}[i]
				return nil, pgerr.New(pgerr.InvalidParameterValue, "%s value cannot be infinity", what)
			}
		}
		if step.IsZero() {
			return nil, pgerr.New(pgerr.InvalidParameterValue, "step size cannot equal zero")
		}
		cur := new(apd.Decimal).Set(start)
		neg := step.Negative
		next = func() (types.Value, bool, error) {
			c := cur.Cmp(stop)
			if (!neg && c > 0) || (neg && c < 0) {
				return types.NullValue, false, nil
			}
			v := new(apd.Decimal).Set(cur)
			nxt := new(apd.Decimal)
			apd.BaseContext.WithPrecision(1000).Add(nxt, cur, step)
			cur = nxt
			return types.Value{Num: v}, true, nil
		}
	case types.Timestamp, types.TimestampTZ:
		// Repeated addition of the step, as PostgreSQL's
		// generate_series_timestamp[tz]: month clamping carries on (Jan 31,
		// Feb 29, Mar 29 ...); timestamptz adds in the session zone (days
		// across a DST change keep the wall clock).
		step := vals[2].Iv
		span := float64(step.Months)*30*86400e6 + float64(step.Days)*86400e6 + float64(step.Micros)
		if span == 0 {
			return nil, pgerr.New(pgerr.InvalidParameterValue, "step size cannot equal zero")
		}
		add := func(ts int64) (int64, error) { return types.TimestampPlusInterval(ts, step) }
		if t.ID == types.TimestampTZ {
			add = func(ts int64) (int64, error) { return types.TimestampTZPlusInterval(eval, ts, step) }
		}
		cur, stop := vals[0].I, vals[1].I
		next = func() (types.Value, bool, error) {
			if (span > 0 && cur > stop) || (span < 0 && cur < stop) {
				return types.NullValue, false, nil
			}
			v := cur
			// PostgreSQL steps before returning a value: an out-of-range
			// step fails the call that would return v.
			nxt, err := add(cur)
			if err != nil {
				return types.NullValue, false, err
			}
			cur = nxt
			return types.IntValue(v), true, nil
		}
	}
	return next, nil
}
