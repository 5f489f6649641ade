package console

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/joind/joind/regress/joindtest"
	"github.com/joind/joind/regress/oracle"
)

func TestMain(m *testing.M) { joindtest.Main(m) }

func chromium(t *testing.T) string {
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("chromium is not installed (apt-get install -y chromium); CI must run the browser test")
	}
	t.Skip("chromium is not installed")
	return ""
}

func artifactsDir(t *testing.T) string {
	dir := os.Getenv("JOIND_TEST_ARTIFACTS")
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "joind-test-artifacts")
	}
	dir = filepath.Join(dir, "console")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// browser runs headless chromium: its DOM after load (--dump-dom) or a
// screenshot (--screenshot=path).
type browser struct {
	bin string
	tmp string
}

func (b browser) run(t *testing.T, mode, pageURL string) string {
	profile, err := os.MkdirTemp(b.tmp, "profile-")
	if err != nil {
		t.Error(err)
		return ""
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	// --no-sandbox: CI runs as root, where chromium's sandbox refuses to start.
	cmd := exec.CommandContext(ctx, b.bin, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
		"--disable-extensions", "--user-data-dir="+profile, "--window-size=1280,1000", mode, pageURL)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Errorf("chromium %s %s: %v\n%s", mode, pageURL, err, stderr.String())
	}
	return string(out)
}

// attrRows finds the elements of class cls and returns each one's data-*
// attributes (chromium's serialization quotes every attribute with ").
func attrRows(dom, tag, cls string) []map[string]string {
	re := regexp.MustCompile(`<` + tag + ` class="` + cls + `"([^>]*)>`)
	attr := regexp.MustCompile(`data-([a-z-]+)="([^"]*)"`)
	var out []map[string]string
	for _, m := range re.FindAllStringSubmatch(dom, -1) {
		row := map[string]string{}
		for _, a := range attr.FindAllStringSubmatch(m[1], -1) {
			row[a[1]] = htmlUnescape(a[2])
		}
		out = append(out, row)
	}
	return out
}

func htmlUnescape(s string) string {
	return strings.NewReplacer("&amp;", "&", "&lt;", "<", "&gt;", ">", "&quot;", `"`, "&#39;", "'").Replace(s)
}

