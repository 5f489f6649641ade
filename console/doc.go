// Package console is joind's small web console, served beside the
// Prometheus metrics on the opt-in --metrics-listen listener: server-rendered
// HTML (html/template, no build step, no script) over the server's own
// state.
//
//   - /            running queries (package activity) with a Cancel button,
//     which signals the backend as pg_cancel_backend does
//     (activity.Registry.Cancel)
//   - /statements  pg_stat_statements' entries, top N by total time
//   - /plan        a statement's EXPLAIN ANALYZE drawn as a tree of boxes,
//     each with its operator's actual rows, batches, time, memory
//     and spilled bytes, a bar scaled to the slowest node's time. The
//     statement runs in a session of its own inside BEGIN READ ONLY …
//     ROLLBACK, so the console never writes
//   - /copies      the running COPYs (pg_stat_progress_copy's source) as
//     progress bars: a share of bytes_total when the size is known (COPY FROM
//     a file), the bytes and tuples so far otherwise
//   - /storage     tables with their live and deleted rows, segments and
//     bytes on disk, and the compactions done since start
//
// Every page is read-only but /cancel, which takes POST only. The console
// trusts whoever reaches the listener, as the metrics do: bind it to a
// private address.
//
// Concurrency: a Console holds no mutable state; each request reads the
// registries through their own locks.
package console
