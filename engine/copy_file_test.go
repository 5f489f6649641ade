//go:build unix

package engine

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/wire"
)

// copyEnv is an in-memory engine whose server-side COPY may use dir.
func copyEnv(t *testing.T) (wire.Session, string) {
	t.Helper()
	dir := t.TempDir()
	e, err := New(Options{CopyDirs: []string{dir}, BatchSize: 1000})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	s, err := e.NewSession(context.Background(), map[string]string{"user": "test"})
	if err != nil {
		t.Fatal(err)
	}
	return s, dir
}

func mustExec(t *testing.T, s wire.Session, q string) string {
	t.Helper()
	tag, err := execAll(s, q, &copyFeed{})
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return tag
}

func queryRows(t *testing.T, s wire.Session, q string) string {
	t.Helper()
	w := &discardWriter{keep: 1 << 20}
	if _, err := execAll(s, q, w); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return render(w.rows)
}

const everyTypeTable = `CREATE TABLE %s (b boolean, i2 smallint, i4 int, i8 bigint, f4 real, f8 double precision,
	n numeric, n2 numeric(10,2), t text, v varchar(5), c char(3), d date, ts timestamp, tz timestamptz, iv interval,
	ip inet, nw cidr, mac macaddr, m8 macaddr8)`

const everyTypeRows = `INSERT INTO src VALUES
	(true, -32768, 2147483647, -9223372036854775808, 1.5, -2.25e300, 12345678901234567890.123456789, 99999999.99,
	 'tab	"q",comma
nl\x', 'abcde', 'ab', '2024-02-29', '2024-02-29 12:34:56.789012', '2001-02-03 04:05:06+00', '1 year 2 mons 3 days 04:05:06.7',
	 '10.1.2.3/8', '2001:db8::/32', '08:00:2b:01:02:03', '08:00:2b:01:02:03:04:05'),
	(NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
	(false, 0, -1, 0, 'NaN', 'Infinity', 'NaN', -0.01, '', '', '', 'infinity', '-infinity', '1970-01-01 00:00:00+00', '-1 days',
	 '::ffff:1.2.3.4', '0.0.0.0/0', 'ff:ff:ff:ff:ff:ff', '00:00:00:00:00:00:00:00'),
	(false, 1, 1, 1, -0.5, 0, -0.5, 0, '\N', 'x', 'xyz', '0001-01-01', '1999-12-31 23:59:59', '2038-01-19 03:14:08+00', '0',
	 '::', '10', '00:00:00:00:00:00', '08002b0102030405')`

// Every type and NULLs go out to a file and back in each format.
func TestCopyFileRoundTrip(t *testing.T) {
	s, dir := copyEnv(t)
	mustExec(t, s, fmt.Sprintf(everyTypeTable, "src"))
	mustExec(t, s, everyTypeRows)
	want := queryRows(t, s, "SELECT * FROM src ORDER BY i4 NULLS LAST")
	for i, format := range []string{"csv", "text", "parquet", "binary", "csv, header true"} {
		name := fmt.Sprintf("dst%d", i)
		file := filepath.Join(dir, name+".out")
		mustExec(t, s, fmt.Sprintf(everyTypeTable, name))
		if tag := mustExec(t, s, fmt.Sprintf("COPY src TO '%s' (FORMAT %s)", file, format)); tag != "COPY 4" {
			t.Fatalf("%s: COPY TO tag %q", format, tag)
		}
		if tag := mustExec(t, s, fmt.Sprintf("COPY %s FROM '%s' (FORMAT %s)", name, file, format)); tag != "COPY 4" {
			t.Fatalf("%s: COPY FROM tag %q", format, tag)
		}
		if got := queryRows(t, s, "SELECT * FROM "+name+" ORDER BY i4 NULLS LAST"); got != want {
			t.Errorf("%s round trip:\n got %s\nwant %s", format, got, want)
		}
	}
	// A query, a relative name (relative to the first copy_dirs entry), a
	// column list with the others filled by their DEFAULT.
	mustExec(t, s, "COPY (SELECT i4, t FROM src WHERE i4 IS NOT NULL) TO 'q.parquet' (FORMAT parquet)")
	mustExec(t, s, "CREATE TABLE part (x int DEFAULT 7, i4 int, t text)")
	if tag := mustExec(t, s, "COPY part (t, i4) FROM 'q.parquet' (FORMAT parquet)"); tag != "COPY 3" {
		t.Fatalf("tag %q", tag)
	}
	if got := queryRows(t, s, "SELECT x, i4, length(t) FROM part ORDER BY i4"); got != "(7,-1,0)(7,1,2)(7,2147483647,18)" {
		t.Errorf("parquet subset: %s", got)
	}
}

func pgCode(err error) string {
	if pe := pgerr.As(err); pe != nil {
		return pe.Code
	}
	return ""
}

