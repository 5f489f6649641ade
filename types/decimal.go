package types

// The column forms of numeric.
//
// A numeric column's Arrow type follows its typmod (Type.ArrowType):
//
//	numeric(p,s), 0 ≤ s ≤ p ≤ 18       Decimal64(p,s): the value × 10^s in an int64
//	numeric(p,s), 0 ≤ s ≤ p, p ≤ 38    Decimal128(p,s): the value × 10^s in 128 bits
//	numeric, and every other typmod    Binary, one exact value per slot (numBin below)
//
// Arrow's own decimal types were chosen over bare int64 columns with the
// scale kept aside because the scale then travels in the array's DataType:
// a stored column and every intermediate result of a vectorized kernel say
// what they hold without a side channel, Parquet and other Arrow consumers
// read them natively, and the values are a plain []int64 (or pairs of
// words) for the kernels to loop over. A numeric(p,s) column may hold NaN
// (PostgreSQL's typmod admits it); NaN is stored as the minimum integer of
// the width, which no value of precision p ≤ 38 can be.
//
// Unconstrained numeric keeps PostgreSQL's arbitrary precision and each
// value's own display scale, so its slots are variable-length binary: a kind
// byte (numBin*), for finite values the display scale as a little-endian
// uint16 and the coefficient's magnitude big-endian without leading zero
// bytes (value = ±coefficient × 10^-dscale). Small values decode without
// big.Int (NumBinScaled).
//
// Inside the evaluator an expression of type numeric (no typmod) may also be
// computed as a Decimal64/Decimal128 array whose Arrow scale is every row's
// display scale (a product of two numeric(15,2) columns has scale 4 in every
// row); ConformNumeric turns any of these forms into the form of a given type
// before values leave the evaluator. Segments written before these forms
// (manifest format 1) hold numeric as PostgreSQL's text; reading such a
// segment converts it (ConformNumeric accepts String arrays too).

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/cockroachdb/apd/v3"
)

// NumericBinaryType is the Arrow type of unconstrained numeric columns.
var NumericBinaryType = arrow.BinaryTypes.Binary

// Dec64NaN and Dec128NaN are NaN in the Decimal64/Decimal128 forms.
const Dec64NaN = math.MinInt64

// Dec128NaN is NaN in the Decimal128 form.
var Dec128NaN = decimal128.New(math.MinInt64, 0)

// Kinds of a numBin value (its first byte).
const (
	numBinPos  = 0 // finite, ≥ 0
	numBinNeg  = 1 // finite, < 0
	numBinNaN  = 2
	numBinPInf = 3
	numBinNInf = 4
)

// MaxDec64Digits and MaxDec128Digits are the precisions of the fixed forms.
const (
	MaxDec64Digits  = 18
	MaxDec128Digits = 38
)

// numericArrowType is the Arrow type of numeric columns with typmod tm.
func numericArrowType(tm int32) arrow.DataType {
	p, s, ok := NumericPrecScale(tm)
	if ok && s >= 0 && s <= p && p >= 1 {
		switch {
		case p <= MaxDec64Digits:
			return &arrow.Decimal64Type{Precision: int32(p), Scale: int32(s)}
		case p <= MaxDec128Digits:
			return &arrow.Decimal128Type{Precision: int32(p), Scale: int32(s)}
		}
	}
	return NumericBinaryType
}

// Dec64Type is the Arrow type of an intermediate int64 result at scale s.
func Dec64Type(s int) arrow.DataType {
	return &arrow.Decimal64Type{Precision: MaxDec64Digits, Scale: int32(s)}
}

// Dec128Type is the Arrow type of an intermediate 128-bit result at scale s.
func Dec128Type(s int) arrow.DataType {
	return &arrow.Decimal128Type{Precision: MaxDec128Digits, Scale: int32(s)}
}

// Pow10 holds 10^0 .. 10^18.
var Pow10 = func() [19]int64 {
	var p [19]int64
	p[0] = 1
	for i := 1; i < len(p); i++ {
		p[i] = p[i-1] * 10
	}
	return p
}()

