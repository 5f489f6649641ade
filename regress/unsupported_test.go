package regress

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
)

// TestUnsupportedOverWire sends statements PostgreSQL answers but joind
// does not implement, and checks each fails over the wire with SQLSTATE
// 0A000 (a message naming the feature, and the error position at the
// construct when at is set) rather than answering differently. Under
// JOIND_REGRESS_TARGET=postgres it checks instead that PostgreSQL answers
// every one, so the list cannot hold statements that are errors anyway.
// The features joind does implement are in sql/unsupported.sql.
func TestUnsupportedOverWire(t *testing.T) {
	ep := startTarget(t, regressDB)
	c := connect(t, ep)
	mustExec(t, c, "DROP TABLE IF EXISTS uw_t")
	mustExec(t, c, "CREATE TABLE uw_t (a int, b text)")
	mustExec(t, c, "INSERT INTO uw_t VALUES (1, 'x'), (2, NULL)")
	t.Cleanup(func() {
		c.Exec(context.Background(), "DROP TABLE IF EXISTS uw_t")
		c.Exec(context.Background(), "DROP TABLE IF EXISTS uw_c")
	})
	cases := []struct {
		sql string
		at  string // the error position is at this text's first occurrence ("" = not checked)
	}{
		{"SELECT a AS x, a AS y FROM uw_t GROUP BY x, ROLLUP (y)", "y)"},
		{"SELECT a FROM uw_t FOR UPDATE", ""},
		{`SELECT b FROM uw_t ORDER BY b COLLATE "en-x-icu"`, "COLLATE"},
		{"SELECT * FROM uw_t TABLESAMPLE bernoulli (100)", ""},
		// The parts of a statement with data-modifying WITH queries share one
		// snapshot in PostgreSQL; joind runs them in turn, so it refuses
		// parts whose tables overlap.
		{"WITH d AS (DELETE FROM uw_t WHERE a = 3 RETURNING a) SELECT * FROM uw_t", ""},
		{"WITH d AS (DELETE FROM uw_t WHERE a = 3), e AS (UPDATE uw_t SET b = 'u' WHERE a = 4) SELECT 1", ""},
		{"WITH d AS (DELETE FROM uw_t WHERE a = 3 RETURNING a, b) INSERT INTO uw_t SELECT * FROM d ON CONFLICT DO NOTHING", ""},
		{"EXPLAIN WITH d AS (DELETE FROM uw_t WHERE a = 3 RETURNING a) SELECT * FROM d", ""},
		{"CREATE TABLE uw_c (a int UNIQUE NULLS NOT DISTINCT)", "UNIQUE"},
		// PostgreSQL's regular expressions run on RE2 (types/regexp.go):
		// what RE2 cannot do the same way is refused.
		{`SELECT 'abab' ~ '(ab)\1'`, ""},
		{"SELECT 'ab' ~ 'a(?=b)'", ""},
		{"SELECT 'ab' ~ 'a(?<!b)'", ""},
		{"SELECT regexp_replace('xabcx', 'a.*?c.*', 'X')", ""},
		{`SELECT 'ab' ~ '\mab'`, ""},
		{"SELECT 'ab' ~ '[[:<:]]ab'", ""},
		{"SELECT 'ab' ~ '[[.a.]]b'", ""},
		{"SELECT regexp_count('aaa', '^a', 2)", ""},
		{"SELECT regexp_like('ab', 'a', 'b')", ""},
	}
	onPostgres := os.Getenv(targetEnv) == "postgres"
	for _, tc := range cases {
		_, err := c.Exec(ctxT(t), tc.sql)
		if onPostgres {
			if err != nil {
				t.Errorf("%s: PostgreSQL fails: %v", tc.sql, err)
			}
			continue
		}
		var pgErr *pgconn.PgError
		if !errors.As(err, &pgErr) {
			t.Errorf("%s: got %v, want SQLSTATE 0A000", tc.sql, err)
			continue
		}
		if pgErr.Code != "0A000" || !strings.Contains(pgErr.Message, "not supported") {
			t.Errorf("%s: got %s %q, want 0A000 naming the feature", tc.sql, pgErr.Code, pgErr.Message)
		}
		if tc.at != "" {
			if want := int32(strings.Index(tc.sql, tc.at) + 1); pgErr.Position != want {
				t.Errorf("%s: error position %d, want %d (at %q)", tc.sql, pgErr.Position, want, tc.at)
			}
		}
	}
}
