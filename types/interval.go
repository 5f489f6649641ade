package types

import (
	"math"
	"strconv"
	"strings"

	"github.com/joind/joind/pgerr"
)

func ivSyntaxErr(s string) error {
	return pgerr.New(pgerr.InvalidDatetimeFormat, "invalid input syntax for type interval: \"%s\"", s)
}

func ivRangeErr(s string) error {
	return pgerr.New(pgerr.DatetimeFieldOverflow, "interval field value out of range: \"%s\"", s)
}

func errIntervalOutOfRange() error {
	return pgerr.New(pgerr.DatetimeFieldOverflow, "interval out of range")
}

// ivAcc accumulates interval input the way PostgreSQL's pg_itm_in does, with
// overflow checks deferred to the end.
type ivAcc struct {
	months, days float64 // float64 holds exact integers here; checked at the end
	micros       float64
}

func (a *ivAcc) addFracMicros(frac float64, scale float64) {
	if frac == 0 {
		return
	}
	a.micros += math.RoundToEven(frac * scale)
}

func (a *ivAcc) addFracDays(frac float64, scale float64) {
	if frac == 0 {
		return
	}
	frac *= scale
	extra := math.Trunc(frac)
	a.days += extra
	a.addFracMicros(frac-extra, float64(usecsPerDay))
}

func (a *ivAcc) apply(unit string, ival, frac float64) {
	switch unit {
	case "microsecond":
		a.micros += ival
		a.addFracMicros(frac, 1)
	case "millisecond":
		a.micros += ival * 1000
		a.addFracMicros(frac, 1000)
	case "second":
		a.micros += ival * float64(usecsPerSec)
		a.addFracMicros(frac, float64(usecsPerSec))
	case "minute":
		a.micros += ival * float64(usecsPerMinute)
		a.addFracMicros(frac, float64(usecsPerMinute))
	case "hour":
		a.micros += ival * float64(usecsPerHour)
		a.addFracMicros(frac, float64(usecsPerHour))
	case "day":
		a.days += ival
		a.addFracMicros(frac, float64(usecsPerDay))
	case "week":
		a.days += ival * 7
		a.addFracDays(frac, 7)
	case "month":
		a.months += ival
		a.addFracDays(frac, daysPerMonth)
	case "year", "decade", "century", "millennium":
		scale := map[string]float64{"year": 1, "decade": 10, "century": 100, "millennium": 1000}[unit]
		a.months += ival * scale * 12
		a.months += math.RoundToEven(frac * scale * 12)
	}
}

func (a *ivAcc) result(in string) (IntervalValue, error) {
	if a.months > math.MaxInt32 || a.months < math.MinInt32 || a.days > math.MaxInt32 || a.days < math.MinInt32 ||
		a.micros >= 9.223372036854775807e18 || a.micros < -9.223372036854775808e18 {
		return IntervalValue{}, ivRangeErr(in)
	}
	return IntervalValue{Months: int32(a.months), Days: int32(a.days), Micros: int64(a.micros)}, nil
}

var intervalUnits = map[string]string{
	"microsecond": "microsecond", "microseconds": "microsecond", "us": "microsecond", "usec": "microsecond", "usecs": "microsecond", "usecond": "microsecond", "useconds": "microsecond",
	"millisecond": "millisecond", "milliseconds": "millisecond", "ms": "millisecond", "msec": "millisecond", "msecs": "millisecond", "msecond": "millisecond", "mseconds": "millisecond",
	"second": "second", "seconds": "second", "s": "second", "sec": "second", "secs": "second",
	"minute": "minute", "minutes": "minute", "m": "minute", "min": "minute", "mins": "minute",
	"hour": "hour", "hours": "hour", "h": "hour", "hr": "hour", "hrs": "hour",
	"day": "day", "days": "day", "d": "day",
	"week": "week", "weeks": "week", "w": "week",
	"month": "month", "months": "month", "mon": "month", "mons": "month",
	"year": "year", "years": "year", "y": "year", "yr": "year", "yrs": "year",
	"decade": "decade", "decades": "decade", "dec": "decade", "decs": "decade",
	"century": "century", "centuries": "century", "c": "century", "cent": "century",
	"millennium": "millennium", "millennia": "millennium", "mil": "millennium", "mils": "millennium", "millenniums": "millennium",
}

