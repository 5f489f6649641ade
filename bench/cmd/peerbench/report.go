package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"text/tabwriter"
	"time"
)

// peerResult is one peer's outcome on one workload.
type peerResult struct {
	Peer     string    `json:"peer"`
	MedianMS float64   `json:"median_ms,omitempty"`
	MinMS    float64   `json:"min_ms,omitempty"`
	RunsMS   []float64 `json:"runs_ms,omitempty"`
	Rows     int       `json:"rows"`
	Answer   []string  `json:"answer,omitempty"`
	Error    string    `json:"error,omitempty"`
	TimedOut bool      `json:"timed_out,omitempty"`
	Skipped  string    `json:"skipped,omitempty"`
	Note     string    `json:"note,omitempty"`
}

func (r *peerResult) ok() bool { return r.Error == "" && r.Skipped == "" && len(r.RunsMS) > 0 }

// workloadResult is one workload across all peers.
type workloadResult struct {
	Name     string       `json:"name"`
	SQL      string       `json:"sql"`
	Expected []string     `json:"expected"`
	Peers    []peerResult `json:"peers"`
	// Ratios of medians: joind/duckdb and joind/postgres (>1 = joind slower).
	Ratios map[string]float64 `json:"ratios,omitempty"`
	// Mismatch lists every disagreement between peers or with Expected.
	Mismatch []string `json:"mismatch,omitempty"`
	// Tolerant: DuckDB's answer is compared with tolerantDiff (compare.go).
	Tolerant bool `json:"tolerant,omitempty"`
	// JoindEqualsPG is "yes" when joind's answer is PostgreSQL's exact text,
	// "NO" when it differs, "" when either has no answer.
	JoindEqualsPG string `json:"joind_equals_postgres,omitempty"`
	// Group is the workload's group ("tpch", "keys", "load" or "").
	Group string `json:"group,omitempty"`
	// TimeoutMS is the per-query timeout the workload ran under.
	TimeoutMS float64 `json:"timeout_ms"`
}

type loadResult struct {
	Peer  string `json:"peer"`
	Table string `json:"table"`
	// Method is series or values (see main.go loadTable).
	Method string  `json:"method"`
	MS     float64 `json:"ms"`
	Error  string  `json:"error,omitempty"`
}

