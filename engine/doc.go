// Package engine is where the layers meet: it implements wire.Engine and
// wire.Session, and runs each statement through the pipeline
//
//	sql.Parse → sql.Bind → executor (optimizer.Plan, operators) → rows
//
// A session holds the client's settings (a settings.Values; settings.go
// maps SET/SHOW onto it), its transaction state and its temporary tables
// (a commands.TempTables: an in-memory catalog of its own in front of the
// shared one, whose transaction temp.go ends with the session's). The
// transaction state is an explicit state machine (txnfsm.go): states
// (Idle, ImplicitMulti, ImplicitPipeline, InBlock, FailedBlock, CopyIn,
// Closed), events (statement ok/error, BEGIN/COMMIT/ROLLBACK/savepoints,
// Sync, start and end of a simple Query, COPY start/done/fail, close) and
// one table of transitions whose actions begin, commit and discard storage
// transactions and end the settings' and temporary tables' transaction
// levels with them; the session fires events and ReadyForQuery's status
// derives from the state. The permanent catalog is the engine's and is
// shared by all sessions. Statement dispatch is run.go's: DDL and DML go
// to package commands (commands.Execute, through the commands.Session of
// commands.go); queries are handed to package executor, which plans them
// (optimizer.Plan), builds their operators and runs them (and is the
// SubqueryRunner for subquery expressions the optimizer kept as
// expressions); engine encodes the rows, in portals for the extended
// protocol (extended.go). SQL cursors (cursor.go: DECLARE / FETCH / MOVE /
// CLOSE, PostgreSQL's portal positioning, WITH HOLD materialized at
// commit, the row WHERE CURRENT OF names) and prepared statements (prepare.go: PREPARE / EXECUTE, the
// same preparedStmt as Parse) live in the connection's one table of
// statements and portals (wire.Objects), which they share with the
// extended protocol; pg_cursors and pg_prepared_statements list them.
// DISCARD and CHECKPOINT are discard.go's. COPY runs here as a statement (copy.go: the copy
// channel, the transaction, appending the rows); its formats, parsing and
// writing are pgcopy's.
//
// UPDATE, DELETE and MERGE under READ COMMITTED restart after a
// concurrent update (retry.go): when deleting a row another transaction
// changed and committed since the statement's snapshot fails with
// storage.IsConcurrentUpdate's 40001, the statement rolls back to a
// statement-level savepoint, takes a fresh snapshot and runs again (at
// most maxStatementRestarts times); under REPEATABLE READ and SERIALIZABLE
// the 40001 reaches the client, as in PostgreSQL.
//
// engine imports every lower layer (commands, pgcopy, sql, optimizer, executor,
// operators, settings, storage, types) and wire's interfaces; nothing
// imports engine but cmd/joind and tests.
package engine
