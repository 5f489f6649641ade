package types

import (
	"math"
	"strings"
	"time"

	"github.com/cockroachdb/apd/v3"
	"github.com/joind/joind/pgerr"
)

// time without time zone (PostgreSQL's TimeADT): microseconds since
// midnight, 00:00:00 through 24:00:00 inclusive. Input is DecodeTimeOnly's
// grammar (decodeTimeOnly below), shared with timetz.

// timeFields is decoded time-of-day input.
type timeFields struct {
	tod int64 // µs since midnight
	// The zone given in the input, if any (zone is seconds east of UTC);
	// a zone name (zoneLoc) resolves through the date, when there is one.
	tz      bool
	zoneOff int
	zoneLoc *time.Location
	// zoneAbbrev: zoneLoc is a dynamic abbreviation's, which needs no
	// date (today's meaning applies).
	zoneAbbrev bool
	// A complete date given before the time (days since 1970-01-01).
	haveDate bool
	date     int64
	now      bool // 'now': the statement's current time
}

// decodeTimeOnly is PostgreSQL's DecodeTimeOnly for time and timetz input
// (typ names the type in error messages). A date may precede the time; it
// only matters for resolving a zone name.
func decodeTimeOnly(in, typ, order string) (timeFields, error) {
	var r timeFields
	s := strings.TrimSpace(in)
	switch strings.ToLower(s) {
	case "now":
		r.now = true
		return r, nil
	case "allballs":
		r.tz = true
		return r, nil
	}
	// ISO 8601 "T" between a date and a time.
	if k := strings.IndexAny(s, "Tt"); k >= 8 && k+1 < len(s) && isDigit(s[k-1]) && isDigit(s[k+1]) {
		s = s[:k] + " " + s[k+1:]
	}
	toks, ok := tokenizeDateTime(s)
	if !ok || len(toks) == 0 {
		return r, dtSyntaxErr(typ, in)
	}
	var f dtFields
	da := &dateAsg{order: order}
	haveTime, pm, am, isoT := false, false, false, false
	setTime := func(h, mi, sec int, fsec int64) error {
		if haveTime {
			return dtSyntaxErr(typ, in)
		}
		haveTime = true
		f.h, f.mi, f.s, f.fsec = h, mi, sec, fsec
		return nil
	}
	for idx, t := range toks {
		switch t.kind {
		case 'd':
			if e := da.date(t.s); e != dtOK {
				return r, dtErrFor(e, typ, in)
			}
		case 't':
			if haveTime {
				return r, dtSyntaxErr(typ, in)
			}
			var tf dtFields
			if err := decodeTime(&tf, t.s, in, typ); err != nil {
				return r, err
			}
			if err := setTime(tf.h, tf.mi, tf.s, tf.fsec); err != nil {
				return r, err
			}
		case 'z':
			if r.tz {
				return r, dtSyntaxErr(typ, in)
			}
			off, err := zoneOffsetField(t.s, in, typ)
			if err != nil {
				return r, err
			}
			r.tz, r.zoneOff = true, off
		case 'Z':
			if idx == 0 && len(toks) >= 2 && (toks[len(toks)-1].kind == 'd' || toks[1].kind == 't') {
				// DecodeTimeOnly reads a leading date field before a time
				// as a date, not a zone
				if e := da.date(t.s); e != dtOK {
					return r, dtErrFor(e, typ, in)
				}
				continue
			}
			if r.tz {
				return r, dtSyntaxErr(typ, in)
			}
			loc, err := loadZoneName(t.s)
			if err != nil {
				return r, pgerr.New(pgerr.InvalidParameterValue, "time zone \"%s\" not recognized", strings.ToLower(t.s))
			}
			r.tz, r.zoneLoc = true, loc
		case 'n':
			// DecodeNumberField: hhmmss[.f] (or hhmm) run together, after
			// "T" or when longer than a date field can be.
			num, frac := t.s, ""
			if k := strings.IndexByte(num, '.'); k >= 0 {
				num, frac = num[:k], num[k:]
			}
			if isoT || len(num) > 4 || (frac != "" && len(num) > 2) {
				if len(num) != 6 && len(num) != 4 {
					return r, dtSyntaxErr(typ, in)
				}
				var fsec int64
				if frac != "" {
					v := parseFracSeconds(frac[1:])
					if v < 0 {
						return r, dtSyntaxErr(typ, in)
					}
					fsec = v
				}
				sec := 0
				if len(num) == 6 {
					sec = atoi(num[4:])
				}
				if err := setTime(atoi(num[:2]), atoi(num[2:4]), sec, fsec); err != nil {
					return r, err
				}
				isoT = false
				continue
			}
			if frac != "" {
				return r, dtSyntaxErr(typ, in)
			}
			if e := da.number(num); e != dtOK {
				return r, dtErrFor(e, typ, in)
			}
		case 'w':
			switch {
			case t.s == "am":
				am = true
			case t.s == "pm":
				pm = true
			case t.s == "t":
				isoT = true
			case t.s == "z" || t.s == "zulu" || t.s == "allballs":
				if r.tz {
					return r, dtSyntaxErr(typ, in)
				}
				r.tz, r.zoneOff = true, 0
				if t.s == "allballs" {
					if err := setTime(0, 0, 0, 0); err != nil {
						return r, err
					}
				}
			case zoneAbbrevs[t.s] != nil && monthByName(t.s) == 0 && !isDayName(t.s):
				if r.tz {
					return r, dtSyntaxErr(typ, in)
				}
				r.tz, r.zoneOff, r.zoneLoc = true, *zoneAbbrevs[t.s], dynamicAbbrevZone(t.s)
				r.zoneAbbrev = r.zoneLoc != nil
			case monthByName(t.s) > 0 && da.fmask&daMonth == 0:
				da.m, da.fmask, da.textMonth = monthByName(t.s), da.fmask|daMonth, true
			case t.s == "bc" || t.s == "ad" || isDayName(t.s):
			default:
				return r, dtSyntaxErr(typ, in)
			}
		}
	}
	if da.fmask != 0 {
		if da.fmask != daDate {
			return r, dtSyntaxErr(typ, in)
		}
		y := da.y
		if da.is2digits {
			if y < 70 {
				y += 2000
			} else if y < 100 {
				y += 1900
			}
		}
		if da.m < 1 || da.m > 12 || da.d < 1 || da.d > daysIn(y, da.m) {
			return r, dtRangeErr(in)
		}
		r.haveDate, r.date = true, DateFromYMD(y, da.m, da.d)
	}
	if !haveTime && !r.tz {
		return r, dtSyntaxErr(typ, in)
	}
	if pm || am {
		if f.h > 12 {
			return r, dtRangeErr(in)
		}
		if pm && f.h < 12 {
			f.h += 12
		} else if am && f.h == 12 {
			f.h = 0
		}
	}
	if f.h < 0 || f.mi < 0 || f.mi > 59 || f.s < 0 || f.s > 60 || f.fsec < 0 || f.fsec > usecsPerSec {
		return r, dtRangeErr(in)
	}
	r.tod = int64(f.h)*usecsPerHour + int64(f.mi)*usecsPerMinute + int64(f.s)*usecsPerSec + f.fsec
	if r.tod > usecsPerDay {
		return r, dtRangeErr(in) // time_overflows: past 24:00:00
	}
	if r.zoneLoc != nil && !r.haveDate && !r.zoneAbbrev {
		return r, dtSyntaxErr(typ, in) // a zone name needs a date to fix its offset
	}
	return r, nil
}

