package types

import (
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/cockroachdb/apd/v3"
	"github.com/joind/joind/pgerr"
)

// timestamp with time zone is an instant: microseconds since 1970-01-01
// 00:00:00 UTC, the same representation as timestamp. The session TimeZone
// only matters at the edges — text input without a zone, text output,
// conversions to and from timestamp/date, and calendar arithmetic (adding
// days or months, date_trunc, extract), all of which work on the wall-clock
// time in the zone, as PostgreSQL's timestamp2tm/tm2timestamp do.

// codeTZDisplacement is SQLSTATE invalid_time_zone_displacement_value.
const codeTZDisplacement = "22009"

func ctxZone(ctx *EvalContext) *time.Location {
	if ctx == nil || ctx.TimeZone == nil {
		return time.UTC
	}
	return ctx.TimeZone
}

func tsFinite(ts int64) bool { return ts != TimestampInfinity && ts != TimestampNegInfinity }

// zoneAt returns the abbreviation and UTC offset (seconds east) in force in
// loc at the instant ts.
func zoneAt(ts int64, loc *time.Location) (string, int) {
	if loc == nil || loc == time.UTC {
		return "UTC", 0
	}
	return time.Unix(floorDiv(ts, usecsPerSec), 0).In(loc).Zone()
}

// tzToLocal converts an instant to the wall-clock time in loc.
func tzToLocal(ts int64, loc *time.Location) int64 {
	if !tsFinite(ts) {
		return ts
	}
	_, off := zoneAt(ts, loc)
	return ts + int64(off)*usecsPerSec
}

// localToTZ converts a wall-clock time in loc to an instant.
func localToTZ(wall int64, loc *time.Location) int64 {
	if !tsFinite(wall) {
		return wall
	}
	if loc != nil && strings.HasPrefix(loc.String(), abbrevZonePrefix) {
		return abbrevLocalToUTC(wall, loc)
	}
	return wall - int64(localOffset(floorDiv(wall, usecsPerSec), loc))*usecsPerSec
}

func localToTZChecked(wall int64, loc *time.Location) (int64, error) {
	r := localToTZ(wall, loc)
	if tsFinite(wall) && !tsValid(r) {
		return 0, errTimestampOutOfRange()
	}
	return r, nil
}

// localOffset is PostgreSQL's DetermineTimeZoneOffset: the UTC offset of a
// wall-clock time (seconds, as if UTC) in loc. A time skipped by a
// spring-forward transition takes the offset before it; an ambiguous time of
// a fall-back transition takes the offset after it.
func localOffset(wallSec int64, loc *time.Location) int {
	if loc == nil || loc == time.UTC {
		return 0
	}
	prec := time.Unix(wallSec-86400, 0).In(loc)
	_, before := prec.Zone()
	_, end := prec.ZoneBounds()
	if end.IsZero() {
		return before
	}
	boundary := end.Unix()
	_, after := end.In(loc).Zone()
	bt, at := wallSec-int64(before), wallSec-int64(after)
	switch {
	case bt < boundary && at < boundary:
		return before
	case bt > boundary && at >= boundary:
		return after
	case bt > at:
		return before
	}
	return after
}

// ---- zones ------------------------------------------------------------------

// LoadTimeZone resolves a TimeZone setting as PostgreSQL's check_timezone
// does: a plain number is hours east of UTC ('5', '-3.5'); otherwise an IANA
// zone name ('America/New_York', 'PST8PDT', 'UTC'); otherwise a POSIX zone
// spec without DST rules, whose offsets count hours WEST of UTC ('UTC+5' is
// five hours behind UTC, '<+05>-5' five ahead).
func LoadTimeZone(name string) (*time.Location, error) {
	s := strings.TrimSpace(name)
	if h, err := strconv.ParseFloat(s, 64); err == nil && !math.IsNaN(h) && !math.IsInf(h, 0) {
		off := int(math.Round(h * 3600))
		if off > 15*3600+59*60+59 || off < -(15*3600+59*60+59) {
			return nil, pgerr.New(pgerr.InvalidParameterValue, "UTC timezone offset is out of range.")
		}
		return time.FixedZone(offsetName(off), off), nil
	}
	if loc, err := loadZoneName(s); err == nil {
		return loc, nil
	}
	if loc, ok := parsePosixZone(s); ok {
		return loc, nil
	}
	return nil, pgerr.New(pgerr.InvalidParameterValue, "time zone \"%s\" not recognized", name)
}

