package metrics

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/joind/joind/activity"
	"github.com/joind/joind/operators/spill"
	"github.com/joind/joind/stats"
)

// serverCollector reads the live state at each scrape: connections from
// activity, the cumulative counters from stats (summed over databases
// and tables).
type serverCollector struct {
	backends *activity.Registry
	st       *stats.Server
}

var (
	descConnections = prometheus.NewDesc("joind_connections", "Client connections, by pg_stat_activity state.", []string{"state"}, nil)
	descXacts       = prometheus.NewDesc("joind_transactions_total", "Transactions ended, by outcome (commit, rollback).", []string{"outcome"}, nil)
	descTuples      = prometheus.NewDesc("joind_tuples_total", "Rows read by scans (returned, fetched by index) and written (inserted, updated, deleted).", []string{"op"}, nil)
	descSegments    = prometheus.NewDesc("joind_segments_read_total", "Storage segments read by scans.", nil, nil)
	descCopies      = prometheus.NewDesc("joind_copies_running", "COPY statements running now.", nil, nil)
	descCopyBytes   = prometheus.NewDesc("joind_copy_bytes_processed", "Bytes processed so far by the COPY statements running now.", nil, nil)
	descOpMemory    = prometheus.NewDesc("joind_operator_memory_bytes", "Memory held now by the running queries' operators (hash join build sides, hash aggregation, sort), by operator.", []string{"operator"}, nil)
	descSpilled     = prometheus.NewDesc("joind_spilled_bytes_total", "Bytes written to spill files, by operator.", []string{"operator"}, nil)
)

func (c *serverCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{descConnections, descXacts, descTuples, descSegments, descCopies, descCopyBytes, descOpMemory, descSpilled} {
		ch <- d
	}
}

func (c *serverCollector) Collect(ch chan<- prometheus.Metric) {
	states := map[string]int{}
	for _, s := range []activity.State{activity.Idle, activity.Active, activity.IdleInTransaction, activity.IdleInTransactionAborted} {
		states[s.String()] = 0
	}
	if c.backends != nil {
		for _, r := range c.backends.Rows() {
			states[r.State]++
		}
	}
	for s, n := range states {
		ch <- prometheus.MustNewConstMetric(descConnections, prometheus.GaugeValue, float64(n), s)
	}
	for _, u := range spill.Usage() {
		ch <- prometheus.MustNewConstMetric(descOpMemory, prometheus.GaugeValue, float64(u.InUse), u.Kind.String())
		ch <- prometheus.MustNewConstMetric(descSpilled, prometheus.CounterValue, float64(u.Spilled), u.Kind.String())
	}
	if c.st == nil {
		return
	}
	var commit, rollback, ret, fetch, ins, upd, del, segs int64
	for _, name := range c.st.Databases.Names() {
		d := c.st.Databases.Of(name)
		commit += d.XactCommit.Load()
		rollback += d.XactRollback.Load()
		ret += d.TupReturned.Load()
		fetch += d.TupFetched.Load()
		ins += d.TupInserted.Load()
		upd += d.TupUpdated.Load()
		del += d.TupDeleted.Load()
		segs += d.BlksRead.Load()
	}
	counter := func(d *prometheus.Desc, v int64, labels ...string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.CounterValue, float64(v), labels...)
	}
	counter(descXacts, commit, "commit")
	counter(descXacts, rollback, "rollback")
	counter(descTuples, ret, "returned")
	counter(descTuples, fetch, "fetched")
	counter(descTuples, ins, "inserted")
	counter(descTuples, upd, "updated")
	counter(descTuples, del, "deleted")
	counter(descSegments, segs)
	var bytes int64
	running := c.st.Copies.Running()
	for _, p := range running {
		bytes += p.BytesProcessed.Load()
	}
	ch <- prometheus.MustNewConstMetric(descCopies, prometheus.GaugeValue, float64(len(running)))
	ch <- prometheus.MustNewConstMetric(descCopyBytes, prometheus.GaugeValue, float64(bytes))
}
