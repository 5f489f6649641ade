// Package operators is joind's vectorized executor: physical operators that
// process Arrow record batches, run as partitions on goroutines, plus the
// scalar expression evaluator (Compile / Eval) every operator uses. The hash
// joins live in operators/join.
//
// # The batch contract
//
// An Operator describes its output columns and a number of partitions. Each
// partition is an independent Stream obtained with Open(ctx, p); the caller
// runs different partitions on different goroutines (see Gather, Collect).
//
//   - A batch is obtained with Stream.Next. It is never empty.
//   - A batch never becomes invalid: batches are immutable and built on Go
//     memory, so a consumer may keep any batch for as long as it likes and
//     nothing is ever Released. Operators never modify a batch they received.
//   - End of stream is (nil, io.EOF). After io.EOF or an error, Next is not
//     called again.
//   - Errors carry a SQLSTATE (package pgerr) from where they arise: the
//     expression evaluator returns types' errors unchanged (22003, 22012 ...).
//   - Cancellation is by context: every loop checks ctx at least once per
//     batch and a cancelled query fails with 57014 "canceling statement due
//     to user request" (wrapping ctx.Err()).
//   - Close may be called at any time, before the end too, and twice. Closing
//     a stream that owns goroutines (Gather, Repartition) stops and waits for
//     them, so no goroutine outlives its stream.
//
// # Partitions
//
// Scan deals its table's batches round-robin over N partitions; Filter and
// Project preserve partitioning; Repartition hash-partitions by key;
// Gather merges N partitions into one; Aggregate, Sort, INTERSECT / EXCEPT
// and Values produce one partition, reading all of their input's partitions
// concurrently; UNION ALL concatenates its inputs' partitions. Limit and
// Distinct read exactly one partition: no constructor inserts an exchange —
// the physical plan puts an explicit Gather or Repartition wherever
// partitioning changes (package optimizer), and a Partitioned hash join
// reads both inputs through a Repartition on its keys.
//
// # Narrowing
//
// A plan's join outputs every column of both inputs. Consumers that know
// what they read (aggregates, projections) narrow their input at
// construction through the Narrower interface (narrow.go); filters and
// joins pass the request on. A join under count(*) thus produces batches
// with no columns at all, and the aggregate counts rows without touching
// values (count(*) and count(x) are batch counters, not accumulators).
//
// # Expressions
//
// Compile resolves column references to input positions once; Eval returns
// one value per row. Evaluation is column-at-a-time with typed fast paths for
// integer and float comparisons and integer arithmetic; everything else goes
// row by row through types.Value and the overloads' Eval. CASE, COALESCE,
// AND and OR evaluate later arguments only on the rows still undecided, so
// guarded errors (CASE WHEN x = 0 THEN 0 ELSE 1/x END) never fire.
//
// # Imports
//
// operators imports types, sql/plan, storage and pgerr only. It must not
// import sql, optimizer, engine or wire: they sit above it.
package operators