// loadZoneName loads an IANA zone, matching its name case-insensitively in
// the common spellings (PostgreSQL looks zone names up case-insensitively).
func loadZoneName(name string) (*time.Location, error) {
	switch strings.ToUpper(name) {
	case "UTC", "Z", "ZULU", "UCT", "UNIVERSAL":
		return time.UTC, nil
	case "":
		return nil, pgerr.New(pgerr.InvalidParameterValue, "time zone \"\" not recognized")
	}
	if strings.Contains(name, "..") || strings.HasPrefix(name, "/") {
		return nil, pgerr.New(pgerr.InvalidParameterValue, "time zone \"%s\" not recognized", name)
	}
	loc, err := time.LoadLocation(name)
	if err == nil {
		return loc, nil
	}
	// "america/new_york" → "America/New_York"; "est5edt" → "EST5EDT".
	for _, cand := range []string{capitalizeZone(name), strings.ToUpper(name)} {
		if cand != name {
			if loc, err2 := time.LoadLocation(cand); err2 == nil {
				return loc, nil
			}
		}
	}
	return nil, err
}

func capitalizeZone(s string) string {
	b := []byte(strings.ToLower(s))
	up := true
	for i, c := range b {
		if up && c >= 'a' && c <= 'z' {
			b[i] = c - 'a' + 'A'
		}
		up = c == '/' || c == '_' || c == '-'
	}
	return string(b)
}

// offsetName is how PostgreSQL names a fixed-offset zone: "+05", "-03:30".
func offsetName(east int) string { return string(appendTZOffset(nil, east)) }

// zoneArg resolves the zone argument of AT TIME ZONE and date_trunc's third
// argument as PostgreSQL's timestamp_zone does: an abbreviation first, then
// a zone name or POSIX spec.
func zoneArg(name string) (*time.Location, error) {
	if loc := dynamicAbbrevZone(strings.ToLower(name)); loc != nil {
		return loc, nil
	}
	if off := zoneAbbrevs[strings.ToLower(name)]; off != nil {
		return time.FixedZone(strings.ToUpper(name), *off), nil
	}
	if loc, err := loadZoneName(name); err == nil {
		return loc, nil
	}
	if loc, ok := parsePosixZone(name); ok {
		return loc, nil
	}
	return nil, pgerr.New(pgerr.InvalidParameterValue, "time zone \"%s\" not recognized", name)
}

// intervalZone is an interval used as a zone: its time part, east of UTC.
func intervalZone(iv IntervalValue) (*time.Location, error) {
	if iv.Months != 0 || iv.Days != 0 {
		return nil, pgerr.New(pgerr.InvalidParameterValue, "interval time zone \"%s\" must not include months or days", string(appendInterval(nil, iv, "postgres")))
	}
	// timestamp_izone keeps the offset in a C int: tz = -(time / USECS_PER_SEC)
	// wraps for an interval beyond ±68 years of seconds
	tz := int32(-(iv.Micros / usecsPerSec))
	return time.FixedZone("", -int(tz)), nil
}

// parseZoneOffset reads a numeric zone "+h", "+hh", "+hhmm", "+hh:mm",
// "+hh:mm:ss", "+hhmmss" into seconds east. outOfRange is PostgreSQL's
// "time zone displacement out of range".
func parseZoneOffset(z string) (east int, ok, outOfRange bool) {
	sign := 1
	if z[0] == '-' {
		sign = -1
	}
	body := z[1:]
	var h, m, s int
	if strings.Contains(body, ":") {
		parts := strings.Split(body, ":")
		if len(parts) > 3 {
			return 0, false, false
		}
		vals := [3]int{}
		for i, p := range parts {
			if p != "" {
				vals[i] = atoi(p)
			} // else DecodeTimezone's strtoint of no digits: 0 ('+1:', '+10:00:', '+:30')
		}
		h, m, s = vals[0], vals[1], vals[2]
	} else {
		switch len(body) {
		case 0: // '+': strtoint of no digits, 0
		case 1, 2:
			h = atoi(body)
		case 3, 4:
			h, m = atoi(body[:len(body)-2]), atoi(body[len(body)-2:])
		case 5, 6:
			h, m, s = atoi(body[:len(body)-4]), atoi(body[len(body)-4:len(body)-2]), atoi(body[len(body)-2:])
		default:
			return 0, false, false
		}
	}
	if h < 0 || m < 0 || s < 0 {
		return 0, false, false
	}
	if h > 15 || m > 59 || s > 59 {
		return 0, false, true
	}
	return sign * (h*3600 + m*60 + s), true, false
}

