package regress

import (
	"context"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/joind/joind/regress/joindtest"
)

// TestE2ECompositeSurvivesRestart creates composite types (one nested in
// the other), a table of them, an array of one and a column of a table's
// row type, adds an attribute, restarts joind on the same data directory,
// and checks that the values (the added attribute NULL in the old ones),
// the field selection and the RowDescription type OIDs (the types' own,
// and the table row type's pg_class.reltype) all survive.
func TestE2ECompositeSurvivesRestart(t *testing.T) {
	j := joindtest.StartJoind(t)
	connect := func() *pgx.Conn {
		t.Helper()
		cfg, err := pgx.ParseConfig(j.DSN())
		if err != nil {
			t.Fatal(err)
		}
		cfg.DefaultQueryExecMode = pgx.QueryExecModeSimpleProtocol
		c, err := pgx.ConnectConfig(ctxT(t), cfg)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	exec := func(c *pgx.Conn, qs ...string) {
		t.Helper()
		for _, q := range qs {
			if _, err := c.Exec(ctxT(t), q); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
	}
	c := connect()
	exec(c, "CREATE TYPE cs_pt AS (x int, y text)",
		"CREATE TYPE cs_seg AS (a cs_pt, b cs_pt)",
		"CREATE TABLE cs_name (first text, last text)",
		"CREATE TABLE cs_t (id int, p cs_pt, s cs_seg, ps cs_pt[], n cs_name)",
		`INSERT INTO cs_t VALUES (1, '(1,"a b")', ROW(ROW(2,'c'), NULL), ARRAY[ROW(3,'d')::cs_pt], '(Joe,Blow)')`,
		"ALTER TYPE cs_pt ADD ATTRIBUTE z int",
		"INSERT INTO cs_t VALUES (2, ROW(4,'e',5), NULL, NULL, NULL)")
	read := func(c *pgx.Conn) (string, []uint32) {
		t.Helper()
		rows, err := c.Query(ctxT(t), "SELECT id::text || ':' || coalesce(p::text, '-') || ':' || coalesce(s::text, '-') || ':' || coalesce(ps::text, '-') || ':' || coalesce((s).a.y, '-') || ':' || coalesce(n::text, '-') FROM cs_t ORDER BY id")
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for rows.Next() {
			var s string
			if err := rows.Scan(&s); err != nil {
				t.Fatal(err)
			}
			out = append(out, s)
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		rows, err = c.Query(ctxT(t), "SELECT p, s, ps, n FROM cs_t LIMIT 1")
		if err != nil {
			t.Fatal(err)
		}
		var oids []uint32
		for _, f := range rows.FieldDescriptions() {
			oids = append(oids, f.DataTypeOID)
		}
		rows.Close()
		return strings.Join(out, " "), oids
	}
	var want []uint32
	for _, q := range []string{"SELECT oid::int8 FROM pg_type WHERE typname = 'cs_pt'", "SELECT oid::int8 FROM pg_type WHERE typname = 'cs_seg'",
		"SELECT oid::int8 FROM pg_type WHERE typname = '_cs_pt'", "SELECT reltype::int8 FROM pg_class WHERE relname = 'cs_name'"} {
		var oid uint32
		if err := c.QueryRow(ctxT(t), q).Scan(&oid); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		want = append(want, oid)
	}
	const wantText = `1:(1,"a b",):("(2,c,)",):{"(3,d,)"}:c:(Joe,Blow) 2:(4,e,5):-:-:-:-`
	check := func(when string) {
		t.Helper()
		got, oids := read(c)
		if got != wantText || len(oids) != len(want) {
			t.Fatalf("%s: %q (type OIDs %v), want %q (%v)", when, got, oids, wantText, want)
		}
		for i := range want {
			if oids[i] != want[i] {
				t.Fatalf("%s: type OIDs %v, want %v", when, oids, want)
			}
		}
	}
	check("before the restart")
	c.Close(context.Background())
	dir := j.DataDir()
	j.Stop()
	j = joindtest.StartJoindWithDataDir(t, dir)
	c = connect()
	defer c.Close(context.Background())
	check("after the restart")
	exec(c, "INSERT INTO cs_t (id, p) VALUES (3, '(6,f,7)')")
	if _, err := c.Exec(ctxT(t), "INSERT INTO cs_t (id, p) VALUES (4, '(6,f)')"); !hasCode(err, "22P02") {
		t.Fatalf("a short literal after the restart: %v", err)
	}
}
