package types

import (
	"errors"
	"math"
	"strconv"
	"strings"

	"github.com/joind/joind/pgerr"
)

func ivSyntaxErr(s string) error {
	return pgerr.New(pgerr.InvalidDatetimeFormat, "invalid input syntax for type interval: \"%s\"", s)
}

// ivRangeErr is interval_in's DTERR_INTERVAL_OVERFLOW: a field that does
// not fit while decoding.
func ivRangeErr(s string) error {
	return pgerr.New(pgerr.IntervalFieldOverflow, "interval field value out of range: \"%s\"", s)
}

func errIntervalOutOfRange() error {
	return pgerr.New(pgerr.DatetimeFieldOverflow, "interval out of range")
}

// Decoding outcomes, as datetime.c's DTERR_* codes.
type dtErr uint8

const (
	dtOK dtErr = iota
	dtBadFormat
	dtFieldOverflow
)

// itmIn is PostgreSQL's pg_itm_in: interval input with years and months kept
// apart (so "2147483647 years" decodes and only itmin2interval overflows),
// each field overflow-checked as it is added.
type itmIn struct {
	usec            int64
	mday, mon, year int32
}

func mulInt32(a int64, b int32) (int32, bool) {
	if a < math.MinInt32 || a > math.MaxInt32 {
		return 0, false
	}
	r := a * int64(b)
	return int32(r), r >= math.MinInt32 && r <= math.MaxInt32
}

// fracMicros is AdjustFractMicroseconds: a fraction of scale microseconds,
// rounded away from zero only beyond one half, as PostgreSQL does.
func (t *itmIn) fracMicros(frac float64, scale int64) bool {
	if frac == 0 {
		return true
	}
	frac *= float64(scale)
	usec := int64(frac)
	frac -= float64(usec)
	if frac > 0.5 {
		usec++
	} else if frac < -0.5 {
		usec--
	}
	var ok bool
	t.usec, ok = addInt64(t.usec, usec)
	return ok
}

// fracDays is AdjustFractDays.
func (t *itmIn) fracDays(frac float64, scale int32) bool {
	if frac == 0 {
		return true
	}
	frac *= float64(scale)
	extra := int32(frac)
	var ok bool
	if t.mday, ok = addInt32(t.mday, extra); !ok {
		return false
	}
	return t.fracMicros(frac-float64(extra), usecsPerDay)
}

// apply adds val+fval of unit as DecodeInterval's per-unit Adjust* calls do.
func (t *itmIn) apply(unit string, val int64, fval float64) bool {
	var ok bool
	switch unit {
	case "microsecond", "millisecond", "second", "minute", "hour":
		scale := map[string]int64{"microsecond": 1, "millisecond": 1000, "second": usecsPerSec, "minute": usecsPerMinute, "hour": usecsPerHour}[unit]
		v, ok1 := mulInt64(val, scale)
		if !ok1 {
			return false
		}
		if t.usec, ok = addInt64(t.usec, v); !ok {
			return false
		}
		return t.fracMicros(fval, scale)
	case "day", "week":
		scale := int32(1)
		if unit == "week" {
			scale = 7
		}
		d, ok1 := mulInt32(val, scale)
		if !ok1 {
			return false
		}
		if t.mday, ok = addInt32(t.mday, d); !ok {
			return false
		}
		if unit == "day" {
			return t.fracMicros(fval, usecsPerDay)
		}
		return t.fracDays(fval, 7)
	case "month":
		m, ok1 := mulInt32(val, 1)
		if !ok1 {
			return false
		}
		if t.mon, ok = addInt32(t.mon, m); !ok {
			return false
		}
		return t.fracDays(fval, daysPerMonth)
	case "year", "decade", "century", "millennium":
		scale := map[string]int32{"year": 1, "decade": 10, "century": 100, "millennium": 1000}[unit]
		y, ok1 := mulInt32(val, scale)
		if !ok1 {
			return false
		}
		if t.year, ok = addInt32(t.year, y); !ok {
			return false
		}
		// AdjustFractYears: whole months, rint (half to even).
		t.mon, ok = addInt32(t.mon, int32(math.RoundToEven(fval*float64(scale)*12)))
		return ok
	}
	return false
}

