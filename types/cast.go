package types

import (
	"math"
	"strings"

	"github.com/cockroachdb/apd/v3"
	"github.com/joind/joind/pgerr"
)

// castCtx is a pg_cast castcontext: 'i' implicit, 'a' assignment, 'e' explicit.
func castContext(from, to ID) byte {
	if from == to {
		return 'i' // length coercion (typmod) is implicit
	}
	if from == Unknown {
		return 'i' // a literal is coerced by its type's input function
	}
	if c := oidCastContext(from, to); c != 0 { // regtypes.go
		return c
	}
	if from == Xid8 && to == Xid {
		return 'e' // xid8 → xid drops the epoch (xid.go)
	}
	switch from {
	case Int2:
		switch to {
		case Int4, Int8, Float4, Float8, Numeric:
			return 'i'
		}
	case Int4:
		switch to {
		case Int8, Float4, Float8, Numeric:
			return 'i'
		case Int2:
			return 'a'
		case Bool:
			return 'e'
		}
	case Int8:
		switch to {
		case Float4, Float8, Numeric:
			return 'i'
		case Int2, Int4:
			return 'a'
		}
	case Float4:
		switch to {
		case Float8:
			return 'i'
		case Int2, Int4, Int8, Numeric:
			return 'a'
		}
	case Float8:
		switch to {
		case Int2, Int4, Int8, Float4, Numeric:
			return 'a'
		}
	case Numeric:
		switch to {
		case Float4, Float8:
			return 'i'
		case Int2, Int4, Int8:
			return 'a'
		}
	case Bool:
		if to == Int4 {
			return 'e'
		}
	case Text, Varchar, Char:
		switch to {
		case Text, Varchar, Char, Name:
			return 'i'
		}
	case Name:
		switch to {
		case Text:
			return 'i'
		case Varchar, Char:
			return 'a'
		}
	case Date:
		if to == Timestamp || to == TimestampTZ {
			return 'i'
		}
	case Timestamp:
		switch to {
		case Date, Time:
			return 'a'
		case TimestampTZ:
			return 'i'
		}
	case TimestampTZ:
		switch to {
		case Date, Timestamp, Time, TimeTZ:
			return 'a'
		}
	case Time:
		if to == TimeTZ || to == Interval {
			return 'i'
		}
	case TimeTZ:
		if to == Time {
			return 'a'
		}
	case Interval:
		if to == Time {
			return 'a'
		}
	case JSON, JSONB:
		if c := jsonCastContext(from, to); c != 0 {
			return c
		}
	}
	if c := bitCastContext(from, to); c != 0 { // bit.go
		return c
	}
	if c := charCastContext(from, to); c != 0 { // charbyte.go
		return c
	}
	if c := networkCastContext(from, to); c != 0 { // network.go
		return c
	}
	// Automatic I/O conversion casts: to a string type is assignment, from a
	// string type is explicit.
	switch to {
	case Text, Varchar, Char, Name:
		if from != idAnyNonArray {
			return 'a'
		}
	}
	switch from {
	case Text, Varchar, Char, Name:
		if to != idAnyNonArray && to != Unknown {
			return 'e'
		}
	}
	return 0
}

// CastStable reports whether PostgreSQL's cast from one type to another is
// only stable (pg_proc.provolatile 's' for its cast function, or for the
// input/output function of an I/O conversion cast): its result depends on
// TimeZone, DateStyle or IntervalStyle, so PostgreSQL evaluates it at run
// time, never while planning. Every other cast joind has is immutable.
// (An unknown literal's input conversion is not a cast: the parser runs it.)
func CastStable(from, to ID) bool {
	switch {
	case from == Unknown || from == to:
		return false
	case from == TimestampTZ || to == TimestampTZ, from == Time && to == TimeTZ:
		// timestamptz's casts to and from date and timestamp read TimeZone,
		// and its text I/O does too.
		return true
	case isStringID(from) && IsRegKind(to) || IsRegKind(from) && isStringID(to):
		return true // regclassin/out and their kin read the catalog
	case isStringID(from) || isStringID(to):
		// date_in/out, timestamp_in/out and interval_in/out are stable.
		return isDateTimeID(from) || isDateTimeID(to)
	}
	return false
}

