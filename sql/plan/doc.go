// Package plan defines joind's typed logical plan: the contract between the
// binder (package sql), which produces it, the optimizer, which rewrites it and
// chooses physical operators, and the operators, which evaluate its
// expressions.
//
// Columns are identified by query-wide unique ColumnIDs, not by position, so
// rewrites (pushdown, pruning, decorrelation) never renumber references. A node
// lists its output Columns in order; physical planning maps IDs to positions.
//
// plan imports only types and storage; it must not import sql, optimizer or
// operators.
package plan
