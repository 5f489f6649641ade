package pgregress

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/joind/joind/regress/joindtest"
	"github.com/joind/joind/regress/oracle"
)

var update = flag.Bool("update", false, "rewrite testdata/ratchet.tsv from this run")

func TestMain(m *testing.M) { joindtest.Main(m) }

const statementTimeout = 15 * time.Second

// sessionParams are pg_regress's session settings (pg_regress.c).
var sessionParams = map[string]string{
	"TimeZone": "PST8PDT", "DateStyle": "Postgres, MDY", "IntervalStyle": "postgres_verbose",
}

func suiteDir(t *testing.T) string {
	return joindtest.SharedDir(t, "pg-regress", "JOIND_PGREGRESS_DIR", filepath.Join("sql", "test_setup.sql"))
}

type ratchetRow struct {
	statements, agree int
}

func readRatchet(t *testing.T) ([]string, map[string]ratchetRow) {
	f, err := os.Open(filepath.Join("testdata", "ratchet.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var names []string
	rows := map[string]ratchetRow{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fs := strings.Split(line, "\t")
		if len(fs) != 3 {
			t.Fatalf("ratchet.tsv: bad line %q", line)
		}
		n, _ := strconv.Atoi(fs[1])
		a, _ := strconv.Atoi(fs[2])
		names = append(names, fs[0])
		rows[fs[0]] = ratchetRow{n, a}
	}
	return names, rows
}

// fileResult is one file's tally.
type fileResult struct {
	name     string
	counts   [numClasses]int
	features map[string]int // joind errors where PostgreSQL succeeded
	examples []string       // a few disagreements, for the log
}

func (r *fileResult) total() int {
	n := 0
	for _, c := range r.counts {
		n += c
	}
	return n
}

func TestPostgresRegressionFiles(t *testing.T) {
	dir := suiteDir(t)
	names, ratchet := readRatchet(t)
	switch extra := os.Getenv("JOIND_PGREGRESS_FILES"); extra {
	case "":
	case "all":
		all, _ := filepath.Glob(filepath.Join(dir, "sql", "*.sql"))
		names = nil
		for _, p := range all {
			names = append(names, strings.TrimSuffix(filepath.Base(p), ".sql"))
		}
	default:
		names = strings.Split(extra, ",")
	}
	pg := oracle.Start(t)
	tmpl := prepareSetup(t, dir, pg)
	var results []*fileResult
	for _, name := range names {
		results = append(results, playFile(t, dir, name, pg, tmpl))
	}
	report := formatReport(results)
	t.Log("\n" + report)
	if root, err := joindtest.ModuleRoot(); err == nil {
		_ = os.MkdirAll(filepath.Join(root, "regress", "results"), 0o755)
		_ = os.WriteFile(filepath.Join(root, "regress", "results", "pgregress.txt"), []byte(report), 0o644)
	}
	if *update {
		writeRatchet(t, results)
		return
	}
	for _, r := range results {
		want, ok := ratchet[r.name]
		if !ok {
			continue
		}
		if r.counts[Agree] < want.agree {
			t.Errorf("%s: %d statements agree with PostgreSQL, the ratchet records %d (see the log and regress/results/pgregress.txt)", r.name, r.counts[Agree], want.agree)
			for _, ex := range r.examples {
				t.Log(ex)
			}
		}
	}
}

func writeRatchet(t *testing.T, results []*fileResult) {
	var b strings.Builder
	b.WriteString("# PostgreSQL regression files CI plays (regress/pgregress), with the\n")
	b.WriteString("# statements each has and how many agree with PostgreSQL; the count may\n")
	b.WriteString("# only go up. Rewrite with: go test ./regress/pgregress/ -update\n")
	for _, r := range results {
		fmt.Fprintf(&b, "%s\t%d\t%d\n", r.name, r.total(), r.counts[Agree])
	}
	if err := os.WriteFile(filepath.Join("testdata", "ratchet.tsv"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

func connect(t *testing.T, dsn string) *pgconn.PgConn {
	cfg, err := pgconn.ParseConfig(dsn)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range sessionParams {
		cfg.RuntimeParams[k] = v
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := pgconn.ConnectConfig(ctx, cfg)
	if err != nil {
		t.Fatalf("connect %s: %v", dsn, err)
	}
	return c
}

var scriptEnv = func(dir string) map[string]string {
	return map[string]string{"PG_ABS_SRCDIR": dir, "PG_ABS_BUILDDIR": dir, "PG_LIBDIR": "/nonexistent", "PG_DLSUFFIX": ".so"}
}

// setup is test_setup.sql's result on both servers, which every file
// starts from: a PostgreSQL template database and a stopped joind's data
// directory.
type setup struct {
	db      string
	dataDir string
}

// prepareSetup plays test_setup once, as pg_regress's schedule does first.
func prepareSetup(t *testing.T, dir string, pg *oracle.Server) setup {
	s := setup{db: "pgr_setup", dataDir: t.TempDir()}
	freshDatabase(t, pg, s.db, "template0")
	j := joindtest.StartJoindWithDataDir(t, s.dataDir, "--copy-dirs", filepath.Join(dir, "data"))
	play(t, dir, "test_setup", j, pg, s.db, nil)
	j.Stop()
	return s
}

func freshDatabase(t *testing.T, pg *oracle.Server, db, template string) {
	admin := connect(t, pg.DSN())
	defer admin.Close(context.Background())
	_, _ = admin.Exec(context.Background(), `DROP DATABASE IF EXISTS "`+db+`"`).ReadAll()
	if _, err := admin.Exec(context.Background(), `CREATE DATABASE "`+db+`" TEMPLATE "`+template+`"`).ReadAll(); err != nil {
		t.Fatalf("create database %s: %v", db, err)
	}
}

// playFile runs a file on a copy of the test_setup state of both servers.
func playFile(t *testing.T, dir, name string, pg *oracle.Server, tmpl setup) *fileResult {
	r := &fileResult{name: name, features: map[string]int{}}
	db := "pgr_" + name
	dataDir := t.TempDir()
	template := tmpl.db
	if name == "test_setup" {
		template = "template0"
	} else if err := os.CopyFS(dataDir, os.DirFS(tmpl.dataDir)); err != nil {
		t.Fatal(err)
	}
	freshDatabase(t, pg, db, template)
	j := joindtest.StartJoindWithDataDir(t, dataDir, "--copy-dirs", filepath.Join(dir, "data"))
	defer j.Stop()
	play(t, dir, name, j, pg, db, r)
	admin := connect(t, pg.DSN())
	_, _ = admin.Exec(context.Background(), `DROP DATABASE IF EXISTS "`+db+`"`).ReadAll()
	admin.Close(context.Background())
	return r
}

// play runs one file on both servers, statement by statement, tallying
// into r (nil: run without counting).
func play(t *testing.T, dir, name string, j *joindtest.Joind, pg *oracle.Server, db string, r *fileResult) {
	body, err := os.ReadFile(filepath.Join(dir, "sql", name+".sql"))
	if err != nil {
		t.Errorf("%s: %v", name, err)
		return
	}
	jc := connect(t, j.DSNFor(db))
	pc := connect(t, pg.DSNFor(db))
	defer func() {
		jc.Close(context.Background())
		pc.Close(context.Background())
	}()
	script := NewScript(string(body), scriptEnv(dir))
	for {
		st, ok := script.Next()
		if !ok {
			break
		}
		ctx, cancel := context.WithTimeout(context.Background(), statementTimeout)
		po := Run(ctx, pc, st)
		cancel()
		if pc.IsClosed() {
			pc = connect(t, pg.DSNFor(db))
		}
		if st.Gset != nil && po.Err == nil && len(po.Rows) == 1 {
			for i, n := range po.Names {
				script.SetVar(*st.Gset+n, po.Rows[0][i])
			}
		}
		if j.Exited() {
			if r != nil {
				r.counts[Crash]++
			}
			continue
		}
		ctx, cancel = context.WithTimeout(context.Background(), statementTimeout)
		jo := Run(ctx, jc, st)
		cancel()
		if jo.Lost != nil && !j.Exited() {
			// A hang or a dropped connection: carry on in a new session.
			jc.Close(context.Background())
			jc = connect(t, j.DSNFor(db))
		}
		if r == nil || Excluded(st.SQL) {
			continue
		}
		c := Classify(st.SQL, jo, po)
		r.counts[c]++
		if c == JoindError {
			r.features[Feature(jo)]++
		}
		if c != Agree && os.Getenv("JOIND_PGREGRESS_VERBOSE") != "" {
			t.Logf("%s %s: %s\n  joind: %s\n  pg:    %s", name, c, truncate(st.String(), 300), brief(jo), brief(po))
		}
		if c != Agree && len(r.examples) < 5 {
			r.examples = append(r.examples, fmt.Sprintf("%s %s: %s", name, c, truncate(st.String(), 200)))
		}
	}
}

// brief is an outcome in one line, for the verbose log.
func brief(o Outcome) string {
	switch {
	case o.Lost != nil:
		return "lost: " + o.Lost.Error()
	case o.Err != nil:
		return o.Err.Code + " " + o.Err.Message
	}
	return truncate(fmt.Sprintf("%s %v", o.Tag, o.Rows), 300)
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

func formatReport(results []*fileResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%-22s %6s %6s %6s", "file", "stmts", "agree", "%")
	for c := RowsDiffer; c < numClasses; c++ {
		fmt.Fprintf(&b, " %13s", c)
	}
	b.WriteString("\n")
	var sum fileResult
	features := map[string]int{}
	for _, r := range results {
		n := r.total()
		fmt.Fprintf(&b, "%-22s %6d %6d %5.1f%%", r.name, n, r.counts[Agree], pct(r.counts[Agree], n))
		for c := RowsDiffer; c < numClasses; c++ {
			fmt.Fprintf(&b, " %13d", r.counts[c])
		}
		b.WriteString("\n")
		for c := range r.counts {
			sum.counts[c] += r.counts[c]
		}
		for f, k := range r.features {
			features[f] += k
		}
	}
	n := sum.total()
	fmt.Fprintf(&b, "%-22s %6d %6d %5.1f%%", fmt.Sprintf("TOTAL (%d files)", len(results)), n, sum.counts[Agree], pct(sum.counts[Agree], n))
	for c := RowsDiffer; c < numClasses; c++ {
		fmt.Fprintf(&b, " %13d", sum.counts[c])
	}
	b.WriteString("\n\nTop joind errors where PostgreSQL succeeds:\n")
	type fc struct {
		f string
		n int
	}
	var list []fc
	for f, k := range features {
		list = append(list, fc{f, k})
	}
	sort.Slice(list, func(i, j int) bool {
		if list[i].n != list[j].n {
			return list[i].n > list[j].n
		}
		return list[i].f < list[j].f
	})
	for i, x := range list {
		if i == 30 {
			break
		}
		fmt.Fprintf(&b, "%6d  %s\n", x.n, truncate(x.f, 150))
	}
	return b.String()
}

func pct(a, n int) float64 {
	if n == 0 {
		return 0
	}
	return 100 * float64(a) / float64(n)
}
