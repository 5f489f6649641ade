package regress

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/catalog"
	"github.com/apache/iceberg-go/catalog/hadoop"
	icebergio "github.com/apache/iceberg-go/io"
	"github.com/apache/iceberg-go/table"
	"github.com/jackc/pgx/v5"

	"github.com/joind/joind/regress/joindtest"
	"github.com/joind/joind/regress/oracle"
)

// icebergRow is one row of the Iceberg test table, in its final schema.
type icebergRow struct {
	id     int64
	k      *string
	day    int32 // days since 1970-01-01 (the partition)
	amount float64
	ts     int64 // microseconds since 1970-01-01
	note   *string
}

func icebergRows(from, to int64, second bool) []icebergRow {
	var out []icebergRow
	for id := from; id < to; id++ {
		r := icebergRow{id: id, amount: float64(id) / 4, ts: 1_600_000_000_000_000 + id*3_600_000_000}
		if id%13 != 3 {
			k := fmt.Sprintf("k%02d", id%37)
			r.k = &k
		}
		r.day = 19000 + int32(id%5)
		if second {
			r.day = 19005 + int32(id%3)
			if id%9 != 2 {
				n := fmt.Sprintf("n%d", id%7)
				r.note = &n
			}
		}
		out = append(out, r)
	}
	return out
}

// icebergBatch is rows as an Arrow table of the writer's schema (before the
// evolution step: no note, amount still named v).
func icebergBatch(rows []icebergRow, second bool) arrow.Table {
	amount := "v"
	fields := []arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "k", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "d", Type: arrow.FixedWidthTypes.Date32, Nullable: true},
		{Name: amount, Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Microsecond}, Nullable: true},
	}
	if second {
		fields[3].Name = "amount"
		fields = append(fields, arrow.Field{Name: "note", Type: arrow.BinaryTypes.String, Nullable: true})
	}
	schema := arrow.NewSchema(fields, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	str := func(f int, s *string) {
		if s == nil {
			b.Field(f).AppendNull()
		} else {
			b.Field(f).(*array.StringBuilder).Append(*s)
		}
	}
	for _, r := range rows {
		b.Field(0).(*array.Int64Builder).Append(r.id)
		str(1, r.k)
		b.Field(2).(*array.Date32Builder).Append(arrow.Date32(r.day))
		b.Field(3).(*array.Float64Builder).Append(r.amount)
		b.Field(4).(*array.TimestampBuilder).Append(arrow.Timestamp(r.ts))
		if second {
			str(5, r.note)
		}
	}
	rec := b.NewRecord()
	defer rec.Release()
	return array.NewTableFromRecords(schema, []arrow.Record{rec})
}

// writeIcebergTable writes table ns.events with iceberg-go's own writer
// (its Hadoop catalog: warehouse/ns/events, version-hint.text): a first
// append partitioned by day, a schema evolution step (a column added, one
// renamed), a second append, and a delete of key k05 — and returns the
// table's final rows, the first append's rows and its snapshot.
func writeIcebergTable(t *testing.T, ctx context.Context, warehouse string) ([]icebergRow, []icebergRow, int64) {
	t.Helper()
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
		iceberg.NestedField{ID: 3, Name: "d", Type: iceberg.PrimitiveTypes.Date},
		iceberg.NestedField{ID: 4, Name: "v", Type: iceberg.PrimitiveTypes.Float64},
		iceberg.NestedField{ID: 5, Name: "ts", Type: iceberg.PrimitiveTypes.Timestamp},
	)
	spec := iceberg.NewPartitionSpec(iceberg.PartitionField{SourceIDs: []int{3}, FieldID: 1000, Name: "d", Transform: iceberg.IdentityTransform{}})
	tbl, err := cat.CreateTable(ctx, table.Identifier{"ns", "events"}, schema, catalog.WithPartitionSpec(&spec),
		catalog.WithProperties(iceberg.Properties{table.WriteDeleteModeKey: "merge-on-read"}))
	if err != nil {
		t.Fatal(err)
	}
	first := icebergRows(0, 1000, false)
	if tbl, err = tbl.AppendTable(ctx, icebergBatch(first, false), 1000, nil); err != nil {
		t.Fatal(err)
	}
	firstSnap := tbl.CurrentSnapshot().SnapshotID
	txn := tbl.NewTransaction()
	if err := txn.UpdateSchema(true, false).AddColumn([]string{"note"}, iceberg.PrimitiveTypes.String, "", false, nil).
		RenameColumn([]string{"v"}, "amount").Commit(); err != nil {
		t.Fatal(err)
	}
	if tbl, err = txn.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	second := icebergRows(1000, 1500, true)
	if tbl, err = tbl.AppendTable(ctx, icebergBatch(second, true), 1000, nil); err != nil {
		t.Fatal(err)
	}
	if _, err = tbl.Delete(ctx, iceberg.EqualTo(iceberg.Reference("k"), "k05"), nil); err != nil {
		t.Fatal(err)
	}
	var out []icebergRow
	for _, r := range append(first, second...) {
		if r.k == nil || *r.k != "k05" {
			out = append(out, r)
		}
	}
	return out, first, firstSnap
}

