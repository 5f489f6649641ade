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
	var first *peerResult
	for i := range w.Peers {
		p := &w.Peers[i]
		if p.Answer == nil { // never answered (error, skipped)
			continue
		}
		if w.Expected != nil && !slices.Equal(p.Answer, w.Expected) {
			w.Mismatch = append(w.Mismatch, fmt.Sprintf("%s answered %s, expected %s",
				p.Peer, short(p.Answer), short(w.Expected)))
		}
		if first == nil {
			first = p
		} else if !slices.Equal(p.Answer, first.Answer) {
			w.Mismatch = append(w.Mismatch, fmt.Sprintf("%s and %s disagree: %s vs %s",
				first.Peer, p.Peer, short(first.Answer), short(p.Answer)))
		}
	}
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
	fmt.Fprintf(out, "peerbench  scale %g  probe %d  build %d  t1/t2 %d  s1/s2 %d  median of %d runs after 1 warm-up\n",
		r.Scale, r.Sizes.Probe, r.Sizes.Build, r.Sizes.T, r.Sizes.S, r.Runs)
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
