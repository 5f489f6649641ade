package regress

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	icebergio "github.com/apache/iceberg-go/io"
	_ "github.com/apache/iceberg-go/io/gocloud/s3" // s3:// for iceberg-go, the other reader
	"github.com/apache/iceberg-go/table"

	"github.com/joind/joind/regress/joindtest"
	"github.com/joind/joind/regress/oracle"
)

// TestE2EIcebergObjectStore: Iceberg tables under an s3:// location of a
// real S3-compatible store (versitygw), created, appended to, read back
// (also after a restart) with PostgreSQL's answers for the same rows;
// iceberg-go reads what joind committed straight from the store; a
// location outside copy_dirs' s3 prefixes is refused.
func TestE2EIcebergObjectStore(t *testing.T) {
	store := joindtest.StartObjectStore(t, "lake", "other")
	for k, v := range store.Env() {
		t.Setenv(k, v) // joind (a child process) and iceberg-go here read them
	}
	pg := oracle.Start(t)
	pg.CreateDatabase(t, "iceberg_s3")
	pgc := connect(t, endpoint{name: "postgres", dsn: pg.DSNFor("iceberg_s3")})

	local := t.TempDir()
	data := t.TempDir()
	dirs := local + ",s3://lake/wh"
	j := joindtest.StartJoindWithDataDir(t, data, "--copy-dirs", dirs)
	jc := connect(t, endpoint{name: "joind", dsn: j.DSN()})
	mustExec(t, jc, "CREATE EXTENSION iceberg")
	mustExec(t, jc, "CREATE SERVER lake FOREIGN DATA WRAPPER iceberg")

	const cols = "id bigint, region text, amount numeric(12,2), day date, ok boolean"
	mustExec(t, pgc, "CREATE TABLE sales ("+cols+")")
	mustExec(t, jc, "CREATE FOREIGN TABLE sales ("+cols+") SERVER lake OPTIONS (location 's3://lake/wh/sales', partition_by 'day')")
	for _, q := range []string{
		"INSERT INTO sales VALUES (1, 'north', 10.50, date '2026-01-01', true), (2, NULL, NULL, date '2026-01-02', NULL)",
		"INSERT INTO sales SELECT g, 'r' || (g % 7), g * 1.25, date '2026-01-01' + g % 5, g % 3 = 0 FROM generate_series(3, 4000) g",
	} {
		mustExec(t, pgc, q)
		mustExec(t, jc, q)
	}
	queries := []string{
		"SELECT count(*), sum(id), sum(amount), count(region), count(ok), min(day), max(day) FROM sales",
		"SELECT day, region, count(*), sum(amount) FROM sales WHERE day >= date '2026-01-04' GROUP BY 1, 2 ORDER BY 1, 2 NULLS FIRST",
		"SELECT * FROM sales WHERE id % 997 = 1 OR id < 3 ORDER BY id",
		"SELECT count(*) FROM sales a WHERE a.id NOT IN (SELECT id * 2 FROM sales WHERE region IS NOT NULL)",
	}
	compare := func(when string) {
		t.Helper()
		for _, q := range queries {
			if got, want := rawResult(ctxT(t), jc, q), rawResult(ctxT(t), pgc, q); got != want {
				t.Errorf("%s: %s\n joind:\n%s\n postgres:\n%s", when, q, got, want)
			}
		}
	}
	compare("after the appends")

	// The table's files are objects in the bucket (versitygw keeps each
	// object as a file under its root), partitioned by day.
	root := filepath.Join(store.Root, "lake", "wh", "sales")
	if _, err := os.Stat(filepath.Join(root, "metadata", "v1.metadata.json")); err != nil {
		t.Errorf("the table's first metadata file is not in the bucket: %v", err)
	}
	if m, _ := filepath.Glob(filepath.Join(root, "data", "day=*")); len(m) != 5 {
		t.Errorf("partition prefixes in the bucket: %v", m)
	}
	if plan := rawResult(ctxT(t), jc, "EXPLAIN ANALYZE SELECT count(*) FROM sales WHERE day = date '2026-01-02'"); !strings.Contains(plan, "row groups skipped: 5 of 7") {
		t.Errorf("EXPLAIN ANALYZE should show the other days' files skipped (two appends: 2 + 5 files):\n%s", plan)
	}

	// Partition transforms in the store: bucket and month, pruned by a
	// bucket equality; UPDATE and DELETE through the store too.
	mustExec(t, pgc, "CREATE TABLE buck (id bigint, day date, v int)")
	mustExec(t, jc, "CREATE FOREIGN TABLE buck (id bigint, day date, v int) SERVER lake OPTIONS (location 's3://lake/wh/buck', partition_by 'bucket(4, id), month(day)')")
	for _, q := range []string{
		"INSERT INTO buck SELECT g, date '2026-01-01', g % 10 FROM generate_series(1, 300) g",
		"UPDATE buck SET v = v + 100, day = date '2026-03-05' WHERE id % 7 = 0",
		"DELETE FROM buck WHERE v = 3",
	} {
		mustExec(t, pgc, q)
		mustExec(t, jc, q)
	}
	for _, q := range []string{"SELECT count(*), sum(v), min(day), max(day) FROM buck", "SELECT * FROM buck WHERE id = 77", "SELECT count(*), sum(v) FROM buck WHERE day >= date '2026-02-01'"} {
		if got, want := rawResult(ctxT(t), jc, q), rawResult(ctxT(t), pgc, q); got != want {
			t.Errorf("transforms in the store: %s\n joind:\n%s\n postgres:\n%s", q, got, want)
		}
	}
	if m, _ := filepath.Glob(filepath.Join(store.Root, "lake", "wh", "buck", "data", "id_bucket=*", "day_month=*")); len(m) < 4 {
		t.Errorf("bucket/month prefixes in the bucket: %v", m)
	}
	if plan := rawResult(ctxT(t), jc, "EXPLAIN ANALYZE SELECT count(*) FROM buck WHERE id = 77"); !skippedSome(plan) {
		t.Errorf("bucket(4, id) in the store: no data file skipped:\n%s", plan)
	}

	// iceberg-go, another reader, reads the snapshot joind committed from
	// the store.
	meta := rawResult(ctxT(t), jc, "SELECT option_value FROM pg_options_to_table((SELECT ftoptions FROM pg_foreign_table WHERE ftrelid = 'sales'::regclass)) WHERE option_name = 'metadata_file'")
	if !strings.HasPrefix(meta, "s3://lake/wh/sales/metadata/") || !strings.Contains(meta, "-joind-") {
		t.Fatalf("metadata_file option: %q", meta)
	}
	tbl, err := table.NewFromLocation(ctxT(t), table.Identifier{"wh", "sales"}, meta, icebergio.LoadFSFunc(nil, meta), nil)
	if err != nil {
		t.Fatal(err)
	}
	at, err := tbl.Scan().ToArrowTable(ctxT(t))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := fmt.Sprint(at.NumRows()), rawResult(ctxT(t), pgc, "SELECT count(*) FROM sales"); got != want {
		t.Errorf("iceberg-go counts %s rows, PostgreSQL %s", got, want)
	}
	at.Release()

	// A second foreign table attaches the same location by listing its
	// metadata; the pointer survives a restart.
	j.Stop()
	j = joindtest.StartJoindWithDataDir(t, data, "--copy-dirs", dirs)
	jc = connect(t, endpoint{name: "joind", dsn: j.DSN()})
	compare("after a restart")
	mustExec(t, jc, "CREATE FOREIGN TABLE sales_v1 () SERVER lake OPTIONS (location 's3://lake/wh/sales/metadata/v1.metadata.json')")
	if got := rawResult(ctxT(t), jc, "SELECT count(*) FROM sales_v1"); got != "0" {
		t.Errorf("the first version of the table has rows: %s", got)
	}

	// Outside copy_dirs' prefixes: refused as server-side files are.
	for _, loc := range []string{"s3://other/t", "s3://lake/whx/t", "s3://lake/wh/../secret"} {
		got := rawResult(ctxT(t), jc, "CREATE FOREIGN TABLE bad (a int) SERVER lake OPTIONS (location '"+loc+"')")
		if !strings.HasPrefix(got, "ERROR 42501") && !strings.HasPrefix(got, "ERROR 22023") {
			t.Errorf("location %s: %s", loc, got)
		}
	}
	if got := rawResult(ctxT(t), jc, "CREATE FOREIGN TABLE bad (a int) SERVER lake OPTIONS (location 'gs://lake/wh/t')"); !strings.HasPrefix(got, "ERROR 0A000") {
		t.Errorf("gs:// location: %s", got)
	}
	// COPY files stay local: an object URI is not a COPY file.
	if got := rawResult(ctxT(t), jc, "COPY sales TO 's3://lake/wh/out.csv'"); !strings.HasPrefix(got, "ERROR") {
		t.Errorf("COPY TO an object URI: %s", got)
	}
}