// parseFracSeconds reads the digits after a decimal point as rounded
// microseconds, or -1 when they are not all digits.
func parseFracSeconds(digits string) int64 {
	var f dtFields
	if err := decodeTime(&f, "0:0:0."+digits, "", ""); err != nil || digits == "" {
		return -1
	}
	return f.fsec
}

// zoneOffsetOn resolves the zone of decoded time input to seconds east: the
// zone given, or loc's offset on the given date (or today's, in loc) at that
// time of day, as DetermineTimeZoneOffset does.
func (r timeFields) zoneOffsetOn(loc *time.Location, now time.Time) int {
	if r.tz && r.zoneLoc == nil {
		return r.zoneOff
	}
	if r.zoneLoc != nil {
		loc = r.zoneLoc
	}
	date := r.date
	if !r.haveDate {
		n := nowTime(now).In(locOrUTC(loc))
		date = DateFromYMD(n.Year(), int(n.Month()), n.Day())
	}
	wall := date*usecsPerDay + r.tod
	return int((wall - localToTZ(wall, loc)) / usecsPerSec)
}

func locOrUTC(loc *time.Location) *time.Location {
	if loc == nil {
		return time.UTC
	}
	return loc
}

// nowTimeOfDay is the statement's current time of day in loc, with its
// UTC offset (seconds east).
func nowTimeOfDay(now time.Time, loc *time.Location) (int64, int) {
	n := nowTime(now).In(locOrUTC(loc))
	_, off := n.Zone()
	tod := int64(n.Hour())*usecsPerHour + int64(n.Minute())*usecsPerMinute + int64(n.Second())*usecsPerSec + int64(n.Nanosecond()/1000)
	return tod, off
}

