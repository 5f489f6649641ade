// Package stats owns the server's cumulative statistics: what
// pg_stat_statements, pg_stat_user_tables (and its all/sys/statio
// relatives), pg_stat_database and pg_stat_progress_copy show, and what
// the Prometheus metrics (package metrics) export.
//
// engine records into it as statements finish (statements.go: one entry
// per user, database and normalized statement, its text with constants
// replaced by $n as pg_stat_statements does), scans count their table's
// scans and rows read (tables.go), DML its rows written, transactions
// their outcome (database.go), and COPY its progress while it runs
// (copy.go); pgcatalog reads it for the views. cmd/joind makes the one
// Server; a nil *Server (tests, tools without a server) records nothing
// and lists nothing.
//
// Concurrency: every counter is written by many sessions at once; each
// file states its invariant. The package imports no other joind package.
package stats
