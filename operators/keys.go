package operators

import (
	"encoding/binary"
	"math"
	"math/bits"
	"strings"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/cockroachdb/apd/v3"
	"github.com/joind/joind/operators/hashtable"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/types"
)

// The not-distinct key encoding: the one way joins, hash aggregation,
// DISTINCT, set operations and repartition routing turn SQL values into
// comparable keys. Two non-NULL values of a key type are equal under
// PostgreSQL's equality operator exactly when their encodings are equal:
//
//   - integers of every width, date, timestamp(tz) and bool: the value as
//     an int64 (int2 = int4 = int8 across widths);
//   - float4 and float8: the float64's bits, with -0 folded to 0 and every
//     NaN to one NaN (PostgreSQL orders NaN equal to itself);
//   - numeric: the text of the reduced value (1.0 = 1.00 → "1"; "0" for
//     every zero; "NaN", "Infinity", "-Infinity");
//   - char(n): the text without trailing blanks; text, varchar and other
//     text-like types: their bytes (C collation);
//   - interval: PostgreSQL's interval_cmp_value, a month as 30 days and a
//     day as 24 hours, as 16 bytes (whole days, then nanoseconds in the
//     day), so '1 mon' = '30 days' = '720 hours'.
//
// A column encodes into a KeyCol, which joins, grouping, DISTINCT and set
// operations hash and compare column by column (the key layouts below);
// a row of several columns can also encode into bytes (AppendKeyRow, for
// DISTINCT aggregates' per-group sets) where NULL is a marker equal only
// to NULL. Keys hash with the one hash family of package hashtable
// (KeyCol.Hash, HashKeys).

// IntKey reports whether keys of type t encode as one int64 each (KeyCol.
// Ints); the other types encode as byte strings (KeyCol.Strs).
func IntKey(t types.Type) bool {
	if types.IsWordKind(t.ID) {
		return true // an OID, xid or LSN in an int64
	}
	switch t.ID {
	case types.Int2, types.Int4, types.Int8, types.Bool, types.Float4, types.Float8,
		types.Date, types.Timestamp, types.TimestampTZ, types.Time, types.TimeTZ:
		return true
	}
	return false
}

// KeyCol is one column of keys, encoded. Ints is non-nil for IntKey types,
// Strs for the others; a NULL row's entry is meaningless. Strings may point
// into the batch's buffers (batches are immutable and Go-allocated).
type KeyCol struct {
	Nulls []bool   // nil when no row is NULL
	Ints  []int64  // IntKey types
	Strs  []string // the others

	// Buffers Encode reuses (Ints may instead share a batch's values).
	nulls []bool
	ints  []int64
}

// Null reports whether row i is NULL.
func (k *KeyCol) Null(i int) bool { return k.Nulls != nil && k.Nulls[i] }

// Equal reports whether non-NULL row i of k equals non-NULL row j of o.
func (k *KeyCol) Equal(i int, o *KeyCol, j int) bool {
	if k.Ints != nil {
		return k.Ints[i] == o.Ints[j]
	}
	return k.Strs[i] == o.Strs[j]
}

// nullKey is what a NULL hashes as (any fixed value: hashes only route and
// pick candidates, keys decide).
const nullKey = 0x6a09e667f3bcc908

// Hash is row i's hash seeded with seed (the hash of the columns before).
func (k *KeyCol) Hash(i int, seed uint64) uint64 {
	switch {
	case k.Null(i):
		return hashtable.HashInt64(nullKey, seed)
	case k.Ints != nil:
		return hashtable.HashInt64(k.Ints[i], seed)
	}
	return hashtable.HashString(k.Strs[i], seed)
}

// hashInto replaces h[i] by row i's hash seeded with h[i], for every row.
func (k *KeyCol) hashInto(h []uint64) {
	switch {
	case k.Nulls != nil:
		for i := range h {
			h[i] = k.Hash(i, h[i])
		}
	case k.Ints != nil:
		ints := k.Ints[:len(h)]
		for i, v := range ints {
			h[i] = hashtable.HashInt64(v, h[i])
		}
	default:
		strs := k.Strs[:len(h)]
		for i, s := range strs {
			h[i] = hashtable.HashString(s, h[i])
		}
	}
}

// keySeed starts every row hash.
const keySeed = 0x2545F4914F6CDD1D

