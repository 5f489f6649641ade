package console

import (
	"context"
	"embed"
	"fmt"
	"html/template"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/joind/joind/activity"
	"github.com/joind/joind/stats"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/wire"
)

// Source is what the console shows; a nil field leaves its page empty.
type Source struct {
	Activity *activity.Registry
	Stats    *stats.Server
	// Engine runs the statements of /plan, each in a session of its own.
	Engine wire.Engine
	// Storage reads the data directory's footprint (engine.StorageUsage).
	Storage func() storage.Usage
	// Now is the clock (time.Now when nil).
	Now func() time.Time
}

// Console serves the pages.
type Console struct {
	src  Source
	tmpl *template.Template
}

//go:embed templates/*.html
var templateFiles embed.FS

// planTimeout bounds one /plan statement; the request's own cancellation
// (the browser going away) stops it sooner.
const planTimeout = 5 * time.Minute

// New returns a console over src.
func New(src Source) *Console {
	if src.Now == nil {
		src.Now = time.Now
	}
	t := template.Must(template.New("").Funcs(template.FuncMap{
		"bytes":    formatBytes,
		"ms":       func(f float64) string { return strconv.FormatFloat(f, 'f', 3, 64) },
		"pct":      func(f float64) string { return strconv.FormatFloat(f, 'f', 1, 64) },
		"duration": formatDuration,
		"count":    groupDigits,
		"share": func(part, whole int64) float64 {
			if whole <= 0 {
				return 0
			}
			return 100 * float64(part) / float64(whole)
		},
		"nodeArgs": func(n *PlanNode, max float64) nodeArgs { return nodeArgs{Node: n, Max: max} },
	}).ParseFS(templateFiles, "templates/*.html"))
	return &Console{src: src, tmpl: t}
}

// Handler serves the console's pages under prefix "/" of its own mux;
// mount it with mux.Handle("/", c.Handler()).
func (c *Console) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", c.queries)
	mux.HandleFunc("POST /cancel", c.cancel)
	mux.HandleFunc("GET /statements", c.statements)
	mux.HandleFunc("GET /plan", c.plan)
	mux.HandleFunc("GET /copies", c.copies)
	mux.HandleFunc("GET /storage", c.storage)
	return mux
}

// nodeArgs is one plan node and the slowest node's time, for its bar.
type nodeArgs struct {
	Node *PlanNode
	Max  float64
}

type page struct {
	Title string
	Nav   string
	Now   time.Time
	Data  any
}

func (c *Console) render(w http.ResponseWriter, name, title string, data any) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	var b strings.Builder
	if err := c.tmpl.ExecuteTemplate(&b, name, page{Title: title, Nav: name, Now: c.src.Now(), Data: data}); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	_, _ = w.Write([]byte(b.String()))
}

// queryRow is one backend on the running-queries page.
type queryRow struct {
	activity.Row
	Running time.Duration // since query_start, for an active backend
}

func (c *Console) queries(w http.ResponseWriter, r *http.Request) {
	var rows []queryRow
	if c.src.Activity != nil {
		now := c.src.Now()
		for _, a := range c.src.Activity.Rows() {
			q := queryRow{Row: a}
			if a.State == activity.Active.String() && !a.QueryStart.IsZero() {
				q.Running = now.Sub(a.QueryStart)
			}
			rows = append(rows, q)
		}
	}
	// The longest-running first: what a person looks for.
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].Running > rows[j].Running })
	c.render(w, "queries", "Running queries", struct {
		Rows     []queryRow
		Canceled string
	}{rows, r.URL.Query().Get("canceled")})
}

func (c *Console) cancel(w http.ResponseWriter, r *http.Request) {
	pid, err := strconv.ParseInt(r.FormValue("pid"), 10, 32)
	if err != nil {
		http.Error(w, "pid must be an integer", http.StatusBadRequest)
		return
	}
	if c.src.Activity == nil || !c.src.Activity.Cancel(int32(pid)) {
		http.Error(w, fmt.Sprintf("PID %d is not a joind server process", pid), http.StatusNotFound)
		return
	}
	// Post/redirect/get: a reload does not cancel again.
	http.Redirect(w, r, "/?canceled="+strconv.FormatInt(pid, 10), http.StatusSeeOther)
}

// defaultTop is how many statements /statements shows without ?n=.
const defaultTop = 20

type statementRow struct {
	stats.StatementRow
	Share    float64 // of the total time of all entries, in percent
	Runnable bool    // the text has no parameters: /plan can run it as is
}

