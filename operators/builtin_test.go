package operators

import (
	"math"
	"testing"

	"github.com/joind/joind/types"
)

// The fast paths must agree with package types' overloads (values and
// errors). Each overload is evaluated fast (as resolved) and generically
// (through a renamed copy that pickFast does not recognize).
func TestFastPathsMatchBuiltins(t *testing.T) {
	type tc struct {
		op   string
		t    types.Type
		a, b types.Value
	}
	var cases []tc
	ints := []int64{0, 1, -1, 7, -7, math.MaxInt32, math.MinInt32, math.MaxInt64, math.MinInt64, 1 << 40}
	for _, op := range []string{"+", "-", "*", "/", "%", "=", "<>", "<", "<=", ">", ">="} {
		for _, ty := range []types.Type{types.Int2Type, types.Int4Type, types.Int8Type} {
			lo, hi, _ := intRange(ty)
			for _, a := range ints {
				for _, b := range ints {
					if a < lo || a > hi || b < lo || b > hi {
						continue
					}
					cases = append(cases, tc{op, ty, I(a), I(b)})
				}
			}
		}
		for _, a := range []float64{0, -1.5, 2, math.Inf(1)} {
			for _, b := range []float64{0, -1.5, 3, math.Inf(-1)} {
				cases = append(cases, tc{op, types.Float8Type, F(a), F(b)})
			}
		}
	}
	checked := 0
	for _, c := range cases {
		fn, err := types.ResolveOperator(c.op, c.t, c.t)
		if err != nil {
			continue // e.g. % on float8
		}
		slow := *fn
		slow.Name = "slow" + fn.Name
		checked++
		cs := cols(c.t, c.t)
		rows := [][]types.Value{{c.a, c.b}}
		fast, ferr := evalStrings(t, call(fn, col(1, c.t), col(2, c.t)), cs, rows)
		gen, gerr := evalStrings(t, call(&slow, col(1, c.t), col(2, c.t)), cs, rows)
		if (ferr == nil) != (gerr == nil) || (ferr != nil && ferr.Error() != gerr.Error()) {
			t.Fatalf("%v %s %v (%v): fast err %v, generic err %v", c.a.I, c.op, c.b.I, c.t, ferr, gerr)
		}
		if ferr == nil && fast[0] != gen[0] {
			t.Fatalf("%v %s %v (%v): fast %s, generic %s", c.a, c.op, c.b, c.t, fast[0], gen[0])
		}
	}
	if checked == 0 {
		t.Skip("package types registers no arithmetic/comparison operators yet")
	}
}
