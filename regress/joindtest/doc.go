// Package joindtest builds the joind binary and runs it as a separate
// process for outside-in tests (psql regress suites, pgx end-to-end and
// differential tests), so those tests see exactly what a client sees.
//
// It is test support only. It talks to joind through its command line and
// the PostgreSQL protocol; it must not import joind's own packages (engine,
// wire, operators, ...), which would let a test reach around the server.
package joindtest
