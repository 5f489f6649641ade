package types

import (
	"strings"

	"github.com/joind/joind/pgerr"
)

// jsonpath's .datetime() and .datetime(template) (jsonpath_exec.c's
// executeDateTimeMethod over formatting.c's parse_datetime in standard
// mode), the datetime items they make, how those compare
// (compareDatetime: across types only through the session time zone, which
// the _tz functions allow) and how they print (JsonEncodeDateTime's XSD
// form).

// jsonDatetime is a datetime item's kind: a scalar that only .datetime()
// makes and that prints as a string when a result leaves the executor.
const jsonDatetime jsonKind = 4

// codeInvalidDatetimeFunctionArg is ERRCODE_INVALID_ARGUMENT_FOR_SQL_JSON_DATETIME_FUNCTION.
const codeInvalidDatetimeFunctionArg = "22031"

// jsonDatetimeItem is a datetime item (JsonbValue's val.datetime): a value of
// type typ in joind's representation (Date days, Time µs, TimeTZ packed,
// Timestamp and TimestampTZ µs since 1970) and, for a timestamptz, the
// offset it was written with (seconds east), which it prints in.
type jsonDatetimeItem struct {
	typ  ID
	v    int64
	east int
}

// jpDefaultDatetimeFormats are the ISO formats .datetime() without a
// template tries in turn: date, timetz, time, timestamptz, timestamp, with
// fractional seconds or without, and ISO 8601's 'T' as to_json writes it.
var jpDefaultDatetimeFormats = []string{
	"yyyy-mm-dd",
	"HH24:MI:SS.USTZH:TZM", "HH24:MI:SS.USTZH", "HH24:MI:SSTZH:TZM", "HH24:MI:SSTZH",
	"HH24:MI:SS.US", "HH24:MI:SS",
	"yyyy-mm-dd HH24:MI:SS.USTZH:TZM", "yyyy-mm-dd HH24:MI:SS.USTZH",
	"yyyy-mm-dd HH24:MI:SSTZH:TZM", "yyyy-mm-dd HH24:MI:SSTZH",
	`yyyy-mm-dd"T"HH24:MI:SS.USTZH:TZM`, `yyyy-mm-dd"T"HH24:MI:SS.USTZH`,
	`yyyy-mm-dd"T"HH24:MI:SSTZH:TZM`, `yyyy-mm-dd"T"HH24:MI:SSTZH`,
	"yyyy-mm-dd HH24:MI:SS.US", "yyyy-mm-dd HH24:MI:SS",
	`yyyy-mm-dd"T"HH24:MI:SS.US`, `yyyy-mm-dd"T"HH24:MI:SS`,
}

// datetimeMethod is executeDateTimeMethod.
func (e *jpExec) datetimeMethod(n *jpNode, v *jsonValue, found *[]*jsonValue) (jperResult, error) {
	if v.Kind != jsonString {
		return e.fail(jpErr(codeInvalidDatetimeFunctionArg, "jsonpath item method .%s() can only be applied to a string", jpOperationName(n.kind)))
	}
	var dt jsonDatetimeItem
	if n.left != nil {
		// a template PostgreSQL cannot parse is an error whatever silent says
		if t := dchStdCache.get(n.left.str, true); t.err != nil {
			return jperError, t.err
		}
		var err error
		if dt, err = parseJPDatetime(e.ctx, v.Str, n.left.str); err != nil {
			return e.fail(err)
		}
	} else {
		ok := false
		for _, f := range jpDefaultDatetimeFormats {
			if d, err := parseJPDatetime(e.ctx, v.Str, f); err == nil {
				dt, ok = d, true
				break
			}
		}
		if !ok {
			return e.fail(pgerr.New(codeInvalidDatetimeFunctionArg, "datetime format is not recognized: \"%s\"", v.Str).
				WithHint("Use a datetime template argument to specify the input data format."))
		}
	}
	if n.next == nil && found == nil {
		return jperOk, nil
	}
	return e.nextItem(n, &jsonValue{Kind: jsonDatetime, dt: &dt}, found)
}

