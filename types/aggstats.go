package types

import (
	"math"

	"github.com/cockroachdb/apd/v3"
	"github.com/joind/joind/pgerr"
)

// Statistical aggregates, as PostgreSQL computes them: float inputs
// accumulate (N, Sx, Sxx) by the Youngs-Cramer algorithm of float8_accum
// and float8_regr_accum, and merge by float8_combine; integer and numeric
// inputs accumulate exact numeric sums of x and x² (do_numeric_accum) and
// finish in numeric_stddev_internal.

// varKind selects the final function of a variance-family aggregate.
type varKind uint8

const (
	varPop varKind = iota
	varSamp
	stddevPop
	stddevSamp
)

func (k varKind) sample() bool { return k == varSamp || k == stddevSamp }
func (k varKind) root() bool   { return k == stddevPop || k == stddevSamp }

func errFloatOverflow() error {
	return pgerr.New(pgerr.NumericValueOutOfRange, "value out of range: overflow")
}

// floatVarAcc is float8_accum's transition state.
type floatVarAcc struct {
	kind       varKind
	f4         bool
	n, sx, sxx float64
}

func (a *floatVarAcc) Add(args []Value) error {
	if args[0].Null {
		return nil
	}
	x := args[0].F
	if a.f4 {
		x = float64(float32(x))
	}
	oldN, oldSx := a.n, a.sx
	a.n++
	a.sx += x
	if oldN > 0 {
		tmp := x*a.n - a.sx
		a.sxx += tmp * tmp / (a.n * oldN)
		// Only finite inputs reaching an infinite sum overflow; Sxx is
		// NaN, never infinite, once an input is infinite.
		if math.IsInf(a.sx, 0) || math.IsInf(a.sxx, 0) {
			if !math.IsInf(oldSx, 0) && !math.IsInf(x, 0) {
				return errFloatOverflow()
			}
			a.sxx = math.NaN()
		}
	} else if nonFinite(x) {
		a.sxx = math.NaN()
	}
	return nil
}

// Merge is float8_combine.
func (a *floatVarAcc) Merge(o Accumulator) error {
	b, ok := o.(*floatVarAcc)
	if !ok {
		return errAggMerge()
	}
	switch {
	case b.n == 0:
		return nil
	case a.n == 0:
		a.n, a.sx, a.sxx = b.n, b.sx, b.sxx
		return nil
	}
	n := a.n + b.n
	sx, err := float8Plus(a.sx, b.sx)
	if err != nil {
		return err
	}
	tmp := a.sx/a.n - b.sx/b.n
	sxx := a.sxx + b.sxx + a.n*b.n*tmp*tmp/n
	if math.IsInf(sxx, 0) && !math.IsInf(a.sxx, 0) && !math.IsInf(b.sxx, 0) {
		return errFloatOverflow()
	}
	a.n, a.sx, a.sxx = n, sx, sxx
	return nil
}

func nonFinite(x float64) bool { return math.IsNaN(x) || math.IsInf(x, 0) }

// float8Plus is float8pl: an infinite sum of finite operands overflows.
func float8Plus(x, y float64) (float64, error) {
	r := x + y
	if math.IsInf(r, 0) && !math.IsInf(x, 0) && !math.IsInf(y, 0) {
		return 0, errFloatOverflow()
	}
	return r, nil
}

func (a *floatVarAcc) Result() (Value, error) {
	d := a.n
	if a.kind.sample() {
		d = a.n - 1
	}
	if a.n == 0 || (a.kind.sample() && a.n <= 1) {
		return NullValue, nil
	}
	v := a.sxx / d
	if a.kind.root() {
		v = math.Sqrt(v)
	}
	return Value{F: v}, nil
}

// numVarAcc is the numeric accumulation of var/stddev over integers and
// numeric: exact sums, NaN and infinities counted apart.
type numVarAcc struct {
	kind      varKind
	n         int64
	sx, sxx   *apd.Decimal
	nan, infs int64
}

