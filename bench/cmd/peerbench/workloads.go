package main

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"
)

// workload is one query measured on every peer.
type workload struct {
	Name   string
	SQL    string
	Tables []string
	// Expected computes the answer (rows as text, see canonical) from the
	// generation formulas in data.go.
	Expected func(sizes) []string
	// SlowOnPG marks a query PostgreSQL runs once per outer row (it cannot
	// decorrelate NOT IN): ~4 minutes at full size.
	SlowOnPG bool
	// Group is a name --only accepts for several workloads ("load").
	Group string
	// OnlyPeers limits the workload to these peers (the others show it
	// as not applicable).
	OnlyPeers []string
	// NoWarmup: every run is timed (a load has nothing to warm).
	NoWarmup bool
	// Run replaces running SQL: it calls timed around the part to time and
	// returns the answer to check.
	Run func(ctx context.Context, b *bench, p peer, timed func(func() error) error) ([]string, error)
	// PeerSQL is a peer's own spelling of SQL, where its dialect differs
	// (keyed by peer name).
	PeerSQL map[string]string
	// Tolerant compares DuckDB's answer with numeric tolerance (compare.go).
	Tolerant bool
	// Timeout replaces --timeout for this workload (0: --timeout).
	Timeout time.Duration
}

func init() { workloads = append(workloads, loadWorkloads...) }

var workloads = []workload{
	{
		Name:     "join_count",
		SQL:      "SELECT count(*) FROM probe JOIN build ON probe.k = build.k",
		Tables:   []string{"probe", "build"},
		Expected: func(sz sizes) []string { return []string{itoa(matchedBuild(sz))} },
	},
	{
		Name: "join_group_top3",
		SQL: "SELECT dim.name, count(*) FROM probe JOIN build ON probe.k = build.k " +
			"JOIN dim ON build.g = dim.g GROUP BY dim.name ORDER BY 2 DESC, 1 LIMIT 3",
		Tables:   []string{"probe", "build", "dim"},
		Expected: expectedGroupTop3,
	},
	{
		Name:     "not_in",
		SQL:      "SELECT count(*) FROM probe WHERE k NOT IN (SELECT k FROM build)",
		Tables:   []string{"probe", "build"},
		Expected: func(sz sizes) []string { return []string{itoa(sz.Probe - matchedBuild(sz))} },
	},
	{
		Name:     "not_exists",
		SQL:      "SELECT count(*) FROM probe WHERE NOT EXISTS (SELECT 1 FROM build WHERE build.k = probe.k)",
		Tables:   []string{"probe", "build"},
		Expected: func(sz sizes) []string { return []string{itoa(sz.Probe - matchedBuild(sz))} },
	},
	{
		Name:     "corr_not_in_100k",
		SQL:      "SELECT count(*) FROM t1 WHERE x NOT IN (SELECT y FROM t2 WHERE t2.z = t1.z)",
		Tables:   []string{"t1", "t2"},
		Expected: func(sz sizes) []string { return []string{itoa(correlatedNotIn(sz.T, tScopes))} },
		SlowOnPG: true,
	},
	{
		Name:     "corr_not_in_10k",
		SQL:      "SELECT count(*) FROM s1 WHERE x NOT IN (SELECT y FROM s2 WHERE s2.z = s1.z)",
		Tables:   []string{"s1", "s2"},
		Expected: func(sz sizes) []string { return []string{itoa(correlatedNotIn(sz.S, sScopes))} },
	},
}

func itoa(v int64) string { return strconv.FormatInt(v, 10) }

// matchedBuild is how many build keys (0, 10, 20, ...) fall inside probe's
// 0..Probe-1: each matches exactly one probe row.
func matchedBuild(sz sizes) int64 {
	return min(sz.Build, (sz.Probe+9)/10)
}

func expectedGroupTop3(sz sizes) []string {
	counts := make(map[string]int64)
	for i := int64(0); i < matchedBuild(sz); i++ {
		counts["dim"+itoa(i%dimRows)]++
	}
	type nc struct {
		name string
		n    int64
	}
	var all []nc
	for k, v := range counts {
		all = append(all, nc{k, v})
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i].n != all[j].n {
			return all[i].n > all[j].n
		}
		return all[i].name < all[j].name
	})
	var rows []string
	for i := 0; i < len(all) && i < 3; i++ {
		rows = append(rows, all[i].name+"|"+itoa(all[i].n))
	}
	sort.Strings(rows)
	return rows
}

// correlatedNotIn evaluates
//
//	SELECT count(*) FROM a WHERE x NOT IN (SELECT y FROM b WHERE b.z = a.z)
//
// with a(x, z) = (i, i % scopes), b(y, z) = (3i, i % scopes) for i < n, plus
// b's row (NULL, nullZ), under SQL's three-valued logic: an empty scope makes
// NOT IN true, a match makes it false, and otherwise a NULL in the scope makes
// it NULL (not counted).
func correlatedNotIn(n int64, scopes int64) int64 {
	type scope struct {
		ys      map[int64]bool
		hasNull bool
	}
	sc := make(map[int64]*scope)
	get := func(z int64) *scope {
		s := sc[z]
		if s == nil {
			s = &scope{ys: make(map[int64]bool)}
			sc[z] = s
		}
		return s
	}
	for i := int64(0); i < n; i++ {
		get(i % scopes).ys[3*i] = true
	}
	get(nullZ).hasNull = true
	var count int64
	for x := int64(0); x < n; x++ {
		s := sc[x%scopes]
		switch {
		case s == nil:
			count++ // empty subquery
		case s.ys[x]:
		case s.hasNull:
		default:
			count++
		}
	}
	return count
}

// selectWorkloads resolves --only (comma-separated names; empty = all).
// onRequest are the groups that run only when named: TPC-H needs generated
// data and takes long; dml rebuilds a 10M-row table before every run;
// window, groupingsets and orderedagg load 10M-row tables of their own.
var onRequest = map[string]bool{"tpch": true, "dml": true, "window": true, "groupingsets": true, "orderedagg": true, "functions": true}

func selectWorkloads(only string) ([]workload, error) {
	if strings.TrimSpace(only) == "" {
		var out []workload
		for _, w := range workloads {
			if !onRequest[w.Group] {
				out = append(out, w)
			}
		}
		return out, nil
	}
	var out []workload
	for _, name := range strings.Split(only, ",") {
		name = strings.TrimSpace(name)
		found := false
		for _, w := range workloads {
			if w.Name == name || w.Group == name {
				out = append(out, w)
				found = true
			}
		}
		if !found {
			var names []string
			for _, w := range workloads {
				names = append(names, w.Name)
			}
			return nil, fmt.Errorf("unknown workload %q (have: %s, or the groups load, keys, dml, groupingsets, tpch)", name, strings.Join(names, ", "))
		}
	}
	return out, nil
}

// neededTables is the union of the selected workloads' tables, in tables() order.
func neededTables(sz sizes, ws []workload) []table {
	need := make(map[string]bool)
	for _, w := range ws {
		for _, t := range w.Tables {
			need[t] = true
		}
	}
	var out []table
	for _, t := range tables(sz) {
		if need[t.Name] {
			out = append(out, t)
		}
	}
	return out
}

// sqlFor is the SQL the workload sends to the named peer.
func (w workload) sqlFor(peer string) string {
	if s, ok := w.PeerSQL[peer]; ok {
		return s
	}
	return w.SQL
}
