package types

import (
	"math"
	"math/big"
	"math/bits"
	"strings"

	"github.com/cockroachdb/apd/v3"
	"github.com/joind/joind/pgerr"
)

type aggBuiltin struct {
	name   string
	args   []ID
	result ID
	newAcc func() Accumulator
}

var aggTable = map[string][]*aggBuiltin{}

// typedAcc builds the accumulators of aggregates that need their resolved
// argument types (mode compares values of its argument's type).
var typedAcc = map[string]func(args []Type) Accumulator{}

func regAgg(name string, args []ID, result ID, newAcc func() Accumulator) {
	aggTable[name] = append(aggTable[name], &aggBuiltin{name, args, result, newAcc})
}

// IsAggregate reports whether name is a built-in aggregate function.
func IsAggregate(name string) bool { return len(aggTable[normFuncName(name)]) > 0 }

// ResolveAggregate picks the aggregate name(args...) (star: name(*), only
// count) by the same rules as ResolveFunction.
func ResolveAggregate(name string, args []Type, star bool) (*AggOverload, error) {
	lname := normFuncName(name)
	if star {
		if lname == "count" {
			return &AggOverload{Name: "count", Result: Int8Type, New: func() Accumulator { return &countAcc{star: true} }}, nil
		}
		return nil, funcError(lname, nil, false)
	}
	if lname == "array_agg" {
		return resolveArrayAgg(args) // arrayagg.go
	}
	if (lname == "min" || lname == "max") && len(args) == 1 && (args[0].ID == Array || args[0].ID == Enum) {
		return arrayMinMax(lname, args[0]), nil // arrayagg.go
	}
	cands := aggTable[lname]
	bs := make([]*builtin, len(cands))
	for i, c := range cands {
		bs[i] = &builtin{name: c.name, args: c.args, result: c.result}
	}
	best, amb := selectBest(bs, ids(args))
	if best == nil {
		return nil, funcError(lname, args, amb)
	}
	if err := checkAnyElement(lname, args); err != nil {
		return nil, err
	}
	for i, b := range bs {
		if b == best {
			c := cands[i]
			at := make([]Type, len(c.args))
			for j, id := range c.args {
				at[j] = Type{ID: id, Typmod: -1}
				if isPolyID(id) {
					at[j] = args[j]
					if at[j].ID == Unknown {
						at[j] = TextType
					}
				}
			}
			res := Type{ID: c.result, Typmod: -1}
			if c.result == idAnyNonArray {
				for j, id := range c.args {
					if isPolyID(id) {
						res = at[j]
						break
					}
				}
				res.Typmod = -1
			}
			newAcc := c.newAcc
			if typed := typedAcc[c.name]; typed != nil {
				newAcc = func() Accumulator { return typed(at) }
			}
			return &AggOverload{Name: c.name, Args: at, Result: res, New: newAcc, AnyArgs: anyArgs(c.args)}, nil
		}
	}
	return nil, funcError(lname, args, amb)
}

// NumericAdd is numeric addition as sum and avg accumulate it: exact, NaN
// and infinities as in PostgreSQL, 22003 when the result overflows numeric.
// Batch aggregation (operators) uses it for the values its scaled-int64
// path cannot hold.
func NumericAdd(a, b *apd.Decimal) (*apd.Decimal, error) { return numAdd(a, b, false) }

// AvgNumeric is avg's final step for integer and numeric inputs: sum / n
// (n > 0) with numeric division's result scale, so a batch aggregate's
// output text is the accumulators' byte for byte.
func AvgNumeric(sum *apd.Decimal, n int64) (Value, error) {
	den := apd.New(n, 0)
	if r := avgSmall(sum, den, n); r != nil {
		return Value{Num: r}, nil
	}
	r, err := numDiv(sum, den)
	return Value{Num: r}, err
}

// avgSmall is numDiv(sum, n) in 128-bit integers when the scaled dividend
// fits (the common case: sums of up to 19 digits): the same scale, the same
// rounding (half away from zero), no big.Int. nil when it does not apply.
// avgScale is divScale(c×10^exp, n) without formatting c: the same
// select_div_scale arithmetic over base-10000 weights and first digits.
func avgScale(c uint64, exp int, n int64) int {
	w1, f1 := nbaseWeightScaled(c, exp)
	w2, f2 := nbaseWeightScaled(uint64(n), 0)
	qweight := w1 - w2
	if f1 <= f2 {
		qweight--
	}
	rscale := numericMinSigDigits - qweight*4
	rscale = max(rscale, max(-exp, 0), numericMinDispScale)
	return min(rscale, numericMaxDispScale)
}