// interval is itmin2interval; only the combined month count can overflow.
func (t *itmIn) interval() (IntervalValue, bool) {
	months := int64(t.year)*12 + int64(t.mon)
	if months < math.MinInt32 || months > math.MaxInt32 {
		return IntervalValue{}, false
	}
	return IntervalValue{Months: int32(months), Days: t.mday, Micros: t.usec}, true
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

// Field masks for DecodeInterval's duplicate-field check (DTK_M).
const (
	fmUS = 1 << iota
	fmMS
	fmSec
	fmMin
	fmHour
	fmDay
	fmWeek
	fmMonth
	fmYear
	fmDecade
	fmCentury
	fmMillennium

	fmAllSecs = fmSec | fmMS | fmUS
	fmTime    = fmHour | fmMin | fmAllSecs
)

var unitMask = map[string]int{
	"microsecond": fmUS, "millisecond": fmMS, "second": fmSec, "minute": fmMin, "hour": fmHour,
	"day": fmDay, "week": fmWeek, "month": fmMonth, "year": fmYear, "decade": fmDecade,
	"century": fmCentury, "millennium": fmMillennium,
}

// rangeUnit is the unit a bare number takes under an interval range: the
// range's last field (DecodeInterval's "use typmod to decide what rightmost
// field is"); seconds otherwise.
func rangeUnit(rng int32) string {
	switch rng {
	case ivYear:
		return "year"
	case ivMonth, ivYear | ivMonth:
		return "month"
	case ivDay:
		return "day"
	case ivHour, ivDay | ivHour:
		return "hour"
	case ivMinute, ivHour | ivMinute, ivDay | ivHour | ivMinute:
		return "minute"
	}
	return "second"
}

type ivTok struct {
	kind byte // 'n' number, 'd' date-like (1-2, 5.), 'z' signed, 't' time, 'w' word
	s    string
}

func isPunct(c byte) bool {
	return c > ' ' && c < 0x7f && !isDigit(c) && !isAlpha(c)
}

// tokenizeInterval splits interval input into fields as ParseDateTime does:
// digits with ':' are a time, with '-' '/' '.' a date-like field, a sign
// starts a signed field, words are lower-cased, other punctuation separates.
func tokenizeInterval(s string) ([]ivTok, bool) {
	var toks []ivTok
	i := 0
	digits := func(j int) int {
		for j < len(s) && isDigit(s[j]) {
			j++
		}
		return j
	}
	for i < len(s) {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f':
			i++
		case isDigit(c):
			j := digits(i)
			kind := byte('n')
			switch {
			case j < len(s) && s[j] == ':':
				kind = 't'
				for j < len(s) && (isDigit(s[j]) || s[j] == ':' || s[j] == '.') {
					j++
				}
			case j < len(s) && (s[j] == '-' || s[j] == '/' || s[j] == '.'):
				delim := s[j]
				j++
				if j < len(s) && isDigit(s[j]) {
					if delim != '.' {
						kind = 'd'
					}
					j = digits(j)
					if j < len(s) && s[j] == delim {
						kind = 'd'
						for j < len(s) && (isDigit(s[j]) || s[j] == delim) {
							j++
						}
					}
				} else {
					kind = 'd'
					for j < len(s) && (isDigit(s[j]) || isAlpha(s[j]) || s[j] == delim) {
						j++
					}
				}
			}
			toks = append(toks, ivTok{kind, s[i:j]})
			i = j
		case c == '.':
			j := digits(i + 1)
			toks = append(toks, ivTok{'n', s[i:j]})
			i = j
		case isAlpha(c):
			j := i
			for j < len(s) && isAlpha(s[j]) {
				j++
			}
			// A word running into '-', '/', '.', '+' or a digit is a date
			// or zone name, never an interval unit: a field that fails only
			// when decoded (right to left, so an overflow to its right wins).
			if j < len(s) && (s[j] == '-' || s[j] == '/' || s[j] == '.' || s[j] == '+' || isDigit(s[j])) {
				for j < len(s) && (isDigit(s[j]) || isAlpha(s[j]) || strings.IndexByte("+-/_.:", s[j]) >= 0) {
					j++
				}
				toks = append(toks, ivTok{'d', s[i:j]})
				i = j
				continue
			}
			toks = append(toks, ivTok{'w', strings.ToLower(s[i:j])})
			i = j
		case c == '+' || c == '-':
			j := i + 1
			for j < len(s) && (s[j] == ' ' || s[j] == '\t' || s[j] == '\n' || s[j] == '\r' || s[j] == '\v' || s[j] == '\f') {
				j++
			}
			if j < len(s) && isAlpha(s[j]) {
				// A signed word (DTK_SPECIAL): no unit, so it fails when decoded.
				k := j
				for k < len(s) && isAlpha(s[k]) {
					k++
				}
				toks = append(toks, ivTok{'w', string(c) + strings.ToLower(s[j:k])})
				i = k
				continue
			}
			if j >= len(s) || !isDigit(s[j]) {
				return nil, false
			}
			k := j
			for k < len(s) && (isDigit(s[k]) || s[k] == ':' || s[k] == '.' || s[k] == '-') {
				k++
			}
			toks = append(toks, ivTok{'z', string(c) + s[j:k]})
			i = k
		case isPunct(c):
			i++
		default:
			return nil, false
		}
	}
	return toks, true
}

