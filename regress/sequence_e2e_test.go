package regress

import (
	"context"
	"errors"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

func hasCode(err error, code string) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == code
}

// TestE2ESequencesExtended runs the sequence functions through the
// extended protocol: a $1 naming the sequence (regclass input at run
// time), serial INSERTs with parameters, and concurrent nextval from
// several connections that never share a value.
func TestE2ESequencesExtended(t *testing.T) {
	ep := startTarget(t, regressDB)
	c, err := pgx.Connect(ctxT(t), ep.dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(context.Background())
	for _, q := range []string{"DROP TABLE IF EXISTS e2e_ser", "DROP SEQUENCE IF EXISTS e2e_seq",
		"CREATE SEQUENCE e2e_seq", "CREATE TABLE e2e_ser (a serial, b int)"} {
		if _, err := c.Exec(ctxT(t), q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	t.Cleanup(func() {
		c.Exec(context.Background(), "DROP TABLE IF EXISTS e2e_ser")
		c.Exec(context.Background(), "DROP SEQUENCE IF EXISTS e2e_seq")
	})
	for i := int64(1); i <= 3; i++ {
		var v int64
		if err := c.QueryRow(ctxT(t), "SELECT nextval($1)", "E2E_SEQ").Scan(&v); err != nil || v != i {
			t.Fatalf("nextval($1) = %d, %v; want %d", v, err, i)
		}
		if _, err := c.Exec(ctxT(t), "INSERT INTO e2e_ser (b) VALUES ($1)", i*10); err != nil {
			t.Fatal(err)
		}
	}
	var cur int64
	if err := c.QueryRow(ctxT(t), "SELECT currval('e2e_seq'::regclass)").Scan(&cur); err != nil || cur != 3 {
		t.Fatalf("currval = %d, %v", cur, err)
	}
	if _, err := c.Exec(ctxT(t), "SELECT nextval($1)", "e2e_nosuch"); err == nil || !hasCode(err, "42P01") {
		t.Fatalf("nextval of a missing sequence: %v", err)
	}
	var n, max int64
	if err := c.QueryRow(ctxT(t), "SELECT count(*), max(a) FROM e2e_ser WHERE a = b / 10").Scan(&n, &max); err != nil || n != 3 || max != 3 {
		t.Fatalf("serial rows: count %d max %d, %v", n, max, err)
	}
	// Concurrent sessions never share a value.
	const clients, each = 4, 50
	got := make(chan int64, clients*each)
	errs := make(chan error, clients)
	for w := 0; w < clients; w++ {
		go func() {
			cc, err := pgx.Connect(context.Background(), ep.dsn)
			if err != nil {
				errs <- err
				return
			}
			defer cc.Close(context.Background())
			for i := 0; i < each; i++ {
				var v int64
				if err := cc.QueryRow(context.Background(), "SELECT nextval('e2e_seq')").Scan(&v); err != nil {
					errs <- err
					return
				}
				got <- v
			}
			errs <- nil
		}()
	}
	for w := 0; w < clients; w++ {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	close(got)
	seen := map[int64]bool{}
	for v := range got {
		if seen[v] || v <= 3 {
			t.Fatalf("value %d handed out twice", v)
		}
		seen[v] = true
	}
}