// HashKeys returns the hash of every row (n rows) over the columns cols of
// ks (all of them when cols is nil) into dst, reused if large enough.
// Equal keys, NULLs included, hash equal.
func HashKeys(ks []KeyCol, cols []int, n int, dst []uint64) []uint64 {
	if cap(dst) < n {
		dst = make([]uint64, n)
	}
	dst = dst[:n]
	for i := range dst {
		dst[i] = keySeed
	}
	if cols == nil {
		for c := range ks {
			ks[c].hashInto(dst)
		}
		return dst
	}
	for _, c := range cols {
		ks[c].hashInto(dst)
	}
	return dst
}

// AppendKey appends row i's encoding to buf: a NULL marker, or a non-NULL
// marker and the value (8 bytes, or a length and the bytes).
func (k *KeyCol) AppendKey(buf []byte, i int) []byte {
	if k.Null(i) {
		return append(buf, 0)
	}
	buf = append(buf, 1)
	if k.Ints != nil {
		return binary.LittleEndian.AppendUint64(buf, uint64(k.Ints[i]))
	}
	s := k.Strs[i]
	buf = binary.AppendUvarint(buf, uint64(len(s)))
	return append(buf, s...)
}

// AppendKeyRow appends row i's encoding over the columns cols of ks (all
// when cols is nil).
func AppendKeyRow(buf []byte, ks []KeyCol, cols []int, i int) []byte {
	if cols == nil {
		for c := range ks {
			buf = ks[c].AppendKey(buf, i)
		}
		return buf
	}
	for _, c := range cols {
		buf = ks[c].AppendKey(buf, i)
	}
	return buf
}

// EncodeKeys encodes the column arr of type t.
func EncodeKeys(arr arrow.Array, t types.Type) (KeyCol, error) {
	var k KeyCol
	err := k.Encode(arr, t)
	return k, err
}

// Encode encodes the column arr of type t into k, reusing k's buffers (the
// previous batch's encoding becomes invalid).
func (k *KeyCol) Encode(arr arrow.Array, t types.Type) error {
	n := arr.Len()
	nulls := arr.NullN()
	k.Nulls, k.Ints, k.Strs = nil, nil, k.Strs[:0]
	if nulls > 0 {
		k.nulls = grow(k.nulls, n)
		k.Nulls = k.nulls
		for i := range k.Nulls {
			k.Nulls[i] = arr.IsNull(i)
		}
	}
	if IntKey(t) {
		if a, ok := arr.(*array.Int64); ok {
			// Keys are read-only: share the batch's values.
			if k.Ints = a.Int64Values(); k.Ints == nil {
				k.Ints = []int64{}
			}
			k.Strs = nil
			return nil
		}
		k.ints = grow(k.ints, n)
		k.Ints, k.Strs = k.ints, nil
		switch a := arr.(type) {
		case *array.Int32:
			for i, v := range a.Int32Values() {
				k.Ints[i] = int64(v)
			}
		case *array.Int16:
			for i, v := range a.Int16Values() {
				k.Ints[i] = int64(v)
			}
		case *array.Date32:
			for i, v := range a.Date32Values() {
				k.Ints[i] = int64(v)
			}
		case *array.Timestamp:
			for i, v := range a.TimestampValues() {
				k.Ints[i] = int64(v)
			}
		case *array.Boolean:
			for i := range n {
				k.Ints[i] = 0
				if a.Value(i) {
					k.Ints[i] = 1
				}
			}
		case *array.Float64:
			for i, v := range a.Float64Values() {
				k.Ints[i] = floatKey(v)
			}
		case *array.Float32:
			for i, v := range a.Float32Values() {
				k.Ints[i] = floatKey(float64(v))
			}
		default:
			if nulls != n { // an all-NULL column may come in another Arrow type
				return errKeyArray(arr, t)
			}
		}
		return nil
	}
	k.Strs = grow(k.Strs, n)
	switch a := arr.(type) {
	case *array.String:
		for i := range n {
			if k.Null(i) {
				k.Strs[i] = ""
				continue
			}
			s := a.Value(i)
			switch t.ID {
			case types.Numeric:
				c, err := numericKey(s)
				if err != nil {
					return err
				}
				s = c
			case types.Char:
				s = strings.TrimRight(s, " ")
			case types.Record:
				s = types.RecordKey(s, t)
			case types.JSONB:
				s = types.JSONBKey(s) // 1.0 = 1
			}
			k.Strs[i] = s
		}
	case *array.MonthDayNanoInterval:
		for i, v := range a.MonthDayNanoIntervalValues() {
			k.Strs[i] = ""
			if !k.Null(i) {
				k.Strs[i] = intervalKey(v)
			}
		}
	case *array.LargeBinary:
		var buf []byte
		for i := range n {
			k.Strs[i] = ""
			if !k.Null(i) {
				buf = types.AppendArrayKey(buf[:0], types.GetValue(a, t, i), t)
				k.Strs[i] = string(buf)
			}
		}
	case *array.Decimal64, *array.Decimal128, *array.Binary:
		var buf []byte
		for i := range n {
			k.Strs[i] = ""
			if !k.Null(i) {
				buf = types.AppendNumericKey(buf[:0], arr, i)
				k.Strs[i] = string(buf)
			}
		}
	default:
		if nulls != n {
			return errKeyArray(arr, t)
		}
		clear(k.Strs)
	}
	return nil
}

