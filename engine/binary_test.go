package engine

import (
	"encoding/hex"
	"testing"

	"github.com/joind/joind/types"
)

// Encodings checked against PostgreSQL 15 (numeric_send of the same text).
func TestNumericBinary(t *testing.T) {
	for _, c := range []struct{ text, hex string }{
		{"0", "0000000000000000"},
		{"0.000", "0000000000000003"},
		{"1", "0001000000000000" + "0001"},
		{"-1234.5678", "000200004000000404d2162e"},
		{"10000", "0001000100000000" + "0001"},
		{"0.0001", "0001ffff00000004" + "0001"},
		{"123456789.12", "0004000200000002" + "0001" + "0929" + "1a85" + "04b0"},
		{"NaN", "00000000c0000000"},
		{"Infinity", "00000000d0000020"},
		{"-Infinity", "00000000f0000020"},
	} {
		got := hex.EncodeToString(appendNumericBinary(nil, c.text))
		if got != c.hex {
			t.Errorf("send(%s) = %s, want %s", c.text, got, c.hex)
		}
		b, _ := hex.DecodeString(c.hex)
		back, err := numericTextFromBinary(b)
		if err != nil || back != c.text {
			t.Errorf("recv(%s) = %q, %v; want %q", c.hex, back, err, c.text)
		}
	}
	for _, bad := range []string{"", "00010000", "000100000000000027", "0001000000000000ffff"} {
		b, _ := hex.DecodeString(bad)
		if _, err := numericTextFromBinary(b); err == nil && len(b) != 10 {
			t.Errorf("recv(%s) accepted", bad)
		}
	}
}

func TestBinaryRoundTrip(t *testing.T) {
	for _, c := range []struct {
		typ types.Type
		v   types.Value
	}{
		{types.Int2Type, types.IntValue(-32768)},
		{types.Int4Type, types.IntValue(2147483647)},
		{types.Int8Type, types.IntValue(-1 << 62)},
		{types.Float4Type, types.FloatValue(1.5)},
		{types.Float8Type, types.FloatValue(-2.25e300)},
		{types.BoolType, types.BoolValue(true)},
		{types.DateType, types.IntValue(-10957)}, // 1940-01-01
		{types.TimestampType, types.IntValue(1700000000123456)},
		{types.IntervalType, types.Value{Iv: types.IntervalValue{Months: -3, Days: 40, Micros: 1}}},
		{types.TextType, types.TextValue("héllo")},
	} {
		b := appendBinary(nil, c.v, c.typ)
		got, err := decodeBinary(b, c.typ)
		if err != nil || got.I != c.v.I || got.F != c.v.F || got.S != c.v.S || got.Iv != c.v.Iv {
			t.Errorf("%v: %+v -> %x -> %+v, %v", c.typ, c.v, b, got, err)
		}
	}
	if _, err := decodeBinary([]byte{1, 2, 3}, types.Int4Type); err == nil {
		t.Error("3-byte int4 accepted")
	}
}

func TestStripZone(t *testing.T) {
	for in, want := range map[string]string{
		"2024-01-01 +00":            "2024-01-01",
		"2024-03-04 05:06:07.89+00": "2024-03-04 05:06:07.89",
		"2024-03-04 05:06:07-08:00": "2024-03-04 05:06:07",
		"2024-01-01":                "",
	} {
		got, ok := stripZone(in)
		if want == "" {
			if ok {
				t.Errorf("stripZone(%q) = %q, want no change", in, got)
			}
			continue
		}
		if !ok || got != want {
			t.Errorf("stripZone(%q) = %q %v, want %q", in, got, ok, want)
		}
	}
}