func (c *Console) statements(w http.ResponseWriter, r *http.Request) {
	n := defaultTop
	if v, err := strconv.Atoi(r.URL.Query().Get("n")); err == nil && v > 0 {
		n = v
	}
	var all []stats.StatementRow
	if c.src.Stats != nil {
		all = c.src.Stats.Statements.Rows()
	}
	total := 0.0
	for _, s := range all {
		total += s.Total
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].Total > all[j].Total })
	if len(all) > n {
		all = all[:n]
	}
	rows := make([]statementRow, len(all))
	for i, s := range all {
		rows[i] = statementRow{StatementRow: s, Runnable: !hasParameter(s.Query)}
		if total > 0 {
			rows[i].Share = 100 * s.Total / total
		}
	}
	c.render(w, "statements", "Top statements", struct {
		Rows []statementRow
		N    int
	}{rows, n})
}

// hasParameter reports whether normalized text has a $n placeholder
// (outside quotes), which EXPLAIN cannot run without values.
func hasParameter(q string) bool {
	inQuote := byte(0)
	for i := 0; i < len(q); i++ {
		ch := q[i]
		switch {
		case inQuote != 0:
			if ch == inQuote {
				inQuote = 0
			}
		case ch == '\'' || ch == '"':
			inQuote = ch
		case ch == '$' && i+1 < len(q) && q[i+1] >= '0' && q[i+1] <= '9':
			return true
		}
	}
	return false
}

func (c *Console) plan(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	data := struct {
		Query, Database, User string
		Plan                  *PlanNode
		MaxTime               float64
		Error                 string
	}{Query: q.Get("query"), Database: q.Get("database"), User: q.Get("user")}
	if data.Database == "" {
		data.Database = "joind"
	}
	if data.User == "" {
		data.User = "joind"
	}
	if strings.TrimSpace(data.Query) != "" {
		if c.src.Engine == nil {
			data.Error = "no engine to run the statement"
		} else {
			ctx, cancel := context.WithTimeout(r.Context(), planTimeout)
			root, err := ExplainAnalyze(ctx, c.src.Engine, data.User, data.Database, data.Query)
			cancel()
			if err != nil {
				data.Error = err.Error()
			} else {
				data.Plan, data.MaxTime = root, root.maxTime()
			}
		}
	}
	c.render(w, "plan", "Plan", data)
}

type copyRow struct {
	PID                        int32
	Database, Command, Type    string
	RelID                      uint32
	BytesProcessed, BytesTotal int64
	Tuples, Excluded           int64
	Percent                    float64 // of BytesTotal; -1 when the total is unknown
}

func (c *Console) copies(w http.ResponseWriter, r *http.Request) {
	var rows []copyRow
	if c.src.Stats != nil {
		for _, p := range c.src.Stats.Copies.Running() {
			row := copyRow{PID: p.PID, Database: p.Database, Command: p.Command, Type: p.Type, RelID: p.RelID,
				BytesProcessed: p.BytesProcessed.Load(), BytesTotal: p.BytesTotal,
				Tuples: p.TuplesProcessed.Load(), Excluded: p.TuplesExcluded.Load(), Percent: -1}
			if row.BytesTotal > 0 {
				row.Percent = min(100, 100*float64(row.BytesProcessed)/float64(row.BytesTotal))
			}
			rows = append(rows, row)
		}
	}
	c.render(w, "copies", "COPY progress", rows)
}

func (c *Console) storage(w http.ResponseWriter, r *http.Request) {
	var u storage.Usage
	if c.src.Storage != nil {
		u = c.src.Storage()
	}
	var total int64
	for _, t := range u.Tables {
		total += t.Bytes
	}
	c.render(w, "storage", "Storage", struct {
		storage.Usage
		TotalBytes int64
	}{u, total})
}

// formatBytes picks the unit as pg_size_pretty does: the largest that
// keeps the number under 10240.
func formatBytes(n int64) string {
	units := []string{"bytes", "kB", "MB", "GB", "TB"}
	v, i := n, 0
	for i < len(units)-1 && (v >= 10240 || v <= -10240) {
		v = (v + 512) / 1024
		i++
	}
	return strconv.FormatInt(v, 10) + " " + units[i]
}

func formatDuration(d time.Duration) string {
	if d <= 0 {
		return ""
	}
	if d < time.Second {
		return strconv.FormatFloat(float64(d)/float64(time.Millisecond), 'f', 1, 64) + " ms"
	}
	return d.Round(100 * time.Millisecond).String()
}

func groupDigits(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, ch := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(ch)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}