type report struct {
	Started    time.Time         `json:"started"`
	Scale      float64           `json:"scale"`
	Sizes      sizes             `json:"sizes"`
	Runs       int               `json:"runs"`
	Versions   map[string]string `json:"versions"`
	Setup      []string          `json:"setup_errors,omitempty"`
	Loads      []loadResult      `json:"loads"`
	Workloads  []workloadResult  `json:"workloads"`
	Mismatches int               `json:"mismatches"`
	TPCH       *tpchInfo         `json:"tpch,omitempty"`
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// median of a non-empty sample; the mean of the middle two for even sizes.
func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// finish computes ratios and checks every answer against the expected one
// and against each other.
func (w *workloadResult) finish() {
	byPeer := make(map[string]*peerResult)
	for i := range w.Peers {
		byPeer[w.Peers[i].Peer] = &w.Peers[i]
	}
	w.Ratios = make(map[string]float64)
	if j := byPeer["joind"]; j != nil && j.ok() {
		for _, other := range []string{"duckdb", "postgres"} {
			if o := byPeer[other]; o != nil && o.ok() && o.MedianMS > 0 {
				w.Ratios["joind/"+other] = j.MedianMS / o.MedianMS
			}
		}
	}
	w.Mismatch = nil
	// The reference is PostgreSQL's answer when it has one.
	var ref *peerResult
	if pg := byPeer["postgres"]; pg != nil && pg.Answer != nil {
		ref = pg
	}
	for i := range w.Peers {
		if p := &w.Peers[i]; ref == nil && p.Answer != nil {
			ref = p
		}
	}
	for i := range w.Peers {
		p := &w.Peers[i]
		if p.Answer == nil { // never answered (error, skipped)
			continue
		}
		if w.Expected != nil && !slices.Equal(p.Answer, w.Expected) {
			w.Mismatch = append(w.Mismatch, fmt.Sprintf("%s answered %s, expected %s",
				p.Peer, short(p.Answer), short(w.Expected)))
		}
		if p == ref {
			continue
		}
		if d := w.answerDiff(ref.Peer, p.Peer, ref.Answer, p.Answer); d != "" {
			w.Mismatch = append(w.Mismatch, fmt.Sprintf("%s and %s disagree: %s vs %s (%s)",
				ref.Peer, p.Peer, short(ref.Answer), short(p.Answer), d))
		}
	}
	w.JoindEqualsPG = ""
	if j, pg := byPeer["joind"], byPeer["postgres"]; j != nil && pg != nil && j.Answer != nil && pg.Answer != nil {
		w.JoindEqualsPG = "yes"
		if exactDiff(j.Answer, pg.Answer) != "" {
			w.JoindEqualsPG = "NO"
		}
	}
}

// answerDiff compares the answers of peers a and b: with tolerantDiff when
// the workload is Tolerant and one of them is DuckDB, else as exact text.
func (w *workloadResult) answerDiff(a, b string, x, y []string) string {
	if w.Tolerant && (a == "duckdb" || b == "duckdb") {
		return tolerantDiff(x, y)
	}
	return exactDiff(x, y)
}

// short renders an answer in one line for the table.
func short(rows []string) string {
	if len(rows) == 0 {
		return "(no rows)"
	}
	s := strings.Join(rows, "; ")
	if len(s) > 60 {
		s = s[:57] + "..."
	}
	return s
}

func fmtMS(v float64) string {
	switch {
	case v >= 100:
		return fmt.Sprintf("%.0f", v)
	case v >= 10:
		return fmt.Sprintf("%.1f", v)
	default:
		return fmt.Sprintf("%.2f", v)
	}
}

func (r *report) writeText(out io.Writer) {
	fmt.Fprintf(out, "peerbench  scale %g  probe %d  build %d  t1/t2 %d  s1/s2 %d  gbuild %d  gprobe %d  lt %d  median of %d runs after 1 warm-up\n",
		r.Scale, r.Sizes.Probe, r.Sizes.Build, r.Sizes.T, r.Sizes.S, r.Sizes.GBuild, r.Sizes.GProbe, r.Sizes.Load, r.Runs)
	if r.TPCH != nil {
		fmt.Fprintf(out, "  TPC-H SF %g (--scale does not apply to it)\n", r.TPCH.SF)
	}
	for _, name := range []string{"joind", "postgres", "duckdb"} {
		if v, ok := r.Versions[name]; ok {
			fmt.Fprintf(out, "  %-9s %s\n", name, v)
		}
	}
	for _, e := range r.Setup {
		fmt.Fprintf(out, "  setup: %s\n", indent(e))
	}
	if len(r.Loads) > 0 {
		fmt.Fprintln(out, "\nload")
		tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "  peer\ttable\tms\thow")
		for _, l := range r.Loads {
			if l.Error != "" {
				fmt.Fprintf(tw, "  %s\t%s\t-\tERROR: %s\n", l.Peer, l.Table, clip(firstLine(l.Error), 160))
			} else {
				fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", l.Peer, l.Table, fmtMS(l.MS), clip(l.Method, 160))
			}
		}
		tw.Flush()
	}
	for _, w := range r.Workloads {
		fmt.Fprintf(out, "\n== %s: %s\n", w.Name, w.SQL)
		tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "  peer\tmedian ms\tmin ms\trows\tanswer")
		for _, p := range w.Peers {
			switch {
			case p.Skipped != "":
				fmt.Fprintf(tw, "  %s\t-\t-\t-\tskipped: %s\n", p.Peer, p.Skipped)
			case p.Error != "":
				fmt.Fprintf(tw, "  %s\t-\t-\t-\tERROR: %s\n", p.Peer, clip(firstLine(p.Error), 200))
			default:
				fmt.Fprintf(tw, "  %s\t%s\t%s\t%d\t%s\n", p.Peer, fmtMS(p.MedianMS), fmtMS(p.MinMS), p.Rows, short(p.Answer))
			}
			if p.Note != "" {
				fmt.Fprintf(tw, "  \t\t\t\tnote: %s\n", p.Note)
			}
		}
		tw.Flush()
		var ratios []string
		for _, k := range []string{"joind/duckdb", "joind/postgres"} {
			if v, ok := w.Ratios[k]; ok {
				ratios = append(ratios, fmt.Sprintf("%s = %sx", k, fmtRatio(v)))
			} else {
				ratios = append(ratios, k+" = n/a")
			}
		}
		fmt.Fprintf(out, "  ratios: %s\n", strings.Join(ratios, ", "))
		for _, m := range w.Mismatch {
			fmt.Fprintf(out, "  !!! ANSWER MISMATCH: %s\n", m)
		}
	}
	r.writeTPCHTable(out)
	if r.Mismatches > 0 {
		fmt.Fprintf(out, "\n!!! %d workload(s) with DISAGREEING ANSWERS — see the lines marked !!! above\n", r.Mismatches)
	}
}

// fmtRatio keeps two significant digits for small ratios (0.0016x, not 0.00x).
func fmtRatio(v float64) string {
	if v < 0.1 {
		return fmt.Sprintf("%.2g", v)
	}
	return fmt.Sprintf("%.2f", v)
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " ..."
	}
	return s
}

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n-3] + "..."
	}
	return s
}

