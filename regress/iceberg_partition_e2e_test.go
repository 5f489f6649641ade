package regress

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/catalog"
	"github.com/apache/iceberg-go/catalog/hadoop"
	"github.com/apache/iceberg-go/table"

	"github.com/joind/joind/regress/joindtest"
	"github.com/joind/joind/regress/oracle"
)

// TestE2EIcebergTransforms: tables partitioned by Iceberg's transforms
// (bucket, truncate, year, month, day, hour), created and appended to by
// joind or written by iceberg-go, answer what PostgreSQL answers over the
// same rows, also after UPDATE and DELETE and a restart; a filter on a
// partition's source column skips the data files whose partition value
// proves it false (a bucket by equality, the others by range); iceberg-go
// reads joind's tables, its own row filters giving joind's counts.
func TestE2EIcebergTransforms(t *testing.T) {
	dir := t.TempDir()
	writeTransformedTable(t, filepath.Join(dir, "wh"))

	pg := oracle.Start(t)
	pg.CreateDatabase(t, "iceberg_transforms")
	pgc := connect(t, endpoint{name: "postgres", dsn: pg.DSNFor("iceberg_transforms")})
	data := t.TempDir()
	j := joindtest.StartJoindWithDataDir(t, data, "--copy-dirs", dir)
	jc := connect(t, endpoint{name: "joind", dsn: j.DSN()})
	for _, c := range []string{"CREATE EXTENSION iceberg", "CREATE SERVER lake FOREIGN DATA WRAPPER iceberg", "SET TimeZone = 'UTC'"} {
		mustExec(t, jc, c)
	}
	mustExec(t, pgc, "SET TimeZone = 'UTC'")

	const cols1 = "id bigint, k text, ts timestamp, n int"
	const cols2 = "id bigint, d date, n int, tz timestamptz"
	mustExec(t, pgc, "CREATE TABLE t1 ("+cols1+")")
	mustExec(t, pgc, "CREATE TABLE t2 ("+cols2+")")
	mustExec(t, pgc, "CREATE TABLE t3 (id bigint, v int)")
	mustExec(t, jc, "CREATE FOREIGN TABLE t1 ("+cols1+") SERVER lake OPTIONS (location 't1', partition_by 'bucket(8, id), truncate(2, k), month(ts)')")
	mustExec(t, jc, "CREATE FOREIGN TABLE t2 ("+cols2+") SERVER lake OPTIONS (location 't2', partition_by 'truncate(100, n), year(d), hour(tz)')")
	mustExec(t, jc, "CREATE FOREIGN TABLE t3 (id bigint, v int) SERVER lake OPTIONS (location 't3', partition_by 'bucket(4, id)')")
	for _, q := range []string{
		"INSERT INTO t1 SELECT g, CASE WHEN g % 11 = 0 THEN NULL ELSE chr(97 + g % 5) || chr(97 + g % 3) || g % 4 END, " +
			"CASE WHEN g % 17 = 0 THEN NULL ELSE timestamp '2023-11-20' + g * interval '3 hours 7 minutes' END, g % 9 FROM generate_series(1, 1500) g",
		"INSERT INTO t1 VALUES (-5, 'zz', timestamp '1969-12-31 23:00:00', 1), (NULL, 'a', NULL, NULL)",
		"INSERT INTO t2 SELECT g, date '2021-06-01' + g * 3, CASE WHEN g % 13 = 0 THEN NULL ELSE g * 7 - 900 END, " +
			"timestamptz '2024-03-01 00:00:00+00' + g * interval '17 minutes' FROM generate_series(1, 600) g",
		"INSERT INTO t3 SELECT g, g % 10 FROM generate_series(1, 400) g",
	} {
		mustExec(t, pgc, q)
		mustExec(t, jc, q)
	}
	queries := []string{
		"SELECT count(*), count(id), count(k), count(ts), sum(id), sum(n), min(k), max(k), min(ts), max(ts) FROM t1",
		"SELECT * FROM t1 WHERE id = 77",
		"SELECT * FROM t1 WHERE id IN (3, 300, 1499) ORDER BY id",
		"SELECT count(*), sum(id) FROM t1 WHERE id >= 1400",
		"SELECT count(*), sum(id) FROM t1 WHERE k = 'ba2'",
		"SELECT count(*), sum(id) FROM t1 WHERE k >= 'd' AND k < 'e'",
		"SELECT count(*), sum(id) FROM t1 WHERE k < 'ab'",
		"SELECT count(*) FROM t1 WHERE k IS NULL",
		"SELECT count(*) FROM t1 WHERE id IS NULL",
		"SELECT count(*), sum(id) FROM t1 WHERE ts >= timestamp '2024-02-01' AND ts < timestamp '2024-03-01'",
		"SELECT count(*), sum(id) FROM t1 WHERE ts < timestamp '2023-12-01 00:00:01'",
		"SELECT * FROM t1 WHERE ts < timestamp '1970-01-01'",
		"SELECT date_trunc('month', ts) m, count(*) FROM t1 GROUP BY m ORDER BY m NULLS FIRST",
		"SELECT count(*), sum(id) FROM t2 WHERE n = 1200",
		"SELECT count(*), sum(id) FROM t2 WHERE n >= 0 AND n < 100",
		"SELECT count(*), sum(id) FROM t2 WHERE n <= -850",
		"SELECT count(*) FROM t2 WHERE n IS NULL",
		"SELECT count(*), sum(n) FROM t2 WHERE d >= date '2022-01-01' AND d <= date '2022-12-31'",
		"SELECT count(*), sum(n) FROM t2 WHERE d = date '2023-01-23'",
		"SELECT count(*), min(tz), max(tz) FROM t2 WHERE tz >= timestamptz '2024-03-02 10:00:00+00' AND tz < timestamptz '2024-03-02 13:30:00+00'",
		"SELECT extract(year FROM d) y, count(*), sum(n) FROM t2 GROUP BY y ORDER BY y",
		"SELECT count(*), sum(v) FROM t3 WHERE id = 7",
		"SELECT count(*), sum(v) FROM t3 WHERE id > 390",
	}
	compare := func(when string) {
		t.Helper()
		for _, q := range queries {
			want := rawResult(ctxT(t), pgc, q)
			if got := rawResult(ctxT(t), jc, q); got != want {
				t.Errorf("%s: %s\n joind:\n%s\n postgres:\n%s", when, q, got, want)
			}
		}
	}
	compare("after the appends")
	// One statement, four buckets, ids 1..400 in each: equality keeps the
	// one bucket 7 hashes to, which no bound could tell.
	if plan := rawResult(ctxT(t), jc, "EXPLAIN ANALYZE SELECT count(*) FROM t3 WHERE id = 7"); !strings.Contains(plan, "row groups skipped: 3 of 4") {
		t.Errorf("bucket(4, id): EXPLAIN ANALYZE should show 3 of 4 data files skipped:\n%s", plan)
	}
	if m, _ := filepath.Glob(filepath.Join(dir, "t3", "data", "id_bucket=*")); len(m) != 4 {
		t.Errorf("bucket directories: %v", m)
	}
	for _, q := range []string{
		"SELECT count(*) FROM t1 WHERE id = 77",
		"SELECT count(*) FROM t1 WHERE k = 'ba2'",
		"SELECT count(*) FROM t2 WHERE n = 1200",
		"SELECT count(*) FROM t2 WHERE tz >= timestamptz '2024-03-02 10:00:00+00' AND tz < timestamptz '2024-03-02 13:30:00+00'",
	} {
		if plan := rawResult(ctxT(t), jc, "EXPLAIN ANALYZE "+q); !skippedSome(plan) {
			t.Errorf("%s: no data file skipped:\n%s", q, plan)
		}
	}

	// UPDATE moves rows across partitions; DELETE by a partition's source.
	for _, q := range []string{
		"UPDATE t1 SET id = id + 10000, k = upper(k) WHERE id % 50 = 3",
		"DELETE FROM t1 WHERE k = 'ba2' OR id = 77",
		"UPDATE t2 SET n = n + 55, tz = tz + interval '3 hours' WHERE n BETWEEN 1000 AND 1500",
		"DELETE FROM t3 WHERE id = 7 OR v = 3",
	} {
		want := taggedResult(ctxT(t), pgc, q)
		if got := taggedResult(ctxT(t), jc, q); got != want {
			t.Errorf("%s\n joind:\n%s\n postgres:\n%s", q, got, want)
		}
	}
	queries = append(queries, "SELECT * FROM t1 WHERE id > 10000 ORDER BY id", "SELECT * FROM t2 WHERE n > 1000 ORDER BY id")
	compare("after UPDATE and DELETE")
	j.Stop()
	j = joindtest.StartJoindWithDataDir(t, data, "--copy-dirs", dir)
	jc = connect(t, endpoint{name: "joind", dsn: j.DSN()})
	mustExec(t, jc, "SET TimeZone = 'UTC'")
	compare("after a restart")

	// iceberg-go reads joind's tables; its own partition pruning (the
	// bucket hash, the truncation) finds the rows joind finds.
	for _, c := range []struct {
		name   string
		filter iceberg.BooleanExpression
		where  string
	}{
		{"t1", iceberg.AlwaysTrue{}, "true"},
		{"t1", iceberg.EqualTo(iceberg.Reference("id"), int64(1403)), "id = 1403"},
		{"t1", iceberg.EqualTo(iceberg.Reference("k"), "CA3"), "k = 'CA3'"},
		{"t2", iceberg.EqualTo(iceberg.Reference("n"), int32(1255)), "n = 1255"},
		{"t3", iceberg.EqualTo(iceberg.Reference("id"), int64(8)), "id = 8"},
	} {
		meta := rawResult(ctxT(t), jc, "SELECT option_value FROM pg_options_to_table((SELECT ftoptions FROM pg_foreign_table WHERE ftrelid = '"+c.name+"'::regclass)) WHERE option_name = 'metadata_file'")
		tbl, err := table.NewFromLocation(ctxT(t), table.Identifier{"ns", c.name}, meta, icebergLocalFS, nil)
		if err != nil {
			t.Fatal(err)
		}
		at, err := tbl.Scan(table.WithRowFilter(c.filter)).ToArrowTable(ctxT(t))
		if err != nil {
			t.Fatal(err)
		}
		got := fmt.Sprint(at.NumRows())
		at.Release()
		if want := rawResult(ctxT(t), pgc, "SELECT count(*) FROM "+c.name+" WHERE "+c.where); got != want {
			t.Errorf("iceberg-go reads %s WHERE %s: %s rows, PostgreSQL %s", c.name, c.where, got, want)
		}
	}

	// A table iceberg-go wrote with its transforms: attached, read, pruned.
	mustExec(t, pgc, "CREATE TABLE ext (id bigint, k text, ts timestamp)")
	mustExec(t, pgc, "INSERT INTO ext SELECT g, 'key' || (g % 23), timestamp '2024-05-01' + g * interval '41 minutes' FROM generate_series(0, 1999) g")
	mustExec(t, jc, "CREATE FOREIGN TABLE ext () SERVER lake OPTIONS (location 'wh/ns/ext')")
	for _, q := range []string{
		"SELECT count(*), sum(id), min(k), max(k), min(ts), max(ts) FROM ext",
		"SELECT * FROM ext WHERE id = 1234",
		"SELECT count(*), sum(id) FROM ext WHERE k = 'key7'",
		"SELECT count(*), sum(id) FROM ext WHERE k >= 'key2' AND k < 'key3'",
		"SELECT count(*), sum(id) FROM ext WHERE ts >= timestamp '2024-05-10' AND ts < timestamp '2024-05-11 06:00'",
		"SELECT ts::date, count(*) FROM ext GROUP BY 1 ORDER BY 1",
	} {
		want := rawResult(ctxT(t), pgc, q)
		if got := rawResult(ctxT(t), jc, q); got != want {
			t.Errorf("iceberg-go's table: %s\n joind:\n%s\n postgres:\n%s", q, got, want)
		}
	}
	for _, q := range []string{"SELECT count(*) FROM ext WHERE id = 1234", "SELECT count(*) FROM ext WHERE k = 'key7'"} {
		if plan := rawResult(ctxT(t), jc, "EXPLAIN ANALYZE "+q); !skippedSome(plan) {
			t.Errorf("iceberg-go's table: %s: no data file skipped:\n%s", q, plan)
		}
	}
	// joind appends to it by its spec.
	q := "INSERT INTO ext SELECT g, 'key' || (g % 5), timestamp '2024-07-01' + g * interval '1 hour' FROM generate_series(5000, 5100) g"
	mustExec(t, pgc, q)
	mustExec(t, jc, q)
	for _, q := range []string{"SELECT count(*), sum(id), max(ts) FROM ext", "SELECT * FROM ext WHERE id = 5050", "SELECT count(*) FROM ext WHERE k = 'key3'"} {
		want := rawResult(ctxT(t), pgc, q)
		if got := rawResult(ctxT(t), jc, q); got != want {
			t.Errorf("after joind's append to iceberg-go's table: %s\n joind:\n%s\n postgres:\n%s", q, got, want)
		}
	}

	// The option's errors.
	for _, c := range [][2]string{
		{"CREATE FOREIGN TABLE bad1 (x float8) SERVER lake OPTIONS (location 'bad1', partition_by 'bucket(3, x)')", "ERROR 0A000"},
		{"CREATE FOREIGN TABLE bad2 (x int) SERVER lake OPTIONS (location 'bad2', partition_by 'bucket(0, x)')", "ERROR 22023"},
		{"CREATE FOREIGN TABLE bad3 (x int) SERVER lake OPTIONS (location 'bad3', partition_by 'frob(x)')", "ERROR 22023"},
		{"CREATE FOREIGN TABLE bad4 (x date) SERVER lake OPTIONS (location 'bad4', partition_by 'hour(x)')", "ERROR 0A000"},
		{"CREATE FOREIGN TABLE bad5 (x int) SERVER lake OPTIONS (location 'bad5', partition_by 'bucket(2, y)')", "ERROR 42703"},
		{"CREATE FOREIGN TABLE bad6 (x timestamp) SERVER lake OPTIONS (location 'bad6', partition_by 'day(x), hour(x)')", "ERROR 22023"},
		{"CREATE FOREIGN TABLE bad7 (x text) SERVER lake OPTIONS (location 'bad7', partition_by 'truncate(x)')", "ERROR 22023"},
	} {
		if got := rawResult(ctxT(t), jc, c[0]); !strings.HasPrefix(got, c[1]) {
			t.Errorf("%s: %s, want %s", c[0], got, c[1])
		}
	}
}