// grow returns s with length n, reusing its array when large enough; never
// nil (a nil Ints or Strs would say which kind the column is not).
func grow[T any](s []T, n int) []T {
	if s == nil || cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

func errKeyArray(arr arrow.Array, t types.Type) error {
	return pgerr.New(pgerr.InternalError, "key of type %d has unexpected array %T", t.ID, arr)
}

// floatKey maps equal SQL floats to equal bits: both zeros to +0, every NaN
// to one NaN.
func floatKey(f float64) int64 {
	switch {
	case f != f:
		return int64(math.Float64bits(math.NaN()))
	case f == 0:
		return 0
	}
	return int64(math.Float64bits(f))
}

// numericKey is a numeric's text reduced: no trailing fractional zeros, no
// "-" on zero. PostgreSQL's output form ("[-]digits[.digits]", what a
// numeric column holds) is reduced in place; anything else through apd.
func numericKey(s string) (string, error) {
	if c, ok := reducePlain(s); ok {
		return c, nil
	}
	d, _, err := apd.NewFromString(s)
	if err != nil {
		return "", pgerr.New(pgerr.InternalError, "corrupt numeric %q in a key", s)
	}
	if d.Form != apd.Finite {
		return d.String(), nil // NaN, Infinity, -Infinity
	}
	if d.IsZero() {
		return "0", nil
	}
	var r apd.Decimal
	r.Reduce(d)
	return r.Text('f'), nil
}

// reducePlain reduces a numeric in PostgreSQL's output form: an optional
// "-", digits without a redundant leading zero, an optional "." and
// digits. It reports false for any other form.
func reducePlain(s string) (string, bool) {
	i := 0
	if len(s) > 0 && s[0] == '-' {
		i = 1
	}
	start, dot, zero := i, -1, true
	for ; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '1' && c <= '9':
			zero = false
		case c == '0':
		case c == '.' && dot < 0:
			dot = i
		default:
			return "", false
		}
	}
	intEnd := len(s)
	if dot >= 0 {
		intEnd = dot
	}
	if intEnd == start || intEnd-start > 1 && s[start] == '0' || dot == len(s)-1 {
		return "", false
	}
	if zero {
		return "0", true
	}
	if dot < 0 {
		return s, true
	}
	e := len(s)
	for s[e-1] == '0' {
		e--
	}
	if e-1 == dot {
		e--
	}
	return s[:e], true
}

// intervalKey is PostgreSQL's interval_cmp_value in canonical form: whole
// days, then microseconds within [0, 1 day) (the array's nanoseconds
// field holds microseconds: types.Type.ArrowType).
func intervalKey(v arrow.MonthDayNanoInterval) string {
	const day = 86_400_000_000
	days := int64(v.Months)*30 + int64(v.Days) + v.Nanoseconds/day
	rem := v.Nanoseconds % day
	if rem < 0 {
		rem += day
		days--
	}
	var b [16]byte
	binary.LittleEndian.PutUint64(b[:8], uint64(days))
	binary.LittleEndian.PutUint64(b[8:], uint64(rem))
	return string(b[:])
}

// encodeBatch encodes the columns arrs into ks, reusing its columns'
// buffers; a column that cannot be a key is an internal error (the planner
// only makes keys of key types).
func encodeBatch(arrs []arrow.Array, ts []types.Type, ks []KeyCol) []KeyCol {
	for len(ks) < len(arrs) {
		ks = append(ks, KeyCol{})
	}
	ks = ks[:len(arrs)]
	for c, a := range arrs {
		if err := ks[c].Encode(a, ts[c]); err != nil {
			panic(err)
		}
	}
	return ks
}

// Key layouts. A hash table over keys of several columns, or of one column
// that is not an int64, needs neither a per-row byte encoding nor a copy of
// the keys: the columns are hashed one after the other into one hash per
// row (HashKeys), the table holds the hash, and candidates are confirmed
// column by column (EqualRows) against the key columns the table was built
// from. When every column is fixed-width and the build side's values span
// few enough bits, the columns instead pack into one int64 (KeyPacker) that
// is the key itself: exact, so no confirmation, and dense when the values
// are.