func isDateTimeID(id ID) bool {
	return id == Date || id == Timestamp || id == TimestampTZ || id == Interval || id == Time || id == TimeTZ
}

// CanCast reports in which contexts PostgreSQL allows a cast from one type to
// another (each context implies the weaker ones: implicit ⇒ assignment ⇒ explicit).
func CanCast(from, to Type) (implicit, assignment, explicit bool) {
	if c, ok := enumCastContext(from, to); ok { // enum.go
		return c == 'i', c == 'i' || c == 'a', c != 0
	}
	if IsVector(to) && !IsVector(from) && from.ID != Unknown && !isStringID(from.ID) {
		return false, false, false // nothing casts to a vector but its text
	}
	if from.ID == Array && to.ID == Array {
		// array_coerce over the element cast (PostgreSQL's
		// find_coercion_pathway for two array types).
		return CanCast(from.ElemType(), to.ElemType())
	}
	switch castContext(from.ID, to.ID) {
	case 'i':
		return true, true, true
	case 'a':
		return false, true, true
	case 'e':
		return false, false, true
	}
	return false, false, false
}

func canImplicit(from, to ID) bool {
	if to == idAnyNonArray {
		return true
	}
	return castContext(from, to) == 'i'
}

// CastValue converts v from one type to another with PostgreSQL's cast
// semantics, including typmod coercion (numeric(p,s) rounding, varchar(n)
// and char(n) length rules; explicit casts truncate strings silently).
// NULL converts to NULL. ctx may be nil.
func CastValue(ctx *EvalContext, v Value, from, to Type, explicit bool) (Value, error) {
	if v.Null {
		return NullValue, nil
	}
	f := ctxFormat(ctx)
	if from.ID == Record && to.ID == Record {
		return castRecord(ctx, v, from, to, explicit) // composite.go
	}
	if from.ID == Array && to.ID == Array {
		return castArray(ctx, v, from, to, explicit)
	}
	if from.ID == JSONB || from.ID == JSON && to.ID == JSONB {
		return castFromJSON(v, from, to)
	}
	if r, ok, err := castBit(v, from, to, explicit); ok { // bit.go
		return r, err
	}
	if r, ok, err := castInternalChar(v, from, to); ok { // charbyte.go
		return r, err
	}
	if r, ok, err := castNetwork(v, from, to, explicit); ok { // network.go
		return r, err
	}
	switch from.ID {
	case Unknown:
		return castFromString(ctx, v.S, to, explicit)
	case Text, Varchar, Name:
		if isStringID(to.ID) {
			return coerceString(v.S, to, explicit)
		}
		return castFromString(ctx, v.S, to, explicit)
	case Char:
		s := strings.TrimRight(v.S, " ")
		switch to.ID {
		case Char:
			s = v.S
		case Name:
			return Value{S: charToName(v.S)}, nil
		}
		if isStringID(to.ID) {
			return coerceString(s, to, explicit)
		}
		return castFromString(ctx, s, to, explicit)
	}
	if isStringID(to.ID) {
		var s string
		if from.ID == Bool && to.ID != Name {
			// booltext: 'true'/'false', not the output function's t/f
			// (bool → name has no pg_cast row: it goes through boolout).
			s = "false"
			if v.I != 0 {
				s = "true"
			}
		} else {
			s = string(FormatText(nil, v, from, f))
		}
		return coerceString(s, to, explicit)
	}
	if r, ok, err := castTimeKind(ctx, v, from, to); ok {
		return r, err
	}
	if r, ok, err := castOIDKind(v, from, to); ok { // regtypes.go
		return r, err
	}
	if from.ID == Xid8 && to.ID == Xid {
		return Value{I: int64(uint32(WordBits(v, Xid8)))}, nil
	}
	switch to.ID {
	case Int2, Int4, Int8:
		switch from.ID {
		case Int2, Int4, Int8:
			return v, checkIntRange(v.I, to.ID)
		case Float4, Float8:
			return floatToInt(v.F, to.ID)
		case Numeric:
			i, err := numericToInt(v.Num, to.ID)
			return Value{I: i}, err
		case Bool:
			if to.ID == Int4 {
				return Value{I: v.I}, nil
			}
		}
	case Float4, Float8:
		var x float64
		switch from.ID {
		case Int2, Int4, Int8:
			x = float64(v.I)
		case Float4, Float8:
			x = v.F
		case Numeric:
			// numeric_float4/8 print the numeric and read it back with
			// float4in/float8in, whose range errors quote the digits.
			if v.Num.Form != apd.Finite {
				return Value{F: numericToFloat(v.Num, 64)}, nil
			}
			f, err := parseFloat(NumericString(v.Num), to.ID)
			return Value{F: f}, err
		default:
			return Value{}, errCannotCast(from, to)
		}
		if to.ID == Float4 {
			r := float64(float32(x))
			if math.IsInf(r, 0) && !math.IsInf(x, 0) {
				return Value{}, pgerr.New(pgerr.NumericValueOutOfRange, "value out of range: overflow")
			}
			if r == 0 && x != 0 {
				return Value{}, pgerr.New(pgerr.NumericValueOutOfRange, "value out of range: underflow")
			}
			x = r
		}
		return Value{F: x}, nil
	case Numeric:
		var err error
		var out Value
		switch from.ID {
		case Int2, Int4, Int8:
			out = Value{Num: NumericFromInt(v.I)}
		case Float4:
			out.Num, err = floatToNumeric(v.F, 32)
		case Float8:
			out.Num, err = floatToNumeric(v.F, 64)
		case Numeric:
			out.Num = v.Num
		default:
			return Value{}, errCannotCast(from, to)
		}
		if err != nil {
			return Value{}, err
		}
		out.Num, err = applyNumericTypmod(out.Num, to.Typmod)
		return out, err
	case Bool:
		switch from.ID {
		case Bool:
			return v, nil
		case Int4:
			return BoolValue(v.I != 0), nil
		}
	case Date:
		switch from.ID {
		case Date:
			return v, nil
		case Timestamp:
			switch v.I {
			case TimestampInfinity:
				return Value{I: DateInfinity}, nil
			case TimestampNegInfinity:
				return Value{I: DateNegInfinity}, nil
			}
			return Value{I: floorDiv(v.I, usecsPerDay)}, nil
		case TimestampTZ:
			switch v.I {
			case TimestampInfinity:
				return Value{I: DateInfinity}, nil
			case TimestampNegInfinity:
				return Value{I: DateNegInfinity}, nil
			}
			return Value{I: floorDiv(tzToLocal(v.I, ctxZone(ctx)), usecsPerDay)}, nil
		}
	case Timestamp:
		switch from.ID {
		case Timestamp:
			return Value{I: roundTimestamp(v.I, to.Typmod)}, nil
		case Date:
			ts, err := dateToTimestampChecked(v.I)
			return Value{I: ts}, err
		case TimestampTZ:
			r := tzToLocal(v.I, ctxZone(ctx))
			if !tsFinite(v.I) {
				return Value{I: r}, nil
			}
			if !tsValid(r) {
				return Value{}, errTimestampOutOfRange()
			}
			return Value{I: roundTimestamp(r, to.Typmod)}, nil
		}
	case TimestampTZ:
		switch from.ID {
		case TimestampTZ:
			return Value{I: roundTimestamp(v.I, to.Typmod)}, nil
		case Timestamp, Date:
			wall := v.I
			if from.ID == Date {
				var err error
				if wall, err = dateToTimestampChecked(v.I); err != nil {
					return Value{}, err
				}
			}
			r, err := localToTZChecked(wall, ctxZone(ctx))
			if err != nil {
				return Value{}, err
			}
			return Value{I: roundTimestamp(r, to.Typmod)}, nil
		}
	case Interval:
		if from.ID == Interval {
			// interval_scale: the length coercion to interval(p) / a range.
			iv, err := adjustIntervalForTypmod(v.Iv, to.Typmod)
			return Value{Iv: iv}, err
		}
	}
	return Value{}, errCannotCast(from, to)
}

