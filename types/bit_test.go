package types

import (
	"testing"

	"github.com/joind/joind/pgerr"
)

func TestParseBitString(t *testing.T) {
	cases := []struct {
		in      string
		typmod  int32
		varying bool
		want    string
		code    string
	}{
		{"101", -1, false, "101", ""},
		{"b101", -1, false, "101", ""},
		{"X1f", -1, true, "00011111", ""},
		{"", -1, true, "", ""},
		{"101", 4, false, "", "22026"},  // bit(n): exact length
		{"102", 3, false, "", "22P02"},  // length first, then the digits
		{"1020", 3, false, "", "22026"}, // ... so a wrong length wins
		{"101", 2, true, "", "22001"},   // bit varying(n): at most n
		{"10", 2, true, "10", ""},
		{"xg", -1, true, "", "22P02"},
	}
	for _, c := range cases {
		got, err := parseBitString(c.in, c.typmod, c.varying)
		if c.code != "" {
			if pe, ok := err.(*pgerr.Error); !ok || pe.Code != c.code {
				t.Errorf("parseBitString(%q, %d, %v): error %v, want SQLSTATE %s", c.in, c.typmod, c.varying, err, c.code)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("parseBitString(%q, %d, %v) = %q, %v; want %q", c.in, c.typmod, c.varying, got, err, c.want)
		}
	}
}

func TestCoerceBit(t *testing.T) {
	if s, err := coerceBit("101", BitOf(5), true); err != nil || s != "10100" {
		t.Errorf("explicit bit(5) of 101 = %q, %v; want zero-padded 10100", s, err)
	}
	if s, err := coerceBit("10101", BitOf(3), true); err != nil || s != "101" {
		t.Errorf("explicit bit(3) of 10101 = %q, %v; want truncated 101", s, err)
	}
	if _, err := coerceBit("101", BitOf(5), false); err == nil {
		t.Error("implicit bit(5) of 101 succeeded; want 22026")
	}
	if s, err := coerceBit("101", VarBitOf(5), false); err != nil || s != "101" {
		t.Errorf("bit varying(5) of 101 = %q, %v; want unchanged", s, err)
	}
	if _, err := coerceBit("101", VarBitOf(2), false); err == nil {
		t.Error("implicit bit varying(2) of 101 succeeded; want 22001")
	}
}

func TestBitIntCasts(t *testing.T) {
	if got := bitFromInt(-5, 32, 8); got != "11111011" {
		t.Errorf("(-5)::bit(8) = %s", got)
	}
	if got := bitFromInt(-1, 32, 34); got != "1111111111111111111111111111111111" {
		t.Errorf("(-1)::bit(34) = %s: want sign-extended", got)
	}
	if got := bitFromInt(5, 64, -1); got != "1" {
		t.Errorf("5::bit without a length = %s, want bit(1)", got)
	}
	if i, err := bitToInt("11111111111111111111111111111011", Int4); err != nil || i != -5 {
		t.Errorf("32 bits to int4 = %d, %v; want -5", i, err)
	}
	if _, err := bitToInt("100000000000000000000000000000000", Int4); err == nil {
		t.Error("33 bits to int4 succeeded; want integer out of range")
	}
}

func TestBitStringFunctions(t *testing.T) {
	for _, c := range []struct{ s, sub string }{{"0000101", "1010"}, {"00001010", "1010"}, {"", ""}, {"01", ""}} {
		want := map[string]int64{"0000101": 0, "00001010": 5, "": 0, "01": 1}[c.s]
		if got := bitPosition(c.s, c.sub); got != want {
			t.Errorf("position(%s in %s) = %d, want %d", c.sub, c.s, got, want)
		}
	}
	if s, _ := bitSubstring("01010101", -10, 2147483646, true); s != "01010101" {
		t.Errorf("substring from -10 for 2147483646 = %q", s)
	}
	if s, _ := bitSubstring("01010101", 2, 2147483646, true); s != "1010101" {
		t.Errorf("substring from 2 for 2147483646 (overflowing int4) = %q", s)
	}
	if got := bitShift("1101", -1, true); got != "0110" {
		t.Errorf("1101 << -1 = %s, want a right shift", got)
	}
	if s, err := bitOverlay("0101011100", "001", 2, 3); err != nil || s != "0001011100" {
		t.Errorf("overlay = %q, %v", s, err)
	}
}

func TestBitBinaryRoundTrip(t *testing.T) {
	for _, s := range []string{"", "1", "10110", "111111110", "0000000100000001"} {
		b := BitBytes(s)
		if len(b) != (len(s)+7)/8 {
			t.Errorf("BitBytes(%s) has %d bytes", s, len(b))
		}
		v, err := BitFromBytes(int32(len(s)), b, VarBitType)
		if err != nil || v.S != s {
			t.Errorf("round trip of %s = %q, %v", s, v.S, err)
		}
	}
	if _, err := BitFromBytes(3, []byte{0xa0}, BitOf(4)); err == nil {
		t.Error("bit_recv of 3 bits into bit(4) succeeded; want 22026")
	}
}
