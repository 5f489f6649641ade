package types

import (
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/joind/joind/pgerr"
)

// Calendar arithmetic follows PostgreSQL's Julian-day routines (date2j /
// j2date), so BC dates and the full proleptic Gregorian range behave as there.

const (
	unixEpochJD     = 2440588 // Julian day of 1970-01-01
	usecsPerSec     = int64(1000000)
	usecsPerMinute  = 60 * usecsPerSec
	usecsPerHour    = 60 * usecsPerMinute
	usecsPerDay     = 24 * usecsPerHour
	daysPerMonth    = 30
	dateEndJulian   = 2147483494 // first Julian day past the date range
	minTimestampPG  = int64(-211813488000000000)
	pgEpochUnixUsec = int64(946684800000000)

	// DateInfinity / DateNegInfinity are how infinite dates are stored.
	DateInfinity    = math.MaxInt32
	DateNegInfinity = math.MinInt32
	// TimestampInfinity / TimestampNegInfinity are the infinite timestamps.
	TimestampInfinity    = math.MaxInt64
	TimestampNegInfinity = math.MinInt64
)

const minTimestampUnix = minTimestampPG + pgEpochUnixUsec

func date2j(y, m, d int) int {
	if m > 2 {
		m++
		y += 4800
	} else {
		m += 13
		y += 4799
	}
	century := y / 100
	julian := y*365 - 32167
	julian += y/4 - century + century/4
	julian += 7834*m/256 + d
	return julian
}

func j2date(jd int) (year, month, day int) {
	julian := uint32(jd)
	julian += 32044
	quad := julian / 146097
	extra := (julian-quad*146097)*4 + 3
	julian += 60 + quad*3 + extra/146097
	quad = julian / 1461
	julian -= quad * 1461
	y := int(julian * 4 / 1461)
	if y != 0 {
		julian = (julian+305)%365 + 123
	} else {
		julian = (julian+306)%366 + 123
	}
	y += int(quad * 4)
	year = y - 4800
	q := julian * 2141 / 65536
	day = int(julian - 7834*q/256)
	month = int((q+10)%12 + 1)
	return
}

// j2day is the day of week (0 = Sunday) of a Julian day.
func j2day(jd int) int {
	jd++
	jd %= 7
	if jd < 0 {
		jd += 7
	}
	return jd
}

func isLeap(y int) bool { return y%4 == 0 && (y%100 != 0 || y%400 == 0) }

var monthDays = [2][13]int{
	{0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31},
	{0, 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31},
}

func daysIn(y, m int) int {
	if isLeap(y) {
		return monthDays[1][m]
	}
	return monthDays[0][m]
}

// DateFromYMD returns the stored date for a (proleptic Gregorian, astronomical
// year numbering: 0 = 1 BC) year, month and day.
func DateFromYMD(y, m, d int) int64 { return int64(date2j(y, m, d) - unixEpochJD) }

// DateToYMD splits a finite stored date.
func DateToYMD(days int64) (y, m, d int) { return j2date(int(days) + unixEpochJD) }

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

// tsSplit splits a finite timestamp into date fields and time of day.
func tsSplit(ts int64) (y, mo, d, h, mi, s int, fsec int64) {
	days := floorDiv(ts, usecsPerDay)
	tod := ts - days*usecsPerDay
	y, mo, d = DateToYMD(days)
	h = int(tod / usecsPerHour)
	tod -= int64(h) * usecsPerHour
	mi = int(tod / usecsPerMinute)
	tod -= int64(mi) * usecsPerMinute
	s = int(tod / usecsPerSec)
	fsec = tod - int64(s)*usecsPerSec
	return
}

func dateValid(jd int) bool { return jd >= 0 && jd < dateEndJulian }

func tsValid(ts int64) bool { return ts >= minTimestampUnix && ts != math.MaxInt64 }

// ---- Output ----------------------------------------------------------------

var (
	monthNames = []string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}
	dayNames   = []string{"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"}
)

type dateStyle struct {
	style string // "ISO", "Postgres", "SQL", "German"
	order string // "MDY", "DMY", "YMD"
}

// parseDateStyle interprets a DateStyle setting such as "ISO, MDY".
func parseDateStyle(s string) dateStyle {
	ds := dateStyle{style: "ISO", order: "MDY"}
	orderSet := false
	for _, part := range strings.Split(s, ",") {
		switch strings.ToUpper(strings.TrimSpace(part)) {
		case "ISO":
			ds.style = "ISO"
		case "POSTGRES":
			ds.style = "Postgres"
		case "SQL":
			ds.style = "SQL"
		case "GERMAN":
			ds.style = "German"
			if !orderSet {
				ds.order = "DMY"
			}
		case "MDY", "US", "NONEUROPEAN", "NONEURO":
			ds.order, orderSet = "MDY", true
		case "DMY", "EUROPEAN", "EURO":
			ds.order, orderSet = "DMY", true
		case "YMD":
			ds.order, orderSet = "YMD", true
		}
	}
	return ds
}

func pad(dst []byte, v int, width int) []byte {
	s := strconv.Itoa(v)
	for i := len(s); i < width; i++ {
		dst = append(dst, '0')
	}
	return append(dst, s...)
}

func bcYear(y int) (int, bool) {
	if y <= 0 {
		return 1 - y, true
	}
	return y, false
}

func appendDate(dst []byte, days int64, ds dateStyle) []byte {
	switch days {
	case DateInfinity:
		return append(dst, "infinity"...)
	case DateNegInfinity:
		return append(dst, "-infinity"...)
	}
	y, m, d := DateToYMD(days)
	yy, bc := bcYear(y)
	switch ds.style {
	case "SQL":
		if ds.order == "DMY" {
			dst = pad(append(pad(dst, d, 2), '/'), m, 2)
		} else {
			dst = pad(append(pad(dst, m, 2), '/'), d, 2)
		}
		dst = pad(append(dst, '/'), yy, 4)
	case "German":
		dst = pad(append(pad(append(pad(dst, d, 2), '.'), m, 2), '.'), yy, 4)
	case "Postgres":
		if ds.order == "DMY" {
			dst = pad(append(pad(dst, d, 2), '-'), m, 2)
		} else {
			dst = pad(append(pad(dst, m, 2), '-'), d, 2)
		}
		dst = pad(append(dst, '-'), yy, 4)
	default:
		dst = pad(append(pad(append(pad(dst, yy, 4), '-'), m, 2), '-'), d, 2)
	}
	if bc {
		dst = append(dst, " BC"...)
	}
	return dst
}