func (a *numVarAcc) Add(args []Value) error {
	if args[0].Null {
		return nil
	}
	a.n++
	var x *apd.Decimal
	if args[0].Num == nil {
		x = apd.New(args[0].I, 0) // an integer input
	} else {
		x = args[0].Num
	}
	switch {
	case isNaNNum(x):
		a.nan++
		return nil
	case x.Form == apd.Infinite:
		a.infs++
		return nil
	}
	sq, err := pgMul(x, x, 2*dscale(x))
	if err != nil {
		return err
	}
	return a.addSums(x, sq)
}

func (a *numVarAcc) addSums(x, sq *apd.Decimal) error {
	if a.sx == nil {
		a.sx, a.sxx = x, sq
		return nil
	}
	var err error
	if a.sx, err = numAdd(a.sx, x, false); err != nil {
		return err
	}
	a.sxx, err = numAdd(a.sxx, sq, false)
	return err
}

func (a *numVarAcc) Merge(o Accumulator) error {
	b, ok := o.(*numVarAcc)
	if !ok {
		return errAggMerge()
	}
	a.n += b.n
	a.nan += b.nan
	a.infs += b.infs
	if b.sx == nil {
		return nil
	}
	return a.addSums(b.sx, b.sxx)
}

// Result is numeric_stddev_internal.
func (a *numVarAcc) Result() (Value, error) {
	if a.n == 0 || (a.kind.sample() && a.n <= 1) {
		return NullValue, nil
	}
	if a.nan > 0 || a.infs > 0 {
		return Value{Num: numNaN()}, nil
	}
	sx, sxx := a.sx, a.sxx
	if sx == nil {
		sx, sxx = apd.New(0, 0), apd.New(0, 0)
	}
	n := apd.New(a.n, 0)
	rscale := 2 * dscale(sx)
	sq, err := pgMul(sx, sx, rscale)
	if err != nil {
		return Value{}, err
	}
	nsxx, err := pgMul(n, sxx, rscale)
	if err != nil {
		return Value{}, err
	}
	num, err := numAdd(nsxx, sq, true)
	if err != nil {
		return Value{}, err
	}
	if num.Sign() <= 0 {
		return Value{Num: apd.New(0, 0)}, nil
	}
	den := apd.New(a.n*a.n, 0)
	if a.kind.sample() {
		den = apd.New(a.n*(a.n-1), 0)
	}
	if a.n > math.MaxInt32 {
		m := a.n
		if a.kind.sample() {
			m--
		}
		if den, err = pgMul(n, apd.New(m, 0), 0); err != nil {
			return Value{}, err
		}
	}
	rscale = divScale(num, den)
	r := pgDiv(num, den, rscale)
	if a.kind.root() {
		r = sqrtVar(r, rscale)
	}
	return Value{Num: r}, nil
}

// regrKind selects the final function of a two-variable aggregate.
type regrKind uint8

const (
	regrCount regrKind = iota
	regrSxx
	regrSyy
	regrSxy
	regrAvgX
	regrAvgY
	regrR2
	regrSlope
	regrIntercept
	covarPop
	covarSamp
	corrKind
)

// regrAcc is float8_regr_accum's state over (Y, X) pairs.
type regrAcc struct {
	kind                     regrKind
	n, sx, sxx, sy, syy, sxy float64
}

