package types

import (
	"strings"
	"time"

	"github.com/joind/joind/pgerr"
)

// date_bin, make_timestamptz, isfinite, OVERLAPS and age(x): datetime
// functions over the types of datetime.go, timestamptz.go and time.go.

func registerDateTimeFuncs() {
	for _, id := range []ID{Timestamp, TimestampTZ} {
		regFn("date_bin", []ID{Interval, id, id}, id, func(_ *EvalContext, a []Value) (Value, error) {
			return tsvErr(dateBin(a[0].Iv, a[1].I, a[2].I))
		})
	}
	mkArgs := []ID{Int4, Int4, Int4, Int4, Int4, Float8}
	mkNames := []string{"year", "month", "mday", "hour", "min", "sec"}
	regFn("make_timestamptz", mkArgs, TimestampTZ, func(c *EvalContext, a []Value) (Value, error) {
		ts, err := makeTimestamp(a)
		if err != nil {
			return Value{}, err
		}
		return tsvErr(localToTZChecked(ts, ctxZone(c)))
	}).withParams(mkNames)
	regFn("make_timestamptz", append(mkArgs, Text), TimestampTZ, func(_ *EvalContext, a []Value) (Value, error) {
		ts, err := makeTimestamp(a)
		if err != nil {
			return Value{}, err
		}
		loc, err := saneTimeZone(a[6].S)
		if err != nil {
			return Value{}, err
		}
		return tsvErr(localToTZChecked(ts, loc))
	}).withParams(append(mkNames, "timezone"))
	regFn("isfinite", []ID{Date}, Bool, func(_ *EvalContext, a []Value) (Value, error) {
		return BoolValue(a[0].I != DateInfinity && a[0].I != DateNegInfinity), nil
	})
	for _, id := range []ID{Timestamp, TimestampTZ} {
		regFn("isfinite", []ID{id}, Bool, func(_ *EvalContext, a []Value) (Value, error) { return BoolValue(tsFinite(a[0].I)), nil })
	}
	regFn("isfinite", []ID{Interval}, Bool, func(_ *EvalContext, _ []Value) (Value, error) { return BoolValue(true), nil })
	// age(x) is age(current_date at midnight, x).
	regFn("age", []ID{Timestamp}, Interval, func(c *EvalContext, a []Value) (Value, error) {
		n := ctxNow(c)
		return Value{Iv: age(DateFromYMD(n.Year(), int(n.Month()), n.Day())*usecsPerDay, a[0].I)}, nil
	})
	regFn("age", []ID{TimestampTZ}, Interval, func(c *EvalContext, a []Value) (Value, error) {
		n := ctxNow(c)
		loc := ctxZone(c)
		midnight := DateFromYMD(n.Year(), int(n.Month()), n.Day()) * usecsPerDay
		return Value{Iv: age(midnight, tzToLocal(a[0].I, loc))}, nil
	})
	registerOverlaps()
}

// dateBin is timestamp_bin / timestamptz_bin: source rounded down to the
// start of its stride-wide bin counted from origin.
func dateBin(stride IntervalValue, ts, origin int64) (int64, error) {
	if !tsFinite(ts) {
		return ts, nil
	}
	if !tsFinite(origin) {
		return 0, pgerr.New(pgerr.DatetimeFieldOverflow, "origin out of range")
	}
	if stride.Months != 0 {
		return 0, pgerr.New(pgerr.FeatureNotSupported, "timestamps cannot be binned into intervals containing months or years")
	}
	days, ok := mulInt64(int64(stride.Days), usecsPerDay)
	var strideUs int64
	if ok {
		strideUs, ok = addInt64(days, stride.Micros)
	}
	if !ok {
		return 0, errIntervalOutOfRange()
	}
	if strideUs <= 0 {
		return 0, pgerr.New(pgerr.DatetimeFieldOverflow, "stride must be greater than zero")
	}
	diff, ok := subInt64(ts, origin)
	if !ok {
		return 0, errIntervalOutOfRange()
	}
	delta := diff - diff%strideUs
	// Round toward -infinity: the bin's start even when origin is after ts.
	if diff%strideUs < 0 {
		if delta, ok = subInt64(delta, strideUs); !ok {
			return 0, errTimestampOutOfRange()
		}
	}
	r, ok := addInt64(origin, delta)
	if !ok || !tsValid(r) {
		return 0, errTimestampOutOfRange()
	}
	return r, nil
}

