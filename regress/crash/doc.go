// Package crash tests joind's durability from the outside: servers killed
// with SIGKILL under concurrent writers (INSERT, COPY, transaction blocks,
// UPDATE and DELETE of earlier rows) and restarted on the same data
// directory must keep every acknowledged change exactly once and show no
// partial statement or transaction; damaged files must stop the server
// from starting; transaction blocks must be atomic and isolated.
//
// It holds tests only and imports joindtest (which builds and runs the
// binary) and pgx; it must not import joind's own packages.
package crash