// ---- text I/O -----------------------------------------------------------------

// appendTZOffset is EncodeTimezone: +hh, +hh:mm or +hh:mm:ss.
func appendTZOffset(dst []byte, east int) []byte {
	if east < 0 {
		dst = append(dst, '-')
		east = -east
	} else {
		dst = append(dst, '+')
	}
	h, m, s := east/3600, east/60%60, east%60
	dst = pad(dst, h, 2)
	if s != 0 {
		return pad(append(pad(append(dst, ':'), m, 2), ':'), s, 2)
	}
	if m != 0 {
		return pad(append(dst, ':'), m, 2)
	}
	return dst
}

// appendTimestampTZ is timestamptz_out: the wall-clock time in loc with its
// offset (ISO) or zone abbreviation (Postgres, SQL, German styles).
func appendTimestampTZ(dst []byte, ts int64, ds dateStyle, loc *time.Location) []byte {
	if !tsFinite(ts) {
		return appendTimestamp(dst, ts, ds)
	}
	name, off := zoneAt(ts, loc)
	return appendDateTime(dst, ts+int64(off)*usecsPerSec, ds, &tzLabel{name: name, off: off})
}

// tzLabel is the zone part of a timestamptz's output.
type tzLabel struct {
	name string
	off  int
}

// appendAbbrev writes the zone for the non-ISO styles: the abbreviation,
// or the numeric offset when the zone has none that reads as a name.
func (z *tzLabel) appendAbbrev(dst []byte) []byte {
	if z.name != "" && isAlpha(z.name[0]) {
		return append(dst, z.name...)
	}
	return appendTZOffset(dst, z.off)
}

// parseTimestampTZ implements timestamptz_in: a zone in the input wins,
// otherwise the wall-clock time is read in the session zone loc.
func parseTimestampTZ(s, order string, now time.Time, loc *time.Location) (Value, error) {
	if loc == nil {
		loc = time.UTC
	}
	const typ = "timestamp with time zone"
	f, err := decodeDateTime(s, typ, order)
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
		return Value{I: nowTime(now).UnixMicro()}, nil
	}
	var wall int64
	if f.special != "" { // today, tomorrow, yesterday
		wall = f.specialDay(now, loc)*usecsPerDay + f.timeOfDay()
	} else if wall, err = fieldsToTimestamp(f, s, true); err != nil {
		return Value{}, err
	}
	var ts int64
	switch {
	case f.tzLoc != nil:
		ts = localToTZ(wall, f.tzLoc)
	case f.tz:
		ts = wall - int64(f.tzOff)*usecsPerSec
	default:
		ts = localToTZ(wall, loc)
	}
	if !tsValid(ts) {
		return Value{}, pgerr.New(pgerr.DatetimeFieldOverflow, "timestamp out of range: \"%s\"", s)
	}
	return Value{I: ts}, nil
}

// ---- operators and functions -----------------------------------------------------

