package main

// The recursive group (--only recursive): WITH RECURSIVE's iteration cost,
// on no tables. rec_count_100k and rec_union_orbit run 100k iterations of
// one row each (the per-iteration overhead); rec_wide_1k runs 1000
// iterations of 1000 rows each (the per-row work).

func init() {
	workloads = append(workloads, recursiveWorkloads...)
	onRequest["recursive"] = true
}

var recursiveWorkloads = []workload{
	{
		Name:     "rec_count_100k",
		Group:    "recursive",
		SQL:      "WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t WHERE n < 100000) SELECT count(*), sum(n) FROM t",
		Expected: func(sizes) []string { return []string{"100000|5000050000"} },
	},
	{
		Name:     "rec_union_orbit",
		Group:    "recursive",
		SQL:      "WITH RECURSIVE t(n) AS (SELECT 1 UNION SELECT (n * 7) % 100003 FROM t) SELECT count(*), sum(n) FROM t",
		Expected: func(sizes) []string { return []string{expectedOrbit(7, 100003)} },
	},
	{
		Name:  "rec_wide_1k",
		Group: "recursive",
		SQL: "WITH RECURSIVE t(n, d) AS (SELECT n, 0 FROM generate_series(1, 1000) AS g(n) " +
			"UNION ALL SELECT n, d + 1 FROM t WHERE d < 999) SELECT count(*), sum(d) FROM t",
		Expected: func(sizes) []string { return []string{"1000000|499500000"} },
	},
}

// expectedOrbit is the count and sum of the distinct values of n = 1,
// n·g mod p, ... (UNION's dedup ends the recursion when the orbit closes).
func expectedOrbit(g, p int64) string {
	seen := map[int64]bool{}
	var sum int64
	for n := int64(1); !seen[n]; n = n * g % p {
		seen[n] = true
		sum += n
	}
	return itoa(int64(len(seen))) + "|" + itoa(sum)
}