// maxTimestampDate is the last date whose midnight is a valid timestamp.
const maxTimestampDate = (math.MaxInt64 - 1) / usecsPerDay

// dateToTimestamp is the date's midnight for comparisons with timestamps
// (date_cmp_timestamp_internal): a date past the last timestamp saturates
// to just below infinity, larger than every finite timestamp.
func dateToTimestamp(d int64) int64 {
	switch d {
	case DateInfinity:
		return TimestampInfinity
	case DateNegInfinity:
		return TimestampNegInfinity
	}
	if d > maxTimestampDate {
		return TimestampInfinity - 1
	}
	return d * usecsPerDay
}

// dateToTimestampChecked is date2timestamp: the cast and date arithmetic
// fail for a date past the last timestamp.
func dateToTimestampChecked(d int64) (int64, error) {
	if d > maxTimestampDate && d != DateInfinity {
		return 0, pgerr.New(pgerr.DatetimeFieldOverflow, "date out of range for timestamp")
	}
	return dateToTimestamp(d), nil
}

func isStringID(id ID) bool { return id == Text || id == Varchar || id == Char || id == Name }

func errCannotCast(from, to Type) error {
	return pgerr.New(pgerr.CannotCoerce, "cannot cast type %s to %s", from.BaseSQLName(), to.BaseSQLName())
}

