package regress

import (
	"testing"

	"github.com/joind/joind/regress/joindtest"
)

// TestMonitoringChargesExecuteToPrepare: EXECUTE counts in
// pg_stat_statements under its PREPARE, as PostgreSQL does (its
// ProcessUtility hook tracks neither PREPARE nor EXECUTE; the executor
// hooks charge the prepared statement, whose text is the PREPARE's with
// the constants after its parameters normalized). The wanted rows are
// PostgreSQL 15's with pg_stat_statements preloaded, for the same
// statements:
//
//	prepare ins(int) as insert into mp_t values ($1), ($1 + $2) | 2 | 4
//	prepare p as select $1::int + $2 as x                       | 2 | 2
//
// and pg_stat_user_tables.n_tup_ins counts the EXECUTEd INSERT's rows.
func TestMonitoringChargesExecuteToPrepare(t *testing.T) {
	j := joindtest.StartJoind(t)
	c := connect(t, endpoint{dsn: j.DSNFor("monprep")})
	mustExec(t, c, "SELECT pg_stat_statements_reset()")
	mustExec(t, c, "create table mp_t(a int)")
	mustExec(t, c, "prepare ins(int) as insert into mp_t values ($1), ($1 + 10)")
	mustExec(t, c, "execute ins(1)")
	mustExec(t, c, "execute ins(2)")
	mustExec(t, c, "prepare p as select $1::int + 1 as x")
	mustExec(t, c, "execute p(1)")
	mustExec(t, c, "execute p(2)")
	rows, err := c.Query(ctxT(t), `SELECT query, calls, rows FROM pg_stat_statements
		WHERE query ILIKE 'prepare%' OR query ILIKE 'execute%' ORDER BY query`)
	if err != nil {
		t.Fatal(err)
	}
	type entry struct {
		query       string
		calls, rows int64
	}
	var got []entry
	for rows.Next() {
		var e entry
		if err := rows.Scan(&e.query, &e.calls, &e.rows); err != nil {
			t.Fatal(err)
		}
		got = append(got, e)
	}
	rows.Close()
	want := []entry{
		{"prepare ins(int) as insert into mp_t values ($1), ($1 + $2)", 2, 4},
		{"prepare p as select $1::int + $2 as x", 2, 2},
	}
	if len(got) != len(want) {
		t.Fatalf("entries %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("entry %d: %v, want %v", i, got[i], want[i])
		}
	}
	var ins int64
	if err := c.QueryRow(ctxT(t), "SELECT n_tup_ins FROM pg_stat_user_tables WHERE relname = 'mp_t'").Scan(&ins); err != nil || ins != 4 {
		t.Errorf("n_tup_ins %d (%v), want 4", ins, err)
	}
}