// icebergCSV is rows as CSV for PostgreSQL's COPY (empty = NULL).
func icebergCSV(rows []icebergRow) []byte {
	var b bytes.Buffer
	opt := func(s *string) string {
		if s == nil {
			return ""
		}
		return *s
	}
	for _, r := range rows {
		fmt.Fprintf(&b, "%d,%s,%d,%v,%d,%s\n", r.id, opt(r.k), r.day, r.amount, r.ts, opt(r.note))
	}
	return b.Bytes()
}

// loadIcebergOracle creates table name in PostgreSQL with rows.
func loadIcebergOracle(t *testing.T, pgc *pgx.Conn, name string, rows []icebergRow) {
	t.Helper()
	mustExec(t, pgc, "DROP TABLE IF EXISTS "+name)
	mustExec(t, pgc, "CREATE TABLE "+name+" (id bigint, k text, d date, amount double precision, ts timestamp, note text)")
	mustExec(t, pgc, "CREATE TEMP TABLE events_in (id bigint, k text, d int, amount float8, ts bigint, note text)")
	if _, err := pgc.PgConn().CopyFrom(ctxT(t), bytes.NewReader(icebergCSV(rows)), "COPY events_in FROM STDIN (FORMAT csv)"); err != nil {
		t.Fatal(err)
	}
	mustExec(t, pgc, "INSERT INTO "+name+" SELECT id, k, date 'epoch' + d, amount, timestamp 'epoch' + ts * interval '1 microsecond', note FROM events_in")
	mustExec(t, pgc, "DROP TABLE events_in")
}

// icebergQueries compare joind's foreign table with PostgreSQL's table.
var icebergQueries = []string{
	"SELECT count(*), count(k), count(note), sum(id), sum(amount), min(d), max(d), min(ts), max(ts) FROM {T}",
	"SELECT d, count(*), sum(id), count(note) FROM {T} GROUP BY d ORDER BY d",
	"SELECT id, k, d, amount, ts, note FROM {T} WHERE id BETWEEN 995 AND 1006 ORDER BY id",
	"SELECT count(*), sum(amount) FROM {T} WHERE d = date '2022-01-08'",
	"SELECT count(*) FROM {T} WHERE d >= date '2022-01-12' AND id < 1100",
	"SELECT note, count(*) FROM {T} GROUP BY note ORDER BY note NULLS FIRST",
	"SELECT k, count(*) FROM {T} WHERE k IN ('k04', 'k05', 'k06') GROUP BY k ORDER BY k",
	"SELECT count(*) FROM {T} WHERE k IS NULL",
	"SELECT id, note FROM {T} WHERE ts > timestamp '2020-11-13' ORDER BY id DESC LIMIT 5",
	"SELECT count(*) FROM {T} t1 JOIN {T} t2 ON t1.id = t2.id + 1 WHERE t1.d = date '2022-01-10'",
}

