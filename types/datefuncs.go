package types

import (
	"math"
	"strings"
	"time"

	"github.com/cockroachdb/apd/v3"
	"github.com/joind/joind/pgerr"
)

var unitAliases = map[string]string{
	"microsecond": "microseconds", "microseconds": "microseconds", "us": "microseconds", "usec": "microseconds", "usecs": "microseconds", "useconds": "microseconds",
	"millisecond": "milliseconds", "milliseconds": "milliseconds", "ms": "milliseconds", "msec": "milliseconds", "msecs": "milliseconds", "mseconds": "milliseconds",
	"second": "second", "seconds": "second", "s": "second", "sec": "second", "secs": "second",
	"minute": "minute", "minutes": "minute", "m": "minute", "min": "minute", "mins": "minute",
	"hour": "hour", "hours": "hour", "h": "hour", "hr": "hour", "hrs": "hour",
	"day": "day", "days": "day", "d": "day",
	"week": "week", "weeks": "week", "w": "week",
	"month": "month", "months": "month", "mon": "month", "mons": "month",
	"quarter": "quarter", "qtr": "quarter",
	"year": "year", "years": "year", "y": "year", "yr": "year", "yrs": "year",
	"decade": "decade", "decades": "decade", "dec": "decade", "decs": "decade",
	"century": "century", "centuries": "century", "c": "century", "cent": "century",
	"millennium": "millennium", "millennia": "millennium", "mil": "millennium", "mils": "millennium", "millenniums": "millennium",
	"epoch": "epoch", "dow": "dow", "isodow": "isodow", "doy": "doy", "isoyear": "isoyear",
	"julian": "julian", "j": "julian", "timezone": "timezone", "timezone_hour": "timezone_hour", "timezone_minute": "timezone_minute",
	"timezone_h": "timezone_hour", "timezone_m": "timezone_minute", // datetime.c's deltatktbl abbreviations
}

func unitErr(unit string, t Type, supported bool) error {
	if supported {
		return pgerr.New(pgerr.FeatureNotSupported, "unit \"%s\" not supported for type %s", unit, t.BaseSQLName())
	}
	return pgerr.New(pgerr.InvalidParameterValue, "unit \"%s\" not recognized for type %s", unit, t.BaseSQLName())
}

// isoWeek returns ISO 8601 week number and ISO year.
func isoWeek(y, m, d int) (week, isoYear int) {
	jd := date2j(y, m, d)
	dow := (j2day(jd) + 6) % 7 // Monday = 0
	// Thursday of this week decides the year
	thu := jd - dow + 3
	ty, _, _ := j2date(thu)
	first := date2j(ty, 1, 1)
	return (thu-first)/7 + 1, ty
}

// dec builds a numeric from an integer and a scale (value = n / 10^scale).
func dec(n int64, scale int) *apd.Decimal { return apd.New(n, int32(-scale)) }

// extractTimestamp implements extract(field from timestamp) returning numeric.
func extractTimestamp(unitIn string, tsv int64, t Type) (*apd.Decimal, bool, error) {
	unit, ok := unitAliases[strings.ToLower(unitIn)]
	if !ok {
		return nil, false, unitErr(unitIn, t, false)
	}
	if tsv == TimestampInfinity || tsv == TimestampNegInfinity {
		switch unit {
		case "epoch", "year", "decade", "century", "millennium", "julian", "isoyear":
			return &apd.Decimal{Form: apd.Infinite, Negative: tsv < 0}, true, nil
		case "timezone", "timezone_hour", "timezone_minute":
			return nil, false, unitErr(unitIn, t, true)
		}
		return nil, false, nil
	}
	y, mo, d, h, mi, s, fsec := tsSplit(tsv)
	return extractFields(unit, unitIn, t, tsv, y, mo, d, h, mi, s, fsec)
}