// NumericFromScaled is m × 10^-scale with display scale scale.
func NumericFromScaled(m int64, scale int) *apd.Decimal {
	return apd.New(m, -int32(scale))
}

// numericFromNum128 is n × 10^-scale.
func numericFromNum128(n decimal128.Num, scale int) *apd.Decimal {
	if n.HighBits() == 0 && n.LowBits() <= math.MaxInt64 || n.HighBits() == -1 && n.LowBits() > math.MaxInt64 {
		return apd.New(int64(n.LowBits()), -int32(scale))
	}
	d := new(apd.Decimal)
	d.Coeff.SetMathBigInt(n.BigInt())
	if d.Coeff.Sign() < 0 {
		d.Coeff.Neg(&d.Coeff)
		d.Negative = true
	}
	d.Exponent = -int32(scale)
	return d
}

// NumericScaled returns d as m × 10^-scale at its display scale when the
// coefficient fits an int64; ok=false for NaN, infinities and larger values.
func NumericScaled(d *apd.Decimal) (m int64, scale int, ok bool) {
	if d == nil || d.Form != apd.Finite || !d.Coeff.IsInt64() {
		return 0, 0, false
	}
	m = d.Coeff.Int64()
	if d.Exponent > 0 {
		if d.Exponent > 18 {
			return 0, 0, m == 0 && zeroOK(d)
		}
		hi, lo := mulHiLo(m, Pow10[d.Exponent])
		if !fits64(hi, lo) {
			return 0, 0, false
		}
		m = int64(lo)
	} else {
		scale = int(-d.Exponent)
	}
	if d.Negative {
		m = -m
	}
	return m, scale, true
}

func zeroOK(d *apd.Decimal) bool { return d.Coeff.Sign() == 0 }

// NumericAtScale returns d × 10^s as an int64 when that is exact (d's
// display scale ≤ s) and fits; ok=false otherwise (NaN included).
func NumericAtScale(d *apd.Decimal, s int) (int64, bool) {
	m, ds, ok := NumericScaled(d)
	if !ok || ds > s {
		return 0, false
	}
	return RescaleUp(m, s-ds)
}

// RescaleUp is m × 10^k, reporting false on int64 overflow (or k > 18).
func RescaleUp(m int64, k int) (int64, bool) {
	if k == 0 {
		return m, true
	}
	if k < 0 || k > 18 {
		return 0, m == 0 && k >= 0
	}
	hi, lo := mulHiLo(m, Pow10[k])
	return int64(lo), fits64(hi, lo)
}

// mulHiLo is the signed 128-bit product a×b as (hi, lo).
func mulHiLo(a, b int64) (int64, uint64) {
	n := decimal128.FromI64(a).Mul(decimal128.FromI64(b))
	return n.HighBits(), n.LowBits()
}

// fits64 reports whether the 128-bit (hi, lo) is an int64.
func fits64(hi int64, lo uint64) bool {
	return hi == 0 && lo <= math.MaxInt64 || hi == -1 && lo > math.MaxInt64
}

// numericToNum128 returns d × 10^s as a 128-bit integer of at most 38
// digits when exact; ok=false otherwise.
func numericToNum128(d *apd.Decimal, s int) (decimal128.Num, bool) {
	if d.Form != apd.Finite {
		return decimal128.Num{}, false
	}
	ds := dscale(d)
	if ds > s {
		return decimal128.Num{}, false
	}
	b := toBig(d)
	if d.Exponent > 0 {
		b.Mul(b, pow10Big(int(d.Exponent)))
	}
	if s > ds {
		b.Mul(b, pow10Big(s-ds))
	}
	if new(big.Int).Abs(b).Cmp(pow10Big(MaxDec128Digits)) >= 0 {
		return decimal128.Num{}, false
	}
	return decimal128.FromBigInt(b), true
}