// TestE2EIcebergAttach: an Iceberg table iceberg-go wrote (partitioned,
// its schema evolved, a merge-on-read delete) attached as a foreign table
// answers what PostgreSQL answers over the same rows; a filter on the
// partition column skips data files from the manifests' metadata; the
// declared-columns form reads the columns it names.
func TestE2EIcebergAttach(t *testing.T) {
	dir := t.TempDir()
	ctx := ctxT(t)
	rows, first, firstSnap := writeIcebergTable(t, ctx, filepath.Join(dir, "wh"))

	pg := oracle.Start(t)
	pg.CreateDatabase(t, "iceberg")
	pgc := connect(t, endpoint{name: "postgres", dsn: pg.DSNFor("iceberg")})
	loadIcebergOracle(t, pgc, "events", rows)

	j := joindtest.StartJoind(t, "--copy-dirs", dir)
	jc := connect(t, endpoint{name: "joind", dsn: j.DSN()})
	mustExec(t, jc, "CREATE EXTENSION iceberg")
	mustExec(t, jc, "CREATE SERVER lake FOREIGN DATA WRAPPER iceberg")
	mustExec(t, jc, "CREATE FOREIGN TABLE events () SERVER lake OPTIONS (location 'wh/ns/events')")
	want := rawResult(ctxT(t), pgc, "SELECT attname, format_type(atttypid, atttypmod) FROM pg_attribute WHERE attrelid = 'events'::regclass AND attnum > 0 ORDER BY attnum")
	if got := rawResult(ctxT(t), jc, "SELECT attname, format_type(atttypid, atttypmod) FROM pg_attribute WHERE attrelid = 'events'::regclass AND attnum > 0 ORDER BY attnum"); got != want {
		t.Errorf("columns from the Iceberg schema:\n joind:\n%s\n postgres:\n%s", got, want)
	}
	for _, q := range icebergQueries {
		want := rawResult(ctxT(t), pgc, strings.ReplaceAll(q, "{T}", "events"))
		if got := rawResult(ctxT(t), jc, strings.ReplaceAll(q, "{T}", "events")); got != want {
			t.Errorf("%s\n joind:\n%s\n postgres:\n%s", q, got, want)
		}
	}
	// Eight days, one data file per day and append: 5 + 3 files. The
	// manifests' bounds on d leave one.
	plan := rawResult(ctxT(t), jc, "EXPLAIN ANALYZE SELECT count(*) FROM events WHERE d = date '2022-01-08'")
	if !strings.Contains(plan, "row groups skipped: 7 of 8") {
		t.Errorf("EXPLAIN ANALYZE should show 7 of 8 data files skipped:\n%s", plan)
	}
	// Declared columns: a subset, by name, in another order.
	mustExec(t, jc, "CREATE FOREIGN TABLE ev2 (note text, id bigint) SERVER lake OPTIONS (location 'wh/ns/events')")
	q := "SELECT note, id FROM {T} WHERE id % 97 = 0 ORDER BY id"
	if got, want := rawResult(ctxT(t), jc, strings.ReplaceAll(q, "{T}", "ev2")), rawResult(ctxT(t), pgc, strings.ReplaceAll(q, "{T}", "events")); got != want {
		t.Errorf("declared columns:\n joind:\n%s\n postgres:\n%s", got, want)
	}
	// Time travel: the first append's snapshot, in its own schema (v, not
	// amount; no note), before the delete; read-only.
	loadIcebergOracle(t, pgc, "events_v1", first)
	mustExec(t, jc, fmt.Sprintf("CREATE FOREIGN TABLE ev_first () SERVER lake OPTIONS (location 'wh/ns/events', snapshot_id '%d')", firstSnap))
	q = "SELECT count(*), count(k), sum({v}), min(ts), max(d) FROM {T}"
	want = rawResult(ctxT(t), pgc, strings.NewReplacer("{v}", "amount", "{T}", "events_v1").Replace(q))
	if got := rawResult(ctxT(t), jc, strings.NewReplacer("{v}", "v", "{T}", "ev_first").Replace(q)); got != want {
		t.Errorf("snapshot_id:\n joind:\n%s\n postgres:\n%s", got, want)
	}
	if got := rawResult(ctxT(t), jc, "INSERT INTO ev_first (id) VALUES (1)"); !strings.HasPrefix(got, "ERROR 0A000") {
		t.Errorf("append to a snapshot: %s", got)
	}
	// A metadata file may be named instead of the directory: the first
	// version has no snapshot, so no rows.
	mustExec(t, jc, "CREATE FOREIGN TABLE ev_v1 () SERVER lake OPTIONS (location 'wh/ns/events/metadata/v1.metadata.json')")
	if got := rawResult(ctxT(t), jc, "SELECT count(*) FROM ev_v1"); got != "0" {
		t.Errorf("empty first version: %s", got)
	}
	for _, c := range [][2]string{
		{"CREATE FOREIGN TABLE bad1 (x int) SERVER lake OPTIONS (location 'wh/ns/events')", ""}, // checked at scan
		{"SELECT * FROM bad1", "ERROR 42703"},
		{"CREATE FOREIGN TABLE bad2 (id int) SERVER lake OPTIONS (location 'wh/ns/events')", ""},
		{"SELECT * FROM bad2", "ERROR 42804"},
		{"CREATE FOREIGN TABLE bad3 () SERVER lake OPTIONS (filename 'x')", "ERROR HV00D"},
		{"CREATE FOREIGN TABLE bad4 () SERVER lake", "ERROR HV002"},
		{"CREATE FOREIGN TABLE bad5 () SERVER lake OPTIONS (location '/etc')", "ERROR 42501"},
		{"CREATE FOREIGN TABLE bad6 () SERVER lake OPTIONS (location 'wh/ns')", "ERROR 58P01"},
		{"CREATE SERVER other FOREIGN DATA WRAPPER file_fdw", "ERROR 42704"},
		{"CREATE FOREIGN TABLE bad7 () SERVER lake OPTIONS (location 'gs://bucket/t')", "ERROR 0A000"},
		{"CREATE FOREIGN TABLE bad7 () SERVER lake OPTIONS (location 's3://bucket/t')", "ERROR 42501"},
		{"CREATE FOREIGN TABLE bad10 () SERVER lake OPTIONS (location 'wh/ns/events', snapshot_id 'x')", "ERROR 22023"},
		{"CREATE FOREIGN TABLE bad11 () SERVER lake OPTIONS (location 'wh/ns/events', snapshot_id '42')", "ERROR 22023"},
		{"CREATE FOREIGN TABLE bad8 (x int) SERVER lake OPTIONS (location 'gs://bucket/t')", "ERROR 0A000"},
		{"CREATE FOREIGN TABLE bad9 (x varchar(3)) SERVER lake OPTIONS (location 'newtable')", "ERROR 0A000"},
		{"TRUNCATE events", "ERROR 0A000"},
	} {
		q, code := c[0], c[1]
		got := rawResult(ctxT(t), jc, q)
		if (code == "" && strings.HasPrefix(got, "ERROR")) || !strings.HasPrefix(got, code) {
			t.Errorf("%s: %s, want %q", q, got, code)
		}
	}
}