// parseJPDatetime is parse_datetime in standard mode: the template's
// fields decide the type (date, time, timetz, timestamp, timestamptz).
func parseJPDatetime(ctx *EvalContext, in, tmpl string) (jsonDatetimeItem, error) {
	tm, err := doToTimestamp(in, tmpl, true)
	if err != nil {
		return jsonDatetimeItem{}, err
	}
	typmod := int32(-1)
	if tm.fprec != 0 {
		typmod = int32(tm.fprec)
	}
	tod := ((int64(tm.hour)*60+int64(tm.min))*60+int64(tm.sec))*usecsPerSec + tm.fsec
	dated, timed, zoned := tm.flags&dchDated != 0, tm.flags&dchTimed != 0, tm.flags&dchZoned != 0
	switch {
	case dated && timed:
		typ, what := Timestamp, "timestamp"
		if zoned {
			typ, what = TimestampTZ, "timestamptz"
		}
		if !validJulian(tm.year, tm.mon, tm.mday) || tm.year > 294277 {
			return jsonDatetimeItem{}, pgerr.New(pgerr.DatetimeFieldOverflow, "%s out of range", what)
		}
		ts := int64(date2j(tm.year, tm.mon, tm.mday)-unixEpochJD)*usecsPerDay + tod
		if zoned {
			ts -= int64(tm.zoneEast) * usecsPerSec
		}
		if !tsValid(ts) {
			return jsonDatetimeItem{}, pgerr.New(pgerr.DatetimeFieldOverflow, "%s out of range", what)
		}
		return jsonDatetimeItem{typ: typ, v: roundTimestamp(ts, typmod), east: tm.zoneEast}, nil
	case dated && zoned:
		return jsonDatetimeItem{}, errFromChar("datetime format is zoned but not timed")
	case dated:
		jd := date2j(tm.year, tm.mon, tm.mday)
		if !validJulian(tm.year, tm.mon, tm.mday) || !dateValid(jd) {
			return jsonDatetimeItem{}, pgerr.New(pgerr.DatetimeFieldOverflow, "date out of range: \"%s\"", in)
		}
		return jsonDatetimeItem{typ: Date, v: int64(jd - unixEpochJD)}, nil
	case timed && zoned:
		return jsonDatetimeItem{typ: TimeTZ, v: packTimeTZ(roundTime(tod, typmod), -tm.zoneEast)}, nil
	case timed:
		return jsonDatetimeItem{typ: Time, v: roundTime(tod, typmod)}, nil
	}
	return jsonDatetimeItem{}, errFromChar("datetime format is not dated and not timed")
}

// typeName is what .type() says of the item.
func (d *jsonDatetimeItem) typeName() string {
	switch d.typ {
	case Date:
		return "date"
	case Time:
		return "time without time zone"
	case TimeTZ:
		return "time with time zone"
	case Timestamp:
		return "timestamp without time zone"
	}
	return "timestamp with time zone"
}

// text is JsonEncodeDateTime: ISO 8601's XSD form, a timestamptz in the
// offset it was written with.
func (d *jsonDatetimeItem) text() string {
	iso := dateStyle{style: "ISO", order: "MDY"}
	var b []byte
	switch d.typ {
	case Date:
		return string(appendDate(nil, d.v, iso))
	case Time:
		return string(appendTime(nil, d.v))
	case TimeTZ:
		tz := unpackTimeTZ(d.v)
		return string(appendXSDOffset(appendTime(nil, tz.time), -tz.zone))
	case Timestamp:
		if !tsFinite(d.v) {
			return string(appendTimestamp(nil, d.v, iso))
		}
		b = appendDateTime(nil, d.v, iso, nil)
	default:
		if !tsFinite(d.v) {
			return string(appendTimestamp(nil, d.v, iso))
		}
		b = appendDateTime(nil, d.v+int64(d.east)*usecsPerSec, iso, nil)
	}
	s := string(b)
	bc := strings.HasSuffix(s, " BC")
	s = strings.TrimSuffix(s, " BC")
	if i := strings.IndexByte(s, ' '); i >= 0 {
		s = s[:i] + "T" + s[i+1:]
	}
	if d.typ == TimestampTZ {
		s = string(appendXSDOffset([]byte(s), d.east))
	}
	if bc {
		s += " BC"
	}
	return s
}

