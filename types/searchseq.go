package types

import (
	"encoding/binary"
	"math"
	"strings"
)

// The columns WITH RECURSIVE's SEARCH and CYCLE clauses add: PostgreSQL
// makes SEARCH DEPTH FIRST's sequence and CYCLE's path arrays of records
// (record[]) and SEARCH BREADTH FIRST's sequence a record of the depth and
// the search columns. joind has neither arrays nor records yet, so these
// two types hold such a value in one private, order-preserving byte
// encoding in the String payload: the bytes compare (strings.Compare, the
// default of Compare and of the not-distinct key encoding) exactly as
// PostgreSQL's record_cmp and array_cmp order the values, so ORDER BY,
// DISTINCT and UNION work unchanged, and FormatText decodes them into
// record_out/array_out text. Only the recursive union builds them
// (operators/recursive.go); they switch to the real record and array types
// once those exist.
//
// Encoding: a record is its fields, then 0x00; a field is 0x02 and its
// type ID when NULL (record_cmp sorts NULL after every value), else 0x01,
// the field's type ID and its value (8 big-endian bytes with the sign flipped for integer
// kinds, the float order-preserving bits for floats, the bytes with 0x00
// escaped as 0x00 0xFF and ended by 0x00 0x01 for text kinds). An array is
// each element as 0x01 and the record, then 0x00, so a prefix sorts first.
const (
	// SeqArray is record[] built by SEARCH DEPTH FIRST and CYCLE's path.
	SeqArray ID = 240
	// SeqRecord is the record built by SEARCH BREADTH FIRST.
	SeqRecord ID = 241
)

// OIDRecordArray is record[]'s OID (OIDRecord is composite.go's).
const OIDRecordArray uint32 = 2287

var (
	SeqArrayType  = Type{ID: SeqArray, Typmod: -1}
	SeqRecordType = Type{ID: SeqRecord, Typmod: -1}
)

// SeqEncodable reports whether values of t can be a field of a SEARCH or
// CYCLE column; the others are refused with 0A000 by the binder.
func SeqEncodable(t Type) bool {
	switch t.ID {
	case Bool, Int2, Int4, Int8, Float4, Float8, Date, Timestamp, TimestampTZ, Text, Varchar, Name:
		return true
	}
	return false
}

// AppendSeqRecord appends the encoding of the record of vals (of types ts).
func AppendSeqRecord(dst []byte, vals []Value, ts []Type) []byte {
	for i, v := range vals {
		t := ts[i]
		if v.Null {
			dst = append(dst, 0x02, byte(t.ID))
			continue
		}
		dst = append(dst, 0x01, byte(t.ID))
		switch t.ID {
		case Float4, Float8:
			dst = binary.BigEndian.AppendUint64(dst, floatKey(v.F))
		case Text, Varchar, Name:
			for j := 0; j < len(v.S); j++ {
				dst = append(dst, v.S[j])
				if v.S[j] == 0 {
					dst = append(dst, 0xFF)
				}
			}
			dst = append(dst, 0x00, 0x01)
		default:
			dst = binary.BigEndian.AppendUint64(dst, uint64(v.I)^(1<<63))
		}
	}
	return append(dst, 0x00)
}

// SeqArrayAppend is path || ARRAY[record]: path an encoded SeqArray ("" for
// the empty array), rec an encoded record (AppendSeqRecord).
func SeqArrayAppend(path string, rec []byte) string {
	if path == "" {
		path = "\x00"
	}
	var b strings.Builder
	b.Grow(len(path) + len(rec) + 1)
	b.WriteString(path[:len(path)-1])
	b.WriteByte(0x01)
	b.Write(rec)
	b.WriteByte(0x00)
	return b.String()
}

// SeqArrayContains is rec = ANY(path) under record equality.
func SeqArrayContains(path string, rec []byte) bool {
	for _, e := range SeqArrayElements(path) {
		if e == string(rec) {
			return true
		}
	}
	return false
}

// SeqRecordDepth is the first field of a breadth-first sequence record
// (its depth, an int8).
func SeqRecordDepth(rec string) int64 {
	return int64(binary.BigEndian.Uint64([]byte(rec[2:10])) ^ (1 << 63))
}

// floatKey orders floats as PostgreSQL does: -0 = 0, NaN above all.
func floatKey(f float64) uint64 {
	if math.IsNaN(f) {
		return math.MaxUint64
	}
	if f == 0 {
		f = 0
	}
	u := math.Float64bits(f)
	if u&(1<<63) != 0 {
		return ^u
	}
	return u | 1<<63
}

