// Package optimizer turns a bound logical plan (package sql/plan) into a
// physical plan.
//
// It works in two steps:
//
//  1. Rewrite: a rule framework (Rule, Rewrite) applies logical rewrites
//     bottom-up to a fixpoint — constant folding, OR factoring, filter
//     merging, predicate pushdown through projections, sorts and joins, and
//     join-condition pushdown; then, once, restrictions implied by ORs over
//     join inputs (orclauses.go), the order of inner joins by estimated
//     cost (joinorder.go: dynamic programming over connected subsets up to
//     10 relations, greedy above), from the estimates of estimate.go over
//     storage's statistics (rows, NULLs, distinct sketches, bounds), and the
//     semi-join reduction of grouped aggregates joined on their keys
//     (ReduceGroupedJoins); the rules run again and PruneColumns drops
//     columns nobody reads.
//  2. Physical planning (Plan): each logical node becomes a Physical node,
//     one per operator, carrying every decision and its partition count;
//     joins are split into equi-keys and a residual filter and given an
//     algorithm (hash or nested loop), a build side and a partition mode
//     (plan.JoinMode: CollectLeft or Partitioned) from the row estimates
//     storage keeps, then laid out as executed — inputs, keys and join type
//     in (build, probe) order, mirrored when the logical right side is
//     built. ORDER BY ... LIMIT (a constant count, not WITH TIES) is one Top-N Sort (a bounded heap per
//     partition, merged). Exchanges are explicit nodes: Gather (N → 1) below Limit,
//     Distinct, an Apply's per-row side and at the root; Repartition on the
//     keys below both inputs of a Partitioned join.
//
// Every rule must keep SQL's three-valued logic: a rewrite may never turn
// UNKNOWN into FALSE where that is visible (NOT IN, outer joins, mark joins).
// Null-aware joins keep their sides and their NULL handling.
//
// The optimizer produces a description, not running operators: package
// executor builds one operator per node from it without deciding anything,
// so planner tests and EXPLAIN run without executing. It imports sql/plan,
// types and pgerr; never operators, executor, engine or wire.
package optimizer