func (a *regrAcc) Add(args []Value) error {
	if args[0].Null || args[1].Null {
		return nil
	}
	y, x := args[0].F, args[1].F
	oldN, oldSx, oldSy := a.n, a.sx, a.sy
	a.n++
	a.sx += x
	a.sy += y
	if oldN > 0 {
		tmpX := x*a.n - a.sx
		tmpY := y*a.n - a.sy
		scale := 1.0 / (a.n * oldN)
		a.sxx += tmpX * tmpX * scale
		a.syy += tmpY * tmpY * scale
		a.sxy += tmpX * tmpY * scale
		inf := math.IsInf
		if inf(a.sx, 0) || inf(a.sxx, 0) || inf(a.sy, 0) || inf(a.syy, 0) || inf(a.sxy, 0) {
			if ((inf(a.sx, 0) || inf(a.sxx, 0)) && !inf(oldSx, 0) && !inf(x, 0)) ||
				((inf(a.sy, 0) || inf(a.syy, 0)) && !inf(oldSy, 0) && !inf(y, 0)) ||
				(inf(a.sxy, 0) && !inf(oldSx, 0) && !inf(x, 0) && !inf(oldSy, 0) && !inf(y, 0)) {
				return errFloatOverflow()
			}
			if inf(a.sxx, 0) {
				a.sxx = math.NaN()
			}
			if inf(a.syy, 0) {
				a.syy = math.NaN()
			}
			if inf(a.sxy, 0) {
				a.sxy = math.NaN()
			}
		}
		return nil
	}
	// A first input that is not finite makes the sums of squares NaN,
	// not a false zero variance.
	if nonFinite(x) {
		a.sxx, a.sxy = math.NaN(), math.NaN()
	}
	if nonFinite(y) {
		a.syy, a.sxy = math.NaN(), math.NaN()
	}
	return nil
}

// Merge is float8_regr_combine.
func (a *regrAcc) Merge(o Accumulator) error {
	b, ok := o.(*regrAcc)
	if !ok {
		return errAggMerge()
	}
	switch {
	case b.n == 0:
		return nil
	case a.n == 0:
		k := a.kind
		*a = *b
		a.kind = k
		return nil
	}
	n := a.n + b.n
	sx, err := float8Plus(a.sx, b.sx)
	if err != nil {
		return err
	}
	sy, err := float8Plus(a.sy, b.sy)
	if err != nil {
		return err
	}
	t1 := a.sx/a.n - b.sx/b.n
	t2 := a.sy/a.n - b.sy/b.n
	sxx := a.sxx + b.sxx + a.n*b.n*t1*t1/n
	syy := a.syy + b.syy + a.n*b.n*t2*t2/n
	sxy := a.sxy + b.sxy + a.n*b.n*t1*t2/n
	if (math.IsInf(sxx, 0) && !math.IsInf(a.sxx, 0) && !math.IsInf(b.sxx, 0)) ||
		(math.IsInf(syy, 0) && !math.IsInf(a.syy, 0) && !math.IsInf(b.syy, 0)) ||
		(math.IsInf(sxy, 0) && !math.IsInf(a.sxy, 0) && !math.IsInf(b.sxy, 0)) {
		return errFloatOverflow()
	}
	a.n, a.sx, a.sy, a.sxx, a.syy, a.sxy = n, sx, sy, sxx, syy, sxy
	return nil
}

func (a *regrAcc) Result() (Value, error) {
	if a.kind == regrCount {
		return Value{I: int64(a.n)}, nil
	}
	if a.n < 1 || (a.kind == covarSamp && a.n < 2) {
		return NullValue, nil
	}
	f := func(v float64) (Value, error) { return Value{F: v}, nil }
	switch a.kind {
	case regrSxx:
		return f(a.sxx)
	case regrSyy:
		return f(a.syy)
	case regrSxy:
		return f(a.sxy)
	case regrAvgX:
		return f(a.sx / a.n)
	case regrAvgY:
		return f(a.sy / a.n)
	case covarPop:
		return f(a.sxy / a.n)
	case covarSamp:
		return f(a.sxy / (a.n - 1))
	case corrKind:
		if a.sxx == 0 || a.syy == 0 {
			return NullValue, nil
		}
		return f(a.sxy / math.Sqrt(a.sxx*a.syy))
	case regrR2:
		if a.sxx == 0 {
			return NullValue, nil
		}
		if a.syy == 0 {
			return f(1)
		}
		return f((a.sxy * a.sxy) / (a.sxx * a.syy))
	case regrSlope:
		if a.sxx == 0 {
			return NullValue, nil
		}
		return f(a.sxy / a.sxx)
	case regrIntercept:
		if a.sxx == 0 {
			return NullValue, nil
		}
		return f((a.sy - a.sx*a.sxy/a.sxx) / a.n)
	}
	return NullValue, nil
}

