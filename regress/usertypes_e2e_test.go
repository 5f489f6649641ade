package regress

import (
	"context"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/joind/joind/regress/joindtest"
)

// TestE2EEnumSurvivesRestart creates an enum type, a table of it and an
// array of it, changes the type, restarts joind on the same data
// directory, and checks that the type, its labels' order, the stored
// values and the RowDescription type OID (the enum's own) all survive.
func TestE2EEnumSurvivesRestart(t *testing.T) {
	j := joindtest.StartJoind(t)
	exec := func(c *pgx.Conn, qs ...string) {
		t.Helper()
		for _, q := range qs {
			if _, err := c.Exec(ctxT(t), q); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
	}
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
	c := connect()
	exec(c, "CREATE TYPE rs_mood AS ENUM ('sad', 'ok', 'happy')",
		"CREATE TABLE rs_t (m rs_mood, a rs_mood[])",
		"INSERT INTO rs_t VALUES ('happy', '{ok}'), ('sad', '{sad,happy}')",
		"ALTER TYPE rs_mood ADD VALUE 'meh' BEFORE 'ok'",
		"ALTER TYPE rs_mood RENAME VALUE 'ok' TO 'fine'",
		"INSERT INTO rs_t VALUES ('meh', NULL)")
	read := func(c *pgx.Conn) (string, uint32) {
		t.Helper()
		rows, err := c.Query(ctxT(t), "SELECT m::text || ':' || coalesce(a::text, '-') FROM rs_t ORDER BY m")
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
		rows, err = c.Query(ctxT(t), "SELECT m FROM rs_t LIMIT 1")
		if err != nil {
			t.Fatal(err)
		}
		oid := rows.FieldDescriptions()[0].DataTypeOID
		rows.Close()
		return strings.Join(out, " "), oid
	}
	var typeOID uint32
	if err := c.QueryRow(ctxT(t), "SELECT oid::int8 FROM pg_type WHERE typname = 'rs_mood'").Scan(&typeOID); err != nil {
		t.Fatal(err)
	}
	const want = "sad:{sad,happy} meh:- happy:{fine}"
	got, oid := read(c)
	if got != want || oid != typeOID {
		t.Fatalf("before the restart: %q (type OID %d), want %q (%d)", got, oid, want, typeOID)
	}
	c.Close(context.Background())
	dir := j.DataDir()
	j.Stop()
	j = joindtest.StartJoindWithDataDir(t, dir)
	c = connect()
	defer c.Close(context.Background())
	got, oid = read(c)
	if got != want || oid != typeOID {
		t.Fatalf("after the restart: %q (type OID %d), want %q (%d)", got, oid, want, typeOID)
	}
	var labels string
	if err := c.QueryRow(ctxT(t), "SELECT string_agg(enumlabel::text, ',' ORDER BY enumsortorder) FROM pg_enum WHERE enumtypid = $1::int8", typeOID).Scan(&labels); err != nil || labels != "sad,meh,fine,happy" {
		t.Fatalf("pg_enum after the restart: %q, %v", labels, err)
	}
	exec(c, "INSERT INTO rs_t VALUES ('fine', NULL)")
	if _, err := c.Exec(ctxT(t), "INSERT INTO rs_t VALUES ('ok', NULL)"); !hasCode(err, "22P02") {
		t.Fatalf("the renamed label: %v", err)
	}
}

// TestE2EEnumChangesFollowTheTransaction: a label ALTER TYPE ... ADD VALUE
// adds, and one RENAME VALUE renames, in an open transaction are that
// transaction's alone: another connection reads the committed labels
// (the new one is invalid input, 22P02, as in PostgreSQL, not 55P04),
// the transaction itself may not use the new label yet (55P04), and
// after the commit everyone sees both changes.
func TestE2EEnumChangesFollowTheTransaction(t *testing.T) {
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
		t.Cleanup(func() { c.Close(context.Background()) })
		return c
	}
	a, b := connect(), connect()
	exec := func(c *pgx.Conn, qs ...string) {
		t.Helper()
		for _, q := range qs {
			if _, err := c.Exec(ctxT(t), q); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
	}
	text := func(c *pgx.Conn, q string) (string, error) {
		var s string
		err := c.QueryRow(ctxT(t), q).Scan(&s)
		return s, err
	}
	exec(a, "CREATE TYPE tv_mood AS ENUM ('sad', 'ok')", "BEGIN",
		"ALTER TYPE tv_mood ADD VALUE 'new'", "ALTER TYPE tv_mood RENAME VALUE 'ok' TO 'fine'")
	if _, err := text(b, "SELECT 'new'::tv_mood::text"); !hasCode(err, "22P02") {
		t.Fatalf("the other session's new label: %v, want 22P02", err)
	}
	if s, err := text(b, "SELECT enum_range(NULL::tv_mood)::text"); err != nil || s != "{sad,ok}" {
		t.Fatalf("the other session's labels: %q, %v", s, err)
	}
	if s, err := text(a, "SELECT 'fine'::tv_mood::text"); err != nil || s != "fine" {
		t.Fatalf("the renamed label in its transaction: %q, %v", s, err)
	}
	if _, err := text(a, "SELECT 'new'::tv_mood::text"); !hasCode(err, "55P04") {
		t.Fatalf("the new label in its transaction: %v, want 55P04", err)
	}
	exec(a, "ROLLBACK", "BEGIN", "ALTER TYPE tv_mood ADD VALUE 'new'", "ALTER TYPE tv_mood RENAME VALUE 'ok' TO 'fine'", "COMMIT")
	if s, err := text(b, "SELECT enum_range(NULL::tv_mood)::text || 'new'::tv_mood::text"); err != nil || s != "{sad,fine,new}new" {
		t.Fatalf("after the commit: %q, %v", s, err)
	}
}
