package join

import (
	"fmt"
	"math"
	"math/rand"
	"slices"
	"testing"

	"github.com/cockroachdb/apd/v3"
	"github.com/joind/joind/operators"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

func TestNestedLoopJoinAgainstReference(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	for round := 0; round < 8; round++ {
		L, R := genRows(rng, rng.Intn(10)), genRows(rng, rng.Intn(10))
		for _, typ := range []plan.JoinType{plan.InnerJoin, plan.CrossJoin, plan.LeftJoin, plan.RightJoin, plan.FullJoin, plan.SemiJoin, plan.AntiJoin, plan.MarkJoin} {
			c := jcase{typ: typ, residual: typ != plan.CrossJoin}
			var on plan.Expr = ltResidual
			if typ == plan.CrossJoin {
				on, c.typ = nil, plan.InnerJoin
			}
			want := reference(c, L, R)
			spec := c.spec()
			var mark *plan.Column
			if typ == plan.MarkJoin {
				mark = &mk
			}
			for _, parts := range []int{1, 2, 8} {
				op, err := NewNestedLoopJoin(newMem(lc, L, parts, 3), newMem(rc, R, parts, 3), typ, on, spec.Cols, mark, &operators.Env{BatchSize: 4})
				if err != nil {
					t.Fatal(err)
				}
				got, err := run(t, op)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(got, want) {
					t.Fatalf("NLJ %d, %d partitions:\n got %v\nwant %v\nL=%v\nR=%v", typ, parts, got, want, L, R)
				}
			}
		}
	}
}

var eqOp = &types.Overload{Name: "=", Args: []types.Type{i8, i8}, Result: types.BoolType, Strict: true,
	Eval: func(_ *types.EvalContext, a []types.Value) (types.Value, error) {
		return types.BoolValue(a[0].I == a[1].I), nil
	}}

func eq(l, r plan.Column) plan.Expr {
	return &plan.Call{Func: eqOp, Args: []plan.Expr{colRef(l), colRef(r)}}
}

// NOT IN / IN without an equi-key: value conjuncts decide UNKNOWN, the
// correlation conjuncts decide scope; checked against the same reference as
// the hash join's per-row mode.
func TestNestedLoopJoinNullAware(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	shapes := []struct {
		c      jcase
		on     plan.Expr
		values int
	}{
		{jcase{nkeys: 1}, eq(lc[0], rc[0]), 1},
		{jcase{nkeys: 2, valueKeys: 1}, &plan.And{Args: []plan.Expr{eq(lc[0], rc[0]), eq(lc[1], rc[1])}}, 1},
		{jcase{nkeys: 2, valueKeys: 2}, &plan.And{Args: []plan.Expr{eq(lc[0], rc[0]), eq(lc[1], rc[1])}}, 2},
		{jcase{nkeys: 2, valueKeys: 1, residual: true}, &plan.And{Args: []plan.Expr{eq(lc[0], rc[0]), eq(lc[1], rc[1]), ltResidual}}, 1},
	}
	for round := 0; round < 10; round++ {
		L, R := genRows(rng, rng.Intn(10)), genRows(rng, rng.Intn(10))
		for _, sh := range shapes {
			for _, typ := range []plan.JoinType{plan.AntiJoin, plan.MarkJoin} {
				c := sh.c
				c.typ, c.na = typ, true
				want := reference(c, L, R)
				var mark *plan.Column
				if typ == plan.MarkJoin {
					mark = &mk
				}
				for _, parts := range []int{1, 2, 8} {
					op, err := NewNestedLoopJoinNullAware(newMem(lc, L, parts, 3), newMem(rc, R, parts, 3), typ, sh.on, sh.values, c.spec().Cols, mark, &operators.Env{BatchSize: 4})
					if err != nil {
						t.Fatal(err)
					}
					got, err := run(t, op)
					if err != nil {
						t.Fatal(err)
					}
					if !slices.Equal(got, want) {
						t.Fatalf("null-aware NLJ %v, %d partitions:\n got %v\nwant %v\nL=%v\nR=%v", c, parts, got, want, L, R)
					}
				}
			}
		}
	}
}

// Text, float, numeric and bpchar keys go through the canonical encodings:
// 'a ' = 'a' for bpchar, -0 = 0 and NaN = NaN for floats, 1.50 = 1.5.
func TestKeyEncodings(t *testing.T) {
	type side struct {
		t    types.Type
		vals []types.Value
	}
	num := func(s string) types.Value {
		v := types.Value{}
		d, _, _ := apd.NewFromString(s)
		v.Num = d
		return v
	}
	nan := types.FloatValue(0)
	nan.F = nan.F / nan.F
	cases := []struct {
		name   string
		l, r   side
		wantEq [][2]int // (left row, right row) pairs expected to match
	}{
		{"bpchar vs text", side{types.CharType, []types.Value{types.TextValue("a  "), types.TextValue("b")}},
			side{types.TextType, []types.Value{types.TextValue("a"), types.TextValue("b "), types.NullValue}}, [][2]int{{0, 0}}},
		{"float", side{types.Float8Type, []types.Value{types.FloatValue(0), nan, types.FloatValue(1.5)}},
			side{types.Float4Type, []types.Value{types.FloatValue(math.Copysign(0, -1)), nan, types.FloatValue(1.5), types.NullValue}}, [][2]int{{0, 0}, {1, 1}, {2, 2}}},
		{"numeric", side{types.NumericType, []types.Value{num("1.50"), num("0.00"), num("NaN")}},
			side{types.NumericType, []types.Value{num("1.5"), num("-0"), num("NaN"), num("15")}}, [][2]int{{0, 0}, {1, 1}, {2, 2}}},
		{"interval", side{types.IntervalType, []types.Value{{Iv: types.IntervalValue{Months: 1}}, {Iv: types.IntervalValue{Days: 1}}}},
			side{types.IntervalType, []types.Value{{Iv: types.IntervalValue{Days: 30}}, {Iv: types.IntervalValue{Micros: 86400_000_000}}, {Iv: types.IntervalValue{Days: 2, Micros: -86400_000_000}}}},
			[][2]int{{0, 0}, {1, 1}, {1, 2}}},
	}
	for _, tc := range cases {
		lcols := []plan.Column{{ID: 1, Name: "l", Type: tc.l.t}, {ID: 2, Name: "li", Type: types.Int8Type}}
		rcols := []plan.Column{{ID: 11, Name: "r", Type: tc.r.t}, {ID: 12, Name: "ri", Type: types.Int8Type}}
		var L, R [][]types.Value
		for i, v := range tc.l.vals {
			L = append(L, []types.Value{v, types.IntValue(int64(i))})
		}
		for i, v := range tc.r.vals {
			R = append(R, []types.Value{v, types.IntValue(int64(i))})
		}
		spec := Spec{Type: plan.InnerJoin, LeftKeys: []plan.Expr{colRef(lcols[0])}, RightKeys: []plan.Expr{colRef(rcols[0])},
			Cols: []plan.Column{lcols[1], rcols[1]}}
		for _, mode := range []Mode{CollectLeft, Partitioned} {
			spec.Mode = mode
			op, err := newHashJoin(newMem(lcols, L, 2, 2), newMem(rcols, R, 2, 2), spec, nil)
			if err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			got, err := run(t, op)
			if err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			var want []string
			for _, p := range tc.wantEq {
				want = append(want, fmt.Sprintf("%d,%d", p[0], p[1]))
			}
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("%s/%s: got %v want %v", tc.name, mode, got, want)
			}
		}
	}
}
