package regress

import (
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"testing"
)

const pgbenchBin = "/usr/lib/postgresql/15/bin/pgbench"

// TestPgbenchTPCB runs pgbench as its users do: `pgbench -i` with the
// default steps (drop, create tables, generate, VACUUM, primary keys),
// then the built-in TPC-B script and the select-only script over the
// extended protocol with prepared statements, 4 clients. Every transaction
// must succeed, and afterwards the balances must add up as TPC-B's
// invariants say: each transaction adds its delta to one account, one
// teller and one branch and logs it in pgbench_history once.
func TestPgbenchTPCB(t *testing.T) {
	if _, err := os.Stat(pgbenchBin); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("pgbench is missing (package postgresql-15): %v", err)
		}
		t.Skipf("pgbench is missing: %v", err)
	}
	ep := startTarget(t, regressDB)
	pgbench := func(args ...string) string {
		t.Helper()
		all := append([]string{"-h", ep.host, "-p", strconv.Itoa(ep.port), "-U", "postgres"}, args...)
		out, err := exec.Command(pgbenchBin, append(all, ep.db)...).CombinedOutput()
		if err != nil {
			t.Fatalf("pgbench %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	pgbench("-i", "-s", "1", "-q")
	const clients, perClient = 4, 25
	for _, mode := range [][]string{{"-M", "prepared"}, {"-M", "prepared", "-S"}} {
		out := pgbench(append(mode, "-c", strconv.Itoa(clients), "-j", "2", "-t", strconv.Itoa(perClient), "-n")...)
		done := regexp.MustCompile(`number of transactions actually processed: (\d+)/(\d+)`).FindStringSubmatch(out)
		if done == nil || done[1] != done[2] || done[1] != strconv.Itoa(clients*perClient) {
			t.Fatalf("pgbench %v: not every transaction was processed:\n%s", mode, out)
		}
		if m := regexp.MustCompile(`number of failed transactions: (\d+)`).FindStringSubmatch(out); m == nil || m[1] != "0" {
			t.Fatalf("pgbench %v: failed transactions:\n%s", mode, out)
		}
	}
	c := connect(t, ep)
	var history, deltas, accounts, tellers, branches, ids, rows int64
	err := c.QueryRow(ctxT(t), `SELECT (SELECT count(*) FROM pgbench_history), (SELECT coalesce(sum(delta), 0) FROM pgbench_history),
		(SELECT sum(abalance) FROM pgbench_accounts), (SELECT sum(tbalance) FROM pgbench_tellers),
		(SELECT sum(bbalance) FROM pgbench_branches), (SELECT count(DISTINCT aid) FROM pgbench_accounts),
		(SELECT count(*) FROM pgbench_accounts)`).Scan(&history, &deltas, &accounts, &tellers, &branches, &ids, &rows)
	if err != nil {
		t.Fatal(err)
	}
	if history != clients*perClient {
		t.Errorf("pgbench_history has %d rows, want %d (one per TPC-B transaction)", history, clients*perClient)
	}
	if accounts != deltas || tellers != deltas || branches != deltas {
		t.Errorf("balances: accounts %d, tellers %d, branches %d; history's deltas sum to %d", accounts, tellers, branches, deltas)
	}
	if ids != 100000 || rows != 100000 {
		t.Errorf("pgbench_accounts: %d rows, %d distinct aids, want 100000 each", rows, ids)
	}
}