func TestConsoleInBrowser(t *testing.T) {
	b := browser{bin: chromium(t), tmp: t.TempDir()}
	port, err := oracle.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	j := joindtest.StartJoind(t, "--metrics-listen", "127.0.0.1:"+strconv.Itoa(port))
	base := "http://127.0.0.1:" + strconv.Itoa(port)
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, j.DSN())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	const items = 5000
	for _, q := range []string{
		"CREATE TABLE cs_items (id int, grp int, name text)",
		fmt.Sprintf("INSERT INTO cs_items SELECT g, g %% 7, 'item ' || g FROM generate_series(1, %d) g", items),
		"CREATE TABLE cs_groups (grp int, label text)",
		"INSERT INTO cs_groups SELECT g, 'group ' || g FROM generate_series(0, 6) g",
		"CREATE TABLE cs_load (id int, payload text)",
	} {
		if _, err := conn.Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	const repeated = "SELECT count(*) FROM cs_items WHERE grp = 3"
	for i := 0; i < 4; i++ {
		if _, err := conn.Exec(ctx, repeated); err != nil {
			t.Fatal(err)
		}
	}

	// A query that runs until the console cancels it.
	sleeper, err := pgx.Connect(ctx, j.DSN())
	if err != nil {
		t.Fatal(err)
	}
	defer sleeper.Close(ctx)
	var sleeperPID uint32 = sleeper.PgConn().PID()
	sleepDone := make(chan error, 1)
	go func() { _, err := sleeper.Exec(ctx, "SELECT pg_sleep(60) AS cs_sleep"); sleepDone <- err }()

	// A COPY FROM STDIN left half sent: the progress page shows it running.
	loader, err := pgx.Connect(ctx, j.DSN())
	if err != nil {
		t.Fatal(err)
	}
	defer loader.Close(ctx)
	pr, pw := io.Pipe()
	copyDone := make(chan error, 1)
	go func() {
		_, err := loader.PgConn().CopyFrom(ctx, pr, "COPY cs_load FROM STDIN")
		copyDone <- err
	}()
	const firstHalf = 200000 // about 6 MB: COPY reads 2 MB chunks
	var lines strings.Builder
	for i := 1; i <= firstHalf; i++ {
		fmt.Fprintf(&lines, "%d\tpayload number %d\n", i, i)
	}
	sent := int64(lines.Len())
	firstWritten := make(chan error, 1)
	go func() { _, err := io.WriteString(pw, lines.String()); firstWritten <- err }()
	// The write blocks once the pipe's reader stops; COPY counts bytes as
	// it reads them, in chunks.
	waitFor(t, "the COPY's bytes in pg_stat_progress_copy", func() bool {
		var got int64
		err := conn.QueryRow(ctx, "SELECT coalesce(max(bytes_processed), 0) FROM pg_stat_progress_copy").Scan(&got)
		return err == nil && got > 0
	})
	waitFor(t, "the pg_sleep query to be active", func() bool {
		var state string
		err := conn.QueryRow(ctx, "SELECT state FROM pg_stat_activity WHERE pid = $1", int32(sleeperPID)).Scan(&state)
		return err == nil && state == "active"
	})

	planQuery := "SELECT g.label, count(*) FROM cs_items i JOIN cs_groups g ON g.grp = i.grp GROUP BY g.label ORDER BY 2 DESC"
	pages := map[string]string{
		"queries":    base + "/",
		"statements": base + "/statements",
		"plan":       base + "/plan?" + url.Values{"query": {planQuery}, "database": {"regression"}, "user": {"postgres"}}.Encode(),
		"copies":     base + "/copies",
		"storage":    base + "/storage",
	}
	art := artifactsDir(t)
	doms := map[string]string{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for name, u := range pages {
		wg.Add(1)
		go func() {
			defer wg.Done()
			dom := b.run(t, "--dump-dom", u)
			mu.Lock()
			doms[name] = dom
			mu.Unlock()
			_ = os.WriteFile(filepath.Join(art, name+".html"), []byte(dom), 0o644)
		}()
	}
	for _, name := range []string{"plan", "copies", "queries"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			shot := filepath.Join(art, name+".png")
			b.run(t, "--screenshot="+shot, pages[name])
		}()
	}
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}

	t.Run("queries", func(t *testing.T) {
		dom := doms["queries"]
		var found bool
		for _, r := range attrRows(dom, "tr", "backend") {
			if r["pid"] == strconv.Itoa(int(sleeperPID)) {
				found = true
				if r["state"] != "active" {
					t.Errorf("sleeper state %q, want active", r["state"])
				}
			}
		}
		if !found {
			t.Errorf("no row for backend %d:\n%s", sleeperPID, dom)
		}
		if !strings.Contains(dom, "SELECT pg_sleep(60) AS cs_sleep") {
			t.Errorf("the running query's text is missing")
		}
		if !regexp.MustCompile(`<input type="hidden" name="pid" value="` + strconv.Itoa(int(sleeperPID)) + `">`).MatchString(dom) {
			t.Errorf("no cancel form for backend %d", sleeperPID)
		}
	})
	t.Run("statements", func(t *testing.T) {
		dom := doms["statements"]
		// pg_stat_statements normalizes the constant: the page shows $1.
		idx := strings.Index(dom, "SELECT count(*) FROM cs_items WHERE grp = $1")
		if idx < 0 {
			t.Fatalf("the repeated statement is not listed:\n%s", dom)
		}
		start := strings.LastIndex(dom[:idx], `<tr class="statement"`)
		row := attrRows(dom[start:idx], "tr", "statement")
		if len(row) != 1 || row[0]["calls"] != "4" {
			t.Errorf("repeated statement's row %v, want calls=4", row)
		}
	})
	t.Run("plan", func(t *testing.T) {
		dom := doms["plan"]
		nodes := attrRows(dom, "div", "node")
		if len(nodes) < 4 {
			t.Fatalf("plan has %d nodes:\n%s", len(nodes), dom)
		}
		byType := map[string]map[string]string{}
		for _, n := range nodes {
			byType[n["node-type"]] = n
		}
		if n := byType["Scan on cs_items i"]; n == nil || n["rows"] != strconv.Itoa(items) {
			t.Errorf("scan of cs_items: %v, want rows=%d (nodes %v)", n, items, nodes)
		}
		if n := byType["Hash Aggregate"]; n == nil || n["rows"] != "7" {
			t.Errorf("aggregate: %v, want rows=7", n)
		}
		if nodes[0]["rows"] != "7" {
			t.Errorf("root node %v, want rows=7", nodes[0])
		}
		for _, n := range nodes {
			if _, err := strconv.ParseFloat(n["time-ms"], 64); err != nil {
				t.Errorf("node %v has no time", n)
			}
		}
		// The tree nests: a child's box sits inside its parent's list.
		if !regexp.MustCompile(`(?s)data-node-type="Hash Aggregate".*<ul>.*data-node-type="Hash Join`).MatchString(dom) {
			t.Errorf("the join is not drawn under the aggregate")
		}
	})
	t.Run("copies", func(t *testing.T) {
		rows := attrRows(doms["copies"], "tr", "copy")
		if len(rows) != 1 {
			t.Fatalf("copies %v:\n%s", rows, doms["copies"])
		}
		if got, _ := strconv.ParseInt(rows[0]["bytes"], 10, 64); got <= 0 || got > sent {
			t.Errorf("COPY bytes %d, want some of the %d sent", got, sent)
		}
		if !strings.Contains(doms["copies"], `class="bar unknown"`) || !strings.Contains(doms["copies"], "COPY FROM") {
			t.Errorf("no progress bar of a COPY FROM STDIN")
		}
	})
	t.Run("storage", func(t *testing.T) {
		rows := attrRows(doms["storage"], "tr", "table")
		var items0 map[string]string
		for _, r := range rows {
			if r["name"] == "cs_items" {
				items0 = r
			}
		}
		if items0 == nil || items0["rows"] != strconv.Itoa(items) {
			t.Fatalf("cs_items: %v (tables %v)", items0, rows)
		}
		if segs, _ := strconv.Atoi(items0["segments"]); segs < 1 {
			t.Errorf("cs_items has %d segments", segs)
		}
		if by, _ := strconv.ParseInt(items0["bytes"], 10, 64); by <= 0 {
			t.Errorf("cs_items has %d bytes on disk", by)
		}
	})

	// The page's Cancel button posts this form: the query ends with 57014.
	resp, err := http.PostForm(base+"/cancel", url.Values{"pid": {strconv.Itoa(int(sleeperPID))}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	select {
	case err := <-sleepDone:
		var pe *pgconn.PgError
		if !errors.As(err, &pe) || pe.Code != "57014" {
			t.Errorf("cancelled query ended with %v, want 57014", err)
		}
	case <-time.After(20 * time.Second):
		t.Errorf("the query was not cancelled")
	}

	// The COPY finishes with every row.
	var rest strings.Builder
	for i := firstHalf + 1; i <= 2*firstHalf; i++ {
		fmt.Fprintf(&rest, "%d\tpayload number %d\n", i, i)
	}
	if err := <-firstWritten; err != nil {
		t.Fatal(err)
	}
	if _, err := io.WriteString(pw, rest.String()); err != nil {
		t.Fatal(err)
	}
	pw.Close()
	if err := <-copyDone; err != nil {
		t.Fatal(err)
	}
	var loaded int
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM cs_load").Scan(&loaded); err != nil || loaded != 2*firstHalf {
		t.Errorf("cs_load has %d rows (%v), want %d", loaded, err, 2*firstHalf)
	}
	t.Logf("console pages and screenshots in %s", art)
}

func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
