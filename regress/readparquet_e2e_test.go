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
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/jackc/pgx/v5"

	"github.com/joind/joind/regress/joindtest"
	"github.com/joind/joind/regress/oracle"
)

// rpRows is how many rows the read_parquet test file has, in row groups
// of rpGroup rows.
const (
	rpRows  = 20000
	rpGroup = 2500
)

// rpColumns is the PostgreSQL table that holds the file's rows.
const rpColumns = `i2 smallint, i4 integer, i8 bigint, s text, d date, tz timestamp with time zone,
	ts timestamp, n numeric(12,3), f double precision, ok boolean, b bytea`

// writeRPFile writes the test rows as Parquet (with another writer than
// joind's: arrow-go directly, millisecond timestamps, small row groups) and
// the same rows as CSV for PostgreSQL.
func writeRPFile(t *testing.T, path string) []byte {
	t.Helper()
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "i2", Type: arrow.PrimitiveTypes.Int16, Nullable: true},
		{Name: "i4", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "i8", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "d", Type: arrow.FixedWidthTypes.Date32, Nullable: true},
		{Name: "tz", Type: &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}, Nullable: true},
		{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Millisecond}, Nullable: true},
		{Name: "n", Type: &arrow.Decimal128Type{Precision: 12, Scale: 3}, Nullable: true},
		{Name: "f", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "ok", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
		{Name: "b", Type: arrow.BinaryTypes.Binary, Nullable: true},
	}, nil)
	bld := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	var csv bytes.Buffer
	for r := 0; r < rpRows; r++ {
		null := r%11 == 5 // one row in 11 has NULLs in the nullable columns
		bld.Field(0).(*array.Int16Builder).Append(int16(r%300 - 150))
		bld.Field(1).(*array.Int32Builder).Append(int32(r))
		bld.Field(2).(*array.Int64Builder).Append(int64(r) * 1_000_003)
		day := int32(18000 + r/10)
		micros := int64(day)*86_400_000_000 + int64(r%86400)*1_000_000
		ms := int64(r) * 60_000
		unscaled := int64(r)*1237 - 5_000_000
		var fields []string
		fields = append(fields, fmt.Sprint(r%300-150), fmt.Sprint(r), fmt.Sprint(int64(r)*1_000_003))
		if null {
			for c := 3; c < 11; c++ {
				bld.Field(c).AppendNull()
			}
			fields = append(fields, "", "", "", "", "", "", "", "")
		} else {
			s := fmt.Sprintf("k%03d", r%500)
			bld.Field(3).(*array.StringBuilder).Append(s)
			bld.Field(4).(*array.Date32Builder).Append(arrow.Date32(day))
			bld.Field(5).(*array.TimestampBuilder).Append(arrow.Timestamp(micros))
			bld.Field(6).(*array.TimestampBuilder).Append(arrow.Timestamp(ms))
			bld.Field(7).(*array.Decimal128Builder).Append(decimal128.FromI64(unscaled))
			bld.Field(8).(*array.Float64Builder).Append(float64(r) / 8)
			bld.Field(9).(*array.BooleanBuilder).Append(r%3 == 0)
			bld.Field(10).(*array.BinaryBuilder).Append([]byte{byte(r), byte(r >> 8), 0})
			sign := ""
			if unscaled < 0 {
				sign, unscaled = "-", -unscaled
			}
			fields = append(fields, s,
				fmt.Sprintf("epoch_day:%d", day), fmt.Sprintf("epoch_us:%d", micros), fmt.Sprintf("epoch_ms:%d", ms),
				fmt.Sprintf("%s%d.%03d", sign, unscaled/1000, unscaled%1000), fmt.Sprint(float64(r)/8),
				fmt.Sprint(r%3 == 0), fmt.Sprintf("\\x%02x%02x00", byte(r), byte(r>>8)))
		}
		csv.WriteString(strings.Join(fields, ",") + "\n")
	}
	rec := bld.NewRecord()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w, err := pqarrow.NewFileWriter(schema, f, parquet.NewWriterProperties(parquet.WithMaxRowGroupLength(rpGroup)), pqarrow.DefaultWriterProps())
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return csv.Bytes()
}

