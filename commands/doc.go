// Package commands executes the DDL and DML statements — what PostgreSQL's
// src/backend/commands does: CREATE TABLE, CREATE TABLE AS, DROP TABLE
// (with the views that depend on it, RESTRICT or CASCADE), CREATE VIEW,
// DROP VIEW, INSERT, UPDATE, DELETE, MERGE (update.go, merge.go: the
// target rows' RowIDs deleted through Catalog.Delete, new rows appended
// through AppendRecords) and TRUNCATE, against the statement's catalog. It also
// holds a session's temporary tables (TempTables: the in-memory catalog of
// pg_temp, its ON COMMIT actions and its mirror of the session's
// savepoints) and the Catalog every statement binds with and writes
// through: pg_temp in front of the transaction's permanent tables.
//
// A command sees the session only through the Session interface: the
// statement's Catalog, Collect to run a bound query (the rows of CREATE
// TABLE AS and INSERT ... SELECT, planned and run by the session's
// executor), the output Format, Notice for the client's NOTICEs and
// WARNINGs, and SendRows for RETURNING rows. So commands imports neither engine nor wire: notices are
// *pgerr.Error values the session sends, and which transaction a statement
// runs in, and when it commits, is the session's alone (engine's state
// machine). Package engine dispatches every statement it does not run
// itself (queries, EXPLAIN, COPY, SET/SHOW, DISCARD, transaction control)
// to Execute, and asks ReadOnlyErr before any statement in a read-only
// transaction.
//
// To add a command (CREATE INDEX, ...):
//
//  1. Its bound statement type comes from package sql (the binder resolves
//     names and types; the command only executes).
//  2. Write its function here, in the file of its kind (table.go,
//     insert.go, views.go, or a new one): func(ctx, Session, *sql.X)
//     (tag string, err error), returning PostgreSQL's command tag and its
//     errors as pgerr values with PostgreSQL's SQLSTATE and wording, and
//     sending its NOTICEs through Session.Notice. Rows it adds go through
//     AppendRecords (NOT NULL checked, one batch: the statement lands
//     whole or not at all).
//  3. Add its case to Execute's switch, and to ReadOnlyErr if it writes
//     (what PostgreSQL refuses in a read-only transaction: 25006).
//  4. If it needs more of the session than Session offers, widen Session
//     by one method and implement it in engine/commands.go.
//  5. Test it with a regress suite from PostgreSQL 15 (regress/sql/,
//     expected output from regress/make-expected.sh).
package commands
