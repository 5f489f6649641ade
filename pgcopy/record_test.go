package pgcopy

import (
	"bytes"
	"encoding/binary"
	"testing"

	"github.com/joind/joind/types"
)

// TestRecordBinary holds record_send's layout: field count, then per field
// its type OID, length (-1 NULL) and binary value.
func TestRecordBinary(t *testing.T) {
	rt := types.AnonymousRecord([]types.Type{types.Int4Type, types.TextType, types.Int8Type})
	got := AppendBinary(nil, types.Value{S: `(7,"a b",)`}, rt)
	var want []byte
	want = binary.BigEndian.AppendUint32(want, 3)
	want = binary.BigEndian.AppendUint32(want, types.OIDInt4)
	want = binary.BigEndian.AppendUint32(want, 4)
	want = binary.BigEndian.AppendUint32(want, 7)
	want = binary.BigEndian.AppendUint32(want, types.OIDText)
	want = binary.BigEndian.AppendUint32(want, 3)
	want = append(want, "a b"...)
	want = binary.BigEndian.AppendUint32(want, types.OIDInt8)
	want = binary.BigEndian.AppendUint32(want, 0xFFFFFFFF)
	if !bytes.Equal(got, want) {
		t.Fatalf("record_send = %x, want %x", got, want)
	}
}
