package types

import (
	"strings"
	"time"

	"github.com/cockroachdb/apd/v3"
	"github.com/joind/joind/pgerr"
)

// time with time zone (PostgreSQL's TimeTzADT: a time of day and a zone in
// seconds WEST of UTC). joind packs both into one int64 whose integer order
// is timetz_cmp_internal's: first the UTC time (time + zone), then the zone.
// So equal packed values are equal timetz values, and sorting, hashing,
// join keys and min/max treat timetz as a plain int64.
//
//	packed = (time + zone·10⁶ + tzPackBias·10⁶) << 17 | (zone + tzPackBias)
//
// where |zone| ≤ 57600 (TZDISP_LIMIT, 16 hours) so zone + bias fits 17 bits.

const (
	tzDispLimit = 16 * 3600
	tzPackBias  = tzDispLimit
	tzPackBits  = 17
)

type timeTZValue struct {
	time int64 // µs since local midnight
	zone int   // seconds west of UTC
}

func packTimeTZ(tod int64, zone int) int64 {
	return (tod+int64(zone)*usecsPerSec+tzPackBias*usecsPerSec)<<tzPackBits | int64(zone+tzPackBias)
}

func unpackTimeTZ(p int64) timeTZValue {
	zone := int(p&(1<<tzPackBits-1)) - tzPackBias
	utc := p>>tzPackBits - tzPackBias*usecsPerSec
	return timeTZValue{time: utc - int64(zone)*usecsPerSec, zone: zone}
}

// parseTimeTZ is timetz_in: without a zone in the input, the session zone's
// offset on the given date (or today) applies.
func parseTimeTZ(s string, typmod int32, order string, now time.Time, loc *time.Location) (Value, error) {
	r, err := decodeTimeOnly(s, "time with time zone", order)
	if err != nil {
		return Value{}, err
	}
	if r.now {
		tod, off := nowTimeOfDay(now, loc)
		return Value{I: packTimeTZ(roundTime(tod, typmod), -off)}, nil
	}
	off := r.zoneOffsetOn(loc, now)
	return Value{I: packTimeTZ(roundTime(r.tod, typmod), -off)}, nil
}

// appendTimeTZ is timetz_out: the time and its offset, in every DateStyle.
func appendTimeTZ(dst []byte, p int64) []byte {
	v := unpackTimeTZ(p)
	return appendTZOffset(appendTime(dst, v.time), -v.zone)
}

// rezone is timetz_zone's arithmetic: the same instant in another zone
// (seconds west), wrapped into one day.
func (v timeTZValue) rezone(zone int) int64 {
	return packTimeTZ(timeOfDay(v.time+int64(v.zone-zone)*usecsPerSec), zone)
}

func registerTimeTZOps() {
	plusIv := func(sign int64) evalFn {
		return func(_ *EvalContext, a []Value) (Value, error) {
			v := unpackTimeTZ(a[0].I)
			return Value{I: packTimeTZ(timeOfDay(v.time+sign*(a[1].Iv.Micros%usecsPerDay)), v.zone)}, nil
		}
	}
	regOp("+", []ID{TimeTZ, Interval}, TimeTZ, plusIv(1))
	regOp("-", []ID{TimeTZ, Interval}, TimeTZ, plusIv(-1))
	regOp("+", []ID{Interval, TimeTZ}, TimeTZ, func(c *EvalContext, a []Value) (Value, error) {
		return plusIv(1)(c, []Value{a[1], a[0]})
	})
	dateTimeTZ := func(_ *EvalContext, a []Value) (Value, error) { return tsvErr(dateTimeTZToTimestampTZ(a[0].I, a[1].I)) }
	regOp("+", []ID{Date, TimeTZ}, TimestampTZ, dateTimeTZ)
	regOp("+", []ID{TimeTZ, Date}, TimestampTZ, func(c *EvalContext, a []Value) (Value, error) {
		return dateTimeTZ(c, []Value{a[1], a[0]})
	})
}

// dateTimeTZToTimestampTZ is datetimetz_timestamptz: date + timetz.
func dateTimeTZToTimestampTZ(d, p int64) (int64, error) {
	switch d {
	case DateInfinity:
		return TimestampInfinity, nil
	case DateNegInfinity:
		return TimestampNegInfinity, nil
	}
	v := unpackTimeTZ(p)
	if d > maxTimestampDate {
		return 0, errTimestampOutOfRange()
	}
	ts := d*usecsPerDay + v.time + int64(v.zone)*usecsPerSec
	if !tsValid(ts) {
		return 0, errTimestampOutOfRange()
	}
	return ts, nil
}