// appendSeconds writes seconds and trimmed fractional digits (AppendSeconds).
func appendSeconds(dst []byte, sec int64, fsec int64, fillzeros bool) []byte {
	if sec < 0 {
		sec = -sec
	}
	if fsec < 0 {
		fsec = -fsec
	}
	if fillzeros {
		dst = pad(dst, int(sec), 2)
	} else {
		dst = strconv.AppendInt(dst, sec, 10)
	}
	if fsec != 0 {
		f := strconv.FormatInt(fsec+1000000, 10)[1:]
		f = strings.TrimRight(f, "0")
		dst = append(append(dst, '.'), f...)
	}
	return dst
}

func appendTimestamp(dst []byte, ts int64, ds dateStyle) []byte {
	switch ts {
	case TimestampInfinity:
		return append(dst, "infinity"...)
	case TimestampNegInfinity:
		return append(dst, "-infinity"...)
	}
	return appendDateTime(dst, ts, ds, nil)
}

// appendDateTime is EncodeDateTime for a finite wall-clock time; tz is the
// zone of a timestamptz (nil for timestamp).
func appendDateTime(dst []byte, ts int64, ds dateStyle, tz *tzLabel) []byte {
	y, m, d, h, mi, s, fsec := tsSplit(ts)
	yy, bc := bcYear(y)
	switch ds.style {
	case "Postgres":
		wd := j2day(date2j(y, m, d))
		dst = append(dst, dayNames[wd]...)
		dst = append(dst, ' ')
		if ds.order == "DMY" {
			dst = pad(dst, d, 2)
			dst = append(append(dst, ' '), monthNames[m-1]...)
		} else {
			dst = append(dst, monthNames[m-1]...)
			dst = pad(append(dst, ' '), d, 2)
		}
		dst = pad(append(dst, ' '), h, 2)
		dst = pad(append(dst, ':'), mi, 2)
		dst = appendSeconds(append(dst, ':'), int64(s), fsec, true)
		dst = pad(append(dst, ' '), yy, 4)
		if tz != nil {
			dst = tz.appendAbbrev(append(dst, ' '))
		}
	case "SQL", "German":
		if ds.style == "German" {
			dst = pad(append(pad(append(pad(dst, d, 2), '.'), m, 2), '.'), yy, 4)
		} else {
			if ds.order == "DMY" {
				dst = pad(append(pad(dst, d, 2), '/'), m, 2)
			} else {
				dst = pad(append(pad(dst, m, 2), '/'), d, 2)
			}
			dst = pad(append(dst, '/'), yy, 4)
		}
		dst = pad(append(dst, ' '), h, 2)
		dst = pad(append(dst, ':'), mi, 2)
		dst = appendSeconds(append(dst, ':'), int64(s), fsec, true)
		if tz != nil {
			dst = tz.appendAbbrev(append(dst, ' '))
		}
	default:
		dst = pad(append(pad(append(pad(dst, yy, 4), '-'), m, 2), '-'), d, 2)
		dst = pad(append(dst, ' '), h, 2)
		dst = pad(append(dst, ':'), mi, 2)
		dst = appendSeconds(append(dst, ':'), int64(s), fsec, true)
		if tz != nil {
			dst = appendTZOffset(dst, tz.off)
		}
	}
	if bc {
		dst = append(dst, " BC"...)
	}
	return dst
}

// intervalFields splits an interval the way PostgreSQL's interval2itm does.
func intervalFields(iv IntervalValue) (year, mon, mday int64, hour, min, sec, fsec int64) {
	year = int64(iv.Months / 12)
	mon = int64(iv.Months % 12)
	mday = int64(iv.Days)
	t := iv.Micros
	hour = t / usecsPerHour
	t -= hour * usecsPerHour
	min = t / usecsPerMinute
	t -= min * usecsPerMinute
	sec = t / usecsPerSec
	fsec = t - sec*usecsPerSec
	return
}

