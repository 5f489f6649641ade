package types

import (
	"strconv"
	"strings"

	"github.com/cockroachdb/apd/v3"
	"github.com/joind/joind/pgerr"
)

// pg_size_pretty and pg_size_bytes, as PostgreSQL 15's dbsize.c.

// sizeUnit is one row of dbsize.c's size_pretty_units: a unit is used
// while the value is below limit; round units print half-rounded values.
type sizeUnit struct {
	name  string
	limit int64
	round bool
	bits  uint
}

var sizeUnits = []sizeUnit{
	{"bytes", 10 * 1024, false, 0},
	{"kB", 20*1024 - 1, true, 10},
	{"MB", 20*1024 - 1, true, 20},
	{"GB", 20*1024 - 1, true, 30},
	{"TB", 20*1024 - 1, true, 40},
	{"PB", 20*1024 - 1, true, 50},
}

func registerSizeFuncs() {
	regFn("pg_size_pretty", []ID{Int8}, Text, func(_ *EvalContext, a []Value) (Value, error) {
		return Value{S: sizePrettyInt(a[0].I)}, nil
	})
	regFn("pg_size_pretty", []ID{Numeric}, Text, func(_ *EvalContext, a []Value) (Value, error) {
		return Value{S: sizePrettyNumeric(a[0].Num)}, nil
	})
	regFn("pg_size_bytes", []ID{Text}, Int8, func(_ *EvalContext, a []Value) (Value, error) {
		n, err := sizeBytes(a[0].S)
		return Value{I: n}, err
	})
}

// shiftBits is how far the value is divided going from unit i to i+1:
// one bit less when the next unit half-rounds, one more when this one does.
func shiftBits(i int) uint {
	u, next := sizeUnits[i], sizeUnits[i+1]
	bits := next.bits - u.bits
	if next.round {
		bits--
	}
	if u.round {
		bits++
	}
	return bits
}

func sizePrettyInt(size int64) string {
	for i, u := range sizeUnits {
		// The magnitude unsigned: the minimum int64 has no int64 one.
		abs := uint64(size)
		if size < 0 {
			abs = -abs
		}
		if i == len(sizeUnits)-1 || abs < uint64(u.limit) {
			if u.round {
				size = halfRounded(size)
			}
			return strconv.FormatInt(size, 10) + " " + u.name
		}
		size /= int64(1) << shiftBits(i)
	}
	panic("unreachable")
}

func halfRounded(x int64) int64 {
	if x < 0 {
		return (x - 1) / 2
	}
	return (x + 1) / 2
}

func sizePrettyNumeric(size *apd.Decimal) string {
	one, two := apd.New(1, 0), apd.New(2, 0)
	for i, u := range sizeUnits {
		var abs apd.Decimal
		abs.Abs(size)
		if i == len(sizeUnits)-1 || abs.Cmp(apd.New(u.limit, 0)) < 0 {
			if u.round {
				// numeric_half_rounded: (n ± 1) / 2, truncated.
				var d apd.Decimal
				if size.Sign() >= 0 {
					_, _ = exactCtx.Add(&d, size, one)
				} else {
					_, _ = exactCtx.Sub(&d, size, one)
				}
				size, _ = numDivTrunc(&d, two)
			}
			return string(appendNumeric(nil, size)) + " " + u.name
		}
		size, _ = numDivTrunc(size, apd.New(int64(1)<<shiftBits(i), 0))
	}
	panic("unreachable")
}

// sizeBytes is pg_size_bytes: a number (sign, digits, fraction, exponent),
// optionally a unit of sizeUnits (any case), rounded to bigint.
func sizeBytes(in string) (int64, error) {
	bad := func() *pgerr.Error {
		return pgerr.New(pgerr.InvalidParameterValue, "invalid size: \"%s\"", in)
	}
	isSpace := func(c byte) bool { return c == ' ' || c >= '\t' && c <= '\r' }
	s := in
	p := 0
	for p < len(s) && isSpace(s[p]) {
		p++
	}
	start, e := p, p
	if e < len(s) && (s[e] == '-' || s[e] == '+') {
		e++
	}
	digits := false
	for e < len(s) && s[e] >= '0' && s[e] <= '9' {
		e, digits = e+1, true
	}
	if e < len(s) && s[e] == '.' {
		e++
		for e < len(s) && s[e] >= '0' && s[e] <= '9' {
			e, digits = e+1, true
		}
	}
	if !digits {
		return 0, bad()
	}
	if e < len(s) && (s[e] == 'e' || s[e] == 'E') {
		// An exponent only if digits follow; else 'e...' is a unit.
		x := e + 1
		if x < len(s) && (s[x] == '-' || s[x] == '+') {
			x++
		}
		if x < len(s) && s[x] >= '0' && s[x] <= '9' {
			for x < len(s) && s[x] >= '0' && s[x] <= '9' {
				x++
			}
			e = x
		}
	}
	num, err := parseNumeric(s[start:e])
	if err != nil {
		return 0, bad()
	}
	unit := strings.TrimRightFunc(strings.TrimLeftFunc(s[e:], func(r rune) bool { return r < 128 && isSpace(byte(r)) }),
		func(r rune) bool { return r < 128 && isSpace(byte(r)) })
	if unit != "" {
		var mult int64
		for _, u := range sizeUnits {
			if strings.EqualFold(unit, u.name) {
				mult = int64(1) << u.bits
				break
			}
		}
		if mult == 0 {
			return 0, bad().WithDetail("Invalid size unit: \"%s\".", unit).
				WithHint("Valid units are \"bytes\", \"kB\", \"MB\", \"GB\", \"TB\", and \"PB\".")
		}
		var m apd.Decimal
		if _, err := exactCtx.Mul(&m, num, apd.New(mult, 0)); err != nil {
			return 0, err
		}
		num = &m
	}
	return numericToInt(num, Int8)
}
