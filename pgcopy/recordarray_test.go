package pgcopy

import (
	"encoding/hex"
	"testing"

	"github.com/joind/joind/types"
)

// TestRecordAndByteaArraySend holds array_send of record[] and bytea[]
// values to the bytes PostgreSQL 15's array_send and record_send return
// for the same values (SELECT array_send(...) on the oracle).
func TestRecordAndByteaArraySend(t *testing.T) {
	numIv := types.AnonymousRecord([]types.Type{{ID: types.Numeric, Typmod: -1}, {ID: types.Interval, Typmod: -1}})
	depth := types.RecordOf(types.RecordDesc{Fields: []string{"", ""}, Types: []types.Type{types.Int8Type, {ID: types.Numeric, Typmod: -1}}})
	intText := types.AnonymousRecord([]types.Type{types.Int4Type, types.TextType})
	bytea := types.Type{ID: types.Bytea, Typmod: -1}
	arr := func(elems ...types.Value) types.Value { return types.Value{Arr: types.NewArray(elems)} }
	cases := []struct {
		name string
		v    types.Value
		t    types.Type
		want string
	}{
		// ARRAY[row(1.50::numeric, interval '1 day')]
		{"record[] of numeric, interval", arr(types.Value{S: `(1.50,"1 day")`}), types.ArrayOf(numIv),
			"0000000100000000000008c900000001000000010000003000000002000006a40000000c000200000000000200011388000004a20000001000000000000000000000000100000000"},
		// ARRAY[row(1,'a'::text), row(2,NULL::text)]
		{"record[] with a NULL field", arr(types.Value{S: `(1,a)`}, types.Value{S: `(2,)`}), types.ArrayOf(intText),
			"0000000100000000000008c900000002000000010000001900000002000000170000000400000001000000190000000161000000180000000200000017000000040000000200000019ffffffff"},
		// SEARCH BREADTH FIRST's sequence record (1, 2.50)
		{"breadth-first sequence", types.Value{S: `(1,2.50)`}, depth,
			"0000000200000014000000080000000000000001000006a40000000c000200000000000200021388"},
		// ARRAY['\x01'::bytea, NULL, '\x']
		{"bytea[]", arr(types.Value{S: "\x01"}, types.NullValue, types.Value{S: ""}), types.ArrayOf(bytea),
			"00000001000000010000001100000003000000010000000101ffffffff00000000"},
		// '{}'::bytea[]
		{"empty bytea[]", arr(), types.ArrayOf(bytea), "000000000000000000000011"},
	}
	for _, c := range cases {
		if got := hex.EncodeToString(AppendBinary(nil, c.v, c.t)); got != c.want {
			t.Errorf("%s: array_send = %s, want %s", c.name, got, c.want)
		}
	}
}
