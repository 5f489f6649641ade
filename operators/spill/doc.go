// Package spill is the one mechanism by which joind's pipeline breakers
// (sort, hash aggregation, hash join) go past memory: a query's memory
// budget and its spill files.
//
// A Space is one query's: the per-query memory limit, shared by every
// operator of the query (Reserve / Release count bytes against it), and
// the directory its spill files go to (the data directory's tmp/, which
// the engine empties at startup). An operator that cannot Reserve what it
// needs writes part of its state to a File (Create, Write, Finish) and
// reads it back later (Open); a File is removed when its operator is done
// with it (Remove), and at the latest when the operator's stream closes,
// so no file outlives its query, also on an error or a cancellation.
//
// Every Space also counts against the one server-wide limit
// (SetServerLimit, from server_memory_limit), so that queries each under
// their own limit cannot together exhaust the machine; Close, at the end
// of the query, returns what it still counts (memory held for the whole
// statement: NewStatementAccount). Operators without a spill path count
// through Account.Hold and fail with 53200 past either limit.
//
// Files hold Arrow IPC streams of one schema: batches come back exactly as
// written, in order. The operators decide what to write (sorted runs,
// hash partitions of rows) and own the files they create.
//
// spill imports only Arrow and pgerr; operators and operators/join import
// it.
package spill
