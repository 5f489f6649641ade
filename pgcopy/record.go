package pgcopy

import (
	"encoding/binary"

	"github.com/joind/joind/types"
)

// appendRecordBinary is record_send: the field count, then per field its
// type OID and its length-prefixed binary value (-1 for NULL). The fields
// are read back from the record's text (types/composite.go); a record
// whose fields are unknown goes out as its text, which cannot happen for
// a value joind made.
func appendRecordBinary(dst []byte, v types.Value, t types.Type) []byte {
	d := t.Desc()
	vals, err := types.ParseRecordFields(v.S, t, nil)
	if d == nil || err != nil {
		return append(dst, v.S...)
	}
	dst = binary.BigEndian.AppendUint32(dst, uint32(len(vals)))
	for i, f := range vals {
		dst = binary.BigEndian.AppendUint32(dst, d.Types[i].OID())
		if f.Null {
			dst = binary.BigEndian.AppendUint32(dst, 0xFFFFFFFF)
			continue
		}
		at := len(dst)
		dst = append(dst, 0, 0, 0, 0)
		dst = AppendBinary(dst, f, d.Types[i])
		binary.BigEndian.PutUint32(dst[at:], uint32(len(dst)-at-4))
	}
	return dst
}
