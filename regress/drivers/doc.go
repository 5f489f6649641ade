// Package drivers tests joind with the client drivers people use: pgx and
// lib/pq (Go), pgjdbc (Java), psycopg2 and psycopg 3 (Python), node-postgres
// (node/, npm pg), psqlODBC through unixODBC, and psql. Each test starts joind
// (regress/joindtest), runs a small program written for that driver, and
// checks its output: against a file taken from PostgreSQL 15, or against the
// same program run on PostgreSQL 15 (regress/oracle) in the same test. It also holds the
// authentication and TLS tests, which need a configured server, and the
// replay of Tableau's ODBC connector (tableau_test.go).
//
// A driver that is not installed skips its test, except under CI=true,
// where it fails: .ci/run installs them all.
//
// The package has only tests; it must not be imported.
package drivers