// bitAcc is bit_and / bit_or / bit_xor over integers.
type bitAcc struct {
	op   byte // '&', '|', '#'
	have bool
	v    int64
}

func (a *bitAcc) Add(args []Value) error {
	if args[0].Null {
		return nil
	}
	a.fold(args[0].I)
	return nil
}

func (a *bitAcc) fold(x int64) {
	switch {
	case !a.have:
		a.v, a.have = x, true
	case a.op == '&':
		a.v &= x
	case a.op == '|':
		a.v |= x
	default:
		a.v ^= x
	}
}

func (a *bitAcc) Merge(o Accumulator) error {
	b, ok := o.(*bitAcc)
	if !ok {
		return errAggMerge()
	}
	if b.have {
		a.fold(b.v)
	}
	return nil
}

func (a *bitAcc) Result() (Value, error) {
	if !a.have {
		return NullValue, nil
	}
	return Value{I: a.v}, nil
}

// varNames are the variance and standard-deviation aggregates.
var varNames = map[string]varKind{
	"variance": varSamp, "var_samp": varSamp, "var_pop": varPop,
	"stddev": stddevSamp, "stddev_samp": stddevSamp, "stddev_pop": stddevPop,
}

// IsVarianceAggregate reports whether name is one of var/stddev's names.
func IsVarianceAggregate(name string) bool { _, ok := varNames[name]; return ok }

// VarianceFromSums is aggregate name (IsVarianceAggregate) over n non-NULL
// integer or numeric values whose finite ones sum to sx with squares
// summing to sxx (each at its values' largest display scale, doubled for
// sxx); special says whether a NaN or infinity was among them. It is the
// accumulator's own final step, numeric_stddev_internal.
func VarianceFromSums(name string, n int64, sx, sxx *apd.Decimal, special bool) (Value, error) {
	a := &numVarAcc{kind: varNames[name], n: n, sx: sx, sxx: sxx}
	if special {
		a.nan = 1
	}
	return a.Result()
}

// NumericSquare is x*x at twice x's display scale, as var/stddev add it.
func NumericSquare(x *apd.Decimal) (*apd.Decimal, error) { return pgMul(x, x, 2*dscale(x)) }

func init() {
	for name, k := range varNames {
		k := k
		for _, id := range []ID{Int2, Int4, Int8, Numeric} {
			regAgg(name, []ID{id}, Numeric, func() Accumulator { return &numVarAcc{kind: k} })
		}
		regAgg(name, []ID{Float4}, Float8, func() Accumulator { return &floatVarAcc{kind: k, f4: true} })
		regAgg(name, []ID{Float8}, Float8, func() Accumulator { return &floatVarAcc{kind: k} })
	}
	regrNames := map[string]regrKind{
		"regr_count": regrCount, "regr_sxx": regrSxx, "regr_syy": regrSyy, "regr_sxy": regrSxy,
		"regr_avgx": regrAvgX, "regr_avgy": regrAvgY, "regr_r2": regrR2, "regr_slope": regrSlope,
		"regr_intercept": regrIntercept, "covar_pop": covarPop, "covar_samp": covarSamp, "corr": corrKind,
	}
	for name, k := range regrNames {
		k := k
		res := Float8
		if k == regrCount {
			res = Int8
		}
		regAgg(name, []ID{Float8, Float8}, res, func() Accumulator { return &regrAcc{kind: k} })
	}
	for name, op := range map[string]byte{"bit_and": '&', "bit_or": '|', "bit_xor": '#'} {
		op := op
		for _, id := range intIDs {
			regAgg(name, []ID{id}, id, func() Accumulator { return &bitAcc{op: op} })
		}
	}
}
