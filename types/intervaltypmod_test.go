package types

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/joind/joind/pgerr"
)

var qualRanges = map[string]int32{
	"": ivFullRange, "year": ivYear, "month": ivMonth, "day": ivDay, "hour": ivHour,
	"minute": ivMinute, "second": ivSecond, "year to month": ivYear | ivMonth,
	"day to hour": ivDay | ivHour, "day to minute": ivDay | ivHour | ivMinute,
	"day to second": ivDay | ivHour | ivMinute | ivSecond, "hour to minute": ivHour | ivMinute,
	"hour to second": ivHour | ivMinute | ivSecond, "minute to second": ivMinute | ivSecond,
}

// qualTypmod encodes a SQL interval qualifier ("day to second(3)", "(0)",
// "") the way the grammar hands it to intervaltypmodin.
func qualTypmod(t *testing.T, q string) int32 {
	t.Helper()
	var prec []int32
	if k := strings.IndexByte(q, '('); k >= 0 {
		p, err := strconv.Atoi(strings.TrimSuffix(q[k+1:], ")"))
		if err != nil {
			t.Fatalf("qualifier %q: %v", q, err)
		}
		prec = []int32{int32(p)}
		q = q[:k]
	}
	rng, ok := qualRanges[q]
	if !ok {
		t.Fatalf("unknown qualifier %q", q)
	}
	tm, err := intervalTypmodIn(append([]int32{rng}, prec...))
	if err != nil {
		t.Fatalf("intervalTypmodIn(%q): %v", q, err)
	}
	return tm
}

// The want column is PostgreSQL 15's output of SELECT interval '<in>' <qual>
// (IntervalStyle postgres), as run on the oracle.
func TestParseIntervalWithQualifier(t *testing.T) {
	cases := []struct{ in, qual, want string }{
		{"3", "month", "3 mons"},
		{"1", "year", "1 year"},
		{"999", "hour", "999:00:00"},
		{"90", "day", "90 days"},
		{"7", "minute", "00:07:00"},
		{"8.5", "second", "00:00:08.5"},
		{"1", "year to month", "1 mon"},
		{"2", "day to hour", "02:00:00"},
		{"3", "day to minute", "00:03:00"},
		{"4", "day to second", "00:00:04"},
		{"5", "hour to minute", "00:05:00"},
		{"6", "hour to second", "00:00:06"},
		{"7", "minute to second", "00:00:07"},
		{"1 2", "day to hour", "1 day 02:00:00"},
		{"1 2:03", "day to minute", "1 day 02:03:00"},
		{"1:2", "minute to second", "00:01:02"},
		{"1:2", "hour to minute", "01:02:00"},
		{"1:2.5", "hour to second", "00:01:02.5"},
		{"2-3", "year to month", "2 years 3 mons"},
		{"1 year 2 months 3 days 04:05:06.789", "year", "1 year"},
		{"1 year 2 months 3 days 04:05:06.789", "month", "1 year 2 mons"},
		{"1 year 2 months 3 days 04:05:06.789", "day", "1 year 2 mons 3 days"},
		{"1 year 2 months 3 days 04:05:06.789", "hour", "1 year 2 mons 3 days 04:00:00"},
		{"1 year 2 months 3 days 04:05:06.789", "minute", "1 year 2 mons 3 days 04:05:00"},
		{"1 year 2 months 3 days 04:05:06.789", "second", "1 year 2 mons 3 days 04:05:06.789"},
		{"-1 day -2:03:04.5678", "hour", "-1 days -02:00:00"},
		{"-25", "month", "-2 years -1 mons"},
		{"-25", "year", "-25 years"},
		{"1.5", "month", "1 mon"},
		{"1.5", "year", "1 year"},
		{"1.5", "day", "1 day"},
		{"1 day 01:23:45.6789", "day to second(3)", "1 day 01:23:45.679"},
		{"1.23456", "second(2)", "00:00:01.23"},
		{"-1.2345", "second(3)", "-00:00:01.235"},
		{"-0.5", "second(0)", "-00:00:01"},
		{"0.5", "second(0)", "00:00:01"},
		{"1:45.6789", "minute to second(0)", "00:01:46"},
		{"1 day 01:23:45.6789", "(0)", "1 day 01:23:46"}, // interval(0) '...'
		{"PT36H", "day", "00:00:00"},
		// No qualifier.
		{"1 day 2 hours ago", "", "-1 days -02:00:00"},
		{"1:00:60", "", "01:01:00"},
		{"1 2:03:04", "", "1 day 02:03:04"},
		{"1 year 1-2", "", "2 years 2 mons"},
		{"1.5 weeks", "", "10 days 12:00:00"},
		{"0.5 microseconds", "", "00:00:00"},
		{"1.5 microseconds", "", "00:00:00.000001"},
		{"2.5 microseconds", "", "00:00:00.000002"},
		{"1-", "", "1 year"},
		{"-1-2", "", "-1 years -2 mons"},
		{"1 day, 2 hours", "", "1 day 02:00:00"},
		{"P1Y2M3DT4H5M6.5S", "", "1 year 2 mons 3 days 04:05:06.5"},
		{"2147483647 days ago", "", "-2147483647 days"},
		{"-178956970 years -8 mons", "", "-178956970 years -8 mons"},
	}
	for _, c := range cases {
		tm := qualTypmod(t, c.qual)
		iv, err := parseInterval(c.in, tm, false)
		if err != nil {
			t.Errorf("interval %q %s: %v", c.in, c.qual, err)
			continue
		}
		if got := string(appendInterval(nil, iv, "postgres")); got != c.want {
			t.Errorf("interval %q %s = %q, PostgreSQL gives %q", c.in, c.qual, got, c.want)
		}
	}
}