// ivNumber reads a number field as DecodeInterval does: an int64, then
// nothing, "-m" (SQL-standard years-months, reported as months) or a
// fraction. ym reports the years-months form.
func ivNumber(f string) (val int64, fval float64, ym bool, e dtErr) {
	j := 0
	if j < len(f) && (f[j] == '+' || f[j] == '-') {
		j++
	}
	k := j
	for k < len(f) && isDigit(f[k]) {
		k++
	}
	if k > j {
		v, err := strconv.ParseInt(f[:k], 10, 64)
		if err != nil {
			return 0, 0, false, dtFieldOverflow
		}
		val = v
	} else {
		k = 0 // strtol consumed nothing
	}
	rest := f[k:]
	switch {
	case rest == "":
	case rest[0] == '-':
		m := rest[1:]
		n := 0
		for n < len(m) && isDigit(m[n]) {
			n++
		}
		var v2 int64
		if n > 0 { // strtoint reads "" as 0: "1-" is one year
			var err error
			if v2, err = strconv.ParseInt(m[:n], 10, 32); err != nil || v2 >= 12 {
				return 0, 0, false, dtFieldOverflow
			}
		}
		if n != len(m) {
			return 0, 0, false, dtBadFormat
		}
		if f[0] == '-' {
			v2 = -v2
		}
		v, ok1 := mulInt64(val, 12)
		r, ok2 := addInt64(v, v2)
		if !ok1 || !ok2 {
			return 0, 0, false, dtFieldOverflow
		}
		return r, 0, true, dtOK
	case rest[0] == '.':
		if rest != "." {
			fv, err := strconv.ParseFloat(rest, 64)
			if err != nil || strings.ContainsAny(rest[1:], ".+-eEnNiIxXpP_") {
				return 0, 0, false, dtBadFormat
			}
			fval = fv
		}
		if f[0] == '-' {
			fval = -fval
		}
	default:
		return 0, 0, false, dtBadFormat
	}
	return val, fval, false, dtOK
}

