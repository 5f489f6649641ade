package regress

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/joind/joind/regress/joindtest"
	"github.com/joind/joind/regress/oracle"
)

// TestE2EDomainArraysSurviveRestart: a column of an array of a domain and
// one of a domain over that array keep their types across a restart (the
// manifest names them by the array type's OID), RowDescription sends the
// domain's array type (pg_type.typarray), and the elements are still
// checked against the domain afterwards; each compared with PostgreSQL.
func TestE2EDomainArraysSurviveRestart(t *testing.T) {
	pg := oracle.Start(t)
	j := joindtest.StartJoind(t)
	joind := func() *pgx.Conn { return connect(t, endpoint{name: "joind", dsn: j.DSN()}) }
	c, p := joind(), connect(t, endpoint{name: "postgres", dsn: pg.DSN()})
	for _, q := range []string{
		"DROP TABLE IF EXISTS dr_t", "DROP DOMAIN IF EXISTS dr_pair", "DROP DOMAIN IF EXISTS dr_pos",
		"CREATE DOMAIN dr_pos AS int CHECK (value > 0)",
		"CREATE DOMAIN dr_pair AS dr_pos[] CHECK (array_length(value, 1) < 3)",
		"CREATE TABLE dr_t (a dr_pos[], b dr_pair)",
		"INSERT INTO dr_t VALUES ('{1,2}', '{3}')",
	} {
		for _, conn := range []*pgx.Conn{c, p} {
			if _, err := conn.Exec(ctxT(t), q); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
	}
	read := func(c *pgx.Conn) (string, uint32) {
		t.Helper()
		rows, err := c.Query(ctxT(t), "SELECT a::text || ' ' || b::text || ' ' || pg_typeof(a)::text || ' ' || pg_typeof(b)::text || ' ' || pg_typeof(b[1])::text, a FROM dr_t")
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		oid := rows.FieldDescriptions()[1].DataTypeOID
		var s string
		for rows.Next() {
			var a any
			if err := rows.Scan(&s, &a); err != nil {
				t.Fatal(err)
			}
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		return s, oid
	}
	typarray := func(c *pgx.Conn) uint32 {
		t.Helper()
		var oid uint32
		if err := c.QueryRow(ctxT(t), "SELECT typarray::int8 FROM pg_type WHERE typname = 'dr_pos'").Scan(&oid); err != nil {
			t.Fatal(err)
		}
		return oid
	}
	arrOID := typarray(c)
	want, pgOID := read(p)
	if pgOID != typarray(p) {
		t.Fatalf("PostgreSQL sends type OID %d, its typarray is %d", pgOID, typarray(p))
	}
	for _, when := range []string{"before", "after"} {
		if when == "after" {
			c.Close(context.Background())
			j.Stop()
			j = joindtest.StartJoindWithDataDir(t, j.DataDir())
			c = joind()
		}
		if got, oid := read(c); got != want || oid != arrOID {
			t.Fatalf("%s the restart: %q (type OID %d), want %q (%d)", when, got, oid, want, arrOID)
		}
	}
	for _, q := range []string{"INSERT INTO dr_t VALUES ('{-1}', NULL)", "INSERT INTO dr_t VALUES (NULL, '{-1}')", "UPDATE dr_t SET a[1] = 0", "UPDATE dr_t SET b = b || '{5,6}'::int[]"} {
		_, pgErr := p.Exec(ctxT(t), q)
		_, err := c.Exec(ctxT(t), q)
		if pgErr == nil || err == nil || pgErr.Error() != err.Error() {
			t.Fatalf("%s after the restart: joind %v, PostgreSQL %v", q, err, pgErr)
		}
	}
}