// PostgreSQL under SET IntervalStyle = sql_standard (output shown in the
// postgres style): a leading minus applies to every unsigned field.
func TestParseIntervalSQLStandardSign(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"-1 2:03:04", "-1 days -02:03:04"},
		{"-1 -2:03:04", "-1 days -02:03:04"},
		{"-1 +2:03:04", "-1 days +02:03:04"},
		{"-1-2 3 4:05:06", "-1 years -2 mons -3 days -04:05:06"},
		{"-1 day 2 hours", "-1 days -02:00:00"},
	} {
		iv, err := parseInterval(c.in, -1, true)
		if err != nil {
			t.Fatalf("%q: %v", c.in, err)
		}
		if got := string(appendInterval(nil, iv, "postgres")); got != c.want {
			t.Errorf("%q = %q, PostgreSQL gives %q", c.in, got, c.want)
		}
	}
}

// SQLSTATEs and messages as PostgreSQL 15 reports them: a field that does
// not fit while decoding is 22015, a result that does not fit is 22008.
func TestParseIntervalErrors(t *testing.T) {
	cases := []struct{ in, code, msg string }{
		{"2147483647 years", pgerr.DatetimeFieldOverflow, "interval out of range"},
		{"178956970 years 8 months", pgerr.DatetimeFieldOverflow, "interval out of range"},
		{"2147483648 years", pgerr.IntervalFieldOverflow, `interval field value out of range: "2147483648 years"`},
		{"2147483648 days", pgerr.IntervalFieldOverflow, `interval field value out of range: "2147483648 days"`},
		{"2147483648 months", pgerr.IntervalFieldOverflow, `interval field value out of range: "2147483648 months"`},
		{"306783379 weeks", pgerr.IntervalFieldOverflow, `interval field value out of range: "306783379 weeks"`},
		{"9223372036854775808 microseconds", pgerr.IntervalFieldOverflow, `interval field value out of range: "9223372036854775808 microseconds"`},
		{"2562047789 hours", pgerr.IntervalFieldOverflow, `interval field value out of range: "2562047789 hours"`},
		{"-2147483648 days ago", pgerr.IntervalFieldOverflow, `interval field value out of range: "-2147483648 days ago"`},
		{"1:60", pgerr.IntervalFieldOverflow, `interval field value out of range: "1:60"`},
		{"1 2", pgerr.InvalidDatetimeFormat, `invalid input syntax for type interval: "1 2"`},
		{"1 ago", pgerr.InvalidDatetimeFormat, `invalid input syntax for type interval: "1 ago"`},
		{"1 hour 1:00", pgerr.InvalidDatetimeFormat, `invalid input syntax for type interval: "1 hour 1:00"`},
		{"-.5 day", pgerr.InvalidDatetimeFormat, `invalid input syntax for type interval: "-.5 day"`},
		{"1/2 day", pgerr.InvalidDatetimeFormat, `invalid input syntax for type interval: "1/2 day"`},
		{"-1:60", pgerr.InvalidDatetimeFormat, `invalid input syntax for type interval: "-1:60"`},
		{"", pgerr.InvalidDatetimeFormat, `invalid input syntax for type interval: ""`},
		// Fields decode right to left: an overflow right of a bad field wins.
		{"1e3 9999999999 days", pgerr.IntervalFieldOverflow, `interval field value out of range: "1e3 9999999999 days"`},
		{"- h 9999999999 months", pgerr.IntervalFieldOverflow, `interval field value out of range: "- h 9999999999 months"`},
		{"1e3 1-12", pgerr.IntervalFieldOverflow, `interval field value out of range: "1e3 1-12"`},
		{"x1 day", pgerr.InvalidDatetimeFormat, `invalid input syntax for type interval: "x1 day"`},
		{"-h", pgerr.InvalidDatetimeFormat, `invalid input syntax for type interval: "-h"`},
		// Past int64 microseconds, as PostgreSQL.
		{"9223372036854775808 microseconds", pgerr.IntervalFieldOverflow, `interval field value out of range: "9223372036854775808 microseconds"`},
	}
	for _, c := range cases {
		_, err := parseInterval(c.in, -1, false)
		var pe *pgerr.Error
		if !errors.As(err, &pe) || pe.Code != c.code || pe.Message != c.msg {
			t.Errorf("interval %q: got %v, want %s %s", c.in, err, c.code, c.msg)
		}
	}
}

