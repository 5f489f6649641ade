// Package hashtable is the hash table under every joind hash join and hash
// aggregation: a Swiss table probed a batch at a time by a kernel chosen
// for the CPU. It also holds the one hash function family of the execution
// layer (HashInt64, HashString in hash.go) that joins, aggregation,
// DISTINCT, set operations and repartition routing hash keys with.
//
// # Who uses it how
//
//   - A join on a single int-like key builds an Int64Table with duplicate
//     lists (Append, Finish), then probes it (Probe, Contains). Joins on
//     several fixed-width columns pack them into one int64 key first; joins
//     on other keys build the table on the rows' 64-bit hashes, so the
//     duplicate lists hold candidates that package join confirms column by
//     column.
//   - Hash aggregation keeps an Int64Table as a map from a group key to a
//     dense group id (groups.go): Lookup runs the probe kernel over a
//     batch, FindOrAdd adds the keys it did not find; keys of other shapes
//     are looked up by hash with FindOrAddHash, a Matcher comparing keys.
//
// # Why it exists
//
// A hash join spends its time probing. Go's built-in map probes one key at
// a time through a generic interface, so every probe into a table larger
// than the cache waits for its own memory miss. This table is probed with a
// whole batch per kernel call, which lets the kernel issue the batch's
// memory loads ahead of use (prefetches in assembly, independent loads in
// Go) and overlap their misses. It is also where an offset bug would lose
// join matches silently (Arrow Acero lost up to 80% on Intel AVX2 through a
// 32-bit block offset), so its address arithmetic is kept deliberately
// simple and is tested past the 32-bit limits.
//
// # Layout
//
// The table is a power-of-two array of 128-byte groups of 8 slots:
//
//	bytes   0..63   keys[8]  int64 key, or the 64-bit hash of a key of another shape
//	bytes  64..71   ctrl     one control byte per slot: 0x00 empty, 0x80|tag full
//	bytes  72..103  vals[8]  uint32 payload
//	bytes 104..127  padding  (stride stays a power of two)
//
// A zeroed group is empty, so fresh memory (make or mmap) needs no
// initialisation pass. The 64-bit hash h of a key picks the group from its
// top log2(groups) bits and the 7-bit tag from its low bits; probing walks
// groups g, g+1, ... (mod the group count) until it finds the key or a
// group with an empty slot. There are no deletions, hence no tombstones.
// The load is kept at or below 7/8 (about 1/2 when the build size is known).
//
// The payload is either a build row id (< 2^31) or, with the top bit set,
// the index of a duplicate list: rows dupRows[dupStart[e]:dupStart[e+1]],
// ascending. During the build duplicates are chained through a per-row
// next array; Finish flattens chains into those lists. So a key with many
// build rows costs one slot, and unique keys cost no extra memory access.
//
// # 64-bit offsets and the limits
//
// Every address is base + (g << 7) with g a 64-bit group index, in Go (slice
// indexing of []group) and in assembly (SHRQ/SHLQ/ADDQ on 64-bit
// registers); no 32-bit product ever becomes an offset. The largest table
// is 2^32 groups (maxLogGroups): its group bits (the top 32 of the hash)
// and the 7 tag bits are disjoint, which a compile-time constant in
// layout.go proves. Build row ids are uint32 below 2^31-1 (MaxBuildRows);
// appending beyond that returns a SQLSTATE 54000 error and leaves the table
// unchanged; no id ever wraps.
//
// Tests prove the kernels find keys placed at group ids just below and
// above 2^31/128 and 2^32/128 and in the last group of an 8 GiB group array
// reserved with MAP_NORESERVE (only touched pages become resident), and
// that a deliberately wrong kernel computing 32-bit offsets (it lives in a
// _test.go file only) fails that same test.
//
// # Kernels and dispatch
//
// A kernel (findFunc) takes a chunk of up to 1024 probe keys, with an
// optional selection vector, and writes each key's payload or "not found".
// It owns the chunk loop: nothing per key crosses an indirect call.
//
//   - "avx2" (amd64, chosen when golang.org/x/sys/cpu reports AVX2):
//     kernel_amd64.s hashes the chunk, then probes with both cache lines of
//     the group 16 keys ahead prefetched, comparing all 8 keys of a group
//     at once with VPCMPEQQ masked by the control bytes' full bits.
//   - "portable" (pure Go, SWAR on the 8 control bytes; every other
//     architecture and the purego build tag): the same two passes, using
//     plain loads of the control word 16 keys ahead in place of prefetches.
//
// KernelName reports the kernel new tables get and Describe gives the line
// for the start-up log and EXPLAIN. ForcePortable(true), or the environment
// variable JOIND_HASHTABLE_PORTABLE=1, forces the portable kernel for
// tables created afterwards; a table keeps the kernel it was created with.
// Both kernels are differential-tested on every batch length 0..4100.
//
// # NULLs
//
// NULL build keys are never inserted; the table counts them (SawNull,
// NullCount) because NOT IN and mark joins must know. NULL probe keys never
// match (ProbeArrow drops them from the selection; the other callers pass
// only non-NULL rows).
// Unmatched-row emission (MatchedBits.AppendUnset) naturally includes
// NULL-key build rows, as outer joins require.
//
// # Concurrency
//
// Build (NewInt64, Append, Finish) is single-writer. After Finish the
// table is read-only and safe for any number of concurrent probers, each
// with its own Matches. A table used as a map (FindOrAdd, FindOrAddHash,
// Lookup) belongs to one goroutine. MatchedBits is
// shared: Set uses atomic OR; read it only after all probers finished
// (the join supplies that barrier).
//
// # Memory
//
// Group arrays of 64 MiB or more are mapped directly (anonymous mmap with
// MADV_HUGEPAGE on Linux) so large tables get huge pages; Release unmaps
// at once, and a runtime cleanup unmaps a table dropped without Release.
//
// # Imports
//
// This package sits at the bottom of the execution layer: it may import
// the Arrow library, golang.org/x/sys and pgerr, and must not import
// operators, sql, engine, wire or storage (joins and aggregation import
// it, not the reverse).
package hashtable