// parseTime is time_in.
func parseTime(s string, typmod int32, order string, now time.Time, loc *time.Location) (Value, error) {
	r, err := decodeTimeOnly(s, "time", order)
	if err != nil {
		return Value{}, err
	}
	tod := r.tod
	if r.now {
		tod, _ = nowTimeOfDay(now, loc)
	}
	return Value{I: roundTime(tod, typmod)}, nil
}

// roundTime is AdjustTimeForTypmod.
func roundTime(us int64, typmod int32) int64 { return roundTimestamp(us, typmod) }

// appendTime is EncodeTimeOnly without a zone: HH:MM:SS[.ffffff].
func appendTime(dst []byte, us int64) []byte {
	h := us / usecsPerHour
	us -= h * usecsPerHour
	m := us / usecsPerMinute
	us -= m * usecsPerMinute
	dst = pad(append(pad(dst, int(h), 2), ':'), int(m), 2)
	return appendSeconds(append(dst, ':'), us/usecsPerSec, us%usecsPerSec, true)
}

// timeTypmodIn checks time(p)'s and timetz(p)'s precision as
// anytime_typmod_check does (p > 6 is reduced to 6).
func timeTypmodIn(typmods []int32, tz bool) (int32, error) {
	if len(typmods) != 1 {
		return 0, pgerr.New(pgerr.InvalidParameterValue, "invalid type modifier")
	}
	p := typmods[0]
	if p < 0 {
		s := ""
		if tz {
			s = " WITH TIME ZONE"
		}
		return 0, pgerr.New(pgerr.InvalidParameterValue, "TIME(%d)%s precision must not be negative", p, s)
	}
	return min(p, 6), nil
}

// timeOfDay wraps µs into one day: time ± interval never leaves 0..24h
// (time_pl_interval), and 24:00:00 + 0 is 00:00:00.
func timeOfDay(us int64) int64 {
	us -= us / usecsPerDay * usecsPerDay
	if us < 0 {
		us += usecsPerDay
	}
	return us
}

// intervalToTime is interval_time: the interval's time part, wrapped into
// one day.
func intervalToTime(iv IntervalValue) int64 {
	r := iv.Micros
	if r >= usecsPerDay {
		r -= r / usecsPerDay * usecsPerDay
	} else if r < 0 {
		days := (-r + usecsPerDay - 1) / usecsPerDay
		r += days * usecsPerDay
	}
	return r
}