// tzPlusInterval is timestamptz_pl_interval: months and days move the
// wall-clock time in the session zone (so a day across a DST change is 23 or
// 25 hours), the time part moves the instant.
func tzPlusInterval(ts int64, iv IntervalValue, loc *time.Location) (int64, error) {
	if !tsFinite(ts) {
		return ts, nil
	}
	var err error
	if iv.Months != 0 {
		wall := tzToLocal(ts, loc)
		if wall, err = timestampPlusInterval(wall, IntervalValue{Months: iv.Months}); err != nil {
			return 0, err
		}
		ts = localToTZ(wall, loc)
	}
	if iv.Days != 0 {
		wall := tzToLocal(ts, loc)
		if wall, err = timestampPlusInterval(wall, IntervalValue{Days: iv.Days}); err != nil {
			return 0, err
		}
		ts = localToTZ(wall, loc)
	}
	r, ok := addInt64(ts, iv.Micros)
	if !ok || !tsValid(r) {
		return 0, errTimestampOutOfRange()
	}
	return r, nil
}

// TimestampPlusInterval is timestamp + interval (timestamp_pl_interval;
// generate_series over timestamps steps with it).
func TimestampPlusInterval(ts int64, iv IntervalValue) (int64, error) {
	return timestampPlusInterval(ts, iv)
}

// TimestampTZPlusInterval is timestamptz + interval in ctx's TimeZone
// (generate_series over timestamptz steps with it).
func TimestampTZPlusInterval(ctx *EvalContext, ts int64, iv IntervalValue) (int64, error) {
	return tzPlusInterval(ts, iv, ctxZone(ctx))
}

// truncTimestampTZ is timestamptz_trunc: truncation happens on the wall-clock
// time in loc; units of a day or more take the offset of the truncated time,
// smaller units keep the original offset (PostgreSQL's redotz).
func truncTimestampTZ(unitIn string, ts int64, loc *time.Location) (int64, error) {
	unit, ok := unitAliases[strings.ToLower(unitIn)]
	if !ok {
		return 0, unitErr(unitIn, TimestampTZType, false)
	}
	if !tsFinite(ts) {
		return ts, nil
	}
	_, off := zoneAt(ts, loc)
	r, err := truncTimestamp(unitIn, ts+int64(off)*usecsPerSec)
	if err != nil {
		return 0, unitErr(unitIn, TimestampTZType, true)
	}
	switch unit {
	case "hour", "minute", "second", "milliseconds", "microseconds":
		return r - int64(off)*usecsPerSec, nil
	}
	return localToTZ(r, loc), nil
}

// extractTimestampTZ is extract(field from timestamptz): fields of the
// wall-clock time in loc, epoch of the instant, and the zone's offset.
func extractTimestampTZ(unitIn string, ts int64, loc *time.Location) (*apd.Decimal, bool, error) {
	unit, ok := unitAliases[strings.ToLower(unitIn)]
	if !ok {
		return nil, false, unitErr(unitIn, TimestampTZType, false)
	}
	if !tsFinite(ts) {
		switch unit {
		case "epoch", "year", "decade", "century", "millennium", "julian", "isoyear":
			return &apd.Decimal{Form: apd.Infinite, Negative: ts < 0}, true, nil
		}
		return nil, false, nil
	}
	_, off := zoneAt(ts, loc)
	switch unit {
	case "epoch":
		return dec(ts, 6), true, nil
	case "timezone":
		return dec(int64(off), 0), true, nil
	case "timezone_hour":
		return dec(int64(off/3600), 0), true, nil
	case "timezone_minute":
		return dec(int64(off/60%60), 0), true, nil
	}
	d, ok, err := extractTimestamp(unitIn, ts+int64(off)*usecsPerSec, TimestampTZType)
	return d, ok, err
}

// toTimestamp is to_timestamp(double precision) (float8_timestamptz),
// rounding in PostgreSQL's epoch as it does.
func toTimestamp(sec float64) (Value, error) {
	switch {
	case math.IsNaN(sec):
		return Value{}, pgerr.New(pgerr.DatetimeFieldOverflow, "timestamp cannot be NaN")
	case math.IsInf(sec, 1):
		return Value{I: TimestampInfinity}, nil
	case math.IsInf(sec, -1):
		return Value{I: TimestampNegInfinity}, nil
	}
	const timestampEndJulian = 109203528 // 294277-01-01
	bad := func() error {
		return pgerr.New(pgerr.DatetimeFieldOverflow, "timestamp out of range: \"%s\"", formatCG(sec))
	}
	if sec < -86400*float64(unixEpochJD) || sec >= 86400*float64(timestampEndJulian-unixEpochJD) {
		return Value{}, bad()
	}
	us := math.RoundToEven((sec - float64(pgEpochUnixUsec/usecsPerSec)) * 1e6)
	r := int64(us) + pgEpochUnixUsec
	if !tsValid(r) {
		return Value{}, bad()
	}
	return Value{I: r}, nil
}