// extractFields is extract(unit) of the broken-down datetime (tsv is the
// timestamp itself, for epoch; a date past the timestamp range has fields
// but no tsv and never asks for epoch).
func extractFields(unit, unitIn string, t Type, tsv int64, y, mo, d, h, mi, s int, fsec int64) (*apd.Decimal, bool, error) {
	var yearOut int64 = int64(y)
	if y <= 0 {
		yearOut = int64(y) - 1
	}
	switch unit {
	case "microseconds":
		return dec(int64(s)*1000000+fsec, 0), true, nil
	case "milliseconds":
		return dec(int64(s)*1000000+fsec, 3), true, nil
	case "second":
		return dec(int64(s)*1000000+fsec, 6), true, nil
	case "minute":
		return dec(int64(mi), 0), true, nil
	case "hour":
		return dec(int64(h), 0), true, nil
	case "day":
		return dec(int64(d), 0), true, nil
	case "month":
		return dec(int64(mo), 0), true, nil
	case "quarter":
		return dec(int64((mo-1)/3+1), 0), true, nil
	case "week":
		w, _ := isoWeek(y, mo, d)
		return dec(int64(w), 0), true, nil
	case "year":
		return dec(yearOut, 0), true, nil
	case "decade":
		if y >= 0 {
			return dec(int64(y/10), 0), true, nil
		}
		return dec(-int64((8-(y-1))/10), 0), true, nil
	case "century":
		if y > 0 {
			return dec(int64((y+99)/100), 0), true, nil
		}
		return dec(-int64((99-(y-1))/100), 0), true, nil
	case "millennium":
		if y > 0 {
			return dec(int64((y+999)/1000), 0), true, nil
		}
		return dec(-int64((999-(y-1))/1000), 0), true, nil
	case "julian":
		jd := int64(date2j(y, mo, d))
		tod := int64(h)*usecsPerHour + int64(mi)*usecsPerMinute + int64(s)*usecsPerSec + fsec
		// julian + tod/usecs_per_day, as numeric_div would print it (also
		// at midnight: 0/86400000000 has scale 28)
		frac, _ := numDiv(apd.New(tod, 0), apd.New(usecsPerDay, 0))
		r, _ := numAdd(apd.New(jd, 0), frac, false)
		return r, true, nil
	case "isoyear":
		_, iy := isoWeek(y, mo, d)
		if iy <= 0 {
			iy--
		}
		return dec(int64(iy), 0), true, nil
	case "dow":
		return dec(int64(j2day(date2j(y, mo, d))), 0), true, nil
	case "isodow":
		w := j2day(date2j(y, mo, d))
		if w == 0 {
			w = 7
		}
		return dec(int64(w), 0), true, nil
	case "doy":
		return dec(int64(date2j(y, mo, d)-date2j(y, 1, 1)+1), 0), true, nil
	case "epoch":
		return dec(tsv, 6), true, nil
	}
	return nil, false, unitErr(unitIn, t, true)
}

func extractDate(unitIn string, dv int64) (*apd.Decimal, bool, error) {
	unit, ok := unitAliases[strings.ToLower(unitIn)]
	if !ok {
		return nil, false, unitErr(unitIn, DateType, false)
	}
	switch unit {
	case "microseconds", "milliseconds", "second", "minute", "hour", "timezone", "timezone_hour", "timezone_minute":
		return nil, false, unitErr(unitIn, DateType, true)
	}
	if isInfDate(dv) {
		switch unit {
		case "epoch", "year", "decade", "century", "millennium", "julian", "isoyear":
			return &apd.Decimal{Form: apd.Infinite, Negative: dv < 0}, true, nil
		}
		return nil, false, nil
	}
	switch unit {
	case "epoch":
		return dec(dv*86400, 0), true, nil
	case "julian":
		// date_part_common's DTK_JULIAN for date: the day number, an integer
		return dec(dv+unixEpochJD, 0), true, nil
	}
	// from the date's fields: dv*usecsPerDay overflows for dates past
	// the timestamp range, which extract(... FROM date) still accepts
	y, mo, d := DateToYMD(dv)
	return extractFields(unit, unitIn, DateType, 0, y, mo, d, 0, 0, 0, 0)
}

