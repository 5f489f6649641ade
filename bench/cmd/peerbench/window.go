package main

import (
	"fmt"
	"slices"
)

// The window-function workloads (group "window", issue 14): one table of
// sz.Win rows
//
//	wt(t bigint = g, a int = g % 1000, b int = g % 1000000, x int = (37 g) % 101)
//
// ranked within 1k partitions (a: 10k rows each) and within 1M partitions
// (b: 10 rows each), and 100-row sliding avg, numeric sum and min over the
// whole table in t order. Each query sums its window column so the answer is
// one row.

const fullWin = 10_000_000

func windowTables(sz sizes) []table {
	return []table{{Name: "wt", Create: "CREATE TABLE wt (t bigint, a int, b int, x int)", N: sz.Win,
		Series: "g, CAST(g % 1000 AS int), CAST(g % 1000000 AS int), CAST((g * 37) % 101 AS int)",
		Row: func(g int64) string {
			return fmt.Sprintf("(%d, %d, %d, %d)", g, g%1000, g%1000000, (g*37)%101)
		}}}
}

func init() { workloads = append(workloads, windowWorkloads...) }

var windowWorkloads = []workload{
	{
		Name:     "window_rank_1k",
		SQL:      "SELECT count(*), sum(r) FROM (SELECT rank() OVER (PARTITION BY a ORDER BY x) AS r FROM wt) s",
		Tables:   []string{"wt"},
		Group:    "window",
		Expected: func(sz sizes) []string { return rankAnswer(sz.Win, 1000) },
	},
	{
		Name:     "window_rank_1m",
		SQL:      "SELECT count(*), sum(r) FROM (SELECT rank() OVER (PARTITION BY b ORDER BY x) AS r FROM wt) s",
		Tables:   []string{"wt"},
		Group:    "window",
		Expected: func(sz sizes) []string { return rankAnswer(sz.Win, 1000000) },
	},
	{
		// avg is numeric on joind and PostgreSQL, double on DuckDB.
		Name: "window_sliding_avg",
		SQL: "SELECT count(*), round(sum(m), 6) FROM (SELECT avg(x) OVER (ORDER BY t ROWS BETWEEN 99 PRECEDING AND CURRENT ROW) AS m " +
			"FROM wt) s",
		Tables:   []string{"wt"},
		Group:    "window",
		Tolerant: true,
	},
	{
		// A numeric sum over a moving frame: PostgreSQL's inverse
		// transition, joind's exact prefix sums.
		Name: "window_sliding_sum_numeric",
		SQL: "SELECT count(*), sum(m) FROM (SELECT sum(x * 0.25) OVER (ORDER BY t ROWS BETWEEN 99 PRECEDING AND CURRENT ROW) AS m " +
			"FROM wt) s",
		Tables:   []string{"wt"},
		Group:    "window",
		Tolerant: true,
	},
	{
		// min has no inverse transition: PostgreSQL rescans each frame.
		Name: "window_sliding_min",
		SQL: "SELECT count(*), sum(m) FROM (SELECT min(b) OVER (ORDER BY t ROWS BETWEEN 99 PRECEDING AND CURRENT ROW) AS m " +
			"FROM wt) s",
		Tables: []string{"wt"},
		Group:  "window",
	},
}

// rankAnswer is count(*), sum(rank() OVER (PARTITION BY g % parts ORDER BY
// x)) over wt's n rows: a row's rank is 1 + the rows of its partition with a
// smaller x.
func rankAnswer(n, parts int64) []string {
	byPart := make([][]int32, min(parts, n))
	for g := int64(0); g < n; g++ {
		p := g % parts
		byPart[p] = append(byPart[p], int32((g*37)%101))
	}
	var sum int64
	for _, xs := range byPart {
		slices.Sort(xs)
		for i := range xs {
			if i == 0 || xs[i] != xs[i-1] {
				// every peer of this x has rank i+1
				j := i
				for j < len(xs) && xs[j] == xs[i] {
					j++
				}
				sum += int64(j-i) * int64(i+1)
			}
		}
	}
	return []string{itoa(n) + "|" + itoa(sum)}
}