// formatCG is C's "%g".
func formatCG(f float64) string {
	s := strconv.FormatFloat(f, 'g', 6, 64)
	if k := strings.IndexByte(s, 'e'); k >= 0 {
		mant, exp := s[:k], s[k+1:]
		if strings.Contains(mant, ".") {
			mant = strings.TrimRight(strings.TrimRight(mant, "0"), ".")
		}
		return mant + "e" + exp
	}
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}

func registerTimestampTZOps() {
	tsv := func(r int64, err error) (Value, error) { return Value{I: r}, err }
	regOp("+", []ID{TimestampTZ, Interval}, TimestampTZ, func(c *EvalContext, a []Value) (Value, error) {
		return tsv(tzPlusInterval(a[0].I, a[1].Iv, ctxZone(c)))
	})
	regOp("+", []ID{Interval, TimestampTZ}, TimestampTZ, func(c *EvalContext, a []Value) (Value, error) {
		return tsv(tzPlusInterval(a[1].I, a[0].Iv, ctxZone(c)))
	})
	regOp("-", []ID{TimestampTZ, Interval}, TimestampTZ, func(c *EvalContext, a []Value) (Value, error) {
		n, err := intervalNeg(a[1].Iv)
		if err != nil {
			return Value{}, err
		}
		return tsv(tzPlusInterval(a[0].I, n, ctxZone(c)))
	})
	regOp("-", []ID{TimestampTZ, TimestampTZ}, Interval, func(_ *EvalContext, a []Value) (Value, error) {
		r, err := timestampMinus(a[0].I, a[1].I)
		return Value{Iv: r}, err
	})
	// timestamp/date against timestamptz: the zone-less side is read in the
	// session zone (timestamp_cmp_timestamptz, date_cmp_timestamptz).
	asTZ := func(v Value, id ID, loc *time.Location) int64 {
		switch id {
		case Date:
			ts := dateToTimestamp(v.I)
			if !tsFinite(ts) || ts == TimestampInfinity-1 {
				return ts // infinite, or saturated past the last timestamp
			}
			return localToTZ(ts, loc)
		case Timestamp:
			return localToTZ(v.I, loc)
		}
		return v.I
	}
	for _, pair := range [][2]ID{{Timestamp, TimestampTZ}, {TimestampTZ, Timestamp}, {Date, TimestampTZ}, {TimestampTZ, Date}} {
		l, r := pair[0], pair[1]
		for _, op := range cmpOps {
			op := op
			regOp(op, []ID{l, r}, Bool, func(c *EvalContext, a []Value) (Value, error) {
				loc := ctxZone(c)
				return BoolValue(cmpResult(op, cmpInt(asTZ(a[0], l, loc), asTZ(a[1], r, loc)))), nil
			})
		}
	}
}

