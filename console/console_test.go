package console

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/joind/joind/activity"
	"github.com/joind/joind/stats"
	"github.com/joind/joind/storage"
)

func get(t *testing.T, h http.Handler, path string) (int, string) {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
	return rec.Code, rec.Body.String()
}

func TestCopyProgressBarOfAKnownSize(t *testing.T) {
	st := stats.New(time.Now())
	p := st.Copies.Start(&stats.CopyProgress{PID: 7, Database: "d", Command: "COPY FROM", Type: "FILE", BytesTotal: 4000})
	p.BytesProcessed.Store(1000)
	p.TuplesProcessed.Store(12345)
	h := New(Source{Stats: st}).Handler()
	_, body := get(t, h, "/copies")
	for _, want := range []string{`<span style="width: 25.0%">`, `<span class="percent">25.0%</span>`, "1000 bytes of 4000 bytes", "12,345"} {
		if !strings.Contains(body, want) {
			t.Errorf("/copies lacks %q:\n%s", want, body)
		}
	}
	p.Done()
	if _, body := get(t, h, "/copies"); !strings.Contains(body, "No COPY is running.") {
		t.Errorf("a finished COPY is still shown")
	}
}

func TestCancelTakesPostAndAKnownPID(t *testing.T) {
	reg := activity.NewRegistry(time.Now())
	canceled := 0
	reg.Register(&activity.Backend{PID: 42, User: "u", Database: "d", BackendStart: time.Now()},
		activity.Signals{Cancel: func() { canceled++ }}, "app").StartQuery("SELECT 1", time.Now())
	h := New(Source{Activity: reg}).Handler()
	if code, _ := get(t, h, "/cancel?pid=42"); code != http.StatusMethodNotAllowed {
		t.Errorf("GET /cancel: %d", code)
	}
	post := func(pid string) int {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest(http.MethodPost, "/cancel", strings.NewReader(url.Values{"pid": {pid}}.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		h.ServeHTTP(rec, req)
		return rec.Code
	}
	if code := post("43"); code != http.StatusNotFound {
		t.Errorf("cancel of an unknown pid: %d", code)
	}
	if code := post("x"); code != http.StatusBadRequest {
		t.Errorf("cancel of a bad pid: %d", code)
	}
	if code := post("42"); code != http.StatusSeeOther || canceled != 1 {
		t.Errorf("cancel: %d, signals %d", code, canceled)
	}
	_, body := get(t, h, "/")
	if !strings.Contains(body, `data-pid="42" data-state="active"`) || !strings.Contains(body, `class="cancel"`) {
		t.Errorf("running query not listed with a cancel button:\n%s", body)
	}
}

func TestStatementsTopNAndRunnable(t *testing.T) {
	st := stats.New(time.Now())
	st.Statements.Record(stats.Execution{Key: stats.StatementKey{QueryID: 1}, Query: "SELECT a FROM t WHERE b = $1", Elapsed: 3 * time.Millisecond})
	st.Statements.Record(stats.Execution{Key: stats.StatementKey{QueryID: 2}, Query: "SELECT count(*) FROM t", Elapsed: time.Millisecond})
	st.Statements.Record(stats.Execution{Key: stats.StatementKey{QueryID: 3}, Query: "SELECT '$1'", Elapsed: time.Microsecond})
	_, body := get(t, New(Source{Stats: st}).Handler(), "/statements?n=2")
	i1, i2 := strings.Index(body, `data-queryid="1"`), strings.Index(body, `data-queryid="2"`)
	if i1 < 0 || i2 < 0 || i1 > i2 || strings.Contains(body, `data-queryid="3"`) {
		t.Fatalf("top 2 by total time wrong:\n%s", body)
	}
	if strings.Count(body, `class="explain"`) != 1 || !strings.Contains(body, `/plan?query=SELECT%20count%28%2a%29%20FROM%20t`) {
		t.Errorf("only the statement without parameters links to /plan:\n%s", body)
	}
	if hasParameter("SELECT '$1'") || !hasParameter("SELECT $12") {
		t.Errorf("hasParameter")
	}
}

func TestParsePlanKeepsOrderAndActuals(t *testing.T) {
	root, err := parsePlan(`[{"Plan": {"Node Type": "Sort", "Plan Rows": 3, "Partitions": "1",
		"Run Time": "(actual rows=3 batches=1 time=2.500 ms) (memory: peak 24 kB) (spilled: 2 files, 10 rows, 96 kB)",
		"Sort Key": "a", "Plans": [{"Node Type": "Scan on t", "Parent Relationship": "Outer",
		"Run Time": "(actual rows=10 batches=2 time=1.250 ms)"}]}}]`)
	if err != nil {
		t.Fatal(err)
	}
	if root.Type != "Sort" || root.Rows != 3 || root.Batches != 1 || root.TimeMs != 2.5 ||
		root.Memory != "peak 24 kB" || root.Spilled != "2 files, 10 rows, 96 kB" {
		t.Errorf("root %+v", root)
	}
	if len(root.Details) != 3 || root.Details[0].Key != "Plan Rows" || root.Details[2].Key != "Sort Key" {
		t.Errorf("details %+v", root.Details)
	}
	if len(root.Children) != 1 || root.Children[0].Relationship != "Outer" || root.Children[0].Share(root.maxTime()) != 50 {
		t.Errorf("child %+v", root.Children)
	}
	if _, err := parsePlan(`{"Plan": {}}`); err == nil {
		t.Errorf("a plan that is not a list parsed")
	}
}

func TestStoragePage(t *testing.T) {
	u := storage.Usage{Compactions: 3, Tables: []storage.TableUsage{{Name: "t", LiveRows: 1500, Segments: 2, Bytes: 20480}}}
	_, body := get(t, New(Source{Storage: func() storage.Usage { return u }}).Handler(), "/storage")
	for _, want := range []string{`data-name="t" data-rows="1500" data-segments="2" data-bytes="20480"`, `<span id="compactions">3</span>`, "20 kB", "1,500"} {
		if !strings.Contains(body, want) {
			t.Errorf("/storage lacks %q:\n%s", want, body)
		}
	}
}
