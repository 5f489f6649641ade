package regress

import (
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/joind/joind/regress/joindtest"
)

func sqlState(err error) string {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code
	}
	return ""
}

// TestConcurrentDuplicateKeys: two transactions insert the same primary
// key, neither seeing the other's uncommitted row; the later committer
// fails with 23505 and PostgreSQL's DETAIL, the key is stored once. (On
// PostgreSQL the second INSERT waits for the first transaction and then
// fails; joind does not block, its COMMIT fails instead.) Then many
// autocommit INSERTs of one key race: exactly one succeeds.
func TestConcurrentDuplicateKeys(t *testing.T) {
	j := joindtest.StartJoind(t, "--partitions", "2")
	ep := endpoint{name: "joind", dsn: j.DSN()}
	a, b := connect(t, ep), connect(t, ep)
	mustExec(t, a, "CREATE TABLE kc_t (id int PRIMARY KEY, v text)")
	mustExec(t, a, "BEGIN")
	mustExec(t, a, "INSERT INTO kc_t VALUES (1, 'a')")
	mustExec(t, b, "BEGIN")
	mustExec(t, b, "INSERT INTO kc_t VALUES (1, 'b')")
	mustExec(t, b, "INSERT INTO kc_t VALUES (2, 'b')")
	mustExec(t, a, "COMMIT")
	_, err := b.Exec(ctxT(t), "COMMIT")
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != "23505" || pe.Message != `duplicate key value violates unique constraint "kc_t_pkey"` ||
		pe.Detail != "Key (id)=(1) already exists." {
		t.Fatalf("second COMMIT: %v (%#v), want 23505 on kc_t_pkey", err, pe)
	}
	var n int
	var v string
	if err := a.QueryRow(ctxT(t), "SELECT count(*), min(v) FROM kc_t").Scan(&n, &v); err != nil || n != 1 || v != "a" {
		t.Fatalf("after the conflict: count=%d v=%q err=%v, want the first transaction's row only", n, v, err)
	}
	// The failed transaction left nothing: its key 2 is free.
	mustExec(t, b, "INSERT INTO kc_t VALUES (2, 'c')")

	const racers = 8
	conns := make([]*pgx.Conn, racers)
	for i := range conns {
		conns[i] = connect(t, ep)
	}
	var wg sync.WaitGroup
	errs := make([]error, racers)
	for i := 0; i < racers; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			_, errs[i] = conns[i].Exec(ctxT(t), fmt.Sprintf("INSERT INTO kc_t VALUES (100, 'r%d')", i))
		}(i)
	}
	wg.Wait()
	ok := 0
	for _, err := range errs {
		switch {
		case err == nil:
			ok++
		case sqlState(err) != "23505":
			t.Fatalf("racing insert: %v, want success or 23505", err)
		}
	}
	if err := a.QueryRow(ctxT(t), "SELECT count(*) FROM kc_t WHERE id = 100").Scan(&n); err != nil || ok != 1 || n != 1 {
		t.Fatalf("racing inserts of one key: %d succeeded, %d stored (err %v), want 1 and 1", ok, n, err)
	}
}
