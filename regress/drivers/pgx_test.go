package drivers

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/joind/joind/regress/joindtest"
)

func pgCode(err error) string {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code
	}
	return ""
}

// TestPgxTypesEveryMode sends and reads every supported type through each of
// pgx's query modes: simple protocol, extended with text and with binary.
func TestPgxTypesEveryMode(t *testing.T) {
	j := joindtest.StartJoind(t)
	c := connect(t, j.DSN())
	ctx := context.Background()
	execSQL(t, c, `create table ty (i2 int2, i4 int4, i8 int8, f4 float4, f8 float8, b bool, t text,
		v varchar(10), ch char(3), n numeric(12,4), d date, ts timestamp, iv interval)`)
	ts := time.Date(2024, 2, 29, 13, 14, 15, 123456000, time.UTC)
	d := time.Date(1999, 12, 31, 0, 0, 0, 0, time.UTC)
	num := pgtype.Numeric{Int: big.NewInt(-1234567891), Exp: -4, Valid: true}
	iv := pgtype.Interval{Months: 14, Days: 3, Microseconds: 3723000001, Valid: true}
	args := []any{int16(-7), int32(1 << 30), int64(-1 << 50), float32(1.5), 2.25, true, "héllo", "vv", "ab", num, d, ts, iv}
	modes := []pgx.QueryExecMode{pgx.QueryExecModeSimpleProtocol, pgx.QueryExecModeExec, pgx.QueryExecModeDescribeExec,
		pgx.QueryExecModeCacheDescribe, pgx.QueryExecModeCacheStatement}
	for i, mode := range modes {
		if _, err := c.Exec(ctx, `insert into ty values ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13)`, append([]any{mode}, args...)...); err != nil {
			t.Fatalf("insert in mode %v: %v", mode, err)
		}
		rows, err := c.Query(ctx, `select i2, i4, i8, f4, f8, b, t, v, ch, n, d, ts, iv from ty where i8 = $1 limit $2`, mode, int64(-1<<50), i+1)
		if err != nil {
			t.Fatalf("select in mode %v: %v", mode, err)
		}
		n := 0
		for rows.Next() {
			var (
				i2        int16
				i4        int32
				i8        int64
				f4        float32
				f8        float64
				b         bool
				tx, v, ch string
				gn        pgtype.Numeric
				gd, gts   time.Time
				giv       pgtype.Interval
			)
			if err := rows.Scan(&i2, &i4, &i8, &f4, &f8, &b, &tx, &v, &ch, &gn, &gd, &gts, &giv); err != nil {
				t.Fatalf("scan in mode %v: %v", mode, err)
			}
			gnv, _ := gn.Value()
			got := fmt.Sprintln(i2, i4, i8, f4, f8, b, tx, v, ch, gnv, gd.Format(time.DateOnly), gts.Format(time.RFC3339Nano), giv.Months, giv.Days, giv.Microseconds)
			want := "-7 1073741824 -1125899906842624 1.5 2.25 true héllo vv ab  -123456.7891 1999-12-31 2024-02-29T13:14:15.123456Z 14 3 3723000001\n"
			if got != want {
				t.Errorf("mode %v:\n got  %q\n want %q", mode, got, want)
			}
			n++
		}
		if err := rows.Err(); err != nil {
			t.Fatalf("rows in mode %v: %v", mode, err)
		}
		if n != i+1 {
			t.Errorf("mode %v: %d rows, want %d (LIMIT $2)", mode, n, i+1)
		}
	}
	// NULLs of every type, binary and text.
	var i2 *int16
	var n pgtype.Numeric
	var ts2 *time.Time
	if err := c.QueryRow(ctx, `select $1::int2, $2::numeric, $3::timestamp`, nil, nil, nil).Scan(&i2, &n, &ts2); err != nil || i2 != nil || n.Valid || ts2 != nil {
		t.Errorf("NULL parameters: %v %v %v %v", err, i2, n, ts2)
	}
	// Infinity and extreme values in binary.
	var inf pgtype.Timestamp
	var dinf pgtype.Date
	var big pgtype.Numeric
	err := c.QueryRow(ctx, `select 'infinity'::timestamp, '-infinity'::date, 123456789012345678901234567890.000000001::numeric`).Scan(&inf, &dinf, &big)
	if err != nil || inf.InfinityModifier != pgtype.Infinity || dinf.InfinityModifier != pgtype.NegativeInfinity {
		t.Errorf("infinities: %v %+v %+v", err, inf, dinf)
	}
	if v, _ := big.Value(); v != "123456789012345678901234567890.000000001" {
		t.Errorf("big numeric = %v", v)
	}
}

