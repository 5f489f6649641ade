package types

import (
	"math"
	"math/big"

	"github.com/cockroachdb/apd/v3"
)

// float8 exp, ln, log10 and power as PostgreSQL computes them: it calls the
// C library, and glibc's exp, log and pow (since 2.28) are correctly rounded
// in all but vanishingly rare cases, while Go's math package is off by an
// ulp in a sizeable share of inputs (and by several in Pow). So exp, ln and
// pow here evaluate in double-double arithmetic (about 106 bits) and round
// once. glibc's log10 is not correctly rounded: it is fdlibm's formula on
// top of log, reproduced in glibcLog10.

// dd is an unevaluated sum hi + lo with |lo| <= ulp(hi)/2.
type dd struct{ hi, lo float64 }

func twoSum(a, b float64) dd {
	s := a + b
	bb := s - a
	return dd{s, (a - (s - bb)) + (b - bb)}
}

func quickTwoSum(a, b float64) dd {
	s := a + b
	return dd{s, b - (s - a)}
}

func ddAdd(x, y dd) dd {
	s := twoSum(x.hi, y.hi)
	t := twoSum(x.lo, y.lo)
	s = quickTwoSum(s.hi, s.lo+t.hi)
	return quickTwoSum(s.hi, s.lo+t.lo)
}

func ddMul(x, y dd) dd {
	p := x.hi * y.hi
	e := math.FMA(x.hi, y.hi, -p)
	return quickTwoSum(p, e+(x.hi*y.lo+x.lo*y.hi))
}

func ddMulF(x dd, f float64) dd {
	p := x.hi * f
	e := math.FMA(x.hi, f, -p)
	return quickTwoSum(p, e+x.lo*f)
}

func ddDiv(x, y dd) dd {
	q1 := x.hi / y.hi
	r := ddAdd(x, ddMulF(y, -q1))
	q2 := r.hi / y.hi
	r = ddAdd(r, ddMulF(y, -q2))
	q3 := r.hi / y.hi
	return ddAdd(quickTwoSum(q1, q2), dd{q3, 0})
}

// ddConst splits a high-precision value into a double-double.
func ddConst(v *big.Float) dd {
	hi, _ := v.Float64()
	lo, _ := new(big.Float).SetPrec(v.Prec()).Sub(v, big.NewFloat(hi)).Float64()
	return dd{hi, lo}
}

var (
	ddLn2 dd
	// ddExpCoef[i] = 1/(i+1)!, ddAtanhCoef[i] = 1/(2i+1)
	ddExpCoef   [12]dd
	ddAtanhCoef [24]dd
)

func init() {
	const prec = 256
	c := apd.BaseContext.WithPrecision(60)
	ln2 := new(apd.Decimal)
	_, _ = c.Ln(ln2, apd.New(2, 0))
	v, _, _ := big.ParseFloat(ln2.String(), 10, prec, big.ToNearestEven)
	ddLn2 = ddConst(v)
	fact := big.NewFloat(1).SetPrec(prec)
	for i := range ddExpCoef {
		fact.Mul(fact, big.NewFloat(float64(i+1)))
		ddExpCoef[i] = ddConst(new(big.Float).SetPrec(prec).Quo(big.NewFloat(1), fact))
	}
	for i := range ddAtanhCoef {
		ddAtanhCoef[i] = ddConst(new(big.Float).SetPrec(prec).Quo(big.NewFloat(1), big.NewFloat(float64(2*i+1))))
	}
}

// expDD returns m and k with e^t = m * 2^k, m in about [0.7, 1.42].
func expDD(t dd) (dd, int) {
	k := math.Round(t.hi / ddLn2.hi)
	r := ddAdd(t, ddMulF(ddLn2, -k))
	const halvings = 10
	s := ddMulF(r, 1.0/(1<<halvings)) // exact
	// expm1(s) by Horner: s*(1 + s/2! + s^2/3! + ...)
	p := ddExpCoef[len(ddExpCoef)-1]
	for i := len(ddExpCoef) - 2; i >= 0; i-- {
		p = ddAdd(ddMul(p, s), ddExpCoef[i])
	}
	e := ddMul(p, s)
	for i := 0; i < halvings; i++ {
		e = ddAdd(ddMulF(e, 2), ddMul(e, e)) // expm1(2s) = expm1(s)*(2+expm1(s))
	}
	return ddAdd(dd{1, 0}, e), int(k)
}

