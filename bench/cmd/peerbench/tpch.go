package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// The TPC-H workloads (group "tpch", issue 12): the 22 queries of joind's
// tpch/queries/qNN.sql over the 8 tables of tpch/schema.sql, loaded from the
// same dbgen .tbl files into every peer. peerbench imports no joind package:
// it reads those files from the repository at run time and generates the
// data by running the joind binary (`joind tpch generate --sf N --dir D`).

var tpchTables = []string{"region", "nation", "supplier", "customer", "part", "partsupp", "orders", "lineitem"}

// tpchPrimaryKeys are TPC-H's primary keys (spec clause 1.4.2). PostgreSQL
// gets them after loading, as a user would; the schema file has none.
var tpchPrimaryKeys = map[string]string{
	"region":   "r_regionkey",
	"nation":   "n_nationkey",
	"supplier": "s_suppkey",
	"customer": "c_custkey",
	"part":     "p_partkey",
	"partsupp": "ps_partkey, ps_suppkey",
	"orders":   "o_orderkey",
	"lineitem": "l_orderkey, l_linenumber",
}

const tpchQueries = 22

func tpchName(i int) string { return fmt.Sprintf("tpch_q%02d", i) }

func init() {
	for i := 1; i <= tpchQueries; i++ {
		name := tpchName(i)
		workloads = append(workloads, workload{
			Name:     name,
			SQL:      fmt.Sprintf("tpch/queries/q%02d.sql", i),
			Group:    "tpch",
			Tables:   tpchTables,
			Tolerant: true,
			Run: func(ctx context.Context, b *bench, p peer, timed func(func() error) error) ([]string, error) {
				return b.runTPCH(ctx, p, name, timed)
			},
		})
	}
}

// tpchState is what the TPC-H workloads need at run time.
type tpchState struct {
	dir     string              // the .tbl files (absolute)
	queries map[string][]string // workload name -> statements of its file
	schema  []string            // CREATE TABLE statements
}

// tpchInfo is the TPC-H part of the report.
type tpchInfo struct {
	SF         float64 `json:"sf"`
	Dir        string  `json:"dir"`
	Queries    string  `json:"queries"`
	Generated  bool    `json:"generated"`
	GenerateMS float64 `json:"generate_ms,omitempty"`
	// Rows is count(*) per table, from the first peer that loaded it.
	Rows      map[string]int64 `json:"rows"`
	TimeoutMS float64          `json:"timeout_ms"`
}

func hasGroup(ws []workload, g string) bool {
	for _, w := range ws {
		if w.Group == g {
			return true
		}
	}
	return false
}

// tpchDataDir is where the .tbl files are or will be generated: --tpch-dir,
// else sf<N> in the temporary directory.
func (o *options) tpchDataDir(tmp string) (string, error) {
	if o.tpchDir != "" {
		return filepath.Abs(o.tpchDir)
	}
	return filepath.Join(tmp, fmt.Sprintf("tpch-sf%g", o.sf)), nil
}

// readTPCH reads the query files and the schema of --tpch-queries and
// --tpch-schema.
func readTPCH(o *options, dir string) (*tpchState, error) {
	st := &tpchState{dir: dir, queries: map[string][]string{}}
	b, err := os.ReadFile(o.tpchSchema)
	if err != nil {
		return nil, fmt.Errorf("TPC-H schema (--tpch-schema): %w", err)
	}
	st.schema = splitSQL(string(b))
	for i := 1; i <= tpchQueries; i++ {
		path := filepath.Join(o.tpchQueryDir, fmt.Sprintf("q%02d.sql", i))
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("TPC-H query (--tpch-queries): %w", err)
		}
		stmts := splitSQL(string(b))
		n := 0
		for _, s := range stmts {
			if returnsRows(s) {
				n++
			}
		}
		if n != 1 {
			return nil, fmt.Errorf("%s: %d statements return rows, want exactly 1", path, n)
		}
		st.queries[tpchName(i)] = stmts
	}
	return st, nil
}