func floatFromKey(u uint64) float64 {
	if u == math.MaxUint64 {
		return math.NaN()
	}
	if u&(1<<63) != 0 {
		return math.Float64frombits(u &^ (1 << 63))
	}
	return math.Float64frombits(^u)
}

// seqRecordLen is the length of the encoded record at the start of s.
func seqRecordLen(s string) int {
	i := 0
	for s[i] != 0x00 {
		if s[i] == 0x02 {
			i += 2
			continue
		}
		switch ID(s[i+1]) {
		case Text, Varchar, Name:
			i += 2
			for !(s[i] == 0x00 && s[i+1] == 0x01) {
				if s[i] == 0x00 {
					i++
				}
				i++
			}
			i += 2
		default:
			i += 10
		}
	}
	return i + 1
}

// SeqRecordFields decodes the encoded record s into its fields' values and
// types.
func SeqRecordFields(s string) ([]Value, []Type) {
	var vals []Value
	var ts []Type
	for i := 0; s[i] != 0x00; {
		if s[i] == 0x02 {
			vals, ts = append(vals, NullValue), append(ts, Type{ID: ID(s[i+1]), Typmod: -1})
			i += 2
			continue
		}
		t := Type{ID: ID(s[i+1]), Typmod: -1}
		i += 2
		var v Value
		switch t.ID {
		case Text, Varchar, Name:
			var sb strings.Builder
			for !(s[i] == 0x00 && s[i+1] == 0x01) {
				sb.WriteByte(s[i])
				if s[i] == 0x00 {
					i++
				}
				i++
			}
			i += 2
			v.S = sb.String()
		case Float4, Float8:
			v.F = floatFromKey(binary.BigEndian.Uint64([]byte(s[i : i+8])))
			i += 8
		default:
			v.I = int64(binary.BigEndian.Uint64([]byte(s[i:i+8])) ^ (1 << 63))
			i += 8
		}
		vals, ts = append(vals, v), append(ts, t)
	}
	return vals, ts
}

// SeqArrayElements splits an encoded SeqArray into its encoded records.
func SeqArrayElements(s string) []string {
	var out []string
	for i := 0; i < len(s) && s[i] == 0x01; {
		n := seqRecordLen(s[i+1:])
		out = append(out, s[i+1:i+1+n])
		i += 1 + n
	}
	return out
}

// appendSeqRecordText appends record_out's text of the encoded record s.
func appendSeqRecordText(dst []byte, s string, f *Format) []byte {
	var b strings.Builder
	b.WriteByte('(')
	vals, ts := SeqRecordFields(s)
	for i, v := range vals {
		if i > 0 {
			b.WriteByte(',')
		}
		if !v.Null {
			writeRecordField(&b, string(FormatText(nil, v, ts[i], f)))
		}
	}
	b.WriteByte(')')
	return append(dst, b.String()...)
}

// appendSeqText is the output function of SeqArray and SeqRecord.
func appendSeqText(dst []byte, v Value, t Type, f *Format) []byte {
	if t.ID == SeqRecord {
		return appendSeqRecordText(dst, v.S, f)
	}
	dst = append(dst, '{')
	for i, rec := range SeqArrayElements(v.S) {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendArrayElement(dst, string(appendSeqRecordText(nil, rec, f)))
	}
	return append(dst, '}')
}

// appendArrayElement is array_out's quoting of one element's text.
func appendArrayElement(dst []byte, s string) []byte {
	if s != "" && !strings.EqualFold(s, "NULL") && !strings.ContainsAny(s, "{}\",\\ \t\n\r\v\f") {
		return append(dst, s...)
	}
	dst = append(dst, '"')
	for i := 0; i < len(s); i++ {
		if s[i] == '"' || s[i] == '\\' {
			dst = append(dst, '\\')
		}
		dst = append(dst, s[i])
	}
	return append(dst, '"')
}

// The comparison operators of record and record[] (record_eq, array_eq,
// ...), over the order-preserving encoding.
func init() {
	for _, id := range []ID{SeqArray, SeqRecord} {
		for _, op := range cmpOps {
			regOp(op, []ID{id, id}, Bool, cmpEval(op, Type{ID: id, Typmod: -1}))
		}
	}
}