func avgSmall(sum, den *apd.Decimal, n int64) *apd.Decimal {
	if sum.Form != apd.Finite || n <= 0 || !sum.Coeff.IsUint64() || sum.Exponent > 0 {
		return nil
	}
	rs := avgScale(sum.Coeff.Uint64(), int(sum.Exponent), n)
	k := int(sum.Exponent) + rs // >= 0: rs >= dscale(sum) = -Exponent
	if k < 0 || k > 19 {
		return nil
	}
	p := uint64(1)
	for i := 0; i < k; i++ {
		p *= 10
	}
	hi, lo := bits.Mul64(sum.Coeff.Uint64(), p)
	d := uint64(n)
	qhi, r1 := hi/d, hi%d
	qlo, r := bits.Div64(r1, lo, d)
	if r >= d-r { // 2r >= d without overflow: round half away from zero
		var c uint64
		qlo, c = bits.Add64(qlo, 1, 0)
		qhi += c
	}
	res := new(apd.Decimal)
	if qhi == 0 {
		res.Coeff.SetUint64(qlo)
	} else {
		b := new(big.Int).SetUint64(qhi)
		res.Coeff.SetMathBigInt(b.Lsh(b, 64).Or(b, new(big.Int).SetUint64(qlo)))
	}
	q := qhi | qlo
	res.Negative = sum.Negative && q != 0
	res.Exponent = int32(-rs)
	return res
}

func errAggMerge() error {
	return pgerr.New(pgerr.InternalError, "aggregate merge of mismatched accumulators")
}

// count

type countAcc struct {
	star bool
	n    int64
}

func (a *countAcc) Add(args []Value) error {
	if !a.star && (len(args) == 0 || args[0].Null) {
		return nil
	}
	a.n++
	return nil
}
func (a *countAcc) Merge(o Accumulator) error {
	b, ok := o.(*countAcc)
	if !ok {
		return errAggMerge()
	}
	a.n += b.n
	return nil
}
func (a *countAcc) Result() (Value, error) { return Value{I: a.n}, nil }

// sum/avg over integers into int64 (sum(int2/int4)) or exact numeric.

type intSumAcc struct {
	sum   int64
	n     int64
	big   *apd.Decimal // overflowed int64 sum (sum(int8), avg)
	toNum bool         // result is numeric (sum(int8))
	avg   bool
}

func (a *intSumAcc) Add(args []Value) error {
	if args[0].Null {
		return nil
	}
	a.n++
	if a.big != nil {
		r, _ := numAdd(a.big, apd.New(args[0].I, 0), false)
		a.big = r
		return nil
	}
	s, ok := addInt64(a.sum, args[0].I)
	if !ok {
		if !a.toNum && !a.avg {
			return errIntOutOfRange(Int8)
		}
		r, _ := numAdd(apd.New(a.sum, 0), apd.New(args[0].I, 0), false)
		a.big = r
		return nil
	}
	a.sum = s
	return nil
}

func (a *intSumAcc) total() *apd.Decimal {
	if a.big != nil {
		return a.big
	}
	return apd.New(a.sum, 0)
}

func (a *intSumAcc) Merge(o Accumulator) error {
	b, ok := o.(*intSumAcc)
	if !ok {
		return errAggMerge()
	}
	a.n += b.n
	if a.big == nil && b.big == nil {
		if s, ok := addInt64(a.sum, b.sum); ok {
			a.sum = s
			return nil
		}
		if !a.toNum && !a.avg {
			return errIntOutOfRange(Int8)
		}
	}
	r, _ := numAdd(a.total(), b.total(), false)
	a.big = r
	return nil
}

func (a *intSumAcc) Result() (Value, error) {
	if a.n == 0 {
		return NullValue, nil
	}
	switch {
	case a.avg:
		return AvgNumeric(a.total(), a.n)
	case a.toNum:
		return Value{Num: a.total()}, nil
	}
	return Value{I: a.sum}, nil
}

type numSumAcc struct {
	sum *apd.Decimal
	n   int64
	avg bool
}

func (a *numSumAcc) Add(args []Value) error {
	if args[0].Null {
		return nil
	}
	a.n++
	if a.sum == nil {
		a.sum = args[0].Num
		return nil
	}
	r, err := numAdd(a.sum, args[0].Num, false)
	a.sum = r
	return err
}

func (a *numSumAcc) Merge(o Accumulator) error {
	b, ok := o.(*numSumAcc)
	if !ok {
		return errAggMerge()
	}
	if b.sum == nil {
		return nil
	}
	if a.sum == nil {
		a.sum, a.n = b.sum, b.n
		return nil
	}
	a.n += b.n
	r, err := numAdd(a.sum, b.sum, false)
	a.sum = r
	return err
}

