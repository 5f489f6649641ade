package types

import (
	"errors"
	"testing"
	"time"

	"github.com/joind/joind/pgerr"
)

// Date input under each DateStyle field order. want is PostgreSQL 15's
// answer to SELECT '<in>'::date::text under SET DateStyle = 'ISO, <order>'
// (ERR:<SQLSTATE> for an error), as run on the oracle.
func TestDateInputFieldOrder(t *testing.T) {
	cases := []struct{ order, in, want string }{
		{"MDY", "Jan 12 01", "2001-01-12"},
		{"MDY", "2 Jan 03", "2003-01-02"},
		{"MDY", "03 feb 13", "2013-02-03"},
		{"MDY", "13 03 feb", "ERR:22007"},
		{"MDY", "Sept 1 31 BC", "0031-09-01 BC"},
		{"MDY", "03/Sept/03 BC", "0003-09-03 BC"},
		{"MDY", "1-31-70 BC", "0070-01-31 BC"},
		{"MDY", "13-December-1", "2001-12-13"},
		{"MDY", "feb.1.00", "2000-02-01"},
		{"MDY", "1.feb.70", "1970-02-01"},
		{"MDY", "01/02/03", "2003-01-02"},
		{"MDY", "1/2/2003", "2003-01-02"},
		{"MDY", "2003-01-02", "2003-01-02"},
		{"MDY", "December-2003-12", "2003-12-12"},
		{"MDY", "00-feb-03", "ERR:22008"},
		{"MDY", "20030102", "2003-01-02"},
		{"MDY", "030102", "2003-01-02"},
		{"MDY", "13/03/feb", "ERR:22007"},
		{"MDY", "99/12/31", "ERR:22008"},
		{"DMY", "Jan 12 01", "2001-01-12"},
		{"DMY", "2 Jan 03", "2003-01-02"},
		{"DMY", "03 feb 13", "2013-02-03"},
		{"DMY", "13 03 feb", "ERR:22007"},
		{"DMY", "Sept 1 31 BC", "0031-09-01 BC"},
		{"DMY", "03/Sept/03 BC", "0003-09-03 BC"},
		{"DMY", "1-31-70 BC", "ERR:22008"},
		{"DMY", "13-December-1", "2001-12-13"},
		{"DMY", "feb.1.00", "2000-02-01"},
		{"DMY", "1.feb.70", "1970-02-01"},
		{"DMY", "01/02/03", "2003-02-01"},
		{"DMY", "1/2/2003", "2003-02-01"},
		{"DMY", "2003-01-02", "2003-01-02"},
		{"DMY", "December-2003-12", "2003-12-12"},
		{"DMY", "00-feb-03", "ERR:22008"},
		{"DMY", "20030102", "2003-01-02"},
		{"DMY", "030102", "2003-01-02"},
		{"DMY", "13/03/feb", "ERR:22007"},
		{"DMY", "99/12/31", "ERR:22008"},
		{"YMD", "Jan 12 01", "2012-01-01"},
		{"YMD", "2 Jan 03", "2002-01-03"},
		{"YMD", "03 feb 13", "2003-02-13"},
		{"YMD", "13 03 feb", "2013-02-03"},
		{"YMD", "Sept 1 31 BC", "ERR:22008"},
		{"YMD", "03/Sept/03 BC", "0003-09-03 BC"},
		{"YMD", "1-31-70 BC", "ERR:22008"},
		{"YMD", "13-December-1", "2013-12-01"},
		{"YMD", "feb.1.00", "ERR:22008"},
		{"YMD", "1.feb.70", "ERR:22008"},
		{"YMD", "01/02/03", "2001-02-03"},
		{"YMD", "1/2/2003", "ERR:22008"},
		{"YMD", "2003-01-02", "2003-01-02"},
		{"YMD", "December-2003-12", "2003-12-12"},
		{"YMD", "00-feb-03", "2000-02-03"},
		{"YMD", "20030102", "2003-01-02"},
		{"YMD", "030102", "2003-01-02"},
		{"YMD", "13/03/feb", "ERR:22007"},
		{"YMD", "99/12/31", "1999-12-31"},
	}
	for _, c := range cases {
		v, err := parseDate(c.in, c.order, time.Time{}, nil)
		got := ""
		var pe *pgerr.Error
		switch {
		case errors.As(err, &pe):
			got = "ERR:" + pe.Code
		case err != nil:
			got = err.Error()
		default:
			got = TextOf(v, DateType)
		}
		if got != c.want {
			t.Errorf("%s %q = %s, PostgreSQL gives %s", c.order, c.in, got, c.want)
		}
	}
}
