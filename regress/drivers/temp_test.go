package drivers

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
)

// TestTempTablesPerSession runs temporary tables through pgx's extended
// protocol on PostgreSQL 15 and on joind: a temporary table hides the
// permanent one in its session only, other sessions never see it, and it
// is gone after disconnect. The transcripts must be equal.
func TestTempTablesPerSession(t *testing.T) {
	sameTranscript(t, "drv_temp", "a: [temp 1]", tempTranscript)
}

func tempTranscript(t *testing.T, dsn string) string {
	t.Helper()
	ctx := context.Background()
	var b strings.Builder
	a, other := connect(t, dsn), connect(t, dsn)
	execSQL(t, a, "DROP TABLE IF EXISTS drv_tt", "CREATE TABLE drv_tt(v text)", "INSERT INTO drv_tt VALUES ('permanent')")
	// Through the extended protocol (pgx's default), with a parameter.
	if _, err := a.Exec(ctx, "CREATE TEMP TABLE drv_tt(v text)"); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Exec(ctx, "INSERT INTO drv_tt VALUES ($1)", "temp 1"); err != nil {
		t.Fatal(err)
	}
	rows := func(label string, c *pgx.Conn, sql string) {
		r, err := c.Query(ctx, sql)
		if err != nil {
			fmt.Fprintf(&b, "%s: error %v\n", label, err)
			return
		}
		var vals []string
		for r.Next() {
			var v string
			if err := r.Scan(&v); err != nil {
				t.Fatal(err)
			}
			vals = append(vals, v)
		}
		if err := r.Err(); err != nil {
			fmt.Fprintf(&b, "%s: error %v\n", label, err)
			return
		}
		fmt.Fprintf(&b, "%s: %v\n", label, vals)
	}
	rows("a", a, "SELECT v FROM drv_tt ORDER BY v")
	rows("a public", a, "SELECT v FROM public.drv_tt ORDER BY v")
	rows("a pg_temp", a, "SELECT v FROM pg_temp.drv_tt ORDER BY v")
	rows("other", other, "SELECT v FROM drv_tt ORDER BY v")
	rows("other pg_temp", other, "SELECT v FROM pg_temp.drv_tt ORDER BY v")
	a.Close(ctx)
	again := connect(t, dsn)
	rows("reconnected", again, "SELECT v FROM drv_tt ORDER BY v")
	execSQL(t, again, "DROP TABLE drv_tt")
	return b.String()
}
