package operators

import (
	"context"
	"fmt"
	"math"
	"math/rand"
	"testing"

	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// skipTable stores rows in many small segments of an in-memory storage.DB
// (no compaction), each segment's values drawn around its own base so
// that bounds differ between segments; NULLs, all-NULL segments and NaN
// are mixed in.
func skipTable(t *testing.T, rng *rand.Rand, cs []plan.Column, segs, rows int) storage.Table {
	t.Helper()
	db, err := storage.Open("", storage.Options{NoCompaction: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	defs := make([]storage.ColumnDef, len(cs))
	for i, c := range cs {
		defs[i] = storage.ColumnDef{Name: c.Name, Type: c.Type}
	}
	ctx := context.Background()
	tbl, err := db.Create(ctx, "t", defs)
	if err != nil {
		t.Fatal(err)
	}
	for s := 0; s < segs; s++ {
		base := int64(s * 10)
		allNull := rng.Intn(len(cs) + 3) // this segment's all-NULL column, if < len(cs)
		var data [][]types.Value
		for r := 0; r < rows; r++ {
			row := make([]types.Value, len(cs))
			for c, col := range cs {
				if c == allNull || rng.Intn(7) == 0 {
					row[c] = types.NullValue
					continue
				}
				v := base + rng.Int63n(15)
				switch col.Type.ID {
				case types.Float8:
					row[c] = types.FloatValue(float64(v) / 2)
					if rng.Intn(40) == 0 {
						row[c] = types.FloatValue(math.NaN())
					}
				case types.Text:
					row[c] = types.TextValue(fmt.Sprintf("k%03d", v))
				default:
					row[c] = types.Value{I: v}
				}
			}
			data = append(data, row)
		}
		if err := db.Append(ctx, tbl, mkRecord(cs, data)); err != nil {
			t.Fatal(err)
		}
	}
	tbl, _ = db.Lookup("t")
	if n := len(tbl.(storage.Segmented).Segments()); n != segs {
		t.Fatalf("%d segments, want %d", n, segs)
	}
	return tbl
}

// Skipping segments never changes a filter's result: every predicate
// shape, with NULLs, NaN and constants inside and outside the data,
// compared with the same filter over a scan that skips nothing.
func TestSegmentSkippingKeepsResults(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	cs := cols(types.Int4Type, types.Int8Type, types.Float8Type, types.TextType, types.DateType, types.TimestampType, types.Int2Type)
	tbl := skipTable(t, rng, cs, 40, 30)
	ords := []int{0, 1, 2, 3, 4, 5, 6}
	constFor := func(c plan.Column) (types.Value, types.Type) {
		v := rng.Int63n(430) - 10
		switch c.Type.ID {
		case types.Float8:
			if rng.Intn(10) == 0 {
				return types.FloatValue(math.NaN()), c.Type
			}
			return types.FloatValue(float64(v) / 2), c.Type
		case types.Text:
			return types.TextValue(fmt.Sprintf("k%03d", v)), c.Type
		case types.Int4, types.Int2:
			if rng.Intn(2) == 0 { // cross-width integer comparison
				return types.Value{I: v}, types.Int8Type
			}
		}
		return types.Value{I: v}, c.Type
	}
	ops := []string{"=", "<", "<=", ">", ">="}
	atom := func() plan.Expr {
		c := cs[rng.Intn(len(cs))]
		ref := &plan.ColRef{ID: c.ID, T: c.Type, Name: c.Name}
		switch k := rng.Intn(8); {
		case k == 0:
			return &plan.IsNull{Arg: ref, Negate: rng.Intn(2) == 0}
		case k == 1: // BETWEEN as the binder writes it
			lo, lt := constFor(c)
			hi, _ := constFor(c)
			ge, err1 := types.ResolveOperator(">=", c.Type, lt)
			le, err2 := types.ResolveOperator("<=", c.Type, lt)
			if err1 != nil || err2 != nil {
				t.Fatal(err1, err2)
			}
			return &plan.And{Args: []plan.Expr{
				&plan.Call{Func: ge, Args: []plan.Expr{ref, &plan.Const{Val: lo, T: lt}}},
				&plan.Call{Func: le, Args: []plan.Expr{ref, &plan.Const{Val: hi, T: lt}}},
			}}
		default:
			v, vt := constFor(c)
			op := ops[rng.Intn(len(ops))]
			k := &plan.Const{Val: v, T: vt}
			if rng.Intn(3) == 0 { // constant on the left
				fn, err := types.ResolveOperator(op, vt, c.Type)
				if err != nil {
					t.Fatal(err)
				}
				return &plan.Call{Func: fn, Args: []plan.Expr{k, ref}}
			}
			fn, err := types.ResolveOperator(op, c.Type, vt)
			if err != nil {
				t.Fatal(err)
			}
			return &plan.Call{Func: fn, Args: []plan.Expr{ref, k}}
		}
	}
	flat := func(e plan.Expr) []plan.Expr {
		if a, ok := e.(*plan.And); ok {
			return a.Args
		}
		return []plan.Expr{e}
	}
	totalSkipped, totalSegs := 0, 0
	for iter := 0; iter < 400; iter++ {
		var conj []plan.Expr
		for k := 1 + rng.Intn(2); k > 0; k-- {
			conj = append(conj, flat(atom())...)
		}
		pred := plan.Expr(&plan.And{Args: conj})
		if len(conj) == 1 {
			pred = conj[0]
		}
		skipping := NewScanSkip(tbl, ords, cs, 1+rng.Intn(3), 1+rng.Intn(20), conj).(*scanOp)
		f1, err := NewFilter(skipping, pred, &Env{})
		if err != nil {
			t.Fatal(err)
		}
		f2, err := NewFilter(NewScanBatch(tbl, ords, cs, 2, 9), pred, &Env{})
		if err != nil {
			t.Fatal(err)
		}
		got, want := collectRows(t, f1), collectRows(t, f2)
		if fmt.Sprint(sorted(got)) != fmt.Sprint(sorted(want)) {
			t.Fatalf("predicate %s: %d rows with skipping, %d without", plan.FormatExpr(pred), len(got), len(want))
		}
		sk, tot, ok := skipping.SegmentsSkipped()
		if !ok {
			t.Fatalf("predicate %s: scan did not consult segment statistics", plan.FormatExpr(pred))
		}
		totalSkipped += sk
		totalSegs += tot
	}
	// The test is only meaningful if skipping happens a lot.
	if totalSkipped < totalSegs/3 {
		t.Fatalf("skipped only %d of %d segments over all predicates", totalSkipped, totalSegs)
	}
	t.Logf("skipped %d of %d segments", totalSkipped, totalSegs)
}

// Unusable shapes are ignored, never wrong: a skip list of expressions the
// scan cannot use skips nothing.
func TestSegmentSkippingIgnoresOtherShapes(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	cs := cols(types.Int8Type, types.Int8Type)
	tbl := skipTable(t, rng, cs, 5, 10)
	a := &plan.ColRef{ID: cs[0].ID, T: cs[0].Type}
	b := &plan.ColRef{ID: cs[1].ID, T: cs[1].Type}
	lt, _ := types.ResolveOperator("<", types.Int8Type, types.Int8Type)
	ne, _ := types.ResolveOperator("<>", types.Int8Type, types.Int8Type)
	skip := []plan.Expr{
		&plan.Call{Func: lt, Args: []plan.Expr{a, b}}, // column vs column
		&plan.Call{Func: ne, Args: []plan.Expr{a, &plan.Const{Val: types.Value{I: 3}, T: types.Int8Type}}},
		&plan.Call{Func: lt, Args: []plan.Expr{a, &plan.Const{Val: types.NullValue, T: types.Int8Type}}},
	}
	sc := NewScanSkip(tbl, []int{0, 1}, cs, 1, 0, skip).(*scanOp)
	if len(sc.tests) != 0 {
		t.Fatalf("compiled %d tests from unusable shapes", len(sc.tests))
	}
	if n := len(collectRows(t, sc)); n != 50 {
		t.Fatalf("%d rows, want 50", n)
	}
}