func abs64(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

func appendInterval(dst []byte, iv IntervalValue, style string) []byte {
	year, mon, mday, hour, min, sec, fsec := intervalFields(iv)
	isZero, isBefore := true, false
	switch strings.ToLower(style) {
	case "postgres_verbose":
		dst = append(dst, '@')
		part := func(v int64, unit string) {
			if v == 0 {
				return
			}
			if isZero {
				isBefore = v < 0
				v = abs64(v)
			} else if isBefore {
				v = -v
			}
			dst = append(dst, ' ')
			dst = strconv.AppendInt(dst, v, 10)
			dst = append(append(dst, ' '), unit...)
			if v != 1 {
				dst = append(dst, 's')
			}
			isZero = false
		}
		part(year, "year")
		part(mon, "mon")
		part(mday, "day")
		part(hour, "hour")
		part(min, "min")
		if sec != 0 || fsec != 0 {
			dst = append(dst, ' ')
			if sec < 0 || (sec == 0 && fsec < 0) {
				if isZero {
					isBefore = true
				} else if !isBefore {
					dst = append(dst, '-')
				}
			} else if isBefore {
				dst = append(dst, '-')
			}
			dst = appendSeconds(dst, sec, fsec, false)
			dst = append(dst, " sec"...)
			if abs64(sec) != 1 || fsec != 0 {
				dst = append(dst, 's')
			}
			isZero = false
		}
		if isZero {
			dst = append(dst, " 0"...)
		}
		if isBefore {
			dst = append(dst, " ago"...)
		}
	case "iso_8601":
		if year == 0 && mon == 0 && mday == 0 && hour == 0 && min == 0 && sec == 0 && fsec == 0 {
			return append(dst, "PT0S"...)
		}
		dst = append(dst, 'P')
		part := func(v int64, c byte) {
			if v != 0 {
				dst = append(strconv.AppendInt(dst, v, 10), c)
			}
		}
		part(year, 'Y')
		part(mon, 'M')
		part(mday, 'D')
		if hour != 0 || min != 0 || sec != 0 || fsec != 0 {
			dst = append(dst, 'T')
		}
		part(hour, 'H')
		part(min, 'M')
		if sec != 0 || fsec != 0 {
			if sec < 0 || fsec < 0 {
				dst = append(dst, '-')
			}
			dst = append(appendSeconds(dst, sec, fsec, false), 'S')
		}
	case "sql_standard":
		hasNeg := year < 0 || mon < 0 || mday < 0 || hour < 0 || min < 0 || sec < 0 || fsec < 0
		hasPos := year > 0 || mon > 0 || mday > 0 || hour > 0 || min > 0 || sec > 0 || fsec > 0
		hasYM := year != 0 || mon != 0
		hasDT := mday != 0 || hour != 0 || min != 0 || sec != 0 || fsec != 0
		std := !(hasNeg && hasPos) && !(hasYM && hasDT)
		if hasNeg && std {
			dst = append(dst, '-')
			year, mon, mday, hour, min, sec, fsec = -year, -mon, -mday, -hour, -min, -sec, -fsec
		}
		switch {
		case !hasNeg && !hasPos:
			dst = append(dst, '0')
		case !std:
			ys, ds, ss := byte('+'), byte('+'), byte('+')
			if year < 0 || mon < 0 {
				ys = '-'
			}
			if mday < 0 {
				ds = '-'
			}
			if hour < 0 || min < 0 || sec < 0 || fsec < 0 {
				ss = '-'
			}
			dst = append(dst, ys)
			dst = strconv.AppendInt(dst, abs64(year), 10)
			dst = append(dst, '-')
			dst = strconv.AppendInt(dst, abs64(mon), 10)
			dst = append(dst, ' ', ds)
			dst = strconv.AppendInt(dst, abs64(mday), 10)
			dst = append(dst, ' ', ss)
			dst = strconv.AppendInt(dst, abs64(hour), 10)
			dst = pad(append(dst, ':'), int(abs64(min)), 2)
			dst = appendSeconds(append(dst, ':'), sec, fsec, true)
		case hasYM:
			dst = strconv.AppendInt(dst, year, 10)
			dst = append(dst, '-')
			dst = strconv.AppendInt(dst, mon, 10)
		default:
			if mday != 0 {
				dst = strconv.AppendInt(dst, mday, 10)
				dst = append(dst, ' ')
			}
			dst = strconv.AppendInt(dst, hour, 10)
			dst = pad(append(dst, ':'), int(abs64(min)), 2)
			dst = appendSeconds(append(dst, ':'), sec, fsec, true)
		}
	default: // postgres
		part := func(v int64, unit string) {
			if v == 0 {
				return
			}
			if !isZero {
				dst = append(dst, ' ')
			}
			if isBefore && v > 0 {
				dst = append(dst, '+')
			}
			dst = strconv.AppendInt(dst, v, 10)
			dst = append(append(dst, ' '), unit...)
			if v != 1 {
				dst = append(dst, 's')
			}
			isBefore = v < 0
			isZero = false
		}
		part(year, "year")
		part(mon, "mon")
		part(mday, "day")
		if isZero || hour != 0 || min != 0 || sec != 0 || fsec != 0 {
			minus := hour < 0 || min < 0 || sec < 0 || fsec < 0
			if !isZero {
				dst = append(dst, ' ')
			}
			if minus {
				dst = append(dst, '-')
			} else if isBefore {
				dst = append(dst, '+')
			}
			h := abs64(hour)
			if h < 10 {
				dst = append(dst, '0')
			}
			dst = strconv.AppendInt(dst, h, 10)
			dst = pad(append(dst, ':'), int(abs64(min)), 2)
			dst = appendSeconds(append(dst, ':'), sec, fsec, true)
		}
	}
	return dst
}

// ---- Input -----------------------------------------------------------------

func dtSyntaxErr(typ, s string) error {
	return pgerr.New(pgerr.InvalidDatetimeFormat, "invalid input syntax for type %s: \"%s\"", typ, s)
}

// zoneOffsetField is DecodeTimezone on a numeric zone field of input in.
func zoneOffsetField(z, in, typ string) (int, error) {
	if len(z) < 2 || !isDigit(z[1]) {
		return 0, dtSyntaxErr(typ, in) // ParseDateTime's numeric zone starts with a digit
	}
	off, ok, rangeErr := parseZoneOffset(z)
	if rangeErr {
		return 0, pgerr.New(codeTZDisplacement, "time zone displacement out of range: \"%s\"", in)
	}
	if !ok {
		return 0, dtSyntaxErr(typ, in)
	}
	return off, nil
}

func dtRangeErr(s string) error {
	return pgerr.New(pgerr.DatetimeFieldOverflow, "date/time field value out of range: \"%s\"", s)
}

type dtToken struct {
	kind byte // 'n' number, 'w' word, 't' time, 'd' date with separators, 'z' zone offset
	s    string
}

// tokenizeDateTime splits date/time input into fields, roughly as
// PostgreSQL's ParseDateTime does.
func tokenizeDateTime(s string) ([]dtToken, bool) {
	var toks []dtToken
	i := 0
	for i < len(s) {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',':
			i++
		case isDigit(c):
			j := i
			for j < len(s) && isDigit(s[j]) {
				j++
			}
			if j < len(s) && s[j] == ':' {
				for j < len(s) && (isDigit(s[j]) || s[j] == ':' || s[j] == '.') {
					j++
				}
				toks = append(toks, dtToken{'t', s[i:j]})
			} else if j < len(s) && (s[j] == '-' || s[j] == '/' || s[j] == '.') {
				// As ParseDateTime: after digits and a delimiter, more digits
				// ("12.5" is a number) and only a repeated delimiter make a
				// three-field date; a letter makes a date with a text month.
				sep := s[j]
				j++
				if j < len(s) && isDigit(s[j]) {
					for j < len(s) && isDigit(s[j]) {
						j++
					}
					if j < len(s) && s[j] == sep {
						for j < len(s) && (isDigit(s[j]) || s[j] == sep) {
							j++
						}
					} else if sep == '.' {
						toks = append(toks, dtToken{'n', s[i:j]})
						i = j
						continue
					}
					toks = append(toks, dtToken{'d', s[i:j]})
					i = j
					continue
				}
				for j < len(s) && (isDigit(s[j]) || isAlpha(s[j]) || s[j] == sep) {
					j++
				}
				// A zone glued to a date ("2030-01-01Z") is a word of its own.
				k := j
				for k > i && isAlpha(s[k-1]) {
					k--
				}
				if k < j && isDigit(s[k-1]) {
					toks = append(toks, dtToken{'d', s[i:k]}, dtToken{'w', strings.ToLower(s[k:j])})
				} else {
					toks = append(toks, dtToken{'d', s[i:j]})
				}
			} else {
				toks = append(toks, dtToken{'n', s[i:j]})
			}
			i = j
		case isAlpha(c):
			j := i
			for j < len(s) && isAlpha(s[j]) {
				j++
			}
			if j < len(s) && s[j] == '/' && j+1 < len(s) && isAlpha(s[j+1]) {
				// A zone name: "America/New_York", "Etc/GMT+5".
				for j < len(s) && (isAlpha(s[j]) || isDigit(s[j]) || s[j] == '/' || s[j] == '_' || s[j] == '+' || s[j] == '-') {
					j++
				}
				toks = append(toks, dtToken{'Z', s[i:j]})
			} else if j < len(s) && posixZoneStart(s[i:j], s[j]) {
				// ParseDateTime: a word run into '+', '-' or digits that is no
				// keyword is a zone spec ("GMT-1", "PST+8", "MST+7:00").
				for j < len(s) && (isAlpha(s[j]) || isDigit(s[j]) || strings.IndexByte("+-/_.:", s[j]) >= 0) {
					j++
				}
				toks = append(toks, dtToken{'Z', s[i:j]})
			} else if j < len(s) && (s[j] == '-' || s[j] == '/' || s[j] == '.') && monthByName(s[i:j]) > 0 {
				// "Jan-02-2024", "feb.1.00": a date led by its text month
				for j < len(s) && (isDigit(s[j]) || isAlpha(s[j]) || strings.IndexByte("+-/_.:", s[j]) >= 0) {
					j++
				}
				toks = append(toks, dtToken{'d', s[i:j]})
			} else if j < len(s) && s[j] == '.' {
				// ParseDateTime: a word run into '.' is a date field, which
				// after a month and day (or in a time) names a zone: "a.m."
				// is "time zone not recognized", as in PostgreSQL.
				for j < len(s) && (isAlpha(s[j]) || isDigit(s[j]) || strings.IndexByte("+-/_.:", s[j]) >= 0) {
					j++
				}
				toks = append(toks, dtToken{'Z', s[i:j]})
			} else {
				toks = append(toks, dtToken{'w', strings.ToLower(s[i:j])})
			}
			i = j
		case c == '+' || c == '-':
			j := i + 1
			if j < len(s) && isAlpha(s[j]) {
				for j < len(s) && isAlpha(s[j]) {
					j++
				}
				toks = append(toks, dtToken{'w', strings.ToLower(s[i:j])})
			} else {
				for j < len(s) && (isDigit(s[j]) || s[j] == ':') {
					j++
				}
				if j == i+1 {
					return nil, false
				}
				toks = append(toks, dtToken{'z', s[i:j]})
			}
			i = j
		default:
			return nil, false
		}
	}
	return toks, true
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// dtKeywords are the words of datetime input that are not zones: PostgreSQL
// 15's datetktbl less months and days, which are checked apart. A word run
// into digits or '+' that is none of these is a zone spec ("b0" in
// '20000101B0', "z5", "gmt-1"); "z" and "zulu" are zone abbreviations, so
// "z5" is a spec too.
var dtKeywords = map[string]bool{"ad": true, "allballs": true, "am": true, "at": true, "bc": true, "d": true,
	"dow": true, "doy": true, "dst": true, "epoch": true, "h": true, "infinity": true, "-infinity": true,
	"isodow": true, "isoyear": true, "j": true, "jd": true, "julian": true, "m": true, "mm": true, "now": true,
	"on": true, "pm": true, "s": true, "t": true, "today": true, "tomorrow": true, "y": true, "yesterday": true}

// posixZoneStart reports whether word followed by c begins a zone spec
// rather than a keyword and a number, or a text-month date.
func posixZoneStart(word string, c byte) bool {
	w := strings.ToLower(word)
	if dtKeywords[w] || monthByName(w) > 0 || isDayName(w) {
		return false
	}
	return c == '+' || c == '-' || isDigit(c)
}
func isAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func monthByName(w string) int {
	w = strings.ToLower(w)
	full := []string{"january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"}
	for i, f := range full {
		if w == f || (len(w) == 3 && w == f[:3]) || (w == "sept" && i == 8) {
			return i + 1
		}
	}
	return 0
}

func isDayName(w string) bool {
	full := []string{"sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"}
	for _, f := range full {
		if w == f || w == f[:3] || (len(w) >= 3 && strings.HasPrefix(f, w)) {
			return true
		}
	}
	return w == "tues" || w == "wednes" || w == "thur" || w == "thurs"
}

// dtFields is the result of decoding date/time input.
type dtFields struct {
	special            string // "epoch", "infinity", "-infinity", "now", "today", ...
	y, m, d            int
	haveDate, haveTime bool
	h, mi, s           int
	fsec               int64
	// A zone given in the input: a fixed offset (seconds east of UTC) or,
	// for a zone name, a location whose offset depends on the date.
	tz    bool
	tzOff int
	tzLoc *time.Location
}

// decodeDateTime decodes date or timestamp input. order is "MDY", "DMY" or "YMD".
func decodeDateTime(in, typ, order string) (dtFields, error) {
	var f dtFields
	s := strings.TrimSpace(in)
	ls := strings.ToLower(s)
	switch ls {
	case "epoch", "infinity", "-infinity", "now", "today", "tomorrow", "yesterday":
		f.special = ls
		return f, nil
	case "+infinity":
		f.special = "infinity"
		return f, nil
	}
	// ISO 8601 "T" separator between date and time.
	if k := strings.IndexAny(s, "Tt"); k >= 8 && k+1 < len(s) && isDigit(s[k-1]) && isDigit(s[k+1]) {
		s = s[:k] + " " + s[k+1:]
	}
	toks, ok := tokenizeDateTime(s)
	if !ok || len(toks) == 0 {
		return f, dtSyntaxErr(typ, in)
	}
	da := &dateAsg{order: order}
	bc, pm, am, julian := false, false, false, false
	// iso is a pending ISO 8601 field label (DecodeDateTime's ptype):
	// "y2001m02d04h05mm06s07" labels each number; isoTime the time fields
	// so labelled (bits 1 hour, 2 minute, 4 second).
	iso, isoTime := "", 0
	for idx, t := range toks {
		if iso != "" && t.kind != 'n' {
			return f, dtSyntaxErr(typ, in)
		}
		switch t.kind {
		case 'd':
			if julian {
				// "J2452271-08": an integral Julian day with its zone run in
				// (DecodeDateTime's DTK_DATE after DTK_JULIAN); it sets the
				// date, a midnight time and the zone
				julian = false
				k := 0
				for k < len(t.s) && isDigit(t.s[k]) {
					k++
				}
				if da.fmask != 0 || f.haveTime || f.tz || k == 0 {
					return f, dtSyntaxErr(typ, in)
				}
				off, err := zoneOffsetField(t.s[k:], in, typ)
				if err != nil {
					return f, err
				}
				jd := atoi(t.s[:k])
				if jd < 0 {
					return f, dtRangeErr(in)
				}
				da.y, da.m, da.d = j2date(jd)
				da.fmask, da.julian = daDate, true
				f.haveTime, f.tz, f.tzOff = true, true, off
				continue
			}
			if k := strings.IndexByte(t.s, '-'); k > 0 && da.fmask&(daMonth|daDay) == daMonth|daDay {
				// a run-together time with its zone after the date: hhmmss-zz
				if f.haveTime || f.tz || len(t.s[:k]) != 6 {
					return f, dtSyntaxErr(typ, in)
				}
				off, err := zoneOffsetField(t.s[k:], in, typ)
				if err != nil {
					return f, err
				}
				if err := decodeTime(&f, t.s[:2]+":"+t.s[2:4]+":"+t.s[4:6], in, typ); err != nil {
					return f, err
				}
				f.haveTime, f.tz, f.tzOff = true, true, off
				continue
			}
			if e := da.date(t.s); e != dtOK {
				return f, dtErrFor(e, typ, in)
			}
		case 't':
			if f.haveTime {
				return f, dtSyntaxErr(typ, in)
			}
			if err := decodeTime(&f, t.s, in, typ); err != nil {
				return f, err
			}
			f.haveTime = true
		case 'z':
			// timestamp without time zone checks and then discards a zone,
			// as PostgreSQL does; timestamptz applies it. As DecodeDateTime's
			// DTK_TZ, it needs no time before it ('1970-01-01+00').
			if f.tz {
				return f, dtSyntaxErr(typ, in)
			}
			off, err := zoneOffsetField(t.s, in, typ)
			if err != nil {
				return f, err
			}
			f.tz, f.tzOff = true, off
		case 'Z':
			if da.fmask&(daMonth|daDay) != daMonth|daDay {
				// a zone name is only taken after the month and day:
				// before them it is read as a date ("America/New_York" fails)
				if e := da.date(t.s); e != dtOK {
					return f, dtErrFor(e, typ, in)
				}
				continue
			}
			if f.tz {
				return f, dtSyntaxErr(typ, in)
			}
			loc, err := loadZoneName(t.s)
			if err != nil {
				var ok bool
				if loc, ok = parsePosixZone(t.s); !ok {
					return f, pgerr.New(pgerr.InvalidParameterValue, "time zone \"%s\" not recognized", strings.ToLower(t.s))
				}
			}
			f.tz, f.tzLoc = true, loc
		case 'n':
			if iso != "" {
				if err := isoField(&f, da, &isoTime, iso, t.s, typ, in); err != nil {
					return f, err
				}
				iso = ""
				continue
			}
			var e dtErr
			switch {
			case julian:
				// "J2451187": a Julian day number (DTK_JULIAN)
				julian = false
				if da.fmask != 0 {
					return f, dtSyntaxErr(typ, in)
				}
				num, frac := t.s, ""
				if k := strings.IndexByte(num, '.'); k >= 0 {
					num, frac = num[:k], num[k:]
				}
				jd := atoi(num)
				if jd < 0 {
					return f, dtRangeErr(in)
				}
				da.y, da.m, da.d = j2date(jd)
				da.fmask, da.julian = daDate, true
				if frac != "" {
					// a fractional day is the time: strtod(frac) * USECS_PER_DAY,
					// truncated to whole microseconds as dt2time's int64
					x, err := strconv.ParseFloat(frac, 64)
					if err != nil || f.haveTime {
						return f, dtSyntaxErr(typ, in)
					}
					us := int64(x * 86400e6)
					f.h, f.mi, f.s, f.fsec = int(us/3600e6), int(us/60e6%60), int(us/1e6%60), us%1e6
					f.haveTime = true
				}
			case strings.IndexByte(t.s, '.') >= 0 && da.fmask&daDate == 0:
				e = da.date(t.s)
			case len(t.s) >= 6 && da.fmask&daDate == 0 && strings.IndexByte(t.s, '.') < 0:
				// run-together YYYYMMDD / YYMMDD (DecodeNumberField): the
				// last four digits are month and day, the rest the year
				yl := len(t.s) - 4
				da.y, da.m, da.d = atoi(t.s[:yl]), atoi(t.s[yl:yl+2]), atoi(t.s[yl+2:])
				da.fmask, da.is2digits = daDate, yl == 2
			case da.fmask == daDate && !f.haveTime && (len(t.s) == 6 || (strings.IndexByte(t.s, '.') > 2)):
				// run-together hhmmss[.f] after the date
				num, frac := t.s, ""
				if k := strings.IndexByte(num, '.'); k >= 0 {
					num, frac = num[:k], num[k+1:]
				}
				if len(num) != 6 {
					return f, dtSyntaxErr(typ, in)
				}
				tm := num[:2] + ":" + num[2:4] + ":" + num[4:]
				if frac != "" {
					tm += "." + frac
				}
				if err := decodeTime(&f, tm, in, typ); err != nil {
					return f, err
				}
				f.haveTime = true
			default:
				e = da.number(t.s)
			}
			if e != dtOK {
				return f, dtErrFor(e, typ, in)
			}
		case 'w':
			switch {
			case t.s == "j" || t.s == "julian":
				julian = true
			case t.s == "y" || t.s == "m" || t.s == "d" || t.s == "h" || t.s == "mm" || t.s == "s":
				iso = t.s
			case t.s == "epoch" || t.s == "infinity" || t.s == "-infinity" || t.s == "+infinity" || t.s == "now" ||
				t.s == "today" || t.s == "tomorrow" || t.s == "yesterday":
				if f.special != "" {
					return f, dtSyntaxErr(typ, in)
				}
				f.special = strings.TrimPrefix(t.s, "+")
			case t.s == "z" || t.s == "zulu":
				if f.tz {
					return f, dtSyntaxErr(typ, in)
				}
				f.tz, f.tzOff = true, 0
			case t.s == "bc":
				bc = true
			case t.s == "ad":
			case t.s == "am":
				am = true
			case t.s == "pm":
				pm = true
			case zoneAbbrevs[t.s] != nil && !f.tz && monthByName(t.s) == 0 && !isDayName(t.s):
				f.tz, f.tzOff, f.tzLoc = true, *zoneAbbrevs[t.s], dynamicAbbrevZone(t.s)
			case t.s == "t" && idx > 0:
			case monthByName(t.s) > 0:
				switch {
				case da.fmask&daMonth == 0:
					da.fmask |= daMonth
				case !da.textMonth && da.fmask&daDay == 0 && da.m >= 1 && da.m <= 31:
					// "2 Jan": the number taken for the month was the day
					da.d, da.fmask = da.m, da.fmask|daDay
				default:
					return f, dtSyntaxErr(typ, in)
				}
				da.m, da.textMonth = monthByName(t.s), true
			case isDayName(t.s):
			default:
				return f, dtSyntaxErr(typ, in)
			}
		}
	}
	// ValidateDate on the fields present (the two-digit year rule never
	// applies to BC years; month and day ranges carry the datestyle hint),
	// then AM/PM, and only then must the date be complete, in PostgreSQL's
	// order, which decides the SQLSTATE of bad input.
	if f.special != "" {
		// today/tomorrow/yesterday give the date only; the others every field
		switch {
		case da.fmask != 0 || bc:
			return f, dtSyntaxErr(typ, in)
		case f.special != "today" && f.special != "tomorrow" && f.special != "yesterday" && (len(toks) > 1):
			return f, dtSyntaxErr(typ, in)
		}
		return f, nil
	}
	f.y, f.m, f.d = da.y, da.m, da.d
	if da.julian {
		bc, da.is2digits = false, false
	}
	if da.fmask&daYear != 0 && !da.julian {
		if bc {
			if f.y <= 0 {
				return f, dtRangeErr(in)
			}
			f.y = 1 - f.y
		} else if da.is2digits {
			if f.y < 70 {
				f.y += 2000
			} else if f.y < 100 {
				f.y += 1900
			}
		} else if f.y <= 0 {
			return f, dtRangeErr(in)
		}
	}
	if da.doy > 0 {
		f.y, f.m, f.d = j2date(date2j(f.y, 1, 1) + da.doy - 1)
	}
	if (da.fmask&daMonth != 0 && (f.m < 1 || f.m > 12)) || (da.fmask&daDay != 0 && (f.d < 1 || f.d > 31)) {
		return f, pgerr.New(pgerr.DatetimeFieldOverflow, "date/time field value out of range: \"%s\"", in).
			WithHint("Perhaps you need a different \"datestyle\" setting.")
	}
	if da.fmask == daDate && f.d > daysIn(f.y, f.m) {
		return f, dtRangeErr(in)
	}
	if pm || am {
		if !f.haveTime || f.h > 12 || f.h < 0 {
			return f, dtRangeErr(in)
		}
		if pm && f.h < 12 {
			f.h += 12
		} else if am && f.h == 12 {
			f.h = 0
		}
	}
	if da.fmask != daDate {
		return f, dtSyntaxErr(typ, in)
	}
	f.haveDate = true
	return f, nil
}

// isoField assigns the number v to the field label names (DecodeDateTime's
// DTK_NUMBER after a UNITS word). PostgreSQL checks no range here: hour 25
// rolls into the next day when the timestamp is built.
func isoField(f *dtFields, da *dateAsg, isoTime *int, label, v, typ, in string) error {
	num, frac := v, ""
	if k := strings.IndexByte(v, '.'); k >= 0 {
		if label != "s" { // only seconds may have a fraction
			return dtSyntaxErr(typ, in)
		}
		num, frac = v[:k], v[k+1:]
	}
	n, err := strconv.Atoi(num)
	if err != nil {
		return dtSyntaxErr(typ, in)
	}
	if label == "m" && da.fmask&daMonth != 0 && *isoTime&1 != 0 {
		label = "mm" // a month and an hour already: minutes
	}
	date := map[string]int{"y": daYear, "m": daMonth, "d": daDay}
	if bit, ok := date[label]; ok {
		if da.fmask&bit != 0 {
			return dtSyntaxErr(typ, in)
		}
		da.fmask |= bit
		switch label {
		case "y":
			da.y = n
		case "m":
			da.m = n
		default:
			da.d = n
		}
		return nil
	}
	bit := map[string]int{"h": 1, "mm": 2, "s": 4}[label]
	if *isoTime&bit != 0 || (f.haveTime && *isoTime == 0) {
		return dtSyntaxErr(typ, in)
	}
	*isoTime |= bit
	f.haveTime = true
	switch label {
	case "h":
		f.h = n
	case "mm":
		f.mi = n
	default:
		f.s = n
		if frac != "" {
			for i := 0; i < len(frac); i++ {
				if !isDigit(frac[i]) {
					return dtSyntaxErr(typ, in)
				}
			}
			x, _ := strconv.ParseFloat("0."+frac, 64)
			f.fsec = int64(math.RoundToEven(x * 1e6))
		}
	}
	return nil
}

func atoi(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		return -1
	}
	return n
}

