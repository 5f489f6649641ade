package main

import (
	"fmt"
	"strings"
)

// The function workloads (group "functions", issue 15 part 6): the per-row
// cost of common PostgreSQL functions over one table of sz.Fn rows,
//
//	fn(k bigint = g)
//
// Each query folds its function's results into one row (count, total length
// and the greatest value), so every peer's answer can be compared exactly.
// DuckDB spells some of these functions differently; PeerSQL holds its
// spelling of the same computation.

const fullFn = 1_000_000

func fnTables(sz sizes) []table {
	return []table{{Name: "fn", Create: "CREATE TABLE fn (k bigint)", N: sz.Fn,
		Series: "g", Row: func(g int64) string { return fmt.Sprintf("(%d)", g) }}}
}

func init() { workloads = append(workloads, functionWorkloads...) }

var functionWorkloads = []workload{
	{
		Name:   "fn_to_char",
		SQL:    "SELECT count(*), sum(length(s)), max(s) FROM (SELECT to_char(TIMESTAMP '2000-01-01' + k * INTERVAL '1 second', 'YYYY-MM-DD HH24:MI:SS') AS s FROM fn) q",
		Tables: []string{"fn"}, Group: "functions",
		PeerSQL: map[string]string{"duckdb": "SELECT count(*), sum(length(s)), max(s) FROM (SELECT strftime(TIMESTAMP '2000-01-01' + to_seconds(k), '%Y-%m-%d %H:%M:%S') AS s FROM fn) q"},
		Expected: func(sz sizes) []string {
			return []string{fmt.Sprintf("%d|%d|%s", sz.Fn, 19*sz.Fn, secondsAfter2000(sz.Fn-1))}
		},
	},
	{
		Name:   "fn_regexp_replace",
		SQL:    `SELECT count(*), sum(length(s)), max(s) FROM (SELECT regexp_replace('item-' || k, '([a-z]+)-([0-9]+)', '\2:\1') AS s FROM fn) q`,
		Tables: []string{"fn"}, Group: "functions",
		Expected: func(sz sizes) []string {
			var total int64
			maxS := ""
			for k := int64(0); k < sz.Fn; k++ {
				s := itoa(k) + ":item"
				total += int64(len(s))
				maxS = max(maxS, s)
			}
			return []string{fmt.Sprintf("%d|%d|%s", sz.Fn, total, maxS)}
		},
	},
	{
		// The text is parsed as jsonb per row: no peer stores jsonb the
		// same way, so parsing is part of the measured cost.
		Name:   "fn_jsonb_field",
		SQL:    `SELECT count(*), sum(CAST(CAST('{"a": ' || k || ', "b": "x"}' AS jsonb) ->> 'a' AS bigint)) FROM fn`,
		Tables: []string{"fn"}, Group: "functions",
		PeerSQL: map[string]string{"duckdb": `SELECT count(*), sum(CAST(CAST('{"a": ' || k || ', "b": "x"}' AS JSON) ->> 'a' AS bigint)) FROM fn`},
		Expected: func(sz sizes) []string {
			return []string{fmt.Sprintf("%d|%d", sz.Fn, sz.Fn*(sz.Fn-1)/2)}
		},
	},
	{
		Name:   "fn_unnest",
		SQL:    "SELECT count(*), sum(x) FROM (SELECT unnest(ARRAY[k, k + 1, k + 2]) AS x FROM fn) q",
		Tables: []string{"fn"}, Group: "functions",
		Expected: func(sz sizes) []string {
			return []string{fmt.Sprintf("%d|%d", 3*sz.Fn, 3*(sz.Fn*(sz.Fn-1)/2)+3*sz.Fn)}
		},
	},
	{
		Name:   "fn_array_agg",
		SQL:    "SELECT count(*), sum(cardinality(a)), sum(a[1]) FROM (SELECT k % 1000 AS g, array_agg(k ORDER BY k) AS a FROM fn GROUP BY k % 1000) q",
		Tables: []string{"fn"}, Group: "functions",
		PeerSQL: map[string]string{"duckdb": "SELECT count(*), sum(len(a)), sum(a[1]) FROM (SELECT k % 1000 AS g, array_agg(k ORDER BY k) AS a FROM fn GROUP BY k % 1000) q"},
		Expected: func(sz sizes) []string {
			groups := min(sz.Fn, 1000)
			return []string{fmt.Sprintf("%d|%d|%d", groups, sz.Fn, groups*(groups-1)/2)}
		},
	},
}

// secondsAfter2000 is timestamp '2000-01-01' + s seconds as to_char's
// 'YYYY-MM-DD HH24:MI:SS' prints it.
func secondsAfter2000(s int64) string {
	days, rem := s/86400, s%86400
	y, m, d := 2000, 1, 1
	for ; days > 0; days-- {
		d++
		if d > daysIn(y, m) {
			d, m = 1, m+1
			if m > 12 {
				m, y = 1, y+1
			}
		}
	}
	return strings.Join([]string{fmt.Sprintf("%04d-%02d-%02d", y, m, d),
		fmt.Sprintf("%02d:%02d:%02d", rem/3600, rem%3600/60, rem%60)}, " ")
}

func daysIn(y, m int) int {
	switch m {
	case 2:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}
