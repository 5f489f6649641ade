package regress

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/math"
	"github.com/apache/iceberg-go/table"
	"github.com/jackc/pgx/v5"

	"github.com/joind/joind/regress/joindtest"
	"github.com/joind/joind/regress/oracle"
)

// TestE2EIcebergDelete: DELETE and UPDATE on an Iceberg table iceberg-go
// wrote (partitioned, schema evolved, a delete of its own already) and on
// one joind created leave the rows PostgreSQL's same statements leave,
// with PostgreSQL's command tags and RETURNING rows; a rolled-back change
// leaves the table as it was, a committed transaction's changes survive a
// restart, and iceberg-go, reading the metadata file joind committed,
// sees the same rows (the position delete files are Iceberg's).
func TestE2EIcebergDelete(t *testing.T) {
	dir := t.TempDir()
	rows, _, _ := writeIcebergTable(t, ctxT(t), filepath.Join(dir, "wh"))

	pg := oracle.Start(t)
	pg.CreateDatabase(t, "iceberg_delete")
	pgc := connect(t, endpoint{name: "postgres", dsn: pg.DSNFor("iceberg_delete")})
	loadIcebergOracle(t, pgc, "events", rows)

	data := t.TempDir()
	j := joindtest.StartJoindWithDataDir(t, data, "--copy-dirs", dir)
	jc := connect(t, endpoint{name: "joind", dsn: j.DSN()})
	mustExec(t, jc, "CREATE EXTENSION iceberg")
	mustExec(t, jc, "CREATE SERVER lake FOREIGN DATA WRAPPER iceberg")
	mustExec(t, jc, "CREATE FOREIGN TABLE events () SERVER lake OPTIONS (location 'wh/ns/events')")

	both := func(q string) {
		t.Helper()
		want := taggedResult(ctxT(t), pgc, q)
		if got := taggedResult(ctxT(t), jc, q); got != want {
			t.Errorf("%s\n joind:\n%s\n postgres:\n%s", q, got, want)
		}
	}
	compare := func(when string) {
		t.Helper()
		for _, q := range append(icebergQueries, "SELECT * FROM {T} WHERE id % 97 = 1 ORDER BY id") {
			q = strings.ReplaceAll(q, "{T}", "events")
			want := rawResult(ctxT(t), pgc, q)
			if got := rawResult(ctxT(t), jc, q); got != want {
				t.Errorf("%s: %s\n joind:\n%s\n postgres:\n%s", when, q, got, want)
			}
		}
	}
	// Each statement's tag and RETURNING rows are PostgreSQL's.
	for _, q := range []string{
		"DELETE FROM events WHERE id % 10 = 3",
		"DELETE FROM events WHERE d = date '2022-01-08' AND id % 3 = 0 RETURNING id, k, note",
		"UPDATE events SET note = 'up-' || id, amount = amount * 2 WHERE id BETWEEN 990 AND 1010",
		"UPDATE events SET d = d + 1 WHERE k = 'k07' RETURNING id, d, note",
		"UPDATE events e SET k = v.k FROM (VALUES (1001, 'x1'), (1002, 'x2'), (2, 'x3')) v(id, k) WHERE e.id = v.id",
		"DELETE FROM events e USING (VALUES (5), (6), (7), (1003)) v(id) WHERE e.id = v.id",
		"DELETE FROM events WHERE id IN (SELECT id FROM events WHERE note IS NULL AND id % 7 = 0)",
		"UPDATE events SET amount = NULL WHERE id = 1004",
		"DELETE FROM events WHERE false",
		"UPDATE events SET note = note WHERE id < 0",
	} {
		mustExec(t, pgc, "BEGIN")
		both(q)
		mustExec(t, pgc, "COMMIT")
	}
	compare("after the changes")
	// ROLLBACK leaves the table as it was; a transaction sees its own
	// changes and commits them all.
	mustExec(t, jc, "BEGIN")
	if got := taggedResult(ctxT(t), jc, "DELETE FROM events WHERE id < 500"); !strings.HasPrefix(got, "DELETE ") {
		t.Errorf("DELETE in a transaction: %s", got)
	}
	if got := rawResult(ctxT(t), jc, "SELECT count(*) FROM events WHERE id < 500"); got != "0" {
		t.Errorf("the transaction's own delete unseen: %s", got)
	}
	mustExec(t, jc, "ROLLBACK")
	mustExec(t, pgc, "BEGIN")
	mustExec(t, jc, "BEGIN")
	for _, q := range []string{
		"INSERT INTO events (id, k, note) SELECT g, 'n' || (g % 5), 'new' FROM generate_series(9000, 9099) g",
		"DELETE FROM events WHERE id BETWEEN 9000 AND 9049",
		"UPDATE events SET note = 'newer' WHERE id >= 9090",
		"DELETE FROM events WHERE id BETWEEN 100 AND 199",
	} {
		both(q)
	}
	mustExec(t, pgc, "COMMIT")
	mustExec(t, jc, "COMMIT")
	compare("after a committed transaction")
	// MERGE stays refused.
	if got := rawResult(ctxT(t), jc, "MERGE INTO events e USING (VALUES (1)) v(id) ON e.id = v.id WHEN MATCHED THEN DELETE"); !strings.HasPrefix(got, "ERROR 0A000") {
		t.Errorf("MERGE: %s", got)
	}

	// iceberg-go reads the metadata file joind committed: the same rows.
	meta := rawResult(ctxT(t), jc, "SELECT option_value FROM pg_options_to_table((SELECT ftoptions FROM pg_foreign_table WHERE ftrelid = 'events'::regclass)) WHERE option_name = 'metadata_file'")
	checkIcebergGo(t, pgc, meta, "events")

	// The changes are joind's catalog's: they survive a restart.
	j.Stop()
	j = joindtest.StartJoindWithDataDir(t, data, "--copy-dirs", dir)
	jc = connect(t, endpoint{name: "joind", dsn: j.DSN()})
	compare("after a restart")

	// A partitioned table joind creates: UPDATE moves rows between
	// partitions; a DELETE of a whole partition's rows.
	mustExec(t, pgc, "CREATE TABLE parted (id bigint, day date, v int NOT NULL)")
	mustExec(t, jc, "CREATE FOREIGN TABLE parted (id bigint, day date, v int NOT NULL) SERVER lake OPTIONS (location 'parted', partition_by 'day')")
	for _, q := range []string{
		"INSERT INTO parted SELECT g, date '2024-01-01' + g % 4, g % 10 FROM generate_series(1, 1000) g",
		"UPDATE parted SET day = day + 10 WHERE v = 3",
		"DELETE FROM parted WHERE day = date '2024-01-02'",
		"UPDATE parted SET v = v + 100 WHERE id % 17 = 0",
		"INSERT INTO parted SELECT g, date '2024-01-02', 1 FROM generate_series(2000, 2009) g",
	} {
		both(q)
	}
	if got := rawResult(ctxT(t), jc, "UPDATE parted SET v = NULL WHERE id = 4"); !strings.HasPrefix(got, "ERROR 23502") {
		t.Errorf("UPDATE to NULL in a NOT NULL column: %s", got)
	}
	for _, q := range []string{
		"SELECT day, count(*), sum(v), sum(id) FROM parted GROUP BY day ORDER BY day",
		"SELECT * FROM parted WHERE id % 101 = 0 ORDER BY id",
	} {
		both(q)
	}
	meta = rawResult(ctxT(t), jc, "SELECT option_value FROM pg_options_to_table((SELECT ftoptions FROM pg_foreign_table WHERE ftrelid = 'parted'::regclass)) WHERE option_name = 'metadata_file'")
	checkIcebergGo(t, pgc, meta, "parted")

	// A foreign table reading a past snapshot is read-only.
	var snapID int64
	tbl, err := table.NewFromLocation(ctxT(t), table.Identifier{"p"}, meta, icebergLocalFS, nil)
	if err != nil {
		t.Fatal(err)
	}
	snapID = tbl.CurrentSnapshot().SnapshotID
	mustExec(t, jc, fmt.Sprintf("CREATE FOREIGN TABLE parted_then () SERVER lake OPTIONS (location '%s', snapshot_id '%d')", meta, snapID))
	for _, q := range []string{"DELETE FROM parted_then", "UPDATE parted_then SET v = 1"} {
		if got := rawResult(ctxT(t), jc, q); !strings.HasPrefix(got, "ERROR 0A000") {
			t.Errorf("%s: %s", q, got)
		}
	}
}

