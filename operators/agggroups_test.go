package operators

import (
	"fmt"
	"math/rand"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/joind/joind/types"
)

// Every groupKeys shape (one int-like column, one text column, the row
// encoding) against a model: ids dense in first-seen order, rows with
// not-distinct keys in one group, and absorb mapping a second table's
// groups onto the first's (new groups appended in its order).
func TestGroupKeysAgainstModel(t *testing.T) {
	pick := func(rng *rand.Rand, vs []string) string { return vs[rng.Intn(len(vs))] }
	ints := []string{"1", "2", "-3", "1000000000000", "NULL", "0", "-4354685564936845355"} // the last is colKeys' NULL placeholder
	texts := []string{"a", "b", "", "a ", "NULL", "longer text value"}
	nums := []string{"1", "1.0", "1.00", "-0", "0.00", "2.5", "2.50", "NULL", "NaN"}
	floats := []string{"0", "-0", "NaN", "1.5", "NULL", "Infinity"}
	chars := []string{"a", "a  ", "", " ", "NULL", "b"}
	ivs := []string{"1 mon", "30 days", "720 hours", "1 day", "24:00:00", "NULL"}
	// canon names a value's group in the model, per type.
	canon := map[types.ID]map[string]string{
		types.Numeric:  {"1.0": "1", "1.00": "1", "-0": "0", "0.00": "0", "2.50": "2.5"},
		types.Float8:   {"-0": "0"},
		types.Char:     {"a  ": "a", " ": ""},
		types.Interval: {"30 days": "1 mon", "720 hours": "1 mon", "24:00:00": "1 day"},
	}
	shapes := []struct {
		ts   []types.Type
		vals [][]string
	}{
		{[]types.Type{types.Int8Type}, [][]string{ints}},
		{[]types.Type{types.Int4Type}, [][]string{{"1", "2", "-3", "NULL", "0"}}},
		{[]types.Type{types.TextType}, [][]string{texts}},
		{[]types.Type{types.NumericType}, [][]string{nums}},
		{[]types.Type{types.TextType, types.Int8Type, types.NumericType}, [][]string{texts, ints, nums}},
		{[]types.Type{types.Int8Type, types.TextType}, [][]string{ints, texts}},
		{[]types.Type{types.Int4Type, types.Int4Type}, [][]string{{"1", "2", "NULL"}, {"1", "-3", "NULL", "0"}}},
		{[]types.Type{types.TextType, types.TextType}, [][]string{texts, texts}},
		{[]types.Type{types.Float8Type, types.CharOf(3), types.IntervalType}, [][]string{floats, chars, ivs}},
		{[]types.Type{types.Float8Type}, [][]string{floats}},
		{[]types.Type{types.BoolType, types.DateType}, [][]string{{"t", "f", "NULL"}, {"2024-01-01", "NULL", "1999-12-31"}}},
	}
	for si, sh := range shapes {
		rng := rand.New(rand.NewSource(int64(si)))
		tables := make([]groupKeys, 2)
		firsts := make([][]string, 2) // per table: model keys in id order
		for ti := range tables {
			tables[ti] = newGroupKeys(sh.ts)
			ids := map[string]int32{}
			raw := make([][]string, len(sh.ts)) // per column: each group's first value
			for batch := 0; batch < 5; batch++ {
				n := 1 + rng.Intn(300)
				rows := make([][]string, len(sh.ts))
				for i := 0; i < n; i++ {
					for c := range sh.ts {
						rows[c] = append(rows[c], pick(rng, sh.vals[c]))
					}
				}
				arrs := make([]arrow.Array, len(sh.ts))
				for c := range sh.ts {
					arrs[c] = keyArr(t, sh.ts[c], rows[c]...)
				}
				gids := make([]int32, n)
				tables[ti].assign(arrs, n, gids)
				for i := 0; i < n; i++ {
					key := ""
					for c := range sh.ts {
						v := rows[c][i]
						if cv, ok := canon[sh.ts[c].ID][v]; ok {
							v = cv
						}
						key += fmt.Sprintf("%q,", v)
					}
					want, ok := ids[key]
					if !ok {
						want = int32(len(ids))
						ids[key] = want
						firsts[ti] = append(firsts[ti], key)
						for c := range sh.ts {
							raw[c] = append(raw[c], rows[c][i])
						}
					}
					if gids[i] != want {
						t.Fatalf("shape %d table %d: row %d (%s) in group %d, want %d", si, ti, i, key, gids[i], want)
					}
				}
			}
			if tables[ti].count() != len(ids) {
				t.Fatalf("shape %d: count %d, want %d", si, tables[ti].count(), len(ids))
			}
			// Each group outputs its first row's values (1.0 stays 1.0).
			bs := make([]array.Builder, len(sh.ts))
			for c, ty := range sh.ts {
				bs[c] = array.NewBuilder(memory.DefaultAllocator, ty.ArrowType())
			}
			tables[ti].appendKeys(bs, 0, len(ids))
			for c, ty := range sh.ts {
				got, want := bs[c].NewArray(), keyArr(t, ty, raw[c]...)
				for g := range raw[c] {
					gs := string(types.FormatText(nil, types.GetValue(got, ty, g), ty, nil))
					ws := string(types.FormatText(nil, types.GetValue(want, ty, g), ty, nil))
					if gs != ws || got.IsNull(g) != want.IsNull(g) {
						t.Fatalf("shape %d table %d: group %d column %d outputs %q, want %q", si, ti, g, c, gs, ws)
					}
				}
			}
		}
		m := tables[0].absorb(tables[1])
		index := map[string]int32{}
		for g, k := range firsts[0] {
			index[k] = int32(g)
		}
		for g, k := range firsts[1] {
			want, ok := index[k]
			if !ok {
				want = int32(len(index))
				index[k] = want
			}
			if m[g] != want {
				t.Fatalf("shape %d: absorbed group %d (%s) → %d, want %d", si, g, k, m[g], want)
			}
		}
		if tables[0].count() != len(index) {
			t.Fatalf("shape %d: count after absorb %d, want %d", si, tables[0].count(), len(index))
		}
	}
}