// Date field masks for dateAsg (DTK_M(YEAR|MONTH|DAY)).
const (
	daYear = 1 << iota
	daMonth
	daDay
	daDate = daYear | daMonth | daDay
)

// dateAsg assigns date fields the way DecodeDate and DecodeNumber do: a
// text month is unambiguous, and each number's role follows from the
// fields already seen and the DateStyle order.
type dateAsg struct {
	order     string // "MDY", "DMY" or "YMD"
	fmask     int
	y, m, d   int
	textMonth bool
	is2digits bool
	julian    bool // the date came from a Julian day: its year is final
	doy       int  // YYYY.DDD: the day of the year, month and day still to derive
}

func dtErrFor(e dtErr, typ, in string) error {
	if e == dtFieldOverflow {
		return dtRangeErr(in)
	}
	return dtSyntaxErr(typ, in)
}

// date is DecodeDate: the fields of one separated date token, text
// months first.
func (a *dateAsg) date(str string) dtErr {
	// fields are runs of digits or of letters; anything else separates
	var parts []string
	for i := 0; i < len(str); {
		for i < len(str) && !isDigit(str[i]) && !isAlpha(str[i]) {
			i++
		}
		if i >= len(str) {
			return dtBadFormat // end of string after a separator
		}
		j := i
		if isDigit(str[i]) {
			for j < len(str) && isDigit(str[j]) {
				j++
			}
		} else {
			for j < len(str) && isAlpha(str[j]) {
				j++
			}
		}
		parts = append(parts, str[i:j])
		i = j
		if i < len(str) && !isDigit(str[i]) && !isAlpha(str[i]) {
			i++ // one separator ends a field
		}
	}
	if len(parts) == 0 {
		return dtBadFormat
	}
	for i, p := range parts {
		if p != "" && isAlpha(p[0]) {
			m := monthByName(p)
			if m == 0 || a.fmask&daMonth != 0 {
				return dtBadFormat
			}
			a.m, a.fmask, a.textMonth = m, a.fmask|daMonth, true
			parts[i] = "\x00"
		}
	}
	for _, p := range parts {
		if p == "\x00" {
			continue
		}
		if p == "" {
			return dtBadFormat
		}
		for j := 0; j < len(p); j++ {
			if !isDigit(p[j]) {
				return dtBadFormat
			}
		}
		if e := a.number(p); e != dtOK {
			return e
		}
	}
	if a.fmask != daDate {
		return dtBadFormat // a date field must complete the date
	}
	return dtOK
}