// splitNumber separates a signed decimal number into integer and fraction.
func splitNumber(s string) (ival, frac float64, ok bool) {
	if s == "" {
		return 0, 0, false
	}
	neg := false
	body := s
	if body[0] == '+' || body[0] == '-' {
		neg = body[0] == '-'
		body = body[1:]
	}
	ip, fp := body, ""
	if k := strings.IndexByte(body, '.'); k >= 0 {
		ip, fp = body[:k], body[k+1:]
	}
	if ip == "" && fp == "" {
		return 0, 0, false
	}
	for _, c := range []byte(ip + fp) {
		if !isDigit(c) {
			return 0, 0, false
		}
	}
	if ip != "" {
		v, err := strconv.ParseFloat(ip, 64)
		if err != nil {
			return 0, 0, false
		}
		ival = v
	}
	if fp != "" {
		frac, _ = strconv.ParseFloat("0."+fp, 64)
	}
	if neg {
		ival, frac = -ival, -frac
	}
	return ival, frac, true
}

type ivTok struct {
	kind byte // 'n' number, 'w' word, 't' time h:m[:s], 'y' year-month "1-2"
	s    string
}

func tokenizeInterval(s string) ([]ivTok, bool) {
	var toks []ivTok
	i := 0
	for i < len(s) {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '@' && len(toks) == 0:
			i++
		case isDigit(c) || c == '.' || c == '+' || c == '-':
			j := i
			if c == '+' || c == '-' {
				j++
			}
			for j < len(s) && (isDigit(s[j]) || s[j] == '.' || s[j] == ':') {
				j++
			}
			kind := byte('n')
			if strings.IndexByte(s[i:j], ':') >= 0 {
				kind = 't'
			} else if j < len(s) && s[j] == '-' && j+1 < len(s) && isDigit(s[j+1]) {
				j++
				for j < len(s) && isDigit(s[j]) {
					j++
				}
				kind = 'y'
			}
			if j == i || (j == i+1 && (c == '+' || c == '-')) {
				return nil, false
			}
			toks = append(toks, ivTok{kind, s[i:j]})
			i = j
		case isAlpha(c):
			j := i
			for j < len(s) && isAlpha(s[j]) {
				j++
			}
			toks = append(toks, ivTok{'w', strings.ToLower(s[i:j])})
			i = j
		default:
			return nil, false
		}
	}
	return toks, true
}

// parseInterval implements interval_in for the postgres, postgres_verbose,
// SQL-standard and ISO 8601 input syntaxes.
func parseInterval(in string) (IntervalValue, error) {
	s := strings.TrimSpace(in)
	if s == "" {
		return IntervalValue{}, ivSyntaxErr(in)
	}
	if s[0] == 'P' || s[0] == 'p' {
		return parseISOInterval(s, in)
	}
	toks, ok := tokenizeInterval(s)
	if !ok || len(toks) == 0 {
		return IntervalValue{}, ivSyntaxErr(in)
	}
	var acc ivAcc
	seen := map[string]bool{}
	ago := false
	use := func(unit string) bool {
		if seen[unit] {
			return false
		}
		seen[unit] = true
		return true
	}
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		switch t.kind {
		case 'w':
			if t.s == "ago" && i == len(toks)-1 {
				ago = true
				continue
			}
			return IntervalValue{}, ivSyntaxErr(in)
		case 't':
			if !use("time") {
				return IntervalValue{}, ivSyntaxErr(in)
			}
			us, ok := parseIntervalTime(t.s)
			if !ok {
				return IntervalValue{}, ivSyntaxErr(in)
			}
			acc.micros += us
		case 'y':
			if !use("year") || !use("month") {
				return IntervalValue{}, ivSyntaxErr(in)
			}
			neg := t.s[0] == '-'
			body := strings.TrimLeft(t.s, "+-")
			k := strings.IndexByte(body, '-')
			y, err1 := strconv.ParseFloat(body[:k], 64)
			m, err2 := strconv.ParseFloat(body[k+1:], 64)
			if err1 != nil || err2 != nil || strings.IndexByte(body[:k], '.') >= 0 {
				return IntervalValue{}, ivSyntaxErr(in)
			}
			if m > 11 {
				return IntervalValue{}, ivRangeErr(in)
			}
			tot := y*12 + m
			if neg {
				tot = -tot
			}
			acc.months += tot
		case 'n':
			ival, frac, ok := splitNumber(t.s)
			if !ok {
				return IntervalValue{}, ivSyntaxErr(in)
			}
			unit := ""
			if i+1 < len(toks) && toks[i+1].kind == 'w' {
				if u, ok := intervalUnits[toks[i+1].s]; ok {
					unit = u
					i++
				}
			}
			if unit == "" {
				if i+1 < len(toks) && toks[i+1].kind == 't' {
					unit = "day"
				} else {
					unit = "second"
				}
			}
			if !use(unit) {
				return IntervalValue{}, ivSyntaxErr(in)
			}
			acc.apply(unit, ival, frac)
		}
	}
	iv, err := acc.result(in)
	if err != nil {
		return iv, err
	}
	if ago {
		if iv.Months == math.MinInt32 || iv.Days == math.MinInt32 || iv.Micros == math.MinInt64 {
			return iv, ivRangeErr(in)
		}
		iv = IntervalValue{-iv.Months, -iv.Days, -iv.Micros}
	}
	return iv, nil
}