// AppendNumBin appends d's numBin encoding.
func AppendNumBin(dst []byte, d *apd.Decimal) []byte {
	switch d.Form {
	case apd.NaN, apd.NaNSignaling:
		return append(dst, numBinNaN)
	case apd.Infinite:
		if d.Negative {
			return append(dst, numBinNInf)
		}
		return append(dst, numBinPInf)
	}
	kind := byte(numBinPos)
	if d.Negative && d.Coeff.Sign() != 0 {
		kind = numBinNeg
	}
	dst = append(dst, kind)
	dst = binary.LittleEndian.AppendUint16(dst, uint16(dscale(d)))
	if d.Exponent > 0 {
		c := d.Coeff.MathBigInt()
		c.Mul(c, pow10Big(int(d.Exponent)))
		return append(dst, c.Bytes()...)
	}
	if d.Coeff.IsUint64() {
		return appendMag(dst, d.Coeff.Uint64())
	}
	return append(dst, d.Coeff.Bytes()...)
}

// AppendNumBinScaled appends the numBin encoding of m × 10^-scale.
func AppendNumBinScaled(dst []byte, m int64, scale int) []byte {
	kind := byte(numBinPos)
	u := uint64(m)
	if m < 0 {
		kind, u = numBinNeg, uint64(-m)
	}
	dst = append(dst, kind, byte(scale), byte(scale>>8))
	return appendMag(dst, u)
}

// appendMag appends u big-endian without leading zero bytes.
func appendMag(dst []byte, u uint64) []byte {
	if u == 0 {
		return dst
	}
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], u)
	i := 0
	for b[i] == 0 {
		i++
	}
	return append(dst, b[i:]...)
}

// NumBinScaled decodes a numBin value to m × 10^-scale when it is finite
// and its coefficient is below 2^63.
func NumBinScaled(b []byte) (m int64, scale int, ok bool) {
	if len(b) < 3 || b[0] > numBinNeg || len(b) > 3+8 {
		return 0, 0, false
	}
	var u uint64
	for _, c := range b[3:] {
		u = u<<8 | uint64(c)
	}
	if u > math.MaxInt64 {
		return 0, 0, false
	}
	m = int64(u)
	if b[0] == numBinNeg {
		m = -m
	}
	return m, int(binary.LittleEndian.Uint16(b[1:])), true
}

// decodeNumBin decodes a numBin value.
func decodeNumBin(b []byte) *apd.Decimal {
	if m, s, ok := NumBinScaled(b); ok {
		return apd.New(m, -int32(s))
	}
	if len(b) == 0 {
		panic("types: empty numeric in column")
	}
	switch b[0] {
	case numBinNaN:
		return &apd.Decimal{Form: apd.NaN}
	case numBinPInf:
		return &apd.Decimal{Form: apd.Infinite}
	case numBinNInf:
		return &apd.Decimal{Form: apd.Infinite, Negative: true}
	}
	if len(b) < 3 || b[0] > numBinNeg {
		panic(fmt.Sprintf("types: corrupt numeric %x in column", b))
	}
	d := new(apd.Decimal)
	d.Coeff.SetBytes(b[3:])
	d.Exponent = -int32(binary.LittleEndian.Uint16(b[1:]))
	d.Negative = b[0] == numBinNeg
	return d
}

// getNumeric reads row i (not NULL) of a numeric array of any form.
func getNumeric(arr arrow.Array, i int) *apd.Decimal {
	switch a := arr.(type) {
	case *array.Decimal64:
		v := int64(a.Value(i))
		if v == Dec64NaN {
			return &apd.Decimal{Form: apd.NaN}
		}
		return apd.New(v, -a.DataType().(*arrow.Decimal64Type).Scale)
	case *array.Decimal128:
		v := a.Value(i)
		if v == Dec128NaN {
			return &apd.Decimal{Form: apd.NaN}
		}
		return numericFromNum128(v, int(a.DataType().(*arrow.Decimal128Type).Scale))
	case *array.Binary:
		return decodeNumBin(a.Value(i))
	case *array.String:
		s := a.Value(i)
		d, _, err := apd.NewFromString(s)
		if err != nil {
			panic(fmt.Sprintf("types: corrupt numeric %q in column: %v", s, err))
		}
		return d
	}
	panic(fmt.Sprintf("types: numeric in unsupported array %T", arr))
}

