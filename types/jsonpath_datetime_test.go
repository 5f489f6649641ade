package types

import (
	"testing"
	"time"

	"github.com/joind/joind/pgerr"
)

// TestJSONPathDatetime runs .datetime() through the executor with answers
// taken from PostgreSQL 15 (jsonb_jsonpath.out and psql against 15.18).
func TestJSONPathDatetime(t *testing.T) {
	ctx := &EvalContext{TimeZone: time.UTC}
	cases := []struct {
		doc, path string
		useTz     bool
		want      []string // printed results
		code      string   // or the error's SQLSTATE
	}{
		{`"10-03-2017"`, `$.datetime("dd-mm-yyyy")`, false, []string{`"2017-03-10"`}, ""},
		{`"10-03-2017"`, `$.datetime("dd-mm-yyyy").type()`, false, []string{`"date"`}, ""},
		{`"10-03-2017 12:34"`, `$.datetime("dd-mm-yyyy")`, false, nil, "22007"},
		{`"10-03-2017 12:34"`, `$.datetime("dd-mm-yyyy HH24:MI TZH")`, false, nil, "22007"},
		{`"12:34:56 +05:20"`, `$.datetime("HH24:MI:SS TZH:TZM")`, false, []string{`"12:34:56+05:20"`}, ""},
		{`"10-03-2017t12:34:56"`, `$.datetime("dd-mm-yyyy\"T\"HH24:MI:SS")`, false, nil, "22007"},
		{`"12:34"`, `$.datetime("aaa")`, false, nil, "22007"},
		{`"2017-03-10 12:34:56.789+3:10"`, `$.datetime()`, false, []string{`"2017-03-10T12:34:56.789+03:10"`}, ""},
		{`"2017-03-10t12:34:56+3:10"`, `$.datetime()`, false, nil, "22031"},
		{`"12:34:56+3"`, `$.datetime().type()`, false, []string{`"time with time zone"`}, ""},
		{`"12:00:00.123"`, `$.datetime("HH24:MI:SS.FF2")`, false, []string{`"12:00:00.12"`}, ""},
		{`"2017"`, `$.datetime("")`, false, nil, "22007"},
		{`1`, `$.datetime()`, false, nil, "22031"},
		// comparisons across types need the _tz functions
		{`["2017-03-10", "2017-03-10 00:00:00", "2017-03-10 03:00:00+03"]`,
			`$[*].datetime() ? (@ == "10.03.2017".datetime("dd.mm.yyyy"))`, false, nil, pgerr.FeatureNotSupported},
		{`["2017-03-10", "2017-03-10 00:00:00", "2017-03-10 03:00:00+03", "12:00:00"]`,
			`$[*].datetime() ? (@ == "10.03.2017".datetime("dd.mm.yyyy"))`, true,
			[]string{`"2017-03-10"`, `"2017-03-10T00:00:00"`, `"2017-03-10T03:00:00+03:00"`}, ""},
		{`"1000000-01-01"`, `$.datetime() > "2020-01-01 12:00:00".datetime()`, false, []string{`true`}, ""},
	}
	for _, c := range cases {
		jp, err := parseJSONPath(c.path)
		if err != nil {
			t.Fatalf("%s: %v", c.path, err)
		}
		var found []*jsonValue
		_, err = executeJSONPath(ctx, jp, nil, jsonbTree(mustJSONB(t, c.doc)), true, c.useTz, &found)
		if c.code != "" {
			pe, _ := err.(*pgerr.Error)
			if pe == nil || pe.Code != c.code {
				t.Errorf("%s over %s: got %v, want SQLSTATE %s", c.path, c.doc, err, c.code)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s over %s: %v", c.path, c.doc, err)
			continue
		}
		var got []string
		for _, v := range jsonPathResults(found) {
			got = append(got, jsonbText(v))
		}
		if len(got) != len(c.want) {
			t.Errorf("%s over %s: got %q, want %q", c.path, c.doc, got, c.want)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("%s over %s: got %q, want %q", c.path, c.doc, got, c.want)
			}
		}
	}
}