// number is DecodeNumber for an all-digit date field.
func (a *dateAsg) number(str string) dtErr {
	val, err := strconv.ParseInt(str, 10, 32)
	if err != nil {
		return dtFieldOverflow
	}
	v, flen := int(val), len(str)
	var t int
	switch a.fmask {
	case 0:
		switch {
		case flen >= 3 || a.order == "YMD":
			t, a.y = daYear, v
		case a.order == "DMY":
			t, a.d = daDay, v
		default:
			t, a.m = daMonth, v
		}
	case daYear:
		if flen == 3 && v >= 1 && v <= 366 {
			// day of the year after a year (DecodeNumber's DOY case)
			a.doy, a.fmask = v, daDate
			return dtOK
		}
		t, a.m = daMonth, v
	case daMonth:
		if a.textMonth && (flen >= 3 || a.order == "YMD") {
			t, a.y = daYear, v
		} else {
			t, a.d = daDay, v
		}
	case daYear | daMonth:
		if a.textMonth && flen >= 3 && a.is2digits {
			// DD-MON-YYYY even in YMD mode: the first number was the day
			t, a.d, a.y = daDay, a.y, v
			a.is2digits = false
		} else {
			t, a.d = daDay, v
		}
	case daDay:
		t, a.m = daMonth, v
	case daMonth | daDay:
		t, a.y = daYear, v
	default:
		return dtBadFormat
	}
	a.fmask |= t
	if t == daYear {
		a.is2digits = flen <= 2
	}
	return dtOK
}

