// Package join is joind's join operators: the hash join (inner, left,
// right, full, semi, anti, mark, and their probe-side semi/anti variants,
// with PostgreSQL's NOT IN semantics when null-aware) and the nested-loop
// join for conditions without an equi-key. Both implement
// operators.Operator and run their partitions concurrently.
//
// The left input is always the build side: it is collected first. The right
// input is probed.
//
// # Modes
//
//	mode         build side                             who emits build-side rows
//	CollectLeft  collected once from every left          the last probe partition to finish
//	             partition, shared read-only by all      (left/full/semi/anti/mark), via the
//	             probe partitions                        completion protocol
//	Partitioned  both sides arrive hash-repartitioned    each partition its own; null-aware
//	             on the keys (an exchange below the      LeftAnti: the last partition, for all
//	             join); partition i joins pair i
//
// # Memory
//
// The build side counts against the query's memory limit (Env.Spill).
// Past it, a join that is not null-aware and has keys becomes a grace
// hash join (grace.go): both sides hash-partitioned into spill files,
// joined partition by partition. Null-aware joins fail with 53200.
//
// # Null-aware joins (NOT IN)
//
//	mode        emits                 NULL handling                                 legal with
//	RightAnti   probe rows            NULL build key: nothing; NULL probe key:      one key, no residual,
//	                                  dropped unless the build side is empty        CollectLeft
//	LeftAnti    build rows            uncorrelated: a NULL probe key: nothing;      uncorrelated: both modes;
//	                                  empty probe side: every row, NULLs too;       correlated: CollectLeft
//	                                  correlated: per build row (see below)
//	LeftMark    build rows + mark     TRUE matched; NULL unmatched but a NULL       CollectLeft
//	                                  could have matched; FALSE otherwise
//
// A join is correlated when it has more than one key (scope keys after the
// ValueKeys NOT IN value keys, or a multi-column value) or a residual filter.
// Then UNKNOWN is decided per build row: build rows with a NULL value key
// sit in a side index keyed by their scope values, a probe row with a NULL
// value key marks every build row of its scope, and the marks go in one
// bitmap shared by all probe partitions; the cost follows the number of
// NULLs. Illegal combinations are plan errors at construction (XX000 /
// 0A000), never wrong answers at run time.
//
// # Indexes and the fast path
//
//	key                                index (table.go, dense.go, layout.go, tuple.go)
//	one int-like key, span <= 32/row   dense: bitmap + popcount ranks, a bit test per probe
//	one int-like key, wider            Swiss table (package hashtable) + a blocked Bloom
//	                                   filter for big tables, dropped when most keys pass
//	fixed-width keys whose build       packed: one int64 per row (mixed radix over the
//	ranges multiply to <= 2^62         build's ranges), then dense or Swiss as above
//	anything else (text, numeric,      hashed: Swiss table on the per-column-combined
//	wide keys, IS NOT DISTINCT FROM)   hash, candidates confirmed column by column
//	NULL-aware side indexes            chain: buckets by the keys' hash
//
// Keys are in the not-distinct encoding of operators/keys.go (never encoded
// per row into bytes) and hash with the one hash family of package
// hashtable, as in aggregation.
//
// A consumer narrows the join to the columns it reads (operators.Narrower).
// An inner join left with no output columns, or a RightSemi/RightAnti one
// without build columns, takes the batch fast path (fast.go): one index
// call per probe batch that counts or flags rows, and zero-column batches
// that carry only a row count when nothing is read (count(*)).
//
// # Probe completion
//
// Invariant: whoever observes itself to be the last probe partition sees
// every fact recorded by every other partition. The facts (saw a row, saw a
// NULL key) are obtainable only from the call that decrements the running
// counter; a "saw a NULL" hint may lag but never claims an unrecorded NULL.
// The protocol (completion.go) is written once, generic over its atomic
// operations, and model-checked under every interleaving by package
// interleave's explorer in completion_test.go, which also shows that the read-before-decrement
// variant fails.
//
// # Imports
//
// join may import operators, sql/plan, types, pgerr and
// operators/hashtable (and Arrow). It must never import sql, optimizer,
// engine or wire: plans reach it as operators and plan expressions.
package join
