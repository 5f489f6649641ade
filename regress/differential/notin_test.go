package differential

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/joind/joind/regress/joindtest"
	"github.com/joind/joind/regress/oracle"
)

func TestMain(m *testing.M) { joindtest.Main(m) }

// notInQueries are the shapes checked, over t1(x, z) and t2(y, z). Every
// query's rows are compared as a multiset, so none needs ORDER BY.
var notInQueries = []string{
	// uncorrelated, in WHERE
	`SELECT x, z FROM t1 WHERE x NOT IN (SELECT y FROM t2)`,
	`SELECT x, z FROM t1 WHERE x IN (SELECT y FROM t2)`,
	`SELECT x, z FROM t1 WHERE NOT (x IN (SELECT y FROM t2))`,
	`SELECT x, z FROM t1 WHERE x <> ALL (SELECT y FROM t2)`,
	`SELECT x, z FROM t1 WHERE x = ANY (SELECT y FROM t2)`,
	`SELECT x, z FROM t1 WHERE x NOT IN (SELECT y FROM t2 WHERE y IS NOT NULL)`,
	`SELECT x, z FROM t1 WHERE x NOT IN (SELECT y FROM t2 WHERE y > 1)`,
	`SELECT x, z FROM t1 WHERE x + 0 NOT IN (SELECT y FROM t2)`,
	`SELECT x, z FROM t1 WHERE x NOT IN (SELECT y + z FROM t2)`,
	`SELECT x, z FROM t1 WHERE x NOT IN (SELECT coalesce(y, 0) FROM t2)`,
	`SELECT x, z FROM t1 WHERE 2 NOT IN (SELECT y FROM t2)`,
	`SELECT x, z FROM t1 WHERE NULL::int NOT IN (SELECT y FROM t2)`,
	`SELECT count(*) FROM t1 WHERE x NOT IN (SELECT y FROM t2)`,
	`SELECT x, z FROM t1 WHERE x IS NOT NULL AND x NOT IN (SELECT y FROM t2)`,
	// EXISTS
	`SELECT x, z FROM t1 WHERE EXISTS (SELECT 1 FROM t2 WHERE t2.y = t1.x)`,
	`SELECT x, z FROM t1 WHERE NOT EXISTS (SELECT 1 FROM t2 WHERE t2.y = t1.x)`,
	`SELECT x, z FROM t1 WHERE NOT EXISTS (SELECT 1 FROM t2 WHERE t2.z = t1.z AND t2.y > t1.x)`,
	`SELECT x, z FROM t1 WHERE EXISTS (SELECT 1 FROM t2)`,
	// correlated
	`SELECT x, z FROM t1 WHERE x NOT IN (SELECT y FROM t2 WHERE t2.z = t1.z)`,
	`SELECT x, z FROM t1 WHERE x IN (SELECT y FROM t2 WHERE t2.z = t1.z)`,
	`SELECT x, z FROM t1 WHERE x NOT IN (SELECT y FROM t2 WHERE t2.z > t1.z)`,
	`SELECT x, z FROM t1 WHERE x NOT IN (SELECT y FROM t2 WHERE t2.z = t1.z AND t2.y <> t1.z)`,
	`SELECT x, z FROM t1 WHERE x NOT IN (SELECT y FROM t2 WHERE t2.z = t1.z AND t2.y = t1.x)`,
	`SELECT x, z FROM t1 WHERE z NOT IN (SELECT y FROM t2 WHERE t2.z = t1.x)`,
	// row values
	`SELECT x, z FROM t1 WHERE (x, z) NOT IN (SELECT y, z FROM t2)`,
	`SELECT x, z FROM t1 WHERE (x, z) IN (SELECT y, z FROM t2)`,
	`SELECT x, z FROM t1 WHERE (x, 1) NOT IN (SELECT y, z FROM t2)`,
	// in the SELECT list, under OR / CASE / IS NULL
	`SELECT x, z, x NOT IN (SELECT y FROM t2) FROM t1`,
	`SELECT x, z, x IN (SELECT y FROM t2) FROM t1`,
	`SELECT x, z, x NOT IN (SELECT y FROM t2 WHERE t2.z = t1.z) FROM t1`,
	`SELECT x, z, EXISTS (SELECT 1 FROM t2 WHERE t2.y = t1.x) FROM t1`,
	`SELECT x, z, (x NOT IN (SELECT y FROM t2)) IS NULL FROM t1`,
	`SELECT x, z FROM t1 WHERE x NOT IN (SELECT y FROM t2) OR z = 1`,
	`SELECT x, z FROM t1 WHERE (x NOT IN (SELECT y FROM t2)) IS NOT FALSE`,
	`SELECT x, z FROM t1 WHERE (x IN (SELECT y FROM t2 WHERE t2.z = t1.z)) IS UNKNOWN`,
	`SELECT x, CASE WHEN x NOT IN (SELECT y FROM t2 WHERE t2.z = t1.z) THEN 'yes' ELSE 'no' END FROM t1`,
	`SELECT x, z, (x, z) NOT IN (SELECT y, z FROM t2) FROM t1`,
	// other comparison operators
	`SELECT x, z FROM t1 WHERE x < ANY (SELECT y FROM t2)`,
	`SELECT x, z FROM t1 WHERE x >= ALL (SELECT y FROM t2)`,
	`SELECT x, z, x > ALL (SELECT y FROM t2 WHERE t2.z = t1.z) FROM t1`,
	// correlated scalar aggregates (decorrelated into grouped left joins)
	`SELECT x, z, (SELECT count(*) FROM t2 WHERE t2.z = t1.z) FROM t1`,
	`SELECT x, z, (SELECT sum(y) FROM t2 WHERE t2.z = t1.z), (SELECT count(y) + 1 FROM t2 WHERE t2.z = t1.z) FROM t1`,
	`SELECT x, z FROM t1 WHERE x < (SELECT max(y) FROM t2 WHERE t2.z = t1.z)`,
	`SELECT x, z FROM t1 WHERE (SELECT count(*) FROM t2 WHERE t2.z = t1.z AND t2.y > t1.x) = 0`,
	// literal lists
	`SELECT x, z FROM t1 WHERE x NOT IN (1, 2)`,
	`SELECT x, z FROM t1 WHERE x NOT IN (1, NULL)`,
	`SELECT x, z, x NOT IN (1, NULL) FROM t1`,
	// nesting
	`SELECT x, z FROM t1 WHERE x NOT IN (SELECT y FROM t2 WHERE y NOT IN (SELECT x FROM t1 WHERE x IS NOT NULL))`,
	`SELECT x, z FROM t1 WHERE x NOT IN (SELECT y FROM t2 WHERE t2.z = t1.z AND y IN (SELECT x FROM t1 t3 WHERE t3.z = t2.z))`,
	`SELECT x, z FROM t1 WHERE EXISTS (SELECT 1 FROM t2 WHERE t2.z = t1.z AND t2.y NOT IN (SELECT x FROM t1 t3 WHERE t3.x IS NOT NULL))`,
}

