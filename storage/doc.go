// Package storage holds joind's tables: a catalog of named columnar tables
// whose rows are Arrow record batches (one Arrow type per SQL type, see
// types.Type.ArrowType).
//
// The Catalog and Table interfaces are what the rest of joind sees; today
// they are implemented in memory (MemoryCatalog), and a durable data
// directory will implement the same interfaces. Snapshots are immutable
// slices of immutable batches, so a reader never blocks a writer and never
// sees a partial statement: Append and Truncate publish a new slice under the
// table's lock.
//
// storage is the bottom layer: it imports types and pgerr only, never sql,
// optimizer, operators, engine or wire.
package storage
