package sql

import (
	"strings"
	"testing"
)

func TestRenameSchemaInView(t *testing.T) {
	got, err := RenameSchemaInView(`SELECT s.t.a, u.b FROM s.t JOIN other.u ON true, public.w, x`, "s", "s2")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"s2.t.a", "FROM s2.t", "other.u", "public.w", " x"} {
		if !strings.Contains(got, want) {
			t.Errorf("%q lacks %q", got, want)
		}
	}
	if strings.Contains(got, " s.t") {
		t.Errorf("%q still names s", got)
	}
}

func TestReservedSchemaName(t *testing.T) {
	if err := reservedSchemaName("pg_x"); err == nil || !strings.Contains(err.Error(), "unacceptable schema name") {
		t.Fatalf("pg_x: %v", err)
	}
	if err := reservedSchemaName("pgx"); err != nil {
		t.Fatalf("pgx: %v", err)
	}
}