// table is generated data for t1 or t2: rows of two nullable ints.
type table [][2]*int

func genTable(r *rand.Rand) table {
	n := r.Intn(8) // 0..7 rows; empty tables matter for NOT IN
	if r.Intn(10) == 0 {
		n = 0
	}
	nullRate := []int{0, 0, 10, 25, 60}[r.Intn(5)]
	t := make(table, n)
	for i := range t {
		for c := 0; c < 2; c++ {
			if r.Intn(100) < nullRate {
				continue
			}
			v := r.Intn(5)
			t[i][c] = &v
		}
	}
	return t
}

func (t table) insertSQL(name string) string {
	if len(t) == 0 {
		return ""
	}
	var rows []string
	for _, row := range t {
		var vals []string
		for _, v := range row {
			if v == nil {
				vals = append(vals, "NULL")
			} else {
				vals = append(vals, strconv.Itoa(*v))
			}
		}
		rows = append(rows, "("+strings.Join(vals, ", ")+")")
	}
	return fmt.Sprintf("INSERT INTO %s VALUES %s", name, strings.Join(rows, ", "))
}

// peer is one server under test.
type peer struct {
	name string
	conn *pgx.Conn
}

func connect(t *testing.T, name, dsn string) *peer {
	t.Helper()
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		t.Fatal(err)
	}
	cfg.DefaultQueryExecMode = pgx.QueryExecModeSimpleProtocol
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	t.Cleanup(func() { c.Close(context.Background()) })
	return &peer{name: name, conn: c}
}