// dateTimeToTimestamp is datetime_timestamp: date + time.
func dateTimeToTimestamp(d, tod int64) (int64, error) {
	ts, err := dateToTimestampChecked(d)
	if err != nil || !tsFinite(ts) {
		return ts, err
	}
	ts += tod
	if !tsValid(ts) {
		return 0, errTimestampOutOfRange()
	}
	return ts, nil
}

// timestampTimeOfDay is the time part of a finite wall-clock timestamp.
func timestampTimeOfDay(ts int64) int64 { return ts - floorDiv(ts, usecsPerDay)*usecsPerDay }

// extractTime is extract(unit from time) (time_part_common): the time-of-day
// units and epoch; every other known unit is "not supported".
func extractTime(unitIn string, us int64, t Type) (*apd.Decimal, error) {
	unit, ok := unitAliases[strings.ToLower(unitIn)]
	if !ok {
		return nil, unitErr(unitIn, t, false)
	}
	h := us / usecsPerHour
	m := us / usecsPerMinute % 60
	secUs := us % usecsPerMinute
	switch unit {
	case "microseconds":
		return dec(secUs, 0), nil
	case "milliseconds":
		return dec(secUs, 3), nil
	case "second":
		return dec(secUs, 6), nil
	case "minute":
		return dec(m, 0), nil
	case "hour":
		return dec(h, 0), nil
	case "epoch":
		return dec(us, 6), nil
	}
	return nil, unitErr(unitIn, t, true)
}

// timeFromFields is make_time.
func makeTime(h, m int64, sec float64) (int64, error) {
	// make_time's check is float_time_overflows: 0 <= time <= 24:00:00.
	if h < 0 || m < 0 || m > 59 || math.IsNaN(sec) || sec < 0 || sec > 60 ||
		float64(h*usecsPerHour+m*usecsPerMinute)+sec*1e6 > float64(usecsPerDay) {
		return 0, pgerr.New(pgerr.DatetimeFieldOverflow, "time field value out of range: %d:%02d:%02g", h, m, sec)
	}
	return h*usecsPerHour + m*usecsPerMinute + int64(math.RoundToEven(sec*1e6)), nil
}

func registerTimeOps() {
	for _, op := range cmpOps {
		regOp(op, []ID{Time, Time}, Bool, cmpEval(op, TimeType))
		regOp(op, []ID{TimeTZ, TimeTZ}, Bool, cmpEval(op, TimeTZType))
	}
	plusIv := func(sign int64) evalFn {
		return func(_ *EvalContext, a []Value) (Value, error) {
			return Value{I: timeOfDay(a[0].I + sign*a[1].Iv.Micros%usecsPerDay)}, nil
		}
	}
	regOp("+", []ID{Time, Interval}, Time, plusIv(1))
	regOp("-", []ID{Time, Interval}, Time, plusIv(-1))
	regOp("+", []ID{Interval, Time}, Time, func(c *EvalContext, a []Value) (Value, error) {
		return plusIv(1)(c, []Value{a[1], a[0]})
	})
	regOp("-", []ID{Time, Time}, Interval, func(_ *EvalContext, a []Value) (Value, error) {
		return Value{Iv: IntervalValue{Micros: a[0].I - a[1].I}}, nil
	})
	dateTime := func(_ *EvalContext, a []Value) (Value, error) { return tsvErr(dateTimeToTimestamp(a[0].I, a[1].I)) }
	regOp("+", []ID{Date, Time}, Timestamp, dateTime)
	regOp("+", []ID{Time, Date}, Timestamp, func(c *EvalContext, a []Value) (Value, error) {
		return dateTime(c, []Value{a[1], a[0]})
	})
	registerTimeTZOps()
}

