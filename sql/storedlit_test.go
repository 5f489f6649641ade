package sql

import (
	"testing"
	"time"

	"github.com/joind/joind/types"
)

// The stored spelling of a literal must read back as the same value under
// every DateStyle order, IntervalStyle and TimeZone.
func TestStoredLiteralSpellingRoundTrips(t *testing.T) {
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		typ types.Type
		in  string
	}{
		{types.DateType, "2003-02-01"}, {types.DateType, "0044-03-15 BC"}, {types.DateType, "infinity"},
		{types.TimestampType, "2003-02-01 04:05:06.789"}, {types.TimestampType, "-infinity"},
		{types.TimestampTZType, "2003-02-01 04:05:06.5+05:30"}, {types.TimestampTZType, "1850-01-01 00:00 UTC"},
		{types.IntervalType, "1 year 2 mons 3 days 04:05:06.789"}, {types.IntervalType, "-1 days +02:00:00"},
		{types.IntervalType, "-1 years -2 mons -3 days -04:05:06"}, {types.IntervalType, "1 day -00:00:00.5"},
		{types.IntervalType, "-00:00:00.000001"}, {types.IntervalType, "0"}, {types.IntervalType, "-3 mons 5 days"},
	}
	var readers []*types.Format
	for _, ds := range []string{"ISO, MDY", "ISO, DMY", "ISO, YMD", "Postgres, DMY"} {
		for _, is := range []string{"postgres", "sql_standard", "iso_8601"} {
			for _, z := range []*time.Location{time.UTC, ny} {
				readers = append(readers, &types.Format{DateStyle: ds, IntervalStyle: is, TimeZone: z})
			}
		}
	}
	for _, c := range cases {
		v, err := types.ParseText(c.in, c.typ)
		if err != nil {
			t.Fatalf("%s: %v", c.in, err)
		}
		spelled := string(types.FormatText(nil, v, c.typ, &canonFormat))
		for _, f := range readers {
			back, err := types.ParseTextFormat(spelled, c.typ, f, time.Time{})
			if err != nil {
				t.Errorf("%s spelled %q: %v under %+v", c.in, spelled, err, *f)
				continue
			}
			if types.TextOf(back, c.typ) != types.TextOf(v, c.typ) {
				t.Errorf("%s spelled %q reads back as %s under %s/%s/%s", c.in, spelled, types.TextOf(back, c.typ), f.DateStyle, f.IntervalStyle, f.TimeZone)
			}
		}
	}
}
