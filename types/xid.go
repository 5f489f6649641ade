package types

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/cockroachdb/apd/v3"
	"github.com/joind/joind/pgerr"
)

// The transaction-id and log-position types: xid (32-bit), xid8 (64-bit,
// an epoch and an xid) and pg_lsn (a write-ahead log position, printed
// as two hexadecimal halves "16/B374D848"). Each holds its unsigned number
// in Value.I, stored and compared like an OID (IsWordKind); xid8's and
// pg_lsn's with the top bit flipped (WordValue), so that every signed
// int64 path (sort, min/max, statistics) orders them as unsigned. xid has only
// = and <> (transaction ids wrap around, so PostgreSQL gives them no
// order); xid8 and pg_lsn order as unsigned numbers.

// Convenience values of the transaction-id and log-position types.
var (
	XidType   = Type{ID: Xid, Typmod: -1}
	Xid8Type  = Type{ID: Xid8, Typmod: -1}
	PgLSNType = Type{ID: PgLSN, Typmod: -1}
)

// xidKinds is each type's pg_type OID, typlen, typname and array OID.
var xidKinds = map[ID]struct {
	oid, array uint32
	len        int16
	name       string
}{
	Xid:   {28, 1011, 4, "xid"},
	Xid8:  {5069, 271, 8, "xid8"},
	PgLSN: {3220, 3221, 8, "pg_lsn"},
}

// IsWordKind reports whether values of type id are one unsigned number in
// Value.I: oid and the reg* types, xid, xid8 and pg_lsn.
func IsWordKind(id ID) bool {
	_, ok := xidKinds[id]
	return ok || IsOIDKind(id)
}

// signFlipped reports whether id's Value.I is its number with the top bit
// flipped.
func signFlipped(id ID) bool { return id == Xid8 || id == PgLSN }

// WordValue is the Value of unsigned number n of word type id.
func WordValue(n uint64, id ID) Value {
	if signFlipped(id) {
		n ^= 1 << 63
	}
	return Value{I: int64(n)}
}

// WordBits is the unsigned number a Value of word type id holds.
func WordBits(v Value, id ID) uint64 {
	n := uint64(v.I)
	if signFlipped(id) {
		n ^= 1 << 63
	}
	return n
}

// parseXidKind is xidin, xid8in and pg_lsn_in. PostgreSQL 15's xidin and
// xid8in are bare strtoul/strtoull calls: no error for any input.
func parseXidKind(s string, t Type) (Value, error) {
	switch t.ID {
	case PgLSN:
		// pg_lsn_in: 1-8 hex digits, '/', 1-8 hex digits; nothing else.
		hi, lo, ok := strings.Cut(s, "/")
		if !ok || !lsnHalf(hi) || !lsnHalf(lo) {
			return Value{}, pgerr.New(pgerr.InvalidTextRepresentation, "invalid input syntax for type pg_lsn: \"%s\"", s)
		}
		h, _ := strconv.ParseUint(hi, 16, 32)
		l, _ := strconv.ParseUint(lo, 16, 32)
		return WordValue(h<<32|l, PgLSN), nil
	case Xid:
		return Value{I: int64(uint32(strtoull(s)))}, nil
	}
	return WordValue(strtoull(s), Xid8), nil
}

// lsnHalf reports whether s is one half of a pg_lsn: 1 to 8 hex digits.
func lsnHalf(s string) bool { return len(s) >= 1 && len(s) <= 8 && isHexN(s, len(s)) }

// strtoull is C's strtoull(s, NULL, 0): leading white space, a sign,
// base 0x/0/decimal from the prefix, the longest run of digits (0 if
// none), ULLONG_MAX on overflow, a '-' negating modulo 2^64.
func strtoull(s string) uint64 {
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] >= '\t' && s[i] <= '\r') {
		i++
	}
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	base := uint64(10)
	if i+1 < len(s) && s[i] == '0' && (s[i+1] == 'x' || s[i+1] == 'X') && i+2 < len(s) && hexValue(s[i+2]) >= 0 {
		base, i = 16, i+2
	} else if i < len(s) && s[i] == '0' {
		base = 8
	}
	var n uint64
	over := false
	for ; i < len(s); i++ {
		d := uint64(hexValue(s[i]))
		if hexValue(s[i]) < 0 || d >= base {
			break
		}
		if n > (^uint64(0)-d)/base {
			over = true
		}
		n = n*base + d
	}
	if over {
		return ^uint64(0)
	}
	if neg {
		n = -n
	}
	return n
}

// appendXidKind is xidout, xid8out and pg_lsn_out.
func appendXidKind(dst []byte, v Value, t Type) []byte {
	n := WordBits(v, t.ID)
	if t.ID == PgLSN {
		return fmt.Appendf(dst, "%X/%X", n>>32, uint32(n))
	}
	return strconv.AppendUint(dst, n, 10)
}

// lsnNumeric is an LSN as a numeric.
func lsnNumeric(v Value) *apd.Decimal {
	var d apd.Decimal
	d.Coeff.SetUint64(WordBits(v, PgLSN))
	return &d
}

