package types

import "math"

// cbrt computes the cube root the way glibc's libm does (PostgreSQL's dcbrt
// calls the C library's cbrt): a degree-6 polynomial first guess for the
// mantissa in [0.5, 1), one Halley step, then a rescale by the exponent/3.
// glibc's result is not always correctly rounded (cbrt(27) is
// 3.0000000000000004, not Go's exact 3), and clients diff what PostgreSQL
// prints, so we reproduce its arithmetic step by step. The explicit
// float64 conversions stop the compiler from fusing multiply-adds, which
// would change the rounding.
func cbrt(x float64) float64 {
	if x == 0 || math.IsNaN(x) || math.IsInf(x, 0) {
		return x + x
	}
	xm, xe := math.Frexp(math.Abs(x))
	u := float64(0.145263899385486377 * xm)
	u = float64(0.784932344976639262 - u)
	u = float64(u * xm)
	u = float64(-1.83469277483613086 + u)
	u = float64(u * xm)
	u = float64(2.44693122563534430 + u)
	u = float64(u * xm)
	u = float64(-2.11499494167371287 + u)
	u = float64(u * xm)
	u = float64(1.50819193781584896 + u)
	u = float64(u * xm)
	u = float64(0.354895765043919860 + u)
	t2 := float64(float64(u*u) * u)
	num := float64(t2 + float64(2.0*xm))
	den := float64(float64(2.0*t2) + xm)
	ym := float64(float64(float64(u*num)/den) * cbrtFactor[2+xe%3])
	r := math.Ldexp(ym, xe/3)
	if x < 0 {
		r = -r
	}
	return r
}

// cbrtFactor[2+k] is 2^(k/3) for k in -2..2. The reciprocals divide the
// rounded float64 constants at run time, as C does, not Go's exact
// constant arithmetic.
var cbrtFactor = func() [5]float64 {
	c2, sc2 := float64(1.2599210498948731648), float64(1.5874010519681994748)
	return [5]float64{1 / sc2, 1 / c2, 1, c2, sc2}
}()