// appendNumeric appends d to b, a builder of one of numeric's forms. A
// value the form cannot hold exactly is an internal error: every value has
// had its column's typmod applied before it is stored.
func appendNumericTo(b array.Builder, d *apd.Decimal) {
	switch bb := b.(type) {
	case *array.Decimal64Builder:
		if isNaNNum(d) {
			bb.Append(Dec64NaN)
			return
		}
		dt := bb.Type().(*arrow.Decimal64Type)
		m, ok := NumericAtScale(d, int(dt.Scale))
		if !ok || m == Dec64NaN {
			panic(fmt.Sprintf("types: numeric %s does not fit %s", NumericString(d), dt))
		}
		bb.Append(decimalOf64(m))
	case *array.Decimal128Builder:
		if isNaNNum(d) {
			bb.Append(Dec128NaN)
			return
		}
		dt := bb.Type().(*arrow.Decimal128Type)
		n, ok := numericToNum128(d, int(dt.Scale))
		if !ok {
			panic(fmt.Sprintf("types: numeric %s does not fit %s", NumericString(d), dt))
		}
		bb.Append(n)
	case *array.BinaryBuilder:
		var buf [24]byte
		bb.Append(AppendNumBin(buf[:0], d))
	case *array.StringBuilder:
		bb.Append(d.Text('f'))
	default:
		panic(fmt.Sprintf("types: numeric into unsupported builder %T", b))
	}
}

// IsNumericArray reports whether arr is in one of numeric's forms.
func IsNumericArray(arr arrow.Array) bool {
	switch arr.(type) {
	case *array.Decimal64, *array.Decimal128, *array.Binary:
		return true
	}
	return false
}

// ConformNumeric returns the numeric array arr (any form: Decimal64,
// Decimal128, Binary or legacy String) in the form of numeric type t.
func ConformNumeric(arr arrow.Array, t Type) arrow.Array {
	want := t.ArrowType()
	if arrow.TypeEqual(arr.DataType(), want) {
		return arr
	}
	n := arr.Len()
	if a, ok := arr.(*array.Decimal64); ok && want.ID() == arrow.BINARY {
		s := int(a.DataType().(*arrow.Decimal64Type).Scale)
		b := array.NewBinaryBuilder(memory.DefaultAllocator, arrow.BinaryTypes.Binary)
		b.Reserve(n)
		b.ReserveData(n * 8)
		var buf [16]byte
		for i, v := range a.Values() {
			switch {
			case a.IsNull(i):
				b.AppendNull()
			case int64(v) == Dec64NaN:
				b.Append([]byte{numBinNaN})
			default:
				b.Append(AppendNumBinScaled(buf[:0], int64(v), s))
			}
		}
		return b.NewArray()
	}
	if wt, ok := want.(*arrow.Decimal64Type); ok {
		if a, ok := arr.(*array.Decimal64); ok && a.DataType().(*arrow.Decimal64Type).Scale == wt.Scale {
			// Same scale, only the declared precision differs: relabel.
			return array.MakeFromData(array.NewData(want, n, a.Data().Buffers(), nil, a.NullN(), a.Data().Offset()))
		}
	}
	b := array.NewBuilder(memory.DefaultAllocator, want)
	b.Reserve(n)
	for i := 0; i < n; i++ {
		if arr.IsNull(i) {
			b.AppendNull()
			continue
		}
		appendNumericTo(b, getNumeric(arr, i))
	}
	return b.NewArray()
}