// parseIntervalTime reads [-]h:m[:s[.f]] (or m:s.f) as microseconds.
func parseIntervalTime(s string) (float64, bool) {
	neg := false
	if s[0] == '-' || s[0] == '+' {
		neg = s[0] == '-'
		s = s[1:]
	}
	parts := strings.Split(s, ":")
	if len(parts) < 2 || len(parts) > 3 {
		return 0, false
	}
	if len(parts) == 2 && strings.IndexByte(parts[1], '.') >= 0 {
		parts = []string{"0", parts[0], parts[1]}
	}
	var h, m, sec float64
	for i, p := range parts {
		if p == "" {
			return 0, false
		}
		if i < 2 && strings.IndexByte(p, '.') >= 0 {
			return 0, false
		}
		v, err := strconv.ParseFloat(p, 64)
		if err != nil || strings.ContainsAny(p, "eE+-") {
			return 0, false
		}
		switch i {
		case 0:
			h = v
		case 1:
			m = v
		case 2:
			sec = v
		}
	}
	if m > 59 || sec >= 60 {
		return 0, false
	}
	us := h*float64(usecsPerHour) + m*float64(usecsPerMinute) + math.RoundToEven(sec*1e6)
	if neg {
		us = -us
	}
	return us, true
}

func parseISOInterval(s, in string) (IntervalValue, error) {
	body := s[1:]
	var acc ivAcc
	if body == "" {
		return IntervalValue{}, ivSyntaxErr(in)
	}
	// Alternative format: P0001-02-03T04:05:06
	if len(body) >= 4 && isDigit(body[0]) && strings.Count(body, "-") == 2 && !strings.ContainsAny(body, "YMDWHSymdwhs") {
		datePart, timePart := body, ""
		if k := strings.IndexAny(body, "Tt"); k >= 0 {
			datePart, timePart = body[:k], body[k+1:]
		}
		p := strings.Split(datePart, "-")
		y, e1 := strconv.ParseFloat(p[0], 64)
		m, e2 := strconv.ParseFloat(p[1], 64)
		d, e3 := strconv.ParseFloat(p[2], 64)
		if e1 != nil || e2 != nil || e3 != nil {
			return IntervalValue{}, ivSyntaxErr(in)
		}
		acc.apply("year", math.Trunc(y), y-math.Trunc(y))
		acc.apply("month", math.Trunc(m), m-math.Trunc(m))
		acc.apply("day", math.Trunc(d), d-math.Trunc(d))
		if timePart != "" {
			us, ok := parseIntervalTime(timePart)
			if !ok {
				return IntervalValue{}, ivSyntaxErr(in)
			}
			acc.micros += us
		}
		return acc.result(in)
	}
	inTime := false
	i := 0
	for i < len(body) {
		c := body[i]
		if c == 'T' || c == 't' {
			if inTime {
				return IntervalValue{}, ivSyntaxErr(in)
			}
			inTime = true
			i++
			continue
		}
		j := i
		if j < len(body) && (body[j] == '-' || body[j] == '+') {
			j++
		}
		for j < len(body) && (isDigit(body[j]) || body[j] == '.') {
			j++
		}
		if j == i || j >= len(body) {
			return IntervalValue{}, ivSyntaxErr(in)
		}
		ival, frac, ok := splitNumber(body[i:j])
		if !ok {
			return IntervalValue{}, ivSyntaxErr(in)
		}
		u := body[j] | 0x20
		var unit string
		switch {
		case !inTime && u == 'y':
			unit = "year"
		case !inTime && u == 'm':
			unit = "month"
		case !inTime && u == 'w':
			unit = "week"
		case !inTime && u == 'd':
			unit = "day"
		case inTime && u == 'h':
			unit = "hour"
		case inTime && u == 'm':
			unit = "minute"
		case inTime && u == 's':
			unit = "second"
		default:
			return IntervalValue{}, ivSyntaxErr(in)
		}
		acc.apply(unit, ival, frac)
		i = j + 1
	}
	return acc.result(in)
}

