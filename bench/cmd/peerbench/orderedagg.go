package main

import (
	"fmt"
	"sort"
	"strconv"
)

// The ordered-aggregate workloads (group "orderedagg", issue 14): over
// probe(k = 0..N-1), orderedAggGroups groups g = k % orderedAggGroups, each
// sorted by a scrambled key r = k * 7919 % 1000003 (unique within a group:
// 7919 is invertible modulo the prime 1000003, and two k of one group
// differ by less than 10000 * 1000003). The queries fold the per-group
// results into one row, so the answers are short and exact:
//
//	orderedagg_percentile: count of groups, sum of 2 × the median of r (an
//	integer: groups have an even number of rows at full size; the median of
//	an odd group is r itself)
//	orderedagg_string_agg: count of groups, total length of the strings and
//	sum of each string's first element (the k of the group's smallest r)

const (
	orderedAggGroups = 10000
	orderedAggMul    = 7919
	orderedAggPrime  = 1000003
)

var orderedAggWorkloads = []workload{
	{
		Name:     "orderedagg_percentile",
		SQL:      orderedAggSQL("count(*), sum(CAST(2 * p AS bigint))", "percentile_cont(0.5) WITHIN GROUP (ORDER BY %s) AS p"),
		Group:    "orderedagg",
		Tables:   []string{"probe"},
		Expected: expectedOrderedAggPercentile,
	},
	{
		Name: "orderedagg_string_agg",
		SQL: orderedAggSQL("count(*), sum(length(s)), sum(CAST(split_part(s, ',', 1) AS bigint))",
			"string_agg(CAST(k AS text), ',' ORDER BY %s) AS s"),
		Group:    "orderedagg",
		Tables:   []string{"probe"},
		Expected: expectedOrderedAggStringAgg,
	},
}

// orderedAggSQL is SELECT outer over the groups' agg, whose %s is the sort key.
func orderedAggSQL(outer, agg string) string {
	key := fmt.Sprintf("k * %d %% %d", orderedAggMul, orderedAggPrime)
	return fmt.Sprintf("SELECT %s FROM (SELECT k %% %d AS g, %s FROM probe GROUP BY k %% %d) q",
		outer, orderedAggGroups, fmt.Sprintf(agg, key), orderedAggGroups)
}

func init() { workloads = append(workloads, orderedAggWorkloads...) }

// orderedAggKeys is every group's sort keys r, in k order.
func orderedAggKeys(n int64) [][]int64 {
	groups := make([][]int64, min(n, orderedAggGroups))
	for k := int64(0); k < n; k++ {
		g := k % orderedAggGroups
		groups[g] = append(groups[g], k*orderedAggMul%orderedAggPrime)
	}
	return groups
}

func expectedOrderedAggPercentile(sz sizes) []string {
	var sum int64
	groups := orderedAggKeys(sz.Probe)
	for _, rs := range groups {
		sort.Slice(rs, func(i, j int) bool { return rs[i] < rs[j] })
		// percentile_cont(0.5): halfway between rows floor and ceil of (n-1)/2.
		lo, hi := rs[(len(rs)-1)/2], rs[len(rs)/2]
		sum += lo + hi
	}
	return []string{itoa(int64(len(groups))) + "|" + itoa(sum)}
}

func expectedOrderedAggStringAgg(sz sizes) []string {
	groups := orderedAggKeys(sz.Probe)
	var length, first int64
	for g, rs := range groups {
		best := 0
		for i, r := range rs {
			k := int64(g) + int64(i)*orderedAggGroups
			length += int64(len(strconv.FormatInt(k, 10))) + 1 // its digits and a comma
			if r < rs[best] {
				best = i
			}
		}
		length-- // no comma before the first
		first += int64(g) + int64(best)*orderedAggGroups
	}
	return []string{itoa(int64(len(groups))) + "|" + itoa(length) + "|" + itoa(first)}
}