// TestE2EIcebergAppend: INSERT into an attached Iceberg table appends
// snapshots that joind (also after a restart), iceberg-go and PostgreSQL's
// answers over the same rows agree on; a rolled-back INSERT leaves the
// table as it was; the directory's versions are left to their writer.
func TestE2EIcebergAppend(t *testing.T) {
	dir := t.TempDir()
	rows, _, _ := writeIcebergTable(t, ctxT(t), filepath.Join(dir, "wh"))

	pg := oracle.Start(t)
	pg.CreateDatabase(t, "iceberg_append")
	pgc := connect(t, endpoint{name: "postgres", dsn: pg.DSNFor("iceberg_append")})
	loadIcebergOracle(t, pgc, "events", rows)

	data := t.TempDir()
	j := joindtest.StartJoindWithDataDir(t, data, "--copy-dirs", dir)
	jc := connect(t, endpoint{name: "joind", dsn: j.DSN()})
	mustExec(t, jc, "CREATE EXTENSION iceberg")
	mustExec(t, jc, "CREATE SERVER lake FOREIGN DATA WRAPPER iceberg")
	mustExec(t, jc, "CREATE FOREIGN TABLE events () SERVER lake OPTIONS (location 'wh/ns/events')")
	inserts := []string{
		"INSERT INTO events VALUES (5000, 'k01', date '2022-01-09', 1.5, timestamp '2021-03-04 05:06:07', 'joind')",
		"INSERT INTO events (id, d, note) SELECT g, date '2022-02-01' + (g % 4), 'g' || (g % 3) FROM generate_series(6000, 6999) g",
		"INSERT INTO events (k, id, amount) VALUES ('k99', 7000, -2), (NULL, 7001, NULL)",
	}
	for _, q := range inserts {
		mustExec(t, pgc, q)
		if got, want := rawResult(ctxT(t), jc, q), rawResult(ctxT(t), pgc, "SELECT"); got != want {
			t.Fatalf("%s: %s", q, got)
		}
	}
	// COPY FROM appends too.
	var csv bytes.Buffer
	for i := 8000; i < 8300; i++ {
		fmt.Fprintf(&csv, "%d,k%02d,%d.5,c%d\n", i, i%41, i%50, i%4)
	}
	if err := os.WriteFile(filepath.Join(dir, "more.csv"), csv.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := pgc.PgConn().CopyFrom(ctxT(t), bytes.NewReader(csv.Bytes()), "COPY events (id, k, amount, note) FROM STDIN (FORMAT csv)"); err != nil {
		t.Fatal(err)
	}
	if got := rawResult(ctxT(t), jc, "COPY events (id, k, amount, note) FROM 'more.csv' (FORMAT csv)"); got != "" {
		t.Fatalf("COPY FROM: %s", got)
	}
	mustExec(t, jc, "BEGIN")
	mustExec(t, jc, "INSERT INTO events (id) SELECT generate_series(1, 10)")
	if got := rawResult(ctxT(t), jc, "SELECT count(*) FROM events WHERE id <= 10"); got != rawResult(ctxT(t), pgc, "SELECT count(*) + 10 FROM events WHERE id <= 10") {
		t.Errorf("the transaction's own append unseen: %s", got)
	}
	mustExec(t, jc, "ROLLBACK")
	compare := func(when string) {
		for _, q := range append(icebergQueries, "SELECT * FROM {T} WHERE id >= 5000 AND id % 50 = 1 ORDER BY id") {
			want := rawResult(ctxT(t), pgc, strings.ReplaceAll(q, "{T}", "events"))
			if got := rawResult(ctxT(t), jc, strings.ReplaceAll(q, "{T}", "events")); got != want {
				t.Errorf("%s: %s\n joind:\n%s\n postgres:\n%s", when, q, got, want)
			}
		}
	}
	compare("after the appends")
	meta := rawResult(ctxT(t), jc, "SELECT option_value FROM pg_options_to_table((SELECT ftoptions FROM pg_foreign_table WHERE ftrelid = 'events'::regclass)) WHERE option_name = 'metadata_file'")
	if !strings.Contains(meta, "-joind-") {
		t.Fatalf("metadata_file option: %q", meta)
	}
	// iceberg-go reads the table joind committed.
	tbl, err := table.NewFromLocation(ctxT(t), table.Identifier{"ns", "events"}, meta, icebergLocalFS, nil)
	if err != nil {
		t.Fatal(err)
	}
	at, err := tbl.Scan().ToArrowTable(ctxT(t))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := fmt.Sprint(at.NumRows()), rawResult(ctxT(t), pgc, "SELECT count(*) FROM events"); got != want {
		t.Errorf("iceberg-go counts %s rows, PostgreSQL %s", got, want)
	}
	at.Release()
	// The pointer is joind's catalog's: it survives a restart.
	j.Stop()
	j = joindtest.StartJoindWithDataDir(t, data, "--copy-dirs", dir)
	jc = connect(t, endpoint{name: "joind", dsn: j.DSN()})
	compare("after a restart")
	if got := rawResult(ctxT(t), jc, "INSERT INTO events VALUES (1) ON CONFLICT DO NOTHING"); !strings.HasPrefix(got, "ERROR 0A000") {
		t.Errorf("ON CONFLICT: %s", got)
	}

	// A table joind creates: every type it can store, written and read
	// back; a second foreign table over it naming two of its columns
	// appends rows whose other columns are NULL, and both see all appends.
	const cols = "a int, b real, c bytea, d timestamptz, e numeric(20,4), f boolean, g text, h date, i double precision"
	mustExec(t, pgc, "CREATE TABLE typed ("+cols+")")
	mustExec(t, jc, "CREATE FOREIGN TABLE typed ("+cols+") SERVER lake OPTIONS (location 'typed')")
	mustExec(t, jc, "CREATE FOREIGN TABLE typed2 (g text, a int) SERVER lake OPTIONS (location 'typed')")
	for _, c := range []*pgx.Conn{pgc, jc} {
		mustExec(t, c, "SET TimeZone = 'UTC'")
	}
	for _, q := range []string{
		"INSERT INTO typed VALUES (1, 1.5, '\\x00ff', '2024-02-29 12:34:56.789+00', 1234567890123.4567, true, 'é', '2000-01-01', -0.125), " +
			"(NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL), (-2, -3.25, '', '1969-12-31 23:59:59+00', -0.0001, false, '', '1900-03-01', 1e300)",
		"INSERT INTO typed SELECT g, g / 3.0, decode(lpad(to_hex(g), 4, '0'), 'hex'), timestamptz '2020-01-01 00:00:00+00' + g * interval '1 hour', g * 1.0001, g % 2 = 0, 'r' || g, date '2020-01-01' + g, g * 0.5 FROM generate_series(10, 500) g",
	} {
		mustExec(t, pgc, q)
		mustExec(t, jc, q)
	}
	// A partitioned table joind creates: one data file per day, skipped by
	// the partition's bounds.
	mustExec(t, pgc, "CREATE TABLE parted (id bigint, day date, v int)")
	mustExec(t, jc, "CREATE FOREIGN TABLE parted (id bigint, day date, v int) SERVER lake OPTIONS (location 'parted', partition_by 'day')")
	q := "INSERT INTO parted SELECT g, date '2024-01-01' + g % 4, g % 10 FROM generate_series(1, 1000) g"
	mustExec(t, pgc, q)
	mustExec(t, jc, q)
	q = "SELECT day, count(*), sum(v) FROM parted WHERE day >= date '2024-01-03' GROUP BY day ORDER BY day"
	if got, want := rawResult(ctxT(t), jc, q), rawResult(ctxT(t), pgc, q); got != want {
		t.Errorf("partitioned:\n joind:\n%s\n postgres:\n%s", got, want)
	}
	if plan := rawResult(ctxT(t), jc, "EXPLAIN ANALYZE SELECT count(*) FROM parted WHERE day = date '2024-01-02'"); !strings.Contains(plan, "row groups skipped: 3 of 4") {
		t.Errorf("EXPLAIN ANALYZE should show 3 of 4 data files skipped:\n%s", plan)
	}
	if m, _ := filepath.Glob(filepath.Join(dir, "parted", "data", "day=*")); len(m) != 4 {
		t.Errorf("partition directories: %v", m)
	}
	if got := rawResult(ctxT(t), jc, "CREATE FOREIGN TABLE parted2 (id bigint) SERVER lake OPTIONS (location 'parted', partition_by 'id')"); !strings.HasPrefix(got, "ERROR HV00D") {
		t.Errorf("partition_by on an existing table: %s", got)
	}
	mustExec(t, pgc, "INSERT INTO typed (g, a) VALUES ('only', 7)")
	mustExec(t, jc, "INSERT INTO typed2 VALUES ('only', 7)")
	for _, q := range []string{
		"SELECT * FROM typed ORDER BY a NULLS FIRST, g",
		"SELECT count(*), sum(a), sum(b), sum(e), min(d), max(h), sum(i), count(*) FILTER (WHERE f), max(c), max(g) FROM typed",
		"SELECT a, g FROM typed WHERE a BETWEEN 5 AND 20 ORDER BY a",
		"SELECT count(*), sum(a), max(g) FROM {2}",
	} {
		want := rawResult(ctxT(t), pgc, strings.ReplaceAll(q, "{2}", "typed"))
		if got := rawResult(ctxT(t), jc, strings.ReplaceAll(q, "{2}", "typed2")); got != want {
			t.Errorf("%s\n joind:\n%s\n postgres:\n%s", q, got, want)
		}
	}
}

func icebergLocalFS(context.Context) (icebergio.IO, error) { return icebergio.LocalFS{}, nil }