func extractInterval(unitIn string, iv IntervalValue) (*apd.Decimal, bool, error) {
	unit, ok := unitAliases[strings.ToLower(unitIn)]
	if !ok {
		return nil, false, unitErr(unitIn, IntervalType, false)
	}
	year, mon, mday, hour, min, sec, fsec := intervalFields(iv)
	switch unit {
	case "microseconds":
		return dec(sec*1000000+fsec, 0), true, nil
	case "milliseconds":
		return dec(sec*1000000+fsec, 3), true, nil
	case "second":
		return dec(sec*1000000+fsec, 6), true, nil
	case "minute":
		return dec(min, 0), true, nil
	case "hour":
		return dec(hour, 0), true, nil
	case "day":
		return dec(mday, 0), true, nil
	case "month":
		return dec(mon, 0), true, nil
	case "quarter":
		return dec(mon/3+1, 0), true, nil
	case "year":
		return dec(year, 0), true, nil
	case "decade":
		return dec(year/10, 0), true, nil
	case "century":
		return dec(year/100, 0), true, nil
	case "millennium":
		return dec(year/1000, 0), true, nil
	case "epoch":
		// months count as 365.25/12 days, as in PostgreSQL
		secs := new(apd.Decimal)
		yearsSecs := apd.New(int64(iv.Months/12)*int64(36525*864), 0) // 365.25*86400 per year
		monSecs := apd.New(int64(iv.Months%12)*30*86400, 0)
		daySecs := apd.New(int64(iv.Days)*86400, 0)
		us := dec(iv.Micros, 6)
		_, _ = exactCtx.Add(secs, yearsSecs, monSecs)
		_, _ = exactCtx.Add(secs, secs, daySecs)
		_, _ = exactCtx.Add(secs, secs, us)
		return normNum(secs), true, nil
	}
	return nil, false, unitErr(unitIn, IntervalType, true)
}

func truncTimestamp(unitIn string, tsv int64) (int64, error) {
	unit, ok := unitAliases[strings.ToLower(unitIn)]
	if !ok {
		return 0, unitErr(unitIn, TimestampType, false)
	}
	if tsv == TimestampInfinity || tsv == TimestampNegInfinity {
		return tsv, nil
	}
	y, mo, d, h, mi, s, fsec := tsSplit(tsv)
	switch unit {
	case "millennium":
		if y > 0 {
			y = ((y+999)/1000)*1000 - 999
		} else {
			y = -((999 - (y - 1)) / 1000 * 1000) + 1
		}
		mo, d, h, mi, s, fsec = 1, 1, 0, 0, 0, 0
	case "century":
		if y > 0 {
			y = ((y+99)/100)*100 - 99
		} else {
			y = -((99 - (y - 1)) / 100 * 100) + 1
		}
		mo, d, h, mi, s, fsec = 1, 1, 0, 0, 0, 0
	case "decade":
		// timestamp_trunc's DTK_DECADE has no "+ 1" for BC years (unlike
		// century and millennium): 1 BC (year 0) stays in decade 0
		if y > 0 {
			y = (y / 10) * 10
		} else {
			y = -((8 - (y - 1)) / 10) * 10
		}
		mo, d, h, mi, s, fsec = 1, 1, 0, 0, 0, 0
	case "year":
		mo, d, h, mi, s, fsec = 1, 1, 0, 0, 0, 0
	case "quarter":
		mo = 3*((mo-1)/3) + 1
		d, h, mi, s, fsec = 1, 0, 0, 0, 0
	case "month":
		d, h, mi, s, fsec = 1, 0, 0, 0, 0
	case "week":
		jd := date2j(y, mo, d)
		jd -= (j2day(jd) + 6) % 7
		y, mo, d = j2date(jd)
		h, mi, s, fsec = 0, 0, 0, 0
	case "day":
		h, mi, s, fsec = 0, 0, 0, 0
	case "hour":
		mi, s, fsec = 0, 0, 0
	case "minute":
		s, fsec = 0, 0
	case "second":
		fsec = 0
	case "milliseconds":
		fsec = (fsec / 1000) * 1000
	case "microseconds":
	default:
		return 0, unitErr(unitIn, TimestampType, true)
	}
	// tm2timestamp's check: a century or millennium start before 4714-11-24
	// BC (date_trunc('century', timestamp '4713-01-01 BC')) is out of range.
	if jd := date2j(y, mo, d); !dateValid(jd) {
		return 0, errTimestampOutOfRange()
	}
	r := DateFromYMD(y, mo, d)*usecsPerDay + int64(h)*usecsPerHour + int64(mi)*usecsPerMinute + int64(s)*usecsPerSec + fsec
	if !tsValid(r) {
		return 0, errTimestampOutOfRange()
	}
	return r, nil
}

