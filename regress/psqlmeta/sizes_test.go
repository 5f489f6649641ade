package psqlmeta

import (
	"strconv"
	"strings"
	"testing"

	"github.com/joind/joind/regress/joindtest"
	"github.com/joind/joind/regress/oracle"
)

// TestDescribeSizes checks the + forms that show sizes (\dt+, \di+, \dv+,
// \l+): everything but the Size column as PostgreSQL prints it (a size is
// of joind's files, not PostgreSQL's heap pages), and the sizes
// themselves: a table's is above zero and grows as rows are inserted.
func TestDescribeSizes(t *testing.T) {
	pg := oracle.Start(t)
	const db = "psqlmeta_sz"
	pg.CreateDatabase(t, db)
	j := joindtest.StartJoind(t)
	setup := `CREATE TABLE sz_t (a int PRIMARY KEY, b text);
CREATE INDEX sz_t_b ON sz_t (b);
INSERT INTO sz_t SELECT g, 'row ' || g FROM generate_series(1, 1000) g;
CREATE VIEW sz_v AS SELECT a FROM sz_t WHERE a > 10;
COMMENT ON TABLE sz_t IS 'sized';`
	for _, s := range []struct {
		host string
		port int
	}{{pg.Host(), pg.Port()}, {j.Host(), j.Port()}} {
		if out := psql(t, s.host, s.port, db, []byte(setup)); strings.Contains(out, "ERROR") {
			t.Fatalf("setup: %s", out)
		}
	}
	for _, cmd := range []string{`\dt+ sz_*`, `\di+ sz_*`, `\dv+ sz_*`, `\l+ ` + db} {
		want := withoutColumn(t, runPsql(t, pg.Host(), pg.Port(), db, cmd), "Size")
		got := withoutColumn(t, runPsql(t, j.Host(), j.Port(), db, cmd), "Size")
		if got != want {
			t.Errorf("%s differs (Size column left out):\n%s", cmd, diff(want, got))
		}
	}

	size := func(expr string) int64 {
		t.Helper()
		out := strings.TrimSpace(psql(t, j.Host(), j.Port(), db, nil, "-At", "-c", "SELECT "+expr))
		n, err := strconv.ParseInt(out, 10, 64)
		if err != nil {
			t.Fatalf("SELECT %s: %q", expr, out)
		}
		return n
	}
	before := size("pg_table_size('sz_t')")
	if before <= 0 || size("pg_relation_size('sz_t')") != before || size("pg_total_relation_size('sz_t')") < before {
		t.Errorf("sizes of a table of 1000 rows: table %d, relation %d, total %d", before,
			size("pg_relation_size('sz_t')"), size("pg_total_relation_size('sz_t')"))
	}
	if n := size("pg_database_size(current_database())"); n < before {
		t.Errorf("pg_database_size %d < the table's %d", n, before)
	}
	if n := size("pg_tablespace_size('pg_default')"); n < before {
		t.Errorf("pg_tablespace_size %d < the table's %d", n, before)
	}
	psql(t, j.Host(), j.Port(), db, []byte("INSERT INTO sz_t SELECT g, 'row ' || g FROM generate_series(1001, 50000) g;"))
	if after := size("pg_table_size('sz_t')"); after <= before {
		t.Errorf("pg_table_size after 49000 more rows: %d, before %d", after, before)
	}
	if n := size("pg_relation_size('sz_v')"); n != 0 {
		t.Errorf("a view's size: %d", n)
	}
}

// withoutColumn is psql's aligned table output with the named column
// left out of the header and every row (cells split on " | ", the
// column's position taken from the header line), trailing spaces trimmed.
func withoutColumn(t *testing.T, out, name string) string {
	t.Helper()
	lines := strings.Split(out, "\n")
	col := -1
	var b strings.Builder
	for _, l := range lines {
		cells := strings.Split(l, "|")
		if col < 0 {
			for i, c := range cells {
				if strings.TrimSpace(c) == name {
					col = i
				}
			}
			if col >= 0 {
				cells = append(cells[:col:col], cells[col+1:]...)
				for i := range cells {
					cells[i] = strings.TrimSpace(cells[i])
				}
				b.WriteString(strings.Join(cells, "|") + "\n")
				continue
			}
		} else if len(cells) > col && !strings.HasPrefix(l, "-") && !strings.HasPrefix(l, "(") {
			cells = append(cells[:col:col], cells[col+1:]...)
			for i := range cells {
				cells[i] = strings.TrimSpace(cells[i])
			}
			b.WriteString(strings.Join(cells, "|") + "\n")
			continue
		}
		if strings.HasPrefix(l, "---") {
			continue // the rule's widths follow the cells'
		}
		b.WriteString(strings.TrimSpace(l) + "\n")
	}
	if col < 0 {
		t.Errorf("no %s column in:\n%s", name, out)
	}
	return b.String()
}
