package operators

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// DISTINCT and INTERSECT/EXCEPT [ALL] against a model, for every shape of
// the group table (one int-like column, one text column, the row encoding:
// numeric, float, char(n), several columns): rows whose keys are not
// distinct (NULLs equal, numeric scale, -0 = 0, NaN = NaN, char's trailing
// blanks) count as one row, and DISTINCT emits first copies in input order.
func TestSetOpsAgainstModel(t *testing.T) {
	ints := []string{"1", "2", "-3", "1000000000000", "NULL", "0"}
	texts := []string{"a", "b", "", "a ", "NULL", "longer text value"}
	nums := []string{"1", "1.0", "1.00", "-0", "0.00", "2.5", "2.50", "NULL", "NaN"}
	floats := []string{"1", "-0", "0", "NaN", "NULL", "2.5", "Infinity"}
	chars := []string{"a", "a ", "a  ", "b", "NULL", ""}
	canonNum := map[string]string{"1.0": "1", "1.00": "1", "-0": "0", "0.00": "0", "2.50": "2.5"}
	canon := func(t types.Type, v string) string {
		switch t.ID {
		case types.Numeric:
			if c, ok := canonNum[v]; ok {
				return c
			}
		case types.Float8:
			if v == "-0" {
				return "0"
			}
		case types.Char:
			if v != "NULL" {
				return strings.TrimRight(v, " ")
			}
		}
		return v
	}
	shapes := []struct {
		ts   []types.Type
		vals [][]string
	}{
		{[]types.Type{types.Int8Type}, [][]string{ints}},
		{[]types.Type{types.TextType}, [][]string{texts}},
		{[]types.Type{types.NumericType}, [][]string{nums}},
		{[]types.Type{types.Float8Type}, [][]string{floats}},
		{[]types.Type{types.CharType}, [][]string{chars}},
		{[]types.Type{types.TextType, types.Int8Type, types.NumericType}, [][]string{texts, ints, nums}},
	}
	for si, sh := range shapes {
		rng := rand.New(rand.NewSource(int64(si)))
		cs := cols(sh.ts...)
		// modelKeys is every row's model key, in order.
		modelKeys := func(recs []arrow.Record) []string {
			var keys []string
			for _, rec := range recs {
				if rec.NumRows() == 0 {
					t.Fatalf("shape %d: an empty batch", si)
				}
				for _, row := range recRows(rec, cs) {
					key := ""
					for c, v := range row {
						key += fmt.Sprintf("%q,", canon(sh.ts[c], fmtVal(v, sh.ts[c])))
					}
					keys = append(keys, key)
				}
			}
			return keys
		}
		run := func(op Operator, err error) []string {
			if err != nil {
				t.Fatal(err)
			}
			recs, err := Collect(context.Background(), op)
			if err != nil {
				t.Fatal(err)
			}
			return modelKeys(recs)
		}
		// side builds a table of n random rows in batches of random sizes.
		side := func(n int) *memTable {
			m := &memTable{name: "t"}
			for _, c := range cs {
				m.defs = append(m.defs, storage.ColumnDef{Name: c.Name, Type: c.Type})
			}
			for n > 0 {
				k := min(1+rng.Intn(40), n)
				n -= k
				arrs := make([]arrow.Array, len(cs))
				for c := range cs {
					var vals []string
					for i := 0; i < k; i++ {
						vals = append(vals, sh.vals[c][rng.Intn(len(sh.vals[c]))])
					}
					arrs[c] = keyArr(t, sh.ts[c], vals...)
				}
				m.recs = append(m.recs, array.NewRecord(schemaOf(cs), arrs, int64(k)))
			}
			return m
		}
		lt, rt := side(400), side(300)
		lkeys, rkeys := modelKeys(lt.recs), modelKeys(rt.recs)
		ords := make([]int, len(cs))
		for i := range ords {
			ords[i] = i
		}
		// DISTINCT over one partition: the first copies, in input order.
		var want []string
		seen := map[string]bool{}
		for _, k := range lkeys {
			if !seen[k] {
				seen[k] = true
				want = append(want, k)
			}
		}
		got := run(NewDistinct(NewScanBatch(lt, ords, cs, 1, 64), &Env{}))
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Fatalf("shape %d: distinct\ngot:\n%s\nwant:\n%s", si, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		nl, nr := map[string]int64{}, map[string]int64{}
		for _, k := range lkeys {
			nl[k]++
		}
		for _, k := range rkeys {
			nr[k]++
		}
		for _, parts := range partitionCounts {
			for _, c := range []struct {
				op  plan.SetOpKind
				all bool
			}{{plan.Intersect, false}, {plan.Intersect, true}, {plan.Except, false}, {plan.Except, true}} {
				var want []string
				for k, l := range nl {
					r := nr[k]
					var n int64
					switch {
					case c.op == plan.Intersect && c.all:
						n = min(l, r)
					case c.op == plan.Intersect && r > 0:
						n = 1
					case c.op == plan.Except && c.all:
						n = max(l-r, 0)
					case c.op == plan.Except && r == 0:
						n = 1
					}
					for ; n > 0; n-- {
						want = append(want, k)
					}
				}
				got := run(NewSetOp(c.op, c.all, NewScanBatch(lt, ords, cs, parts, 16), NewScanBatch(rt, ords, cs, parts, 16), cs, &Env{}))
				if strings.Join(sorted(got), "\n") != strings.Join(sorted(want), "\n") {
					t.Fatalf("shape %d: op %v all %v parts %d\ngot:\n%s\nwant:\n%s", si, c.op, c.all, parts,
						strings.Join(sorted(got), "\n"), strings.Join(sorted(want), "\n"))
				}
			}
		}
	}
}