// TestPgxParameterInference checks that untyped parameters take their type
// from context, as PostgreSQL infers them.
func TestPgxParameterInference(t *testing.T) {
	j := joindtest.StartJoind(t)
	c := connect(t, j.DSN())
	ctx := context.Background()
	execSQL(t, c, `create table kv (k int8, v text, d date)`, `insert into kv values (1, 'one', '2020-01-01'), (2, 'two', '2021-06-30'), (3, 'three', null)`)
	sd, err := c.Prepare(ctx, "q1", `select v from kv where k = $1 and d < $2 order by k limit $3`)
	if err != nil {
		t.Fatal(err)
	}
	var oids []uint32
	for _, p := range sd.ParamOIDs {
		oids = append(oids, p)
	}
	if fmt.Sprint(oids) != "[20 1082 20]" {
		t.Errorf("inferred parameter types = %v, want [20 1082 20] (int8, date, bigint)", oids)
	}
	var v string
	if err := c.QueryRow(ctx, "q1", 2, time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC), 5).Scan(&v); err != nil || v != "two" {
		t.Errorf("prepared q1: %q %v", v, err)
	}
	var s string
	if err := c.QueryRow(ctx, `select $1::int + 1 || ''`, "41").Scan(&s); err != nil || s != "42" {
		t.Errorf("$1::int: %q %v", s, err)
	}
	// An unknown parameter with no context is text.
	sd, err = c.Prepare(ctx, "q2", `select $1`)
	if err != nil || len(sd.ParamOIDs) != 1 || sd.ParamOIDs[0] != 25 || sd.Fields[0].DataTypeOID != 25 {
		t.Errorf("select $1: %+v %v", sd, err)
	}
	// A bad value is 22P02, and the connection stays usable.
	_, err = c.Exec(ctx, `select * from kv where k = $1`, pgx.QueryExecModeExec, "x")
	if pgCode(err) != "22P02" {
		t.Errorf("bad int8 parameter: %v", err)
	}
	if err := c.QueryRow(ctx, `select count(*)::text from kv where k > $1`, 1).Scan(&s); err != nil || s != "2" {
		t.Errorf("after error: %q %v", s, err)
	}
}

