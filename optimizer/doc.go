// Package optimizer turns a bound logical plan (package sql/plan) into a
// physical plan.
//
// It works in two steps:
//
//  1. Rewrite: a rule framework (Rule, Rewrite) applies logical rewrites
//     bottom-up to a fixpoint — constant folding, filter merging, predicate
//     pushdown through projections, sorts and joins, and join-condition
//     pushdown — then PruneColumns drops columns nobody reads.
//  2. Physical planning (Plan): each logical node becomes a Physical node;
//     joins are split into equi-keys and a residual filter and given an
//     algorithm (hash or nested loop), a build side and a partition mode
//     (CollectLeft or Partitioned) from the row estimates storage keeps.
//
// Every rule must keep SQL's three-valued logic: a rewrite may never turn
// UNKNOWN into FALSE where that is visible (NOT IN, outer joins, mark joins).
// Null-aware joins keep their sides and their NULL handling.
//
// The optimizer produces a description, not running operators: package engine
// builds operators from it, so planner tests run without executing. It
// imports sql/plan, storage and types; never operators, engine or wire.
package optimizer