// lsnPlus is pg_lsn_pli/pg_lsn_mii: lsn ± a numeric number of bytes,
// rounded half away from zero, "pg_lsn out of range" outside 0..2^64-1.
func lsnPlus(lsn Value, n *apd.Decimal, minus bool) (Value, error) {
	switch n.Form {
	case apd.NaN, apd.NaNSignaling:
		if minus {
			return Value{}, pgerr.New(pgerr.FeatureNotSupported, "cannot subtract NaN from pg_lsn")
		}
		return Value{}, pgerr.New(pgerr.FeatureNotSupported, "cannot add NaN to pg_lsn")
	case apd.Infinite:
		return Value{}, pgerr.New(pgerr.FeatureNotSupported, "cannot convert infinity to pg_lsn")
	}
	var sum, r apd.Decimal
	op := exactCtx.Add
	if minus {
		op = exactCtx.Sub
	}
	if _, err := op(&sum, lsnNumeric(lsn), n); err != nil {
		return Value{}, err
	}
	if _, err := roundCtx.Quantize(&r, &sum, 0); err != nil {
		return Value{}, err
	}
	if r.Negative && !r.IsZero() || !r.Coeff.IsUint64() {
		return Value{}, pgerr.New(pgerr.NumericValueOutOfRange, "pg_lsn out of range")
	}
	return WordValue(r.Coeff.Uint64(), PgLSN), nil
}

// numericLSN is numeric_pg_lsn: the numeric rounded half away from zero
// to an integer (numericvar_to_uint64), 22023 outside 0..2^64-1.
func numericLSN(n *apd.Decimal) (Value, error) {
	switch n.Form {
	case apd.NaN, apd.NaNSignaling:
		return Value{}, pgerr.New(pgerr.FeatureNotSupported, "cannot convert NaN to pg_lsn")
	case apd.Infinite:
		return Value{}, pgerr.New(pgerr.FeatureNotSupported, "cannot convert infinity to pg_lsn")
	}
	var r apd.Decimal
	if _, err := roundCtx.Quantize(&r, n, 0); err != nil || r.Negative && !r.IsZero() || !r.Coeff.IsUint64() {
		return Value{}, pgerr.New(pgerr.InvalidParameterValue, "pg_lsn out of range")
	}
	return WordValue(r.Coeff.Uint64(), PgLSN), nil
}

// FirstNormalXid is PostgreSQL's FirstNormalTransactionId. joind's
// transactions take no transaction ids, so it is also the next xid a
// transaction would take (ReadNextTransactionId): every database's
// datfrozenxid, and what age(xid) counts from. Likewise the next
// multixact id is FirstMultiXactId, 1.
const FirstNormalXid = 3

// xidAge is age(xid) and mxid_age(xid): how far xid is behind next, and
// INT_MAX for the special ids (below first), as PostgreSQL's xid_age.
func xidAge(xid, next, first uint32) Value {
	if xid < first {
		return Value{I: math.MaxInt32}
	}
	return Value{I: int64(int32(next - xid))}
}

func registerXidFuncs() {
	regFn("age", []ID{Xid}, Int4, func(_ *EvalContext, a []Value) (Value, error) {
		return xidAge(uint32(a[0].I), FirstNormalXid, FirstNormalXid), nil
	})
	regFn("mxid_age", []ID{Xid}, Int4, func(_ *EvalContext, a []Value) (Value, error) {
		return xidAge(uint32(a[0].I), 1, 1), nil
	})
	for _, t := range []Type{Xid8Type, PgLSNType} {
		regAgg("min", []ID{t.ID}, t.ID, func() Accumulator { return &minMaxAcc{t: t} })
		regAgg("max", []ID{t.ID}, t.ID, func() Accumulator { return &minMaxAcc{t: t, max: true} })
	}
	for _, op := range []string{"=", "<>"} {
		regOp(op, []ID{Xid, Xid}, Bool, cmpEval(op, XidType))
		regOp(op, []ID{Xid, Int4}, Bool, func(_ *EvalContext, a []Value) (Value, error) {
			eq := uint32(a[0].I) == uint32(int32(a[1].I)) // xideqint4 compares the bits
			return BoolValue(eq == (op == "=")), nil
		})
	}
	for _, op := range cmpOps {
		regOp(op, []ID{Xid8, Xid8}, Bool, cmpEval(op, Xid8Type))
		regOp(op, []ID{PgLSN, PgLSN}, Bool, cmpEval(op, PgLSNType))
	}
	regOp("-", []ID{PgLSN, PgLSN}, Numeric, func(_ *EvalContext, a []Value) (Value, error) {
		var d apd.Decimal
		_, err := exactCtx.Sub(&d, lsnNumeric(a[0]), lsnNumeric(a[1]))
		return Value{Num: &d}, err
	})
	regOp("+", []ID{PgLSN, Numeric}, PgLSN, func(_ *EvalContext, a []Value) (Value, error) { return lsnPlus(a[0], a[1].Num, false) })
	regOp("+", []ID{Numeric, PgLSN}, PgLSN, func(_ *EvalContext, a []Value) (Value, error) { return lsnPlus(a[1], a[0].Num, false) })
	regOp("-", []ID{PgLSN, Numeric}, PgLSN, func(_ *EvalContext, a []Value) (Value, error) { return lsnPlus(a[0], a[1].Num, true) })
	regFn("pg_lsn", []ID{Numeric}, PgLSN, func(_ *EvalContext, a []Value) (Value, error) { return numericLSN(a[0].Num) })
	regFn("pg_wal_lsn_diff", []ID{PgLSN, PgLSN}, Numeric, func(_ *EvalContext, a []Value) (Value, error) {
		var d apd.Decimal
		_, err := exactCtx.Sub(&d, lsnNumeric(a[0]), lsnNumeric(a[1]))
		return Value{Num: &d}, err
	})
	regFn("xid", []ID{Xid8}, Xid, func(_ *EvalContext, a []Value) (Value, error) {
		return Value{I: int64(uint32(WordBits(a[0], Xid8)))}, nil
	})
}

func init() {
	for id, k := range xidKinds {
		arrayOIDs[id] = k.array
	}
}