// KeyPacker packs fixed-width key columns (KeyCol.Ints) into one int64 per
// row: the mixed-radix number of the values' offsets from the build side's
// minimum of each column. Equal rows pack equal, different rows different;
// a row outside the build side's ranges packs to -1, which no build row
// packs to.
type KeyPacker struct {
	lo   []int64
	span []uint64 // values per column: max-lo+1
}

// NewKeyPacker returns the packer for the key columns cols of ks over its
// first n rows (rows with a NULL in any of cols are ignored), or false when
// a column is not fixed-width or the product of the spans passes 2^62.
func NewKeyPacker(ks []KeyCol, cols []int, n int) (*KeyPacker, bool) {
	p := &KeyPacker{lo: make([]int64, len(cols)), span: make([]uint64, len(cols))}
	total := uint64(1)
	for i, c := range cols {
		k := &ks[c]
		if k.Ints == nil {
			return nil, false
		}
		lo, hi, any := int64(math.MaxInt64), int64(math.MinInt64), false
		for r, v := range k.Ints[:n] {
			if anyNullAt(ks, cols, r) {
				continue
			}
			lo, hi, any = min(lo, v), max(hi, v), true
		}
		if !any {
			lo, hi = 0, 0
		}
		span := uint64(hi-lo) + 1
		if span == 0 || span > 1<<62 {
			return nil, false
		}
		hiP, loP := bits.Mul64(total, span)
		if hiP != 0 || loP > 1<<62 {
			return nil, false
		}
		total = loP
		p.lo[i], p.span[i] = lo, span
	}
	return p, true
}

func anyNullAt(ks []KeyCol, cols []int, r int) bool {
	for _, c := range cols {
		if ks[c].Null(r) {
			return true
		}
	}
	return false
}

// Pack packs the columns cols of ks over n rows into dst (reused when large
// enough) and returns it with the rows' NULLs (a row is NULL when any of
// its columns is; nil when none is), in a KeyCol of Ints.
func (p *KeyPacker) Pack(ks []KeyCol, cols []int, n int, dst *KeyCol) {
	dst.ints = grow(dst.ints, n)
	out := dst.ints[:n]
	dst.Ints, dst.Strs, dst.Nulls = out, nil, nil
	// Column by column; a row out of range gets bit 63 (sticky under the
	// mixed-radix steps because every partial result stays below 2^62).
	const bad = uint64(1) << 63
	u := unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(out))), n)
	for i, c := range cols {
		vals := ks[c].Ints[:n]
		lo, span := p.lo[i], p.span[i]
		if i == 0 {
			for r, v := range vals {
				d := uint64(v - lo)
				if d >= span {
					d = bad
				}
				u[r] = d
			}
			continue
		}
		for r, v := range vals {
			d := uint64(v - lo)
			acc := u[r]
			if d >= span || acc&bad != 0 {
				u[r] = bad
				continue
			}
			u[r] = acc*span + d
		}
	}
	for r, v := range u {
		if v&bad != 0 {
			u[r] = ^uint64(0) // -1
		}
	}
	for _, c := range cols {
		if ks[c].Nulls == nil {
			continue
		}
		if dst.Nulls == nil {
			dst.nulls = grow(dst.nulls, n)
			dst.Nulls = dst.nulls[:n]
			clear(dst.Nulls)
		}
		for r, null := range ks[c].Nulls[:n] {
			dst.Nulls[r] = dst.Nulls[r] || null
		}
	}
}

// EqualRows clears keep[i] unless row a[i] of k equals row b[i] of o, a
// NULL equal to a NULL only (callers drop the rows whose NULLs never
// match). Both columns come from the same key type family.
func (k *KeyCol) EqualRows(a []int32, o *KeyCol, b []int32, keep []bool) {
	keep = keep[:len(a)]
	b = b[:len(a)]
	if k.Nulls != nil || o.Nulls != nil {
		for i, p := range a {
			r := b[i]
			kn, on := k.Null(int(p)), o.Null(int(r))
			keep[i] = keep[i] && kn == on && (kn || k.Equal(int(p), o, int(r)))
		}
		return
	}
	if k.Ints != nil {
		ki, oi := k.Ints, o.Ints
		for i, p := range a {
			keep[i] = keep[i] && ki[p] == oi[b[i]]
		}
		return
	}
	ks, os := k.Strs, o.Strs
	for i, p := range a {
		keep[i] = keep[i] && ks[p] == os[b[i]]
	}
}