// skippedSome reports whether an EXPLAIN ANALYZE shows data files skipped.
func skippedSome(plan string) bool {
	return strings.Contains(plan, "row groups skipped: ") && !strings.Contains(plan, "row groups skipped: 0 of")
}

// writeTransformedTable writes table ns.ext with iceberg-go's writer,
// partitioned by bucket(5, id), truncate(4, k) and day(ts), with the rows
// the test's ext table in PostgreSQL has.
func writeTransformedTable(t *testing.T, warehouse string) {
	t.Helper()
	ctx := ctxT(t)
	cat, err := hadoop.NewCatalog("test", warehouse, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := cat.CreateNamespace(ctx, table.Identifier{"ns"}, nil); err != nil {
		t.Fatal(err)
	}
	schema := iceberg.NewSchema(0,
		iceberg.NestedField{ID: 1, Name: "id", Type: iceberg.PrimitiveTypes.Int64},
		iceberg.NestedField{ID: 2, Name: "k", Type: iceberg.PrimitiveTypes.String},
		iceberg.NestedField{ID: 3, Name: "ts", Type: iceberg.PrimitiveTypes.Timestamp},
	)
	spec := iceberg.NewPartitionSpec(
		iceberg.PartitionField{SourceIDs: []int{1}, FieldID: 1000, Name: "id_bucket", Transform: iceberg.BucketTransform{NumBuckets: 5}},
		iceberg.PartitionField{SourceIDs: []int{2}, FieldID: 1001, Name: "k_trunc", Transform: iceberg.TruncateTransform{Width: 4}},
		iceberg.PartitionField{SourceIDs: []int{3}, FieldID: 1002, Name: "ts_day", Transform: iceberg.DayTransform{}},
	)
	tbl, err := cat.CreateTable(ctx, table.Identifier{"ns", "ext"}, schema, catalog.WithPartitionSpec(&spec),
		catalog.WithProperties(iceberg.Properties{table.WriteDeleteModeKey: "merge-on-read"}))
	if err != nil {
		t.Fatal(err)
	}
	asch := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "k", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Microsecond}, Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, asch)
	defer b.Release()
	const start = 1714521600_000000 // 2024-05-01 00:00:00 in microseconds since 1970
	for g := int64(0); g < 2000; g++ {
		b.Field(0).(*array.Int64Builder).Append(g)
		b.Field(1).(*array.StringBuilder).Append(fmt.Sprintf("key%d", g%23))
		b.Field(2).(*array.TimestampBuilder).Append(arrow.Timestamp(start + g*41*60_000000))
	}
	rec := b.NewRecord()
	defer rec.Release()
	at := array.NewTableFromRecords(asch, []arrow.Record{rec})
	defer at.Release()
	if _, err := tbl.AppendTable(ctx, at, 2000, nil); err != nil {
		t.Fatal(err)
	}
}
