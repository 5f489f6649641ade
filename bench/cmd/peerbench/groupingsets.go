package main

import (
	"fmt"
	"sort"
	"strings"
)

// The grouping-sets workloads (group "groupingsets", issue 14): GROUP BY
// ROLLUP and CUBE over three small-cardinality columns of one table
//
//	gs(a int, b int, c int, v int)  GS rows, row g: a = g % 7, b = g % 11, c = g % 13, v = g % 1000
//
// (1001 distinct (a, b, c), all present once GS >= 1001). ROLLUP (a, b, c)
// has 1001 + 77 + 7 + 1 = 1086 groups, CUBE (a, b, c) every combination of
// each column or NULL: 8 * 12 * 14 = 1344. The answers come from the formulas
// (gsAnswer), so every peer's rows are checked.

const fullGS = 10_000_000

var gsMods = [3]int64{7, 11, 13}

func gsTables(sz sizes) []table {
	return []table{{Name: "gs", Create: "CREATE TABLE gs (a int, b int, c int, v int)", N: sz.GS,
		Series: "CAST(g % 7 AS int), CAST(g % 11 AS int), CAST(g % 13 AS int), CAST(g % 1000 AS int)",
		Row: func(g int64) string {
			return fmt.Sprintf("(%d, %d, %d, %d)", g%gsMods[0], g%gsMods[1], g%gsMods[2], g%1000)
		}}}
}

func init() { workloads = append(workloads, gsWorkloads...) }

var gsWorkloads = []workload{
	{
		Name:     "gs_rollup",
		SQL:      "SELECT a, b, c, count(*), sum(v) FROM gs GROUP BY ROLLUP (a, b, c)",
		Group:    "groupingsets",
		Tables:   []string{"gs"},
		Expected: func(sz sizes) []string { return gsAnswer(sz, [][3]bool{{true, true, true}, {true, true}, {true}, {}}) },
	},
	{
		Name:   "gs_cube",
		SQL:    "SELECT a, b, c, count(*), sum(v) FROM gs GROUP BY CUBE (a, b, c)",
		Group:  "groupingsets",
		Tables: []string{"gs"},
		Expected: func(sz sizes) []string {
			var sets [][3]bool
			for m := 0; m < 8; m++ {
				sets = append(sets, [3]bool{m&1 != 0, m&2 != 0, m&4 != 0})
			}
			return gsAnswer(sz, sets)
		},
	},
}

// gsAnswer is the canonical answer of SELECT a, b, c, count(*), sum(v)
// grouped by each of sets (which of a, b, c it groups by).
func gsAnswer(sz sizes, sets [][3]bool) []string {
	type agg struct{ n, s int64 }
	// Per (a, b, c) first, then each set folds those.
	var base [7][11][13]agg
	for g := int64(0); g < sz.GS; g++ {
		x := &base[g%7][g%11][g%13]
		x.n++
		x.s += g % 1000
	}
	var rows []string
	for _, set := range sets {
		groups := map[[3]int64]*agg{}
		var order [][3]int64
		for a := int64(0); a < 7; a++ {
			for b := int64(0); b < 11; b++ {
				for c := int64(0); c < 13; c++ {
					if base[a][b][c].n == 0 {
						continue
					}
					k := [3]int64{a, b, c}
					for i := range k {
						if !set[i] {
							k[i] = -1
						}
					}
					if groups[k] == nil {
						groups[k] = &agg{}
						order = append(order, k)
					}
					groups[k].n += base[a][b][c].n
					groups[k].s += base[a][b][c].s
				}
			}
		}
		for _, k := range order {
			f := make([]string, 0, 5)
			for _, v := range k {
				if v < 0 {
					f = append(f, "NULL")
				} else {
					f = append(f, itoa(v))
				}
			}
			f = append(f, itoa(groups[k].n), itoa(groups[k].s))
			rows = append(rows, strings.Join(f, "|"))
		}
	}
	sort.Strings(rows)
	return rows
}