func truncInterval(unitIn string, iv IntervalValue) (IntervalValue, error) {
	unit, ok := unitAliases[strings.ToLower(unitIn)]
	if !ok {
		return iv, unitErr(unitIn, IntervalType, false)
	}
	year, mon, mday, hour, min, sec, fsec := intervalFields(iv)
	switch unit {
	case "millennium":
		year = (year / 1000) * 1000
		mon, mday, hour, min, sec, fsec = 0, 0, 0, 0, 0, 0
	case "century":
		year = (year / 100) * 100
		mon, mday, hour, min, sec, fsec = 0, 0, 0, 0, 0, 0
	case "decade":
		year = (year / 10) * 10
		mon, mday, hour, min, sec, fsec = 0, 0, 0, 0, 0, 0
	case "year":
		mon, mday, hour, min, sec, fsec = 0, 0, 0, 0, 0, 0
	case "quarter":
		mon = 3 * (mon / 3)
		mday, hour, min, sec, fsec = 0, 0, 0, 0, 0
	case "month":
		mday, hour, min, sec, fsec = 0, 0, 0, 0, 0
	case "day":
		hour, min, sec, fsec = 0, 0, 0, 0
	case "hour":
		min, sec, fsec = 0, 0, 0
	case "minute":
		sec, fsec = 0, 0
	case "second":
		fsec = 0
	case "milliseconds":
		fsec = (fsec / 1000) * 1000
	case "microseconds":
	case "week":
		return iv, pgerr.New(pgerr.FeatureNotSupported, "unit \"%s\" not supported for type interval", unitIn).
			WithDetail("Months usually have fractional weeks.")
	default:
		return iv, unitErr(unitIn, IntervalType, true)
	}
	return IntervalValue{
		Months: int32(year*12 + mon),
		Days:   int32(mday),
		Micros: hour*usecsPerHour + min*usecsPerMinute + sec*usecsPerSec + fsec,
	}, nil
}

func ctxNow(ctx *EvalContext) time.Time {
	var n time.Time
	if ctx != nil {
		n = ctx.Now
	}
	if n.IsZero() {
		n = time.Now()
	}
	loc := time.UTC
	if ctx != nil && ctx.TimeZone != nil {
		loc = ctx.TimeZone
	}
	return n.In(loc)
}