// rawResult is a statement's rows as the text PostgreSQL sends, or its
// error's SQLSTATE and message.
func rawResult(ctx context.Context, c *pgx.Conn, sql string) string {
	res, err := c.PgConn().Exec(ctx, sql).ReadAll()
	if err != nil {
		return describeErr(err)
	}
	var out []string
	for _, r := range res {
		for _, row := range r.Rows {
			var cells []string
			for _, v := range row {
				if v == nil {
					cells = append(cells, "NULL")
				} else {
					cells = append(cells, string(v))
				}
			}
			out = append(out, strings.Join(cells, "|"))
		}
	}
	return strings.Join(out, "\n")
}

// TestE2EReadParquet: read_parquet over a file another writer made answers
// what PostgreSQL answers over the same rows in a table — filters on every
// kind of column (which row-group statistics may skip), aggregates, joins
// with a stored table, NOT IN over the file's NULLs, ORDER BY/LIMIT —
// and EXPLAIN ANALYZE shows the row groups the statistics skipped.
func TestE2EReadParquet(t *testing.T) {
	dir := t.TempDir()
	csv := writeRPFile(t, filepath.Join(dir, "rp.parquet"))

	pg := oracle.Start(t)
	pg.CreateDatabase(t, "readparquet")
	pgc := connect(t, endpoint{name: "postgres", dsn: pg.DSNFor("readparquet")})
	mustExec(t, pgc, "DROP TABLE IF EXISTS rp, rp_keys")
	mustExec(t, pgc, "CREATE TABLE rp ("+rpColumns+")")
	// PostgreSQL has no epoch-number input for these types: convert in a
	// staging table of text.
	mustExec(t, pgc, "CREATE TEMP TABLE rp_in (i2 text, i4 text, i8 text, s text, d text, tz text, ts text, n text, f text, ok text, b text)")
	if _, err := pgc.PgConn().CopyFrom(ctxT(t), bytes.NewReader(csv), "COPY rp_in FROM STDIN (FORMAT csv)"); err != nil {
		t.Fatal(err)
	}
	epoch := func(col, unit, typ string) string {
		return fmt.Sprintf("(timestamptz 'epoch' + split_part(%s, ':', 2)::bigint * interval '1 %s')::%s", col, unit, typ)
	}
	mustExec(t, pgc, "INSERT INTO rp SELECT i2::smallint, i4::int, i8::bigint, s, "+
		"(date 'epoch' + split_part(d, ':', 2)::int), "+epoch("tz", "microsecond", "timestamptz")+", "+
		epoch("ts", "millisecond", "timestamp")+", n::numeric, f::float8, ok::boolean, b::bytea FROM rp_in")
	j := joindtest.StartJoind(t, "--copy-dirs", dir)
	jc := connect(t, endpoint{name: "joind", dsn: j.DSN()})
	for _, c := range []*pgx.Conn{pgc, jc} {
		mustExec(t, c, "SET TimeZone = 'UTC'")
		mustExec(t, c, "CREATE TABLE rp_keys (k text, v int)")
		mustExec(t, c, "INSERT INTO rp_keys SELECT 'k' || lpad(g::text, 3, '0'), g FROM generate_series(0, 600, 7) g")
		mustExec(t, c, "INSERT INTO rp_keys VALUES (NULL, -1)")
	}
	queries := []string{
		"SELECT count(*), count(s), sum(i2), sum(i4), sum(i8), min(s), max(s), min(d), max(d), min(tz), max(ts), sum(n), min(n), count(*) FILTER (WHERE ok), max(b) FROM {T}",
		"SELECT i4, s, d, tz, ts, n, f, ok, b FROM {T} WHERE i4 BETWEEN 7490 AND 7510 ORDER BY i4",
		"SELECT count(*), sum(n) FROM {T} WHERE i8 > 15000000000",
		"SELECT count(*) FROM {T} WHERE d < date '2019-04-01'",
		"SELECT count(*), min(i4) FROM {T} WHERE tz >= timestamptz '2019-05-01 00:00:00+00'",
		"SELECT count(*) FROM {T} WHERE ts < timestamp '1970-01-05'",
		"SELECT count(*) FROM {T} WHERE s IS NULL AND i4 < 5000",
		"SELECT i2, count(*), sum(i4) FROM {T} WHERE i2 < -140 GROUP BY i2 ORDER BY i2",
		"SELECT k.k, count(p.*) FROM rp_keys k LEFT JOIN {T} p ON p.s = k.k GROUP BY k.k ORDER BY k.k LIMIT 12",
		"SELECT count(*) FROM rp_keys WHERE k NOT IN (SELECT s FROM {T})",
		"SELECT count(*) FROM rp_keys WHERE k NOT IN (SELECT s FROM {T} WHERE s IS NOT NULL)",
		"SELECT v FROM rp_keys WHERE v NOT IN (SELECT i2 FROM {T} WHERE i2 IS NOT NULL) ORDER BY v LIMIT 5",
		"SELECT i4, n FROM {T} WHERE n IS NOT NULL ORDER BY n DESC, i4 LIMIT 3",
		"SELECT x.i4 FROM {T} x WHERE x.i4 % 2999 = 0 ORDER BY 1",
	}
	for _, q := range queries {
		want := rawResult(ctxT(t), pgc, strings.ReplaceAll(q, "{T}", "rp"))
		got := rawResult(ctxT(t), jc, strings.ReplaceAll(q, "{T}", "read_parquet('rp.parquet')"))
		if got != want {
			t.Errorf("%s\n joind:\n%s\n postgres:\n%s", q, got, want)
		}
	}
	// The statistics skip row groups: i4 is the row number, 2,500 a group.
	plan := rawResult(ctxT(t), jc, "EXPLAIN ANALYZE SELECT count(*) FROM read_parquet('rp.parquet') WHERE i4 < 100")
	if !strings.Contains(plan, "row groups skipped: 7 of 8") || !strings.Contains(plan, "Foreign File: "+filepath.Join(dir, "rp.parquet")) {
		t.Errorf("EXPLAIN ANALYZE should show 7 of 8 row groups skipped and the file:\n%s", plan)
	}
	// A file joind wrote reads back the same.
	mustExec(t, jc, "COPY (SELECT * FROM read_parquet('rp.parquet') WHERE i4 % 3 = 0) TO 'again.parquet' (FORMAT parquet)")
	q := "SELECT count(*), sum(i4), sum(n), min(tz), max(s) FROM {T}"
	want := rawResult(ctxT(t), pgc, strings.ReplaceAll(q, "{T}", "rp WHERE i4 % 3 = 0"))
	if got := rawResult(ctxT(t), jc, strings.ReplaceAll(q, "{T}", "read_parquet('again.parquet')")); got != want {
		t.Errorf("joind-written file: joind %s, postgres %s", got, want)
	}
	// A pattern reads every file it matches as one table; files of other
	// columns are refused.
	raw, err := os.ReadFile(filepath.Join(dir, "rp.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "rp_copy.parquet"), raw, 0o644); err != nil {
		t.Fatal(err)
	}
	q = "SELECT count(*), sum(i4), count(DISTINCT s) FROM {T} WHERE i4 >= 19000"
	want = rawResult(ctxT(t), pgc, strings.ReplaceAll(q, "{T}", "(SELECT * FROM rp UNION ALL SELECT * FROM rp) u"))
	if got := rawResult(ctxT(t), jc, strings.ReplaceAll(q, "{T}", "read_parquet('rp*.parquet')")); got != want {
		t.Errorf("two files by pattern: joind %s, postgres %s", got, want)
	}
	if got := rawResult(ctxT(t), jc, "SELECT count(*) FROM read_parquet('*.parquet')"); !strings.HasPrefix(got, "ERROR 42804") {
		t.Errorf("files of other columns: %s", got)
	}
	// Errors, as COPY's for the same files.
	for q, want := range map[string]string{
		"SELECT * FROM read_parquet('missing.parquet')":                                  "ERROR 58P01",
		"SELECT * FROM read_parquet('/etc/passwd')":                                      "ERROR 42501",
		"SELECT * FROM read_parquet(NULL)":                                               "ERROR 22004",
		"SELECT * FROM read_parquet('rp.parquet') t(a, b, c, d, e, f, g, h, i, j, k, l)": "ERROR 42P10",
		"SELECT * FROM read_parquet('rp.parquet', 1)":                                    "ERROR 42883",
	} {
		if got := rawResult(ctxT(t), jc, q); !strings.HasPrefix(got, want) {
			t.Errorf("%s: %s, want %s", q, got, want)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "junk.parquet"), []byte("PAR1 but not really"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := rawResult(ctxT(t), jc, "SELECT * FROM read_parquet('junk.parquet')"); !strings.HasPrefix(got, "ERROR 22P04") {
		t.Errorf("junk file: %s", got)
	}
	// The server still serves.
	if got := rawResult(ctxT(t), jc, "SELECT count(*) FROM read_parquet('rp.parquet') t(a)"); got != fmt.Sprint(rpRows) {
		t.Errorf("count after errors: %s", got)
	}
}