// splitSQL splits a script into statements at semicolons outside quotes,
// dropping -- comments and empty statements.
func splitSQL(script string) []string {
	var out []string
	var cur strings.Builder
	inQuote := false
	for i := 0; i < len(script); i++ {
		c := script[i]
		switch {
		case inQuote:
			cur.WriteByte(c)
			if c == '\'' {
				inQuote = false
			}
		case c == '\'':
			inQuote = true
			cur.WriteByte(c)
		case c == '-' && i+1 < len(script) && script[i+1] == '-':
			for i < len(script) && script[i] != '\n' {
				i++
			}
			cur.WriteByte('\n')
		case c == ';':
			if s := strings.TrimSpace(cur.String()); s != "" {
				out = append(out, s)
			}
			cur.Reset()
		default:
			cur.WriteByte(c)
		}
	}
	if s := strings.TrimSpace(cur.String()); s != "" {
		out = append(out, s)
	}
	return out
}

// returnsRows reports whether a statement is a query (SELECT or WITH).
func returnsRows(stmt string) bool {
	f := strings.Fields(strings.ToLower(stmt))
	return len(f) > 0 && (f[0] == "select" || f[0] == "with" || strings.HasPrefix(f[0], "("))
}

// ensureTPCHData generates the .tbl files with the joind binary unless all
// eight are already in the directory.
func (b *bench) ensureTPCHData(ctx context.Context, tmp string) error {
	dir := b.tpch.dir
	missing := false
	for _, t := range tpchTables {
		if !fileExists(filepath.Join(dir, t+".tbl")) {
			missing = true
		}
	}
	if !missing {
		return nil
	}
	bin := b.joindBin
	if bin == "" {
		src, _ := filepath.Abs(b.o.joindSrc)
		var err error
		if bin, err = buildJoind(src, tmp); err != nil {
			return err
		}
		b.joindBin = bin
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "peerbench: generating TPC-H SF %g into %s\n", b.o.sf, dir)
	start := time.Now()
	cmd := exec.CommandContext(ctx, bin, "tpch", "generate", "--sf", fmt.Sprintf("%g", b.o.sf), "--dir", dir)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s tpch generate: %v\n%s", bin, err, out)
	}
	b.rep.TPCH.Generated = true
	b.rep.TPCH.GenerateMS = ms(time.Since(start))
	// PostgreSQL's server process (user postgres) reads the files.
	for _, t := range tpchTables {
		if err := os.Chmod(filepath.Join(dir, t+".tbl"), 0o644); err != nil {
			return err
		}
	}
	return os.Chmod(dir, 0o755)
}

