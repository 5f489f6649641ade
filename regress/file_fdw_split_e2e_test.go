package regress

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/joind/joind/regress/joindtest"
	"github.com/joind/joind/regress/oracle"
)

// TestE2EFileFdwSplit: text and CSV files big enough that joind reads
// them as several units in parallel (no quotes, LF line ends) answer what
// PostgreSQL's file_fdw answers over the same files, and bad rows in two
// places give PostgreSQL's error for the first one, with its line.
func TestE2EFileFdwSplit(t *testing.T) {
	dir := t.TempDir()
	for d := dir; d != "/" && d != os.TempDir(); d = filepath.Dir(d) {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	const rows = 1_100_000
	var b bytes.Buffer
	b.WriteString("id,grp,name,amount,day\n")
	for r := 0; r < rows; r++ {
		name := fmt.Sprintf("n%05d", r%5000)
		if r%13 == 3 {
			name = "" // NULL in CSV
		}
		amount := fmt.Sprintf("%d.%02d", r%1000, r%100)
		if r%17 == 4 {
			amount = ""
		}
		fmt.Fprintf(&b, "%d,%d,%s,%s,2024-%02d-%02d\n", r, r%37, name, amount, r%12+1, r%28+1)
	}
	csv := b.Bytes()
	if len(csv) < 2*(16<<20) {
		t.Fatalf("the file (%d bytes) is too small to be split", len(csv))
	}
	text := bytes.ReplaceAll(csv[bytes.IndexByte(csv, '\n')+1:], []byte(","), []byte("\t"))
	text = bytes.ReplaceAll(text, []byte("\t\t"), []byte("\t\\N\t"))
	bad := bytes.Replace(csv, []byte("\n900000,"), []byte("\n9e5x,"), 1)
	bad = bytes.Replace(bad, []byte("\n400000,"), []byte("\n4e5x,"), 1)
	for name, data := range map[string][]byte{"split.csv": csv, "split.txt": text, "splitbad.csv": bad} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pg := oracle.Start(t)
	pg.CreateDatabase(t, "filefdw_split")
	pgc := connect(t, endpoint{name: "postgres", dsn: pg.DSNFor("filefdw_split")})
	j := joindtest.StartJoind(t, "--copy-dirs", dir)
	jc := connect(t, endpoint{name: "joind", dsn: j.DSN()})
	const cols = "(id int, grp int, name text, amount numeric(8,2), day date)"
	ddl := []string{
		"CREATE EXTENSION file_fdw",
		"CREATE SERVER files FOREIGN DATA WRAPPER file_fdw",
		"CREATE FOREIGN TABLE sc " + cols + " SERVER files OPTIONS (filename '" + filepath.Join(dir, "split.csv") + "', format 'csv', header 'true')",
		"CREATE FOREIGN TABLE st " + cols + " SERVER files OPTIONS (filename '" + filepath.Join(dir, "split.txt") + "')",
		"CREATE FOREIGN TABLE sb " + cols + " SERVER files OPTIONS (filename '" + filepath.Join(dir, "splitbad.csv") + "', format 'csv', header 'true')",
	}
	for _, c := range []*pgx.Conn{pgc, jc} {
		for _, s := range ddl {
			mustExec(t, c, s)
		}
	}
	for _, tbl := range []string{"sc", "st"} {
		for _, q := range []string{
			"SELECT count(*), count(name), count(amount), sum(amount), min(day), max(day), sum(id), min(id), max(id) FROM " + tbl,
			"SELECT grp, count(*), sum(amount), count(DISTINCT name) FROM " + tbl + " WHERE day >= date '2024-06-01' GROUP BY grp ORDER BY grp",
			"SELECT * FROM " + tbl + " WHERE id % 99991 = 0 ORDER BY id",
			"SELECT count(*) FROM " + tbl + " a JOIN " + tbl + " b ON a.id = b.id + 1 WHERE a.grp = 5",
			"SELECT count(*) FROM generate_series(0, 1100100, 997) g WHERE g NOT IN (SELECT id FROM " + tbl + ")",
		} {
			want := rawResult(ctxT(t), pgc, q)
			if got := rawResult(ctxT(t), jc, q); got != want {
				t.Errorf("%s\n joind:\n%s\n postgres:\n%s", q, got, want)
			}
		}
	}
	for _, q := range []string{"SELECT sum(id) FROM sb", "SELECT count(*) FROM sb WHERE id > 3 AND grp = 3"} {
		_, perr := pgc.Exec(ctxT(t), q)
		_, jerr := jc.Exec(ctxT(t), q)
		if perr == nil || jerr == nil || pgErrWhere(perr) != pgErrWhere(jerr) {
			t.Errorf("%s: joind %v (%s), postgres %v (%s)", q, jerr, pgErrWhere(jerr), perr, pgErrWhere(perr))
		}
	}
}
