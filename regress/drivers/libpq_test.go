package drivers

import (
	"database/sql"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/joind/joind/regress/joindtest"
	"github.com/lib/pq"
)

// TestLibPq uses lib/pq through database/sql: text-format parameters in
// server-prepared statements, transactions, COPY FROM with pq.CopyIn.
func TestLibPq(t *testing.T) {
	j := joindtest.StartJoind(t)
	db, err := sql.Open("postgres", "host=127.0.0.1 port="+itoa(j.Port())+" dbname=regression user=pq sslmode=disable")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	mustExec := func(q string, args ...any) {
		t.Helper()
		if _, err := db.Exec(q, args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	mustExec(`create table lp (id int8, name varchar(10), at timestamp, amount numeric(6,2), ok bool)`)
	at := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
	for i := 0; i < 5; i++ {
		mustExec(`insert into lp values ($1, $2, $3, $4, $5)`, i, "name"+itoa(i), at.Add(time.Duration(i)*time.Hour), float64(i)+0.25, i%2 == 0)
	}
	var n int
	var sum string
	if err := db.QueryRow(`select count(*), sum(amount)::text from lp where at >= $1 and ok = $2`, at.Add(time.Hour), true).Scan(&n, &sum); err != nil || n != 2 || sum != "6.50" {
		t.Errorf("query: %d %q %v", n, sum, err)
	}

	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	stmt, err := tx.Prepare(pq.CopyIn("lp", "id", "name", "ok"))
	if err != nil {
		t.Fatal(err)
	}
	for i := 100; i < 300; i++ {
		if _, err := stmt.Exec(i, "c"+itoa(i%7), i%3 == 0); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := stmt.Exec(); err != nil {
		t.Fatal(err)
	}
	stmt.Close()
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if err := db.QueryRow(`select count(*) from lp where id >= 100`).Scan(&n); err != nil || n != 200 {
		t.Errorf("after CopyIn: %d %v", n, err)
	}

	// A rolled-back transaction leaves nothing behind; errors carry SQLSTATE.
	tx, _ = db.Begin()
	if _, err := tx.Exec(`insert into lp (id) values (999)`); err != nil {
		t.Fatal(err)
	}
	_, err = tx.Exec(`insert into lp (name) values ('much too long for ten')`)
	var pe *pq.Error
	if !errors.As(err, &pe) || pe.Code != "22001" || !strings.Contains(pe.Message, "value too long") {
		t.Errorf("varchar overflow: %v", err)
	}
	tx.Rollback()
	if err := db.QueryRow(`select count(*) from lp where id = 999`).Scan(&n); err != nil || n != 0 {
		t.Errorf("after rollback: %d %v", n, err)
	}
}
