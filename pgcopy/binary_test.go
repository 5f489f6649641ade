package pgcopy

import (
	"encoding/hex"
	"strings"
	"testing"

	"github.com/joind/joind/pgerr"
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
		{types.PointType, types.PointValue(1, -2.5)},
	} {
		b := AppendBinary(nil, c.v, c.typ)
		got, err := DecodeBinary(b, c.typ)
		if err != nil || got.I != c.v.I || got.F != c.v.F || got.S != c.v.S || got.Iv != c.v.Iv {
			t.Errorf("%v: %+v -> %x -> %+v, %v", c.typ, c.v, b, got, err)
		}
	}
	if _, err := DecodeBinary([]byte{1, 2, 3}, types.Int4Type); err == nil {
		t.Error("3-byte int4 accepted")
	}
}

// TestDecodeBinaryLikePostgres: each case is what PostgreSQL 15 answers to
// SELECT $1::<type> with the bytes bound in binary format (checked with
// pgconn's ExecParams against the oracle); a trailing-bytes error is
// ErrBinaryTrailing, which Bind words "in bind parameter N".
func TestDecodeBinaryLikePostgres(t *testing.T) {
	for _, c := range []struct {
		typ  types.Type
		hex  string
		want string // the value's text, or "code: message"
	}{
		{types.Int4Type, "000001", "08P01: insufficient data left in message"},
		{types.Int4Type, "", "08P01: insufficient data left in message"},
		{types.Int4Type, "0000000102", "trailing"},
		{types.BoolType, "02", "t"},
		{types.BoolType, "0101", "trailing"},
		{types.DateType, "7f000000", "5835676-01-26"},
		{types.DateType, "7fffffff", "infinity"},
		{types.DateType, "80000001", "22008: date out of range"},
		{types.TimestampType, "7f00000000000000", "291993-08-11 05:40:16.847872"},
		{types.TextType, "61ff", `22021: invalid byte sequence for encoding "UTF8": 0xff`},
		{types.TextType, "6100", `22021: invalid byte sequence for encoding "UTF8": 0x00`},
		{types.TextType, "61e282", `22021: invalid byte sequence for encoding "UTF8": 0xe2 0x82`},
		{types.VarcharType, "6162", "ab"},
		{types.PointType, "3ff0000000000000c004000000000000", "(1,-2.5)"}, // point_send('(1,-2.5)')
		{types.PointType, "3ff0000000000000", "08P01: insufficient data left in message"},
		{types.NameType, strings.Repeat("61", 63), strings.Repeat("a", 63)},
		{types.NameType, strings.Repeat("61", 64), "42622: identifier too long"}, // namerecv, unlike namein, does not clip
		{types.NumericType, "00010000", "08P01: insufficient data left in message"},
		{types.NumericType, "00020000000000000001", "08P01: insufficient data left in message"},
		{types.NumericType, "0001000000000000000109", "trailing"},
		{types.NumericType, "00010000000000002710", `22P03: invalid digit in external "numeric" value`},
		{types.NumericType, "00010000120000000001", `22P03: invalid sign in external "numeric" value`},
		{types.NumericType, "00010000000040000001", `22P03: invalid scale in external "numeric" value`},
		{types.NumericType, "000200000000000000010005", "1"}, // dscale 0 hides the second digit
		{types.NumericType, "00018000000000000001", "0"},
		{types.NumericType, "00010000c00000000001", "NaN"},
		{types.IntervalType, "000000000000000000000000000000", "08P01: insufficient data left in message"},
	} {
		b, _ := hex.DecodeString(c.hex)
		v, err := DecodeBinary(b, c.typ)
		var got string
		switch {
		case err == ErrBinaryTrailing:
			got = "trailing"
		case err != nil:
			got = pgerr.Code(err) + ": " + err.Error()
		default:
			got = string(types.FormatText(nil, v, c.typ, &types.Format{DateStyle: "ISO, MDY"}))
		}
		if got != c.want {
			t.Errorf("%v %s: got %q, want %q", c.typ, c.hex, got, c.want)
		}
	}
}
