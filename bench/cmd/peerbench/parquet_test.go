package main

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Parquet between joind and DuckDB: a file joind writes (COPY ... TO
// (FORMAT parquet)) reads back in DuckDB with the intended types and
// values, and a file DuckDB writes loads into joind. It builds and starts
// joind from JOIND_SRC (default: this repository).
func TestParquetWithDuckDB(t *testing.T) {
	p := startDuckPair(t)
	ctx, tmp, j, d, exec, query := p.ctx, p.tmp, p.j, p.d, p.exec, p.query

	// joind → DuckDB.
	exec(j, `CREATE TABLE pj (b boolean, i2 smallint, i4 int, i8 bigint, f8 double precision, n numeric(12,3),
		u numeric, t text, d date, ts timestamp, tz timestamptz, iv interval)`)
	exec(j, `INSERT INTO pj VALUES
		(true, -7, 1, 9000000000, 0.5, 123456789.125, 1.5, 'a,"b"', '2024-02-29', '2024-02-29 12:34:56.789012', '2001-02-03 04:05:06+00', '1 day'),
		(NULL, NULL, 2, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
		(false, 32767, 3, -1, -2.25, -0.001, 1e20, '', '1970-01-01', '1970-01-01 00:00:00', '1970-01-01 00:00:00+00', '-3 mons')`)
	file := filepath.Join(tmp, "pj.parquet")
	exec(j, "COPY pj TO '"+file+"' (FORMAT parquet)")
	got := query(d, "SELECT typeof(b), typeof(i2), typeof(i4), typeof(i8), typeof(f8), typeof(n), typeof(u), typeof(t), typeof(d), typeof(ts), typeof(tz), typeof(iv) FROM read_parquet('"+file+"') LIMIT 1")
	want := []string{"BOOLEAN|SMALLINT|INTEGER|BIGINT|DOUBLE|DECIMAL(12,3)|VARCHAR|VARCHAR|DATE|TIMESTAMP|TIMESTAMP WITH TIME ZONE|VARCHAR"}
	if !slices.Equal(got, want) {
		t.Errorf("DuckDB sees types %v, want %v", got, want)
	}
	got = query(d, "SELECT i4, b::VARCHAR, i2, i8, f8, n::VARCHAR, u, t, d::VARCHAR, ts::VARCHAR, epoch_us(tz), iv FROM read_parquet('"+file+"')")
	want = []string{
		`1|true|-7|9000000000|0.5|123456789.125|1.5|a,"b"|2024-02-29|2024-02-29 12:34:56.789012|981173106000000|1 day`,
		`2|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL`,
		`3|false|32767|-1|-2.25|-0.001|100000000000000000000||1970-01-01|1970-01-01 00:00:00|0|-3 mons`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("DuckDB reads\n%q\nwant\n%q", got, want)
	}

	// DuckDB → joind.
	dfile := filepath.Join(tmp, "pd.parquet")
	exec(d, `COPY (SELECT * FROM (VALUES
		(1, 10::BIGINT, 'x', 12.50::DECIMAL(10,2), DATE '2020-01-02', TIMESTAMP '2020-01-02 03:04:05.5', true, 1.25::DOUBLE, INTERVAL '1 month 2 days', 7::SMALLINT),
		(2, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
		(3, -5, 'multi
line', -0.01, DATE '1999-12-31', TIMESTAMP '1999-12-31 23:59:59', false, -0.0, INTERVAL '3 hours', -1)
		) v(a, b, c, dec, d, ts, ok, f, iv, sm)) TO '`+dfile+`' (FORMAT parquet)`)
	exec(j, "CREATE TABLE pd (a int, b bigint, c text, dec numeric(10,2), d date, ts timestamp, ok boolean, f double precision, iv interval, sm int)")
	exec(j, "COPY pd FROM '"+dfile+"' (FORMAT parquet)")
	got = query(j, "SELECT * FROM pd")
	want = []string{
		`1|10|x|12.50|2020-01-02|2020-01-02 03:04:05.5|t|1.25|1 mon 2 days|7`,
		`2|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL`,
		"3|-5|multi\nline|-0.01|1999-12-31|1999-12-31 23:59:59|f|0|03:00:00|-1",
	}
	if !slices.Equal(got, want) {
		t.Errorf("joind reads\n%q\nwant\n%q", got, want)
	}
	// The same file queried in place: read_parquet reads DuckDB's types
	// (DECIMAL(10,2) as numeric(10,2), INTEGER as integer, ...).
	got = query(j, "SELECT a, b, c, dec, d, ts, ok, f, iv, sm FROM read_parquet('"+dfile+"') ORDER BY a")
	if !slices.Equal(got, want) {
		t.Errorf("joind's read_parquet reads\n%q\nwant\n%q", got, want)
	}
	// A larger DuckDB file with several row groups: filters, aggregates
	// and a join give DuckDB's own answers over the same file.
	big := filepath.Join(tmp, "big.parquet")
	exec(d, "COPY (SELECT g::INTEGER AS k, (g % 97)::BIGINT AS m, 'v' || (g % 13) AS s, DATE '2000-01-01' + (g // 100)::INTEGER AS d "+
		"FROM range(300000) t(g)) TO '"+big+"' (FORMAT parquet, ROW_GROUP_SIZE 50000)")
	for _, q := range []string{
		"SELECT count(*), sum(k), sum(m), min(s), max(d) FROM read_parquet('" + big + "')",
		"SELECT count(*), sum(m) FROM read_parquet('" + big + "') WHERE k BETWEEN 120000 AND 130000",
		"SELECT s, count(*), sum(k) FROM read_parquet('" + big + "') WHERE d >= DATE '2005-01-01' GROUP BY s ORDER BY s",
		"SELECT count(*) FROM read_parquet('" + big + "') a JOIN read_parquet('" + big + "') b ON a.k = b.k + 1 WHERE a.m = 5",
	} {
		if g, w := query(j, q), query(d, q); !slices.Equal(g, w) {
			t.Errorf("%s:\njoind  %q\nDuckDB %q", q, g, w)
		}
	}
	// A column joind cannot load is named.
	exec(d, "COPY (SELECT [1, 2] AS l) TO '"+filepath.Join(tmp, "list.parquet")+"' (FORMAT parquet)")
	exec(j, "CREATE TABLE pl (l int)")
	if err := j.Exec(ctx, "COPY pl FROM '"+filepath.Join(tmp, "list.parquet")+"' (FORMAT parquet)"); err == nil || !strings.Contains(err.Error(), `Parquet column "l"`) {
		t.Errorf("list column: %v", err)
	}
}
