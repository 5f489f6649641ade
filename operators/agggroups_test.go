package operators

import (
	"fmt"
	"math/rand"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/joind/joind/types"
)

// Every groupKeys shape (one int-like column, one text column, the row
// encoding) against a model: ids dense in first-seen order, rows with
// not-distinct keys in one group, and absorb mapping a second table's
// groups onto the first's (new groups appended in its order).
func TestGroupKeysAgainstModel(t *testing.T) {
	pick := func(rng *rand.Rand, vs []string) string { return vs[rng.Intn(len(vs))] }
	ints := []string{"1", "2", "-3", "1000000000000", "NULL", "0"}
	texts := []string{"a", "b", "", "a ", "NULL", "longer text value"}
	nums := []string{"1", "1.0", "1.00", "-0", "0.00", "2.5", "2.50", "NULL", "NaN"}
	// canon names a value's group in the model.
	canon := map[string]string{"1.0": "1", "1.00": "1", "-0": "0", "0.00": "0", "2.50": "2.5"}
	shapes := []struct {
		ts   []types.Type
		vals [][]string
	}{
		{[]types.Type{types.Int8Type}, [][]string{ints}},
		{[]types.Type{types.Int4Type}, [][]string{{"1", "2", "-3", "NULL", "0"}}},
		{[]types.Type{types.TextType}, [][]string{texts}},
		{[]types.Type{types.NumericType}, [][]string{nums}},
		{[]types.Type{types.TextType, types.Int8Type, types.NumericType}, [][]string{texts, ints, nums}},
	}
	for si, sh := range shapes {
		rng := rand.New(rand.NewSource(int64(si)))
		tables := make([]groupKeys, 2)
		firsts := make([][]string, 2) // per table: model keys in id order
		for ti := range tables {
			tables[ti] = newGroupKeys(sh.ts)
			ids := map[string]int32{}
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
						if cv, ok := canon[v]; ok && sh.ts[c].ID == types.Numeric {
							v = cv
						}
						key += fmt.Sprintf("%q,", v)
					}
					want, ok := ids[key]
					if !ok {
						want = int32(len(ids))
						ids[key] = want
						firsts[ti] = append(firsts[ti], key)
					}
					if gids[i] != want {
						t.Fatalf("shape %d table %d: row %d (%s) in group %d, want %d", si, ti, i, key, gids[i], want)
					}
				}
			}
			if tables[ti].count() != len(ids) {
				t.Fatalf("shape %d: count %d, want %d", si, tables[ti].count(), len(ids))
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
