// Package operators is joind's vectorized executor: physical operators that
// process Arrow record batches, run as partitions on goroutines, plus the
// scalar expression evaluator (Compile / Eval) every operator uses. The hash
// joins live in operators/join.
//
// # The batch contract
//
// An Operator describes its output columns and a number of partitions. Each
// partition is an independent Stream obtained with Open(ctx, p); the caller
// runs different partitions on different goroutines, through the toolkit
// below (RunPartitions, Gather).
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
//     batch, and a context error leaves an operator as 57014 "canceling
//     statement due to user request" wrapping ctx.Err(), made in one place
//     (canceled, exec.go); engine only picks the statement_timeout message.
//   - Close may be called at any time, before the end too, and twice. Closing
//     a stream that owns goroutines stops and waits for them (see below), so
//     no goroutine outlives its stream.
//
// # Partitions
//
// Scan deals its table's batches over N partitions in contiguous runs (in
// partition order they are the stored order); Filter and
// Project preserve partitioning; Repartition hash-partitions by key;
// Gather merges N partitions into one; Aggregate, Sort, Top-N Sort,
// INTERSECT / EXCEPT and Values produce one partition, reading all of their input's partitions
// concurrently; UNION ALL concatenates its inputs' partitions. Limit, Unique (DISTINCT ON) and
// Distinct read exactly one partition: no constructor inserts an exchange —
// the physical plan puts an explicit Gather or Repartition wherever
// partitioning changes (package optimizer), and a Partitioned hash join
// reads both inputs through a Repartition on its keys.
//
// # Parallel execution
//
// Every concurrent read of partitions goes through one toolkit (exec.go,
// parallel.go, collect.go, pool.go), and its contract holds everywhere:
//
//   - RunPartitions is the one fan-out: each partition of a Source on its
//     own goroutine, under a context derived from the caller's (the first
//     failure cancels it), returning only after every goroutine returned.
//   - Drain and Sink are how pipeline breakers read their input: a state
//     per input partition, filled on that partition's goroutine without
//     locks, combined in partition order (a Sink that is also a Finisher
//     finishes each partition's state on its goroutine first: Sort sorts
//     its partitions in parallel there); breakerStream is the output
//     (finalize) side, and its cleanup releases spill files. Aggregate,
//     Sort, Top-N Sort (a bounded heap per partition), the set operations,
//     Collect and the hash join's build side are written on them. Distinct
//     streams (each
//     batch yields its new rows) and reads one partition.
//   - Gather queues at most max(2, partitions) batches: producers block.
//   - Repartition queues at most 2 batches per output partition, except
//     that when every producer is blocked and some consumer waits on an
//     empty partition, a producer queues beyond the bound. So output
//     partitions may be consumed in any order (concurrently, or one after
//     another by one goroutine) without a deadlock; the bound holds
//     whenever the consumers keep up with each other. Rows with a NULL key
//     go to partition 0. Producers start at the first Open, under a context
//     derived from that Open's; every output partition must be opened and
//     closed, and the last Close cancels and waits for the producers.
//   - Ordered is the worker pool (COPY's loader): results in input order on
//     the caller's goroutine, at most 2×workers items in flight.
//   - One error-precedence rule (firstCause): the first error stands, but a
//     real error beats the cancellations it caused. Cancellation becomes
//     57014 through canceled only.
//   - A panic on a toolkit goroutine becomes the statement's XX000 error
//     (runRecovered), never the process's end.
//   - Close (Gather's stream, the last Repartition stream) cancels and
//     waits for every goroutine it owns; RunPartitions, Drain and Ordered
//     wait before returning.
//
// The toolkit keeps its state under monitors whose locks and waits take
// explorer hooks from the context; parallel_explore_test.go runs this
// shipped code under the interleaving explorer (package interleave) and
// checks the rules above — Gather and RunPartitions under every schedule,
// Repartition and Ordered (whose full spaces are out of reach) under every
// schedule of at most 2 and 1 preemptions — including that Repartition
// without its release deadlocks.
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
// one value per row. Evaluation is column-at-a-time. A call runs its
// vectorized kernel when one is registered for the overload's signature
// (vecregistry.go: registerKernel; casts: registerCastKernel): inline loops
// over the Arrow buffers for integer, float, date/timestamp and text
// comparisons, integer arithmetic, date ± integer and LIKE/ILIKE against a
// constant pattern; rowKernel (the overload's own Eval over typed readers
// and writers, memoized per distinct date/timestamp) for the other datetime
// arithmetic, extract, date_part, date_trunc, substring and casts. Without
// a kernel a call goes row by row through types.Value and the overload's
// Eval (callNode.generic), the reference every kernel is held to by
// vecdiff_test.go. `x IN (constants)` is one set lookup per row (vecin.go).
// CASE, COALESCE, AND and OR evaluate later arguments only on the rows
// still undecided, so guarded errors (CASE WHEN x = 0 THEN 0 ELSE 1/x END)
// never fire; conditions that cannot fail (safeCond: comparisons, IN lists,
// LIKE without escapes) are instead evaluated once over the whole batch and
// combined, which gives the same results without copying rows.
//
// Numeric kernels (vecnumeric.go) compute over scaled integers in numeric's
// column forms (types/decimal.go) and decline to the apd path on overflow,
// NaN or a failing cast. A numeric result may stay in a kernel's form inside
// the evaluator (aggregate arguments are read so); Eval conforms it to its
// type's form.
//
// # Imports
//
// # Memory
//
// Env.Spill is the query's memory limit and spill area (package
// operators/spill). The pipeline breakers count what they hold against it
// and, past it, spill instead of failing: Sort writes sorted runs and
// merges them; hash aggregation and hash join partition rows by hash
// into files (their comments say how, and which cases cannot spill).
//
// operators imports types, sql/plan, storage, operators/hashtable,
// operators/spill and pgerr only. It must not
// import sql, optimizer, engine or wire: they sit above it.
package operators
