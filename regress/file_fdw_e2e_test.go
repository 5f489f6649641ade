package regress

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/joind/joind/regress/joindtest"
	"github.com/joind/joind/regress/oracle"
)

// fdwRows is how many rows the file_fdw test file has: some megabytes of
// CSV, so COPY's parser cuts it into several chunks parsed in parallel.
const fdwRows = 120000

// writeFdwFiles writes the big CSV file (with a header, quoted fields,
// empty strings and NULLs) and a copy with a bad value far in, in a
// directory PostgreSQL's server user can read too.
func writeFdwFiles(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for d := dir; d != "/" && d != os.TempDir(); d = filepath.Dir(d) {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	var b bytes.Buffer
	b.WriteString("id,grp,name,amount,day\n")
	for r := 0; r < fdwRows; r++ {
		name := fmt.Sprintf("n%05d", r%5000)
		switch r % 13 {
		case 3:
			name = "" // NULL in CSV
		case 7:
			name = `""` // an empty string
		case 9:
			name = fmt.Sprintf(`"a, ""quoted"" %d"`, r%50)
		}
		amount := fmt.Sprintf("%d.%02d", r%1000, r%100)
		if r%17 == 4 {
			amount = ""
		}
		fmt.Fprintf(&b, "%d,%d,%s,%s,2024-%02d-%02d\n", r, r%37, name, amount, r%12+1, r%28+1)
	}
	if err := os.WriteFile(filepath.Join(dir, "big.csv"), b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	bad := bytes.Replace(b.Bytes(), []byte("\n100000,"), []byte("\n1e5x,"), 1)
	if err := os.WriteFile(filepath.Join(dir, "bad.csv"), bad, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestE2EFileFdw: a foreign table over a CSV file answers on joind what it
// answers on PostgreSQL's file_fdw over the same file — aggregates,
// filters, joins with a stored table, NOT IN over the file's NULLs — a
// bad row far into the file gives the same error and CONTEXT line, EXPLAIN
// shows the Foreign Scan and its file, a foreign table of format 'parquet'
// (joind's own) answers the same with row groups skipped, and the foreign
// tables survive a restart.
func TestE2EFileFdw(t *testing.T) {
	dir := writeFdwFiles(t)
	pg := oracle.Start(t)
	pg.CreateDatabase(t, "filefdw")
	pgc := connect(t, endpoint{name: "postgres", dsn: pg.DSNFor("filefdw")})
	data := t.TempDir()
	j := joindtest.StartJoindWithDataDir(t, data, "--copy-dirs", dir)
	jc := connect(t, endpoint{name: "joind", dsn: j.DSN()})
	ddl := []string{
		"CREATE EXTENSION file_fdw",
		"CREATE SERVER files FOREIGN DATA WRAPPER file_fdw",
		"CREATE FOREIGN TABLE big (id int, grp int, name text, amount numeric(8,2), day date) SERVER files OPTIONS (filename '" +
			filepath.Join(dir, "big.csv") + "', format 'csv', header 'true')",
		"CREATE FOREIGN TABLE bad (id int, grp int, name text, amount numeric(8,2), day date) SERVER files OPTIONS (filename '" +
			filepath.Join(dir, "bad.csv") + "', format 'csv', header 'true')",
		"CREATE TABLE groups (g int, label text)",
		"INSERT INTO groups SELECT g, 'g' || g FROM generate_series(0, 40, 3) g",
		"INSERT INTO groups VALUES (NULL, 'none')",
		"CREATE TABLE names (name text)",
		"INSERT INTO names SELECT 'n' || lpad(g::text, 5, '0') FROM generate_series(0, 6000, 250) g",
		"INSERT INTO names VALUES ('')",
	}
	for _, c := range []*pgx.Conn{pgc, jc} {
		for _, s := range ddl {
			mustExec(t, c, s)
		}
	}
	queries := []string{
		"SELECT count(*), count(name), count(amount), sum(amount), min(day), max(day), sum(id), count(*) FILTER (WHERE name = '') FROM big",
		"SELECT grp, count(*), sum(amount) FROM big WHERE day >= date '2024-06-01' GROUP BY grp ORDER BY grp",
		"SELECT id, name, amount, day FROM big WHERE id % 9973 = 0 ORDER BY id",
		"SELECT name, count(*) FROM big WHERE name LIKE 'a, %' GROUP BY name ORDER BY name LIMIT 5",
		"SELECT g.label, count(b.id) FROM groups g LEFT JOIN big b ON b.grp = g.g GROUP BY g.label ORDER BY g.label",
		"SELECT count(*) FROM names WHERE name NOT IN (SELECT name FROM big)",
		"SELECT count(*) FROM names WHERE name NOT IN (SELECT name FROM big WHERE name IS NOT NULL)",
		"SELECT name FROM names WHERE name NOT IN (SELECT name FROM big WHERE name IS NOT NULL) ORDER BY name",
		"SELECT g FROM groups WHERE g NOT IN (SELECT grp FROM big WHERE id < 20) ORDER BY g",
		"SELECT count(*) FROM big a JOIN big b ON a.id = b.id + 1 WHERE a.grp = 5",
		"SELECT name FROM bad WHERE id < 3 ORDER BY id",
		"SELECT count(*) FROM bad",
		"SELECT count(name) FROM bad",
		"INSERT INTO big VALUES (1, 1, 'x', 1, NULL)",
	}
	for _, q := range queries {
		want := rawResult(ctxT(t), pgc, q)
		got := rawResult(ctxT(t), jc, q)
		if got != want {
			t.Errorf("%s\n joind:\n%s\n postgres:\n%s", q, got, want)
		}
	}
	// The CONTEXT line: PostgreSQL's wording, the foreign table's name and
	// the line in the file.
	const badQ = "SELECT sum(id) FROM bad"
	_, perr := pgc.Exec(ctxT(t), badQ)
	_, jerr := jc.Exec(ctxT(t), badQ)
	if perr == nil || jerr == nil || pgErrWhere(perr) != pgErrWhere(jerr) || pgErrWhere(jerr) == "" {
		t.Errorf("bad row: joind %v (%s), postgres %v (%s)", jerr, pgErrWhere(jerr), perr, pgErrWhere(perr))
	}
	plan := rawResult(ctxT(t), jc, "EXPLAIN SELECT count(*) FROM big WHERE grp = 3")
	if !strings.Contains(plan, "Foreign Scan on big") || !strings.Contains(plan, "Foreign File: "+filepath.Join(dir, "big.csv")) {
		t.Errorf("EXPLAIN should show the Foreign Scan and its file:\n%s", plan)
	}

	// format 'parquet': joind's extension, over a file joind writes.
	// Two files, a row group each, named by a pattern.
	mustExec(t, jc, "COPY (SELECT * FROM big WHERE id < 60000 ORDER BY id) TO '"+filepath.Join(dir, "big1.parquet")+"' (FORMAT parquet)")
	mustExec(t, jc, "COPY (SELECT * FROM big WHERE id >= 60000 ORDER BY id) TO '"+filepath.Join(dir, "big2.parquet")+"' (FORMAT parquet)")
	mustExec(t, jc, "CREATE FOREIGN TABLE bigp (amount numeric(8,2), id int, name text) SERVER files OPTIONS (filename '"+
		filepath.Join(dir, "big*.parquet")+"', format 'parquet')")
	for _, q := range []string{
		"SELECT count(*), count(name), sum(amount), sum(id) FROM {T}",
		"SELECT count(*) FROM names WHERE name NOT IN (SELECT name FROM {T} WHERE name IS NOT NULL)",
		"SELECT id, name FROM {T} WHERE id BETWEEN 1000 AND 1010 ORDER BY id",
	} {
		want := rawResult(ctxT(t), pgc, strings.ReplaceAll(q, "{T}", "big"))
		if got := rawResult(ctxT(t), jc, strings.ReplaceAll(q, "{T}", "bigp")); got != want {
			t.Errorf("parquet %s\n joind:\n%s\n postgres:\n%s", q, got, want)
		}
	}
	if got := rawResult(ctxT(t), jc, "CREATE FOREIGN TABLE bigq (id text) SERVER files OPTIONS (filename '"+
		filepath.Join(dir, "big1.parquet")+"', format 'parquet'); SELECT * FROM bigq"); !strings.HasPrefix(got, "ERROR 42804") {
		t.Errorf("parquet column of another type: %s", got)
	}
	plan = rawResult(ctxT(t), jc, "EXPLAIN ANALYZE SELECT count(*) FROM bigp WHERE id < 10")
	if !strings.Contains(plan, "Foreign Scan on bigp") || !strings.Contains(plan, "row groups skipped: 1 of 2") {
		t.Errorf("EXPLAIN ANALYZE of the parquet foreign table:\n%s", plan)
	}

	// joind's own rules: files only under copy_dirs (checked at each scan,
	// as read_parquet's), no program.
	for q, want := range map[string]string{
		"CREATE FOREIGN TABLE outside (a text) SERVER files OPTIONS (filename '/etc/passwd'); SELECT * FROM outside":                            "ERROR 42501",
		"CREATE FOREIGN TABLE missing (a text) SERVER files OPTIONS (filename '" + filepath.Join(dir, "nope.csv") + "'); SELECT * FROM missing": "ERROR 58P01",
		"CREATE FOREIGN TABLE prog (a text) SERVER files OPTIONS (program 'cat /etc/passwd')":                                                   "ERROR 0A000",
	} {
		if got := rawResult(ctxT(t), jc, q); !strings.HasPrefix(got, want) {
			t.Errorf("%s: %s, want %s", q, got, want)
		}
	}

	// The definitions survive a restart.
	const check = "SELECT count(*), sum(amount) FROM big"
	before := rawResult(ctxT(t), jc, check)
	catalog := "SELECT c.relname, c.relkind, s.srvname, ft.ftoptions::text FROM pg_foreign_table ft JOIN pg_class c ON c.oid = ft.ftrelid JOIN pg_foreign_server s ON s.oid = ft.ftserver ORDER BY 1"
	catBefore := rawResult(ctxT(t), jc, catalog)
	jc.Close(ctxT(t))
	j.Stop()
	j = joindtest.StartJoindWithDataDir(t, data, "--copy-dirs", dir)
	jc = connect(t, endpoint{name: "joind", dsn: j.DSN()})
	if got := rawResult(ctxT(t), jc, check); got != before || got != rawResult(ctxT(t), pgc, check) {
		t.Errorf("after restart: %s, before %s", got, before)
	}
	if got := rawResult(ctxT(t), jc, catalog); got != catBefore || !strings.Contains(got, "big|f|files|{filename=") {
		t.Errorf("catalog after restart:\n%s\nbefore:\n%s", got, catBefore)
	}
	for _, c := range []*pgx.Conn{pgc, jc} {
		mustExec(t, c, "DROP EXTENSION file_fdw CASCADE")
	}
	if got := rawResult(ctxT(t), jc, "SELECT count(*) FROM pg_foreign_table"); got != "0" {
		t.Errorf("after DROP EXTENSION CASCADE: %s foreign tables", got)
	}
}

// pgErrWhere is an error's SQLSTATE, message and CONTEXT line.
func pgErrWhere(err error) string {
	var pe *pgconn.PgError
	if !errors.As(err, &pe) {
		return ""
	}
	return pe.Code + ": " + pe.Message + " / " + pe.Where
}