// ddScale rounds m * 2^k to the nearest float64, subnormals included.
func ddScale(m dd, k int) float64 {
	r := math.Ldexp(m.hi+m.lo, k)
	if r != 0 && math.Abs(r) >= 0x1p-1022 || math.IsInf(r, 0) {
		return r
	}
	// Subnormal (or zero): round the exact value once, not twice.
	f := new(big.Float).SetPrec(2200).SetFloat64(m.hi)
	f.Add(f, new(big.Float).SetFloat64(m.lo))
	f.SetMantExp(f, k)
	v, _ := f.Float64()
	return v
}

// crExp is e^x correctly rounded, for finite x.
func crExp(x float64) float64 {
	switch {
	case x > 710:
		return math.Inf(1)
	case x < -746:
		return 0
	}
	m, k := expDD(dd{x, 0})
	return ddScale(m, k)
}

// logDD is ln(x) for finite x > 0: x = 2^e * m, m in [sqrt(1/2), sqrt(2)),
// ln(m) = 2 atanh((m-1)/(m+1)).
func logDD(x float64) dd {
	m, e := math.Frexp(x)
	if m < math.Sqrt2/2 {
		m *= 2
		e--
	}
	z := ddDiv(dd{m - 1, 0}, twoSum(m, 1)) // m-1 is exact
	z2 := ddMul(z, z)
	p := ddAtanhCoef[len(ddAtanhCoef)-1]
	for i := len(ddAtanhCoef) - 2; i >= 0; i-- {
		p = ddAdd(ddMul(p, z2), ddAtanhCoef[i])
	}
	lnm := ddMulF(ddMul(p, z), 2)
	return ddAdd(ddMulF(ddLn2, float64(e)), lnm)
}

// crLog is ln(x) correctly rounded, for finite x > 0.
func crLog(x float64) float64 {
	l := logDD(x)
	return l.hi + l.lo
}

// glibcLog10 is glibc's __ieee754_log10 (fdlibm's e_log10.c): log10(x) =
// k*log10(2) + log(m)/ln(10) with x = 2^k * m, split so that the sum is
// formed in a fixed order. Explicit conversions keep Go from fusing the
// multiply-adds, which would change the rounding.
func glibcLog10(x float64) float64 {
	const (
		two54 = 0x1p54
	)
	ivln10 := math.Float64frombits(0x3FDBCB7B1526E50E)
	log10of2hi := math.Float64frombits(0x3FD34413509F6000)
	log10of2lo := math.Float64frombits(0x3D59FEF311F12B36)
	bits := math.Float64bits(x)
	hx := int32(bits >> 32)
	k := int32(0)
	if hx < 0x00100000 { // subnormal: scale up
		k -= 54
		x *= two54
		bits = math.Float64bits(x)
		hx = int32(bits >> 32)
	}
	k += (hx >> 20) - 1023
	i := int32(uint32(k) >> 31)
	hx = (hx & 0x000fffff) | ((0x3ff - i) << 20)
	y := float64(k + i)
	x = math.Float64frombits(uint64(uint32(hx))<<32 | bits&0xffffffff)
	z := float64(y*log10of2lo) + float64(ivln10*crLog(x))
	return float64(z + float64(y*log10of2hi))
}

// crPow is |x|^y correctly rounded (sign applied by the caller's rules),
// for finite nonzero x and finite y.
func crPow(x, y float64) float64 {
	t := ddMulF(logDD(math.Abs(x)), y)
	switch {
	case t.hi > 710:
		return math.Inf(1)
	case t.hi < -746:
		return 0
	}
	m, k := expDD(t)
	return ddScale(m, k)
}
