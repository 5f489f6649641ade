package main

import (
	"fmt"
	"math"
	"strings"
)

// Full-scale row counts, from shared/reference/performance.md.
const (
	fullProbe = 10_000_000 // probe(k) = 0..N-1
	fullBuild = 1_000_000  // build(k) = 0, 10, 20, ...
	fullT     = 100_000    // t1, t2 (correlated NOT IN, 1000 scopes)
	fullS     = 10_000     // s1, s2 (correlated NOT IN, 100 scopes)
	fullGB    = 2_000_000  // gbuild (general keys, keys.go)
	fullGP    = 10_000_000 // gprobe (general keys, half its rows match)

	dimRows = 100  // dim(g, name); build.g = (k/10) % 100
	tScopes = 1000 // t1.z = x % 1000, t2.z = i % 1000
	sScopes = 100  // s1.z = x % 100, s2.z = i % 100
	nullZ   = 7    // t2 and s2 each get one extra row (NULL, 7)
)

// sizes are the row counts of one run; the scopes and dim stay fixed so that
// the shape of each query is the same at every scale.
type sizes struct {
	Probe int64 `json:"probe"`
	Build int64 `json:"build"`
	T     int64 `json:"t1_t2"`
	S     int64 `json:"s1_s2"`
	// Load is the rows of the bulk-load CSV (load.go).
	Load int64 `json:"load"`
	// GBuild and GProbe are the general-key tables (keys.go).
	GBuild int64 `json:"gbuild"`
	GProbe int64 `json:"gprobe"`
	// Win is the rows of the window-function table (window.go).
	Win int64 `json:"wt"`
	// GS is the grouping-sets table (groupingsets.go).
	GS int64 `json:"gs"`
	// Fn is the rows of the function table (functions.go).
	Fn int64 `json:"fn"`
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
		Load:  scaled(fullLoad, scale),

		GBuild: scaled(fullGB, scale),
		GProbe: scaled(fullGP, scale),
		Win:    scaled(fullWin, scale),
		GS:     scaled(fullGS, scale),
		Fn:     scaled(fullFn, scale),
	}
}

// table is one benchmark table. Its rows are g = 0..N-1 mapped through
// Series (a SELECT list over g, run server-side from generate_series) or,
// equivalently, through Row (a VALUES tuple built client-side, for a peer
// without generate_series), plus Extra literal rows. The two spellings must
// produce identical data; TestValuesMatchSeries checks that on DuckDB.
type table struct {
	Name   string
	Create string
	N      int64
	Series string
	Row    func(g int64) string
	Extra  []string
}

// seriesSQL is the statements that create and fill t server-side. The same
// statements run on every peer: generate_series(a, b) AS t(g) is accepted by
// PostgreSQL, DuckDB and joind's grammar alike.
func (t table) seriesSQL() []string {
	out := []string{t.Create,
		fmt.Sprintf("INSERT INTO %s SELECT %s FROM generate_series(0, %d) AS t(g)", t.Name, t.Series, t.N-1)}
	if len(t.Extra) > 0 {
		out = append(out, fmt.Sprintf("INSERT INTO %s VALUES %s", t.Name, strings.Join(t.Extra, ", ")))
	}
	return out
}

// forEachValues calls fn with the statements that create and fill t with
// multi-row INSERT ... VALUES of at most batch rows each, one at a time, so
// that 10M rows never sit in memory as text at once.
func (t table) forEachValues(batch int, fn func(stmt string) error) error {
	if err := fn(t.Create); err != nil {
		return err
	}
	var sb strings.Builder
	n := 0
	flush := func() error {
		if n == 0 {
			return nil
		}
		stmt := sb.String()
		sb.Reset()
		n = 0
		return fn(stmt)
	}
	add := func(tuple string) error {
		if n == 0 {
			sb.WriteString("INSERT INTO " + t.Name + " VALUES ")
		} else {
			sb.WriteString(", ")
		}
		sb.WriteString(tuple)
		if n++; n >= batch {
			return flush()
		}
		return nil
	}
	for g := int64(0); g < t.N; g++ {
		if err := add(t.Row(g)); err != nil {
			return err
		}
	}
	for _, e := range t.Extra {
		if err := add(e); err != nil {
			return err
		}
	}
	return flush()
}

func tables(sz sizes) []table {
	nullRow := fmt.Sprintf("(NULL, %d)", nullZ)
	return append([]table{
		{Name: "probe", Create: "CREATE TABLE probe (k bigint)", N: sz.Probe,
			Series: "g",
			Row:    func(g int64) string { return fmt.Sprintf("(%d)", g) }},
		{Name: "build", Create: "CREATE TABLE build (k bigint, g int)", N: sz.Build,
			Series: fmt.Sprintf("g * 10, g %% %d", dimRows),
			Row:    func(g int64) string { return fmt.Sprintf("(%d, %d)", g*10, g%dimRows) }},
		{Name: "dim", Create: "CREATE TABLE dim (g int, name text)", N: dimRows,
			Series: "g, 'dim' || CAST(g AS text)",
			Row:    func(g int64) string { return fmt.Sprintf("(%d, 'dim%d')", g, g) }},
		{Name: "t1", Create: "CREATE TABLE t1 (x bigint, z int)", N: sz.T,
			Series: fmt.Sprintf("g, g %% %d", tScopes),
			Row:    func(g int64) string { return fmt.Sprintf("(%d, %d)", g, g%tScopes) }},
		{Name: "t2", Create: "CREATE TABLE t2 (y bigint, z int)", N: sz.T,
			Series: fmt.Sprintf("3 * g, g %% %d", tScopes),
			Row:    func(g int64) string { return fmt.Sprintf("(%d, %d)", 3*g, g%tScopes) },
			Extra:  []string{nullRow}},
		{Name: "s1", Create: "CREATE TABLE s1 (x bigint, z int)", N: sz.S,
			Series: fmt.Sprintf("g, g %% %d", sScopes),
			Row:    func(g int64) string { return fmt.Sprintf("(%d, %d)", g, g%sScopes) }},
		{Name: "s2", Create: "CREATE TABLE s2 (y bigint, z int)", N: sz.S,
			Series: fmt.Sprintf("3 * g, g %% %d", sScopes),
			Row:    func(g int64) string { return fmt.Sprintf("(%d, %d)", 3*g, g%sScopes) },
			Extra:  []string{nullRow}},
	}, append(append(keyTables(sz), windowTables(sz)...), append(gsTables(sz), fnTables(sz)...)...)...)
}
