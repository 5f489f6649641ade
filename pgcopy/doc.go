// Package pgcopy holds COPY's data formats and the client's binary value
// format, below the engine that runs the statements:
//
//   - text and CSV COPY FROM (load.go, cutting the input into chunks,
//     parsing them on the toolkit's worker pool operators.Ordered and
//     putting the results together; parse.go, the record parser;
//     columns.go, the Arrow columns it fills): one parser, with PostgreSQL's semantics, error
//     order and line numbers, and a fast scan for plain records inside it;
//   - the omitted columns' DEFAULTs (defaults.go), which the binder binds and
//     executor.CopyDefaults compiles; pgcopy evaluates per row or per batch;
//   - binary COPY (binarycopy.go) and the binary send/receive format of
//     each type (binary.go), which the extended protocol's Bind and DataRow
//     use too; a client's values in Bind (DecodeParam) and DataRow
//     (RowEncoder, text or binary per column) in client.go;
//   - COPY TO in text and CSV (text.go), and Parquet both ways (parquet.go;
//     the value conversion is package external's, shared with read_parquet).
//
// The server-side file rule (copy_dirs) is package external's too.
//
// The engine keeps the statement's side: the copy channel, the
// transaction state machine, running COPY TO's query (it hands pgcopy the
// batches as a Batches function) and appending what pgcopy loaded to the
// statement's transaction. pgcopy imports neither engine nor wire.
package pgcopy