func TestPgxBatchAndCopyFrom(t *testing.T) {
	j := joindtest.StartJoind(t)
	c := connect(t, j.DSN())
	ctx := context.Background()
	execSQL(t, c, `create table m (id int4 not null, name text, score numeric(6,2), at timestamp)`)
	b := &pgx.Batch{}
	for i := 0; i < 50; i++ {
		b.Queue(`insert into m values ($1, $2, $3, $4)`, i, fmt.Sprintf("n%d", i), fmt.Sprintf("%d.25", i), time.Unix(int64(i)*86400, 0).UTC())
	}
	b.Queue(`select count(*), sum(score) from m`)
	br := c.SendBatch(ctx, b)
	for i := 0; i < 50; i++ {
		if _, err := br.Exec(); err != nil {
			t.Fatalf("batch insert %d: %v", i, err)
		}
	}
	var cnt int64
	var sum pgtype.Numeric
	if err := br.QueryRow().Scan(&cnt, &sum); err != nil {
		t.Fatal(err)
	}
	if sv, _ := sum.Value(); cnt != 50 || sv != "1237.50" {
		t.Errorf("after batch: count %d sum %v", cnt, sv)
	}
	if err := br.Close(); err != nil {
		t.Fatal(err)
	}

	rows := [][]any{}
	for i := 100; i < 1100; i++ {
		var name any = fmt.Sprintf("c%d", i)
		if i%7 == 0 {
			name = nil
		}
		rows = append(rows, []any{int32(i), name, pgtype.Numeric{Int: big.NewInt(int64(i)), Exp: -2, Valid: true}, time.Date(2020, 1, 1, 0, 0, i, 0, time.UTC)})
	}
	n, err := c.CopyFrom(ctx, pgx.Identifier{"m"}, []string{"id", "name", "score", "at"}, pgx.CopyFromRows(rows))
	if err != nil || n != 1000 {
		t.Fatalf("CopyFrom: %d %v", n, err)
	}
	var nulls int64
	if err := c.QueryRow(ctx, `select count(*), count(*) - count(name) from m where id >= 100`).Scan(&cnt, &nulls); err != nil || cnt != 1000 || nulls != 143 {
		t.Errorf("after CopyFrom: %d rows, %d NULL names, %v", cnt, nulls, err)
	}
	// A NULL in a NOT NULL column fails the whole copy; nothing is loaded.
	_, err = c.CopyFrom(ctx, pgx.Identifier{"m"}, []string{"id"}, pgx.CopyFromRows([][]any{{int32(1)}, {nil}}))
	if pgCode(err) != "23502" {
		t.Errorf("CopyFrom NULL into NOT NULL: %v", err)
	}
	if err := c.QueryRow(ctx, `select count(*) from m`).Scan(&cnt); err != nil || cnt != 1050 {
		t.Errorf("after failed copy: %d rows (want 1050), %v", cnt, err)
	}
}