// parseInterval implements interval_in(text, typmod) for the postgres,
// postgres_verbose, SQL-standard and ISO 8601 input syntaxes: the typmod's
// range decides the unit of bare numbers, then AdjustIntervalForTypmod.
//
// sqlStd is IntervalStyle sql_standard, under which a leading minus applies
// to every field when no other field has a sign ('-1 2:03:04').
func parseInterval(in string, typmod int32, sqlStd bool) (IntervalValue, error) {
	s := strings.TrimSpace(in)
	var t itmIn
	var e dtErr
	if s != "" && (s[0] == 'P' || s[0] == 'p') {
		e = decodeISOInterval(s[1:], &t)
	} else {
		e = decodeInterval(s, intervalRange(typmod), sqlStd, &t)
	}
	switch e {
	case dtBadFormat:
		return IntervalValue{}, ivSyntaxErr(in)
	case dtFieldOverflow:
		return IntervalValue{}, ivRangeErr(in)
	}
	iv, ok := t.interval()
	if !ok {
		return IntervalValue{}, errIntervalOutOfRange()
	}
	return adjustIntervalForTypmod(iv, typmod)
}

// decodeInterval is DecodeInterval: fields are read right to left so that a
// unit word applies to the number before it, and a bare number takes the
// unit left over from its right neighbour (days before a time or an hour
// count) or else the range's last field.
func decodeInterval(s string, rng int32, sqlStd bool, t *itmIn) dtErr {
	toks, ok := tokenizeInterval(s)
	if !ok || len(toks) == 0 {
		return dtBadFormat
	}
	forceNeg := false
	if sqlStd && toks[0].s[0] == '-' {
		forceNeg = true
		for _, tk := range toks[1:] {
			if tk.s[0] == '-' || tk.s[0] == '+' {
				forceNeg = false
			}
		}
	}
	unit := "" // "" is IGNORE_DTF: not yet decided
	fmask := 0
	ago := false
	for i := len(toks) - 1; i >= 0; i-- {
		tk := toks[i]
		tmask := 0
		switch tk.kind {
		case 'w':
			if tk.s == "ago" {
				ago = true
				unit = "ago" // a number right before "ago" is an error
				continue
			}
			u, ok := intervalUnits[tk.s]
			if !ok {
				return dtBadFormat
			}
			unit = u
			continue
		case 't', 'z':
			if tk.kind == 't' || strings.IndexByte(tk.s, ':') >= 0 {
				us, e := decodeTimeForInterval(tk.s, rng)
				if e == dtOK || tk.kind == 't' {
					if e != dtOK {
						return e
					}
					t.usec = us
					if forceNeg && t.usec > 0 {
						t.usec = -t.usec
					}
					tmask = fmTime
					unit = "day"
					break
				}
				// a signed field that is no time reads as a number
			}
			fallthrough
		case 'n', 'd':
			if unit == "" {
				unit = rangeUnit(rng)
			}
			val, fval, ym, e := ivNumber(tk.s)
			if e != dtOK {
				return e
			}
			if ym {
				unit = "month"
			}
			if forceNeg {
				if val > 0 {
					val = -val
				}
				if fval > 0 {
					fval = -fval
				}
			}
			m, known := unitMask[unit]
			if !known {
				return dtBadFormat
			}
			if !t.apply(unit, val, fval) {
				return dtFieldOverflow
			}
			tmask = m
			if unit == "second" && fval != 0 {
				tmask = fmAllSecs
			}
			if unit == "hour" {
				unit = "day" // "1 2" under DAY TO HOUR is 1 day 2 hours
			}
		}
		if tmask&fmask != 0 {
			return dtBadFormat
		}
		fmask |= tmask
	}
	if fmask == 0 {
		return dtBadFormat
	}
	if ago {
		if t.usec == math.MinInt64 || t.mday == math.MinInt32 || t.mon == math.MinInt32 || t.year == math.MinInt32 {
			return dtFieldOverflow
		}
		t.usec, t.mday, t.mon, t.year = -t.usec, -t.mday, -t.mon, -t.year
	}
	return dtOK
}

