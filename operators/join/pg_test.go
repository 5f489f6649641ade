package join

import (
	"context"
	"fmt"
	"github.com/joind/joind/regress/oracle"
	"math/rand"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// TestReferenceAgainstPostgres checks the test's reference NOT IN / IN
// semantics against real PostgreSQL, so the matrix test's oracle is itself
// verified. It runs on a scratch PostgreSQL 15 (regress/oracle), or on the
// server JOIND_JOIN_PG names, e.g.
// JOIND_JOIN_PG="host=/tmp/pg-join55443 port=55443 user=postgres".
func TestReferenceAgainstPostgres(t *testing.T) {
	dsn := os.Getenv("JOIND_JOIN_PG")
	if dsn == "" {
		dsn = oracle.Start(t).DSN()
	}
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	queries := []struct {
		c   jcase
		sql string
	}{
		{jcase{typ: plan.AntiJoin, na: true, nkeys: 1}, "SELECT lk, lk2, lv FROM l WHERE lk NOT IN (SELECT rk FROM r)"},
		{jcase{typ: plan.AntiJoin, na: true, nkeys: 2, valueKeys: 1}, "SELECT lk, lk2, lv FROM l WHERE lk NOT IN (SELECT rk FROM r WHERE r.rk2 = l.lk2)"},
		{jcase{typ: plan.AntiJoin, na: true, nkeys: 2, valueKeys: 2}, "SELECT lk, lk2, lv FROM l WHERE (lk, lk2) NOT IN (SELECT rk, rk2 FROM r)"},
		{jcase{typ: plan.AntiJoin, na: true, nkeys: 1, residual: true}, "SELECT lk, lk2, lv FROM l WHERE lk NOT IN (SELECT rk FROM r WHERE l.lv < r.rv)"},
		{jcase{typ: plan.AntiJoin, na: true, nkeys: 2, valueKeys: 1, residual: true}, "SELECT lk, lk2, lv FROM l WHERE lk NOT IN (SELECT rk FROM r WHERE r.rk2 = l.lk2 AND l.lv < r.rv)"},
		{jcase{typ: plan.AntiJoin, na: true, nkeys: 2, valueKeys: 1, nullsEq: []bool{false, true}}, "SELECT lk, lk2, lv FROM l WHERE lk NOT IN (SELECT rk FROM r WHERE r.rk2 IS NOT DISTINCT FROM l.lk2)"},
		{jcase{typ: plan.MarkJoin, na: true, nkeys: 1}, "SELECT lk, lk2, lv, lk IN (SELECT rk FROM r) FROM l"},
		{jcase{typ: plan.MarkJoin, na: true, nkeys: 2, valueKeys: 1, residual: true}, "SELECT lk, lk2, lv, lk IN (SELECT rk FROM r WHERE r.rk2 = l.lk2 AND l.lv < r.rv) FROM l"},
		{jcase{typ: plan.MarkJoin, na: true, nkeys: 2, valueKeys: 2}, "SELECT lk, lk2, lv, (lk, lk2) IN (SELECT rk, rk2 FROM r) FROM l"},
		{jcase{typ: plan.AntiJoin, emitProbe: true, na: true, nkeys: 1}, "SELECT rk, rk2, rv FROM r WHERE rk NOT IN (SELECT lk FROM l)"},
		{jcase{typ: plan.AntiJoin, nkeys: 2, residual: true}, "SELECT lk, lk2, lv FROM l WHERE NOT EXISTS (SELECT FROM r WHERE lk = rk AND lk2 = rk2 AND lv < rv)"},
	}
	rng := rand.New(rand.NewSource(4))
	for round := 0; round < 25; round++ {
		L, R := genRows(rng, rng.Intn(8)), genRows(rng, rng.Intn(8))
		if round%5 == 0 {
			R = nil
		}
		for _, tb := range []struct {
			name string
			rows [][]types.Value
		}{{"l", L}, {"r", R}} {
			p := tb.name[:1]
			if _, err := conn.Exec(ctx, fmt.Sprintf("DROP TABLE IF EXISTS %s; CREATE TABLE %s (%sk int8, %sk2 int8, %sv int8)", tb.name, tb.name, p, p, p)); err != nil {
				t.Fatal(err)
			}
			for _, row := range tb.rows {
				args := make([]any, 3)
				for i, v := range row {
					if !v.Null {
						args[i] = v.I
					}
				}
				if _, err := conn.Exec(ctx, "INSERT INTO "+tb.name+" VALUES ($1, $2, $3)", args...); err != nil {
					t.Fatal(err)
				}
			}
		}
		for _, q := range queries {
			rows, err := conn.Query(ctx, q.sql)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for rows.Next() {
				vals, err := rows.Values()
				if err != nil {
					t.Fatal(err)
				}
				parts := make([]string, len(vals))
				for i, v := range vals {
					switch x := v.(type) {
					case nil:
						parts[i] = "N"
					case bool:
						parts[i] = map[bool]string{true: "t", false: "f"}[x]
					default:
						parts[i] = fmt.Sprint(x)
					}
				}
				got = append(got, strings.Join(parts, ","))
			}
			if rows.Err() != nil {
				t.Fatal(rows.Err())
			}
			slices.Sort(got)
			want := reference(q.c, L, R)
			if !slices.Equal(got, want) {
				t.Fatalf("%s\nL=%v\nR=%v\npostgres  %v\nreference %v", q.sql, L, R, got, want)
			}
		}
	}
}