func registerTimeFuncs() {
	extract := func(numeric bool, t Type, us func(Value) int64) evalFn {
		return func(_ *EvalContext, a []Value) (Value, error) {
			d, err := extractTime(a[0].S, us(a[1]), t)
			if err != nil {
				return Value{}, err
			}
			if numeric {
				return Value{Num: d}, nil
			}
			return Value{F: numericToFloat(d, 64)}, nil
		}
	}
	tod := func(v Value) int64 { return v.I }
	regFn("extract", []ID{Text, Time}, Numeric, extract(true, TimeType, tod))
	regFn("date_part", []ID{Text, Time}, Float8, extract(false, TimeType, tod))
	regFn("make_time", []ID{Int4, Int4, Float8}, Time, func(_ *EvalContext, a []Value) (Value, error) {
		return tsvErr(makeTime(a[0].I, a[1].I, a[2].F))
	}).withParams([]string{"hour", "min", "sec"})
	regFn("timestamp", []ID{Date, Time}, Timestamp, func(_ *EvalContext, a []Value) (Value, error) {
		return tsvErr(dateTimeToTimestamp(a[0].I, a[1].I))
	})
	regFn("timestamptz", []ID{Date, Time}, TimestampTZ, func(c *EvalContext, a []Value) (Value, error) {
		ts, err := dateTimeToTimestamp(a[0].I, a[1].I)
		if err != nil {
			return Value{}, err
		}
		return tsvErr(localToTZChecked(ts, ctxZone(c)))
	})
	regFn("localtime", nil, Time, func(c *EvalContext, _ []Value) (Value, error) {
		t, _ := nowTimeOfDay(c.nowOrZero(), ctxZone(c))
		return Value{I: t}, nil
	})
	regFn("localtime", []ID{Int4}, Time, func(c *EvalContext, a []Value) (Value, error) {
		t, _ := nowTimeOfDay(c.nowOrZero(), ctxZone(c))
		return Value{I: roundTime(t, int32(min(max(a[0].I, 0), 6)))}, nil
	})
	registerTimeTZFuncs()
}

func (c *EvalContext) nowOrZero() time.Time {
	if c == nil {
		return time.Time{}
	}
	return c.Now
}

// castTimeKind converts to or from time and timetz (ok false: neither side
// is one of them, or PostgreSQL has no such cast).
func castTimeKind(ctx *EvalContext, v Value, from, to Type) (Value, bool, error) {
	switch to.ID {
	case Time:
		switch from.ID {
		case Time:
			return Value{I: roundTime(v.I, to.Typmod)}, true, nil
		case TimeTZ:
			return Value{I: roundTime(unpackTimeTZ(v.I).time, to.Typmod)}, true, nil
		case Timestamp, TimestampTZ:
			if !tsFinite(v.I) {
				return NullValue, true, nil // timestamp_time: an infinite timestamp has no time
			}
			ts := v.I
			if from.ID == TimestampTZ {
				ts = tzToLocal(ts, ctxZone(ctx))
			}
			return Value{I: roundTime(timestampTimeOfDay(ts), to.Typmod)}, true, nil
		case Interval:
			return Value{I: roundTime(intervalToTime(v.Iv), to.Typmod)}, true, nil
		}
	case TimeTZ:
		switch from.ID {
		case TimeTZ:
			tz := unpackTimeTZ(v.I)
			return Value{I: packTimeTZ(roundTime(tz.time, to.Typmod), tz.zone)}, true, nil
		case Time:
			tf := timeFields{tod: v.I}
			off := tf.zoneOffsetOn(ctxZone(ctx), ctx.nowOrZero())
			return Value{I: packTimeTZ(roundTime(v.I, to.Typmod), -off)}, true, nil
		case TimestampTZ:
			if !tsFinite(v.I) {
				return NullValue, true, nil
			}
			_, off := zoneAt(v.I, ctxZone(ctx))
			local := v.I + int64(off)*usecsPerSec
			return Value{I: packTimeTZ(roundTime(timestampTimeOfDay(local), to.Typmod), -off)}, true, nil
		}
	case Interval:
		if from.ID == Time {
			return Value{Iv: IntervalValue{Micros: v.I}}, true, nil
		}
	}
	return Value{}, false, nil
}
