package tpch

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/joind/joind/regress/joindtest"
	"github.com/joind/joind/regress/oracle"
	kit "github.com/joind/joind/tpch"
)

var update = flag.Bool("update", false, "rewrite testdata/ratchet.tsv from this run")

func TestMain(m *testing.M) { joindtest.Main(m) }

// ciScale is the scale factor of the standing test and its ratchet.
const ciScale = 0.01

// joind's time per query: a query it cannot answer in that time is a
// disagreement (57014) in the ratchet, which keeps the test's time bounded.
const joindTimeout = 20 * time.Second

// PostgreSQL's time per query (at least joind's): it gives the expected
// answers, so it must finish them.
const pgTimeout = 120 * time.Second

// loadTimeout bounds the schema, COPY and index statements (SF 1 by hand
// on a busy machine takes minutes).
const loadTimeout = 30 * time.Minute

func TestTPCH(t *testing.T) {
	sf := ciScale
	if s := os.Getenv("JOIND_TPCH_SF"); s != "" {
		var err error
		if sf, err = strconv.ParseFloat(s, 64); err != nil {
			t.Fatalf("JOIND_TPCH_SF=%q: %v", s, err)
		}
	}
	start := time.Now()
	phase := func(what string) { t.Logf("%6.1fs %s", time.Since(start).Seconds(), what) }
	timeout := joindTimeout
	if s := os.Getenv("JOIND_TPCH_TIMEOUT"); s != "" {
		var err error
		if timeout, err = time.ParseDuration(s); err != nil {
			t.Fatalf("JOIND_TPCH_TIMEOUT=%q: %v", s, err)
		}
	}
	pgLimit := max(pgTimeout, timeout)
	pg := oracle.Start(t)
	phase("PostgreSQL started")
	dir := t.TempDir()
	gen := exec.Command(joindtest.Binary(t), "tpch", "generate", "--sf", strconv.FormatFloat(sf, 'g', -1, 64), "--dir", dir)
	if out, err := gen.CombinedOutput(); err != nil {
		t.Fatalf("joind tpch generate: %v\n%s", err, out)
	}
	phase("generated SF " + strconv.FormatFloat(sf, 'g', -1, 64))
	j := joindtest.StartJoind(t)
	db := "tpch_" + strings.ReplaceAll(strconv.FormatFloat(sf, 'f', -1, 64), ".", "_")
	pg.CreateDatabase(t, db)
	// JIT compilation would only cost PostgreSQL time at these sizes.
	pgConn := connect(t, pg.DSNFor(db), "jit", "off")
	jConn := connect(t, j.DSN())
	for _, c := range []*pgconn.PgConn{pgConn, jConn} {
		load(t, c, dir)
	}
	// PostgreSQL runs Q2's, Q17's and Q20's correlated subqueries once per
	// outer row, without them by a scan each (minutes); indexes change its
	// plans, not its answers.
	exec1(t, pgConn, "CREATE INDEX ON lineitem (l_partkey, l_suppkey)")
	exec1(t, pgConn, "CREATE INDEX ON partsupp (ps_partkey)")
	exec1(t, pgConn, "ANALYZE")
	phase("loaded joind and PostgreSQL")
	exec1(t, pgConn, fmt.Sprintf("SET statement_timeout = %d", pgLimit/time.Millisecond))
	exec1(t, jConn, fmt.Sprintf("SET statement_timeout = %d", timeout/time.Millisecond))

	ratchet := readRatchet(t)
	differs := map[string]string{}
	for n := 1; n <= kit.NumQueries; n++ {
		name := fmt.Sprintf("q%02d", n)
		q, err := kit.Query(n, sf)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(name, func(t *testing.T) {
			want, err := run(pgConn, q, pgLimit)
			if err != nil {
				t.Fatalf("PostgreSQL: %v", err)
			}
			got, jerr := run(jConn, q, timeout)
			diff := compare(got, jerr, want)
			if jerr != nil && !isQueryError(jerr) {
				// A broken connection (joind died): later queries cannot run.
				t.Fatalf("joind: %v", jerr)
			}
			if diff != "" {
				differs[name] = diff
			}
			t.Logf("PostgreSQL %d rows; %s", len(want.rows), summary(diff))
			switch _, listed := ratchet[name]; {
			case sf != ciScale || *update:
			case diff != "" && !listed:
				t.Errorf("joind disagrees with PostgreSQL: %s", diff)
			case diff == "" && listed:
				t.Errorf("joind now agrees with PostgreSQL: remove %s from testdata/ratchet.tsv (go test ./regress/tpch/ -update)", name)
			}
		})
	}
	phase("ran the queries")
	if *update && sf == ciScale {
		writeRatchet(t, differs)
	}
}

func summary(diff string) string {
	if diff == "" {
		return "joind agrees"
	}
	return "joind differs: " + diff
}

// connect opens a session with the suites' settings and more settings as
// name, value pairs.
func connect(t *testing.T, dsn string, settings ...string) *pgconn.PgConn {
	t.Helper()
	cfg, err := pgconn.ParseConfig(dsn)
	if err != nil {
		t.Fatal(err)
	}
	cfg.RuntimeParams["DateStyle"] = "ISO, MDY"
	cfg.RuntimeParams["TimeZone"] = "UTC"
	cfg.RuntimeParams["IntervalStyle"] = "postgres"
	for i := 0; i+1 < len(settings); i += 2 {
		cfg.RuntimeParams[settings[i]] = settings[i+1]
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := pgconn.ConnectConfig(ctx, cfg)
	if err != nil {
		t.Fatalf("connect %s: %v", dsn, err)
	}
	t.Cleanup(func() { c.Close(context.Background()) })
	return c
}

func exec1(t *testing.T, c *pgconn.PgConn, sql string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), loadTimeout)
	defer cancel()
	if _, err := c.Exec(ctx, sql).ReadAll(); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
}

