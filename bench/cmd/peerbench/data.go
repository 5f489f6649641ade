package main

import (
	"fmt"
	"math"
)

// Full-scale row counts, from shared/reference/performance.md.
const (
	fullProbe = 10_000_000 // probe(k) = 0..N-1
	fullBuild = 1_000_000  // build(k) = 0, 10, 20, ...
	fullT     = 100_000    // t1, t2 (correlated NOT IN, 1000 scopes)
	fullS     = 10_000     // s1, s2 (correlated NOT IN, 100 scopes)

	dimRows = 100  // dim(g, name); build.g = (k/10) % 100
	tScopes = 1000 // t1.z = x % 1000, t2.z = i % 1000
	sScopes = 100  // s1.z = x % 100, s2.z = i % 100
	nullZ   = 7    // t2 and s2 each get one extra row (NULL, 7)
)

// sizes are the row counts of one run; the scopes and dim stay fixed so that
// the shape of each query is the same at every scale.
type sizes struct {
	Probe, Build, T, S int64
}

func scaled(n int64, scale float64) int64 {
	v := int64(math.Round(float64(n) * scale))
	if v < 1 {
		v = 1
	}
	return v
}

func sizesFor(scale float64) sizes {
	return sizes{
		Probe: scaled(fullProbe, scale),
		Build: scaled(fullBuild, scale),
		T:     scaled(fullT, scale),
		S:     scaled(fullS, scale),
	}
}

// table is one benchmark table: the SQL that creates and fills it. The same
// statements run on every peer (generate_series(a, b) AS t(g) is accepted by
// PostgreSQL, DuckDB and joind alike), so the data is identical.
type table struct {
	Name string
	SQL  []string
}

func series(n int64) string { return fmt.Sprintf("generate_series(0, %d) AS t(g)", n-1) }

func tables(sz sizes) []table {
	return []table{
		{"probe", []string{
			"CREATE TABLE probe (k bigint)",
			"INSERT INTO probe SELECT g FROM " + series(sz.Probe),
		}},
		{"build", []string{
			"CREATE TABLE build (k bigint, g int)",
			fmt.Sprintf("INSERT INTO build SELECT g * 10, g %% %d FROM %s", dimRows, series(sz.Build)),
		}},
		{"dim", []string{
			"CREATE TABLE dim (g int, name text)",
			"INSERT INTO dim SELECT g, 'dim' || CAST(g AS text) FROM " + series(dimRows),
		}},
		{"t1", []string{
			"CREATE TABLE t1 (x bigint, z int)",
			fmt.Sprintf("INSERT INTO t1 SELECT g, g %% %d FROM %s", tScopes, series(sz.T)),
		}},
		{"t2", []string{
			"CREATE TABLE t2 (y bigint, z int)",
			fmt.Sprintf("INSERT INTO t2 SELECT 3 * g, g %% %d FROM %s", tScopes, series(sz.T)),
			fmt.Sprintf("INSERT INTO t2 VALUES (NULL, %d)", nullZ),
		}},
		{"s1", []string{
			"CREATE TABLE s1 (x bigint, z int)",
			fmt.Sprintf("INSERT INTO s1 SELECT g, g %% %d FROM %s", sScopes, series(sz.S)),
		}},
		{"s2", []string{
			"CREATE TABLE s2 (y bigint, z int)",
			fmt.Sprintf("INSERT INTO s2 SELECT 3 * g, g %% %d FROM %s", sScopes, series(sz.S)),
			fmt.Sprintf("INSERT INTO s2 VALUES (NULL, %d)", nullZ),
		}},
	}
}
