package types

import (
	"math"
	"testing"

	"github.com/joind/joind/pgerr"
)

// float8in/float4in accept what glibc's strtod does: hexadecimal floats and
// nan(chars) among them (answers from PostgreSQL 15).
func TestParseFloatStrtodForms(t *testing.T) {
	for _, c := range []struct {
		in   string
		id   ID
		want float64
		code string
	}{
		{"0x10", Float8, 16, ""},
		{"0x1.8p3", Float8, 12, ""},
		{"-0X.8P-2", Float8, -0.125, ""},
		{"0x1p-1074", Float8, 5e-324, ""},
		{" -0x10 ", Float4, -16, ""},
		{"0xffp+1", Float4, 510, ""},
		{"0x1e1", Float8, 0x1e1, ""},
		{"nan(123)", Float8, math.NaN(), ""},
		{" NaN(x) ", Float8, math.NaN(), ""},
		{"-nan()", Float4, math.NaN(), ""},
		{"0x1p-1080", Float8, 0, pgerr.NumericValueOutOfRange},
		{"0x1p1024", Float8, 0, pgerr.NumericValueOutOfRange},
		{"0x1p-150", Float4, 0, pgerr.NumericValueOutOfRange},
		{"0x1p128", Float4, 0, pgerr.NumericValueOutOfRange},
		{"0x", Float8, 0, pgerr.InvalidTextRepresentation},
		{"0x1p", Float8, 0, pgerr.InvalidTextRepresentation},
		{"0x_1", Float8, 0, pgerr.InvalidTextRepresentation},
		{"0x1p1_0", Float8, 0, pgerr.InvalidTextRepresentation},
		{"0x1E+1", Float8, 0, pgerr.InvalidTextRepresentation},
		{"nan(1", Float8, 0, pgerr.InvalidTextRepresentation},
		{"nan(-)", Float8, 0, pgerr.InvalidTextRepresentation},
	} {
		f, err := parseFloat(c.in, c.id)
		if c.code != "" {
			if e, ok := err.(*pgerr.Error); !ok || e.Code != c.code {
				t.Errorf("%q: got %v, %v; want %s", c.in, f, err, c.code)
			}
			continue
		}
		if err != nil || f != c.want && !(math.IsNaN(f) && math.IsNaN(c.want)) {
			t.Errorf("%q: got %v, %v; want %v", c.in, f, err, c.want)
		}
	}
}