// checkIcebergGo checks that iceberg-go, reading the Iceberg metadata file
// meta, finds the row count and id sum PostgreSQL has in table name.
func checkIcebergGo(t *testing.T, pgc *pgx.Conn, meta, name string) {
	t.Helper()
	tbl, err := table.NewFromLocation(ctxT(t), table.Identifier{"ns", name}, meta, icebergLocalFS, nil)
	if err != nil {
		t.Fatal(err)
	}
	at, err := tbl.Scan(table.WithSelectedFields("id")).ToArrowTable(ctxT(t))
	if err != nil {
		t.Fatal(err)
	}
	defer at.Release()
	var sum int64
	for _, c := range at.Column(0).Data().Chunks() {
		sum += math.Int64.Sum(c.(*array.Int64))
	}
	if got, want := fmt.Sprintf("%d %d", at.NumRows(), sum), rawResult(ctxT(t), pgc, "SELECT count(*) || ' ' || sum(id) FROM "+name); got != want {
		t.Errorf("%s: iceberg-go reads count and sum(id) %s, PostgreSQL %s", name, got, want)
	}
}

// taggedResult is rawResult's rows, sorted (a statement's row order is
// not part of its answer without ORDER BY), and each result's command
// tag.
func taggedResult(ctx context.Context, c *pgx.Conn, sql string) string {
	res, err := c.PgConn().Exec(ctx, sql).ReadAll()
	if err != nil {
		return describeErr(err)
	}
	var out []string
	for _, r := range res {
		var rows []string
		for _, row := range r.Rows {
			var cells []string
			for _, v := range row {
				if v == nil {
					cells = append(cells, "NULL")
				} else {
					cells = append(cells, string(v))
				}
			}
			rows = append(rows, strings.Join(cells, "|"))
		}
		sort.Strings(rows)
		out = append(append(out, rows...), r.CommandTag.String())
	}
	return strings.Join(out, "\n")
}
