// Package storage holds joind's tables: a durable catalog (DB) of named
// columnar tables in a data directory, whose rows are Arrow record batches
// (one Arrow type per SQL type, see types.Type.ArrowType).
//
// A table is a list of immutable segments, each an Arrow IPC file whose
// columns are in lightweight encodings decoded lazily when read
// (encoding.go, encoding_lazy.go); a manifest, replaced atomically, names the tables and their segments. All
// changes go through transactions (Txn, itself a Catalog): a transaction's
// changes are private until Commit, which a single committer goroutine
// makes durable (fsync) in groups. Readers get immutable snapshots, so they
// never block writers and never see a partial statement. ARCHITECTURE.md
// ("Storage") describes the format and the crash-safety argument.
//
// The commit protocol (group commit, snapshots, compaction through the
// committer) is stated as invariants in commit.go and checked by an
// exhaustive interleaving explorer (package interleave, driven by
// commit_explore_test.go) that runs the shipped committer, Txn and
// compactor through the commitSync and commitStore interfaces.
//
// Sequences (sequence.go) are catalog entries of the same transactions,
// with a non-transactional counter made durable by marks logged ahead
// through the committer (SequenceCatalog).
// Deletes never rewrite a segment: a row is named by a RowID (segment id,
// offset), a version keeps a DeleteVector per segment with deleted rows
// (delete.go, dv.go), persisted inline in the manifest or as delta files
// (dvfile.go) and folded away by compaction and VACUUM; row locks
// (rowlock.go) make concurrent deleters of a row wait, and the committer
// refuses a delete of a row already gone (40001); a row a compaction moved
// after a transaction's snapshot is followed to its new RowID (forward.go).
// Relations are named by a key: the bare name in schema public, the
// schema's id and the name otherwise (schema.go: TableKey, SplitKey,
// BareName). Table.Name(), View.Name and Sequence.Name are keys, an
// index's key is its table's schema and its bare name (IndexKey); a
// message shows BareName(key), package sql resolves written names to keys.
//
// MemoryCatalog is a plain in-memory Catalog kept for tests of other
// packages; joind itself uses DB (in memory when opened with dir "").
//
// storage is the bottom layer: it imports types and pgerr only, never sql,
// optimizer, operators, engine or wire.
package storage
