// Package drivers tests joind with the client drivers people use: pgx and
// lib/pq (Go), pgjdbc (Java), psycopg2 (Python), psqlODBC through unixODBC,
// and psql. Each test starts joind (regress/joindtest), runs a small program
// written for that driver, and checks its output. It also holds the
// authentication and TLS tests, which need a configured server.
//
// A driver that is not installed skips its test, except under CI=true,
// where it fails: .ci/run installs them all.
//
// The package has only tests; it must not be imported.
package drivers