// AppendNumericKey appends the canonical text of row i (not NULL) of a
// numeric array: equal numerics (1.5, 1.50) give equal text. It is the
// grouping and join key of numerics.
func AppendNumericKey(dst []byte, arr arrow.Array, i int) []byte {
	var m int64
	var s int
	ok := false
	switch a := arr.(type) {
	case *array.Decimal64:
		m, s = int64(a.Value(i)), int(a.DataType().(*arrow.Decimal64Type).Scale)
		ok = m != Dec64NaN
	case *array.Binary:
		m, s, ok = NumBinScaled(a.Value(i))
	}
	if ok {
		for s > 0 && m%10 == 0 {
			m /= 10
			s--
		}
		return appendScaled(dst, m, s)
	}
	d := getNumeric(arr, i)
	if d.Form != apd.Finite {
		return append(dst, d.String()...)
	}
	if d.IsZero() {
		return append(dst, '0')
	}
	var r apd.Decimal
	r.Reduce(d)
	return append(dst, r.Text('f')...)
}

// appendScaled appends m × 10^-s in PostgreSQL's text form.
func appendScaled(dst []byte, m int64, s int) []byte {
	if s == 0 {
		return strconv.AppendInt(dst, m, 10)
	}
	u := uint64(m)
	if m < 0 {
		dst = append(dst, '-')
		u = -u
	}
	var digs [24]byte
	ds := strconv.AppendUint(digs[:0], u, 10)
	if len(ds) <= s {
		dst = append(dst, '0', '.')
		for k := len(ds); k < s; k++ {
			dst = append(dst, '0')
		}
		return append(dst, ds...)
	}
	dst = append(dst, ds[:len(ds)-s]...)
	dst = append(dst, '.')
	return append(dst, ds[len(ds)-s:]...)
}

func decimalOf64(m int64) decimal.Decimal64 { return decimal.Decimal64(m) }

// nbaseWeightScaled is nbaseWeight of c × 10^exp: PostgreSQL's base-10000
// weight and first digit, without formatting an apd.Decimal.
func nbaseWeightScaled(c uint64, exp int) (int, int) {
	if c == 0 {
		return 0, 0
	}
	var digs [20]byte
	d := len(digs)
	for x := c; x > 0; x /= 10 {
		d--
		digs[d] = byte(x % 10)
	}
	ds := digs[d:]
	msd := len(ds) + exp - 1
	w := int(floorDiv(int64(msd), 4))
	fd := 0
	for i := 0; i < msd-4*w+1; i++ {
		fd *= 10
		if i < len(ds) {
			fd += int(ds[i])
		}
	}
	return w, fd
}

// DivScaled is numeric division of a × 10^-sa by b × 10^-sb (b ≠ 0) with
// PostgreSQL's result scale (select_div_scale) and rounding (half away
// from zero), as q × 10^-rscale; ok=false when the exact quotient needs
// more than an int64 (the caller then takes the apd path).
func DivScaled(a int64, sa int, b int64, sb int) (q int64, rscale int, ok bool) {
	ua, ub := uint64(a), uint64(b)
	if a < 0 {
		ua = -ua
	}
	if b < 0 {
		ub = -ub
	}
	if b == 0 {
		return 0, 0, false
	}
	w1, f1 := nbaseWeightScaled(ua, -sa)
	w2, f2 := nbaseWeightScaled(ub, -sb)
	qweight := w1 - w2
	if f1 <= f2 {
		qweight--
	}
	rscale = max(numericMinSigDigits-qweight*4, sa, sb, numericMinDispScale)
	rscale = min(rscale, numericMaxDispScale)
	k := rscale + sb - sa // ≥ 0: rscale ≥ sa
	if k > 19 {
		return 0, 0, false
	}
	p := uint64(1)
	for i := 0; i < k; i++ {
		p *= 10
	}
	hi, lo := bits.Mul64(ua, p)
	if hi >= ub {
		return 0, 0, false
	}
	uq, r := bits.Div64(hi, lo, ub)
	if r >= ub-r {
		uq++
	}
	if uq > math.MaxInt64 {
		return 0, 0, false
	}
	q = int64(uq)
	if (a < 0) != (b < 0) {
		q = -q
	}
	return q, rscale, true
}