func decodeTime(f *dtFields, s, in, typ string) error {
	parts := strings.Split(s, ":")
	if len(parts) < 2 || len(parts) > 3 {
		return dtSyntaxErr(typ, in)
	}
	frac := ""
	last := parts[len(parts)-1]
	if k := strings.IndexByte(last, '.'); k >= 0 {
		frac = last[k+1:]
		parts[len(parts)-1] = last[:k]
		if len(parts) == 2 {
			// "mm:ss.f"
			parts = []string{"0", parts[0], parts[1]}
		}
	}
	for _, p := range parts {
		if p == "" || strings.IndexByte(p, '.') >= 0 {
			return dtSyntaxErr(typ, in)
		}
	}
	f.h, f.mi = atoi(parts[0]), atoi(parts[1])
	if len(parts) == 3 {
		f.s = atoi(parts[2])
	}
	if frac != "" {
		for i := 0; i < len(frac); i++ {
			if !isDigit(frac[i]) {
				return dtSyntaxErr(typ, in)
			}
		}
		v, _ := strconv.ParseFloat("0."+frac, 64)
		f.fsec = int64(math.RoundToEven(v * 1e6))
	}
	if f.h < 0 || f.h > 24 || f.mi < 0 || f.mi > 59 || f.s < 0 || f.s > 60 ||
		(f.h == 24 && (f.mi != 0 || f.s != 0 || f.fsec != 0)) {
		return dtRangeErr(in)
	}
	return nil
}