// TestPgxCancelAndStatementTimeout cancels a long query through the
// protocol's CancelRequest and checks statement_timeout.
func TestPgxCancelAndStatementTimeout(t *testing.T) {
	j := joindtest.StartJoind(t)
	c := connect(t, j.DSN())
	other := connect(t, j.DSN())
	long := `select count(*) from generate_series(1, 200000) a, generate_series(1, 200000) b where a + b = 7`
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := c.Exec(ctx, long)
	if time.Since(start) > 20*time.Second {
		t.Errorf("cancel took %v", time.Since(start))
	}
	if err == nil {
		t.Fatal("long query was not cancelled")
	}
	// pgx closes a connection whose context ends; the other one is intact.
	var one int
	if err := other.QueryRow(context.Background(), "select 1").Scan(&one); err != nil || one != 1 {
		t.Errorf("the other connection was disturbed: %v", err)
	}

	execSQL(t, other, "set statement_timeout = '200ms'")
	start = time.Now()
	_, err = other.Exec(context.Background(), long)
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != "57014" || pe.Message != "canceling statement due to statement timeout" {
		t.Errorf("statement_timeout: %v", err)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("statement_timeout took %v", d)
	}
	execSQL(t, other, "reset statement_timeout")
	if err := other.QueryRow(context.Background(), "select 2").Scan(&one); err != nil || one != 2 {
		t.Errorf("after timeout: %v", err)
	}

	// A CancelRequest with pgconn (the explicit path).
	pc, err := pgconn.Connect(context.Background(), j.DSN())
	if err != nil {
		t.Fatal(err)
	}
	defer pc.Close(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := pc.Exec(context.Background(), long).ReadAll()
		done <- err
	}()
	time.Sleep(200 * time.Millisecond)
	if err := pc.CancelRequest(context.Background()); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if !errors.As(err, &pe) || pe.Code != "57014" || pe.Message != "canceling statement due to user request" {
			t.Errorf("cancel request: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("cancel request did not stop the query")
	}
	if err := pc.Exec(context.Background(), "select 1").Close(); err != nil {
		t.Errorf("after cancel: %v", err)
	}
}

// TestPgxConnectQueries runs what drivers and tools ask at connect.
func TestPgxConnectQueries(t *testing.T) {
	j := joindtest.StartJoind(t)
	c := connect(t, j.DSN())
	ctx := context.Background()
	var s string
	for q, want := range map[string]string{
		`select version()`: "PostgreSQL 15.18 (joind)",
		`select current_setting('server_version_num')`:     "150018",
		`select current_schema()`:                          "public",
		`select current_database()`:                        "regression",
		`select current_catalog`:                           "regression",
		`show transaction isolation level`:                 "read committed",
		`show DateStyle`:                                   "ISO, MDY",
		`select current_setting('TimeZone')`:               "UTC",
		`select current_setting('nonesuch', true) is null`: "true",
	} {
		for _, mode := range []pgx.QueryExecMode{pgx.QueryExecModeSimpleProtocol, pgx.QueryExecModeCacheStatement} {
			var v any
			if err := c.QueryRow(ctx, q, mode).Scan(&v); err != nil {
				t.Errorf("%s (%v): %v", q, mode, err)
				continue
			}
			s = fmt.Sprint(v)
			if !strings.HasPrefix(s, want) {
				t.Errorf("%s (%v) = %q, want %q...", q, mode, s, want)
			}
		}
	}
	rows, err := c.Query(ctx, `select oid, typbasetype from pg_type where typname = 'lo'`)
	if err != nil {
		t.Fatal(err)
	}
	rows.Close()
	if rows.Err() != nil || rows.CommandTag().RowsAffected() != 0 {
		t.Errorf("pg_type lo: %v %v", rows.Err(), rows.CommandTag())
	}
	for _, q := range []string{
		"SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL READ COMMITTED",
		"BEGIN", "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ", "COMMIT",
		"SET extra_float_digits = 3", "SET application_name = 'drivers'", "SET search_path = public",
	} {
		if _, err := c.Exec(ctx, q); err != nil {
			t.Errorf("%s: %v", q, err)
		}
	}
}

// TestPgxUntypedParameters: a statement prepared with no parameter types
// gets PostgreSQL's inferred types, or its error where no use gives a
// parameter a type: an argument declared "any" (count, concat, format's
// arguments, json_build_object, num_nulls) and a ROW field take the
// parameter's own type (42P18), and a later use typing it leaves the
// first inconsistent (42P08).
func TestPgxUntypedParameters(t *testing.T) {
	statements := []string{
		`select count($1)`, `select format($1)`, `select format($1, $2)`, `select format($1, $2::int)`,
		`select concat($1)`, `select concat_ws($1, $2)`, `select json_build_object($1, $2)`,
		`select json_build_object($1::text, $2)`, `select jsonb_build_array($1)`, `select num_nulls($1)`,
		`select num_nonnulls($1, 1)`, `select row($1)`, `select row($1, 2)`, `select coalesce($1)`,
		`select concat($1), $1::int`, `select $1::int, concat($1)`, `select $1 || $2, concat($1)`,
		`select count($1) from (values (1)) v(x) where x = $1`, `select format($1, $2) where $2 = 1`,
		`select concat(v) from (values ($1)) s(v)`, `select $1 is null`, `select quote_literal($1)`,
	}
	transcript := func(t *testing.T, dsn string) string {
		c := connect(t, dsn)
		var out strings.Builder
		for _, q := range statements {
			sd, err := c.Prepare(context.Background(), "", q)
			if err != nil {
				fmt.Fprintf(&out, "%s: %s %s\n", q, pgCode(err), err)
				continue
			}
			fmt.Fprintf(&out, "%s: %v\n", q, sd.ParamOIDs)
		}
		return out.String()
	}
	sameTranscript(t, "untyped_params", "42P08", transcript)
}
