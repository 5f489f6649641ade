package metrics

import (
	"io"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/joind/joind/activity"
	"github.com/joind/joind/stats"
)

func scrape(t *testing.T, m *Metrics) string {
	t.Helper()
	srv := httptest.NewServer(m.Handler())
	defer srv.Close()
	resp, err := srv.Client().Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestMetricsCountWhatTheyAreTold(t *testing.T) {
	reg := activity.NewRegistry(time.Now())
	b := reg.Register(&activity.Backend{PID: 1, BackendStart: time.Now()}, activity.Signals{}, "")
	b.StartQuery("SELECT 1", time.Now())
	st := stats.New(time.Now())
	m := New(reg, st)
	st.Observer = m
	st.StatementDone(2*time.Millisecond, 5, "")
	st.StatementDone(time.Millisecond, 0, "22012")
	st.CommitDone(time.Millisecond, true)
	st.Databases.Of("d").XactCommit.Add(3)
	st.Databases.Of("d").TupInserted.Add(4)
	out := scrape(t, m)
	for _, want := range []string{
		`joind_statements_total{outcome="success",sqlstate_class="00"} 1`,
		`joind_statements_total{outcome="error",sqlstate_class="22"} 1`,
		`joind_statement_duration_seconds_count{outcome="success"} 1`,
		`joind_statement_rows_total 5`,
		`joind_commit_duration_seconds_count{outcome="success"} 1`,
		`joind_connections{state="active"} 1`,
		`joind_connections{state="idle"} 0`,
		`joind_transactions_total{outcome="commit"} 3`,
		`joind_tuples_total{op="inserted"} 4`,
		`joind_operator_memory_bytes{operator="hash_join"} `,
		`joind_spilled_bytes_total{operator="sort"} `,
		`go_goroutines `,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q", want)
		}
	}
	b.Ready('I', time.Now())
	if out := scrape(t, m); !strings.Contains(out, `joind_connections{state="idle"} 1`) {
		t.Error("the connection's state change not seen at the next scrape")
	}
}