func nowTime(ctxNow time.Time) time.Time {
	if ctxNow.IsZero() {
		return time.Now().UTC()
	}
	return ctxNow
}

// parseDate implements date_in.
func parseDate(s, order string, now time.Time, loc *time.Location) (Value, error) {
	f, err := decodeDateTime(s, "date", order)
	if err != nil {
		return Value{}, err
	}
	switch f.special {
	case "infinity":
		return Value{I: DateInfinity}, nil
	case "-infinity":
		return Value{I: DateNegInfinity}, nil
	case "epoch":
		return Value{I: 0}, nil
	case "now":
		n := nowTime(now).In(locOrUTC(loc))
		return Value{I: DateFromYMD(n.Year(), int(n.Month()), n.Day())}, nil
	case "today", "tomorrow", "yesterday":
		return Value{I: f.specialDay(now, loc)}, nil
	}
	jd := date2j(f.y, f.m, f.d)
	if !dateValid(jd) {
		return Value{}, pgerr.New(pgerr.DatetimeFieldOverflow, "date out of range: \"%s\"", s)
	}
	return Value{I: int64(jd - unixEpochJD)}, nil
}

// parseTimestamp implements timestamp_in.
func parseTimestamp(s, order string, now time.Time, loc *time.Location) (Value, error) {
	f, err := decodeDateTime(s, "timestamp", order)
	if err != nil {
		return Value{}, err
	}
	switch f.special {
	case "infinity":
		return Value{I: TimestampInfinity}, nil
	case "-infinity":
		return Value{I: TimestampNegInfinity}, nil
	case "epoch":
		return Value{I: 0}, nil
	case "now":
		n := nowTime(now).In(locOrUTC(loc))
		_, off := n.Zone()
		return Value{I: n.UnixMicro() + int64(off)*usecsPerSec}, nil
	case "today", "tomorrow", "yesterday":
		return Value{I: f.specialDay(now, loc)*usecsPerDay + f.timeOfDay()}, nil
	}
	ts, err := fieldsToTimestamp(f, s, false)
	return Value{I: ts}, err
}

