package regress

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// End-to-end tests through pgx, the way a Go application talks to joind.
// They use the simple query protocol (QueryExecModeSimpleProtocol); the
// extended protocol, and the other drivers (lib/pq, pgjdbc, psycopg2,
// psqlODBC), are tested in regress/drivers.
//
// Each test runs against joind (a fresh server per test) unless
// JOIND_REGRESS_TARGET=postgres, which runs the same checks on the oracle.

func connect(t *testing.T, ep endpoint) *pgx.Conn {
	t.Helper()
	cfg, err := pgx.ParseConfig(ep.dsn)
	if err != nil {
		t.Fatal(err)
	}
	cfg.DefaultQueryExecMode = pgx.QueryExecModeSimpleProtocol
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		t.Fatalf("connect to %s: %v", ep.name, err)
	}
	t.Cleanup(func() { c.Close(context.Background()) })
	return c
}

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func mustExec(t *testing.T, c *pgx.Conn, sql string) {
	t.Helper()
	if _, err := c.Exec(ctxT(t), sql); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
}

// e2eData is a small shop: customers, and orders whose customer may be
// NULL or unknown, generated deterministically so Go can compute answers.
type e2eOrder struct {
	id, amount int
	cust       *int // nil = NULL
}

func e2eData() (customers []string, orders []e2eOrder) {
	customers = []string{"ada", "bob", "cyd", "dee", "eli", "fox", "gil"}
	for i := 1; i <= 500; i++ {
		o := e2eOrder{id: i, amount: (i * 37) % 1000}
		switch {
		case i%50 == 0: // NULL customer
		case i%23 == 0: // unknown customer id 99
			v := 99
			o.cust = &v
		default:
			v := 1 + (i*i)%6 // customers 1..6; gil (7) has no orders
			o.cust = &v
		}
		orders = append(orders, o)
	}
	return customers, orders
}

func loadShop(t *testing.T, c *pgx.Conn) ([]string, []e2eOrder) {
	t.Helper()
	customers, orders := e2eData()
	mustExec(t, c, "DROP TABLE IF EXISTS e2e_cust")
	mustExec(t, c, "DROP TABLE IF EXISTS e2e_orders")
	mustExec(t, c, "CREATE TABLE e2e_cust (id integer NOT NULL, name text NOT NULL)")
	mustExec(t, c, "CREATE TABLE e2e_orders (id integer NOT NULL, cust integer, amount integer)")
	t.Cleanup(func() {
		ctx := context.Background()
		c.Exec(ctx, "DROP TABLE IF EXISTS e2e_cust")
		c.Exec(ctx, "DROP TABLE IF EXISTS e2e_orders")
	})
	var vals []string
	for i, n := range customers {
		vals = append(vals, fmt.Sprintf("(%d, '%s')", i+1, n))
	}
	mustExec(t, c, "INSERT INTO e2e_cust VALUES "+strings.Join(vals, ", "))
	// Several INSERT batches, so storage sees more than one append.
	for start := 0; start < len(orders); start += 120 {
		vals = vals[:0]
		for _, o := range orders[start:min(start+120, len(orders))] {
			cust := "NULL"
			if o.cust != nil {
				cust = fmt.Sprint(*o.cust)
			}
			vals = append(vals, fmt.Sprintf("(%d, %s, %d)", o.id, cust, o.amount))
		}
		tag, err := c.Exec(ctxT(t), "INSERT INTO e2e_orders VALUES "+strings.Join(vals, ", "))
		if err != nil {
			t.Fatal(err)
		}
		if want := fmt.Sprintf("INSERT 0 %d", len(vals)); tag.String() != want {
			t.Fatalf("command tag %q, want %q", tag.String(), want)
		}
	}
	return customers, orders
}

