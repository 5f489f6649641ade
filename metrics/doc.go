// Package metrics is joind's Prometheus endpoint (the opt-in
// --metrics-listen listener, prometheus/client_golang): connections by
// state (read from package activity at each scrape), statements by
// outcome and SQLSTATE class, statement and commit latency histograms,
// rows returned or affected (told as they happen: Metrics implements
// stats.Observer), the cumulative counters of package stats (transactions,
// scans, rows read and written, segments read, COPYs running), and the Go
// runtime's and the process's own metrics.
//
// Concurrency: the prometheus types are safe for concurrent use; the
// collectors read activity and stats through their own locks at scrape
// time.
package metrics
