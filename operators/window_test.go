package operators

import (
	"fmt"
	"math"
	"math/rand"
	"sort"
	"testing"

	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// TestWindowFramesMatchNaive holds the window operator's frame evaluation
// (monotone frame pointers, prefix sums, the min/max segment tree, running
// and recomputed accumulators) to a direct reading of the frame definition:
// row j is in row i's frame when its position, peer group or ORDER BY value
// lies between the bounds, less the excluded rows. Random tables with ties,
// NULL values and NULL partitions; every mode, bound kind and exclusion;
// one and two partitions.
func TestWindowFramesMatchNaive(t *testing.T) {
	gen := func(rng *rand.Rand) types.Value { return I(int64(rng.Intn(21) - 10)) }
	checkFramesMatchNaive(t, 7, types.Int4Type, []string{"sum", "count", "min", "max", "avg", "var_samp", "stddev_pop"}, gen)
}

// TestWindowMovingFramesMatchNaive holds the removable and typed moving
// frame paths (windowmoving.go) to the same definition: numeric sum/avg of
// mixed display scales with NaN and infinities (the prefix sums, the scale
// tree, the special counts), float sums whose digits depend on the order of
// addition (the per-row restart), min/max over text and bool_and/bool_or.
func TestWindowMovingFramesMatchNaive(t *testing.T) {
	num := func(s string) types.Value {
		v, err := types.ParseText(s, types.NumericType)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	nums := []string{"1.5", "1.500", "2.25", "-3", "0", "7.125", "100", "-0.01"}
	checkFramesMatchNaive(t, 11, types.NumericType, []string{"sum", "avg", "count", "min", "max", "variance", "stddev", "var_pop"}, func(rng *rand.Rand) types.Value {
		switch rng.Intn(40) {
		case 0:
			return num("NaN")
		case 1:
			return num("Infinity")
		case 2:
			return num("-Infinity")
		}
		return num(nums[rng.Intn(len(nums))])
	})
	floats := []float64{0.1, 0.2, 0.3, 1e16, -1e16, 3.7, -2.5, 1.0 / 3}
	gf := func(rng *rand.Rand) types.Value {
		if rng.Intn(60) == 0 {
			return F(math.Inf(1 - 2*rng.Intn(2)))
		}
		return F(floats[rng.Intn(len(floats))])
	}
	checkFramesMatchNaive(t, 13, types.Float8Type, []string{"sum", "avg", "min", "max"}, gf)
	checkFramesMatchNaive(t, 17, types.Float4Type, []string{"sum", "avg"}, func(rng *rand.Rand) types.Value {
		return F(float64(float32(gf(rng).F))) // what a real column holds
	})
	words := []string{"a", "B", "b", "ab", "", "zz", "Z"}
	checkFramesMatchNaive(t, 19, types.TextType, []string{"min", "max"}, func(rng *rand.Rand) types.Value {
		return S(words[rng.Intn(len(words))])
	})
	checkFramesMatchNaive(t, 23, types.BoolType, []string{"bool_and", "bool_or", "every"}, func(rng *rand.Rand) types.Value {
		return B(rng.Intn(3) != 0)
	})
	// Months, days and microseconds of both signs: avg's division spills
	// between the fields, which the prefix sums must reproduce.
	checkFramesMatchNaive(t, 29, types.IntervalType, []string{"sum", "avg"}, func(rng *rand.Rand) types.Value {
		return types.Value{Iv: types.IntervalValue{Months: int32(rng.Intn(41) - 20), Days: int32(rng.Intn(61) - 30),
			Micros: rng.Int63n(7_200_000_000) - 3_600_000_000}}
	})
}

// checkFramesMatchNaive runs random frames of aggs over an argument of type
// argT drawn from gen (one in five NULL) against naiveFrame.
func checkFramesMatchNaive(t *testing.T, seed int64, argT types.Type, aggs []string, gen func(*rand.Rand) types.Value) {
	t.Helper()
	cs := cols(types.Int8Type, types.Int4Type, types.Int4Type, argT)
	id, g, k, x := cs[0], cs[1], cs[2], cs[3]
	ref := func(c plan.Column) *plan.ColRef { return &plan.ColRef{ID: c.ID, T: c.Type, Name: c.Name} }
	rng := rand.New(rand.NewSource(seed))
	kinds := []plan.BoundKind{plan.UnboundedPreceding, plan.OffsetPreceding, plan.CurrentRow, plan.OffsetFollowing, plan.UnboundedFollowing}
	for iter := 0; iter < 300; iter++ {
		n := 1 + rng.Intn(40)
		rows := make([][]types.Value, n)
		for i := range rows {
			gv := I(int64(rng.Intn(3)))
			if rng.Intn(6) == 0 {
				gv = N
			}
			xv := gen(rng)
			if rng.Intn(5) == 0 {
				xv = N
			}
			rows[i] = []types.Value{I(int64(i)), gv, I(int64(rng.Intn(6))), xv}
		}
		mode := plan.FrameMode(rng.Intn(3))
		var fr plan.Frame
		fr.Mode = mode
		for {
			fr.Start.Kind, fr.End.Kind = kinds[rng.Intn(4)], kinds[1+rng.Intn(4)]
			if fr.Start.Kind <= fr.End.Kind {
				break
			}
		}
		sOff, eOff := int64(rng.Intn(4)), int64(rng.Intn(4))
		if fr.Start.Kind == plan.OffsetPreceding || fr.Start.Kind == plan.OffsetFollowing {
			fr.Start.Offset = &plan.Const{Val: I(sOff), T: types.Int8Type}
		}
		if fr.End.Kind == plan.OffsetPreceding || fr.End.Kind == plan.OffsetFollowing {
			fr.End.Offset = &plan.Const{Val: I(eOff), T: types.Int8Type}
		}
		fr.Exclude = plan.Exclusion(rng.Intn(4))
		order := []plan.SortKey{{Expr: ref(k)}}
		if mode == plan.FrameRows {
			order = append(order, plan.SortKey{Expr: ref(id)})
		}
		if mode == plan.FrameRange {
			fr.RangeKey = &plan.Cast{Input: ref(k), T: types.Int8Type}
			var err error
			if fr.Add, err = types.ResolveOperator("+", types.Int8Type, types.Int8Type); err != nil {
				t.Fatal(err)
			}
			if fr.Sub, err = types.ResolveOperator("-", types.Int8Type, types.Int8Type); err != nil {
				t.Fatal(err)
			}
		}
		name := aggs[rng.Intn(len(aggs))]
		ov, err := types.ResolveAggregate(name, []types.Type{argT}, false)
		if err != nil {
			t.Fatal(err)
		}
		wf := plan.WindowFunc{Agg: ov, Args: []plan.Expr{ref(x)}, Frame: fr}
		filtered := rng.Intn(3) == 0 // FILTER (WHERE k < 3)
		if filtered {
			lt, err := types.ResolveOperator("<", types.Int4Type, types.Int4Type)
			if err != nil {
				t.Fatal(err)
			}
			wf.Filter = &plan.Call{Func: lt, Args: []plan.Expr{ref(k), &plan.Const{Val: I(3), T: types.Int4Type}}}
		}
		w := &plan.Window{PartitionBy: []plan.Expr{ref(g)}, OrderBy: order, Funcs: []plan.WindowFunc{wf}}
		out := plan.Column{ID: 10, Name: name, Type: ov.Result}
		w.Cols = append(append([]plan.Column(nil), cs...), out)
		parts := 1 + iter%2
		var in Operator = scanOf(newMemTable(cs, rows, int64(iter)), cs, 2)
		if parts == 2 {
			if in, err = NewRepartition(in, w.PartitionBy, 2, nil); err != nil {
				t.Fatal(err)
			}
		}
		op, err := NewWindow(in, w, parts, false, nil)
		if err != nil {
			t.Fatal(err)
		}
		got := map[int64]string{}
		// Peers come out in the sort's order, which the aggregate adds in
		// (float sums and the later of equal extremes depend on it).
		seq := map[int64]int{}
		for p, r := range collectRowValues(t, op) {
			got[r[0].I] = fmtVal(r[4], out.Type)
			seq[r[0].I] = p
		}
		desc := fmt.Sprintf("type %d iter %d: %s filtered=%v mode=%d start=%d(%d) end=%d(%d) exclude=%d", argT.ID, iter, name, filtered, mode, fr.Start.Kind, sOff, fr.End.Kind, eOff, fr.Exclude)
		for i, r := range rows {
			acc := ov.New()
			for _, j := range naiveFrame(rows, seq, i, fr, sOff, eOff) {
				if filtered && rows[j][2].I >= 3 {
					continue
				}
				if err := acc.Add([]types.Value{rows[j][3]}); err != nil {
					t.Fatal(err)
				}
			}
			v, err := acc.Result()
			if err != nil {
				t.Fatal(err)
			}
			if want := fmtVal(v, out.Type); got[r[0].I] != want {
				t.Fatalf("%s: row id=%d: got %s, want %s", desc, r[0].I, got[r[0].I], want)
			}
		}
	}
}

// naiveFrame lists row i's frame by definition (partition = equal g, NULLs
// together; order by k then the output's order seq; peers = equal k, except
// in ROWS mode).
func naiveFrame(rows [][]types.Value, seq map[int64]int, i int, fr plan.Frame, sOff, eOff int64) []int {
	sameG := func(a, b types.Value) bool { return a.Null == b.Null && (a.Null || a.I == b.I) }
	var part []int
	for j := range rows {
		if sameG(rows[j][1], rows[i][1]) {
			part = append(part, j)
		}
	}
	sort.Slice(part, func(a, b int) bool {
		ra, rb := rows[part[a]], rows[part[b]]
		if ra[2].I != rb[2].I {
			return ra[2].I < rb[2].I
		}
		return seq[ra[0].I] < seq[rb[0].I]
	})
	pos := map[int]int{}
	grp := map[int]int64{}
	var gnum int64 = -1
	for p, j := range part {
		pos[j] = p
		if p == 0 || rows[part[p-1]][2].I != rows[j][2].I {
			gnum++
		}
		grp[j] = gnum
	}
	// coordinate of row j relative to row i, in the frame's unit
	coord := func(j int) int64 {
		switch fr.Mode {
		case plan.FrameRows:
			return int64(pos[j] - pos[i])
		case plan.FrameGroups:
			return grp[j] - grp[i]
		}
		return rows[j][2].I - rows[i][2].I
	}
	peer := func(j int) bool {
		if fr.Mode == plan.FrameRows {
			return j == i
		}
		return rows[j][2].I == rows[i][2].I
	}
	inStart := func(j int) bool {
		c := coord(j)
		switch fr.Start.Kind {
		case plan.OffsetPreceding:
			return c >= -sOff
		case plan.CurrentRow:
			return c >= 0
		case plan.OffsetFollowing:
			return c >= sOff
		}
		return true
	}
	inEnd := func(j int) bool {
		c := coord(j)
		switch fr.End.Kind {
		case plan.OffsetPreceding:
			return c <= -eOff
		case plan.CurrentRow:
			return c <= 0
		case plan.OffsetFollowing:
			return c <= eOff
		}
		return true
	}
	var out []int
	for _, j := range part {
		if !inStart(j) || !inEnd(j) {
			continue
		}
		switch fr.Exclude {
		case plan.ExcludeCurrentRow:
			if j == i {
				continue
			}
		case plan.ExcludeGroup:
			if peer(j) {
				continue
			}
		case plan.ExcludeTies:
			if peer(j) && j != i {
				continue
			}
		}
		out = append(out, j)
	}
	return out
}

func collectRowValues(t *testing.T, op Operator) [][]types.Value {
	t.Helper()
	recs, err := Collect(t.Context(), op)
	if err != nil {
		t.Fatalf("collect: %v", err)
	}
	var out [][]types.Value
	for _, r := range recs {
		out = append(out, recRows(r, op.Columns())...)
	}
	return out
}