func TestE2EJoinAggregate(t *testing.T) {
	ep := startTarget(t, regressDB)
	c := connect(t, ep)
	customers, orders := loadShop(t, c)

	type agg struct{ n, sum int64 }
	want := map[string]agg{}
	for _, n := range customers {
		want[n] = agg{}
	}
	for _, o := range orders {
		if o.cust != nil && *o.cust <= len(customers) {
			a := want[customers[*o.cust-1]]
			want[customers[*o.cust-1]] = agg{a.n + 1, a.sum + int64(o.amount)}
		}
	}
	rows, err := c.Query(ctxT(t), `SELECT c.name, count(o.id), COALESCE(sum(o.amount), 0)
		FROM e2e_cust c LEFT JOIN e2e_orders o ON o.cust = c.id GROUP BY c.name ORDER BY c.name`)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for rows.Next() {
		var name string
		var n, sum int64
		if err := rows.Scan(&name, &n, &sum); err != nil {
			t.Fatal(err)
		}
		got = append(got, fmt.Sprintf("%s %d %d", name, n, sum))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	var wantRows []string
	for _, n := range customers { // already sorted by name
		wantRows = append(wantRows, fmt.Sprintf("%s %d %d", n, want[n].n, want[n].sum))
	}
	if strings.Join(got, "\n") != strings.Join(wantRows, "\n") {
		t.Errorf("join+aggregate:\ngot:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(wantRows, "\n"))
	}

	// NOT IN against a NULL-free subquery, and the NULL-aware answer when
	// the subquery yields a NULL (no row qualifies).
	var orphans, wantOrphans, withNull int64
	for _, o := range orders {
		if o.cust != nil && *o.cust > len(customers) {
			wantOrphans++
		}
	}
	if err := c.QueryRow(ctxT(t), "SELECT count(*) FROM e2e_orders WHERE cust NOT IN (SELECT id FROM e2e_cust)").Scan(&orphans); err != nil {
		t.Fatal(err)
	}
	if orphans != wantOrphans {
		t.Errorf("NOT IN orphans = %d, want %d", orphans, wantOrphans)
	}
	if err := c.QueryRow(ctxT(t), "SELECT count(*) FROM e2e_cust WHERE id NOT IN (SELECT cust FROM e2e_orders)").Scan(&withNull); err != nil {
		t.Fatal(err)
	}
	if withNull != 0 {
		t.Errorf("NOT IN over a subquery containing NULL returned %d rows, want 0", withNull)
	}

	// Inner join row count and a filtered sum.
	var joined, bigSum int64
	var wantJoined, wantBig int64
	for _, o := range orders {
		if o.cust != nil && *o.cust <= len(customers) {
			wantJoined++
			if o.amount >= 500 {
				wantBig += int64(o.amount)
			}
		}
	}
	err = c.QueryRow(ctxT(t), `SELECT count(*), COALESCE(sum(CASE WHEN o.amount >= 500 THEN o.amount END), 0)
		FROM e2e_orders o JOIN e2e_cust c ON c.id = o.cust`).Scan(&joined, &bigSum)
	if err != nil {
		t.Fatal(err)
	}
	if joined != wantJoined || bigSum != wantBig {
		t.Errorf("inner join count/sum = %d/%d, want %d/%d", joined, bigSum, wantJoined, wantBig)
	}
}

// TestE2ETypes checks that values of every foundation type reach a driver
// intact (RowDescription OIDs decide how pgx decodes the text).
func TestE2ETypes(t *testing.T) {
	ep := startTarget(t, regressDB)
	c := connect(t, ep)
	var (
		i2     int16
		i4     int32
		i8     int64
		f4     float32
		f8     float64
		num    string
		b      bool
		txt    string
		vc     string
		d      time.Time
		ts     time.Time
		null   *int32
		nulltx *string
	)
	err := c.QueryRow(ctxT(t), `SELECT 32767::smallint, (-2147483648)::integer, 9223372036854775807::bigint,
		1.5::real, 0.1::float8, (12.30::numeric(5,2))::text, true, 'héllo', 'v'::varchar(3),
		'2024-02-29'::date, '2024-02-29 13:45:06.5'::timestamp, NULL::integer, NULL::text`).
		Scan(&i2, &i4, &i8, &f4, &f8, &num, &b, &txt, &vc, &d, &ts, &null, &nulltx)
	if err != nil {
		t.Fatal(err)
	}
	check := func(name string, got, want any) {
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}
	check("smallint", i2, int16(32767))
	check("integer", i4, int32(-2147483648))
	check("bigint", i8, int64(9223372036854775807))
	check("real", f4, float32(1.5))
	check("float8", f8, 0.1)
	check("numeric", num, "12.30")
	check("bool", b, true)
	check("text", txt, "héllo")
	check("varchar", vc, "v")
	check("date", d.Format("2006-01-02"), "2024-02-29")
	check("timestamp", ts.Format("2006-01-02 15:04:05.000"), "2024-02-29 13:45:06.500")
	if null != nil || nulltx != nil {
		t.Errorf("NULLs decoded as %v, %v", null, nulltx)
	}

	fields := func(sql string) []uint32 {
		rows, err := c.Query(ctxT(t), sql)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var oids []uint32
		for _, f := range rows.FieldDescriptions() {
			oids = append(oids, f.DataTypeOID)
		}
		for rows.Next() {
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		return oids
	}
	// int2 int4 int8 float4 float8 numeric bool text varchar bpchar date timestamp interval
	got := fields(`SELECT 1::smallint, 1, 1::bigint, 1::real, 1::float8, 1.0, true, 'x'::text,
		'x'::varchar(2), 'x'::char(2), '2024-01-01'::date, '2024-01-01'::timestamp, '1 day'::interval`)
	want := []uint32{21, 23, 20, 700, 701, 1700, 16, 25, 1043, 1042, 1082, 1114, 1186}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("type OIDs = %v, want %v", got, want)
	}
}

// TestE2EErrors checks the SQLSTATE of common errors and that the
// connection stays usable after each one.
func TestE2EErrors(t *testing.T) {
	ep := startTarget(t, regressDB)
	c := connect(t, ep)
	mustExec(t, c, "DROP TABLE IF EXISTS e2e_err_a")
	mustExec(t, c, "DROP TABLE IF EXISTS e2e_err_b")
	mustExec(t, c, "CREATE TABLE e2e_err_a (id integer NOT NULL, v text)")
	mustExec(t, c, "CREATE TABLE e2e_err_b (id integer, w text)")
	t.Cleanup(func() {
		c.Exec(context.Background(), "DROP TABLE IF EXISTS e2e_err_a")
		c.Exec(context.Background(), "DROP TABLE IF EXISTS e2e_err_b")
	})
	cases := []struct {
		sql, code, msg string
	}{
		{"SELECT * FROM e2e_no_such_table", "42P01", `relation "e2e_no_such_table" does not exist`},
		{"SELECT nope FROM e2e_err_a", "42703", `column "nope" does not exist`},
		{"SELECT id FROM e2e_err_a, e2e_err_b", "42702", `column reference "id" is ambiguous`},
		{"SELECT 1 / 0", "22012", "division by zero"},
		{"INSERT INTO e2e_err_a (v) VALUES ('x')", "23502", `null value in column "id" of relation "e2e_err_a" violates not-null constraint`},
		{"SELEKT 1", "42601", `syntax error at or near "SELEKT"`},
		{"SELECT 'abc'::integer", "22P02", `invalid input syntax for type integer: "abc"`},
		{"SELECT 2147483647 + 1", "22003", "integer out of range"},
		{"CREATE TABLE e2e_err_a (x integer)", "42P07", `relation "e2e_err_a" already exists`},
		{"SELECT id, count(*) FROM e2e_err_a", "42803", `column "e2e_err_a.id" must appear in the GROUP BY clause or be used in an aggregate function`},
	}
	for _, tc := range cases {
		_, err := c.Exec(ctxT(t), tc.sql)
		var pgErr *pgconn.PgError
		if !errors.As(err, &pgErr) {
			t.Errorf("%s: got %v, want a PgError %s", tc.sql, err, tc.code)
		} else {
			if pgErr.Code != tc.code || pgErr.Message != tc.msg || pgErr.Severity != "ERROR" {
				t.Errorf("%s: got %s %s %q, want ERROR %s %q", tc.sql, pgErr.Severity, pgErr.Code, pgErr.Message, tc.code, tc.msg)
			}
		}
		var one int32
		if err := c.QueryRow(ctxT(t), "SELECT 1").Scan(&one); err != nil || one != 1 {
			t.Fatalf("after %q the connection is unusable: %v", tc.sql, err)
		}
	}

	// The failing-row detail and the error position psql draws its caret from.
	_, err := c.Exec(ctxT(t), "INSERT INTO e2e_err_a VALUES (NULL, 'x')")
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) || pgErr.Detail != "Failing row contains (null, x)." {
		t.Errorf("not-null detail: %v (%+v)", err, pgErr)
	}
	_, err = c.Exec(ctxT(t), "SELECT id, nope FROM e2e_err_a")
	if !errors.As(err, &pgErr) || pgErr.Position != 12 {
		t.Errorf("undefined column position: %v (position %d, want 12)", err, pgErr.Position)
	}
	var n int64
	if err := c.QueryRow(ctxT(t), "SELECT count(*) FROM e2e_err_a").Scan(&n); err != nil || n != 0 {
		t.Errorf("failed inserts left rows behind: count=%d err=%v", n, err)
	}
}

// TestE2ESimpleProtocol covers the simple-query details drivers rely on:
// the empty-query ping, several statements in one message (and stopping at
// the first error), and command tags.
func TestE2ESimpleProtocol(t *testing.T) {
	ep := startTarget(t, regressDB)
	c := connect(t, ep)
	if err := c.Ping(ctxT(t)); err != nil {
		t.Fatalf("ping (empty query): %v", err)
	}
	pc := c.PgConn()
	res, err := pc.Exec(ctxT(t), `DROP TABLE IF EXISTS e2e_multi; CREATE TABLE e2e_multi (a integer);
		INSERT INTO e2e_multi VALUES (1), (2), (3); SELECT a FROM e2e_multi ORDER BY a;
		TRUNCATE e2e_multi; DROP TABLE e2e_multi`).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var tags []string
	for _, r := range res {
		tags = append(tags, r.CommandTag.String())
	}
	wantTags := "DROP TABLE|CREATE TABLE|INSERT 0 3|SELECT 3|TRUNCATE TABLE|DROP TABLE"
	if strings.Join(tags, "|") != wantTags {
		t.Errorf("command tags %q, want %q", strings.Join(tags, "|"), wantTags)
	}
	if len(res) == 6 && len(res[3].Rows) == 3 && string(res[3].Rows[2][0]) != "3" {
		t.Errorf("multi-statement SELECT rows: %q", res[3].Rows)
	}

	// An error stops the rest of the query string.
	res, err = pc.Exec(ctxT(t), "SELECT 1; SELECT 1/0; SELECT 3").ReadAll()
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) || pgErr.Code != "22012" {
		t.Errorf("multi-statement error: %v", err)
	}
	for _, r := range res {
		for _, row := range r.Rows {
			if len(row) > 0 && string(row[0]) == "3" {
				t.Errorf("statement after the error was executed")
			}
		}
	}
	if _, err := c.Exec(ctxT(t), "-- just a comment"); err != nil {
		t.Errorf("comment-only query: %v", err)
	}
}