// specialDay is the date 'today', 'tomorrow' or 'yesterday' names in loc.
func (f dtFields) specialDay(now time.Time, loc *time.Location) int64 {
	n := nowTime(now).In(locOrUTC(loc))
	d := DateFromYMD(n.Year(), int(n.Month()), n.Day())
	switch f.special {
	case "tomorrow":
		d++
	case "yesterday":
		d--
	}
	return d
}

func (f dtFields) timeOfDay() int64 {
	return int64(f.h)*usecsPerHour + int64(f.mi)*usecsPerMinute + int64(f.s)*usecsPerSec + f.fsec
}

// fieldsToTimestamp assembles decoded date and time fields into a
// wall-clock timestamp.
//
// A wall-clock time of timestamptz input (zoned) may lie before the first
// timestamp, as long as its month is November 4714 BC or later
// (IS_VALID_JULIAN): its zone may bring it into range, which the caller checks.
func fieldsToTimestamp(f dtFields, s string, zoned bool) (int64, error) {
	jd := date2j(f.y, f.m, f.d)
	if zoned && jd < 0 && jd >= date2j(-4713, 11, 1) {
		return int64(jd-unixEpochJD)*usecsPerDay + f.timeOfDay(), nil
	}
	if !dateValid(jd) {
		return 0, pgerr.New(pgerr.DatetimeFieldOverflow, "timestamp out of range: \"%s\"", s)
	}
	days := int64(jd - unixEpochJD)
	tod := int64(f.h)*usecsPerHour + int64(f.mi)*usecsPerMinute + int64(f.s)*usecsPerSec + f.fsec
	// Overflow-safe: the date range is far inside int64 microseconds except at the top end.
	if days > (math.MaxInt64-usecsPerDay)/usecsPerDay {
		return 0, pgerr.New(pgerr.DatetimeFieldOverflow, "timestamp out of range: \"%s\"", s)
	}
	ts := days*usecsPerDay + tod
	if !tsValid(ts) {
		return 0, pgerr.New(pgerr.DatetimeFieldOverflow, "timestamp out of range: \"%s\"", s)
	}
	return ts, nil
}

// roundTimestamp applies a timestamp(p) typmod (AdjustTimestampForTypmod).
func roundTimestamp(ts int64, typmod int32) int64 {
	if typmod < 0 || typmod >= 6 || ts == TimestampInfinity || ts == TimestampNegInfinity {
		return ts
	}
	scale := int64(math.Pow10(6 - int(typmod)))
	off := scale / 2
	if ts >= 0 {
		return ((ts + off) / scale) * scale
	}
	return -(((-ts + off) / scale) * scale)
}
