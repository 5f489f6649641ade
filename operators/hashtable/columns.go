package hashtable

import (
	"fmt"
	"hash/maphash"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// Column hashing and equality for multi-column and variable-width keys.
// Each function switches on a column's concrete type once per batch and
// then runs a tight loop: no per-row interface calls.
//
// Hashes are consistent with SQL equality as PostgreSQL defines it for
// joins: -0 = +0 and NaN = NaN for floats; intervals compare by their
// normalised span ('1 month' = '30 days', '1 day' = '24 hours'). int16,
// int32 and int64 values hash alike, as do float32 and float64, so columns
// cast to a common type by the planner hash the same either way.

var strSeed = maphash.MakeSeed()

// hashInit is the starting hash of every row (any odd constant).
const hashInit = 0x2545F4914F6CDD1D

// HashColumns returns one 64-bit hash per row over the key columns: for
// row sel[i] (or i when sel is nil) into dst[i]. dst is reused if large
// enough. NULL values hash as a fixed value; callers drop NULL-key rows
// with AnyNull. Supported types: int16/32/64, float32/64, bool, string,
// large_string, binary, date32, timestamp, month_day_nano_interval.
func HashColumns(cols []arrow.Array, sel []int32, dst []uint64) ([]uint64, error) {
	n := 0
	if sel != nil {
		n = len(sel)
	} else if len(cols) > 0 {
		n = cols[0].Len()
	}
	if cap(dst) < n {
		dst = make([]uint64, n)
	}
	dst = dst[:n]
	for i := range dst {
		dst[i] = hashInit
	}
	for ci, c := range cols {
		salt := uint64(ci+1) * hashMul2
		var err error
		switch a := c.(type) {
		case *array.Int16:
			hashInts(a.Int16Values(), sel, dst, salt)
		case *array.Int32:
			hashInts(a.Int32Values(), sel, dst, salt)
		case *array.Int64:
			hashInts(a.Int64Values(), sel, dst, salt)
		case *array.Date32:
			hashInts(a.Date32Values(), sel, dst, salt)
		case *array.Timestamp:
			hashInts(a.TimestampValues(), sel, dst, salt)
		case *array.Boolean:
			for i := range dst {
				v := int64(0)
				if a.Value(rowAt(sel, i)) {
					v = 1
				}
				dst[i] = hashInt64(v, dst[i]^salt)
			}
		case *array.Float32:
			vals := a.Float32Values()
			for i := range dst {
				dst[i] = hashInt64(floatBits(float64(vals[rowAt(sel, i)])), dst[i]^salt)
			}
		case *array.Float64:
			vals := a.Float64Values()
			for i := range dst {
				dst[i] = hashInt64(floatBits(vals[rowAt(sel, i)]), dst[i]^salt)
			}
		case *array.String:
			for i := range dst {
				dst[i] = hashInt64(int64(maphash.String(strSeed, a.Value(rowAt(sel, i)))), dst[i]^salt)
			}
		case *array.LargeString:
			for i := range dst {
				dst[i] = hashInt64(int64(maphash.String(strSeed, a.Value(rowAt(sel, i)))), dst[i]^salt)
			}
		case *array.Binary:
			for i := range dst {
				dst[i] = hashInt64(int64(maphash.Bytes(strSeed, a.Value(rowAt(sel, i)))), dst[i]^salt)
			}
		case *array.MonthDayNanoInterval:
			vals := a.MonthDayNanoIntervalValues()
			for i := range dst {
				d, ns := intervalSpan(vals[rowAt(sel, i)])
				dst[i] = hashInt64(ns, hashInt64(d, dst[i]^salt))
			}
		default:
			err = fmt.Errorf("hashtable: unsupported key type %s", c.DataType())
		}
		if err != nil {
			return nil, err
		}
	}
	return dst, nil
}

func rowAt(sel []int32, i int) int {
	if sel == nil {
		return i
	}
	return int(sel[i])
}

func hashInts[T int16 | int32 | int64 | arrow.Date32 | arrow.Timestamp](vals []T, sel []int32, dst []uint64, salt uint64) {
	if sel == nil {
		vals = vals[:len(dst)]
		for i, v := range vals {
			dst[i] = hashInt64(int64(v), dst[i]^salt)
		}
		return
	}
	for i, r := range sel[:len(dst)] {
		dst[i] = hashInt64(int64(vals[r]), dst[i]^salt)
	}
}

// floatBits maps equal SQL floats to equal bits: both zeros to +0, every
// NaN to one NaN.
func floatBits(f float64) int64 {
	switch {
	case f == 0:
		return 0
	case f != f:
		return 0x7FF8000000000001
	}
	return int64(math.Float64bits(f))
}

const nanosPerDay = 86_400_000_000_000

// intervalSpan returns PostgreSQL's comparison value of an interval
// (months*30 days + days, then time) in canonical form: whole days and
// nanoseconds within [0, 1 day), so equal spans give equal pairs without
// 128-bit arithmetic.
func intervalSpan(v arrow.MonthDayNanoInterval) (days, nanos int64) {
	days = int64(v.Months)*30 + int64(v.Days)
	q := v.Nanoseconds / nanosPerDay
	r := v.Nanoseconds % nanosPerDay
	if r < 0 {
		r += nanosPerDay
		q--
	}
	return days + q, r
}

// AnyNull sets null[i] (for row sel[i], or i) when any key column is NULL
// there, false otherwise, and reports whether any row was NULL.
func AnyNull(cols []arrow.Array, sel []int32, null []bool) bool {
	n := len(null)
	for i := range null {
		null[i] = false
	}
	saw := false
	for _, c := range cols {
		if c.NullN() == 0 {
			continue
		}
		for i := range n {
			if c.IsNull(rowAt(sel, i)) {
				null[i] = true
				saw = true
			}
		}
	}
	return saw
}

// KeysEqual ANDs into eq[i] whether probe row pr[i] of probe equals build
// row br[i] of build on every key column (SQL equality; callers never pass
// NULL rows). probe[c] and build[c] must have the same Arrow type.
func KeysEqual(probe []arrow.Array, pr []int32, build []arrow.Array, br []uint32, eq []bool) error {
	n := len(eq)
	pr, br = pr[:n], br[:n]
	for c := range probe {
		if !arrow.TypeEqual(probe[c].DataType(), build[c].DataType()) {
			return fmt.Errorf("hashtable: key column %d: probe type %s, build type %s", c, probe[c].DataType(), build[c].DataType())
		}
		switch p := probe[c].(type) {
		case *array.Int16:
			eqFixed(p.Int16Values(), build[c].(*array.Int16).Int16Values(), pr, br, eq)
		case *array.Int32:
			eqFixed(p.Int32Values(), build[c].(*array.Int32).Int32Values(), pr, br, eq)
		case *array.Int64:
			eqFixed(p.Int64Values(), build[c].(*array.Int64).Int64Values(), pr, br, eq)
		case *array.Date32:
			eqFixed(p.Date32Values(), build[c].(*array.Date32).Date32Values(), pr, br, eq)
		case *array.Timestamp:
			eqFixed(p.TimestampValues(), build[c].(*array.Timestamp).TimestampValues(), pr, br, eq)
		case *array.Boolean:
			b := build[c].(*array.Boolean)
			for i := range eq {
				eq[i] = eq[i] && p.Value(int(pr[i])) == b.Value(int(br[i]))
			}
		case *array.Float32:
			eqFloat(p.Float32Values(), build[c].(*array.Float32).Float32Values(), pr, br, eq)
		case *array.Float64:
			eqFloat(p.Float64Values(), build[c].(*array.Float64).Float64Values(), pr, br, eq)
		case *array.String:
			b := build[c].(*array.String)
			for i := range eq {
				eq[i] = eq[i] && p.Value(int(pr[i])) == b.Value(int(br[i]))
			}
		case *array.LargeString:
			b := build[c].(*array.LargeString)
			for i := range eq {
				eq[i] = eq[i] && p.Value(int(pr[i])) == b.Value(int(br[i]))
			}
		case *array.Binary:
			b := build[c].(*array.Binary)
			for i := range eq {
				eq[i] = eq[i] && string(p.Value(int(pr[i]))) == string(b.Value(int(br[i])))
			}
		case *array.MonthDayNanoInterval:
			pv, bv := p.MonthDayNanoIntervalValues(), build[c].(*array.MonthDayNanoInterval).MonthDayNanoIntervalValues()
			for i := range eq {
				pd, pn := intervalSpan(pv[pr[i]])
				bd, bn := intervalSpan(bv[br[i]])
				eq[i] = eq[i] && pd == bd && pn == bn
			}
		default:
			return fmt.Errorf("hashtable: unsupported key type %s", probe[c].DataType())
		}
	}
	return nil
}

func eqFixed[T comparable](p, b []T, pr []int32, br []uint32, eq []bool) {
	for i := range eq {
		eq[i] = eq[i] && p[pr[i]] == b[br[i]]
	}
}

func eqFloat[T float32 | float64](p, b []T, pr []int32, br []uint32, eq []bool) {
	for i := range eq {
		x, y := p[pr[i]], b[br[i]]
		eq[i] = eq[i] && (x == y || (x != x && y != y))
	}
}