// loadTPCH creates the TPC-H tables on every peer and fills them by COPY
// from the .tbl files; then PostgreSQL gets its primary keys and VACUUM
// ANALYZE, and joind is offered ANALYZE. Every step's time goes into the
// load table. The tables' row counts must agree across peers.
func (b *bench) loadTPCH(ctx context.Context) {
	counts := map[string]map[string]int64{} // table -> peer -> rows
	for _, p := range b.peers {
		name := p.Name()
		if b.loadErr[name] == nil {
			b.loadErr[name] = map[string]string{}
		}
		exec := func(stmt string, d time.Duration) error {
			sctx, cancel := context.WithTimeout(ctx, d)
			defer cancel()
			err := p.Exec(sctx, stmt)
			if err != nil && errors.Is(sctx.Err(), context.DeadlineExceeded) {
				err = fmt.Errorf("timeout after %s (--load-timeout): %w", d, err)
			}
			return err
		}
		record := func(table, method string, start time.Time, err error) {
			lr := loadResult{Peer: name, Table: table, Method: method, MS: ms(time.Since(start))}
			if err != nil {
				lr.Error = b.describe(p, err)
			}
			b.rep.Loads = append(b.rep.Loads, lr)
		}
		for i := len(tpchTables) - 1; i >= 0; i-- {
			_ = exec("DROP TABLE IF EXISTS "+tpchTables[i], b.o.timeout)
		}
		var schemaErr error
		for _, s := range b.tpch.schema {
			if schemaErr = exec(s, b.o.timeout); schemaErr != nil {
				schemaErr = fmt.Errorf("%s: %w", abbrev(s), schemaErr)
				break
			}
		}
		var copyMS float64
		for _, t := range tpchTables {
			if ctx.Err() != nil {
				return
			}
			fmt.Fprintf(os.Stderr, "peerbench: loading %s.%s (TPC-H)\n", name, t)
			file := filepath.Join(b.tpch.dir, t+".tbl")
			stmt := fmt.Sprintf("COPY %s FROM '%s' (DELIMITER '|')", t, file)
			if name == "duckdb" {
				// The .tbl files have no header and no quoting.
				stmt = fmt.Sprintf("COPY %s FROM '%s' (DELIMITER '|', HEADER false, QUOTE '', ESCAPE '')", t, file)
			}
			start := time.Now()
			err := schemaErr
			if err == nil {
				err = exec(stmt, b.o.loadTimeout)
			}
			record(t, "COPY (DELIMITER '|')", start, err)
			if err != nil {
				b.loadErr[name][t] = b.describe(p, err)
				continue
			}
			copyMS += ms(time.Since(start))
			cctx, cancel := context.WithTimeout(ctx, b.o.loadTimeout)
			rows, err := p.Query(cctx, "SELECT count(*) FROM "+t)
			cancel()
			if err == nil && len(rows) == 1 {
				var n int64
				if _, err := fmt.Sscan(rows[0], &n); err == nil {
					if counts[t] == nil {
						counts[t] = map[string]int64{}
					}
					counts[t][name] = n
				}
			}
		}
		b.rep.Loads = append(b.rep.Loads, loadResult{Peer: name, Table: "(all 8 tables)", Method: "COPY total", MS: copyMS})
		switch name {
		case "postgres":
			start := time.Now()
			var err error
			for _, t := range tpchTables {
				if _, failed := b.loadErr[name][t]; failed {
					continue
				}
				if err = exec(fmt.Sprintf("ALTER TABLE %s ADD PRIMARY KEY (%s)", t, tpchPrimaryKeys[t]), b.o.loadTimeout); err != nil {
					break
				}
			}
			record("(primary keys)", "ALTER TABLE ... ADD PRIMARY KEY, 8 tables", start, err)
			start = time.Now()
			err = exec("VACUUM ANALYZE", b.o.loadTimeout)
			record("(statistics)", "VACUUM ANALYZE", start, err)
		case "joind":
			start := time.Now()
			err := exec("ANALYZE", b.o.loadTimeout)
			if err != nil {
				// Not a load failure: joind may not take statistics.
				b.rep.Loads = append(b.rep.Loads, loadResult{Peer: name, Table: "(statistics)",
					Method: "ANALYZE not accepted: " + firstLine(err.Error()), MS: ms(time.Since(start))})
			} else {
				record("(statistics)", "ANALYZE", start, nil)
			}
		}
	}
	// Every peer must hold the same rows; a difference would make every
	// answer comparison meaningless, so it counts as a mismatch.
	b.rep.TPCH.Rows = map[string]int64{}
	for _, t := range tpchTables {
		var first string
		for _, p := range b.peers {
			n, ok := counts[t][p.Name()]
			if !ok {
				continue
			}
			if first == "" {
				first = p.Name()
				b.rep.TPCH.Rows[t] = n
			} else if n != b.rep.TPCH.Rows[t] {
				b.rep.Setup = append(b.rep.Setup, fmt.Sprintf("!!! TPC-H %s: %s loaded %d rows, %s %d",
					t, first, b.rep.TPCH.Rows[t], p.Name(), n))
				b.rep.Mismatches++
			}
		}
	}
}

// runTPCH runs one query file on p, timing all of its statements (Q15
// creates a view, queries it and drops it). The answer is that of the one
// statement that returns rows. When a statement fails, the file's DROP
// statements still run (untimed), so the next run can create its view again.
func (b *bench) runTPCH(ctx context.Context, p peer, name string, timed func(func() error) error) ([]string, error) {
	stmts := b.tpch.queries[name]
	var ans []string
	done := 0
	err := timed(func() error {
		for _, s := range stmts {
			var err error
			if returnsRows(s) {
				ans, err = p.Query(ctx, s)
			} else {
				err = p.Exec(ctx, s)
			}
			if err != nil {
				return err
			}
			done++
		}
		return nil
	})
	if err != nil {
		for _, s := range stmts[done:] {
			if f := strings.Fields(strings.ToLower(s)); len(f) > 0 && f[0] == "drop" {
				cctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				_ = p.Exec(cctx, s)
				cancel()
			}
		}
		return nil, err
	}
	return ans, nil
}