// ---- interval arithmetic ----------------------------------------------------

// IntervalSpan is the single 128-bit-like ordering key PostgreSQL uses to
// compare intervals (months count 30 days, days 24 hours). It is returned as
// (high, low) parts of days and micros to avoid overflow.
func intervalSpan(iv IntervalValue) (days int64, micros int64) {
	d := int64(iv.Months)*daysPerMonth + int64(iv.Days)
	// normalise micros into whole days so that equal spans compare equal
	d += floorDiv(iv.Micros, usecsPerDay)
	m := iv.Micros - floorDiv(iv.Micros, usecsPerDay)*usecsPerDay
	return d, m
}

func compareInterval(a, b IntervalValue) int {
	ad, am := intervalSpan(a)
	bd, bm := intervalSpan(b)
	switch {
	case ad < bd:
		return -1
	case ad > bd:
		return 1
	case am < bm:
		return -1
	case am > bm:
		return 1
	}
	return 0
}

func addInt32(a, b int32) (int32, bool) {
	r := int64(a) + int64(b)
	return int32(r), r >= math.MinInt32 && r <= math.MaxInt32
}

func addInt64(a, b int64) (int64, bool) {
	r := a + b
	return r, (r > a) == (b > 0)
}

func subInt64(a, b int64) (int64, bool) {
	r := a - b
	return r, (r < a) == (b > 0)
}

func mulInt64(a, b int64) (int64, bool) {
	if a == 0 || b == 0 {
		return 0, true
	}
	r := a * b
	if r/b != a || (a == -1 && b == math.MinInt64) || (b == -1 && a == math.MinInt64) {
		return r, false
	}
	return r, true
}

func intervalAdd(a, b IntervalValue) (IntervalValue, error) {
	m, ok1 := addInt32(a.Months, b.Months)
	d, ok2 := addInt32(a.Days, b.Days)
	us, ok3 := addInt64(a.Micros, b.Micros)
	if !ok1 || !ok2 || !ok3 {
		return IntervalValue{}, errIntervalOutOfRange()
	}
	return IntervalValue{m, d, us}, nil
}

func intervalNeg(a IntervalValue) (IntervalValue, error) {
	if a.Months == math.MinInt32 || a.Days == math.MinInt32 || a.Micros == math.MinInt64 {
		return IntervalValue{}, errIntervalOutOfRange()
	}
	return IntervalValue{-a.Months, -a.Days, -a.Micros}, nil
}

func tsround(x float64) float64 { return math.RoundToEven(x*1e6) / 1e6 }