// saneTimeZone is parse_sane_timezone, make_timestamptz's zone argument: a
// numeric offset needs its sign ('+05' is five hours east, unlike POSIX),
// else an abbreviation, a zone name or a POSIX spec.
func saneTimeZone(name string) (*time.Location, error) {
	if name != "" && isDigit(name[0]) {
		return nil, pgerr.New(pgerr.InvalidParameterValue, "invalid input syntax for type %s: \"%s\"", "numeric time zone", name).
			WithHint("Numeric time zones must have \"-\" or \"+\" as first character.")
	}
	if name != "" && (name[0] == '+' || name[0] == '-') {
		off, ok, outOfRange := parseZoneOffset(name)
		if outOfRange {
			return nil, pgerr.New(pgerr.InvalidParameterValue, "numeric time zone \"%s\" out of range", name)
		}
		if ok {
			return time.FixedZone("", off), nil
		}
	}
	return zoneArg(strings.TrimSpace(name))
}

// registerOverlaps registers (start, end|length) OVERLAPS (start,
// end|length) over timestamp, timestamptz, time (and timetz, ends only),
// as overlaps_timestamp and its SQL-function variants with intervals.
func registerOverlaps() {
	type kind struct {
		id   ID
		plus func(c *EvalContext, v Value, iv IntervalValue) (Value, error)
	}
	tsPlus := func(_ *EvalContext, v Value, iv IntervalValue) (Value, error) {
		return tsvErr(timestampPlusInterval(v.I, iv))
	}
	for _, k := range []kind{
		{Timestamp, tsPlus},
		{TimestampTZ, func(c *EvalContext, v Value, iv IntervalValue) (Value, error) {
			return tsvErr(tzPlusInterval(v.I, iv, ctxZone(c)))
		}},
		{Time, func(_ *EvalContext, v Value, iv IntervalValue) (Value, error) {
			return Value{I: timeOfDay(v.I + iv.Micros%usecsPerDay)}, nil
		}},
		{TimeTZ, nil},
	} {
		t := Type{ID: k.id, Typmod: -1}
		ends := func(c *EvalContext, a []Value, lenAt [2]bool) (Value, error) {
			var b [4]Value
			copy(b[:], a)
			for i, isLen := range lenAt {
				if !isLen {
					continue
				}
				start, length := a[2*i], a[2*i+1]
				if start.Null || length.Null {
					b[2*i+1] = NullValue
					continue
				}
				end, err := k.plus(c, start, length.Iv)
				if err != nil {
					return Value{}, err
				}
				b[2*i+1] = end
			}
			return overlaps(b, t), nil
		}
		sigs := [][2]bool{{false, false}}
		if k.plus != nil {
			sigs = append(sigs, [2]bool{true, true}, [2]bool{false, true}, [2]bool{true, false})
		}
		for _, lenAt := range sigs {
			args := []ID{k.id, k.id, k.id, k.id}
			for i, isLen := range lenAt {
				if isLen {
					args[2*i+1] = Interval
				}
			}
			lenAt := lenAt
			regFn("overlaps", args, Bool, func(c *EvalContext, a []Value) (Value, error) { return ends(c, a, lenAt) }).strict = false
		}
	}
}

// overlaps is overlaps_timestamp's NULL-aware test of two periods, each
// (start, end) in either order.
func overlaps(a [4]Value, t Type) Value {
	gt := func(x, y Value) bool { return Compare(x, y, t) > 0 }
	// period orders one period's ends; a NULL start takes the end's place.
	period := func(s, e Value) (Value, Value, bool) {
		switch {
		case s.Null && e.Null:
			return s, e, false
		case s.Null:
			return e, NullValue, true
		case !e.Null && gt(s, e):
			return e, s, true
		}
		return s, e, true
	}
	ts1, te1, ok1 := period(a[0], a[1])
	ts2, te2, ok2 := period(a[2], a[3])
	if !ok1 || !ok2 {
		return NullValue
	}
	if gt(ts2, ts1) { // the later start is ts1's: symmetric
		ts1, te1, ts2, te2 = ts2, te2, ts1, te1
	} else if !gt(ts1, ts2) {
		// equal starts: true if both ends are known
		if te1.Null || te2.Null {
			return NullValue
		}
		return BoolValue(true)
	}
	// ts1 > ts2: they overlap when ts1 < te2
	if te2.Null {
		return NullValue
	}
	if gt(te2, ts1) {
		return BoolValue(true)
	}
	if te1.Null {
		return NullValue
	}
	return BoolValue(false)
}
