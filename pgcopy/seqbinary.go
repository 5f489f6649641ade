package pgcopy

import (
	"encoding/binary"

	"github.com/joind/joind/types"
)

// appendSeqBinary is the binary send form of SEARCH's and CYCLE's record
// (record_send: the field count, then each field's type OID, length (-1
// for NULL) and binary value) and record[] (array_send: one dimension, no
// NULLs, element type record, the length and lower bound 1, then each
// element's length and record).
func appendSeqBinary(dst []byte, v types.Value, t types.Type) []byte {
	if t.ID == types.SeqRecord {
		return appendSeqRecordBinary(dst, v.S)
	}
	elems := types.SeqArrayElements(v.S)
	if len(elems) == 0 {
		dst = binary.BigEndian.AppendUint32(dst, 0) // no dimensions
		dst = binary.BigEndian.AppendUint32(dst, 0)
		return binary.BigEndian.AppendUint32(dst, types.OIDRecord)
	}
	dst = binary.BigEndian.AppendUint32(dst, 1)
	dst = binary.BigEndian.AppendUint32(dst, 0)
	dst = binary.BigEndian.AppendUint32(dst, types.OIDRecord)
	dst = binary.BigEndian.AppendUint32(dst, uint32(len(elems)))
	dst = binary.BigEndian.AppendUint32(dst, 1)
	for _, e := range elems {
		dst = appendLengthPrefixed(dst, func(b []byte) []byte { return appendSeqRecordBinary(b, e) })
	}
	return dst
}

func appendSeqRecordBinary(dst []byte, rec string) []byte {
	vals, ts := types.SeqRecordFields(rec)
	dst = binary.BigEndian.AppendUint32(dst, uint32(len(vals)))
	for i, v := range vals {
		dst = binary.BigEndian.AppendUint32(dst, ts[i].OID())
		if v.Null {
			dst = binary.BigEndian.AppendUint32(dst, 0xFFFFFFFF)
			continue
		}
		dst = appendLengthPrefixed(dst, func(b []byte) []byte { return AppendBinary(b, v, ts[i]) })
	}
	return dst
}

// appendLengthPrefixed appends what add writes after its int32 length.
func appendLengthPrefixed(dst []byte, add func([]byte) []byte) []byte {
	at := len(dst)
	dst = add(append(dst, 0, 0, 0, 0))
	binary.BigEndian.PutUint32(dst[at:], uint32(len(dst)-at-4))
	return dst
}
