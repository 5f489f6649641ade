package metrics

import (
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/joind/joind/activity"
	"github.com/joind/joind/stats"
)

// Metrics is the server's Prometheus registry.
type Metrics struct {
	reg        *prometheus.Registry
	statements *prometheus.CounterVec
	latency    *prometheus.HistogramVec
	rows       prometheus.Counter
	commits    *prometheus.HistogramVec
}

var _ stats.Observer = (*Metrics)(nil)

// New registers joind's metrics over backends and st (either may be nil)
// and the Go runtime's.
func New(backends *activity.Registry, st *stats.Server) *Metrics {
	m := &Metrics{
		reg: prometheus.NewRegistry(),
		statements: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: "joind", Name: "statements_total",
			Help: "Statements finished, by outcome (success, error) and SQLSTATE class (00 for success)."},
			[]string{"outcome", "sqlstate_class"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{Namespace: "joind", Name: "statement_duration_seconds",
			Help: "Statement latency, from its start to its command tag or error.", Buckets: prometheus.ExponentialBuckets(0.0001, 4, 12)},
			[]string{"outcome"}),
		rows: prometheus.NewCounter(prometheus.CounterOpts{Namespace: "joind", Name: "statement_rows_total",
			Help: "Rows returned or affected by successful statements (their command tags' counts)."}),
		commits: prometheus.NewHistogramVec(prometheus.HistogramOpts{Namespace: "joind", Name: "commit_duration_seconds",
			Help: "Commit latency, the write-ahead log's fsync (group commit) included.", Buckets: prometheus.ExponentialBuckets(0.00005, 4, 12)},
			[]string{"outcome"}),
	}
	m.reg.MustRegister(m.statements, m.latency, m.rows, m.commits,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		&serverCollector{backends: backends, st: st})
	return m
}

// Handler serves the metrics in Prometheus' exposition format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg})
}

// StatementDone implements stats.Observer.
func (m *Metrics) StatementDone(elapsed time.Duration, rows int64, sqlstate string) {
	outcome, class := "success", "00"
	if sqlstate != "" {
		outcome = "error"
		class = sqlstate
		if len(class) > 2 {
			class = class[:2]
		}
	}
	m.statements.WithLabelValues(outcome, class).Inc()
	m.latency.WithLabelValues(outcome).Observe(elapsed.Seconds())
	if rows > 0 {
		m.rows.Add(float64(rows))
	}
}

// CommitDone implements stats.Observer.
func (m *Metrics) CommitDone(elapsed time.Duration, ok bool) {
	outcome := "success"
	if !ok {
		outcome = "error"
	}
	m.commits.WithLabelValues(outcome).Observe(elapsed.Seconds())
}
