package main

import (
	"fmt"
	"sort"
	"strings"
)

// The general-key workloads (group "keys", issue 12): joins and GROUP BYs on
// keys a join kernel cannot treat as small dense integers. Two tables:
//
//	gbuild(k bigint, t text, a int, b int, p int)  GBuild rows, row g has index idx = 2g
//	gprobe(k bigint, t text, a int, b int, q int)  GProbe rows, row g has index idx = g % (2 GBuild)
//
// Every key is a function of idx through two multiplicative hash
// permutations of [0, 2^31-1) (Lehmer generators, a bijection for idx below
// the prime 2^31-1):
//
//	h1 = idx * 48271 % 2147483647,  h2 = idx * 16807 % 2147483647
//	k  = h1 * 2^32 + h2                      scrambled over the positive bigint range
//	t  = 'cust-' || h2 || '-' || h1          ~24-26 bytes (shorter only for tiny idx)
//	a  = h1 / 65536, b = h1 % 65536          two int columns, unique as a pair
//
// and p = g % 1000, q = g % 1000 are payloads. gbuild holds the even indexes
// 0, 2, 4, ... of [0, 2 GBuild); gprobe cycles through all of [0, 2 GBuild),
// so exactly its rows of even idx (half of them) match one gbuild row each,
// on any of the three keys. At full size gprobe has 4M distinct keys (2 or 3
// rows each), so its GROUP BYs have 4M groups.

const (
	keyMul1  = 48271
	keyMul2  = 16807
	keyPrime = 2147483647
)

// keyHashes is h1, h2 of an index (see above).
func keyHashes(idx int64) (h1, h2 int64) {
	return idx * keyMul1 % keyPrime, idx * keyMul2 % keyPrime
}

func keyText(h1, h2 int64) string { return fmt.Sprintf("cust-%d-%d", h2, h1) }

// keyColumnsSQL is the SELECT list of k, t, a, b for the index expression idx
// (a bigint), spelled so PostgreSQL, DuckDB and joind compute the same
// values: every product fits a bigint, and a's division is exact (DuckDB's
// "/" divides in floating point).
func keyColumnsSQL(idx string) string {
	h1 := fmt.Sprintf("((%s) * %d %% %d)", idx, keyMul1, keyPrime)
	h2 := fmt.Sprintf("((%s) * %d %% %d)", idx, keyMul2, keyPrime)
	return strings.Join([]string{
		h1 + " * 4294967296 + " + h2,
		"'cust-' || CAST(" + h2 + " AS text) || '-' || CAST(" + h1 + " AS text)",
		"CAST((" + h1 + " - " + h1 + " % 65536) / 65536 AS int)",
		"CAST(" + h1 + " % 65536 AS int)",
	}, ", ")
}

func keyRow(idx, payload int64) string {
	h1, h2 := keyHashes(idx)
	return fmt.Sprintf("(%d, '%s', %d, %d, %d)", h1<<32+h2, keyText(h1, h2), h1/65536, h1%65536, payload)
}

func keyTables(sz sizes) []table {
	cycle := 2 * sz.GBuild
	return []table{
		{Name: "gbuild", Create: "CREATE TABLE gbuild (k bigint, t text, a int, b int, p int)", N: sz.GBuild,
			Series: keyColumnsSQL("CAST(g AS bigint) * 2") + ", CAST(g % 1000 AS int)",
			Row:    func(g int64) string { return keyRow(2*g, g%1000) }},
		{Name: "gprobe", Create: "CREATE TABLE gprobe (k bigint, t text, a int, b int, q int)", N: sz.GProbe,
			Series: keyColumnsSQL(fmt.Sprintf("CAST(g AS bigint) %% %d", cycle)) + ", CAST(g % 1000 AS int)",
			Row:    func(g int64) string { return keyRow(g%cycle, g%1000) }},
	}
}

var keyTableNames = []string{"gbuild", "gprobe"}

func init() { workloads = append(workloads, keyWorkloads...) }

