// Package regress is joind's outside-in test harness: SQL suites fed to
// psql exactly as PostgreSQL's pg_regress does (sql/<name>.sql, diffed
// byte-for-byte against expected/<name>.out, which real PostgreSQL 15
// produced), plus end-to-end tests through pgx. See README.md.
//
// The tests start joind as a process (package joindtest) and PostgreSQL as
// the oracle (package oracle). Package regress must not import joind's
// server packages: everything it checks goes over the wire.
package regress