func registerTimestampTZFuncs() {
	now := func(c *EvalContext, _ []Value) (Value, error) { return Value{I: ctxNow(c).UnixMicro()}, nil }
	for _, name := range []string{"now", "current_timestamp", "transaction_timestamp"} {
		regFn(name, nil, TimestampTZ, now)
	}
	regFn("statement_timestamp", nil, TimestampTZ, func(c *EvalContext, _ []Value) (Value, error) {
		if c != nil && !c.StatementNow.IsZero() {
			return Value{I: c.StatementNow.UnixMicro()}, nil
		}
		return now(c, nil)
	})
	regFn("current_timestamp", []ID{Int4}, TimestampTZ, func(c *EvalContext, a []Value) (Value, error) {
		return Value{I: roundTimestamp(ctxNow(c).UnixMicro(), int32(min(max(a[0].I, 0), 6)))}, nil
	})
	regFn("localtimestamp", []ID{Int4}, Timestamp, func(c *EvalContext, a []Value) (Value, error) {
		n := ctxNow(c)
		_, off := n.Zone()
		return Value{I: roundTimestamp(n.UnixMicro()+int64(off)*usecsPerSec, int32(min(max(a[0].I, 0), 6)))}, nil
	})
	b := regFn("clock_timestamp", nil, TimestampTZ, func(_ *EvalContext, _ []Value) (Value, error) {
		return Value{I: time.Now().UnixMicro()}, nil
	})
	b.volatile = true
	regFn("to_timestamp", []ID{Float8}, TimestampTZ, func(_ *EvalContext, a []Value) (Value, error) { return toTimestamp(a[0].F) })

	numRes := func(d *apd.Decimal, ok bool, err error) (Value, error) {
		if err != nil || !ok {
			if err == nil {
				return NullValue, nil
			}
			return Value{}, err
		}
		return Value{Num: d}, nil
	}
	regFn("extract", []ID{Text, TimestampTZ}, Numeric, func(c *EvalContext, a []Value) (Value, error) {
		return numRes(extractTimestampTZ(a[0].S, a[1].I, ctxZone(c)))
	})
	regFn("date_part", []ID{Text, TimestampTZ}, Float8, func(c *EvalContext, a []Value) (Value, error) {
		v, err := numRes(extractTimestampTZ(a[0].S, a[1].I, ctxZone(c)))
		if err != nil || v.Null {
			return v, err
		}
		return Value{F: numericToFloat(v.Num, 64)}, nil
	})
	regFn("date_trunc", []ID{Text, TimestampTZ}, TimestampTZ, func(c *EvalContext, a []Value) (Value, error) {
		return tsvErr(truncTimestampTZ(a[0].S, a[1].I, ctxZone(c)))
	})
	regFn("date_trunc", []ID{Text, TimestampTZ, Text}, TimestampTZ, func(_ *EvalContext, a []Value) (Value, error) {
		loc, err := zoneArg(a[2].S)
		if err != nil {
			return Value{}, err
		}
		return tsvErr(truncTimestampTZ(a[0].S, a[1].I, loc))
	})
	regFn("age", []ID{TimestampTZ, TimestampTZ}, Interval, func(c *EvalContext, a []Value) (Value, error) {
		loc := ctxZone(c)
		return Value{Iv: age(tzToLocal(a[0].I, loc), tzToLocal(a[1].I, loc))}, nil
	})
	// AT TIME ZONE is timezone(zone, value).
	regFn("timezone", []ID{Text, Timestamp}, TimestampTZ, func(_ *EvalContext, a []Value) (Value, error) {
		loc, err := zoneArg(a[0].S)
		if err != nil {
			return Value{}, err
		}
		return tsvErr(localToTZChecked(a[1].I, loc))
	})
	regFn("timezone", []ID{Text, TimestampTZ}, Timestamp, func(_ *EvalContext, a []Value) (Value, error) {
		loc, err := zoneArg(a[0].S)
		if err != nil {
			return Value{}, err
		}
		return tsvErr(tzToLocalChecked(a[1].I, loc))
	})
	regFn("timezone", []ID{Interval, Timestamp}, TimestampTZ, func(_ *EvalContext, a []Value) (Value, error) {
		loc, err := intervalZone(a[0].Iv)
		if err != nil {
			return Value{}, err
		}
		return tsvErr(localToTZChecked(a[1].I, loc))
	})
	regFn("timezone", []ID{Interval, TimestampTZ}, Timestamp, func(_ *EvalContext, a []Value) (Value, error) {
		loc, err := intervalZone(a[0].Iv)
		if err != nil {
			return Value{}, err
		}
		return tsvErr(tzToLocalChecked(a[1].I, loc))
	})
}

func tsvErr(r int64, err error) (Value, error) {
	if err != nil {
		return Value{}, err
	}
	return Value{I: r}, nil
}

func tzToLocalChecked(ts int64, loc *time.Location) (int64, error) {
	r := tzToLocal(ts, loc)
	if tsFinite(ts) && !tsValid(r) {
		return 0, errTimestampOutOfRange()
	}
	return r, nil
}