// decodeTimeForInterval is DecodeTimeForInterval: [+-]h:m[:s[.f]] or m:s.f
// (and m:s under MINUTE TO SECOND) as microseconds.
func decodeTimeForInterval(s string, rng int32) (int64, dtErr) {
	neg := false
	if s[0] == '-' || s[0] == '+' {
		neg = s[0] == '-'
		s = s[1:]
	}
	parts := strings.Split(s, ":")
	if len(parts) < 2 || len(parts) > 3 {
		return 0, dtBadFormat
	}
	// Only the last field may carry a fraction (ParseFractionalSecond).
	var fsec int64
	hasFrac := false
	if last := parts[len(parts)-1]; strings.IndexByte(last, '.') >= 0 {
		k := strings.IndexByte(last, '.')
		f := last[k:]
		fv, err := strconv.ParseFloat(f, 64)
		if err != nil || strings.ContainsAny(f[1:], ".+-eEnNiIxXpP_") {
			return 0, dtBadFormat
		}
		fsec = int64(math.RoundToEven(fv * 1e6))
		parts[len(parts)-1] = last[:k]
		hasFrac = true
	}
	var hms [3]int64
	for i, p := range parts {
		if p == "" {
			return 0, dtBadFormat
		}
		for _, c := range []byte(p) {
			if !isDigit(c) {
				return 0, dtBadFormat
			}
		}
		bits := 32
		if i == 0 {
			bits = 64 // pg_itm's hour is int64
		}
		v, err := strconv.ParseInt(p, 10, bits)
		if err != nil {
			return 0, dtFieldOverflow
		}
		hms[i] = v
	}
	// mm:ss.fff is always minutes and seconds; mm:ss too under MINUTE TO SECOND.
	if len(parts) == 2 && (hasFrac || rng == ivMinute|ivSecond) {
		hms = [3]int64{0, hms[0], hms[1]}
	}
	if hms[1] > 59 || hms[2] > 60 || fsec > usecsPerSec {
		return 0, dtFieldOverflow
	}
	us := fsec
	for i, scale := range []int64{usecsPerHour, usecsPerMinute, usecsPerSec} {
		v, ok := mulInt64(hms[i], scale)
		if !ok {
			return 0, dtFieldOverflow
		}
		if us, ok = addInt64(us, v); !ok {
			return 0, dtFieldOverflow
		}
	}
	if neg {
		us = -us
	}
	return us, dtOK
}

// isoNumber is ParseISO8601Number: a decimal split into int64 and fraction.
// isoNumber is ParseISO8601Number: a strtod number at the start of s (sign,
// digits, fraction, exponent), split into integer and fraction, and the rest
// of s.
func isoNumber(s string) (int64, float64, string, dtErr) {
	if s == "" || !(isDigit(s[0]) || s[0] == '-' || s[0] == '.') {
		return 0, 0, s, dtBadFormat
	}
	j := 0
	if s[j] == '-' || s[j] == '+' {
		j++
	}
	digits := 0
	for j < len(s) && (isDigit(s[j]) || s[j] == '.') {
		if isDigit(s[j]) {
			digits++
		}
		j++
	}
	if digits == 0 {
		return 0, 0, s, dtBadFormat
	}
	if j < len(s) && (s[j] == 'e' || s[j] == 'E') {
		k := j + 1
		if k < len(s) && (s[k] == '-' || s[k] == '+') {
			k++
		}
		if k < len(s) && isDigit(s[k]) {
			for k < len(s) && isDigit(s[k]) {
				k++
			}
			j = k
		}
	}
	v, err := strconv.ParseFloat(s[:j], 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, 0, s, dtBadFormat
	}
	if math.IsNaN(v) || v < -9.223372036854775808e18 || v >= 9.223372036854775807e18 {
		return 0, 0, s, dtFieldOverflow
	}
	ip := math.Trunc(v)
	return int64(ip), v - ip, s[j:], dtOK
}

// isoIntegerWidth is ISO8601IntegerWidth: the digits before any fraction.
func isoIntegerWidth(s string) int {
	s = strings.TrimPrefix(s, "-")
	n := 0
	for n < len(s) && isDigit(s[n]) {
		n++
	}
	return n
}