// Files outside copy_dirs are refused, also through a symbolic link.
func TestCopyFileAllowList(t *testing.T) {
	s, dir := copyEnv(t)
	mustExec(t, s, "CREATE TABLE t (a int)")
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "x.csv"), []byte("1\n"), 0o644)
	os.Symlink(filepath.Join(outside, "x.csv"), filepath.Join(dir, "link.csv"))
	for _, q := range []string{
		"COPY t FROM '" + filepath.Join(outside, "x.csv") + "'",
		"COPY t FROM 'link.csv'",
		"COPY t FROM '../" + filepath.Base(outside) + "/x.csv'",
		"COPY t TO '" + filepath.Join(outside, "y.csv") + "'",
	} {
		_, err := execAll(s, q, &copyFeed{})
		if pgCode(err) != "42501" || !strings.Contains(err.Error(), "copy_dirs") {
			t.Errorf("%s: got %v, want 42501 naming copy_dirs", q, err)
		}
	}
	if _, err := os.Stat(filepath.Join(outside, "y.csv")); err == nil {
		t.Error("COPY TO wrote outside copy_dirs")
	}
	_, err := execAll(s, "COPY t FROM 'missing.csv'", &copyFeed{})
	if pgCode(err) != "58P01" || !strings.Contains(err.Error(), "No such file or directory") {
		t.Errorf("missing file: %v", err)
	}
	// No copy_dirs at all: server-side files are off.
	e, _ := New(Options{})
	defer e.Close()
	s2, _ := e.NewSession(context.Background(), map[string]string{"user": "test"})
	mustExec(t, s2, "CREATE TABLE t (a int)")
	if _, err := execAll(s2, "COPY t FROM '"+filepath.Join(dir, "x")+"'", &copyFeed{}); pgCode(err) != "42501" || !strings.Contains(err.Error(), "copy_dirs") {
		t.Errorf("no copy_dirs: %v", err)
	}
}

// One bad row deep in a big file (many parse chunks) loads nothing and
// names its line, also with quoted newlines spanning chunk boundaries:
// PostgreSQL counts each as a line, but the first record's (line 500000 on
// PostgreSQL 15 for the same file).
func TestCopyFileBadRowLoadsNothing(t *testing.T) {
	s, dir := copyEnv(t)
	mustExec(t, s, "CREATE TABLE t (id bigint, n int, s text)")
	const rows = 300_000
	var sb strings.Builder
	for i := 0; i < rows; i++ {
		if i == 250_000 {
			fmt.Fprintf(&sb, "%d,oops,x\n", i)
			continue
		}
		fmt.Fprintf(&sb, "%d,%d,\"multi\nline %d\"\n", i, i%1000, i)
	}
	os.WriteFile(filepath.Join(dir, "big.csv"), []byte(sb.String()), 0o644)
	_, err := execAll(s, "COPY t FROM 'big.csv' (FORMAT csv)", &copyFeed{})
	pe := pgerr.As(err)
	if pe == nil || pe.Code != "22P02" || pe.Where != `COPY t, line 500000, column n: "oops"` {
		t.Fatalf("got %v (where %q)", err, pe.Where)
	}
	if got := queryRows(t, s, "SELECT count(*) FROM t"); got != "(0)" {
		t.Errorf("rows after a failed COPY: %s", got)
	}
	// Without the bad row every record arrives whole.
	fixed := strings.Replace(sb.String(), "250000,oops,x\n", "250000,0,\"multi\nline 250000\"\n", 1)
	os.WriteFile(filepath.Join(dir, "big.csv"), []byte(fixed), 0o644)
	if tag := mustExec(t, s, "COPY t FROM 'big.csv' (FORMAT csv)"); tag != fmt.Sprintf("COPY %d", rows) {
		t.Fatalf("tag %q", tag)
	}
	if got := queryRows(t, s, "SELECT count(*), sum(n), count(DISTINCT s), min(length(s)) FROM t WHERE s = 'multi' || chr(10) || 'line ' || id"); got != "(300000,149850000,300000,12)" {
		t.Errorf("loaded rows: %s", got)
	}
}

// The text format's escapes, NULLs, the end marker and a header in CSV.
func TestCopyFromStdinFormats(t *testing.T) {
	s, _ := copyEnv(t)
	mustExec(t, s, "CREATE TABLE t (a int, b text NOT NULL DEFAULT 'd', c varchar(3))")
	in := "1\tx\\ty\tab\n\\N\t\\\\N\t\\N\r\n3\t\\x41\\101\tabc\n\\.\n9\tafter the end\tz\n"
	if tag, err := execAll(s, "COPY t FROM STDIN", &copyFeed{in: strings.NewReader(in)}); err != nil || tag != "COPY 3" {
		t.Fatalf("text: %q %v", tag, err)
	}
	if got := queryRows(t, s, "SELECT * FROM t ORDER BY a NULLS LAST"); got != "(1,x\ty,ab)(3,AA,abc)(NULL,\\N,NULL)" {
		t.Errorf("text: %s", got)
	}
	mustExec(t, s, "TRUNCATE t")
	in = "a,c\n5,\"q,\"\"\"\n6,\n"
	if tag, err := execAll(s, "COPY t (a, c) FROM STDIN (FORMAT csv, HEADER)", &copyFeed{in: strings.NewReader(in)}); err != nil || tag != "COPY 2" {
		t.Fatalf("csv: %q %v", tag, err)
	}
	if got := queryRows(t, s, "SELECT * FROM t ORDER BY a"); got != `(5,d,q,")(6,d,NULL)` {
		t.Errorf("csv: %s", got)
	}
	for in, want := range map[string]string{
		"1,x,abcd\n":  `value too long for type character varying(3) / COPY t, line 1, column c: "abcd"`,
		"1,x,a\n2\n":  `missing data for column "b" / COPY t, line 2: "2"`,
		"1,x,y,z\n":   `extra data after last expected column / COPY t, line 1: "1,x,y,z"`,
		"1,\"x\n":     "unterminated CSV quoted field / COPY t, line 1: \"1,\"x\n\"", // the line break is the field's
		"1,x,a\n,,\n": `null value in column "b" of relation "t" violates not-null constraint / COPY t, line 2: ",,"`,
	} {
		_, err := execAll(s, "COPY t FROM STDIN (FORMAT csv)", &copyFeed{in: strings.NewReader(in)})
		pe := pgerr.As(err)
		if got := fmt.Sprintf("%s / %s", pe.Message, pe.Where); pe == nil || got != want {
			t.Errorf("%q: got %s, want %s", in, got, want)
		}
	}
}
