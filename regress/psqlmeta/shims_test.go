package psqlmeta

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/joind/joind/pgcatalog"
	"github.com/joind/joind/regress/joindtest"
	"github.com/joind/joind/regress/oracle"
)

// TestShimReplay sends every client query a pgcatalog shim serves
// (pgcatalog.Shims, quoted in the shim's own file) to joind and to
// PostgreSQL 15, after the same setup, and requires the same answer:
// column names, row count and every value's text (NULL apart).
func TestShimReplay(t *testing.T) {
	if len(pgcatalog.Shims) == 0 {
		t.Fatal("pgcatalog registers no shims: nothing to replay")
	}
	pg := oracle.Start(t)
	const db = "psqlmeta_shims"
	pg.CreateDatabase(t, db)
	j := joindtest.StartJoind(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	open := func(dsn string) *pgx.Conn {
		cfg, err := pgx.ParseConfig(dsn)
		if err != nil {
			t.Fatal(err)
		}
		// The text protocol: the answers compare as PostgreSQL prints them
		// (joind's OIDs are int8, PostgreSQL's oid).
		cfg.DefaultQueryExecMode = pgx.QueryExecModeSimpleProtocol
		c, err := pgx.ConnectConfig(ctx, cfg)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close(context.Background()) })
		return c
	}
	pc, jc := open(pg.DSNFor(db)), open(j.DSNFor(db))
	for _, sh := range pgcatalog.Shims {
		t.Run(sh.Client, func(t *testing.T) {
			want, err := replay(ctx, pc, sh)
			if err != nil {
				t.Fatalf("PostgreSQL: %v", err)
			}
			got, err := replay(ctx, jc, sh)
			if err != nil {
				t.Fatalf("joind: %v", err)
			}
			if got != want {
				t.Errorf("joind answers %s's query differently:\n%s", sh.Client, diff(want, got))
			}
		})
	}
}

// replay runs sh's setup and query on c and prints the answer.
func replay(ctx context.Context, c *pgx.Conn, sh pgcatalog.Shim) (string, error) {
	for _, s := range sh.Setup {
		if _, err := c.Exec(ctx, s); err != nil {
			return "", fmt.Errorf("%s: %w", s, err)
		}
	}
	q := sh.Query
	if sh.OIDOf != "" {
		var oid string
		if err := c.QueryRow(ctx, "SELECT $1::regclass::oid::text", sh.OIDOf).Scan(&oid); err != nil {
			return "", fmt.Errorf("OID of %s: %w", sh.OIDOf, err)
		}
		q = strings.ReplaceAll(q, "{oid}", oid)
	}
	rows, err := c.Query(ctx, q)
	if err != nil {
		return "", err
	}
	defer rows.Close()
	var b strings.Builder
	for i, f := range rows.FieldDescriptions() {
		if i > 0 {
			b.WriteString(" | ")
		}
		b.WriteString(f.Name)
	}
	b.WriteString("\n")
	n := 0
	for rows.Next() {
		n++
		for i, v := range rows.RawValues() {
			if i > 0 {
				b.WriteString(" | ")
			}
			if v == nil {
				b.WriteString("NULL")
			} else {
				b.Write(v)
			}
		}
		b.WriteString("\n")
	}
	if err := rows.Err(); err != nil {
		return "", err
	}
	fmt.Fprintf(&b, "(%d rows)\n", n)
	return b.String(), nil
}