func indent(s string) string { return strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n    ") }

func (r *report) writeJSON(path string) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

// tpchCell is one peer's figure in the TPC-H table.
func tpchCell(p *peerResult, timeoutMS float64) string {
	switch {
	case p == nil || p.Skipped != "":
		return "-"
	case p.TimedOut:
		return fmt.Sprintf(">%.0f s", timeoutMS/1000)
	case p.Error != "":
		return "ERROR"
	case !p.ok():
		return "-"
	}
	return fmtMS(p.MedianMS)
}

// writeTPCHTable prints the summary table of issue 12: per query the
// medians, the ratios, whether joind's answer is PostgreSQL's exact text and
// whether DuckDB's agrees with PostgreSQL's within tolerance (compare.go).
func (r *report) writeTPCHTable(out io.Writer) {
	var ws []*workloadResult
	for i := range r.Workloads {
		if r.Workloads[i].Group == "tpch" {
			ws = append(ws, &r.Workloads[i])
		}
	}
	if len(ws) == 0 {
		return
	}
	t := r.TPCH
	if t == nil {
		t = &tpchInfo{}
	}
	fmt.Fprintf(out, "\nTPC-H SF %g (%s; queries %s): median of %d runs after 1 warm-up, timeout %.0f s per query\n",
		t.SF, t.Dir, t.Queries, r.Runs, t.TimeoutMS/1000)
	if t.Generated {
		fmt.Fprintf(out, "  data generated by joind tpch generate in %s ms\n", fmtMS(t.GenerateMS))
	}
	for _, peer := range []string{"postgres", "duckdb", "joind"} {
		var parts []string
		for _, l := range r.Loads {
			if l.Peer != peer || !(l.Table == "(all 8 tables)" || strings.HasPrefix(l.Table, "(")) {
				continue
			}
			v := fmtMS(l.MS) + " ms"
			if l.Error != "" {
				v = "ERROR"
			}
			parts = append(parts, fmt.Sprintf("%s %s", l.Method, v))
		}
		if len(parts) > 0 {
			fmt.Fprintf(out, "  load %-8s %s\n", peer, strings.Join(parts, "; "))
		}
	}
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "query\tPG ms\tDuckDB ms\tjoind ms\tjoind/PG\tjoind/DuckDB\tjoind = PG\tDuckDB ≈ PG\t")
	peers := []string{"postgres", "duckdb", "joind"}
	type total struct {
		ms             float64
		timeouts, errs int
	}
	totals := map[string]*total{}
	for _, p := range peers {
		totals[p] = &total{}
	}
	common := map[string]float64{}
	nCommon := 0
	for _, w := range ws {
		by := map[string]*peerResult{}
		for i := range w.Peers {
			by[w.Peers[i].Peer] = &w.Peers[i]
		}
		all := true
		for _, p := range peers {
			pr := by[p]
			switch {
			case pr != nil && pr.ok():
				totals[p].ms += pr.MedianMS
			case pr != nil && pr.TimedOut:
				totals[p].timeouts++
				totals[p].ms += w.TimeoutMS
			case pr != nil && pr.Error != "":
				totals[p].errs++
			}
			all = all && pr != nil && pr.ok()
		}
		if all {
			nCommon++
			for _, p := range peers {
				common[p] += by[p].MedianMS
			}
		}
		ratio := func(k string) string {
			if v, ok := w.Ratios[k]; ok {
				return fmtRatio(v) + "x"
			}
			return "-"
		}
		duckPG := "-"
		if d, pg := by["duckdb"], by["postgres"]; d != nil && pg != nil && d.Answer != nil && pg.Answer != nil {
			duckPG = "yes"
			if tolerantDiff(pg.Answer, d.Answer) != "" {
				duckPG = "NO"
			}
		}
		eq := w.JoindEqualsPG
		if eq == "" {
			eq = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", strings.TrimPrefix(w.Name, "tpch_"),
			tpchCell(by["postgres"], w.TimeoutMS), tpchCell(by["duckdb"], w.TimeoutMS), tpchCell(by["joind"], w.TimeoutMS),
			ratio("joind/postgres"), ratio("joind/duckdb"), eq, duckPG)
	}
	cell := func(p string) string {
		t := totals[p]
		s := fmtMS(t.ms)
		if t.timeouts > 0 {
			s = ">" + s
		}
		if t.errs > 0 {
			s += fmt.Sprintf(" +%d err", t.errs)
		}
		return s
	}
	fmt.Fprintf(tw, "total (%d)\t%s\t%s\t%s\t\t\t\t\t\n", len(ws), cell("postgres"), cell("duckdb"), cell("joind"))
	cr := func(a, b string) string {
		if nCommon == 0 || common[b] == 0 {
			return "-"
		}
		return fmtRatio(common[a]/common[b]) + "x"
	}
	fmt.Fprintf(tw, "total of the %d all three ran\t%s\t%s\t%s\t%s\t%s\t\t\t\n", nCommon,
		fmtMS(common["postgres"]), fmtMS(common["duckdb"]), fmtMS(common["joind"]), cr("joind", "postgres"), cr("joind", "duckdb"))
	tw.Flush()
	fmt.Fprintln(out, "  (>N s: timed out, counted as the timeout in the total; ERROR and +N err: failed, not counted;")
	fmt.Fprintln(out, "   joind = PG: joind's rows are PostgreSQL's exact text, as a sorted multiset;")
	fmt.Fprintln(out, "   DuckDB ≈ PG: equal after dropping trailing blanks, numbers within a relative 1e-9)")
}