var keyWorkloads = []workload{
	{
		Name:     "keys_join_bigint",
		SQL:      "SELECT count(*), sum(gbuild.p) FROM gprobe JOIN gbuild ON gprobe.k = gbuild.k",
		Group:    "keys",
		Tables:   keyTableNames,
		Expected: func(sz sizes) []string { c, s := keyMatches(sz); return []string{itoa(c) + "|" + itoa(s)} },
	},
	{
		Name:     "keys_join_text",
		SQL:      "SELECT count(*), sum(gbuild.p) FROM gprobe JOIN gbuild ON gprobe.t = gbuild.t",
		Group:    "keys",
		Tables:   keyTableNames,
		Expected: func(sz sizes) []string { c, s := keyMatches(sz); return []string{itoa(c) + "|" + itoa(s)} },
	},
	{
		Name:     "keys_join_2col",
		SQL:      "SELECT count(*), sum(gbuild.p) FROM gprobe JOIN gbuild ON gprobe.a = gbuild.a AND gprobe.b = gbuild.b",
		Group:    "keys",
		Tables:   keyTableNames,
		Expected: func(sz sizes) []string { c, s := keyMatches(sz); return []string{itoa(c) + "|" + itoa(s)} },
	},
	{
		Name:   "keys_left_join",
		SQL:    "SELECT count(*), count(gbuild.p), sum(gbuild.p) FROM gprobe LEFT JOIN gbuild ON gprobe.k = gbuild.k",
		Group:  "keys",
		Tables: keyTableNames,
		Expected: func(sz sizes) []string {
			c, s := keyMatches(sz)
			return []string{itoa(sz.GProbe) + "|" + itoa(c) + "|" + itoa(s)}
		},
	},
	{
		Name:     "keys_group_text",
		SQL:      "SELECT t, count(*), sum(q) FROM gprobe GROUP BY t ORDER BY 2 DESC, 3 DESC, 1 LIMIT 10",
		Group:    "keys",
		Tables:   []string{"gprobe"},
		Expected: func(sz sizes) []string { return keyTopGroups(sz, false) },
	},
	{
		Name:     "keys_group_2col",
		SQL:      "SELECT a, b, count(*), sum(q) FROM gprobe GROUP BY a, b ORDER BY 3 DESC, 4 DESC, 1, 2 LIMIT 10",
		Group:    "keys",
		Tables:   []string{"gprobe"},
		Expected: func(sz sizes) []string { return keyTopGroups(sz, true) },
	},
}

// keyMatches is the number of gprobe rows with a gbuild partner (those of
// even idx) and the sum of the partners' p (gbuild row idx/2 has p = idx/2 % 1000).
func keyMatches(sz sizes) (count, sum int64) {
	cycle := 2 * sz.GBuild
	for g := int64(0); g < sz.GProbe; g++ {
		if idx := g % cycle; idx%2 == 0 {
			count++
			sum += idx / 2 % 1000
		}
	}
	return count, sum
}

// keyTopGroups is the answer of keys_group_text (twoCol false) or
// keys_group_2col: the 10 groups of gprobe with the most rows, then the
// largest sum(q), then the smallest key, as canonical rows.
func keyTopGroups(sz sizes, twoCol bool) []string {
	cycle := 2 * sz.GBuild
	groups := min(cycle, sz.GProbe)
	cnt := make([]int32, groups)
	sum := make([]int64, groups)
	for g := int64(0); g < sz.GProbe; g++ {
		idx := g % cycle
		cnt[idx]++
		sum[idx] += g % 1000
	}
	type grp struct {
		idx, n, s int64
		key       string // t, or a and b as "a|b"
		a, b      int64
	}
	mk := func(idx int64) grp {
		h1, h2 := keyHashes(idx)
		return grp{idx: idx, n: int64(cnt[idx]), s: sum[idx], key: keyText(h1, h2), a: h1 / 65536, b: h1 % 65536}
	}
	less := func(x, y grp) bool { // x before y in the ORDER BY
		if x.n != y.n {
			return x.n > y.n
		}
		if x.s != y.s {
			return x.s > y.s
		}
		if twoCol {
			if x.a != y.a {
				return x.a < y.a
			}
			return x.b < y.b
		}
		return x.key < y.key // the scratch cluster's collation is C: byte order
	}
	const limit = 10
	var top []grp
	for idx := int64(0); idx < groups; idx++ {
		if len(top) == limit {
			last := top[limit-1]
			// Cheap rejection before building the key text.
			if int64(cnt[idx]) < last.n || (int64(cnt[idx]) == last.n && sum[idx] < last.s) {
				continue
			}
		}
		gr := mk(idx)
		i := sort.Search(len(top), func(i int) bool { return less(gr, top[i]) })
		if i >= limit {
			continue
		}
		top = append(top, grp{})
		copy(top[i+1:], top[i:])
		top[i] = gr
		if len(top) > limit {
			top = top[:limit]
		}
	}
	var rows []string
	for _, gr := range top {
		if twoCol {
			rows = append(rows, fmt.Sprintf("%d|%d|%d|%d", gr.a, gr.b, gr.n, gr.s))
		} else {
			rows = append(rows, fmt.Sprintf("%s|%d|%d", gr.key, gr.n, gr.s))
		}
	}
	sort.Strings(rows)
	return rows
}