// intervalMul implements interval_mul (and interval_div via 1/factor-free path).
func intervalMulDiv(span IntervalValue, factor float64, div bool) (IntervalValue, error) {
	if div && factor == 0 {
		return IntervalValue{}, errDivisionByZero()
	}
	op := func(x float64) float64 {
		if div {
			return x / factor
		}
		return x * factor
	}
	if math.IsNaN(factor) {
		return IntervalValue{}, errIntervalOutOfRange()
	}
	resMonthF := op(float64(span.Months))
	if math.IsNaN(resMonthF) || resMonthF > math.MaxInt32 || resMonthF < math.MinInt32 {
		return IntervalValue{}, errIntervalOutOfRange()
	}
	resDayF := op(float64(span.Days))
	if math.IsNaN(resDayF) || resDayF > math.MaxInt32 || resDayF < math.MinInt32 {
		return IntervalValue{}, errIntervalOutOfRange()
	}
	month := int32(resMonthF)
	day := int32(resDayF)
	monthRemDays := tsround((resMonthF - float64(month)) * daysPerMonth)
	secRem := tsround((resDayF - float64(day) + monthRemDays - math.Trunc(monthRemDays)) * 86400)
	if math.Abs(secRem) >= 86400 {
		day += int32(secRem / 86400)
		secRem -= math.Trunc(secRem/86400) * 86400
	}
	day += int32(monthRemDays)
	t := math.RoundToEven(op(float64(span.Micros)) + secRem*1e6)
	if math.IsNaN(t) || t >= 9.223372036854775807e18 || t < -9.223372036854775808e18 {
		return IntervalValue{}, errIntervalOutOfRange()
	}
	return IntervalValue{month, day, int64(t)}, nil
}

// justifyHours moves whole days out of the time field (interval_justify_hours).
func justifyHours(iv IntervalValue) IntervalValue {
	wd := iv.Micros / usecsPerDay
	iv.Micros -= wd * usecsPerDay
	iv.Days += int32(wd)
	if iv.Days > 0 && iv.Micros < 0 {
		iv.Micros += usecsPerDay
		iv.Days--
	} else if iv.Days < 0 && iv.Micros > 0 {
		iv.Micros -= usecsPerDay
		iv.Days++
	}
	return iv
}

func justifyDays(iv IntervalValue) IntervalValue {
	wm := iv.Days / daysPerMonth
	iv.Days -= wm * daysPerMonth
	iv.Months += wm
	if iv.Months > 0 && iv.Days < 0 {
		iv.Days += daysPerMonth
		iv.Months--
	} else if iv.Months < 0 && iv.Days > 0 {
		iv.Days -= daysPerMonth
		iv.Months++
	}
	return iv
}

// timestampPlusInterval implements timestamp_pl_interval.
func timestampPlusInterval(ts int64, iv IntervalValue) (int64, error) {
	if ts == TimestampInfinity || ts == TimestampNegInfinity {
		return ts, nil
	}
	if iv.Months != 0 {
		y, m, d, h, mi, s, fsec := tsSplit(ts)
		mm := int64(m) + int64(iv.Months)
		yy := int64(y) + floorDiv(mm-1, 12)
		mm = mm - floorDiv(mm-1, 12)*12
		if yy > 300000 || yy < -5000 {
			return 0, errTimestampOutOfRange()
		}
		if dim := daysIn(int(yy), int(mm)); d > dim {
			d = dim
		}
		jd := date2j(int(yy), int(mm), d)
		if !dateValid(jd) {
			return 0, errTimestampOutOfRange()
		}
		ts = int64(jd-unixEpochJD)*usecsPerDay + int64(h)*usecsPerHour + int64(mi)*usecsPerMinute + int64(s)*usecsPerSec + fsec
	}
	if iv.Days != 0 {
		days := floorDiv(ts, usecsPerDay)
		tod := ts - days*usecsPerDay
		days += int64(iv.Days)
		if !dateValid(int(days + unixEpochJD)) {
			return 0, errTimestampOutOfRange()
		}
		ts = days*usecsPerDay + tod
	}
	r, ok := addInt64(ts, iv.Micros)
	if !ok || !tsValid(r) {
		return 0, errTimestampOutOfRange()
	}
	return r, nil
}

func errTimestampOutOfRange() error {
	return pgerr.New(pgerr.DatetimeFieldOverflow, "timestamp out of range")
}

func errDateOutOfRange() error {
	return pgerr.New(pgerr.DatetimeFieldOverflow, "date out of range")
}

func timestampMinus(a, b int64) (IntervalValue, error) {
	if a == TimestampInfinity || a == TimestampNegInfinity || b == TimestampInfinity || b == TimestampNegInfinity {
		return IntervalValue{}, pgerr.New(pgerr.DatetimeFieldOverflow, "cannot subtract infinite timestamps")
	}
	d, ok := subInt64(a, b)
	if !ok {
		return IntervalValue{}, errIntervalOutOfRange()
	}
	return justifyHours(IntervalValue{Micros: d}), nil
}
