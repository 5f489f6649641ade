package drivers

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/joind/joind/regress/joindtest"
	"github.com/joind/joind/regress/oracle"
)

// TestLimitParameters runs LIMIT / OFFSET / FETCH FIRST ... WITH TIES given by
// $n parameters through the extended protocol (pgx's default) on PostgreSQL
// 15 and on joind: NULL is no limit / no offset, negative values fail with
// 2201W / 2201X, WITH TIES takes the rows equal to the last. The transcripts
// must be equal.
func TestLimitParameters(t *testing.T) {
	pg := oracle.Start(t)
	pg.CreateDatabase(t, "drv_limit")
	j := joindtest.StartJoind(t)
	want := limitTranscript(t, pg.DSNFor("drv_limit"))
	got := limitTranscript(t, j.DSN())
	if !strings.Contains(want, "2201W") || !strings.Contains(want, "[0 0 0 1 1 1 1]") {
		t.Fatalf("PostgreSQL's transcript lacks the cases it should show:\n%s", want)
	}
	sameLines(t, "joind vs PostgreSQL", got, want)
}

func limitTranscript(t *testing.T, dsn string) string {
	t.Helper()
	ctx := context.Background()
	c := connect(t, dsn)
	execSQL(t, c, "DROP TABLE IF EXISTS drv_lim", "CREATE TABLE drv_lim(id int, k int)",
		"INSERT INTO drv_lim SELECT i, i / 4 FROM generate_series(1, 20) i")
	var b strings.Builder
	query := func(sql string, args ...any) {
		r, err := c.Query(ctx, sql, args...)
		var vals []int32
		for err == nil && r.Next() {
			var v int32
			if err = r.Scan(&v); err != nil {
				t.Fatal(err)
			}
			vals = append(vals, v)
		}
		if err == nil {
			err = r.Err()
		}
		if err != nil {
			fmt.Fprintf(&b, "%s %v: error %s\n", sql, args, pgCode(err))
			return
		}
		fmt.Fprintf(&b, "%s %v: %v\n", sql, args, vals)
	}
	const byID = "SELECT id FROM drv_lim ORDER BY id LIMIT $1 OFFSET $2"
	query(byID, 3, 2)
	query(byID, nil, 17)
	query(byID, 2, nil)
	query(byID, -1, 0)
	query(byID, 1, -1)
	const ties = "SELECT k FROM drv_lim ORDER BY k FETCH FIRST $1 ROWS WITH TIES"
	query(ties, 4)
	query(ties, 0)
	query(ties, nil)
	query("SELECT k FROM drv_lim ORDER BY k OFFSET $1 ROWS FETCH FIRST $2 ROWS WITH TIES", 2, 2)
	query("SELECT DISTINCT ON (k) id FROM drv_lim ORDER BY k, id DESC LIMIT $1", 3)
	return b.String()
}
