package operators

import (
	"math"
	"time"

	"github.com/cockroachdb/apd/v3"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/types"
)

// newSeries returns the iterator of one generate_series call over its
// argument values: next yields the values in order, ok=false at the end.
// generate_series is strict: a NULL argument gives no rows.
func newSeries(t types.Type, vals []types.Value, eval *types.EvalContext) (next func() (types.Value, bool), err error) {
	for _, v := range vals {
		if v.Null {
			return func() (types.Value, bool) { return types.NullValue, false }, nil
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
		next = func() (types.Value, bool) {
			if finished || (step > 0 && cur > stop) || (step < 0 && cur < stop) {
				return types.NullValue, false
			}
			v := cur
			// Stop instead of overflowing, as PostgreSQL does.
			if (step > 0 && cur > hi-step) || (step < 0 && cur < lo-step) {
				finished = true
			} else {
				cur += step
			}
			return types.IntValue(v), true
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
		next = func() (types.Value, bool) {
			c := cur.Cmp(stop)
			if (!neg && c > 0) || (neg && c < 0) {
				return types.NullValue, false
			}
			v := new(apd.Decimal).Set(cur)
			nxt := new(apd.Decimal)
			apd.BaseContext.WithPrecision(1000).Add(nxt, cur, step)
			cur = nxt
			return types.Value{Num: v}, true
		}
	case types.TimestampTZ:
		// generate_series_timestamptz: repeated timestamptz + interval in
		// the session zone (days across a DST change keep the wall clock).
		step := vals[2].Iv
		span := float64(step.Months)*30*86400e6 + float64(step.Days)*86400e6 + float64(step.Micros)
		if span == 0 {
			return nil, pgerr.New(pgerr.InvalidParameterValue, "step size cannot equal zero")
		}
		cur, stop := vals[0].I, vals[1].I
		finished := false
		next = func() (types.Value, bool) {
			if finished || (span > 0 && cur > stop) || (span < 0 && cur < stop) {
				return types.NullValue, false
			}
			v := cur
			nxt, err := types.TimestampTZPlusInterval(eval, cur, step)
			if err != nil {
				finished = true // PostgreSQL errors on the next step; stop here
			}
			cur = nxt
			return types.IntValue(v), true
		}
	case types.Timestamp:
		step := vals[2].Iv
		span := float64(step.Months)*30*86400e6 + float64(step.Days)*86400e6 + float64(step.Micros)
		if span == 0 {
			return nil, pgerr.New(pgerr.InvalidParameterValue, "step size cannot equal zero")
		}
		cur, stop := vals[0].I, vals[1].I
		next = func() (types.Value, bool) {
			// Repeated addition, as PostgreSQL's generate_series_timestamp:
			// month clamping carries on (Jan 31, Feb 29, Mar 29 ...).
			if (span > 0 && cur > stop) || (span < 0 && cur < stop) {
				return types.NullValue, false
			}
			v := cur
			cur, _ = addInterval(cur, step, 1)
			return types.IntValue(v), true
		}
	}
	return next, nil
}

// addInterval returns ts + k*iv with PostgreSQL's timestamp arithmetic:
// months first (clamping the day to the month's end), then days, then time.
func addInterval(ts int64, iv types.IntervalValue, k int64) (int64, bool) {
	if ts == math.MinInt64 || ts == math.MaxInt64 {
		return ts, true
	}
	t := time.UnixMicro(ts).UTC()
	months := int64(iv.Months) * k
	if months != 0 {
		y, m, d := t.Date()
		total := int64(y)*12 + int64(m-1) + months
		ny, nm := total/12, time.Month(total%12+1)
		if total%12 < 0 {
			ny, nm = (total-11)/12, time.Month((total%12+12)%12+1)
		}
		last := time.Date(int(ny), nm+1, 0, 0, 0, 0, 0, time.UTC).Day()
		d = min(d, last)
		t = time.Date(int(ny), nm, d, t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), time.UTC)
	}
	if days := int64(iv.Days) * k; days != 0 {
		t = t.AddDate(0, 0, int(days))
	}
	us := t.UnixMicro() + iv.Micros*k
	return us, true
}
