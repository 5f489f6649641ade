package pgcopy

import (
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/types"
)

// A client's values in the extended protocol: Bind's parameters arrive in
// text or binary format, DataRow's columns leave in the format the portal
// asked for.

// DecodeParam reads bind parameter i (0-based) of type t, sent in format
// (0 text, 1 binary); b == nil is NULL.
func DecodeParam(i int, b []byte, format int16, t types.Type, f *types.Format, now time.Time) (types.Value, error) {
	switch {
	case b == nil:
		return types.NullValue, nil
	case format == 1:
		v, err := DecodeBinary(b, t)
		if err == ErrBinaryTrailing {
			err = pgerr.New(CodeInvalidBinary, "incorrect binary data format in bind parameter %d", i+1)
		}
		return v, err
	}
	if err := pgerr.CheckUTF8(b); err != nil {
		return types.Value{}, err
	}
	v, err := types.ParseTextFormat(string(b), t, f, now)
	if err != nil && (t.ID == types.Date || t.ID == types.Timestamp) {
		// PostgreSQL's date and timestamp input ignore a zone (pgjdbc
		// sends "2024-01-01 +00"); types does not yet.
		if rest, ok := stripZone(string(b)); ok {
			v, err = types.ParseTextFormat(rest, t, f, now)
		}
	}
	return v, err
}

// stripZone removes a trailing numeric zone ("+00", " -08:00", "+0530").
func stripZone(s string) (string, bool) {
	i := strings.LastIndexAny(s, "+-")
	if i <= 0 {
		return s, false
	}
	zone := s[i+1:]
	if zone == "" || len(zone) > 8 {
		return s, false
	}
	for _, r := range zone {
		if (r < '0' || r > '9') && r != ':' {
			return s, false
		}
	}
	rest := strings.TrimRight(s[:i], " ")
	// A date's own '-' (2024-01-01) is not a zone: a zone follows a time
	// or a space.
	if i > 0 && s[i-1] != ' ' && !strings.Contains(rest, ":") {
		return s, false
	}
	return rest, true
}

// RowEncoder turns rows of a batch into DataRow values: text format, or
// binary for the columns whose format is 1.
type RowEncoder struct {
	formats []int16 // nil: all text
	types   []types.Type
	f       *types.Format
	vals    [][]byte
	ends    []int
	buf     []byte
}

// NewRowEncoder encodes columns of the given types; formats (nil: all
// text) gives each column's result format.
func NewRowEncoder(colTypes []types.Type, formats []int16, f *types.Format) *RowEncoder {
	// buf starts non-nil: slicing a nil buffer yields nil, which the wire
	// sends as NULL, so a row of empty strings would arrive as NULLs.
	return &RowEncoder{formats: formats, types: colTypes, f: f, vals: make([][]byte, len(colTypes)),
		ends: make([]int, len(colTypes)), buf: make([]byte, 0, 256)}
}

// Encode returns row i of rec; the result is valid until the next call.
func (e *RowEncoder) Encode(rec arrow.Record, i int) [][]byte {
	e.buf = e.buf[:0]
	for c, t := range e.types {
		v := types.GetValue(rec.Column(c), t, i)
		if v.Null {
			e.ends[c] = -1
			continue
		}
		if e.formats != nil && e.formats[c] == 1 {
			e.buf = AppendBinary(e.buf, v, t)
		} else {
			e.buf = types.FormatText(e.buf, v, t, e.f)
		}
		e.ends[c] = len(e.buf)
	}
	start := 0
	for c := range e.types {
		if e.ends[c] < 0 {
			e.vals[c] = nil
			continue
		}
		e.vals[c] = e.buf[start:e.ends[c]:e.ends[c]]
		start = e.ends[c]
	}
	return e.vals
}