// extractTimeTZ is extract(unit from timetz): time's units, the zone's, and
// epoch as the UTC time of day.
func extractTimeTZ(unitIn string, p int64) (*apd.Decimal, error) {
	v := unpackTimeTZ(p)
	switch unitAliases[strings.ToLower(unitIn)] {
	case "timezone":
		return dec(int64(-v.zone), 0), nil
	case "timezone_hour":
		return dec(int64(-v.zone/3600), 0), nil
	case "timezone_minute":
		return dec(int64(-v.zone/60%60), 0), nil
	case "epoch":
		return dec(v.time+int64(v.zone)*usecsPerSec, 6), nil
	}
	return extractTime(unitIn, v.time, TimeTZType)
}

// zoneWestNow is the zone argument of timezone(text, timetz) in seconds
// west: an abbreviation's fixed offset, or a zone's offset at now (timetz
// has no date to consult).
func zoneWestNow(name string, now time.Time) (int, error) {
	loc, err := zoneArg(name)
	if err != nil {
		return 0, err
	}
	_, off := nowTime(now).In(loc).Zone()
	return -off, nil
}

func registerTimeTZFuncs() {
	regFn("extract", []ID{Text, TimeTZ}, Numeric, func(_ *EvalContext, a []Value) (Value, error) {
		d, err := extractTimeTZ(a[0].S, a[1].I)
		return Value{Num: d}, err
	})
	regFn("date_part", []ID{Text, TimeTZ}, Float8, func(_ *EvalContext, a []Value) (Value, error) {
		if unitAliases[strings.ToLower(a[0].S)] == "epoch" {
			// timetz_part's float path: time / 1e6 + zone, in float8
			// (so 12:34:56.789+05:30 gives 25496.788999999997).
			v := unpackTimeTZ(a[1].I)
			return Value{F: float64(v.time)/1000000.0 + float64(v.zone)}, nil
		}
		d, err := extractTimeTZ(a[0].S, a[1].I)
		if err != nil {
			return Value{}, err
		}
		return Value{F: numericToFloat(d, 64)}, nil
	})
	regFn("timestamptz", []ID{Date, TimeTZ}, TimestampTZ, func(_ *EvalContext, a []Value) (Value, error) {
		return tsvErr(dateTimeTZToTimestampTZ(a[0].I, a[1].I))
	})
	regFn("timezone", []ID{Text, TimeTZ}, TimeTZ, func(c *EvalContext, a []Value) (Value, error) {
		zone, err := zoneWestNow(a[0].S, c.nowOrZero())
		if err != nil {
			return Value{}, err
		}
		return Value{I: unpackTimeTZ(a[1].I).rezone(zone)}, nil
	})
	regFn("timezone", []ID{Interval, TimeTZ}, TimeTZ, func(_ *EvalContext, a []Value) (Value, error) {
		if a[0].Iv.Months != 0 || a[0].Iv.Days != 0 {
			return Value{}, pgerr.New(pgerr.InvalidParameterValue, "interval time zone \"%s\" must not include months or days", string(appendInterval(nil, a[0].Iv, "postgres")))
		}
		zone := int(int32(-(a[0].Iv.Micros / usecsPerSec)))
		if zone > tzDispLimit || zone < -tzDispLimit {
			// PostgreSQL keeps such a zone; joind's packed timetz cannot.
			return Value{}, pgerr.New(pgerr.FeatureNotSupported, "a time with time zone offset beyond 16 hours is not supported")
		}
		return Value{I: unpackTimeTZ(a[1].I).rezone(zone)}, nil
	})
	timetzNow := func(c *EvalContext, typmod int32) Value {
		tod, off := nowTimeOfDay(c.nowOrZero(), ctxZone(c))
		return Value{I: packTimeTZ(roundTime(tod, typmod), -off)}
	}
	regFn("current_time", nil, TimeTZ, func(c *EvalContext, _ []Value) (Value, error) { return timetzNow(c, -1), nil })
	regFn("current_time", []ID{Int4}, TimeTZ, func(c *EvalContext, a []Value) (Value, error) {
		return timetzNow(c, int32(min(max(a[0].I, 0), 6))), nil
	})
}

// TimeTZParts splits a timetz value into its time of day (µs) and zone
// (seconds west of UTC), the fields of timetz's binary format.
func TimeTZParts(p int64) (micros int64, zoneWest int32) {
	v := unpackTimeTZ(p)
	return v.time, int32(v.zone)
}

// TimeTZFromParts is timetz_recv: the value of a time of day and a zone in
// seconds west, range-checked as PostgreSQL checks them.
func TimeTZFromParts(micros int64, zoneWest int32) (int64, error) {
	if micros < 0 || micros > usecsPerDay {
		return 0, pgerr.New(pgerr.DatetimeFieldOverflow, "time out of range")
	}
	if zoneWest < -tzDispLimit || zoneWest > tzDispLimit {
		return 0, pgerr.New(codeTZDisplacement, "time zone displacement out of range")
	}
	return packTimeTZ(micros, int(zoneWest)), nil
}