func (a *numSumAcc) Result() (Value, error) {
	if a.n == 0 {
		return NullValue, nil
	}
	if a.avg {
		return AvgNumeric(a.sum, a.n)
	}
	return Value{Num: a.sum}, nil
}

type floatSumAcc struct {
	sum  float64
	n    int64
	f4   bool
	avg  bool
	infs bool
}

func (a *floatSumAcc) Add(args []Value) error {
	if args[0].Null {
		return nil
	}
	a.n++
	x := args[0].F
	switch {
	case a.n == 1 && !a.avg:
		// sum's transition (float8pl) starts from the first value, not
		// from 0: sum of -0 is -0 (avg's float8_accum starts from 0)
		a.sum = x
		if a.f4 {
			a.sum = float64(float32(x))
		}
	case a.f4:
		a.sum = float64(float32(a.sum) + float32(x))
	default:
		a.sum += x
	}
	if math.IsInf(a.sum, 0) && !math.IsInf(x, 0) && !a.infs {
		return pgerr.New(pgerr.NumericValueOutOfRange, "value out of range: overflow")
	}
	if math.IsInf(x, 0) {
		a.infs = true
	}
	return nil
}

func (a *floatSumAcc) Merge(o Accumulator) error {
	b, ok := o.(*floatSumAcc)
	if !ok {
		return errAggMerge()
	}
	switch {
	case b.n == 0:
	case a.n == 0:
		a.sum = b.sum
	default:
		a.sum += b.sum
	}
	a.n += b.n
	a.infs = a.infs || b.infs
	return nil
}

func (a *floatSumAcc) Result() (Value, error) {
	if a.n == 0 {
		return NullValue, nil
	}
	if a.avg {
		return Value{F: a.sum / float64(a.n)}, nil
	}
	return Value{F: a.sum}, nil
}

type intervalSumAcc struct {
	sum IntervalValue
	n   int64
	avg bool
}

func (a *intervalSumAcc) Add(args []Value) error {
	if args[0].Null {
		return nil
	}
	a.n++
	r, err := intervalAdd(a.sum, args[0].Iv)
	a.sum = r
	return err
}

func (a *intervalSumAcc) Merge(o Accumulator) error {
	b, ok := o.(*intervalSumAcc)
	if !ok {
		return errAggMerge()
	}
	a.n += b.n
	r, err := intervalAdd(a.sum, b.sum)
	a.sum = r
	return err
}

func (a *intervalSumAcc) Result() (Value, error) {
	if a.n == 0 {
		return NullValue, nil
	}
	if a.avg {
		r, err := AvgInterval(a.sum, a.n)
		return Value{Iv: r}, err
	}
	return Value{Iv: a.sum}, nil
}

// AvgInterval is interval_avg's final step: the sum divided by the count.
func AvgInterval(sum IntervalValue, n int64) (IntervalValue, error) {
	return intervalMulDiv(sum, float64(n), true)
}

type minMaxAcc struct {
	t    Type
	max  bool
	have bool
	v    Value
}

func (a *minMaxAcc) Add(args []Value) error {
	if args[0].Null {
		return nil
	}
	if !a.have {
		a.v, a.have = args[0], true
		return nil
	}
	// As float8smaller, numeric_smaller, interval_smaller...: the kept
	// value wins only when strictly smaller (larger), so of equal values
	// the later is kept: min of 0 then -0 is -0, of 1.0 then 1.00 is 1.00.
	c := Compare(args[0], a.v, a.t)
	if (a.max && c >= 0) || (!a.max && c <= 0) {
		a.v = args[0]
	}
	return nil
}

func (a *minMaxAcc) Merge(o Accumulator) error {
	b, ok := o.(*minMaxAcc)
	if !ok {
		return errAggMerge()
	}
	if b.have {
		return a.Add([]Value{b.v})
	}
	return nil
}

func (a *minMaxAcc) Result() (Value, error) {
	if !a.have {
		return NullValue, nil
	}
	return a.v, nil
}

type boolAcc struct {
	and  bool
	have bool
	v    bool
}

func (a *boolAcc) Add(args []Value) error {
	if args[0].Null {
		return nil
	}
	b := args[0].I != 0
	if !a.have {
		a.v, a.have = b, true
	} else if a.and {
		a.v = a.v && b
	} else {
		a.v = a.v || b
	}
	return nil
}

