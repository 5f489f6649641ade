// Package activity is the server's list of live backends and what each
// one is doing right now: the rows of pg_stat_activity, and the way
// pg_cancel_backend and pg_terminate_backend reach another session.
//
// Package wire owns the entries: it registers a connection once it is
// authorized, records each query as it starts and the transaction status
// each ReadyForQuery reports, and removes the entry when the connection
// ends. Package pgcatalog only reads (Registry.Rows) and signals
// (Registry.Cancel, Registry.Terminate). cmd/joind makes the one Registry
// and hands it to both.
package activity