// load creates the schema and COPYs each .tbl file in (FROM STDIN: the
// scratch PostgreSQL runs as another user, who cannot read the test's
// temporary directory).
func load(t *testing.T, c *pgconn.PgConn, dir string) {
	t.Helper()
	for _, tb := range kit.Tables {
		exec1(t, c, "DROP TABLE IF EXISTS "+tb.String())
	}
	exec1(t, c, kit.Schema())
	for _, tb := range kit.Tables {
		f, err := os.Open(filepath.Join(dir, tb.String()+".tbl"))
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), loadTimeout)
		_, err = c.CopyFrom(ctx, bufio.NewReaderSize(f, 1<<20), "COPY "+tb.String()+" FROM STDIN (DELIMITER '|')")
		cancel()
		f.Close()
		if err != nil {
			t.Fatalf("COPY %s: %v", tb, err)
		}
	}
}

// result is a query's answer as PostgreSQL's text: column names and rows
// (NULL kept apart from any text).
type result struct {
	columns []string
	rows    [][]*string
}

// run runs q's statements (Q15: create view, select, drop view) and
// returns the one answer with rows; timeout is the session's
// statement_timeout.
func run(c *pgconn.PgConn, q string, timeout time.Duration) (*result, error) {
	// The servers' statement_timeout ends a slow query; this only guards
	// against a server that stopped answering.
	ctx, cancel := context.WithTimeout(context.Background(), timeout+30*time.Second)
	defer cancel()
	results, err := c.Exec(ctx, q).ReadAll()
	if err != nil {
		if strings.Contains(q, "create view") {
			// Leave no view behind for the next run of the query.
			_, _ = c.Exec(context.Background(), "drop view if exists revenue0").ReadAll()
		}
		return nil, err
	}
	var out *result
	for _, r := range results {
		if len(r.FieldDescriptions) == 0 {
			continue
		}
		if out != nil {
			return nil, errors.New("more than one statement returned rows")
		}
		out = &result{}
		for _, f := range r.FieldDescriptions {
			out.columns = append(out.columns, f.Name)
		}
		for _, row := range r.Rows {
			vals := make([]*string, len(row))
			for i, v := range row {
				if v != nil {
					s := string(v)
					vals[i] = &s
				}
			}
			out.rows = append(out.rows, vals)
		}
	}
	if out == nil {
		return nil, errors.New("no statement returned rows")
	}
	return out, nil
}

func isQueryError(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr)
}

// compare describes, in one line, how joind's answer (got, or its error)
// differs from PostgreSQL's; "" when they agree.
func compare(got *result, gotErr error, want *result) string {
	if gotErr != nil {
		var pgErr *pgconn.PgError
		if errors.As(gotErr, &pgErr) {
			return fmt.Sprintf("joind error %s: %s", pgErr.Code, oneLine(pgErr.Message))
		}
		return "joind: " + oneLine(gotErr.Error())
	}
	if strings.Join(got.columns, ",") != strings.Join(want.columns, ",") {
		return fmt.Sprintf("columns (%s), PostgreSQL (%s)", strings.Join(got.columns, ","), strings.Join(want.columns, ","))
	}
	for i := 0; i < len(got.rows) && i < len(want.rows); i++ {
		for k := range want.columns {
			if g, w := show(got.rows[i][k]), show(want.rows[i][k]); g != w {
				return fmt.Sprintf("row %d %s: joind %s, PostgreSQL %s", i+1, want.columns[k], g, w)
			}
		}
	}
	if len(got.rows) != len(want.rows) {
		return fmt.Sprintf("joind %d rows, PostgreSQL %d", len(got.rows), len(want.rows))
	}
	return ""
}

func show(v *string) string {
	if v == nil {
		return "NULL"
	}
	return strconv.Quote(*v)
}

func oneLine(s string) string {
	s = strings.ReplaceAll(s, "\n", " ")
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

const ratchetFile = "testdata/ratchet.tsv"

// readRatchet reads the queries joind disagrees on: "qNN<TAB>what differs".
func readRatchet(t *testing.T) map[string]string {
	t.Helper()
	b, err := os.ReadFile(ratchetFile)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, line := range strings.Split(string(b), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, what, ok := strings.Cut(line, "\t")
		if !ok || what == "" {
			t.Fatalf("%s: bad line %q", ratchetFile, line)
		}
		out[name] = what
	}
	return out
}

func writeRatchet(t *testing.T, differs map[string]string) {
	var b strings.Builder
	b.WriteString("# TPC-H queries (SF 0.01) on which joind disagrees with PostgreSQL 15 today,\n")
	b.WriteString("# with the first difference. regress/tpch fails when a query not listed\n")
	b.WriteString("# disagrees and when a listed one agrees. Rewrite: go test ./regress/tpch/ -update\n")
	names := make([]string, 0, len(differs))
	for n := range differs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(&b, "%s\t%s\n", n, differs[n])
	}
	if err := os.WriteFile(ratchetFile, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}
