// Package wire speaks the PostgreSQL frontend/backend protocol (version 3.0)
// so that unmodified Postgres clients — psql, libpq, pgx, JDBC, ODBC — can
// talk to joind.
//
// # Layers
//
// From the socket inwards:
//
//   - Server owns the listeners and the table of live connections (keyed by
//     backend process id, for cancellation and shutdown). It runs one
//     goroutine per connection.
//   - conn is one connection: it frames messages with pgproto3.Backend, runs
//     the startup handshake and the query loop, and is the only writer of its
//     socket.
//   - Engine/Session (engine.go) is everything behind the protocol: parsing,
//     settings, transactions, execution. wire sees SQL only as opaque
//     Statements and rows only as text-encoded values, so it must not import
//     the engine, planner, storage or type packages; it depends on pgproto3
//     and pgerr only.
//
// # Connection lifecycle
//
// A connection starts with untyped packets. SSLRequest is answered 'S' and
// the connection switches to TLS when a certificate is configured, else 'N'
// (GSSENCRequest always gets 'N') and the client continues in plain text on
// the same socket. A CancelRequest is handled and the socket closed at
// once. A StartupMessage carries the protocol version and parameters (user,
// database, application_name, DateStyle, ...; "options" holds
// "-c name=value" switches). A client asking for 3.x with x > 0 or for _pq_.*
// protocol options gets NegotiateProtocolVersion and carries on with 3.0.
//
// # Authentication (auth.go)
//
// The first HBARule matching the connection type (TLS or not), database,
// user and client address picks the method: trust, reject, password
// (cleartext), md5 or scram-sha-256 (RFC 5802/7677, no channel binding).
// Passwords come from AuthConfig.Users, in plain text or as PostgreSQL's
// md5 / SCRAM-SHA-256 verifiers; an md5 rule uses SCRAM for a SCRAM
// verifier, as PostgreSQL does. Without rules, a server with users asks
// everyone for SCRAM, and a server without users trusts clients on this
// machine and refuses others. RequireTLSRemote refuses unencrypted clients
// from other machines. Failures are FATAL 28P01 (password) or 28000 (no or
// a rejecting rule), worded as PostgreSQL words them; the log gives the
// reason and never the password.
//
// After AuthenticationOk the engine opens a Session with the parameters
// (names lower-cased) and a context that lives as long as the connection
// and carries its ConnInfo (process id, client address); the engine's
// refusal becomes a FATAL error. The server sends ParameterStatus for every
// reported setting, BackendKeyData (process id + random secret, needed to
// cancel), and ReadyForQuery. The connection ends on Terminate, on a lost
// socket, on a protocol violation (FATAL 08P01), or on shutdown (FATAL 57P01).
// While a query runs, the socket is peeked every second: a client that has
// gone gets its query cancelled (clientcheck.go), as PostgreSQL's
// client_connection_check_interval does.
// A message's length is checked as its header arrives (msglimit.go), before
// any buffer is made for it: as in PostgreSQL, messages without data (Sync,
// Flush, Terminate, Close, Describe, Execute, CopyDone, CopyFail) may claim
// at most 10000 bytes and a password message 65535; others are bounded by
// ServerOptions.MaxMessageSize.
// Connection slots (connlimits.go) are max_connections and
// superuser_reserved_connections: a connection takes one once its startup
// packet is read and is refused with FATAL 53300 when none is free; sockets
// that have sent no startup packet are bounded to twice max_connections;
// the startup phase must end within StartupTimeout (authentication_timeout).
//
// # Simple query protocol
//
// A Query message may hold several statements. Session.Parse splits it (an
// empty or comment-only string yields EmptyQueryResponse). Each statement is
// executed in turn; its rows stream as RowDescription + DataRow messages and
// it ends with CommandComplete. The first error stops the rest and is sent as
// ErrorResponse. Then settings whose value changed (SET, or a ROLLBACK that
// undid one) are sent as ParameterStatus, and a single ReadyForQuery carries
// the transaction status (I, T or E). Output is buffered and written at
// ReadyForQuery, or earlier once about 64 KiB of results are pending.
//
// # Extended query protocol (extended.go)
//
// A Session that implements ExtendedSession serves Parse/Bind/Describe/
// Execute/Close/Flush/Sync. wire keeps the named and unnamed prepared
// statements and portals (Parse of an existing name is 42P05, an unknown one
// 26000 / 34000) and expands format codes; the session prepares (inferring
// parameter types), binds, describes and executes, encoding rows in each
// column's result format. Execute with a row limit ends in PortalSuspended
// and a later Execute continues. After an error every message up to Sync is
// discarded; Sync ends the session's implicit transaction of the exchange
// (PipelineBlock: committed, as PostgreSQL commits at Sync), then sends
// changed ParameterStatus and ReadyForQuery, and
// portals end with the transaction (at Sync or a simple Query outside a
// block; a WITH HOLD cursor, a HeldPortal, outlives it). DEALLOCATE, a
// SQL statement about wire's statements, is run by wire (Deallocation).
// The two tables are the session's too (Objects, handed over through
// ObjectsUser): SQL's PREPARE and DECLARE keep their statements and
// cursors in them, so each name is in one namespace, as in PostgreSQL.
//
// # COPY (copy.go)
//
// The ResultWriter of a statement also implements CopyChannel: the engine
// calls CopyIn for COPY FROM STDIN (CopyInResponse, then the client's
// CopyData until CopyDone, or CopyFail = 57014) and CopyOut for COPY TO
// STDOUT (CopyOutResponse, CopyData per Write, CopyDone on Close). An error
// may carry a CONTEXT line (pgerr.Error.Where), e.g. COPY's `COPY t, line 3, column
// b: "x"`.
//
// # Cancellation and shutdown
//
// Each Query message runs under its own context, derived from the
// connection's. A CancelRequest arrives on a new connection with the target's
// process id and secret; if both match, only that connection's running query
// context is cancelled, and the client gets 57014. Shutdown stops the
// listeners, cancels every connection's context (running queries stop, idle
// readers are woken by a read deadline), and each connection sends FATAL
// 57P01 before closing. A panic in the engine while serving a query is
// recovered, logged with its stack, and reported to that client as XX000; the
// connection and the server keep running.
//
// # Fuzzing
//
// Native Go fuzz targets check that no input bytes make the server panic,
// hang, allocate from a length field, or answer without a PostgreSQL
// SQLSTATE:
//
//   - FuzzStartup (fuzz_test.go): the startup phase — SSL/GSSENC/cancel
//     requests, StartupMessages of any version and parameters, password
//     and SASL messages, absurd lengths — against protocolTestEngine.
//   - FuzzFrontendMessages (fuzz_engine_test.go, package wire_test): every
//     message after startup, including extended protocol, binary
//     parameters and COPY data, against joind's engine.
//   - FuzzCopyText, FuzzCopyBinary, FuzzBinaryParam (pgcopy/fuzz_test.go):
//     the text/CSV COPY loader (with and without its fast scan it must
//     agree), the binary COPY reader and the binary parameter decoder.
//
// Each input of the wire targets goes to a fresh loopback connection; the
// server must answer with well-formed messages, errors with a SQLSTATE
// valid at that point (never XX000), nothing after FATAL, close within a
// deadline once the client half-closes, log no recovered panic, and then
// serve another client. `go test` runs every target's seeds and its
// testdata/fuzz/<Target>/ corpus, which keeps each input that once failed
// as a regression. .ci/run fuzzes each target for 10s (JOIND_FUZZTIME);
// to search longer, run one target at a time from the repository root:
//
//	go test ./wire -run '^$' -fuzz '^FuzzFrontendMessages$' -fuzztime 30m
//	go test ./pgcopy -run '^$' -fuzz '^FuzzCopyText$' -fuzztime 30m
//
// A failing input is written to the package's testdata/fuzz/<Target>/;
// fix the code and commit the file with the fix.
package wire