func (p *peer) exec(t *testing.T, sql string) {
	t.Helper()
	if sql == "" {
		return
	}
	if _, err := p.conn.Exec(context.Background(), sql); err != nil {
		t.Fatalf("%s: %s: %v", p.name, sql, err)
	}
}

// query returns the rows as sorted text lines, or the error's SQLSTATE.
func (p *peer) query(sql string) ([]string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	rows, err := p.conn.Query(ctx, sql)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var cells []string
		for _, v := range rows.RawValues() {
			if v == nil {
				cells = append(cells, "NULL")
			} else {
				cells = append(cells, string(v))
			}
		}
		out = append(out, strings.Join(cells, "|"))
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	sort.Strings(out)
	return out, nil
}

func iterations(t *testing.T) int {
	if s := os.Getenv("JOIND_DIFF_ITERATIONS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			t.Fatalf("JOIND_DIFF_ITERATIONS: %v", err)
		}
		return n
	}
	if testing.Short() {
		return 10
	}
	return 60
}

func TestNotInAgreesWithPostgres(t *testing.T) {
	pg := oracle.Start(t)
	db := fmt.Sprintf("notin_diff_%d", time.Now().UnixNano()%1e9)
	pg.CreateDatabase(t, db)
	pgPeer := connect(t, "postgres", pg.DSNFor(db))
	var joinds []*peer
	for _, parts := range []string{"1", "3"} {
		j := joindtest.StartJoind(t, "--partitions", parts)
		joinds = append(joinds, connect(t, "joind(partitions="+parts+")", j.DSN()))
	}

	seed := time.Now().UnixNano()
	if s := os.Getenv("JOIND_DIFF_SEED"); s != "" {
		seed, _ = strconv.ParseInt(s, 10, 64)
	}
	t.Logf("seed %d (replay with JOIND_DIFF_SEED=%d)", seed, seed)
	r := rand.New(rand.NewSource(seed))
	n := iterations(t)
	failures := 0
	for it := 0; it < n && failures < 5; it++ {
		t1, t2 := genTable(r), genTable(r)
		setup := []string{
			"DROP TABLE IF EXISTS t1", "DROP TABLE IF EXISTS t2",
			"CREATE TABLE t1 (x int, z int)", "CREATE TABLE t2 (y int, z int)",
			t1.insertSQL("t1"), t2.insertSQL("t2"),
		}
		for _, p := range append([]*peer{pgPeer}, joinds...) {
			for _, s := range setup {
				p.exec(t, s)
			}
		}
		for _, q := range notInQueries {
			want, wantErr := pgPeer.query(q)
			for _, j := range joinds {
				got, gotErr := j.query(q)
				if agree(want, wantErr, got, gotErr) {
					continue
				}
				failures++
				t.Errorf("%s disagrees with PostgreSQL (seed %d, iteration %d)\n%s\n%s\nquery: %s\npostgres: %v %v\njoind:    %v %v",
					j.name, seed, it, t1.insertSQL("t1"), t2.insertSQL("t2"), q, want, wantErr, got, gotErr)
			}
		}
	}
}

func agree(want []string, wantErr error, got []string, gotErr error) bool {
	if wantErr != nil || gotErr != nil {
		return wantErr != nil && gotErr != nil && sqlstate(wantErr) == sqlstate(gotErr)
	}
	return strings.Join(want, "\n") == strings.Join(got, "\n")
}

func sqlstate(err error) string {
	type coded interface{ SQLState() string }
	if c, ok := err.(coded); ok {
		return c.SQLState()
	}
	return err.Error()
}