// appendXSDOffset is EncodeTimezone in the XSD style: hours and minutes
// always, seconds when there are any.
func appendXSDOffset(dst []byte, east int) []byte {
	sign := byte('+')
	if east < 0 {
		sign, east = '-', -east
	}
	dst = pad(append(dst, sign), east/3600, 2)
	dst = pad(append(dst, ':'), east/60%60, 2)
	if s := east % 60; s != 0 {
		dst = pad(append(dst, ':'), s, 2)
	}
	return dst
}

// compareJPDatetimes is compareDatetime: the comparison of two datetime
// items, or ok false when their types do not compare (a date or timestamp
// with a time). A comparison that must read one side in the session time
// zone is an error unless the call is a _tz one.
func (e *jpExec) compareJPDatetimes(a, b *jsonDatetimeItem) (cmp int, ok bool, err error) {
	isTime := func(t ID) bool { return t == Time || t == TimeTZ }
	if isTime(a.typ) != isTime(b.typ) {
		return 0, false, nil
	}
	if a.typ == b.typ {
		return cmpInt(a.v, b.v), true, nil
	}
	x, err := e.castJPDatetime(a, b.typ)
	if err != nil {
		return 0, false, err
	}
	y, err := e.castJPDatetime(b, a.typ)
	if err != nil {
		return 0, false, err
	}
	return cmpInt(x, y), true, nil
}

// castJPDatetime is d's value as the wider of its type and other's (date <
// timestamp < timestamptz, time < timetz): a zone-less value meets a zoned
// one in the session time zone.
func (e *jpExec) castJPDatetime(d *jsonDatetimeItem, other ID) (int64, error) {
	needTZ := func(from, to string) error {
		if e.useTz {
			return nil
		}
		return pgerr.New(pgerr.FeatureNotSupported, "cannot convert value from %s to %s without time zone usage", from, to).
			WithHint("Use *_tz() function for time zone support.")
	}
	loc := ctxZone(e.ctx)
	switch {
	case d.typ == Time && other == TimeTZ:
		if err := needTZ("time", "timetz"); err != nil {
			return 0, err
		}
		v, _, err := castTimeKind(e.ctx, Value{I: d.v}, TimeType, TimeTZType)
		return v.I, err
	case d.typ == Date && other == Timestamp:
		return dateToTimestamp(d.v), nil
	case d.typ == Date && other == TimestampTZ:
		if err := needTZ("date", "timestamptz"); err != nil {
			return 0, err
		}
		ts := dateToTimestamp(d.v)
		if !tsFinite(ts) || ts == TimestampInfinity-1 {
			return ts, nil // infinite, or saturated past the last timestamp
		}
		return localToTZ(ts, loc), nil
	case d.typ == Timestamp && other == TimestampTZ:
		if err := needTZ("timestamp", "timestamptz"); err != nil {
			return 0, err
		}
		return localToTZ(d.v, loc), nil
	}
	return d.v, nil
}

// jsonPathResults replaces the datetime items among a path's results by
// the strings they print as, for the functions that return jsonb.
func jsonPathResults(found []*jsonValue) []*jsonValue {
	for i, v := range found {
		if v.Kind == jsonDatetime {
			found[i] = &jsonValue{Kind: jsonString, Str: v.dt.text()}
		}
	}
	return found
}