func castFromString(ctx *EvalContext, s string, to Type, explicit bool) (Value, error) {
	if isStringID(to.ID) || to.ID == Unknown {
		return coerceString(s, to, explicit)
	}
	if to.ID == Interval && to.Typmod >= 0 {
		// A text value goes through interval_in without the typmod (so a
		// bare number is seconds), then the length coercion, as PostgreSQL's
		// CoerceViaIO + interval_scale: '3'::text::interval month is 0.
		v, err := ParseTextCtx(ctx, s, IntervalType)
		if err != nil {
			return v, err
		}
		v.Iv, err = adjustIntervalForTypmod(v.Iv, to.Typmod)
		return v, err
	}
	if (to.ID == Bit || to.ID == VarBit) && to.Typmod >= 0 {
		// As CoerceViaIO then the length coercion: read without the typmod,
		// so '101'::text::bit(4) pads rather than fails.
		v, err := ParseTextCtx(ctx, s, Type{ID: to.ID, Typmod: -1})
		if err != nil {
			return v, err
		}
		v.S, err = coerceBit(v.S, to, explicit)
		return v, err
	}
	return ParseTextCtx(ctx, s, to)
}

// floatToInt is dtoi2/dtoi4/dtoi8: round half to even, then range-check.
func floatToInt(f float64, id ID) (Value, error) {
	r := math.RoundToEven(f)
	if math.IsNaN(r) {
		return Value{}, errIntOutOfRange(id)
	}
	switch id {
	case Int2:
		if r < math.MinInt16 || r >= -(math.MinInt16) {
			return Value{}, errIntOutOfRange(id)
		}
	case Int4:
		if r < math.MinInt32 || r >= -float64(math.MinInt32) {
			return Value{}, errIntOutOfRange(id)
		}
	default:
		if r < math.MinInt64 || r >= -float64(math.MinInt64) {
			return Value{}, errIntOutOfRange(id)
		}
	}
	return Value{I: int64(r)}, nil
}