// TestE2EConcurrentConnections runs 20 clients at once, each querying and
// checking exact answers, to catch shared state between sessions.
func TestE2EConcurrentConnections(t *testing.T) {
	ep := startTarget(t, regressDB)
	setup := connect(t, ep)
	mustExec(t, setup, "DROP TABLE IF EXISTS e2e_conc")
	mustExec(t, setup, "CREATE TABLE e2e_conc (k integer, v bigint)")
	t.Cleanup(func() { setup.Exec(context.Background(), "DROP TABLE IF EXISTS e2e_conc") })
	mustExec(t, setup, "INSERT INTO e2e_conc SELECT g % 100, g FROM generate_series(1, 20000) g")

	const clients, rounds = 20, 5
	var wg sync.WaitGroup
	errs := make(chan error, clients)
	for w := 0; w < clients; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			cfg, err := pgx.ParseConfig(ep.dsn)
			if err != nil {
				errs <- err
				return
			}
			cfg.DefaultQueryExecMode = pgx.QueryExecModeSimpleProtocol
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			c, err := pgx.ConnectConfig(ctx, cfg)
			if err != nil {
				errs <- fmt.Errorf("client %d connect: %v", w, err)
				return
			}
			defer c.Close(context.Background())
			for r := 0; r < rounds; r++ {
				k := (w*7 + r) % 100
				// Rows with g % 100 = k: g = k, k+100, ..., (k=0: 100..20000).
				var n, sum int64
				if err := c.QueryRow(ctx, fmt.Sprintf("SELECT count(*), sum(v) FROM e2e_conc WHERE k = %d", k)).Scan(&n, &sum); err != nil {
					errs <- fmt.Errorf("client %d: %v", w, err)
					return
				}
				var wantSum int64
				for g := int64(1); g <= 20000; g++ {
					if g%100 == int64(k) {
						wantSum += g
					}
				}
				if n != 200 || sum != wantSum {
					errs <- fmt.Errorf("client %d k=%d: count/sum %d/%d, want 200/%d", w, k, n, sum, wantSum)
					return
				}
				var pairs int64
				q := fmt.Sprintf(`SELECT count(*) FROM e2e_conc a JOIN e2e_conc b ON a.k = b.k
					WHERE a.v <= %d AND b.v <= %d`, 1000+w, 1000)
				if err := c.QueryRow(ctx, q).Scan(&pairs); err != nil {
					errs <- fmt.Errorf("client %d join: %v", w, err)
					return
				}
				if want := joinPairs(1000+w, 1000); pairs != want {
					errs <- fmt.Errorf("client %d join pairs %d, want %d", w, pairs, want)
					return
				}
				if _, err := c.Exec(ctx, "SELECT 1/0"); err == nil {
					errs <- fmt.Errorf("client %d: 1/0 did not fail", w)
					return
				}
			}
		}(w)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// joinPairs counts pairs (a, b) of 1..20000 with a%100 = b%100, a <= la,
// b <= lb.
func joinPairs(la, lb int) int64 {
	var ca, cb [100]int64
	for g := 1; g <= la; g++ {
		ca[g%100]++
	}
	for g := 1; g <= lb; g++ {
		cb[g%100]++
	}
	var n int64
	for k := range ca {
		n += ca[k] * cb[k]
	}
	return n
}