// decodeISOInterval is DecodeISO8601Interval on the text after the 'P':
// designators (P1Y2M3DT4H5M6S) or the alternative format, basic
// (P00021015T103020) or extended (P0002-10-15T10:30:20), whose trailing
// fields may be left out.
func decodeISOInterval(str string, t *itmIn) dtErr {
	if str == "" {
		return dtBadFormat
	}
	add := func(unit string, val int64, frac float64) dtErr {
		if !t.apply(unit, val, frac) {
			return dtFieldOverflow
		}
		return dtOK
	}
	// next reads one number of the extended alternative format.
	next := func(unit string) (string, dtErr) {
		val, frac, rest, e := isoNumber(str)
		if e == dtOK {
			e = add(unit, val, frac)
		}
		return rest, e
	}
	datePart, haveField := true, false
	for str != "" {
		if str[0] == 'T' || str[0] == 't' {
			datePart, haveField = false, false
			str = str[1:]
			continue
		}
		start := str
		val, frac, rest, e := isoNumber(str)
		if e != dtOK {
			return e
		}
		str = rest
		var unit byte
		if str != "" {
			unit, str = str[0]|0x20, str[1:]
		}
		if datePart {
			switch unit {
			case 'y', 'm', 'w', 'd':
				e = add(map[byte]string{'y': "year", 'm': "month", 'w': "week", 'd': "day"}[unit], val, frac)
			case 't', 0, '-':
				if unit != '-' && isoIntegerWidth(start) == 8 && !haveField {
					// basic: YYYYMMDD
					if e = add("year", val/10000, 0); e == dtOK {
						if e = add("month", val/100%100, 0); e == dtOK {
							e = add("day", val%100, frac)
						}
					}
					if e != dtOK || unit == 0 {
						return e
					}
					datePart, haveField = false, false
					continue
				}
				// extended: YYYY[-MM[-DD]]
				if haveField {
					return dtBadFormat
				}
				if e = add("year", val, frac); e != dtOK || unit == 0 {
					return e
				}
				if unit == 't' {
					datePart, haveField = false, false
					continue
				}
				for i, u := range []string{"month", "day"} {
					if str, e = next(u); e != dtOK || str == "" {
						return e
					}
					if str[0] == 'T' || str[0] == 't' {
						break
					}
					if i == 1 || str[0] != '-' {
						return dtBadFormat
					}
					str = str[1:]
				}
				continue // at the 'T'
			default:
				return dtBadFormat
			}
		} else {
			switch unit {
			case 'h', 'm', 's':
				e = add(map[byte]string{'h': "hour", 'm': "minute", 's': "second"}[unit], val, frac)
			case 0, ':':
				if unit == 0 && isoIntegerWidth(start) == 6 && !haveField {
					// basic: hhmmss
					if e = add("hour", val/10000, 0); e == dtOK {
						if e = add("minute", val/100%100, 0); e == dtOK {
							if e = add("second", val%100, 0); e == dtOK {
								// the fraction counts microseconds here, as in PostgreSQL
								e = add("microsecond", 0, frac)
							}
						}
					}
					return e
				}
				// extended: hh[:mm[:ss]]
				if haveField {
					return dtBadFormat
				}
				if e = add("hour", val, frac); e != dtOK || unit == 0 {
					return e
				}
				if str, e = next("minute"); e != dtOK || str == "" {
					return e
				}
				if str[0] != ':' {
					return dtBadFormat
				}
				str = str[1:]
				if str, e = next("second"); e != dtOK || str == "" {
					return e
				}
				return dtBadFormat
			default:
				return dtBadFormat
			}
		}
		if e != dtOK {
			return e
		}
		haveField = true
	}
	return dtOK
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

// float8FitsInt32 is FLOAT8_FITS_IN_INT32: [-2^31, 2^31), NaN never fits.
func float8FitsInt32(x float64) bool { return x >= math.MinInt32 && x < -math.MinInt32 }

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
	if !float8FitsInt32(resMonthF) {
		return IntervalValue{}, errIntervalOutOfRange()
	}
	resDayF := op(float64(span.Days))
	if !float8FitsInt32(resDayF) {
		return IntervalValue{}, errIntervalOutOfRange()
	}
	month := int32(resMonthF)
	day := int32(resDayF)
	monthRemDays := tsround((resMonthF - float64(month)) * daysPerMonth)
	secRem := tsround((resDayF - float64(day) + monthRemDays - math.Trunc(monthRemDays)) * 86400)
	var ok bool
	if math.Abs(secRem) >= 86400 {
		if day, ok = addInt32(day, int32(secRem/86400)); !ok {
			return IntervalValue{}, errIntervalOutOfRange()
		}
		secRem -= math.Trunc(secRem/86400) * 86400
	}
	if day, ok = addInt32(day, int32(monthRemDays)); !ok {
		return IntervalValue{}, errIntervalOutOfRange()
	}
	t := math.RoundToEven(op(float64(span.Micros)) + secRem*1e6)
	if math.IsNaN(t) || t >= 9.223372036854775807e18 || t < -9.223372036854775808e18 {
		return IntervalValue{}, errIntervalOutOfRange()
	}
	return IntervalValue{month, day, int64(t)}, nil
}