func registerDateFuncs() {
	regFn("current_date", nil, Date, func(ctx *EvalContext, _ []Value) (Value, error) {
		n := ctxNow(ctx)
		return Value{I: DateFromYMD(n.Year(), int(n.Month()), n.Day())}, nil
	})
	regFn("localtimestamp", nil, Timestamp, func(ctx *EvalContext, _ []Value) (Value, error) {
		n := ctxNow(ctx)
		wall := time.Date(n.Year(), n.Month(), n.Day(), n.Hour(), n.Minute(), n.Second(), n.Nanosecond(), time.UTC)
		return Value{I: wall.UnixMicro()}, nil
	})
	numRes := func(d *apd.Decimal, ok bool, err error) (Value, error) {
		if err != nil {
			return Value{}, err
		}
		if !ok {
			return NullValue, nil
		}
		return Value{Num: d}, nil
	}
	floatRes := func(d *apd.Decimal, ok bool, err error) (Value, error) {
		if err != nil {
			return Value{}, err
		}
		if !ok {
			return NullValue, nil
		}
		return Value{F: numericToFloat(d, 64)}, nil
	}
	regFn("extract", []ID{Text, Timestamp}, Numeric, func(_ *EvalContext, a []Value) (Value, error) {
		return numRes(extractTimestamp(a[0].S, a[1].I, TimestampType))
	})
	regFn("extract", []ID{Text, Date}, Numeric, func(_ *EvalContext, a []Value) (Value, error) {
		return numRes(extractDate(a[0].S, a[1].I))
	})
	regFn("extract", []ID{Text, Interval}, Numeric, func(_ *EvalContext, a []Value) (Value, error) {
		return numRes(extractInterval(a[0].S, a[1].Iv))
	})
	regFn("date_part", []ID{Text, Timestamp}, Float8, func(_ *EvalContext, a []Value) (Value, error) {
		return floatRes(extractTimestamp(a[0].S, a[1].I, TimestampType))
	})
	regFn("date_part", []ID{Text, Date}, Float8, func(_ *EvalContext, a []Value) (Value, error) {
		// date_part(text, date) is date_part(text, date::timestamp) in PostgreSQL
		ts, err := dateToTimestampChecked(a[1].I)
		if err != nil {
			return Value{}, err
		}
		return floatRes(extractTimestamp(a[0].S, ts, TimestampType))
	})
	regFn("date_part", []ID{Text, Interval}, Float8, func(_ *EvalContext, a []Value) (Value, error) {
		return floatRes(extractInterval(a[0].S, a[1].Iv))
	})
	regFn("date_trunc", []ID{Text, Timestamp}, Timestamp, func(_ *EvalContext, a []Value) (Value, error) {
		r, err := truncTimestamp(a[0].S, a[1].I)
		return Value{I: r}, err
	})
	regFn("date_trunc", []ID{Text, Interval}, Interval, func(_ *EvalContext, a []Value) (Value, error) {
		r, err := truncInterval(a[0].S, a[1].Iv)
		return Value{Iv: r}, err
	})
	regFn("make_date", []ID{Int4, Int4, Int4}, Date, makeDate).withParams([]string{"year", "month", "day"})
	regFn("make_timestamp", []ID{Int4, Int4, Int4, Int4, Int4, Float8}, Timestamp, func(_ *EvalContext, a []Value) (Value, error) {
		return tsvErr(makeTimestamp(a))
	}).withParams([]string{"year", "month", "mday", "hour", "min", "sec"})
	regFn("age", []ID{Timestamp, Timestamp}, Interval, func(_ *EvalContext, a []Value) (Value, error) {
		return Value{Iv: age(a[0].I, a[1].I)}, nil
	})
	registerTimestampTZFuncs()
	registerTimeFuncs()
	registerDateTimeFuncs()
	registerMakeInterval()
}

// makeDate is make_date(year, month, day).
func makeDate(_ *EvalContext, a []Value) (Value, error) {
	y, m, d := a[0].I, a[1].I, a[2].I
	bad := func() error {
		return pgerr.New(pgerr.DatetimeFieldOverflow, "date field value out of range: %d-%02d-%02d", y, m, d)
	}
	if y == 0 || m < 1 || m > 12 || d < 1 {
		return Value{}, bad()
	}
	yy := int(y)
	if y < 0 {
		yy = int(y) + 1
	}
	if int(d) > daysIn(yy, int(m)) {
		return Value{}, bad()
	}
	jd := date2j(yy, int(m), int(d))
	if !dateValid(jd) {
		return Value{}, pgerr.New(pgerr.DatetimeFieldOverflow, "date out of range: %d-%02d-%02d", y, m, d)
	}
	return Value{I: int64(jd - unixEpochJD)}, nil
}

func registerMakeInterval() {
	// make_interval(years, months, weeks, days, hours, mins int, secs float8),
	// every argument defaulting to 0: one overload per arity.
	mkArgs := []ID{Int4, Int4, Int4, Int4, Int4, Int4, Float8}
	for n := 0; n <= len(mkArgs); n++ {
		b := regFn("make_interval", mkArgs[:n], Interval, func(_ *EvalContext, a []Value) (Value, error) {
			iv, err := makeInterval(a)
			return Value{Iv: iv}, err
		})
		if n == len(mkArgs) {
			b.withParams([]string{"years", "months", "weeks", "days", "hours", "mins", "secs"},
				Value{}, Value{}, Value{}, Value{}, Value{}, Value{}, Value{F: 0})
		}
	}
	for _, j := range []struct {
		name string
		fn   func(IntervalValue) (IntervalValue, error)
	}{{"justify_days", justifyDays}, {"justify_hours", justifyHours}, {"justify_interval", justifyInterval}} {
		fn := j.fn
		regFn(j.name, []ID{Interval}, Interval, func(_ *EvalContext, a []Value) (Value, error) {
			iv, err := fn(a[0].Iv)
			return Value{Iv: iv}, err
		})
	}
}

