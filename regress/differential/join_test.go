package differential

import (
	"fmt"
	"math/rand"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/joind/joind/regress/joindtest"
	"github.com/joind/joind/regress/oracle"
)

// joinQueries cover every join type over a(k, v, s) and b(k, w, s) with NULL
// and duplicate keys and empty sides; each runs on joind with 1, 2 and 8
// partitions, under the CollectLeft and the Partitioned join modes.
var joinQueries = []string{
	`SELECT a.k, a.v, b.k, b.w FROM a JOIN b ON a.k = b.k`,
	`SELECT a.k, a.v, b.k, b.w FROM a LEFT JOIN b ON a.k = b.k`,
	`SELECT a.k, a.v, b.k, b.w FROM a RIGHT JOIN b ON a.k = b.k`,
	`SELECT a.k, a.v, b.k, b.w FROM a FULL JOIN b ON a.k = b.k`,
	`SELECT a.k, b.k FROM a CROSS JOIN b`,
	`SELECT a.k, a.v, b.w FROM a JOIN b ON a.k = b.k AND a.v < b.w`,
	`SELECT a.k, a.v, b.w FROM a LEFT JOIN b ON a.k = b.k AND b.w > 2`,
	`SELECT a.k, a.v, b.w FROM a LEFT JOIN b ON a.k = b.k AND a.v > 2`,
	`SELECT a.k, a.v, b.w FROM a RIGHT JOIN b ON a.k = b.k AND a.v <> b.w`,
	`SELECT a.k, a.v, b.w FROM a FULL JOIN b ON a.k = b.k AND a.v <= b.w`,
	`SELECT a.k, a.v FROM a LEFT JOIN b ON a.k = b.k WHERE b.k IS NULL`,
	`SELECT k, a.v, b.w FROM a JOIN b USING (k)`,
	`SELECT k, a.v, b.w FROM a FULL JOIN b USING (k)`,
	`SELECT a.k, a.v FROM a WHERE EXISTS (SELECT 1 FROM b WHERE b.k = a.k)`,
	`SELECT a.k, a.v FROM a WHERE NOT EXISTS (SELECT 1 FROM b WHERE b.k = a.k AND b.w > a.v)`,
	`SELECT a.k, a.v, b.w FROM a JOIN b ON a.k = b.k AND a.v = b.w`,
	`SELECT a.k, b.k FROM a JOIN b ON a.k IS NOT DISTINCT FROM b.k`,
	`SELECT a.k, a.v, b.w FROM a JOIN b ON a.s = b.s`,
	`SELECT a.k, a.v, b.w FROM a LEFT JOIN b ON a.s = b.s AND a.k = b.k`,
	`SELECT a.k, b.k FROM a JOIN b ON a.k < b.k`,
	`SELECT a.k, b.k FROM a LEFT JOIN b ON a.k < b.k`,
	`SELECT a.k, b.k FROM a RIGHT JOIN b ON a.k + 1 = b.k + 1`,
	`SELECT a.k, b.w, c.k FROM a JOIN b ON a.k = b.k JOIN a c ON b.w = c.v`,
	`SELECT a.k, b.w, c.k FROM a LEFT JOIN b ON a.k = b.k LEFT JOIN a c ON b.w = c.v`,
	`SELECT count(*), count(b.k), sum(a.v) FROM a JOIN b ON a.k = b.k`,
	`SELECT a.k, count(b.w) FROM a LEFT JOIN b ON a.k = b.k GROUP BY a.k`,
	`SELECT x.k, y.k FROM (SELECT DISTINCT k FROM a) x FULL JOIN (SELECT DISTINCT k FROM b) y ON x.k = y.k`,
}

func genJoinTable(r *rand.Rand) string {
	n := r.Intn(9)
	if r.Intn(8) == 0 {
		n = 0
	}
	nullRate := []int{0, 10, 30}[r.Intn(3)]
	var rows []string
	for i := 0; i < n; i++ {
		cell := func(domain int) string {
			if r.Intn(100) < nullRate {
				return "NULL"
			}
			return strconv.Itoa(r.Intn(domain))
		}
		s := "NULL"
		if r.Intn(100) >= nullRate {
			s = fmt.Sprintf("'s%d'", r.Intn(3))
		}
		rows = append(rows, fmt.Sprintf("(%s, %s, %s)", cell(4), cell(5), s))
	}
	return strings.Join(rows, ", ")
}

func TestJoinsAgreeWithPostgres(t *testing.T) {
	pg := oracle.Start(t)
	db := fmt.Sprintf("join_diff_%d", time.Now().UnixNano()%1e9)
	pg.CreateDatabase(t, db)
	pgPeer := connect(t, "postgres", pg.DSNFor(db))
	type config struct {
		peer *peer
		mode string
	}
	var configs []config
	for _, parts := range []string{"1", "2", "8"} {
		j := joindtest.StartJoind(t, "--partitions", parts)
		for _, mode := range []string{"collect_left", "partitioned"} {
			p := connect(t, fmt.Sprintf("joind(partitions=%s, %s)", parts, mode), j.DSN())
			p.exec(t, "SET joind.join_mode = "+mode)
			configs = append(configs, config{p, mode})
		}
	}
	seed := time.Now().UnixNano()
	if s := os.Getenv("JOIND_DIFF_SEED"); s != "" {
		seed, _ = strconv.ParseInt(s, 10, 64)
	}
	t.Logf("seed %d (replay with JOIND_DIFF_SEED=%d)", seed, seed)
	r := rand.New(rand.NewSource(seed))
	n := iterations(t) / 2
	failures := 0
	for it := 0; it < n && failures < 5; it++ {
		setup := []string{"DROP TABLE IF EXISTS a", "DROP TABLE IF EXISTS b",
			"CREATE TABLE a (k int, v int, s text)", "CREATE TABLE b (k int, w int, s text)"}
		if rows := genJoinTable(r); rows != "" {
			setup = append(setup, "INSERT INTO a VALUES "+rows)
		}
		if rows := genJoinTable(r); rows != "" {
			setup = append(setup, "INSERT INTO b VALUES "+rows)
		}
		for _, s := range setup {
			pgPeer.exec(t, s)
		}
		// Every joind config shares its server's tables: set up once per server.
		for i, c := range configs {
			if i%2 == 0 {
				for _, s := range setup {
					c.peer.exec(t, s)
				}
			}
		}
		for _, q := range joinQueries {
			want, wantErr := pgPeer.query(q)
			for _, c := range configs {
				got, gotErr := c.peer.query(q)
				if agree(want, wantErr, got, gotErr) {
					continue
				}
				failures++
				t.Errorf("%s disagrees with PostgreSQL (seed %d, iteration %d)\n%s\nquery: %s\npostgres: %v %v\njoind:    %v %v",
					c.peer.name, seed, it, strings.Join(setup[4:], "\n"), q, want, wantErr, got, gotErr)
			}
		}
	}
}
