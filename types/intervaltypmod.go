package types

import (
	"fmt"

	"github.com/joind/joind/pgerr"
)

// Interval typmods use PostgreSQL's encoding (INTERVAL_TYPMOD): the field
// range mask in the high 16 bits, the fractional-second precision in the low
// 16 (0xFFFF = unspecified). -1 is "no range, no precision". The range bits
// are datetime.h's field numbers, so the grammar's constants (pg_query gives
// them as the TypeName's integer typmods) are used unchanged.
const (
	ivMonth  = 1 << 1
	ivYear   = 1 << 2
	ivDay    = 1 << 3
	ivHour   = 1 << 10
	ivMinute = 1 << 11
	ivSecond = 1 << 12

	ivFullRange     = 0x7FFF
	ivFullPrecision = 0xFFFF
	ivMaxPrecision  = 6
)

// IntervalTypmod encodes an interval range mask and precision.
func IntervalTypmod(rangeMask, precision int32) int32 {
	return (rangeMask&0x7FFF)<<16 | (precision & 0xFFFF)
}

// intervalRange returns the field range of an interval typmod (the full range
// for -1), as INTERVAL_RANGE.
func intervalRange(typmod int32) int32 {
	if typmod < 0 {
		return ivFullRange
	}
	return (typmod >> 16) & 0x7FFF
}

func intervalPrecision(typmod int32) int32 {
	if typmod < 0 {
		return ivFullPrecision
	}
	return typmod & 0xFFFF
}

var ivRangeNames = map[int32]string{
	ivYear:                               " year",
	ivMonth:                              " month",
	ivDay:                                " day",
	ivHour:                               " hour",
	ivMinute:                             " minute",
	ivSecond:                             " second",
	ivYear | ivMonth:                     " year to month",
	ivDay | ivHour:                       " day to hour",
	ivDay | ivHour | ivMinute:            " day to minute",
	ivDay | ivHour | ivMinute | ivSecond: " day to second",
	ivHour | ivMinute:                    " hour to minute",
	ivHour | ivMinute | ivSecond:         " hour to second",
	ivMinute | ivSecond:                  " minute to second",
	ivFullRange:                          "",
}

// intervalTypmodIn is intervaltypmodin: the grammar's modifiers (a range
// mask, optionally followed by a precision) to a typmod.
func intervalTypmodIn(mods []int32) (int32, error) {
	if len(mods) == 0 || len(mods) > 2 {
		return 0, pgerr.New(pgerr.InvalidParameterValue, "invalid INTERVAL type modifier")
	}
	if _, ok := ivRangeNames[mods[0]]; !ok {
		return 0, pgerr.New(pgerr.InvalidParameterValue, "invalid INTERVAL type modifier")
	}
	if len(mods) == 1 {
		if mods[0] == ivFullRange {
			return -1, nil
		}
		return IntervalTypmod(mods[0], ivFullPrecision), nil
	}
	p := mods[1]
	if p < 0 {
		return 0, pgerr.New(pgerr.InvalidParameterValue, "INTERVAL(%d) precision must not be negative", p)
	}
	if p > ivMaxPrecision {
		p = ivMaxPrecision // PostgreSQL warns and reduces to the maximum
	}
	return IntervalTypmod(mods[0], p), nil
}

// intervalTypmodOut is intervaltypmodout: " day to second(3)", "(3)", "".
func intervalTypmodOut(typmod int32) string {
	if typmod < 0 {
		return ""
	}
	s := ivRangeNames[intervalRange(typmod)]
	if p := intervalPrecision(typmod); p != ivFullPrecision {
		s += fmt.Sprintf("(%d)", p)
	}
	return s
}

var (
	ivScales  = [ivMaxPrecision + 1]int64{1000000, 100000, 10000, 1000, 100, 10, 1}
	ivOffsets = [ivMaxPrecision + 1]int64{500000, 50000, 5000, 500, 50, 5, 0}
)

// adjustIntervalForTypmod is PostgreSQL 15's AdjustIntervalForTypmod: fields
// below the range's last one are truncated (fields above it stay), then
// the time is rounded to the precision. Arithmetic wraps like the C code.
func adjustIntervalForTypmod(iv IntervalValue, typmod int32) (IntervalValue, error) {
	if typmod < 0 {
		return iv, nil
	}
	switch intervalRange(typmod) {
	case ivYear:
		iv.Months = (iv.Months / 12) * 12
		iv.Days, iv.Micros = 0, 0
	case ivMonth, ivYear | ivMonth:
		iv.Days, iv.Micros = 0, 0
	case ivDay:
		iv.Micros = 0
	case ivHour, ivDay | ivHour:
		iv.Micros = (iv.Micros / usecsPerHour) * usecsPerHour
	case ivMinute, ivDay | ivHour | ivMinute, ivHour | ivMinute:
		iv.Micros = (iv.Micros / usecsPerMinute) * usecsPerMinute
	case ivFullRange, ivSecond, ivDay | ivHour | ivMinute | ivSecond, ivHour | ivMinute | ivSecond, ivMinute | ivSecond:
		// nothing to truncate; fractional seconds are rounded below
	default:
		return iv, pgerr.New(pgerr.InternalError, "unrecognized interval typmod: %d", typmod)
	}
	if p := intervalPrecision(typmod); p != ivFullPrecision {
		if p < 0 || p > ivMaxPrecision {
			return iv, pgerr.New(pgerr.InvalidParameterValue, "interval(%d) precision must be between %d and %d", p, 0, ivMaxPrecision)
		}
		if iv.Micros >= 0 {
			iv.Micros = ((iv.Micros + ivOffsets[p]) / ivScales[p]) * ivScales[p]
		} else {
			iv.Micros = -(((-iv.Micros + ivOffsets[p]) / ivScales[p]) * ivScales[p])
		}
	}
	return iv, nil
}
