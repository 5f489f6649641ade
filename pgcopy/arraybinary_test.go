package pgcopy

import (
	"encoding/hex"
	"testing"

	"github.com/joind/joind/types"
)

// The expected bytes are PostgreSQL 15's array_send of the same literals.
func TestArraySendRecv(t *testing.T) {
	for _, c := range []struct {
		lit, elem, send string
	}{
		{"{1,NULL}", "int4", "00000001000000010000001700000002000000010000000400000001ffffffff"},
		{"[0:1]={a,b}", "text", "000000010000000000000019000000020000000000000001610000000162"},
		{"{}", "int4", "000000000000000000000017"},
	} {
		et, err := types.FromTypeName([]string{c.elem}, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		at := types.ArrayOf(et)
		v, err := types.ParseText(c.lit, at)
		if err != nil {
			t.Fatal(err)
		}
		got := hex.EncodeToString(AppendBinary(nil, v, at))
		if got != c.send {
			t.Errorf("array_send(%s) = %s, want %s", c.lit, got, c.send)
		}
		raw, _ := hex.DecodeString(c.send)
		back, err := DecodeBinary(raw, at)
		if err != nil {
			t.Fatalf("array_recv(%s): %v", c.lit, err)
		}
		if types.Compare(back, v, at) != 0 || types.TextOf(back, at) != types.TextOf(v, at) {
			t.Errorf("array_recv(%s) = %s", c.lit, types.TextOf(back, at))
		}
	}
}