// makeTimestamp is make_timestamp_internal: year (negative: BC), month,
// mday, hour, min, sec.
func makeTimestamp(a []Value) (int64, error) {
	year, m, d := a[0].I, a[1].I, a[2].I
	y := int(year)
	if y < 0 {
		y++
	}
	if year == 0 || m < 1 || m > 12 || d < 1 || int(d) > daysIn(y, int(m)) {
		return 0, pgerr.New(pgerr.DatetimeFieldOverflow, "date field value out of range: %d-%02d-%02d", year, m, d)
	}
	jd := date2j(y, int(m), int(d))
	if !dateValid(jd) {
		return 0, pgerr.New(pgerr.DatetimeFieldOverflow, "date out of range: %d-%02d-%02d", year, m, d)
	}
	tod, err := makeTime(a[3].I, a[4].I, a[5].F)
	if err != nil {
		return 0, err
	}
	days := int64(jd - unixEpochJD)
	ts := days*usecsPerDay + tod
	if !tsValid(ts) {
		return 0, pgerr.New(pgerr.DatetimeFieldOverflow, "timestamp out of range: %d-%02d-%02d %d:%02d:%02g", year, m, d, a[3].I, a[4].I, a[5].F)
	}
	return ts, nil
}

// age is PostgreSQL's timestamp_age: symbolic years/months/days difference.
func age(a, b int64) IntervalValue {
	y1, m1, d1, h1, mi1, s1, f1 := tsSplit(a)
	y2, m2, d2, h2, mi2, s2, f2 := tsSplit(b)
	fsec := f1 - f2
	sec := s1 - s2
	min := mi1 - mi2
	hour := h1 - h2
	mday := d1 - d2
	mon := m1 - m2
	year := y1 - y2
	neg := a < b
	if neg {
		fsec, sec, min, hour, mday, mon, year = -fsec, -sec, -min, -hour, -mday, -mon, -year
	}
	for fsec < 0 {
		fsec += usecsPerSec
		sec--
	}
	for sec < 0 {
		sec += 60
		min--
	}
	for min < 0 {
		min += 60
		hour--
	}
	for hour < 0 {
		hour += 24
		mday--
	}
	for mday < 0 {
		if neg {
			mday += daysIn(y1, m1)
		} else {
			pm, py := m2, y2
			mday += daysIn(py, pm)
		}
		mon--
	}
	for mon < 0 {
		mon += 12
		year--
	}
	if neg {
		fsec, sec, min, hour, mday, mon, year = -fsec, -sec, -min, -hour, -mday, -mon, -year
	}
	return IntervalValue{
		Months: int32(year*12 + mon),
		Days:   int32(mday),
		Micros: int64(hour)*usecsPerHour + int64(min)*usecsPerMinute + int64(sec)*usecsPerSec + fsec,
	}
}

// makeInterval is PostgreSQL 15's make_interval: only secs is range-checked;
// the integer arithmetic wraps as the C code does.
func makeInterval(a []Value) (IntervalValue, error) {
	var f [6]int32
	secs := 0.0
	for i, v := range a {
		if i < 6 {
			f[i] = int32(v.I)
		} else {
			secs = v.F
		}
	}
	if math.IsInf(secs, 0) || math.IsNaN(secs) {
		return IntervalValue{}, errIntervalOutOfRange()
	}
	us := math.RoundToEven(secs * 1e6)
	iv := IntervalValue{
		Months: f[0]*12 + f[1],
		Days:   f[2]*7 + f[3],
		Micros: int64(f[4])*usecsPerHour + int64(f[5])*usecsPerMinute + float8ToInt64(us),
	}
	return iv, nil
}

// float8ToInt64 is C's (int64) conversion as x86-64 does it: out-of-range
// values become INT64_MIN.
func float8ToInt64(x float64) int64 {
	if x >= -9.223372036854775808e18 && x < 9.223372036854775808e18 {
		return int64(x)
	}
	return math.MinInt64
}