func (a *boolAcc) Merge(o Accumulator) error {
	b, ok := o.(*boolAcc)
	if !ok {
		return errAggMerge()
	}
	if b.have {
		return a.Add([]Value{BoolValue(b.v)})
	}
	return nil
}

func (a *boolAcc) Result() (Value, error) {
	if !a.have {
		return NullValue, nil
	}
	return BoolValue(a.v), nil
}

type stringAggAcc struct {
	have bool
	b    strings.Builder
	// lead is the delimiter of the first value, which the result drops
	// but Merge puts between this side and the one before it, as
	// PostgreSQL's combine function does.
	lead Value
}

func (a *stringAggAcc) Add(args []Value) error {
	if args[0].Null {
		return nil
	}
	if !a.have {
		a.lead = args[1]
	} else if !args[1].Null {
		a.b.WriteString(args[1].S)
	}
	a.b.WriteString(args[0].S)
	a.have = true
	return nil
}

// Merge appends the other side's string after its first delimiter.
func (a *stringAggAcc) Merge(o Accumulator) error {
	b, ok := o.(*stringAggAcc)
	if !ok {
		return errAggMerge()
	}
	if !b.have {
		return nil
	}
	if !a.have {
		a.lead = b.lead
	} else if !b.lead.Null {
		a.b.WriteString(b.lead.S)
	}
	a.b.WriteString(b.b.String())
	a.have = true
	return nil
}

func (a *stringAggAcc) Result() (Value, error) {
	if !a.have {
		return NullValue, nil
	}
	return Value{S: a.b.String()}, nil
}

func init() {
	for _, id := range []ID{Bool, Int2, Int4, Int8, Float4, Float8, Numeric, Text, Varchar, Char, Date, Timestamp, TimestampTZ, Interval, Time, TimeTZ} {
		if id == Varchar {
			continue // min(varchar) resolves to min(text)
		}
		id := id
		if id == Bool {
			continue // PostgreSQL has no min/max(boolean)
		}
		t := Type{ID: id, Typmod: -1}
		regAgg("count", []ID{id}, Int8, func() Accumulator { return &countAcc{} })
		regAgg("min", []ID{id}, id, func() Accumulator { return &minMaxAcc{t: t} })
		regAgg("max", []ID{id}, id, func() Accumulator { return &minMaxAcc{t: t, max: true} })
	}
	// count(x) accepts any type ("any" in PostgreSQL).
	aggTable["count"] = []*aggBuiltin{{name: "count", args: []ID{idAny}, result: Int8, newAcc: func() Accumulator { return &countAcc{} }}}
	regAgg("sum", []ID{Int2}, Int8, func() Accumulator { return &intSumAcc{} })
	regAgg("sum", []ID{Int4}, Int8, func() Accumulator { return &intSumAcc{} })
	regAgg("sum", []ID{Int8}, Numeric, func() Accumulator { return &intSumAcc{toNum: true} })
	regAgg("sum", []ID{Float4}, Float4, func() Accumulator { return &floatSumAcc{f4: true} })
	regAgg("sum", []ID{Float8}, Float8, func() Accumulator { return &floatSumAcc{} })
	regAgg("sum", []ID{Numeric}, Numeric, func() Accumulator { return &numSumAcc{} })
	regAgg("sum", []ID{Interval}, Interval, func() Accumulator { return &intervalSumAcc{} })
	for _, id := range intIDs {
		regAgg("avg", []ID{id}, Numeric, func() Accumulator { return &intSumAcc{avg: true} })
	}
	regAgg("avg", []ID{Float4}, Float8, func() Accumulator { return &floatSumAcc{avg: true} })
	regAgg("avg", []ID{Float8}, Float8, func() Accumulator { return &floatSumAcc{avg: true} })
	regAgg("avg", []ID{Numeric}, Numeric, func() Accumulator { return &numSumAcc{avg: true} })
	regAgg("avg", []ID{Interval}, Interval, func() Accumulator { return &intervalSumAcc{avg: true} })
	regAgg("bool_and", []ID{Bool}, Bool, func() Accumulator { return &boolAcc{and: true} })
	regAgg("every", []ID{Bool}, Bool, func() Accumulator { return &boolAcc{and: true} })
	regAgg("bool_or", []ID{Bool}, Bool, func() Accumulator { return &boolAcc{} })
	regAgg("string_agg", []ID{Text, Text}, Text, func() Accumulator { return &stringAggAcc{} })
	regAgg("string_agg", []ID{Bytea, Bytea}, Bytea, func() Accumulator { return &stringAggAcc{} }) // bytea_string_agg: the same bytes
}
