package corpus

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/joind/joind/regress/joindtest"
)

var (
	update = flag.Bool("update", false, "rewrite testdata/known_failures.txt from this run")
	show   = flag.Bool("show", false, "log why each known failure fails")
)

func TestMain(m *testing.M) { joindtest.Main(m) }

// record is one statement or query of a case.
type record struct {
	query   bool
	wantErr bool
	rowsort bool
	sql     string
	want    []string
	line    int
}

// testCase is a "# case:" block of a corpus file.
type testCase struct {
	id      string
	file    string
	records []record
}

func corpusDir(t *testing.T) string {
	return joindtest.SharedDir(t, "corpus", "JOIND_CORPUS_DIR", "README.md")
}

func parseFile(path string) ([]*testCase, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var cases []*testCase
	var cur *testCase
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	lineNo := 0
	var lines []string
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	next := func() (string, bool) {
		if lineNo >= len(lines) {
			return "", false
		}
		lineNo++
		return lines[lineNo-1], true
	}
	for {
		l, ok := next()
		if !ok {
			break
		}
		switch {
		case strings.HasPrefix(l, "# case:"):
			cur = &testCase{id: strings.TrimSpace(strings.TrimPrefix(l, "# case:")), file: filepath.Base(path)}
			cases = append(cases, cur)
		case strings.HasPrefix(l, "statement "), strings.HasPrefix(l, "query "):
			if cur == nil {
				return nil, fmt.Errorf("%s:%d: record outside a case", path, lineNo)
			}
			r := record{line: lineNo}
			fields := strings.Fields(l)
			if fields[0] == "query" {
				r.query = true
				r.rowsort = len(fields) > 2 && fields[2] == "rowsort"
			} else {
				r.wantErr = len(fields) > 1 && fields[1] == "error"
			}
			var sqlLines []string
			for {
				s, ok := next()
				if !ok || s == "" || (r.query && s == "----") {
					if r.query && s == "----" {
						for {
							row, ok := next()
							if !ok || row == "" {
								break
							}
							r.want = append(r.want, row)
						}
					}
					break
				}
				sqlLines = append(sqlLines, s)
			}
			r.sql = strings.Join(sqlLines, "\n")
			cur.records = append(cur.records, r)
		}
	}
	return cases, sc.Err()
}

func formatRows(rows pgx.Rows) ([]string, error) {
	var out []string
	for rows.Next() {
		var cells []string
		for _, v := range rows.RawValues() {
			switch {
			case v == nil:
				cells = append(cells, "NULL")
			case len(v) == 0:
				cells = append(cells, "(empty)")
			default:
				cells = append(cells, string(v))
			}
		}
		out = append(out, strings.Join(cells, "\t"))
	}
	return out, rows.Err()
}

// run executes a case and returns "" or why it failed.
func run(conn *pgx.Conn, c *testCase) string {
	for _, r := range c.records {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		if !r.query {
			_, err := conn.Exec(ctx, r.sql)
			cancel()
			if (err != nil) != r.wantErr {
				return fmt.Sprintf("line %d: %s: error = %v", r.line, r.sql, err)
			}
			continue
		}
		rows, err := conn.Query(ctx, r.sql)
		if err != nil {
			cancel()
			return fmt.Sprintf("line %d: %s: %v", r.line, r.sql, err)
		}
		got, err := formatRows(rows)
		rows.Close()
		cancel()
		if err != nil {
			return fmt.Sprintf("line %d: %s: %v", r.line, r.sql, err)
		}
		if r.rowsort {
			sort.Strings(got)
		}
		if strings.Join(got, "\n") != strings.Join(r.want, "\n") {
			return fmt.Sprintf("line %d: %s:\nwant %q\ngot  %q", r.line, r.sql, r.want, got)
		}
	}
	return ""
}

func TestCorpus(t *testing.T) {
	dir := corpusDir(t)
	files, _ := filepath.Glob(filepath.Join(dir, "*.slt"))
	if len(files) == 0 {
		if os.Getenv("CI") == "true" {
			t.Fatalf("no corpus at %s (set JOIND_CORPUS_DIR; CI=true: the corpus must run)", dir)
		}
		t.Skipf("no corpus at %s (set JOIND_CORPUS_DIR)", dir)
	}
	known := map[string]bool{}
	knownPath := filepath.Join("testdata", "known_failures.txt")
	if b, err := os.ReadFile(knownPath); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
				known[strings.Fields(l)[0]] = true
			}
		}
	}
	j := joindtest.StartJoind(t, "--partitions", "2")
	cfg, err := pgx.ParseConfig(j.DSN())
	if err != nil {
		t.Fatal(err)
	}
	cfg.DefaultQueryExecMode = pgx.QueryExecModeSimpleProtocol
	cfg.RuntimeParams["extra_float_digits"] = "1"
	cfg.RuntimeParams["timezone"] = "UTC"
	cfg.RuntimeParams["datestyle"] = "ISO, MDY"
	cfg.RuntimeParams["intervalstyle"] = "postgres"
	conn, err := pgx.ConnectConfig(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())

	var failing []string
	passed, total := 0, 0
	for _, f := range files {
		cases, err := parseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cases {
			total++
			why := run(conn, c)
			if why == "" {
				passed++
				if known[c.id] && !*update {
					t.Logf("%s (%s) now passes: remove it from %s", c.id, c.file, knownPath)
				}
				continue
			}
			failing = append(failing, c.id+" "+c.file)
			if *show {
				t.Logf("%s (%s): %s", c.id, c.file, why)
			}
			if !known[c.id] && !*update {
				t.Errorf("%s (%s) fails and is not a known failure: %s", c.id, c.file, why)
			}
		}
	}
	t.Logf("corpus: %d of %d cases agree with PostgreSQL", passed, total)
	if *update {
		body := "# Corpus cases joind does not pass yet (regenerate with go test ./regress/corpus -update).\n" +
			strings.Join(failing, "\n") + "\n"
		if err := os.WriteFile(knownPath, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