// AdjustIntervalForTypmod as a cast: (interval '...')::interval <qual>.
func TestAdjustIntervalForTypmod(t *testing.T) {
	src := IntervalValue{Months: 14, Days: 3, Micros: 4*usecsPerHour + 5*usecsPerMinute + 6789000}
	cases := []struct{ qual, want string }{
		// PostgreSQL: SELECT (interval '1 year 2 mons 3 days 04:05:06.789')::interval <qual>
		{"year", "1 year"},
		{"month", "1 year 2 mons"},
		{"year to month", "1 year 2 mons"},
		{"day", "1 year 2 mons 3 days"},
		{"hour", "1 year 2 mons 3 days 04:00:00"},
		{"day to hour", "1 year 2 mons 3 days 04:00:00"},
		{"minute", "1 year 2 mons 3 days 04:05:00"},
		{"day to minute", "1 year 2 mons 3 days 04:05:00"},
		{"hour to minute", "1 year 2 mons 3 days 04:05:00"},
		{"second", "1 year 2 mons 3 days 04:05:06.789"},
		{"day to second(1)", "1 year 2 mons 3 days 04:05:06.8"},
		{"hour to second(0)", "1 year 2 mons 3 days 04:05:07"},
		{"minute to second(2)", "1 year 2 mons 3 days 04:05:06.79"},
		{"(2)", "1 year 2 mons 3 days 04:05:06.79"},
	}
	for _, c := range cases {
		got, err := adjustIntervalForTypmod(src, qualTypmod(t, c.qual))
		if err != nil {
			t.Fatalf("%s: %v", c.qual, err)
		}
		if s := string(appendInterval(nil, got, "postgres")); s != c.want {
			t.Errorf("::interval %s = %q, PostgreSQL gives %q", c.qual, s, c.want)
		}
	}
	// PostgreSQL: SELECT (interval '-1.5 seconds')::interval(0) is -00:00:02
	// (rounding is away from zero on both sides).
	if got, _ := adjustIntervalForTypmod(IntervalValue{Micros: -1500000}, qualTypmod(t, "(0)")); got.Micros != -2000000 {
		t.Errorf("-1.5s::interval(0) = %d µs, PostgreSQL gives -2000000", got.Micros)
	}
}

func TestIntervalTypmodInAndName(t *testing.T) {
	cases := []struct {
		mods []int32
		want string // format_type, as PostgreSQL shows the column type
	}{
		{[]int32{ivFullRange}, "interval"},
		{[]int32{ivFullRange, 3}, "interval(3)"},
		{[]int32{ivDay | ivHour | ivMinute | ivSecond, 3}, "interval day to second(3)"},
		{[]int32{ivYear | ivMonth}, "interval year to month"},
		{[]int32{ivSecond, 2}, "interval second(2)"},
		{[]int32{ivHour}, "interval hour"},
		{[]int32{ivFullRange, 9}, "interval(6)"}, // PostgreSQL warns and reduces
	}
	for _, c := range cases {
		typ, err := FromTypeName([]string{"pg_catalog", "interval"}, c.mods, 0)
		if err != nil {
			t.Fatalf("%v: %v", c.mods, err)
		}
		if got := typ.SQLName(); got != c.want {
			t.Errorf("%v: SQLName %q, want %q", c.mods, got, c.want)
		}
	}
	for _, c := range []struct {
		mods []int32
		msg  string
	}{
		{[]int32{ivFullRange, -1}, "INTERVAL(-1) precision must not be negative"},
		{[]int32{ivYear | ivDay}, "invalid INTERVAL type modifier"},
		{[]int32{ivDay, 1, 2}, "invalid INTERVAL type modifier"},
	} {
		_, err := FromTypeName([]string{"interval"}, c.mods, 0)
		var pe *pgerr.Error
		if !errors.As(err, &pe) || pe.Code != pgerr.InvalidParameterValue || pe.Message != c.msg {
			t.Errorf("%v: got %v, want 22023 %s", c.mods, err, c.msg)
		}
	}
}

// Types PostgreSQL has and joind lacks are refused with 0A000, typmods and
// all, never read as something else (PostgreSQL itself answers these).
func TestUnsupportedTypesAreRefused(t *testing.T) {
	for _, n := range [][]string{
		{"money"},
	} {
		for _, mods := range [][]int32{nil, {3}} {
			_, err := FromTypeName(n, mods, 0)
			var pe *pgerr.Error
			if !errors.As(err, &pe) || pe.Code != pgerr.FeatureNotSupported {
				t.Errorf("%v%v: got %v, want 0A000", n, mods, err)
			}
		}
	}
}