// justifyHours moves whole days out of the time field (interval_justify_hours).
func justifyHours(iv IntervalValue) (IntervalValue, error) {
	wd := iv.Micros / usecsPerDay
	iv.Micros -= wd * usecsPerDay
	d, ok := addInt32(iv.Days, int32(wd))
	if !ok || wd > math.MaxInt32 || wd < math.MinInt32 {
		return IntervalValue{}, errIntervalOutOfRange()
	}
	iv.Days = d
	return borrowDay(iv), nil
}

// borrowDay gives the time part the days' sign, moving one day across, as
// the last step of interval_justify_hours and interval_justify_interval.
func borrowDay(iv IntervalValue) IntervalValue {
	if iv.Days > 0 && iv.Micros < 0 {
		iv.Micros += usecsPerDay
		iv.Days--
	} else if iv.Days < 0 && iv.Micros > 0 {
		iv.Micros -= usecsPerDay
		iv.Days++
	}
	return iv
}

// justifyDays is interval_justify_days: whole 30-day months into months.
func justifyDays(iv IntervalValue) (IntervalValue, error) {
	wm := iv.Days / daysPerMonth
	iv.Days -= wm * daysPerMonth
	m, ok := addInt32(iv.Months, wm)
	if !ok {
		return IntervalValue{}, errIntervalOutOfRange()
	}
	iv.Months = m
	if iv.Months > 0 && iv.Days < 0 {
		iv.Days += daysPerMonth
		iv.Months--
	} else if iv.Months < 0 && iv.Days > 0 {
		iv.Days -= daysPerMonth
		iv.Months++
	}
	return iv, nil
}

// justifyInterval is interval_justify_interval, with PostgreSQL's
// pre-justification of days that avoids needless overflow.
func justifyInterval(iv IntervalValue) (IntervalValue, error) {
	var ok bool
	if (iv.Days > 0 && iv.Micros > 0) || (iv.Days < 0 && iv.Micros < 0) {
		wm := iv.Days / daysPerMonth
		iv.Days -= wm * daysPerMonth
		if iv.Months, ok = addInt32(iv.Months, wm); !ok {
			return IntervalValue{}, errIntervalOutOfRange()
		}
	}
	wd := iv.Micros / usecsPerDay
	iv.Micros -= wd * usecsPerDay
	iv.Days += int32(wd) // cannot overflow: see PostgreSQL's comment
	wm := iv.Days / daysPerMonth
	iv.Days -= wm * daysPerMonth
	if iv.Months, ok = addInt32(iv.Months, wm); !ok {
		return IntervalValue{}, errIntervalOutOfRange()
	}
	if iv.Months > 0 && (iv.Days < 0 || (iv.Days == 0 && iv.Micros < 0)) {
		iv.Days += daysPerMonth
		iv.Months--
	} else if iv.Months < 0 && (iv.Days > 0 || (iv.Days == 0 && iv.Micros > 0)) {
		iv.Days -= daysPerMonth
		iv.Months++
	}
	return borrowDay(iv), nil
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
	// PostgreSQL 15's timestamp_mi does not check this subtraction: a
	// difference beyond the int64 range wraps, and so does ours.
	return justifyHours(IntervalValue{Micros: a - b})
}
