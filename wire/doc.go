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
// A connection starts with untyped packets. SSLRequest and GSSENCRequest are
// answered 'N' (no encryption offered) and the client continues in plain text
// on the same socket. A CancelRequest is handled and the socket closed at
// once. A StartupMessage carries the protocol version and parameters (user,
// database, application_name, DateStyle, ...; "options" holds
// "-c name=value" switches). A client asking for 3.x with x > 0 or for _pq_.*
// protocol options gets NegotiateProtocolVersion and carries on with 3.0.
// Authentication is "trust" for now: AuthenticationOk at once. The engine then
// opens a Session with the parameters (names lower-cased) and a context that
// lives as long as the connection and carries its ConnInfo (process id,
// client address); the engine's refusal becomes a FATAL error. The server sends ParameterStatus for every reported setting,
// BackendKeyData (process id + random secret, needed to cancel), and
// ReadyForQuery. The connection ends on Terminate, on a lost socket, on a
// protocol violation (FATAL 08P01), or on shutdown (FATAL 57P01).
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
// The extended protocol (Parse/Bind/Describe/Execute/Sync) is not served yet:
// such messages get 0A000 and are discarded up to Sync, so the connection
// stays usable.
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
package wire
